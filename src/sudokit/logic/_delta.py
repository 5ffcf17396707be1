"""What changed since a finder last found nothing: incremental search across path steps (layer 2).

The easiest-first path asks every technique, on every state, for a step, and most of them find
nothing most of the time; one path step then changes a few cells. Many finders are *local*:
what they find is a function of the candidates of a small group of cells (a unit, a digit's
places, a set of base cells and the cells seeing them all). For such a finder:

    if it found nothing on a state S, then on any state S' it can only find something in a
    group that holds a cell whose candidates differ between S and S'.

That holds for any two states (S' need not follow S), so it is exact by construction. A
:class:`Since` remembers the last state on which its finder ran to the end and found nothing;
:meth:`Since.changed` gives the cells whose candidate masks differ from it (a cell bit set), or
None when there is no such state for this grid's shape (the finder then searches everything).
The finder searches only the groups holding a changed cell, in its usual order, so it yields
exactly the steps of a full search.

A :class:`Since` is per finder and shared by every caller; it stores one immutable record
(the shape and a tuple of masks), replaced in one assignment, so concurrent use can only make
it miss (and search everything), never answer wrongly.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> cg = CandidateGrid.from_grid(Grid.parse("1.3." "...2" "2..." ".3.1"))
>>> since = Since()
>>> since.changed(cg) is None
True
>>> since.found_nothing(cg)
>>> since.changed(cg).cells
0
>>> cg.eliminate(1, 4); cg.eliminate(5, 4)
True
True
>>> bin(since.changed(cg).cells)
'0b100010'
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Sequence
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING, NamedTuple

from ._bits import digits as bits

if TYPE_CHECKING:
    from ..shape import Shape
    from .candidates import CandidateGrid
    from .step import Step

__all__ = [
    "Delta",
    "Since",
    "by_digits",
    "by_units",
    "changed_digits",
    "incremental",
    "only_removed",
    "touched_units",
]


class Delta(NamedTuple):
    """The ``cells`` (a bit set) whose candidates changed, and the masks ``before``."""

    cells: int
    before: tuple[int, ...]


class Since:
    """The last candidate state on which one finder found nothing (see the module notes)."""

    __slots__ = ("_last",)

    _last: tuple[Shape, tuple[int, ...]] | None

    def __init__(self) -> None:
        self._last = None

    def remembered(self, cg: CandidateGrid) -> tuple[int, ...] | None:
        """The masks of the remembered state when it is of *cg*'s shape, else None (for a
        finder that compares them itself: the C core's aligned exclusion)."""
        last = self._last
        if last is None or last[0] is not cg.shape or len(last[1]) != len(cg.masks):
            return None
        return last[1]

    def changed(self, cg: CandidateGrid) -> Delta | None:
        """The cells whose masks differ from the remembered state of the same shape, with
        that state's masks, or None when there is none."""
        old = self.remembered(cg)
        if old is None:
            return None
        masks = cg.masks
        out = 0
        for i in compress(range(len(old)), map(ne, masks, old)):
            out |= 1 << i
        return Delta(out, old)

    def found_nothing(self, cg: CandidateGrid) -> None:
        """Remember *cg* as a state on which the finder found nothing."""
        self._last = (cg.shape, tuple(cg.masks))


def incremental(
    since: Since,
    search: Callable[[CandidateGrid, Delta | None], Iterator[Step]],
    cg: CandidateGrid,
    usable: bool = True,
) -> Iterator[Step]:
    """The steps of ``search(cg, delta)``, where *delta* comes from *since* (None: search
    everything); when the search runs to its end without a step, *cg* is remembered. With
    *usable* False (the finder's locality does not hold on this state) the search is a full
    one and nothing is remembered.

    >>> from sudokit.grid import Grid
    >>> from sudokit.logic.candidates import CandidateGrid
    >>> seen = []
    >>> def search(cg, delta):
    ...     seen.append(delta if delta is None else delta.cells)
    ...     return iter(())
    >>> cg = CandidateGrid.from_grid(Grid.parse("1.3." "...2" "2..." ".3.1"))
    >>> since = Since()
    >>> list(incremental(since, search, cg)), list(incremental(since, search, cg)), seen
    ([], [], [None, 0])
    """
    delta = since.changed(cg) if usable else None
    found = False
    for step in search(cg, delta):
        found = True
        yield step
    if usable and not found:
        since.found_nothing(cg)


