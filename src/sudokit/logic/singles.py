"""Singles and Sudoku Explainer's "direct" techniques (layer 2).

* Full House (1.0): the last empty cell of a unit takes the missing digit.
* Hidden Single: a digit with one place left in a box or region (1.2) or in a row, column or
  diagonal (1.5).
* Naked Single (2.3): a cell with one candidate left.
* Direct Pointing (1.7) / Direct Claiming (1.9): a pointing or claiming whose eliminations leave
  the same digit with a single place in some unit; the step is that placement.
* Direct Hidden Pair (2.0) / Triple (2.5): a hidden pair or triple in a unit leaves another digit
  with a single place in that unit; the step is that placement.

Direct steps place a digit and do not apply the supporting eliminations (as in SE 1.2.1); their
text explains the whole argument. Everything works on every shape.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> cg = CandidateGrid.from_grid(Grid.parse("123." "34.2" "2..." "...1"))
>>> step = next(iter(full_house(cg)))
>>> step.placements, step.text
(((3, 4),), 'r1c4 is the last empty cell of row 1, so it takes the missing digit 4.')
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

from ..shape import Shape
from . import _human
from ._delta import Delta, Since, by_units
from ._names import cell_list, digit_list, digit_name
from .candidates import CandidateGrid, bits
from .intersections import is_box, lock_hits, lock_text, make_lock
from .step import Step, deferred_text
from .subsets import hidden_set_hits

__all__ = [
    "direct_claiming",
    "direct_hidden_pair",
    "direct_hidden_triple",
    "direct_pointing",
    "full_house",
    "hidden_single_box",
    "hidden_single_line",
    "naked_single",
]


# What a finder returns when the C search found no hit: one exhausted iterator, shared (it
# stays exhausted), so that an empty search builds no map and partial (~0.25 us a call).
_NOTHING: Iterator[Any] = iter(())


@lru_cache(maxsize=64)
def _getters(shape: Shape) -> tuple[tuple[int, itemgetter[Any], bool, tuple[int, ...]], ...]:
    """Per unit: its index, an itemgetter of its cells, whether it is a box, and its cells."""
    return tuple(
        (u, itemgetter(*unit), is_box(shape, u), unit)
        for u, unit in enumerate(shape.units)
        if len(unit) > 1
    )


def _single(
    shape: Shape,
    name: str,
    rating: float,
    cell: int,
    d: int,
    text: str,
    units: tuple[int, ...] = (),
    why: tuple[int, ...] = (),
    highlights: tuple[tuple[int, int], ...] | None = None,
) -> Step:
    """The step of a single: *d* placed in *cell*, seen in *units*; *why*: the cells that
    leave it (shown before *cell*); *highlights*: the candidates that do (default: the one
    placed)."""
    return Step(
        name,
        rating,
        placements=((cell, d),),
        text=text,
        cells=(*why, cell),
        units=units,
        highlights=((cell, d),) if highlights is None else highlights,
        size=shape.n,
    )


def _full_house_hits(cg: CandidateGrid) -> Iterator[tuple[int, int, int]]:
    """(unit, cell, digit) of every unit with exactly one empty cell."""
    masks = cg.masks
    values = cg.values
    full = cg.all_mask
    for u, get, _, unit in _getters(cg.shape):
        vals = get(values)
        if vals.count(0) != 1:
            continue
        empty = unit[vals.index(0)]
        placed = 0
        for v in vals:
            if v:
                placed |= 1 << (v - 1)
        missing = full & ~placed
        if missing.bit_count() != 1 or not masks[empty] & missing:
            continue
        yield u, empty, missing.bit_length()


def _full_house_text(shape: Shape, u: int, empty: int, d: int) -> str:
    return (
        f"{shape.cell_name(empty)} is the last empty cell of {shape.unit_name(u)}, "
        f"so it takes the missing digit {digit_name(shape, d)}."
    )


def _full_house_step(cg: CandidateGrid, hit: tuple[int, int, int]) -> Step:
    # Step() made here, positionally, the text deferred: a rating makes ~60 singles a puzzle
    shape = cg.shape
    u, empty, d = hit
    placed = ((empty, d),)
    text = deferred_text(_full_house_text, shape, u, empty, d)
    return Step("Full House", 1.0, placed, (), text, (empty,), (u,), placed, (), shape.n)


def full_house(cg: CandidateGrid) -> Iterator[Step]:
    """Units with exactly one empty cell (SE 1.0)."""
    table = _human.core(cg)
    if table is None:
        hits: Iterable[tuple[int, int, int]] = _full_house_hits(cg)
    else:
        hits = table.find(_human.FULL_HOUSE, 0, cg.masks, cg.values)
    return map(partial(_full_house_step, cg), hits) if hits else _NOTHING


def _hidden_single_hits(cg: CandidateGrid, boxes: bool) -> Iterator[tuple[int, int, int]]:
    """(unit, cell, digit) of every digit with one place in a unit (boxes or the others)."""
    masks = cg.masks
    for u, get, box, unit in _getters(cg.shape):
        if box != boxes:
            continue
        once = 0
        twice = 0
        for m in get(masks):
            twice |= once & m
            once |= m
        single = once & ~twice
        while single:
            low = single & -single
            single ^= low
            yield u, next(c for c in unit if masks[c] & low), low.bit_length()


def _hidden_single_text(shape: Shape, u: int, cell: int, d: int) -> str:
    dn = digit_name(shape, d)
    name = shape.cell_name(cell)
    return f"In {shape.unit_name(u)} the {dn} can only go in {name}, so {name} is {dn}."


def _hidden_single_step(cg: CandidateGrid, hit: tuple[int, int, int]) -> Step:
    shape = cg.shape
    u, cell, d = hit
    placed = ((cell, d),)
    text = deferred_text(_hidden_single_text, shape, u, cell, d)
    rating = 1.2 if is_box(shape, u) else 1.5
    return Step("Hidden Single", rating, placed, (), text, (cell,), (u,), placed, (), shape.n)


def _hidden_singles(cg: CandidateGrid, boxes: bool) -> Iterator[Step]:
    table = _human.core(cg)
    if table is None:
        hits: Iterable[tuple[int, int, int]] = _hidden_single_hits(cg, boxes)
    else:
        hits = table.find(_human.HIDDEN_SINGLES, boxes, cg.masks, ())
    return map(partial(_hidden_single_step, cg), hits) if hits else _NOTHING


def hidden_single_box(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in boxes and jigsaw regions (SE 1.2)."""
    return _hidden_singles(cg, True)


