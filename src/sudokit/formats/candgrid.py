"""The candidate grid: one group of candidate digits per cell, one grid row per text line.

The layout Simple Sudoku, HoDoKu and Sudoku Explainer print: groups separated by spaces, ``|``
between boxes, rule lines of ``-+*.:'`` (any line without a letter or digit) between bands;
also all ``n*n`` groups on one line. A group is the candidate symbols of a cell; ``-`` or ``.``
alone means no candidate (a broken state). A single candidate reads as placed. Sizes up to 61.

>>> from sudokit.marks import Candidates
>>> from sudokit.shape import Shape
>>> c = Candidates.from_masks(Shape(2, 2), [1, 6, 12, 8] + [15] * 12)
>>> print(dumps_candidates(c))
*-----------------------*
| 1    23   | 34   4    |
| 1234 1234 | 1234 1234 |
|-----------+-----------|
| 1234 1234 | 1234 1234 |
| 1234 1234 | 1234 1234 |
*-----------------------*
>>> parse_candidates(dumps_candidates(c)) == c
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from ..errors import ParseError, quote
from ..grid import symbol_value
from ..marks import Candidates
from ..shape import SYMBOLS, Shape
from . import picture
from ._base import (
    Format,
    Head,
    Line,
    Raw,
    block_error,
    is_square,
    pencilmark_dumps,
    pencilmark_shape,
)

__all__ = [
    "FORMAT",
    "candidate_groups",
    "claims",
    "dumps",
    "dumps_candidates",
    "is_rule",
    "parse_candidates",
    "read",
    "row_groups",
]

NAME = "candgrid"

_GROUP = re.compile(r"[^\s|:!]+")
_EMPTY = frozenset(("-", ".", "0"))


def row_groups(line: str) -> list[tuple[str, int]]:
    """The candidate groups of a text line with their 1-based columns.

    >>> row_groups("| 12 3 | 456 |")
    [('12', 3), ('3', 6), ('456', 10)]
    """
    return [(m.group(), m.start() + 1) for m in _GROUP.finditer(line)]


def candidate_groups(groups: list[str], n: int) -> bool:
    """Groups that can only be candidate lists of size *n* (not rows of symbols or integers)."""
    if n > len(SYMBOLS) or any(symbol_value(ch, n) <= 0 for g in groups for ch in g):
        return False
    longest = max(len(g) for g in groups)
    return longest >= 3 or (longest >= 2 and n <= 9)


def claims(head: Head) -> bool:
    """All ``n*n`` candidate groups on the first line (the multi-line layout is told apart
    from pictures by :func:`sudokit.formats.sniff`'s layout rules)."""
    groups = head.first.split()
    count = len(groups)
    return count >= 16 and is_square(count) and candidate_groups(groups, math.isqrt(count))


def is_rule(line: str, rows_wanted: int | None = None) -> bool:
    """A line without any letter or digit (``.----+----.``, ``'----'``) is a rule."""
    return not any(ch.isalnum() for ch in line)


def parse_candidates(text: str, shape: Shape | None = None) -> Candidates:
    """Read one candidate grid (multi-line, or all groups on one line).

    Raises :class:`~sudokit.errors.ParseError` with the line and column of a bad group.

    >>> parse_candidates("1 2 3 4x" + " 1234" * 12)
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: column 8: unexpected 'x' in candidate group '4x', expected digits 1-4
    """
    groups: list[tuple[str, int, int]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if is_rule(line):
            continue
        groups.extend((g, lineno, col) for g, col in row_groups(line))
    count = len(groups)
    target = shape or Shape.from_cell_count(count)
    if target is None or not target.symbols:
        raise ParseError(
            f"expected a square number of candidate groups (81 for 9x9), got {count}"
            if count
            else "expected a candidate grid, got no groups"
        )
    if count != target.ncells:
        raise ParseError(
            f"expected {target.ncells} candidate groups for {target.n}x{target.n}, got {count}"
        )
    multi = len(text.splitlines()) > 1
    masks = []
    for group, lineno, col in groups:
        mask = 0
        if group not in _EMPTY:
            for offset, ch in enumerate(group):
                value = symbol_value(ch, target.n)
                if value <= 0:
                    raise ParseError(
                        f"unexpected {ch!r} in candidate group {quote(group)}, "
                        f"expected digits 1-{target.symbols[-1]}",
                        line=lineno if multi else None,
                        column=col + offset,
                    )
                mask |= 1 << (value - 1)
        masks.append(mask)
    return Candidates.from_masks(target, masks)


def dumps_candidates(cands: Candidates) -> str:
    """The candidate grid of *cands*, columns aligned, with a border and box marks.

    >>> from sudokit.grid import Grid
    >>> print(dumps_candidates(Candidates.from_grid(Grid.parse("1..." + "." * 12))))
    *-----------------------*
    | 1    234  | 234  234  |
    | 234  234  | 1234 1234 |
    |-----------+-----------|
    | 234  1234 | 1234 1234 |
    | 234  1234 | 1234 1234 |
    *-----------------------*
    """
    shape = pencilmark_shape(cands, "candidate grids")
    n = shape.n
    texts = [
        "".join(shape.symbols[d - 1] for d in cands.digits(i)) or "-" for i in range(shape.ncells)
    ]
    width = max(len(t) for t in texts)
    boxes = shape.regions is None
    bc = shape.box_cols if boxes else n
    br = shape.box_rows if boxes and shape.box_rows > 1 else n
    rows = []
    for r in range(n):
        cells = [t.ljust(width) for t in texts[r * n : (r + 1) * n]]
        rows.append(" | ".join(" ".join(cells[c : c + bc]) for c in range(0, n, bc)))
    segment = (width + 1) * bc + 1
    rule = "|" + "+".join("-" * segment for _ in range(0, n, bc)) + "|"
    border = "*" + "-" * (len(rule) - 2) + "*"
    out = [border]
    for r, row in enumerate(rows):
        if r and r % br == 0:
            out.append(rule)
        out.append(f"| {row} |")
    out.append(border)
    return "\n".join(out)


def _row_size(line: str) -> int:
    return len(row_groups(line))


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per candidate grid; the grid holds the placed (single-candidate) cells."""
    for item in picture.collect(lines, shape, row_size=_row_size, rule=is_rule):
        if isinstance(item, Raw):
            yield item
            continue
        first, block = item
        try:
            yield Raw(first, parse_candidates("\n".join(block), shape).to_grid())
        except ParseError as exc:
            yield Raw(first, error=block_error(exc, first))


#: The grid as a candidate grid (see :func:`~sudokit.formats._base.pencilmark_dumps`).
dumps = pencilmark_dumps(dumps_candidates)

FORMAT = Format(NAME, read, dumps, multiline=True, priority=50, claims=claims)
