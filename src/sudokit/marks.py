"""Pencilmarks: the immutable :class:`Candidates` value (layer 1).

A :class:`Candidates` holds, for every cell of a shape, a bitmask of the digits still possible
there (bit ``d - 1`` stands for digit ``d``) and the value placed in the cell (``0`` when it is
open). It is what the candidate text formats read and write
(:func:`sudokit.formats.parse_candidates`); the logic package converts it to its own mutable
working type.

Invariant: a placed cell has exactly its own digit as candidate. Text formats cannot tell a
placed cell from an open cell with one candidate, so they read a single candidate as placed
(:meth:`Candidates.from_masks` does the same).

>>> from sudokit.grid import Grid
>>> c = Candidates.from_grid(Grid.parse("1..." "..3." "...." "...4"))
>>> c.digits(1), c.values[0], c.digits(0)
((2, 3, 4), 1, (1,))
>>> c.to_grid() == Grid.parse("1..." "..3." "...." "...4")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ._record import _Record
from .grid import Grid
from .shape import Shape

__all__ = ["Candidates", "bit_indices", "digits_of", "mask_of"]


def mask_of(digits: Iterable[int]) -> int:
    """The bitmask of *digits* (bit ``d - 1`` for digit ``d``).

    >>> mask_of([1, 3]), mask_of([])
    (5, 0)
    """
    mask = 0
    for d in digits:
        mask |= 1 << (d - 1)
    return mask


def bit_indices(mask: int) -> list[int]:
    """The indices of the set bits of *mask*, ascending (cells of a cell bitset, say).

    >>> bit_indices(0b100101)
    [0, 2, 5]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def digits_of(mask: int) -> tuple[int, ...]:
    """The digits in *mask*, ascending.

    >>> digits_of(0b10110)
    (2, 3, 5)
    """
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return tuple(out)


class Candidates(_Record):
    """Per-cell candidate masks and placed values for one shape (immutable).

    ``masks[i]`` is the candidate bitmask of cell ``i``; ``values[i]`` is its placed digit or 0.
    A placed cell must have its own digit as only candidate; an open cell may have any mask,
    including 0 (a contradiction, kept so that broken states can be written and read).

    Raises :class:`ValueError` when the lengths, masks or values do not fit the shape.

    >>> Candidates(Shape(1, 2), (1, 3, 3, 2), bytes([1, 0, 0, 2])).digits(1)
    (1, 2)
    >>> Candidates(Shape(1, 2), (3, 3, 3, 3), bytes([1, 0, 0, 0]))
    Traceback (most recent call last):
    ...
    ValueError: cell r1c1 holds 1 but its candidates are (1, 2)
    """

    __slots__ = ("masks", "shape", "values")
    __match_args__ = ("shape", "masks", "values")
    shape: Shape
    masks: tuple[int, ...]
    values: bytes

    def _check(self) -> None:
        shape = self.shape
        if len(self.masks) != shape.ncells or len(self.values) != shape.ncells:
            raise ValueError(
                f"a {shape.n}x{shape.n} shape needs {shape.ncells} cells, "
                f"got {len(self.masks)} masks and {len(self.values)} values"
            )
        full = (1 << shape.n) - 1
        for i, (mask, value) in enumerate(zip(self.masks, self.values, strict=True)):
            if mask & ~full or mask < 0:
                raise ValueError(f"cell {shape.cell_name(i)} has a mask outside 1..{shape.n}")
            if value > shape.n:
                raise ValueError(f"cell {shape.cell_name(i)} holds {value}, outside 1..{shape.n}")
            if value and mask != 1 << (value - 1):
                name = shape.cell_name(i)
                raise ValueError(
                    f"cell {name} holds {value} but its candidates are {digits_of(mask)}"
                )

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_masks(cls, shape: Shape, masks: Sequence[int]) -> Candidates:
        """Candidates from masks alone: a cell with exactly one candidate counts as placed.

        >>> Candidates.from_masks(Shape(1, 2), [1, 3, 3, 2]).values
        b'\\x01\\x00\\x00\\x02'
        """
        values = bytes(m.bit_length() if m and m & (m - 1) == 0 else 0 for m in masks)
        return cls(shape, tuple(masks), values)

    @classmethod
    def from_grid(cls, grid: Grid, *, eliminate: bool = True) -> Candidates:
        """The pencilmarks of *grid*: givens placed, open cells hold every digit no peer holds
        (or all ``n`` digits with ``eliminate=False``). An open cell left with one candidate
        stays open; conflicting givens are kept as they are.

        >>> Candidates.from_grid(Grid.parse("12.." + "." * 12)).digits(2)
        (3, 4)
        >>> Candidates.from_grid(Grid.parse("12.." + "." * 12), eliminate=False).digits(2)
        (1, 2, 3, 4)
        """
        shape = grid.shape
        cells = grid.cells
        full = (1 << shape.n) - 1
        masks = []
        for i, v in enumerate(cells):
            if v:
                masks.append(1 << (v - 1))
            elif eliminate:
                seen = 0
                for p in shape.peers[i]:
                    if cells[p]:
                        seen |= 1 << (cells[p] - 1)
                masks.append(full & ~seen)
            else:
                masks.append(full)
        return cls(shape, tuple(masks), cells)

    # -- access ----------------------------------------------------------------------------

    def digits(self, cell: int) -> tuple[int, ...]:
        """The candidate digits of *cell*, ascending."""
        return digits_of(self.masks[cell])

    def to_grid(self) -> Grid:
        """The placed values as a :class:`~sudokit.grid.Grid` (open cells empty)."""
        return Grid(self.values, self.shape)

    @property
    def is_solved(self) -> bool:
        """True when every cell holds a value."""
        return 0 not in self.values