def hidden_single_line(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden singles in rows, columns and diagonals (SE 1.5)."""
    return _hidden_singles(cg, False)


def _naked_single_hits(cg: CandidateGrid) -> Iterator[tuple[int, int]]:
    """(cell, digit) of every cell with a single candidate."""
    for cell, m in enumerate(cg.masks):
        if m and m & (m - 1) == 0:
            yield cell, m.bit_length()


def _naked_single_text(shape: Shape, cell: int, d: int) -> str:
    return f"{shape.cell_name(cell)} has only one candidate left, so it is {digit_name(shape, d)}."


def _naked_single_step(cg: CandidateGrid, hit: tuple[int, int]) -> Step:
    shape = cg.shape
    cell, d = hit
    placed = ((cell, d),)
    text = deferred_text(_naked_single_text, shape, cell, d)
    return Step("Naked Single", 2.3, placed, (), text, (cell,), (), placed, (), shape.n)


def naked_single(cg: CandidateGrid) -> Iterator[Step]:
    """Cells with a single candidate (SE 2.3)."""
    table = _human.core(cg)
    if table is None:
        hits: Iterable[tuple[int, int]] = _naked_single_hits(cg)
    else:
        hits = table.find(_human.NAKED_SINGLES, 0, cg.masks, ())
    return map(partial(_naked_single_step, cg), hits) if hits else _NOTHING


def _direct_lock_hits(
    cg: CandidateGrid, delta: Delta | None, pointing_kind: bool
) -> Iterator[tuple[int, int, int, int]]:
    """As SE: after the lock's eliminations, another unit of the same kind as the lock's base
    (another box for pointing, another line of the same direction for claiming) crossing the
    cover is left with one place for the digit: (crossing, digit, that unit, the place)."""
    shape = cg.shape
    masks = cg.masks
    kinds = shape.unit_kinds
    near = -1 if delta is None else delta.cells
    for i, d in lock_hits(cg, pointing_kind, near, direct=True):
        lock = make_lock(cg, pointing_kind, i, d)
        bit = 1 << (d - 1)
        cover = set(shape.units[lock.cover])
        removed = set(lock.removed)
        others = sorted(
            {u for c in lock.removed for u in shape.cell_units[c]} - {lock.base, lock.cover}
        )
        for u in others:
            if kinds[u] != kinds[lock.base]:
                continue
            pos = [c for c in shape.units[u] if masks[c] & bit]
            left = [c for c in pos if c not in cover]
            if len(pos) < 2 or len(left) != 1 or not removed.intersection(pos):
                continue
            yield i, d, u, left[0]


def _direct_lock_step(
    cg: CandidateGrid, pointing_kind: bool, hit: tuple[int, int, int, int]
) -> Step:
    shape = cg.shape
    i, d, u, cell = hit
    lock = make_lock(cg, pointing_kind, i, d)
    name, rating = ("Direct Pointing", 1.7) if pointing_kind else ("Direct Claiming", 1.9)
    dn = digit_name(shape, d)
    text = (
        lock_text(shape, lock) + f" Then in {shape.unit_name(u)} the {dn} can only go in "
        f"{shape.cell_name(cell)}, so {shape.cell_name(cell)} is {dn}."
    )
    shown = tuple((c, d) for c in lock.cells)
    units = (lock.base, lock.cover, u)
    return _single(shape, name, rating, cell, d, text, units, lock.cells, shown)


def _direct_locks(cg: CandidateGrid, delta: Delta | None, pointing_kind: bool) -> Iterator[Step]:
    for hit in _direct_lock_hits(cg, delta, pointing_kind):
        yield _direct_lock_step(cg, pointing_kind, hit)


# The last state each direct lock finder (pointing, claiming) found nothing on (._delta).
_SINCE_LOCKS = {True: Since(), False: Since()}


def _direct_lock_finder(cg: CandidateGrid, pointing_kind: bool) -> Iterator[Step]:
    since = _SINCE_LOCKS[pointing_kind]
    kind = _human.DIRECT_LOCKS
    return _human.steps(cg, kind, pointing_kind, _direct_lock_step, since, _direct_locks)


def direct_pointing(cg: CandidateGrid) -> Iterator[Step]:
    """A pointing that leaves a hidden single of the same digit (SE 1.7)."""
    return _direct_lock_finder(cg, True)


def direct_claiming(cg: CandidateGrid) -> Iterator[Step]:
    """A claiming that leaves a hidden single of the same digit (SE 1.9)."""
    return _direct_lock_finder(cg, False)


def _direct_hidden_hits(
    cg: CandidateGrid, units: Container[int] | None, k: int
) -> Iterator[tuple[int, ...]]:
    """(unit, digits, digit, cell, *set cells): a hidden set of size *k* in the unit and a digit
    it eliminates that is then left with one place in the unit."""
    shape = cg.shape
    masks = cg.masks
    for hit in hidden_set_hits(cg, k, direct=True, units=units):
        u, dmask, *cells = hit
        inside = set(cells)
        others = 0
        for c in cells:
            others |= masks[c] & ~dmask
        for d in bits(others):
            bit = 1 << (d - 1)
            left = [c for c in shape.units[u] if masks[c] & bit and c not in inside]
            if len(left) == 1:
                yield (u, dmask, d, left[0], *cells)


def _direct_hidden_step(cg: CandidateGrid, k: int, hit: tuple[int, ...]) -> Step:
    shape = cg.shape
    u, dmask, d, cell, *rest = hit
    cells = tuple(rest)
    name, rating = ("Direct Hidden Pair", 2.0) if k == 2 else ("Direct Hidden Triple", 2.5)
    digits = bits(dmask)
    dn = digit_name(shape, d)
    text = (
        f"In {shape.unit_name(u)}, the digits {digit_list(shape, digits)} can only "
        f"go in {cell_list(shape, cells)}, so no other digit fits there. That leaves "
        f"{dn} only one place in {shape.unit_name(u)}: "
        f"{shape.cell_name(cell)} is {dn}."
    )
    shown = tuple((c, x) for c in cells for x in digits if cg.has(c, x))
    return _single(shape, name, rating, cell, d, text, (u,), cells, shown)


def _direct_hidden(cg: CandidateGrid, units: Container[int] | None, k: int) -> Iterator[Step]:
    for hit in _direct_hidden_hits(cg, units, k):
        yield _direct_hidden_step(cg, k, hit)


# The finders search only the units changed since they last found nothing (see ._delta).
_DIRECT_HIDDEN = {k: by_units(partial(_direct_hidden, k=k)) for k in (2, 3)}


def _direct_hidden_finder(cg: CandidateGrid, k: int) -> Iterator[Step]:
    table = _human.core(cg)
    if table is None:
        return iter(_DIRECT_HIDDEN[k](cg))
    hits = table.find(_human.DIRECT_HIDDEN, k, cg.masks, ())
    return map(partial(_direct_hidden_step, cg, k), hits) if hits else _NOTHING


def direct_hidden_pair(cg: CandidateGrid) -> Iterator[Step]:
    """A hidden pair that leaves another digit a single place in its unit (SE 2.0)."""
    return _direct_hidden_finder(cg, 2)


def direct_hidden_triple(cg: CandidateGrid) -> Iterator[Step]:
    """A hidden triple that leaves another digit a single place in its unit (SE 2.5)."""
    return _direct_hidden_finder(cg, 3)
