"""The line format: one puzzle per line (the ``.sdm`` collection format).

A line holds ``n*n`` cells, one symbol each (``.0-_*`` blank), or separated integers for large
sizes; it is read by :meth:`Grid.parse`. Blank lines and lines starting with ``#`` are skipped.
Text after the puzzle, separated by whitespace (a rating, a name), is kept as the ``comment``
field. Output uses ``.`` for blanks.

>>> from sudokit.formats import parse
>>> text = "1234341221434321  # solved\\n\\n# a comment\\n1...............\\n"
>>> [str(g) for g in parse(text, "line")]
['1234341221434321', '1...............']
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping

from ..errors import ParseError
from ..grid import Grid
from ..shape import Shape
from ._base import Format, Line, Raw, parse_cells

__all__ = [
    "FORMAT",
    "dumps",
    "read",
    "split_comment",
]

NAME = "line"


def split_comment(text: str, shape: Shape | None) -> tuple[str, str]:
    """Split ``"<puzzle> <comment>"`` where the first word alone is a whole puzzle of symbols.

    >>> split_comment("1234341221434321 easy 1.2", None)
    ('1234341221434321', 'easy 1.2')
    >>> split_comment("1 2 3 4", None)
    ('1 2 3 4', '')
    """
    parts = text.split(None, 1)
    if len(parts) == 2:
        head = parts[0]
        size = len(head)
        root = math.isqrt(size)
        fits = size == shape.ncells if shape is not None else size >= 4 and root * root == size
        if fits and "," not in head:
            return head, parts[1].strip()
    return text, ""


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per non-blank, non-comment line."""
    for lineno, text in lines:
        if isinstance(text, ParseError):
            yield Raw(lineno, error=text.located(line=lineno))
            continue
        body = text.strip()
        if not body or body.startswith("#"):
            continue
        lead = len(text) - len(text.lstrip())
        puzzle, comment = split_comment(body, shape)
        try:
            grid = parse_cells(puzzle, shape, lineno)
        except ParseError as exc:
            yield Raw(lineno, error=exc.located(column_offset=lead))
            continue
        yield Raw(lineno, grid, fields={"comment": comment} if comment else {})


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """The grid as one line (``.`` for blanks); *solution* and *fields* are not written.

    >>> dumps(Grid.parse("1.3." "...2" "2..." ".3.1"))
    '1.3....22....3.1'
    """
    return grid.to_line()


FORMAT = Format(NAME, read, dumps, extensions=(".sdm",))
