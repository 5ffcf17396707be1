"""A spreadsheet grid saved as CSV, read by the ``csv`` format: one CSV row per grid row,
one field per cell, empty cells blank (``1,,3,`` ...), so an n x n puzzle is n rows of n
fields; several puzzles are separated by blank lines.

It is told apart from the Kaggle layout (:mod:`sudokit.formats.csv`) by its fields: a cell
is at most two characters (a symbol, or a number up to 64), while a Kaggle row starts with a
whole puzzle (16 cells or more) or the file starts with a header naming its puzzle column.
Cells are read as :meth:`sudokit.Grid.parse` reads them (``.`` and ``0`` are blanks too;
numbers above 9 or letters on bigger grids; ``--symbols`` applies).

>>> [str(raw.grid) for raw in read_text("1,,3,\\n,,,2\\n2,,,\\n,3,,1\\n")]
['1.3....22....3.1']
>>> bad = read_text("1,,3,\\n,,,2\\n")[0]
>>> bad.error.line, bad.error.message.split(";")[0]
(1, 'a spreadsheet grid of 4 columns has 2 rows')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..errors import ParseError
from ..shape import Shape
from ._base import Raw, parse_cells, text_lines

__all__ = ["WHAT", "is_row", "looks_like", "read"]

#: What the layout is, for the messages that refuse a text as one.
WHAT = "one CSV row per grid row, empty cells blank"

#: The widest cell: a number up to 64.
_CELL = 2


def is_row(values: Sequence[str]) -> bool:
    """Whether CSV fields look like one grid row: 4 to 64 fields, none longer than a cell.

    >>> is_row(["1", "", "3", ""]), is_row(["1.3....22....3.1", "1234341221434321"])
    (True, False)
    """
    return 4 <= len(values) <= 64 and all(len(v.strip()) <= _CELL for v in values)


def looks_like(rows: Sequence[Sequence[str]]) -> bool:
    """Whether the first CSV rows of a text are a spreadsheet grid: n grid rows of n fields
    each, with an empty cell among them. A line of a puzzle's cells separated by commas
    (``1,0,3,0,...``, the line format) has no empty field, so a text of such lines is never
    taken for a grid.

    >>> looks_like([["1", "", "3", ""], [""] * 4, ["2", "", "", ""], ["", "3", "", "1"]])
    True
    >>> looks_like([list("1030000220000301")] * 16)
    False
    """
    if not rows or not is_row(rows[0]):
        return False
    grid = rows[: len(rows[0])]
    n = len(grid[0])
    shaped = len(grid) == n and all(len(r) == n and is_row(r) for r in grid)
    return shaped and any(not v.strip() for r in grid for v in r)


def _grid(rows: list[tuple[int, list[str]]], shape: Shape | None) -> Raw:
    """The record of one grid: its rows, numbered by their lines."""
    first, n = rows[0][0], len(rows[0][1])
    for lineno, values in rows:
        if len(values) != n:
            return Raw(
                lineno,
                error=ParseError(
                    f"a spreadsheet grid row has {len(values)} cells; expected {n} ({WHAT})",
                    line=lineno,
                ),
            )
    if len(rows) != n:
        why = f"a spreadsheet grid of {n} columns has {len(rows)} row{'s' * (len(rows) != 1)}"
        expected = f"expected {n} rows of {n} cells ({WHAT})"
        return Raw(first, error=ParseError(f"{why}; {expected}", line=first))
    text = "\n".join(" ".join(v.strip() or "." for v in values) for _, values in rows)
    try:
        return Raw(first, parse_cells(text, shape, first))
    except ParseError as exc:
        found = dict(rows).get(exc.line or 0)
        if exc.column is None or found is None:
            return Raw(first, error=exc.located(line=exc.line or first))
        starts = [sum(len(v.strip() or ".") + 1 for v in found[:k]) for k in range(n)]
        cell = sum(1 for start in starts if start < exc.column)
        return Raw(first, error=ParseError(f"cell {cell}: {exc.message}", line=exc.line))


def read(rows: Iterator[tuple[int, list[str] | ParseError]], shape: Shape | None) -> Iterator[Raw]:
    """One record per grid of the CSV *rows* (``(line number, fields)``; an empty list is a
    blank line, which ends a grid; a :class:`ParseError` is a line that is not CSV)."""
    grid: list[tuple[int, list[str]]] = []
    for lineno, values in rows:
        if isinstance(values, ParseError):
            yield Raw(lineno, error=values.located(line=lineno))
            continue
        if values:
            grid.append((lineno, values))
        if grid and (not values or len(grid) == len(grid[0][1])):
            yield _grid(grid, shape)
            grid = []
    if grid:
        yield _grid(grid, shape)


def read_text(text: str, shape: Shape | None = None) -> list[Raw]:
    """The records of a spreadsheet grid text (for doctests and quick use)."""
    from .csv import rows

    return list(read(((n, v) for n, _, v in rows(text_lines(text))), shape))
