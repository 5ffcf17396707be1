"""Naked and hidden subsets: pairs, triples and quads (layer 2).

*Naked*: ``k`` cells of a unit whose candidates together are only ``k`` digits hold exactly those
digits, so the digits are removed from the rest of the unit. *Hidden*: ``k`` digits that can only
go in the same ``k`` cells of a unit fill those cells, so every other candidate is removed from
them. SE 1.2.1 values: Naked Pair 3.0, Hidden Pair 3.4, Naked Triple 3.6, Hidden Triple 4.0,
Naked Quad 5.0, Hidden Quad 5.4. Works on every shape.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> cg = CandidateGrid.from_grid(Grid.parse(
...     "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9"))
>>> [s.technique for s in naked_pair(cg)][:1]
['Naked Pair']
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from functools import partial

from .._record import _Record
from . import _human
from ._bits import locked_sets
from ._delta import by_units
from ._names import cell_list, digit_list, elim_text
from .candidates import CandidateGrid, bits
from .step import Step, named_finder

__all__ = [
    "Subset",
    "hidden_pair",
    "hidden_quad",
    "hidden_set_hits",
    "hidden_sets",
    "hidden_triple",
    "naked_pair",
    "naked_quad",
    "naked_set_hits",
    "naked_sets",
    "naked_triple",
]

_NAMES = {2: "Pair", 3: "Triple", 4: "Quad"}
NAKED_RATING = {2: 3.0, 3: 3.6, 4: 5.0}
HIDDEN_RATING = {2: 3.4, 3: 4.0, 4: 5.4}


class Subset(_Record):
    """``cells`` of ``unit`` locked to the digits of ``digits`` (a mask)."""

    __slots__ = ("cells", "digits", "unit")
    __match_args__ = ("unit", "cells", "digits")
    unit: int
    cells: tuple[int, ...]
    digits: int


def _naked_elims(
    cg: CandidateGrid, u: int, cells: tuple[int, ...], union: int
) -> tuple[tuple[int, int], ...]:
    """What the naked set *cells* (of unit *u*, holding the digits *union*) eliminates."""
    masks = cg.masks
    return tuple(
        (c, d) for c in cg.shape.units[u] if c not in cells for d in bits(masks[c] & union)
    )


def _hidden_elims(
    cg: CandidateGrid, cells: tuple[int, ...], dmask: int
) -> tuple[tuple[int, int], ...]:
    """What the hidden set *cells* of the digits *dmask* eliminates."""
    masks = cg.masks
    return tuple((c, d) for c in cells for d in bits(masks[c] & ~dmask))


def naked_set_hits(
    cg: CandidateGrid, k: int, units: Container[int] | None = None
) -> Iterator[tuple[int, ...]]:
    """Every naked set of size *k* that eliminates something, as (unit, digits, *cells) (only in
    *units* when given)."""
    masks = cg.masks
    for u, unit in enumerate(cg.shape.units):
        if units is not None and u not in units:
            continue
        empty = [c for c in unit if masks[c]]
        if len(empty) < 2 * k:  # as SE: smaller units show the complementary hidden set
            continue
        eligible = [c for c in empty if 2 <= masks[c].bit_count() <= k]
        if len(eligible) < k:
            continue
        for combo, union in locked_sets(masks, eligible, k):
            if _naked_elims(cg, u, combo, union):
                yield (u, union, *combo)


def hidden_set_hits(
    cg: CandidateGrid, k: int, direct: bool = False, units: Container[int] | None = None
) -> Iterator[tuple[int, ...]]:
    """Every hidden set of size *k* that eliminates something, as (unit, digits, *cells) (only
    in *units* when given).

    As in SE, a plain hidden set is looked for only in units with more than ``2k`` empty cells
    (otherwise the complementary naked set is the simpler view); *direct* lowers that to ``k``.
    """
    masks = cg.masks
    n = cg.shape.n
    for u, unit in enumerate(cg.shape.units):
        if units is not None and u not in units:
            continue
        empty = [c for c in unit if masks[c]]
        if len(empty) <= (k if direct else 2 * k):
            continue
        # positions of each digit as a mask over the unit's empty cells
        pos = [0] * (n + 1)
        for j, c in enumerate(empty):
            m = masks[c]
            jbit = 1 << j
            while m:
                low = m & -m
                m ^= low
                pos[low.bit_length()] |= jbit
        where = {d: p for d, p in enumerate(pos) if 2 <= p.bit_count() <= k}
        if len(where) < k:
            continue
        for combo, union in locked_sets(where, sorted(where), k):
            dmask = 0
            for d in combo:
                dmask |= 1 << (d - 1)
            cells = tuple(empty[j] for j in range(len(empty)) if union >> j & 1)
            if _hidden_elims(cg, cells, dmask):
                yield (u, dmask, *cells)


def naked_sets(
    cg: CandidateGrid, k: int, units: Container[int] | None = None
) -> Iterator[tuple[Subset, tuple[tuple[int, int], ...]]]:
    """Every naked set of size *k* that eliminates something, with its eliminations (only in
    *units* when given)."""
    for u, union, *cells in naked_set_hits(cg, k, units):
        combo = tuple(cells)
        yield Subset(u, combo, union), _naked_elims(cg, u, combo, union)


def hidden_sets(
    cg: CandidateGrid, k: int, direct: bool = False, units: Container[int] | None = None
) -> Iterator[tuple[Subset, tuple[tuple[int, int], ...]]]:
    """Every hidden set of size *k* that eliminates something, with its eliminations (only in
    *units* when given; *direct*: see :func:`hidden_set_hits`)."""
    for u, dmask, *cells in hidden_set_hits(cg, k, direct, units):
        found = tuple(cells)
        yield Subset(u, found, dmask), _hidden_elims(cg, found, dmask)


def _set_step(cg: CandidateGrid, k: int, hidden: bool, hit: tuple[int, ...]) -> Step:
    """The step of a naked (hidden) set hit ``(unit, digit mask, *cells)``."""
    shape = cg.shape
    u, dmask, *rest = hit
    cells = tuple(rest)
    digits = bits(dmask)
    unit = shape.unit_name(u)
    if hidden:
        elims = _hidden_elims(cg, cells, dmask)
        text = (
            f"In {unit}, the digits {digit_list(shape, digits)} can only go "
            f"in {cell_list(shape, cells)}, so those cells hold exactly these digits and their "
            f"other candidates are removed: {elim_text(shape, elims)}."
        )
        highlights = tuple((c, d) for c in cells for d in digits if cg.has(c, d))
    else:
        elims = _naked_elims(cg, u, cells, dmask)
        text = (
            f"In {unit}, the cells {cell_list(shape, cells)} can only "
            f"hold {digit_list(shape, digits)} between them, so those digits must go in those "
            f"cells and are removed from the rest of {unit}: {elim_text(shape, elims)}."
        )
        highlights = tuple((c, d) for c in cells for d in cg.digits(c))
    return Step(
        f"{'Hidden' if hidden else 'Naked'} {_NAMES[k]}",
        (HIDDEN_RATING if hidden else NAKED_RATING)[k],
        eliminations=elims,
        text=text,
        cells=cells,
        units=(u,),
        highlights=highlights,
        size=shape.n,
    )


def _naked(cg: CandidateGrid, units: Container[int] | None, k: int) -> Iterator[Step]:
    for hit in naked_set_hits(cg, k, units):
        yield _set_step(cg, k, False, hit)


def _hidden(cg: CandidateGrid, units: Container[int] | None, k: int) -> Iterator[Step]:
    for hit in hidden_set_hits(cg, k, units=units):
        yield _set_step(cg, k, True, hit)


# The finders search only the units changed since they last found nothing (see ._delta).
_NAKED = {k: by_units(partial(_naked, k=k)) for k in _NAMES}
_HIDDEN = {k: by_units(partial(_hidden, k=k)) for k in _NAMES}


def _finder(cg: CandidateGrid, k: int, hidden: bool) -> Iterator[Step]:
    table = _human.core(cg)
    if table is None:
        return iter((_HIDDEN if hidden else _NAKED)[k](cg))
    kind = _human.HIDDEN_SETS if hidden else _human.NAKED_SETS
    return map(partial(_set_step, cg, k, hidden), table.find(kind, k, cg.masks, ()))


def _sets(k: int, hidden: bool) -> Callable[[CandidateGrid], Iterator[Step]]:
    """The finder of the hidden (or naked) sets of *k* cells, named and rated by the tables."""
    kind = "hidden" if hidden else "naked"
    rating = (HIDDEN_RATING if hidden else NAKED_RATING)[k]
    size = _NAMES[k].lower()
    return named_finder(
        f"{kind}_{size}", f"{kind.title()} {size}s (SE {rating}).", _finder, k, hidden
    )


naked_pair, naked_triple, naked_quad = (_sets(k, False) for k in _NAMES)
hidden_pair, hidden_triple, hidden_quad = (_sets(k, True) for k in _NAMES)
