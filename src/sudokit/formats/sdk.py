"""SadMan Sudoku ``.sdk`` (with the SudoCue header lines).

Optional header lines ``#A`` author, ``#D`` description, ``#C`` comment, ``#B`` date,
``#S`` source, ``#L`` level, ``#U`` URL (kept as fields named ``author``, ``description``,
...), an optional ``[Puzzle]`` line, then one row of symbols per line (``.`` blank). Other
bracketed sections (``[State]``) are skipped. Several puzzles may follow each other.

>>> from sudokit.formats import parse
>>> text = "#ARuud\\n#LEasy\\n[Puzzle]\\n1.3.\\n...2\\n2...\\n.3.1\\n"
>>> [(str(r.grid), r.fields) for r in read_text(text)]
[('1.3....22....3.1', {'author': 'Ruud', 'level': 'Easy'})]
>>> print(dumps(parse(text, "sdk")[0], fields={"author": "Ruud"}))
#ARuud
[Puzzle]
1.3.
...2
2...
.3.1
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..errors import ParseError
from ..grid import Grid
from ..shape import Shape
from . import picture
from ._base import Format, Head, Line, Raw, parse_cells, text_lines

__all__ = [
    "FIELDS",
    "FORMAT",
    "claims",
    "dumps",
    "read",
]

NAME = "sdk"


def claims(head: Head) -> bool:
    """A ``[Puzzle]`` section line among the first lines."""
    return any(ln.strip().lower() == "[puzzle]" for ln in head.body[:30])


#: Header letters and the field names they are kept under.
FIELDS = {
    "A": "author",
    "D": "description",
    "C": "comment",
    "B": "date",
    "S": "source",
    "L": "level",
    "U": "url",
}
_LETTER = {name: letter for letter, name in FIELDS.items()}


def _is_header(line: str) -> bool:
    return line.startswith(("#", "["))


def _sections(lines: Iterator[Line]) -> Iterator[Line]:
    """Blank out the lines of sections other than ``[Puzzle]`` (line numbers are kept)."""
    skipping = False
    for lineno, text in lines:
        if isinstance(text, str):
            head = text.strip().lower()
            if head.startswith("[") and head.endswith("]"):
                skipping = head != "[puzzle]"
            elif head.startswith("#"):
                skipping = False
            elif skipping:
                text = ""
        yield lineno, text


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per puzzle, with its header lines as fields."""
    for item in picture.collect(_sections(lines), shape, header=_is_header):
        if isinstance(item, Raw):
            yield item
            continue
        first, block = item
        fields: dict[str, str] = {}
        body = []
        for text in block:
            if text.startswith("#") and len(text) >= 2:
                fields[FIELDS.get(text[1], text[1])] = text[2:].strip()
                body.append("")
            elif text.startswith("["):
                body.append("")
            else:
                body.append(text)
        try:
            grid = parse_cells("\n".join(body), picture.block_shape(body, shape), first)
        except ParseError as exc:
            yield Raw(first, error=exc)
            continue
        yield Raw(first, grid, fields=fields)


def read_text(text: str, shape: Shape | None = None) -> list[Raw]:
    """The records of an ``.sdk`` text (for doctests and quick use)."""
    return list(read(text_lines(text), shape))


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """Header lines for the known *fields* (one-letter keys are written as such), ``[Puzzle]``,
    then the rows without separators. *solution* is not written.
    """
    out = []
    for key, value in (fields or {}).items():
        letter = _LETTER.get(key, key if len(key) == 1 and key.isalpha() else "")
        if letter:
            out.append(f"#{letter}{' '.join(str(value).split())}")
    out.append("[Puzzle]")
    if grid.shape.symbols:
        out.extend(grid.to_line()[r * grid.n : (r + 1) * grid.n] for r in range(grid.n))
    else:
        out.extend(picture.render_rows(grid))
    return "\n".join(out)


FORMAT = Format(NAME, read, dumps, multiline=True, extensions=(".sdk",), priority=20, claims=claims)
