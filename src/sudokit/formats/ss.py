"""Simple Sudoku ``.ss``: rows of symbols with ``|`` between boxes and dashed band rules.

Read: any picture (the Simple Sudoku clipboard form with a ``*-----------*`` border and
``|---+---+---|`` rules too). Written as the file form::

    ..3|.2.|6..
    9..|3.5|..1
    ..1|8.6|4..
    -----------
    ...

>>> from sudokit.grid import Grid
>>> print(dumps(Grid.parse("1.3." "...2" "2..." ".3.1")))
1.|3.
..|.2
-----
2.|..
.3|.1
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..grid import Grid
from ..shape import Shape
from . import picture
from ._base import Format, Line, Raw

__all__ = [
    "FORMAT",
    "dumps",
    "read",
]

NAME = "ss"


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per grid (the picture reader: borders and rules are skipped)."""
    return picture.read(lines, shape)


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """The grid in Simple Sudoku file form; *solution* and *fields* are not written."""
    return "\n".join(picture.render_rows(grid, spaced=False, cross="-"))


FORMAT = Format(NAME, read, dumps, multiline=True, extensions=(".ss",))
