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
>>> found = naked_pairs(geo, save, masks)
>>> potential_name(4, found[0][0]), [potential_name(4, p) for p in found[0][1]][:2]
('r1c3<>1', ['r1c1<>3', 'r1c1<>4'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .chaining import Geometry, off_potential

__all__ = ["BASIC_RULES", "Found", "hidden_pairs", "locking", "naked_pairs", "x_wings"]

#: What a rule found: ("off" potential removed, the chain's removals it relies on) pairs.
Found = list[tuple[int, tuple[int, ...]]]


def _gone(
    cells: Sequence[int], d: int, n: int, save: Sequence[int], masks: Sequence[int]
) -> tuple[int, ...]:
    """The "off" potentials of digit *d* the chain removed from *cells*."""
    bit = 1 << d
    return tuple(off_potential(n, c, d) for c in cells if save[c] & bit and not masks[c] & bit)


def locking(geo: Geometry, save: Sequence[int], masks: Sequence[int]) -> Found:
    """Pointing (a box's places of a digit in one line: the rest of the line loses it), then
    claiming (a line's places in one box or extra unit: the rest of it loses the digit)."""
    n, units, shape = geo.n, geo.units, geo.shape
    out: Found = []
    lines = [*shape.row_units, *shape.column_units]
    for pointing in (True, False):
        for u in shape.box_units if pointing else lines:
            for d in range(n):
                bit = 1 << d
                where = [c for c in units[u] if masks[c] & bit]
                if len(where) < 2:
                    continue
                common = set(geo.shape.cell_units[where[0]])
                for c in where[1:]:
                    common &= set(geo.shape.cell_units[c])
                common.discard(u)
                for v in sorted(common):
                    if pointing != (v in shape.row_units or v in shape.column_units):
                        continue
                    elims = [c for c in units[v] if c not in where and masks[c] & bit]
                    if not elims:
                        continue
                    prs = _gone(units[u], d, n, save, masks)
                    if prs:
                        out += [(off_potential(n, c, d), prs) for c in elims]
    return out


def hidden_pairs(geo: Geometry, save: Sequence[int], masks: Sequence[int]) -> Found:
    """Two digits with the same two places in a unit: the other digits leave those cells."""
    n, units = geo.n, geo.units
    out: Found = []
    for u in range(len(units)):
        places: dict[tuple[int, ...], list[int]] = {}
        for d in range(n):
            bit = 1 << d
            where = tuple(c for c in units[u] if masks[c] & bit)
            if len(where) == 2:
                places.setdefault(where, []).append(d)
        for where, ds in places.items():
            if len(ds) != 2:
                continue
            pair = (1 << ds[0]) | (1 << ds[1])
            elims = [
                (c, e) for c in where for e in range(n) if masks[c] >> e & 1 and not pair >> e & 1
            ]
            if not elims:
                continue
            prs = _gone(units[u], ds[0], n, save, masks) + _gone(units[u], ds[1], n, save, masks)
            if prs:
                out += [(off_potential(n, c, e), prs) for c, e in elims]
    return out


def naked_pairs(geo: Geometry, save: Sequence[int], masks: Sequence[int]) -> Found:
    """Two cells of a unit with the same two candidates: the rest of the unit loses them."""
    n, units = geo.n, geo.units
    out: Found = []
    for u in range(len(units)):
        cells = [c for c in units[u] if masks[c].bit_count() == 2]
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                if masks[a] != masks[b]:
                    continue
                pair = masks[a]
                elims = [
                    (c, e)
                    for c in units[u]
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
                    if save[c] >> e & 1 and not masks[c] >> e & 1
                )
                if prs:
                    out += [(off_potential(n, c, e), prs) for c, e in elims]
    return out


def x_wings(geo: Geometry, save: Sequence[int], masks: Sequence[int]) -> Found:
    """A digit with the same two places in two rows (columns): the two columns (rows) lose it
    elsewhere."""
    n, units, shape = geo.n, geo.units, geo.shape
    out: Found = []
    for by_rows in (True, False):
        base = shape.row_units if by_rows else shape.column_units
        for d in range(n):
            bit = 1 << d
            pos: dict[tuple[int, ...], list[int]] = {}
            for u in base:
                where = tuple((c % n if by_rows else c // n) for c in units[u] if masks[c] & bit)
                if len(where) == 2:
                    pos.setdefault(where, []).append(u)
            for cross, lines in pos.items():
                for i in range(len(lines)):
                    for j in range(i + 1, len(lines)):
                        l1, l2 = lines[i], lines[j]
                        elims = []
                        for x in cross:
                            cover = units[shape.column_units[x] if by_rows else shape.row_units[x]]
                            elims += [
                                c
                                for c in cover
                                if masks[c] & bit and c not in units[l1] and c not in units[l2]
                            ]
                        if not elims:
                            continue
                        prs = _gone(units[l1], d, n, save, masks) + _gone(
                            units[l2], d, n, save, masks
                        )
                        if prs:
                            out += [(off_potential(n, c, d), prs) for c in elims]
    return out


#: The basic rules in SE's order.
BASIC_RULES: tuple[Callable[[Geometry, Sequence[int], Sequence[int]], Found], ...] = (
    locking,
    hidden_pairs,
    naked_pairs,
    x_wings,
)
