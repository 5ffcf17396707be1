"""A griffe extension of the docs site: docstrings written for Sphinx and doctest, as Markdown.

The package's docstrings are reST-flavoured and hold doctests (``>>>``), which pytest runs.
Markdown would read a doctest as nested quotes, so each run of ``>>>`` / ``...`` lines and the
output after it becomes a ``pycon`` code block, shown as written; ``x``, :func:`~a.b` and a
``text::`` literal block become their Markdown forms.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def _short(match: re.Match[str]) -> str:
    text = match[0]
    target = match[1]
    if "~" in text:
        target = target.rsplit(".", 1)[-1]
    target = re.sub(r"^(.*?) <(.*)>$", r"\1", target)
    return f"`{target}`"


def markdown(doc: str) -> str:
    """*doc* with its doctests fenced and its reST inline markup in Markdown."""
    out: list[str] = []
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip() and lines[i].startswith(indent):
                block.append(lines[i][len(indent) :])
                i += 1
            out += [indent + "```pycon", *(indent + b for b in block), indent + "```"]
            continue
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            head = line.rstrip()[:-3] if line.rstrip().endswith(" ::") else line.rstrip()[:-1]
            out.append(ROLE.sub(_short, head).replace("``", "`"))
            i += 1
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                body.append(lines[i])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            width = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
            out += ["", "```text", *(b[width:] for b in body), "```", ""]
            continue
        out.append(ROLE.sub(_short, line).replace("``", "`"))
        i += 1
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Rewrites every docstring griffe loads with :func:`markdown`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
