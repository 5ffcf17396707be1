"""The basic rules Sudoku Explainer applies inside a dynamic forcing chain "(+)" when it is
stuck (layer 2): pointing/claiming, hidden pairs, naked pairs and X-Wings.

Each rule looks at the chain's current candidates *masks* and reports only what became possible
because of removals the chain made (relative to the candidates *save* it started from): each
found removal comes with its *parents*, the chain's removals (as "off" potentials, see
:mod:`sudokit.logic.chaining`) that the pattern relies on. :data:`BASIC_RULES` lists them in
SE's order; a chain uses the first that finds anything.

>>> from sudokit.shape import Shape
>>> from sudokit.logic.chaining import geometry, potential_name
>>> geo = geometry(Shape(2, 2))
>>> save = [0b1111] * 16
>>> masks = list(save); masks[0] = masks[1] = 0b11          # the chain removed 3 and 4 from r1c1-2
>>> found = naked_pairs(geo, save, masks)                      # SE's order: the box first
>>> potential_name(4, found[0][0]), [potential_name(4, p) for p in found[0][1]][:2]
('r2c1<>1', ['r1c1<>3', 'r1c1<>4'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol

from ._names import digit_name
from .chaining import Geometry, off_potential

if TYPE_CHECKING:
    from .. import _core, _native

__all__ = [
    "BASIC_RULES",
    "Found",
    "Rule",
    "c_rules",
    "hidden_pairs",
    "locking",
    "naked_pairs",
    "x_wings",
]

#: What a rule found: ("off" potential removed, the chain's removals it relies on) pairs.
Found = list[tuple[int, tuple[int, ...]]]


class Rule(Protocol):
    """A basic in-chain rule: ``rule(geo, save, masks)`` is what it finds; given a list *why*,
    it also appends, for each removal found, the words of the pattern that makes it (for a
    step's text: the chain search never asks)."""

    def __call__(
        self,
        geo: Geometry,
        save: Sequence[int],
        masks: Sequence[int],
        why: list[str] | None = None,
    ) -> Found: ...


def _cells_text(geo: Geometry, cells: Sequence[int]) -> str:
    """``r1c2 and r1c5`` (the cells' names, joined)."""
    names = [geo.shape.cell_name(c) for c in cells]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def _gone(
    cells: Sequence[int], d: int, n: int, save: Sequence[int], masks: Sequence[int]
) -> tuple[int, ...]:
    """The "off" potentials of digit *d* the chain removed from *cells*."""
    bit = 1 << d
    return tuple(off_potential(n, c, d) for c in cells if save[c] & bit and not masks[c] & bit)


#: Per geometry (by id, the geometry kept alive with it): SE's locking pairs (see
#: :func:`_locking_pairs`).
_PAIRS: dict[int, tuple[Geometry, list[tuple[int, int, frozenset[int], tuple[int, ...]]]]] = {}


def _locking_pairs(geo: Geometry) -> list[tuple[int, int, frozenset[int], tuple[int, ...]]]:
    """SE's order of crossing units for pointing and claiming: each box with each column it
    crosses, then with each row; each column with each box (or extra unit) it crosses, then each
    row. Per pair (u, v): v's cells as a set, and u's cells outside v."""
    got = _PAIRS.get(id(geo))
    if got is not None and got[0] is geo:
        return got[1]
    units, shape = geo.units, geo.shape
    lines = {*shape.row_units, *shape.column_units}
    others = [u for u in range(len(units)) if u not in lines]
    order = [
        (shape.box_units, shape.column_units),
        (shape.box_units, shape.row_units),
        (shape.column_units, others),
        (shape.row_units, others),
    ]
    pairs = []
    for firsts, seconds in order:
        for u in firsts:
            for v in seconds:
                vset = frozenset(units[v])
                if v != u and vset.intersection(units[u]):
                    pairs.append((u, v, vset, tuple(c for c in units[u] if c not in vset)))
    _PAIRS[id(geo)] = (geo, pairs)
    return pairs


def locking(
    geo: Geometry, save: Sequence[int], masks: Sequence[int], why: list[str] | None = None
) -> Found:
    """Pointing (a box's places of a digit in one line: the rest of the line loses it), then
    claiming (a line's places in one box or extra unit: the rest of it loses the digit), in SE's
    order (:func:`_locking_pairs`, then digit by digit). The parents: the chain's removals of the
    digit from the first unit outside the second (SE's ``LockingHint.getRuleParents``)."""
    n, units = geo.n, geo.units
    out: Found = []
    for u, v, vset, outside in _locking_pairs(geo):
        ucells = units[u]
        for d in range(n):
            bit = 1 << d
            where = [c for c in ucells if masks[c] & bit]
            if len(where) < 2 or any(c not in vset for c in where):
                continue
            elims = [c for c in units[v] if c not in ucells and masks[c] & bit]
            if not elims:
                continue
            prs = _gone(outside, d, n, save, masks)
            if prs:
                out += [(off_potential(n, c, d), prs) for c in elims]
                if why is not None:
                    shape = geo.shape
                    kind = "Pointing" if u in shape.box_units else "Claiming"
                    why += [
                        f"{kind}: in {shape.unit_name(u)} the {digit_name(shape, d + 1)} "
                        f"can only go in {shape.unit_name(v)}"
                    ] * len(elims)
    return out


def _se_units(geo: Geometry) -> list[int]:
    """The units in SE's order for hidden and naked sets: boxes, columns, rows, then any extra
    units."""
    shape = geo.shape
    first = [*shape.box_units, *shape.column_units, *shape.row_units]
    return first + [u for u in range(len(geo.units)) if u not in set(first)]


def _colex_pairs(k: int) -> list[tuple[int, int]]:
    """The pairs of 0..k-1 in SE's ``Permutations`` order (by the higher, then the lower).

    >>> _colex_pairs(4)
    [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]
    """
    return [(i, j) for j in range(k) for i in range(j)]


def hidden_pairs(
    geo: Geometry, save: Sequence[int], masks: Sequence[int], why: list[str] | None = None
) -> Found:
    """Two digits with the same two places in a unit: the other digits leave those cells. SE's
    order (units: :func:`_se_units`; digit pairs: :func:`_colex_pairs`), only in units with more
    than four unsolved cells; the parents: the two digits the chain removed from the unit's
    other cells (cell by cell)."""
    n, units = geo.n, geo.units
    out: Found = []
    pairs = _colex_pairs(n)
    for u in _se_units(geo):
        cells = units[u]
        if sum(1 for c in cells if save[c]) <= 4:
            continue
        places = [0] * n
        for k, c in enumerate(cells):
            for d in range(n):
                if masks[c] >> d & 1:
                    places[d] |= 1 << k
        for d1, d2 in pairs:
            p1, p2 = places[d1], places[d2]
            if p1.bit_count() < 2 or p2.bit_count() < 2 or (p1 | p2).bit_count() != 2:
                continue
            pair = (1 << d1) | (1 << d2)
            where = [c for k, c in enumerate(cells) if (p1 | p2) >> k & 1]
            elims = [
                (c, e) for c in where for e in range(n) if masks[c] >> e & 1 and not pair >> e & 1
            ]
            if not elims:
                continue
            prs = tuple(
                off_potential(n, c, d)
                for c in cells
                if c not in where
                for d in (d1, d2)
                if save[c] >> d & 1
            )
            if prs:
                words = partial(_pair_words, geo, u, (d1, d2), where, hidden=True)
                _add(out, why, n, elims, prs, words)
    return out


def _add(
    out: Found,
    why: list[str] | None,
    n: int,
    elims: Sequence[tuple[int, int]],
    parents: tuple[int, ...],
    words: Callable[[], str],
) -> None:
    """Add the removals *elims* (cell, digit index) with their *parents* to *out*, and when
    *why* is given, the rule's *words* once for each."""
    out += [(off_potential(n, c, e), parents) for c, e in elims]
    if why is not None:
        why += [words()] * len(elims)


def _pair_words(
    geo: Geometry,
    unit: int,
    digits: tuple[int, int],
    cells: Sequence[int],
    *,
    hidden: bool = False,
) -> str:
    """The words of a hidden or naked pair of *digits* (indices) in *cells* of *unit*."""
    shape = geo.shape
    where, places = shape.unit_name(unit), _cells_text(geo, cells)
    one, two = (digit_name(shape, d + 1) for d in digits)
    if hidden:
        return f"Hidden Pair: in {where} the {one} and {two} can only go in {places}"
    return f"Naked Pair: in {where} {places} hold only {one} and {two}"


def naked_pairs(
    geo: Geometry, save: Sequence[int], masks: Sequence[int], why: list[str] | None = None
) -> Found:
    """Two cells of a unit with the same two candidates: the rest of the unit loses them. SE's
    order (units: :func:`_se_units`; cell pairs: :func:`_colex_pairs`), only in units with at
    least four unsolved cells; the parents: the other candidates the chain removed from the two
    cells."""
    n, units = geo.n, geo.units
    out: Found = []
    pairs = _colex_pairs(n)
    for u in _se_units(geo):
        cells = units[u]
        if sum(1 for c in cells if save[c]) < 4:
            continue
        for i, j in pairs:
            a, b = cells[i], cells[j]
            pair = masks[a]
            if pair != masks[b] or pair.bit_count() != 2:
                continue
            elims = [
                (c, e)
                for c in cells
                if c not in (a, b)
                for e in range(n)
                if pair >> e & 1 and masks[c] >> e & 1
            ]
            if not elims:
                continue
            prs = tuple(
                off_potential(n, c, e)
                for c in (a, b)
                for e in range(n)
                if save[c] >> e & 1 and not pair >> e & 1
            )
            if prs:
                d1, d2 = (e for e in range(n) if pair >> e & 1)
                _add(out, why, n, elims, prs, partial(_pair_words, geo, u, (d1, d2), (a, b)))
    return out


def x_wings(
    geo: Geometry, save: Sequence[int], masks: Sequence[int], why: list[str] | None = None
) -> Found:
    """A digit with the same two places in two columns (rows): the two rows (columns) lose it
    elsewhere. SE's order: columns first, line pairs (:func:`_colex_pairs`), then digits, only
    for digits placed at most n - 4 times; the parents: the digit the chain removed from the two
    lines outside the two crossing lines."""
    n, units, shape = geo.n, geo.units, geo.shape
    out: Found = []
    rows, cols = list(shape.row_units), list(shape.column_units)
    # a digit is placed once in each row that holds it nowhere (SE counts placed values)
    placed = [sum(1 for r in rows if not any(save[c] >> d & 1 for c in units[r])) for d in range(n)]
    pairs = _colex_pairs(n)
    for base, cover in ((cols, rows), (rows, cols)):
        for i, j in pairs:
            l1, l2 = units[base[i]], units[base[j]]
            for d in range(n):
                if placed[d] + 4 > n:
                    continue
                bit = 1 << d
                p1 = [k for k, c in enumerate(l1) if masks[c] & bit]
                p2 = [k for k, c in enumerate(l2) if masks[c] & bit]
                cross = sorted({*p1, *p2})
                if len(p1) < 2 or len(p2) < 2 or len(cross) != 2:
                    continue
                crossing = {c for k in cross for c in units[cover[k]]}
                elims = [
                    c
                    for k in cross
                    for c in units[cover[k]]
                    if masks[c] & bit and c not in l1 and c not in l2
                ]
                if not elims:
                    continue
                prs = _gone([c for c in (*l1, *l2) if c not in crossing], d, n, save, masks)
                if prs:
                    out += [(off_potential(n, c, d), prs) for c in elims]
                    if why is not None:
                        name = geo.shape.unit_name
                        lines = f"{name(base[i])} and {name(base[j])}"
                        covers = f"{name(cover[cross[0]])} and {name(cover[cross[1]])}"
                        why += [
                            f"X-Wing: in {lines} the {digit_name(geo.shape, d + 1)} can only "
                            f"go in {covers}"
                        ] * len(elims)
    return out


#: The basic rules in SE's order.
BASIC_RULES: tuple[Rule, ...] = (
    locking,
    hidden_pairs,
    naked_pairs,
    x_wings,
)


def c_rules(core: _native.Core, geo: Geometry) -> _core.InChain | None:
    """The C *core*'s ``InChain`` for *geo* (csrc/sk_nest.c: :data:`BASIC_RULES` with the same
    removals, order and parents; ``find(save, masks)`` returns what the first rule that finds
    anything finds), or None (a grid beyond 64x64, or a unit not of n cells)."""
    n = geo.n
    if n > 64 or any(len(u) != n for u in geo.units):
        return None
    shape = geo.shape
    pairs = tuple((u, v) for u, v, _, _ in _locking_pairs(geo))
    lines = (tuple(_se_units(geo)), tuple(shape.row_units), tuple(shape.column_units))
    return core.InChain(n, geo.units, pairs, lines)
