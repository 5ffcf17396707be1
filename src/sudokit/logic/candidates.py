"""The candidate grid: the pencil marks a human solver works with (layer 2).

A :class:`CandidateGrid` is a *mutable* working copy, private to :mod:`sudokit.logic` and the
rating. It holds a value per cell (0 = unsolved) and, for each unsolved cell, a bit mask of the
digits still possible there: bit ``d - 1`` is set when ``d`` is a candidate. Solved cells have
mask 0. Geometry comes from the :class:`~sudokit.shape.Shape` tables, never typed out.

>>> from sudokit.grid import Grid
>>> cg = CandidateGrid.from_grid(Grid.parse("1.3." "...2" "2..." ".3.1"))
>>> cg.digits(1), cg.digits(4)
([2, 4], [3, 4])
>>> cg.place(1, 2); cg.values[1], cg.has(5, 2)
(2, False)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ..grid import Grid
from ..shape import Shape
from ._bits import bit_indices as members
from ._bits import digits as bits

if TYPE_CHECKING:
    from .. import _core
    from .step import Step

__all__ = ["CandidateGrid", "bits", "members", "peer_bits", "popcount", "unit_bits"]


def popcount(mask: int) -> int:
    """Number of set bits of *mask*.

    >>> popcount(0b1011)
    3
    """
    return mask.bit_count()


@lru_cache(maxsize=64)
def peer_bits(shape: Shape) -> tuple[int, ...]:
    """For every cell, its peers as a bit set over cells (computed once per shape).

    >>> members(peer_bits(Shape(2, 2))[0])   # r1c1 of a 4x4 grid: its row, column and box
    [1, 2, 3, 4, 5, 8, 12]
    """
    return tuple(sum(1 << p for p in ps) for ps in shape.peers)


@lru_cache(maxsize=64)
def unit_bits(shape: Shape) -> tuple[int, ...]:
    """For every unit, its cells as a bit set over cells (computed once per shape).

    >>> members(unit_bits(Shape(2, 2))[0])   # row 1 of a 4x4 grid
    [0, 1, 2, 3]
    """
    return tuple(sum(1 << c for c in unit) for unit in shape.units)


class CandidateGrid:
    """Values and candidate masks of every cell; mutable, cheap to copy.

    Attributes: ``shape``; ``values`` (digit per cell, 0 = unsolved); ``masks`` (bit ``d-1`` set
    when ``d`` is still a candidate, 0 for solved cells); ``all_mask`` (the mask of every digit).
    """

    __slots__ = ("all_mask", "human", "masks", "peers", "shape", "values")

    shape: Shape
    values: list[int]
    masks: list[int]
    all_mask: int
    peers: tuple[tuple[int, ...], ...]  # the shape's peers (read once: a shape hashes slowly)
    human: _core.HumanShape | int | None  # logic._human's table for the shape; 0 until used

    def __init__(self, shape: Shape, values: list[int], masks: list[int]) -> None:
        self.shape = shape
        self.values = values
        self.masks = masks
        self.all_mask = (1 << shape.n) - 1
        self.peers = shape.peers
        self.human = 0

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_grid(cls, grid: Grid) -> CandidateGrid:
        """Candidates of every empty cell are the digits no peer holds.

        >>> cg = CandidateGrid.from_grid(Grid.parse("1234" "3412" "2143" "432."))
        >>> cg.digits(15)
        [1]
        """
        shape = grid.shape
        values = list(grid.cells)
        full = (1 << shape.n) - 1
        masks = [0] * shape.ncells
        if shape.constraints is None:
            # the peers are the cells of the cell's units: read each unit once
            placed = []
            for unit in shape.units:
                seen = 0
                for c in unit:
                    v = values[c]
                    if v:
                        seen |= 1 << (v - 1)
                placed.append(seen)
            for i, units in enumerate(shape.cell_units):
                if values[i] == 0:
                    seen = 0
                    for u in units:
                        seen |= placed[u]
                    masks[i] = full & ~seen
            return cls(shape, values, masks)
        peers = shape.peers
        for i, v in enumerate(values):
            if v == 0:
                seen = 0
                for p in peers[i]:
                    pv = values[p]
                    if pv:
                        seen |= 1 << (pv - 1)
                masks[i] = full & ~seen
        return cls(shape, values, masks)

    @classmethod
    def from_masks(cls, shape: Shape, values: Sequence[int], masks: Sequence[int]) -> CandidateGrid:
        """A grid from a user's pencil marks: *values* (0 = unsolved) and candidate *masks*.

        Each of the ``ncells`` values must be an int in ``0..n`` and each mask an int in
        ``0..2**n - 1`` (bit ``d - 1`` = digit ``d``); anything else raises (ValueError, or
        TypeError for a value that is not an int), naming the list, the index and the cell.
        Masks of solved cells are cleared. Nothing else is changed: the marks are taken as the
        user wrote them (they may be wrong).

        >>> cg = CandidateGrid.from_masks(Shape(2, 2), [1] + [0] * 15, [0] + [0b1110] * 15)
        >>> cg.digits(1)
        [2, 3, 4]
        >>> CandidateGrid.from_masks(Shape(2, 2), [0] * 16, [15] * 15 + [16])
        Traceback (most recent call last):
        ...
        ValueError: masks[15] (cell r4c4) must be in 0..15, got 16
        """
        n = shape.n
        vals = _checked("values", values, shape, n)
        ms = _checked("masks", masks, shape, (1 << n) - 1)
        return cls(shape, vals, [0 if v else m for v, m in zip(vals, ms, strict=True)])

    def copy(self) -> CandidateGrid:
        """An independent copy."""
        return CandidateGrid(self.shape, self.values[:], self.masks[:])

    # -- changes ---------------------------------------------------------------------------

    def place(self, cell: int, digit: int) -> None:
        """Set *cell* to *digit*, clear its mask and drop *digit* from its peers."""
        self.values[cell] = digit
        self.masks[cell] = 0
        keep = ~(1 << (digit - 1))
        masks = self.masks
        for p in self.peers[cell]:
            masks[p] &= keep

    def eliminate(self, cell: int, digit: int) -> bool:
        """Remove *digit* from the candidates of *cell*; True when it was a candidate."""
        bit = 1 << (digit - 1)
        if self.masks[cell] & bit:
            self.masks[cell] &= ~bit
            return True
        return False

    def apply(self, step: Step) -> None:
        """Apply a step: its placements first, then its eliminations."""
        for cell, digit in step.placements:
            if self.values[cell] == 0:
                self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)

    # -- queries ---------------------------------------------------------------------------

    def cells_with(self, unit: int, digit: int) -> list[int]:
        """The unsolved cells of *unit* that still have *digit* as a candidate."""
        bit = 1 << (digit - 1)
        masks = self.masks
        return [c for c in self.shape.units[unit] if masks[c] & bit]

    def digits(self, cell: int) -> list[int]:
        """The candidates of *cell*, ascending (empty for a solved cell)."""
        return bits(self.masks[cell])

    def has(self, cell: int, digit: int) -> bool:
        """True when *digit* is a candidate of *cell*."""
        return bool(self.masks[cell] >> (digit - 1) & 1)

    def unit_placed(self, unit: int) -> int:
        """Mask of the digits already placed in *unit*."""
        m = 0
        values = self.values
        for c in self.shape.units[unit]:
            v = values[c]
            if v:
                m |= 1 << (v - 1)
        return m

    @property
    def is_solved(self) -> bool:
        """True when every cell holds a digit."""
        return 0 not in self.values

    @property
    def unsolved(self) -> int:
        """How many cells are still empty."""
        return self.values.count(0)

    def is_broken(self) -> bool:
        """True when an empty cell has no candidate or a unit has a digit with no place left."""
        masks = self.masks
        values = self.values
        for i, v in enumerate(values):
            if v == 0 and masks[i] == 0:
                return True
        full = self.all_mask
        for unit in self.shape.units:
            seen = 0
            for c in unit:
                v = values[c]
                seen |= (1 << (v - 1)) if v else masks[c]
            if seen != full:
                return True
        return False

    def to_grid(self) -> Grid:
        """The placed values as an immutable :class:`~sudokit.grid.Grid`."""
        return Grid(bytes(self.values), self.shape)

    def __repr__(self) -> str:
        return f"CandidateGrid({self.to_grid()!r}, unsolved={self.unsolved})"


def _checked(what: str, items: Sequence[int], shape: Shape, top: int) -> list[int]:
    """*items* as a list of ints, each in ``0..top``, one per cell of *shape*; else a
    ValueError (TypeError for an item that is not an int) naming *what*, the index and the
    cell."""
    if len(items) != shape.ncells:
        raise ValueError(f"{what} must hold {shape.ncells} items, got {len(items)}")
    out = []
    for i, v in enumerate(items):
        try:
            x = operator.index(v)
        except TypeError:
            raise TypeError(
                f"{_where(what, i, shape)} must be an int, not {type(v).__name__}"
            ) from None
        if not 0 <= x <= top:
            raise ValueError(f"{_where(what, i, shape)} must be in 0..{top}, got {x}")
        out.append(x)
    return out


def _where(what: str, i: int, shape: Shape) -> str:
    return f"{what}[{i}] (cell {shape.cell_name(i)})"