def only_removed(cg: CandidateGrid, delta: Delta) -> bool:
    """True when every cell of *delta* holds only candidates it held before: *cg* was reached
    by eliminations and placements alone (a path's later state), which some finders need to
    search only what changed.

    >>> from sudokit.shape import Shape
    >>> from sudokit.logic.candidates import CandidateGrid
    >>> cg = CandidateGrid.from_masks(Shape(2, 2), [0] * 16, [0b0110] * 16)
    >>> only_removed(cg, Delta(0b1, (0b1110,) * 16)), only_removed(cg, Delta(0b1, (0b0100,) * 16))
    (True, False)
    """
    masks = cg.masks
    before = delta.before
    cells = delta.cells
    while cells:
        low = cells & -cells
        cells ^= low
        c = low.bit_length() - 1
        if masks[c] & ~before[c]:
            return False
    return True


def touched_units(shape: Shape, delta: Delta | None) -> frozenset[int] | None:
    """The units holding a cell of *delta* (None for None: every unit).

    >>> from sudokit.shape import Shape
    >>> sorted(touched_units(Shape(2, 2), Delta(1, ())))   # r1c1: row 1, column 1, box 1
    [0, 4, 8]
    """
    if delta is None:
        return None
    cell_units = shape.cell_units
    out: set[int] = set()
    cells = delta.cells
    while cells:
        low = cells & -cells
        cells ^= low
        out.update(cell_units[low.bit_length() - 1])
    return frozenset(out)


def by_units(
    search: Callable[[CandidateGrid, Container[int] | None], Iterator[Step]],
) -> Callable[[CandidateGrid], Iterator[Step]]:
    """A finder from *search*, which yields its steps unit by unit, in unit order, each step
    decided by the candidates of its unit alone; ``search(cg, units)`` looks only at the
    *units* (None: every unit). The finder searches only the units holding a cell changed
    since the last state where it found nothing (see the module notes)."""
    since = Since()

    def local(cg: CandidateGrid, delta: Delta | None) -> Iterator[Step]:
        return search(cg, touched_units(cg.shape, delta))

    def finder(cg: CandidateGrid) -> Iterator[Step]:
        return incremental(since, local, cg)

    return finder


def by_digits(
    search: Callable[[CandidateGrid, Sequence[int]], Iterator[Step]],
) -> Callable[[CandidateGrid], Iterator[Step]]:
    """A finder from *search*, which yields its steps digit by digit, in digit order, each
    step decided by the places of its digit alone; ``search(cg, digits)`` looks only at the
    *digits* (ascending). The finder searches only the digits whose places changed since the
    last state where it found nothing (see the module notes).

    >>> from sudokit.shape import Shape
    >>> from sudokit.logic.candidates import CandidateGrid
    >>> asked = []
    >>> finder = by_digits(lambda cg, digits: asked.append(list(digits)) or iter(()))
    >>> cg = CandidateGrid.from_masks(Shape(2, 2), [0] * 16, [0b1111] * 16)
    >>> list(finder(cg)), cg.eliminate(3, 2), list(finder(cg)), asked
    ([], True, [], [[1, 2, 3, 4], [2]])
    """
    since = Since()

    def local(cg: CandidateGrid, delta: Delta | None) -> Iterator[Step]:
        if delta is None:
            return search(cg, range(1, cg.shape.n + 1))
        return search(cg, bits(changed_digits(cg, delta)))

    def finder(cg: CandidateGrid) -> Iterator[Step]:
        return incremental(since, local, cg)

    return finder


def changed_digits(cg: CandidateGrid, delta: Delta) -> int:
    """The digits (a mask) whose places changed in *delta*.

    >>> from sudokit.shape import Shape
    >>> from sudokit.logic.candidates import CandidateGrid
    >>> cg = CandidateGrid.from_masks(Shape(2, 2), [0] * 16, [0b1111] * 16)
    >>> changed_digits(cg, Delta(0b10, (0b1111, 0b0101) + (0b1111,) * 14))
    10
    """
    masks = cg.masks
    before = delta.before
    out = 0
    cells = delta.cells
    while cells:
        low = cells & -cells
        cells ^= low
        c = low.bit_length() - 1
        out |= masks[c] ^ before[c]
    return out
