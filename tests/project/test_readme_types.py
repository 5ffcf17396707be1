"""The README's Python quick start type-checks with ``mypy --strict`` as written, so a user
who pastes it into a typed project gets no error (``next_step(g).text`` is a ``str``, where
``hint(g)`` is ``Step | None``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import support

README = support.REPO / "README.md"


def _quick_start() -> str:
    """The statements of the README's "Python quick start" examples, as a module."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Python quick start", 1)[1].split("\n## ", 1)[0]
    code = [
        line[4:]
        for line in section.splitlines()
        if line.startswith((">>> ", "... ")) and "Traceback" not in line
    ]
    return "import sudokit\n" + "\n".join(code) + "\n"


@pytest.mark.slow
def test_the_quick_start_passes_mypy_strict(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    snippet = tmp_path / "quick_start.py"
    snippet.write_text(_quick_start(), encoding="utf-8")
    cache = tmp_path / "mypy-cache"
    out, err, code = api.run(["--strict", "--cache-dir", str(cache), str(snippet)])
    assert code == 0, out + err
    assert "next_step(g).text" in snippet.read_text(encoding="utf-8")
