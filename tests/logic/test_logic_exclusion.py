"""Aligned Pair / Triple Exclusion: the fast finders against a plain reference.

The reference below is the straightforward reading of SE 1.2.1's rule (try every combination
of the base cells' candidates with ``itertools.product``), in the same enumeration order and
with the same texts. The finders in :mod:`sudokit.logic.exclusion` prune and memoize; they
must yield exactly the same steps on every candidate state: states met on the rating paths of
shipped puzzles, and the same states with random candidates removed (so that the techniques
fire often, also in grids where the pruning short-cuts would matter).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations, product

import pytest

import support
from sudokit.grid import Grid
from sudokit.logic import exclusion
from sudokit.logic.candidates import CandidateGrid, bits
from sudokit.logic.path import find_step
from sudokit.logic.step import Step
from sudokit.shape import Shape
from support.states import thinned

DATA = support.DATA / "logic_puzzles.txt"


# -- the reference -----------------------------------------------------------------------------


def _ref_candidates(cg: CandidateGrid, degree: int) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for cell, m in enumerate(cg.masks):
        if m.bit_count() < 2:
            continue
        counts = [cg.masks[p].bit_count() for p in cg.shape.peers[cell]]
        if 1 in counts:
            continue
        excl = {p for p, k in zip(cg.shape.peers[cell], counts, strict=True) if 2 <= k <= degree}
        if excl:
            out[cell] = excl
    return out


def _ref_exclude(
    cg: CandidateGrid, cells: tuple[int, ...], excluders: list[int]
) -> tuple[tuple[int, int], ...]:
    peers = cg.shape.peers
    allowed = [0] * len(cells)
    for combo in product(*(bits(cg.masks[c]) for c in cells)):
        if any(
            combo[i] == combo[j] and cells[j] in peers[cells[i]]
            for i, j in combinations(range(len(cells)), 2)
        ):
            continue
        cm = sum({1 << (d - 1) for d in combo})
        if any(cg.masks[e] & ~cm == 0 for e in excluders):
            continue
        for i, d in enumerate(combo):
            allowed[i] |= 1 << (d - 1)
    return tuple((c, d) for i, c in enumerate(cells) for d in bits(cg.masks[c] & ~allowed[i]))


def _reference(cg: CandidateGrid, degree: int) -> Iterator[Step]:
    """The steps of the straightforward search (built by the module's own step maker)."""
    cands = _ref_candidates(cg, degree)
    seen: set[tuple[int, ...]] = set()
    for a, b in combinations(sorted(cands), 2):
        sets: list[tuple[int, ...]] = []
        if degree == 2:
            sets = [(a, b)]
        else:
            for c in sorted(((cands[a] | cands[b]) & cands.keys()) - {a, b}):
                key = tuple(sorted((a, b, c)))
                if key not in seen:
                    seen.add(key)
                    sets.append(key)
        for cells in sets:
            common = set.intersection(*(cands[c] for c in cells)) - set(cells)
            if len(common) < 2:
                continue
            excluders = sorted(common)
            elims = _ref_exclude(cg, cells, excluders)
            if not elims:
                continue
            yield exclusion._exclusion_step(cg, cells, excluders, elims)


# -- candidate states --------------------------------------------------------------------------


def _puzzles() -> list[str]:
    return [ln.split()[0] for ln in DATA.read_text().splitlines() if ln and ln[0] != "#"]


def _path_states(puzzle: str, want: int, max_steps: int = 120) -> list[CandidateGrid]:
    """The first *want* states before a step of the easiest-first path rated 6.2 or more."""
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    out = []
    for _ in range(max_steps):
        if cg.is_solved or cg.is_broken() or len(out) >= want:
            break
        found = find_step(cg, unique=True)
        if found is None or found[1].rating >= 6.2:
            out.append(cg.copy())
        if found is None:
            break
        cg.apply(found[0])
    return out


@pytest.fixture(scope="module")
def states() -> list[CandidateGrid]:
    rng = random.Random(5)
    out: list[CandidateGrid] = []
    for puzzle in _puzzles():
        if len(out) >= 24:
            break
        out.extend(_path_states(puzzle, 3))
    out = out[:24]
    return out + [thinned(cg, rng, share) for cg in out for share in (0.2, 0.4)]


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_states_exercise_the_finders(states: list[CandidateGrid]) -> None:
    # the comparison below is only worth something if the techniques fire on many states
    assert len(states) >= 60
    assert sum(bool(list(exclusion.aligned_pair(cg))) for cg in states) >= 10
    assert sum(bool(list(exclusion.aligned_triple(cg))) for cg in states) >= 10


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.slow
@pytest.mark.parametrize("degree", [2, 3])
def test_same_steps_as_the_reference(states: list[CandidateGrid], degree: int) -> None:
    finder = exclusion.aligned_pair if degree == 2 else exclusion.aligned_triple
    name, rating = (
        ("Aligned Pair Exclusion", 6.2) if degree == 2 else ("Aligned Triple Exclusion", 7.5)
    )
    for cg in states:
        before = cg.masks[:]
        steps = list(finder(cg))
        assert steps == list(_reference(cg, degree))
        assert all(
            (s.technique, s.rating, len(s.cells) > degree) == (name, rating, True) for s in steps
        )
        assert list(finder(cg)) == list(_reference(cg, degree))  # again, from the memo
        assert cg.masks == before


def test_exclude_matches_brute_force_on_random_sets() -> None:
    """Every mix of seeing / not seeing base cells, on 9x9 and 6x6."""
    rng = random.Random(7)
    for shape in (Shape(3, 3), Shape(2, 3)):
        n = shape.n
        for _ in range(400):
            k = rng.choice((2, 3))
            cells = tuple(sorted(rng.sample(range(shape.ncells), k + 4)))
            base, excl = cells[:k], list(cells[k:])
            masks = [0] * shape.ncells
            for c in base:
                masks[c] = rng.randrange(1, 1 << n) | 1 << rng.randrange(n)
                while masks[c].bit_count() < 2:
                    masks[c] |= 1 << rng.randrange(n)
            for e in excl:
                digits = rng.sample(range(n), rng.choice((2, k)))
                masks[e] = sum(1 << d for d in digits)
            cg = CandidateGrid(shape, [0] * shape.ncells, masks)
            assert exclusion._exclude(cg, base, excl) == _ref_exclude(cg, base, excl)


def test_triple_removal_needs_no_excluder_only_with_twins() -> None:
    # r1c2 and r1c3 hold {1,2} and see r1c1: 1 and 2 leave r1c1 through the base cells alone
    shape = Shape(3, 3)
    masks = [0b111111111] * 81
    masks[0], masks[1], masks[2] = 0b111, 0b011, 0b011
    cg = CandidateGrid(shape, [0] * 81, masks)
    assert exclusion._exclude(cg, (0, 1, 2), []) == ((0, 1), (0, 2))
    assert _ref_exclude(cg, (0, 1, 2), []) == ((0, 1), (0, 2))
