"""The picture format: one row of the grid per text line, separators tolerated.

Rows hold one symbol per cell (spaces, ``|``, ``+``, ``:`` and ``!`` between cells are ignored)
or separated integers for large sizes; rule lines (``------+-------+------``) and blank lines
are skipped. A file holds any number of pictures: each ends after as many rows as its first row
has cells. Output puts a space between cells, ``|`` between boxes and a rule between bands.

This module also holds the block reading the other picture-like formats share
(:mod:`~sudokit.formats.ss`, :mod:`~sudokit.formats.sdk`, :mod:`~sudokit.formats.candgrid`).

>>> from sudokit.grid import Grid
>>> print(dumps(Grid.parse("1.3." "...2" "2..." ".3.1")))
1 . | 3 .
. . | . 2
----+----
2 . | . .
. 3 | . 1
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ..errors import ParseError
from ..grid import CELL_SEPARATORS, Grid, int_tokens, is_separator_line
from ..shape import MAX_SIZE, Shape
from ._base import MAX_RECORD, Format, Line, Raw, parse_cells

__all__ = [
    "FORMAT",
    "block_shape",
    "collect",
    "dumps",
    "read",
    "render_rows",
    "row_cells",
]

NAME = "picture"

#: A multi-line record found by :func:`collect`: its first line number and its lines.
Block = tuple[int, list[str]]


def row_cells(line: str) -> int:
    """How many cells a picture row holds, counted the way :meth:`Grid.parse` reads them.

    >>> row_cells("5 3 . | . 7 . | . . ."), row_cells("10, 0, 3, 16"), row_cells("|12|34|")
    (9, 4, 4)
    """
    tokens = int_tokens(line)
    spaced = len(line.split()) > 1
    if tokens and ("," in line or ";" in line or (spaced and any(len(t) == 2 for t in tokens))):
        return len(tokens)
    return sum(1 for ch in line if not ch.isspace() and ch not in CELL_SEPARATORS)


def is_rule(line: str, rows_wanted: int | None) -> bool:
    """True for a rule line between bands (a row of ``.`` blanks is a row, not a rule)."""
    if "." in line and rows_wanted is None:
        return False
    return is_separator_line(line, rows_wanted)


def collect(
    lines: Iterator[Line],
    shape: Shape | None,
    *,
    row_size: Callable[[str], int] = row_cells,
    rule: Callable[[str, int | None], bool] = is_rule,
    header: Callable[[str], bool] | None = None,
) -> Iterator[Block | Raw]:
    """Group *lines* into pictures: a block ends after as many rows as its first row has cells
    (or ``shape.n`` rows). Rule lines become blank lines (so integer rows need no rule-aware
    reader); header lines (for formats that have them) open a new block. Lines that are errors
    come out as error records. A block never grows past :data:`MAX_RECORD`.
    """
    block: list[str] = []
    first = 0
    rows = 0
    size = 0
    want = shape.n if shape is not None else None

    def reset() -> None:
        nonlocal block, rows, size, want
        block, rows, size = [], 0, 0
        want = shape.n if shape is not None else None

    for lineno, text in lines:
        if isinstance(text, ParseError):
            reset()
            yield Raw(lineno, error=text.located(line=lineno))
            continue
        if not text.strip():
            if rows:
                block.append("")
            elif block and not (header is not None and any(header(b) for b in block)):
                reset()  # rules alone (the bottom border of the last picture) before a gap
            continue
        if header is not None and header(text):
            if rows:
                yield first, block
                reset()
            if not block:
                first = lineno
            block.append(text)
            continue
        if rule(text, want):
            if not block:
                first = lineno
            block.append("")  # kept as a blank line: line numbers stay right
            continue
        if not block:
            first = lineno
        block.append(text)
        rows += 1
        size += len(text)
        if want is None:
            want = max(1, row_size(text))
        if rows >= want or size > MAX_RECORD:
            yield first, block
            reset()
    if rows:
        yield first, block


def block_shape(block: list[str], shape: Shape | None) -> Shape | None:
    """*shape*, else the default shape for as many rows as *block* holds (rules and headers
    are blank by now); ``None`` for a single line, whose size its cell count tells.

    >>> block_shape(["12|34", "", "34|12", "21|43", "43|21"], None), block_shape(["1234"], None)
    (Shape(2, 2), None)
    """
    if shape is not None:
        return shape
    rows = sum(1 for text in block if text.strip())
    return Shape.from_size(rows) if 1 < rows <= MAX_SIZE else None


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per picture."""
    for item in collect(lines, shape):
        if isinstance(item, Raw):
            yield item
            continue
        first, block = item
        try:
            yield Raw(first, parse_cells("\n".join(block), block_shape(block, shape), first))
        except ParseError as exc:
            yield Raw(first, error=exc)


def render_rows(
    grid: Grid, *, spaced: bool = True, outer: bool = False, cross: str = "+"
) -> list[str]:
    """The rows of *grid* as text with box separators and band rules.

    *spaced* puts a space between cells; *outer* adds the Simple Sudoku border (``*---*`` and
    ``|`` at both ends); *cross* is the rule character where a rule meets a box separator.
    Jigsaw grids get no box marks. Sizes over 61 are written as
    comma-separated integers without rules.

    >>> render_rows(Grid.parse("1.3." "...2" "2..." ".3.1"), spaced=False, outer=True)[:4]
    ['*-----*', '|1.|3.|', '|..|.2|', '|--+--|']
    """
    shape = grid.shape
    n = shape.n
    if not shape.symbols:
        width = len(str(n))
        return [", ".join(f"{v:>{width}}" for v in row) for row in grid.rows()]
    table = "." + shape.symbols
    boxes = shape.regions is None
    bc = shape.box_cols if boxes and shape.box_cols < n else n
    br = shape.box_rows if boxes and shape.box_rows < n else n
    joiner = " " if spaced else ""
    bar = " | " if spaced else "|"
    lines: list[str] = []
    rule = ""
    for r, row in enumerate(grid.rows()):
        segments = [joiner.join(table[v] for v in row[c : c + bc]) for c in range(0, n, bc)]
        text = bar.join(segments)
        if not rule:
            mark = f"-{cross}-" if spaced else cross
            rule = mark.join("-" * len(s) for s in segments)
        if r and r % br == 0 and br < n and shape.box_rows > 1:
            lines.append(f"|{rule}|" if outer else rule)
        lines.append(f"|{text}|" if outer else text)
    if outer:
        border = "*" + "-" * (len(lines[0]) - 2) + "*"
        lines = [border, *lines, border]
    return lines


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """The grid as a picture (``|`` between boxes, a rule between bands); *solution* and
    *fields* are not written.
    """
    return "\n".join(render_rows(grid, spaced=True))


FORMAT = Format(NAME, read, dumps, multiline=True)
