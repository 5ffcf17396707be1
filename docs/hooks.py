"""MkDocs hooks of the docs site (``mkdocs.yml``): the pages made from the code.

* The technique pages and their pictures (``docs/gen_techniques.py``) are added as files of
  the site when it is built; nothing generated is kept in the repository.
* A page's ``<!-- generated: NAME -->`` line is replaced by the block ``NAME`` of
  ``docs/gen_reference.py`` (the formats, the rule keys, the f-puzzles table, the benchmarks).
* Links from the documents under ``docs/`` to files outside it (``../DEVELOP.md``) point at
  the repository, which the site does not hold: they become the file's path, in code.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_reference  # noqa: E402
import gen_techniques  # noqa: E402

MARKER = re.compile(r"^<!-- generated: ([\w-]+) -->$", re.MULTILINE)
OUTSIDE = re.compile(r"\[([^\]]+)\]\((\.\./[^)\s]+)\)")


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for path, text in gen_techniques.pages().items():
        files.append(File.generated(config, path, content=text))
    return files


def _outside(page: Any, match: re.Match[str]) -> str:
    target = (HERE / Path(page.file.src_uri).parent / match[2]).resolve()
    if HERE in target.parents:
        return match[0]
    return f"{match[1]} (`{target.relative_to(HERE.parent)}`)"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    def block(match: re.Match[str]) -> str:
        name = match[1]
        if name not in gen_reference.BLOCKS:
            raise KeyError(f"{page.file.src_uri}: no generated block {name!r}")
        return gen_reference.BLOCKS[name]()

    markdown = MARKER.sub(block, markdown)
    return OUTSIDE.sub(lambda m: _outside(page, m), markdown)
