"""Intersections (locked candidates): pointing and claiming (layer 2).

When every place for a digit in one unit lies inside a second unit, the digit must go in the
overlap, so it is removed from the rest of the second unit. *Pointing*: the first unit is a box
(or jigsaw region) and the second a row, column or diagonal (SE 2.6). *Claiming* (box/line
reduction): the first unit is a line and the second a box or region (SE 2.8). Works on every
shape: the overlaps come from the shape's unit tables.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> cg = CandidateGrid.from_grid(Grid.parse(
...     "..1957.........1.5..5.183.9..6.7.9..7.9...1.3..8.9.6..1.784..3..94.6.......1..8.."))
>>> step = next(iter(pointing(cg)))
>>> step.technique, step.rating
('Pointing', 2.6)
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from .._record import _Record
from ..shape import Shape
from . import _human
from ._delta import Delta, Since
from ._names import cell_list, digit_name, join_or
from .candidates import CandidateGrid
from .step import Step

__all__ = ["Lock", "claiming", "crossings", "lock_hits", "locks", "make_lock", "pointing"]

BOX_KINDS = ("box", "region")


class Lock(_Record):
    """A digit confined to the overlap of ``base`` and ``cover``; ``removed`` are the cells of
    ``cover`` outside ``base`` that lose the digit."""

    __slots__ = ("base", "cells", "cover", "digit", "removed")
    __match_args__ = ("base", "cover", "digit", "cells", "removed")
    base: int
    cover: int
    digit: int
    cells: tuple[int, ...]
    removed: tuple[int, ...]


def is_box(shape: Shape, unit: int) -> bool:
    """True for a box or jigsaw region."""
    return shape.unit_kinds[unit] in BOX_KINDS


@lru_cache(maxsize=64)
def crossings(
    shape: Shape, pointing_kind: bool
) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """For every base unit (boxes when *pointing_kind*, else lines) and every unit of the other
    kind that shares at least two cells with it: ``(base, cover, overlap, rest of base, rest of
    cover)``."""
    out = []
    units = shape.units
    for base, unit in enumerate(units):
        if is_box(shape, base) != pointing_kind:
            continue
        inside = set(unit)
        for cover, other in enumerate(units):
            if cover == base or is_box(shape, cover) == pointing_kind:
                continue
            overlap = tuple(c for c in other if c in inside)
            if len(overlap) < 2:
                continue
            cross = set(overlap)
            rest_base = tuple(c for c in unit if c not in cross)
            rest_cover = tuple(c for c in other if c not in cross)
            out.append((base, cover, overlap, rest_base, rest_cover))
    return tuple(out)


@lru_cache(maxsize=64)
def _regions(shape: Shape, pointing_kind: bool, direct: bool) -> tuple[int, ...]:
    """Per crossing of :func:`crossings` (same order), the cells (a bit set) whose candidates
    decide its locks: the base and cover units, and for *direct* also every unit of the base's
    kind that meets the rest of the cover (where the direct techniques look for a single)."""
    units = shape.units
    kinds = shape.unit_kinds
    cell_units = shape.cell_units
    out = []
    for base, cover, _, _, rest_cover in crossings(shape, pointing_kind):
        region = {base, cover}
        if direct:
            region.update(u for c in rest_cover for u in cell_units[c] if kinds[u] == kinds[base])
        out.append(sum({1 << c for u in region for c in units[u]}))
    return tuple(out)


def lock_hits(
    cg: CandidateGrid, pointing_kind: bool, near: int = -1, direct: bool = False
) -> Iterator[tuple[int, int]]:
    """Every locked-candidate pattern with eliminations, as (crossing index into
    :func:`crossings`, digit); boxes as base when *pointing_kind*, lines as base otherwise.
    Digits with a single place in the base (hidden singles) are left out, as in SE. Only the
    crossings whose region (:func:`_regions`, for *direct* or not) holds a cell of *near* (a
    cell bit set; -1: every cell)."""
    masks = cg.masks
    regions = _regions(cg.shape, pointing_kind, direct)
    for i, (_, _, overlap, rest_base, rest_cover) in enumerate(crossings(cg.shape, pointing_kind)):
        if not regions[i] & near:
            continue
        once = twice = 0
        for c in overlap:
            m = masks[c]
            twice |= once & m
            once |= m
        if not twice:
            continue
        outside = 0
        for c in rest_base:
            outside |= masks[c]
        locked = twice & ~outside
        if not locked:
            continue
        removable = 0
        for c in rest_cover:
            removable |= masks[c]
        locked &= removable
        while locked:
            low = locked & -locked
            locked ^= low
            yield i, low.bit_length()


def make_lock(cg: CandidateGrid, pointing_kind: bool, crossing: int, digit: int) -> Lock:
    """The :class:`Lock` of *digit* in crossing number *crossing* of :func:`crossings`."""
    base, cover, overlap, _, rest_cover = crossings(cg.shape, pointing_kind)[crossing]
    masks = cg.masks
    bit = 1 << (digit - 1)
    cells = tuple(c for c in overlap if masks[c] & bit)
    removed = tuple(c for c in rest_cover if masks[c] & bit)
    return Lock(base, cover, digit, cells, removed)


def locks(
    cg: CandidateGrid, pointing_kind: bool, near: int = -1, direct: bool = False
) -> Iterator[Lock]:
    """The :class:`Lock` of every hit of :func:`lock_hits` (same arguments)."""
    for i, d in lock_hits(cg, pointing_kind, near, direct):
        yield make_lock(cg, pointing_kind, i, d)


def lock_text(shape: Shape, lock: Lock) -> str:
    """Explain a lock in prose."""
    base = shape.unit_name(lock.base)
    cover = shape.unit_name(lock.cover)
    where = join_or([shape.cell_name(c) for c in lock.cells])
    both = "both" if len(lock.cells) == 2 else "all"
    dn = digit_name(shape, lock.digit)
    return (
        f"In {base} the {dn} can only go in {where}, {both} in {cover}, "
        f"so {dn} is removed from the rest of {cover} "
        f"({cell_list(shape, lock.removed)})."
    )


def _step(cg: CandidateGrid, pointing_kind: bool, hit: tuple[int, int]) -> Step:
    """The step of one hit of :func:`lock_hits`."""
    lock = make_lock(cg, pointing_kind, *hit)
    name, rating = ("Pointing", 2.6) if pointing_kind else ("Claiming", 2.8)
    return Step(
        name,
        rating,
        eliminations=tuple((c, lock.digit) for c in lock.removed),
        text=lock_text(cg.shape, lock),
        cells=lock.cells,
        units=(lock.base, lock.cover),
        highlights=tuple((c, lock.digit) for c in lock.cells),
        size=cg.shape.n,
    )


def _steps(cg: CandidateGrid, delta: Delta | None, pointing_kind: bool) -> Iterator[Step]:
    for hit in lock_hits(cg, pointing_kind, -1 if delta is None else delta.cells):
        yield _step(cg, pointing_kind, hit)


# The last state each finder (pointing, claiming) found nothing on (see :mod:`._delta`).
_SINCE = {True: Since(), False: Since()}


def _finder(cg: CandidateGrid, pointing_kind: bool) -> Iterator[Step]:
    return _human.steps(cg, _human.LOCKS, pointing_kind, _step, _SINCE[pointing_kind], _steps)


def pointing(cg: CandidateGrid) -> Iterator[Step]:
    """Pointing: a digit of a box confined to one line is removed from the rest of the line."""
    return _finder(cg, True)


def claiming(cg: CandidateGrid) -> Iterator[Step]:
    """Claiming: a digit of a line confined to one box is removed from the rest of the box."""
    return _finder(cg, False)
