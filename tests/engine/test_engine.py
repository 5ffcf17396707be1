"""The parity contract of the search engines: the C core against the pure-Python reference.

Same cells and limit give the same count; a count of 1 gives the same solution; every kept
solution is valid (checked independently with ``Grid.is_solution``). Guess counts are
diagnostics, not parity; budgets are checked as bounds. The C core has two paths for standard
9x9 grids (the fast path and the generic one, forced with ``CEngine(generic=True)``), and
both are held to the same contract.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudokit import _backend
from sudokit.grid import Grid
from sudokit.shape import Shape
from support import Case, read_puzzles, require_c_backend
from support.tiers import examples

REFERENCE = _backend.get_engine("python")
# Hypothesis examples per property (the sanitizer run lowers it: ASan is slower).
EXAMPLES = int(os.environ.get("SUDOKIT_ENGINE_EXAMPLES", "150"))


@pytest.fixture
def c_engines() -> list[_backend.Engine]:
    """The C core with its default dispatch and with the generic path forced."""
    require_c_backend()
    from sudokit._cengine import CEngine

    return [CEngine(), CEngine(generic=True)]


def check_outcome(
    shape: Shape,
    cells: bytes,
    found: _backend.SearchOutcome,
    *,
    limit: int,
    keep: int,
    truth: _backend.SearchOutcome,
) -> None:
    """*found* agrees with *truth* (an unbounded reference search) under the parity contract."""
    puzzle = Grid(cells, shape)
    assert truth.complete
    if found.complete:
        assert found.count == truth.count
    else:
        assert found.count <= truth.count
    assert found.count <= limit
    assert len(found.solutions) == min(found.count, keep)
    assert len(set(found.solutions)) == len(found.solutions)
    for sol in found.solutions:
        assert Grid(sol, shape).is_solution(puzzle)
    if found.complete and found.count == 1 and limit > 1 and keep:
        # Exactly one solution (a count of 1 under limit 1 proves nothing about uniqueness).
        assert found.solutions == truth.solutions[:1]


# -- the corpus --------------------------------------------------------------------------------


def test_corpus_both_c_paths(c_engines: list[_backend.Engine], case: Case) -> None:
    """The fast 9x9 path and the generic path agree with the corpus, with keep 0, 1 and 3."""
    for eng in c_engines:
        for keep in (0, 1, 3):
            found = eng.search(case.shape, case.puzzle.cells, case.count + 1, keep, 0)
            assert (found.count, found.complete) == (case.count, True)
            assert len(found.solutions) == min(keep, case.count)
            for sol in found.solutions:
                assert Grid(sol, case.shape).is_solution(case.puzzle)


def test_corpus_limit_one(c_engines: list[_backend.Engine], case: Case) -> None:
    """limit=1 stops at the first solution: count is min(1, truth)."""
    for eng in c_engines:
        found = eng.search(case.shape, case.puzzle.cells, 1, 1, 0)
        assert found.count == min(1, case.count)
        assert found.complete


def test_batch_matches_per_call(c_engines: list[_backend.Engine]) -> None:
    """The batch entry point gives, per puzzle, what the per-call one gives (1 and 2 threads)."""
    from support import CORPUS

    by_shape: dict[Shape, list[Case]] = {}
    for case in CORPUS:
        by_shape.setdefault(case.shape, []).append(case)
    for eng in c_engines:
        for shape, cases in by_shape.items():
            cases = cases * 3  # enough puzzles for several threads' grains
            buf = b"".join(c.puzzle.cells for c in cases)
            for threads in (1, 2, 0):
                out = eng.search_batch(shape, buf, 2, 0, threads)
                assert len(out.counts) == len(out.guesses) == len(out.complete) == len(cases)
                assert len(out.solutions) == len(buf)
                for i, case in enumerate(cases):
                    assert out.counts[i] == min(case.count, 2)
                    assert out.complete[i]
                    first = out.solutions[i * shape.ncells : (i + 1) * shape.ncells]
                    if case.count == 0:
                        assert first == bytes(shape.ncells)
                    else:
                        assert Grid(first, shape).is_solution(case.puzzle)
                    if case.solution is not None:
                        assert first == case.solution.cells


def test_batch_empty(c_engines: list[_backend.Engine]) -> None:
    for eng in c_engines:
        out = eng.search_batch(Shape(3, 3), b"", 2, 0, 2)
        assert (out.counts, out.solutions, out.guesses, out.complete) == ((), b"", (), ())


# -- 9x9 benchmark sets: both C paths against each other, checked independently -------------


@pytest.mark.parametrize(
    "name", ["top95.txt", "hardest.txt", "forum_hardest_1106.txt", "serg.txt", "17clue_49158.txt"]
)
def test_benchmark_sets_both_paths(c_engines: list[_backend.Engine], name: str) -> None:
    """Random isomorphs of benchmark puzzles: the two C paths agree and every solution checks."""
    lines = read_puzzles(name, 60)
    rng = random.Random(name)
    shape = Shape(3, 3)
    fast, generic = c_engines
    puzzles = [random_isomorph(Grid.parse(line).cells, rng) for line in lines]
    batch = generic.search_batch(shape, b"".join(puzzles), 2, 0, 2)
    for i, cells in enumerate(puzzles):
        a = fast.search(shape, cells, 2, 1, 0)
        b = generic.search(shape, cells, 2, 1, 0)
        assert a.complete
        assert b.complete
        assert a.count == b.count == batch.counts[i]
        expected = 2 if name == "serg.txt" else 1
        assert a.count == expected
        assert Grid(a.solutions[0], shape).is_solution(Grid(cells, shape))
        if a.count == 1:
            assert a.solutions == b.solutions


def random_isomorph(cells: bytes, rng: random.Random) -> bytes:
    """A validity-preserving random transform of a 9x9 grid (relabel, band/row/stack/col perms,
    transpose). Written out here so the test does not depend on the transform module."""
    digits = list(range(1, 10))
    rng.shuffle(digits)
    relabel = [0, *digits]

    def order() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [b * 3 + r for b in bands for r in rng.sample(range(3), 3)]

    rows, cols = order(), order()
    transpose = rng.random() < 0.5
    out = bytearray(81)
    for r in range(9):
        for c in range(9):
            v = cells[rows[r] * 9 + cols[c]]
            out[(c * 9 + r) if transpose else (r * 9 + c)] = relabel[v]
    return bytes(out)


# -- property-based: every shape, every kind of puzzle ----------------------------------------


@st.composite
def shapes(draw: st.DrawFn) -> Shape:
    """Standard shapes up to 9x9 (rectangular boxes included), Sudoku-X and random jigsaws."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(1, 3))
    n = rows * cols
    diagonals = n >= 4 and draw(st.booleans())
    if n >= 4 and draw(st.integers(0, 3)) == 0:
        # Any region map with n cells per region is a shape; many have no solution at all.
        regions = [i // n for i in range(n * n)]
        draw(st.randoms(use_true_random=False)).shuffle(regions)
        return Shape(rows, cols, diagonals=diagonals, regions=regions)
    return Shape(rows, cols, diagonals=diagonals)


@st.composite
def puzzles(draw: st.DrawFn) -> tuple[Shape, bytes]:
    """A puzzle of some shape: blanks punched in a solution (solvable, often multi-solution),
    maybe with one given changed (often unsolvable or conflicting), or random givens."""
    shape = draw(shapes())
    n, ncells = shape.n, shape.ncells
    rnd = draw(st.randoms(use_true_random=False))
    seed = bytearray(ncells)
    for cell in rnd.sample(range(ncells), min(ncells, draw(st.integers(0, n)))):
        seed[cell] = rnd.randint(1, n)
    kind = draw(st.sampled_from(["punched", "changed", "random"]))
    if kind == "random":
        return shape, bytes(seed)
    base = REFERENCE.search(shape, bytes(seed), 1, 1, 2000)
    if not base.solutions:
        return shape, bytes(seed)
    cells = bytearray(base.solutions[0])
    keep_fraction = draw(st.floats(0.0, 0.8))
    for cell in range(ncells):
        if rnd.random() > keep_fraction:
            cells[cell] = 0
    if kind == "changed":
        cell = rnd.randrange(ncells)
        cells[cell] = rnd.randint(1, n)
    return shape, bytes(cells)


@settings(
    max_examples=examples(EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(puzzles(), st.integers(1, 6), st.integers(0, 4))
def test_parity_with_reference(puzzle: tuple[Shape, bytes], limit: int, keep: int) -> None:
    """C == reference on hypothesis puzzles of every shape, for both C paths."""
    from support import C_ERROR

    if C_ERROR is not None:
        require_c_backend()
    from sudokit._cengine import CEngine

    shape, cells = puzzle
    truth = REFERENCE.search(shape, cells, limit, max(keep, 1), 20000)
    assume(truth.complete)  # the oracle itself must have finished
    for eng in (CEngine(), CEngine(generic=True)):
        found = eng.search(shape, cells, limit, keep, 0)
        assert found.complete
        check_outcome(shape, cells, found, limit=limit, keep=keep, truth=truth)
        if Grid(cells, shape).conflicts():
            assert found.count == 0


@pytest.mark.slow
@settings(
    max_examples=examples(max(EXAMPLES // 2, 10)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(puzzles(), st.integers(1, 12), st.integers(1, 30))
def test_budget_bounds_the_search(puzzle: tuple[Shape, bytes], limit: int, budget: int) -> None:
    """A budget never lets the guesses exceed it; a complete answer under budget is exact."""
    from support import C_ERROR

    if C_ERROR is not None:
        require_c_backend()
    from sudokit._cengine import CEngine

    shape, cells = puzzle
    truth = REFERENCE.search(shape, cells, limit, 1, 20000)
    assume(truth.complete)
    for eng in (CEngine(), CEngine(generic=True)):
        found = eng.search(shape, cells, limit, 1, budget)
        assert found.guesses <= budget
        check_outcome(shape, cells, found, limit=limit, keep=1, truth=truth)
        batch = eng.search_batch(shape, cells * 3, limit, budget, 2)
        assert batch.counts == (found.count,) * 3
        assert batch.complete == (found.complete,) * 3


def test_budget_gives_up_explicitly(c_engines: list[_backend.Engine]) -> None:
    """An empty 16x16 grid has astronomically many solutions: counting them to a large limit
    with a budget of 5 guesses must stop and say so."""
    shape = Shape(4, 4)
    for eng in c_engines:
        found = eng.search(shape, bytes(shape.ncells), 10**6, 0, 5)
        assert not found.complete
        assert found.guesses == 5
        assert found.count < 10**6


@pytest.mark.parametrize(
    ("shape", "count"),
    [
        (Shape(1, 1), 1),
        (Shape(1, 2), 2),
        (Shape(1, 3), 12),  # 3x3 Latin squares (no boxes beyond rows)
        (Shape(2, 2), 288),
        (Shape(2, 2, diagonals=True), 48),
    ],
)
def test_exhaustive_counts_of_empty_grids(
    c_engines: list[_backend.Engine], shape: Shape, count: int
) -> None:
    """Full enumeration of small empty grids agrees with the reference (and known counts)."""
    truth = REFERENCE.search(shape, bytes(shape.ncells), 10**6, 0, 0)
    assert truth.count == count
    for eng in c_engines:
        found = eng.search(shape, bytes(shape.ncells), 10**6, count + 5, 0)
        assert (found.count, found.complete) == (count, True)
        assert len(set(found.solutions)) == count
        assert all(Grid(s, shape).is_solution() for s in found.solutions)


@pytest.mark.parametrize("size", [16, 25, 36, 49])
def test_large_empty_and_sparse_grids(c_engines: list[_backend.Engine], size: int) -> None:
    """The generic path fills large empty grids and solves punched ones (no recursion limits)."""
    shape = Shape.from_size(size)
    eng = c_engines[0]
    first = eng.search(shape, bytes(shape.ncells), 1, 1, 200_000)
    assert first.complete
    assert first.count == 1
    full = Grid(first.solutions[0], shape)
    assert full.is_solution()
    rng = random.Random(size)
    cells = bytearray(full.cells)
    # Half blank is easy at 16x16 and 25x25; beyond, it is the thrashing region (see
    # sk_solver.c), so fewer blanks.
    blanks = shape.ncells // 2 if size <= 25 else shape.ncells // 5
    for cell in rng.sample(range(shape.ncells), blanks):
        cells[cell] = 0
    found = eng.search(shape, bytes(cells), 2, 1, 200_000)
    assert found.complete
    assert found.count >= 1
    assert Grid(found.solutions[0], shape).is_solution(Grid(bytes(cells), shape))
