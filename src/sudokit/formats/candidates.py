"""Pencilmark strings: ``n`` characters per cell, ``n**3`` in all (729 for 9x9).

Character ``d - 1`` of a cell's group is the symbol of digit ``d`` when ``d`` is a candidate,
else a blank (``.`` on output; ``0 - _ *`` also read). One puzzle per line. A cell with a
single candidate reads as placed (see :mod:`sudokit.marks`), so a grid is written with all
``n`` digits in each open cell and :func:`read` returns the placed cells as the grid.
Sizes up to 61.

>>> from sudokit.marks import Candidates
>>> from sudokit.shape import Shape
>>> c = Candidates.from_masks(Shape(1, 2), [1, 3, 3, 2])
>>> dumps_candidates(c)
'1.1212.2'
>>> parse_candidates("1.1212.2") == c
True
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import ParseError, quote
from ..grid import BLANKS, symbol_value
from ..marks import Candidates
from ..shape import Shape
from . import line
from ._base import Format, Head, Line, Raw, each_line, pencilmark_dumps, pencilmark_shape

__all__ = [
    "FORMAT",
    "claims",
    "dumps",
    "dumps_candidates",
    "parse_candidates",
    "read",
    "shape_of",
]

NAME = "candidates"


def claims(head: Head) -> bool:
    """The first line is a pencilmark string (see :func:`looks_like`)."""
    return looks_like(line.split_comment(head.first, None)[0])


def shape_of(length: int) -> Shape | None:
    """The default shape whose pencilmark string has *length* characters, if any.

    >>> shape_of(729), shape_of(64), shape_of(100)
    (Shape(3, 3), Shape(2, 2), None)
    """
    n = round(length ** (1 / 3)) if length > 0 else 0
    for size in (n - 1, n, n + 1):
        if 2 <= size <= 61 and size**3 == length:
            return Shape.from_size(size)
    return None


def looks_like(text: str) -> bool:
    """True when *text* (one line) is a pencilmark string: a cube length, every character a
    blank or the digit its position stands for, and every cell with some candidate."""
    shape = shape_of(len(text))
    if shape is None:
        return False
    n = shape.n
    symbols = shape.symbols
    for cell in range(shape.ncells):
        group = text[cell * n : (cell + 1) * n]
        if all(ch in BLANKS for ch in group):
            return False
        # Sizes up to 35 accept lower case; beyond, lower case letters are digits of their own.
        if any(
            ch not in BLANKS and ch != symbols[d] and (n > 35 or ch.upper() != symbols[d])
            for d, ch in enumerate(group)
        ):
            return False
    return True


def parse_candidates(text: str, shape: Shape | None = None) -> Candidates:
    """Read one pencilmark string into :class:`~sudokit.marks.Candidates`.

    Raises :class:`~sudokit.errors.ParseError` for a wrong length or a character that is not
    the digit of its position.

    >>> parse_candidates("1.1212.3")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: column 8: unexpected '3' for digit 2 of cell r2c2, expected '2' ...
    """
    body = text.strip()
    target = shape or shape_of(len(body))
    if target is None or target.n > 61:
        raise ParseError(
            f"expected n*n*n pencilmark characters (729 for 9x9), got {len(body)}: {quote(body)}"
        )
    n = target.n
    if len(body) != n * target.ncells:
        raise ParseError(
            f"expected {n * target.ncells} pencilmark characters for {n}x{n}, got {len(body)}"
        )
    lead = len(text) - len(text.lstrip())
    masks = []
    for cell in range(target.ncells):
        mask = 0
        for d in range(n):
            ch = body[cell * n + d]
            value = symbol_value(ch, n)
            if value == 0:
                continue
            if value != d + 1:
                raise ParseError(
                    f"unexpected {ch!r} for digit {d + 1} of cell {target.cell_name(cell)}, "
                    f"expected {target.symbol(d + 1)!r} or '.'",
                    column=lead + cell * n + d + 1,
                )
            mask |= 1 << d
        masks.append(mask)
    return Candidates.from_masks(target, masks)


def dumps_candidates(cands: Candidates) -> str:
    """The pencilmark string of *cands* (``.`` for a missing candidate), *n* characters a cell.

    >>> from sudokit.grid import Grid
    >>> dumps_candidates(Candidates.from_grid(Grid.parse("1..." + "." * 12)))[:16]
    '1....234.234.234'
    """
    shape = pencilmark_shape(cands, "pencilmark strings")
    symbols = shape.symbols
    n = shape.n
    return "".join(
        "".join(symbols[d] if mask >> d & 1 else "." for d in range(n)) for mask in cands.masks
    )


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per non-blank line; the grid holds the placed (single-candidate) cells."""
    return each_line(lines, lambda text: (parse_candidates(text, shape).to_grid(), {}))


#: The grid as a pencilmark string (see :func:`~sudokit.formats._base.pencilmark_dumps`).
dumps = pencilmark_dumps(dumps_candidates)

FORMAT = Format(NAME, read, dumps, priority=40, claims=claims)
