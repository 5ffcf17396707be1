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
FENCE = re.compile(r"^\s*=+(?:\s+=+)+\s*$")


def _short(match: re.Match[str]) -> str:
    text = match[0]
    target = match[1]
    if "~" in text:
        target = target.rsplit(".", 1)[-1]
    target = re.sub(r"^(.*?) <(.*)>$", r"\1", target)
    return f"`{target}`"


def _inline(line: str) -> str:
    return ROLE.sub(_short, line).replace("``", "`")


def _table(head: list[str], rows: list[str], fence: str) -> list[str]:
    """A reST simple table (a header row or none, then its rows) as a Markdown table."""
    starts = [m.start() for m in re.finditer(r"=+", fence)]

    def row(text: str) -> str:
        cells = [text[a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
        return "| " + " | ".join(_inline(c) for c in cells) + " |"

    top = row(head[0]) if head else "| " + " | ".join([""] * len(starts)) + " |"
    return [top, "|" + "---|" * len(starts), *(row(r) for r in rows if r.strip())]


def _fences(lines: list[str], i: int) -> list[int]:
    """The fences of the simple table whose first fence is line *i* (2 or 3 of them)."""
    found = [i]
    for j in range(i + 1, len(lines)):
        if FENCE.match(lines[j]):
            found.append(j)
            if len(found) == 3:
                break
        elif not lines[j].strip():
            break
    return found


def markdown(doc: str) -> str:
    """*doc* with its doctests fenced and its reST inline markup in Markdown."""
    out: list[str] = []
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        fences = _fences(lines, i) if FENCE.match(line) else []
        if len(fences) == 3:  # a header row between the first two fences
            head, rows = lines[i + 1 : fences[1]], lines[fences[1] + 1 : fences[2]]
        elif len(fences) == 2:
            head, rows = [], lines[i + 1 : fences[1]]
        if len(fences) >= 2:
            out += ["", *_table(head, rows, line), ""]
            i = fences[-1] + 1
            continue
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
            out.append(_inline(head))
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
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Rewrites every docstring griffe loads with :func:`markdown`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
