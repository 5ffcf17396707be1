"""Uniqueness techniques: Unique Rectangles types 1-4 and BUG+1 (layer 2).

They assume the puzzle has exactly one solution, so the path uses them only when that is known
(:mod:`sudokit.rating` proves it with the solver first).

A *deadly pattern*: four unsolved cells in two rows, two columns and two boxes that all hold the
candidates ``x`` and ``y``. If only ``x`` and ``y`` were left there, the two digits could be
swapped and the puzzle would have two solutions; so at least one of the *extra* candidates of
the rectangle must be true. SE 1.2.1 values: type 1 (one cell has extras: remove ``x`` and ``y``
from it) 4.5; type 2 (the cells with extras share one extra digit ``z``: remove ``z`` from every
cell seeing them all) 4.5; type 3 (the two extra cells form a naked set with other cells of a
shared unit) 4.5 + 0.1 x (set size - 1); type 4 (``x`` is confined to the two extra cells in a
shared unit: remove ``y`` from them) 4.5 (types 2 and 4 checked against SE-rated puzzles).
Longer unique loops (6, 8, ... cells; SE 4.6+) are not searched yet.

BUG+1 (SE 5.6): every unsolved cell has two candidates but one, which has three; then the digit
that appears three times in that cell's units must go there, or the grid would be a "bivalue
universal grave" with two solutions.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> cg = CandidateGrid.from_grid(Grid.parse(
...     "2.9.4.8.7.7.9.......1.7...9...5.4..5...3.2...6..8.1...3...8.6.......3.4.8.3.1.9.2"))
>>> isinstance(list(unique_rectangle(cg)), list)
True
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ._names import cell_list, digit_list, elim_text
from .candidates import CandidateGrid, bits
from .step import Step

__all__ = ["bug_plus_one", "rectangles", "unique_rectangle"]


def rectangles(cg: CandidateGrid) -> Iterator[tuple[tuple[int, int, int, int], int]]:
    """Every rectangle of four unsolved cells in exactly two boxes sharing two candidates
    (pattern mask), as ``(cells, mask)``; each rectangle and pair once."""
    shape = cg.shape
    n = shape.n
    masks = cg.masks
    box_of = shape.box_of
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            for c1 in range(n):
                a = r1 * n + c1
                ma = masks[a]
                if ma.bit_count() < 2:
                    continue
                for c2 in range(c1 + 1, n):
                    cells = (a, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                    common = ma & masks[cells[1]] & masks[cells[2]] & masks[cells[3]]
                    if common.bit_count() < 2:
                        continue
                    if len({box_of[c] for c in cells}) != 2:
                        continue
                    for x, y in combinations(bits(common), 2):
                        yield cells, (1 << (x - 1)) | (1 << (y - 1))


def _common_units(cg: CandidateGrid, cells: tuple[int, ...]) -> list[int]:
    cu = cg.shape.cell_units
    common = set(cu[cells[0]])
    for c in cells[1:]:
        common.intersection_update(cu[c])
    return sorted(common)


def unique_rectangle(cg: CandidateGrid) -> Iterator[Step]:
    """Unique Rectangles types 1 to 4 (SE 4.5-4.8), easiest first."""
    steps = list(_ur_steps(cg))
    steps.sort(key=lambda s: s.rating)
    return iter(steps)


def _ur_steps(cg: CandidateGrid) -> Iterator[Step]:
    shape = cg.shape
    masks = cg.masks
    peers = shape.peers
    units = shape.units
    for cells, pm in rectangles(cg):
        x, y = bits(pm)
        extras = [c for c in cells if masks[c] & ~pm]
        base_text = (
            f"The cells {cell_list(shape, cells)} form a rectangle in two boxes that all hold "
            f"{x} and {y}. If none of them had another option, {x} and {y} could be swapped and "
            f"the puzzle would have two solutions"
        )
        pattern = tuple((c, d) for c in cells for d in (x, y))
        if len(extras) == 1:
            e = extras[0]
            elims: tuple[tuple[int, int], ...] = ((e, x), (e, y))
            yield _step(
                cg,
                4.5,
                1,
                cells,
                elims,
                pattern,
                base_text + f"; so {shape.cell_name(e)} must be one of its other candidates "
                f"and {x} and {y} are removed from it.",
            )
            continue
        if not extras:
            continue
        extra_union = 0
        for c in extras:
            extra_union |= masks[c] & ~pm
        same_extra = all(masks[c] & ~pm == extra_union for c in extras)
        if extra_union.bit_count() == 1 and same_extra:
            z = extra_union.bit_length()
            common = set(peers[extras[0]])
            for c in extras[1:]:
                common.intersection_update(peers[c])
            elims = tuple((c, z) for c in sorted(common) if masks[c] & extra_union)
            if elims:
                yield _step(
                    cg,
                    4.5,
                    2,
                    cells,
                    elims,
                    pattern,
                    base_text + f"; so one of {cell_list(shape, extras, 'or')} is {z}, and {z} "
                    f"is removed from every cell that sees them all: {elim_text(shape, elims)}.",
                )
        if len(extras) != 2:
            continue
        e1, e2 = extras
        shared = _common_units(cg, (e1, e2))
        # type 4: x (or y) confined to the two extra cells in a shared unit
        for u in shared:
            for keep, drop in ((x, y), (y, x)):
                where = cg.cells_with(u, keep)
                if sorted(where) == sorted((e1, e2)):
                    elims = ((e1, drop), (e2, drop))
                    yield _step(
                        cg,
                        4.5,
                        4,
                        cells,
                        elims,
                        pattern,
                        base_text + f". In {shape.unit_name(u)} the {keep} can only go in "
                        f"{shape.cell_name(e1)} or {shape.cell_name(e2)}, so one of them is "
                        f"{keep}; if either were {drop} the rectangle would be deadly, so {drop} "
                        f"is removed from both.",
                    )
        # type 3: the extra digits of e1 and e2 act as one cell in a naked set
        if extra_union.bit_count() < 2:
            continue
        for u in shared:
            others = [c for c in units[u] if masks[c] and c not in (e1, e2)]
            for size in range(1, min(4, len(others))):
                for combo in combinations(others, size):
                    union = extra_union
                    for c in combo:
                        union |= masks[c]
                    if union.bit_count() != size + 1:
                        continue
                    if any(masks[c].bit_count() < 2 for c in combo):
                        continue
                    elims = tuple(
                        (c, d) for c in others if c not in combo for d in bits(masks[c] & union)
                    )
                    if not elims:
                        continue
                    digits = bits(union)
                    yield _step(
                        cg,
                        4.5 + 0.1 * size,
                        3,
                        cells,
                        elims,
                        pattern,
                        base_text + f"; so one of {shape.cell_name(e1)} and "
                        f"{shape.cell_name(e2)} holds one of "
                        f"{digit_list(bits(extra_union), 'or')}. "
                        f"Together with {cell_list(shape, combo)} they form a naked set of "
                        f"{digit_list(digits)} in {shape.unit_name(u)}, so "
                        f"{elim_text(shape, elims)}.",
                    )


def _step(
    cg: CandidateGrid,
    rating: float,
    kind: int,
    cells: tuple[int, ...],
    elims: tuple[tuple[int, int], ...],
    pattern: tuple[tuple[int, int], ...],
    text: str,
) -> Step:
    return Step(
        f"Unique Rectangle type {kind}",
        round(rating, 1),
        eliminations=elims,
        text=text,
        cells=cells,
        highlights=pattern,
        size=cg.shape.n,
    )


def bug_plus_one(cg: CandidateGrid) -> Iterator[Step]:
    """BUG+1 (SE 5.6): the one cell with three candidates takes the digit seen three times."""
    shape = cg.shape
    masks = cg.masks
    tri = -1
    for c, m in enumerate(masks):
        k = m.bit_count()
        if k == 0 or k == 2:
            continue
        if k == 3 and tri < 0:
            tri = c
            continue
        return
    if tri < 0:
        return
    for _u, unit in enumerate(shape.units):
        for d in range(1, shape.n + 1):
            bit = 1 << (d - 1)
            count = sum(1 for c in unit if masks[c] & bit)
            if count not in (0, 2) and not (count == 3 and tri in unit):
                return
    for d in bits(masks[tri]):
        bit = 1 << (d - 1)
        if all(
            sum(1 for c in shape.units[u] if masks[c] & bit) == 3 for u in shape.cell_units[tri]
        ):
            name = shape.cell_name(tri)
            yield Step(
                "BUG+1",
                5.6,
                placements=((tri, d),),
                text=(
                    f"Every unsolved cell has two candidates except {name}, which has three. "
                    f"If {name} were not {d}, every unit would hold each of its candidates "
                    f"exactly twice, a pattern with two solutions; so {name} is {d}."
                ),
                cells=(tri,),
                highlights=((tri, d),),
                size=shape.n,
            )
            return
