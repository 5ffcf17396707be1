"""Aligned Pair and Triple Exclusion, as in SE 1.2.1 (6.2 and 7.5) (layer 2).

Take two (or three) *base* cells and the *excluder* cells that see all of them and have at most
two (three) candidates. Try every combination of candidates of the base cells: a combination is
impossible when two base cells that see each other get the same digit, or when it would take
every candidate of an excluder. A base candidate that appears in no possible combination is
removed. Works on every shape.

>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> full = 0b111111111
>>> masks = [full] * 81
>>> masks[0], masks[1] = 0b011, 0b111                  # r1c1 {1,2}, r1c2 {1,2,3}
>>> masks[2], masks[3] = 0b011, 0b101                  # excluders r1c3 {1,2}, r1c4 {1,3}
>>> step = next(aligned_pair(CandidateGrid.from_masks(Shape(3, 3), [0] * 81, masks)))
>>> step.eliminations
((0, 1), (1, 1), (1, 2))
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from ._names import cell_list, elim_text
from .candidates import CandidateGrid, bits
from .step import Step

__all__ = ["aligned_pair", "aligned_triple"]


def _candidates(cg: CandidateGrid, degree: int) -> dict[int, set[int]]:
    """Base cells (>= 2 candidates, no peer with a single candidate, some excluder) and
    their excluders (peers with 2..degree candidates)."""
    masks = cg.masks
    peers = cg.shape.peers
    out: dict[int, set[int]] = {}
    for cell, m in enumerate(masks):
        if m.bit_count() < 2:
            continue
        excl: set[int] = set()
        naked = False
        for p in peers[cell]:
            k = masks[p].bit_count()
            if k == 1:
                naked = True
                break
            if 2 <= k <= degree:
                excl.add(p)
        if not naked and excl:
            out[cell] = excl
    return out


def _exclude(
    cg: CandidateGrid, cells: tuple[int, ...], excluders: list[int]
) -> tuple[tuple[int, int], ...]:
    masks = cg.masks
    peers = cg.shape.peers
    k = len(cells)
    sees = [[j != i and cells[j] in peers[cells[i]] for j in range(k)] for i in range(k)]
    ex_masks = [masks[e] for e in excluders]
    cand = [bits(masks[c]) for c in cells]
    full = [masks[c] for c in cells]
    allowed = [0] * k
    for combo in product(*cand):
        ok = True
        for i in range(k):
            for j in range(i + 1, k):
                if combo[i] == combo[j] and sees[i][j]:
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            continue
        cm = 0
        for d in combo:
            cm |= 1 << (d - 1)
        if any(em & ~cm == 0 for em in ex_masks):
            continue
        for i, d in enumerate(combo):
            allowed[i] |= 1 << (d - 1)
        if allowed == full:
            return ()
    return tuple((c, d) for i, c in enumerate(cells) for d in bits(full[i] & ~allowed[i]))


def _aligned(cg: CandidateGrid, degree: int) -> Iterator[Step]:
    shape = cg.shape
    cands = _candidates(cg, degree)
    if len(cands) < degree:
        return
    order = sorted(cands)
    name, rating = (
        ("Aligned Pair Exclusion", 6.2) if degree == 2 else ("Aligned Triple Exclusion", 7.5)
    )
    seen: set[tuple[int, ...]] = set()
    for a, b in combinations(order, 2):
        if degree == 2:
            sets: list[tuple[int, ...]] = [(a, b)]
        else:
            twin = (cands[a] | cands[b]) & cands.keys()
            twin.discard(a)
            twin.discard(b)
            sets = []
            for tail in combinations(sorted(twin), degree - 2):
                key = tuple(sorted((a, b, *tail)))
                if key not in seen:
                    seen.add(key)
                    sets.append(key)
        for cells in sets:
            common = set(cands[cells[0]])
            for c in cells[1:]:
                common &= cands[c]
            common.difference_update(cells)
            if len(common) < 2:
                continue
            excluders = sorted(common)
            elims = _exclude(cg, cells, excluders)
            if not elims:
                continue
            text = (
                f"{name}: try every combination of candidates of {cell_list(shape, cells)}. "
                f"Each combination that would leave one of {cell_list(shape, excluders, 'or')} "
                f"(which see all of them) with no candidate, or put one digit twice in a unit, "
                f"is impossible. What is left never uses these candidates, so "
                f"{elim_text(shape, elims)}."
            )
            yield Step(
                name,
                rating,
                eliminations=elims,
                text=text,
                cells=(*cells, *excluders),
                highlights=tuple((c, d) for c in excluders for d in bits(cg.masks[c])),
                size=shape.n,
            )


def aligned_pair(cg: CandidateGrid) -> Iterator[Step]:
    """Aligned Pair Exclusion (SE 6.2)."""
    return _aligned(cg, 2)


def aligned_triple(cg: CandidateGrid) -> Iterator[Step]:
    """Aligned Triple Exclusion (SE 7.5)."""
    return _aligned(cg, 3)
