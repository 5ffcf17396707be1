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

from collections.abc import Container, Iterator
from functools import partial
from itertools import combinations

from .._record import _Record
from ._delta import by_units
from ._names import cell_list, digit_list, elim_text
from .candidates import CandidateGrid, bits
from .step import Step

__all__ = [
    "Subset",
    "hidden_pair",
    "hidden_quad",
    "hidden_sets",
    "hidden_triple",
    "naked_pair",
    "naked_quad",
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


def naked_sets(
    cg: CandidateGrid, k: int, units: Container[int] | None = None
) -> Iterator[tuple[Subset, tuple[tuple[int, int], ...]]]:
    """Every naked set of size *k* that eliminates something, with its eliminations (only in
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
        for combo in combinations(eligible, k):
            union = 0
            for c in combo:
                union |= masks[c]
            if union.bit_count() != k:
                continue
            elims = tuple((c, d) for c in empty if c not in combo for d in bits(masks[c] & union))
            if elims:
                yield Subset(u, combo, union), elims


def hidden_sets(
    cg: CandidateGrid, k: int, direct: bool = False, units: Container[int] | None = None
) -> Iterator[tuple[Subset, tuple[tuple[int, int], ...]]]:
    """Every hidden set of size *k* that eliminates something, with its eliminations (only in
    *units* when given).

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
        for combo in combinations(sorted(where), k):
            union = 0
            for d in combo:
                union |= where[d]
            if union.bit_count() != k:
                continue
            dmask = 0
            for d in combo:
                dmask |= 1 << (d - 1)
            cells = tuple(empty[j] for j in range(len(empty)) if union >> j & 1)
            elims = tuple((c, d) for c in cells for d in bits(masks[c] & ~dmask))
            if elims:
                yield Subset(u, cells, dmask), elims


def _naked(cg: CandidateGrid, units: Container[int] | None, k: int) -> Iterator[Step]:
    shape = cg.shape
    name = f"Naked {_NAMES[k]}"
    for sub, elims in naked_sets(cg, k, units):
        digits = bits(sub.digits)
        text = (
            f"In {shape.unit_name(sub.unit)}, the cells {cell_list(shape, sub.cells)} can only "
            f"hold {digit_list(shape, digits)} between them, so those digits must go in those "
            f"cells and are removed from the rest of {shape.unit_name(sub.unit)}: "
            f"{elim_text(shape, elims)}."
        )
        yield Step(
            name,
            NAKED_RATING[k],
            eliminations=elims,
            text=text,
            cells=sub.cells,
            units=(sub.unit,),
            highlights=tuple((c, d) for c in sub.cells for d in cg.digits(c)),
            size=shape.n,
        )


def _hidden(cg: CandidateGrid, units: Container[int] | None, k: int) -> Iterator[Step]:
    shape = cg.shape
    name = f"Hidden {_NAMES[k]}"
    for sub, elims in hidden_sets(cg, k, units=units):
        digits = bits(sub.digits)
        text = (
            f"In {shape.unit_name(sub.unit)}, the digits {digit_list(shape, digits)} can only go "
            f"in {cell_list(shape, sub.cells)}, so those cells hold exactly these digits and their "
            f"other candidates are removed: {elim_text(shape, elims)}."
        )
        yield Step(
            name,
            HIDDEN_RATING[k],
            eliminations=elims,
            text=text,
            cells=sub.cells,
            units=(sub.unit,),
            highlights=tuple((c, d) for c in sub.cells for d in digits if cg.has(c, d)),
            size=shape.n,
        )


# The finders search only the units changed since they last found nothing (see ._delta).
_NAKED = {k: by_units(partial(_naked, k=k)) for k in _NAMES}
_HIDDEN = {k: by_units(partial(_hidden, k=k)) for k in _NAMES}


def naked_pair(cg: CandidateGrid) -> Iterator[Step]:
    """Naked pairs (SE 3.0)."""
    return _NAKED[2](cg)


def naked_triple(cg: CandidateGrid) -> Iterator[Step]:
    """Naked triples (SE 3.6)."""
    return _NAKED[3](cg)


def naked_quad(cg: CandidateGrid) -> Iterator[Step]:
    """Naked quads (SE 5.0)."""
    return _NAKED[4](cg)


def hidden_pair(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden pairs (SE 3.4)."""
    return _HIDDEN[2](cg)


def hidden_triple(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden triples (SE 4.0)."""
    return _HIDDEN[3](cg)


def hidden_quad(cg: CandidateGrid) -> Iterator[Step]:
    """Hidden quads (SE 5.4)."""
    return _HIDDEN[4](cg)
