"""The search engines and the public solving API against the data-first corpus.

Every engine (``engine`` fixture) must reproduce each corpus count exactly, return the one
solution of unique puzzles, and only solutions that ``Grid.is_solution`` accepts; counts must
not change under random isomorphs. The public API is checked on the same cases.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sudokit
from sudokit import _backend, solver
from sudokit.errors import (
    BudgetExceededError,
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
    ParseError,
)
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.solver import (
    SolveResult,
    Status,
    count_solutions,
    is_unique,
    solution,
    solutions,
    solve,
    solve_many,
)
from sudokit.transform import random_transform
from support import CORPUS, ENGINES, Case, read_puzzles
from support.tiers import examples

KEEP = 20  # solutions kept and checked one by one per search


def expected_status(case: Case) -> Status:
    if case.invalid:
        return Status.INVALID
    return {0: Status.NONE, 1: Status.UNIQUE}.get(case.count, Status.MULTIPLE)


# -- the corpus itself -----------------------------------------------------------------------


def test_corpus_covers_the_required_kinds() -> None:
    sizes = {c.shape.n for c in CORPUS}
    assert {1, 4, 6, 8, 9, 12, 16, 25} <= sizes
    variants = {c.shape.variant for c in CORPUS}
    assert {"standard", "x", "jigsaw"} <= variants
    statuses = {expected_status(c) for c in CORPUS}
    assert statuses == {Status.UNIQUE, Status.MULTIPLE, Status.NONE, Status.INVALID}
    assert any(c.shape.box_rows > c.shape.box_cols for c in CORPUS)  # e.g. 3x2, 4x2 boxes
    assert any(c.count == 12 for c in CORPUS)


def test_corpus_solutions_are_solutions(case: Case) -> None:
    if case.count == 1:
        assert case.solution is not None
        assert case.solution.is_solution(case.puzzle)
    else:
        assert case.solution is None


# -- every engine --------------------------------------------------------------------------


def test_engine_counts_exactly(engine: _backend.Engine, case: Case) -> None:
    """Every engine gets the corpus counts (computed offline) and unique solutions exactly."""
    limit = case.count + 1
    found = engine.search(case.shape, case.puzzle.cells, limit, KEEP, 0)
    assert found.complete
    assert found.count == case.count
    assert len(found.solutions) == min(case.count, KEEP)
    assert len(set(found.solutions)) == len(found.solutions)
    for cells in found.solutions:
        assert Grid(cells, case.shape).is_solution(case.puzzle)
    if case.count == 1:
        assert found.solutions[0] == case.solution.cells  # type: ignore[union-attr]
    if case.invalid:
        assert found.count == 0


MULTIPLE = [c for c in CORPUS if c.count >= 2]


@pytest.mark.parametrize("multi", MULTIPLE, ids=[c.id for c in MULTIPLE])
def test_engine_stops_at_the_limit(engine: _backend.Engine, multi: Case) -> None:
    case = multi
    for limit in (1, 2, case.count):
        found = engine.search(case.shape, case.puzzle.cells, limit, limit, 0)
        assert found.count == limit
        assert found.complete
        assert all(Grid(s, case.shape).is_solution(case.puzzle) for s in found.solutions)


def test_engine_batch_matches_single_searches(engine: _backend.Engine) -> None:
    by_shape: dict[Shape, list[Case]] = {}
    for case in CORPUS:
        by_shape.setdefault(case.shape, []).append(case)
    for shape, cases in by_shape.items():
        buffer = b"".join(c.puzzle.cells for c in cases)
        out = engine.search_batch(shape, buffer, 2, 0, 2)
        assert len(out.counts) == len(cases)
        assert len(out.solutions) == len(cases) * shape.ncells
        for j, case in enumerate(cases):
            assert out.complete[j]
            assert out.counts[j] == min(case.count, 2)
            first = out.solutions[j * shape.ncells : (j + 1) * shape.ncells]
            if case.count:
                assert Grid(first, shape).is_solution(case.puzzle)
            else:
                assert first == bytes(shape.ncells)
            if case.count == 1:
                assert case.solution is not None
                assert first == case.solution.cells


def hardest_case(engine: _backend.Engine) -> Case:
    """The unique 9x9 corpus puzzle that needs the most guesses from *engine*."""
    unique = [c for c in CORPUS if c.shape == Shape(3, 3) and c.count == 1]
    return max(unique, key=lambda c: engine.search(c.shape, c.puzzle.cells, 2, 0, 0).guesses)


def test_engine_budget_gives_up(engine: _backend.Engine) -> None:
    hard = hardest_case(engine)
    free = engine.search(hard.shape, hard.puzzle.cells, 2, 0, 0)
    if free.guesses < 2:
        pytest.skip(f"the {engine.name} engine solves this without guessing")
    tight = engine.search(hard.shape, hard.puzzle.cells, 2, 0, 1)
    assert not tight.complete
    assert tight.count <= 1


def test_engine_counts_every_small_grid(engine: _backend.Engine) -> None:
    # Known totals: 288 4x4 Sudoku grids; 2 Latin squares of order 2 (1x2 boxes); 1 of size 1.
    assert engine.search(Shape(2, 2), bytes(16), 1000, 0, 0).count == 288
    assert engine.search(Shape(1, 2), bytes(4), 1000, 0, 0).count == 2
    assert engine.search(Shape(1, 1), bytes(1), 1000, 0, 0).count == 1
    # Latin squares of order 4 (1x4 boxes are rows): 576.
    assert engine.search(Shape(1, 4), bytes(16), 1000, 0, 0).count == 576


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    index=st.integers(0, len(CORPUS) - 1),
    seed=st.integers(0, 2**32 - 1),
)
def test_counts_are_isomorph_invariant(engine: _backend.Engine, index: int, seed: int) -> None:
    case = CORPUS[index]
    if case.shape.n > 16 or case.count > 100:
        return  # kept fast: the big ones are covered by the slow tests
    t = random_transform(case.shape, random.Random(seed), keep_shape=False)
    puzzle = t.apply(case.puzzle)
    found = engine.search(t.target, puzzle.cells, case.count + 1, KEEP, 0)
    assert found.count == case.count
    for cells in found.solutions:
        assert Grid(cells, t.target).is_solution(puzzle)
    if case.count == 1:
        assert case.solution is not None
        assert found.solutions[0] == t.apply(case.solution).cells


SOLVED_SMALL = [c for c in CORPUS if c.solution is not None and 4 <= c.shape.n <= 12]


@pytest.mark.skipif("c" not in ENGINES, reason="needs both engines")
@settings(max_examples=examples(80), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    index=st.integers(0, len(SOLVED_SMALL) - 1),
    fraction=st.floats(0.3, 0.85),
)
def test_engines_agree_on_random_puzzles(seed: int, index: int, fraction: float) -> None:
    """Parity on puzzles carved at random from corpus solutions of every shape and variant
    (9x9 fast path and generic path): same counts, same solution when unique, all valid."""
    rng = random.Random(seed)
    base = SOLVED_SMALL[index]
    assert base.solution is not None
    t = random_transform(base.shape, rng)
    full = t.apply(base.solution)
    cells = bytearray(full.cells)
    for i in rng.sample(range(full.shape.ncells), int(fraction * full.shape.ncells)):
        cells[i] = 0
    puzzle = Grid(bytes(cells), full.shape)
    ref = _backend.get_engine("python").search(full.shape, puzzle.cells, 3, 3, 0)
    fast = _backend.get_engine("c").search(full.shape, puzzle.cells, 3, 3, 0)
    assert ref.count == fast.count
    assert ref.count >= 1  # carved from a solution
    if ref.count == 1:
        assert ref.solutions == fast.solutions
    for s in (*ref.solutions, *fast.solutions):
        assert Grid(s, full.shape).is_solution(puzzle)


# -- the public API ------------------------------------------------------------------------


def test_solve(case: Case) -> None:
    r = solve(case.puzzle, limit=max(2, min(case.count + 1, 50)))
    assert isinstance(r, SolveResult)
    assert r.puzzle == case.puzzle
    assert r.status is expected_status(case)
    assert r.complete
    if r.status is Status.INVALID:
        assert r.error is not None
        assert r.error.startswith("conflicting givens")
        assert r.solution is None
        assert r.count == 0
    elif r.status is Status.NONE:
        assert r.solution is None
        assert r.count == 0
        assert r.error is None
    elif r.status is Status.UNIQUE:
        assert r.solution == case.solution
        assert r.count == 1
        assert r.is_unique
    else:
        assert r.count == min(case.count, 50)
        assert r.solution is not None
        assert r.solution.is_solution(case.puzzle)


def test_solution_and_its_errors(case: Case) -> None:
    status = expected_status(case)
    if status is Status.UNIQUE:
        assert solution(case.puzzle) == case.solution
        return
    error = {
        Status.INVALID: InvalidPuzzleError,
        Status.NONE: NoSolutionError,
        Status.MULTIPLE: MultipleSolutionsError,
    }[status]
    with pytest.raises(error) as info:
        solution(case.puzzle)
    if status is Status.INVALID:
        assert isinstance(info.value, InvalidPuzzleError)
        named = {i for c in case.puzzle.conflicts() for i in c.cells}
        assert set(info.value.cells) == named
        if len(case.puzzle.conflicts()) <= 3:  # longer lists are cut short in the message
            assert all(case.shape.cell_name(i) in str(info.value) for i in named)


def test_conflict_messages_stay_one_short_line() -> None:
    with pytest.raises(InvalidPuzzleError) as info:
        solution("1" * 81)
    assert len(info.value.cells) == 81
    assert str(info.value).endswith("and 24 more")
    assert "\n" not in str(info.value)


def test_count_solutions_and_is_unique(case: Case) -> None:
    assert count_solutions(case.puzzle, limit=case.count + 1) == case.count
    assert count_solutions(case.puzzle) == min(case.count, 2)
    assert is_unique(case.puzzle) is (case.count == 1)


def test_solutions(case: Case) -> None:
    found = list(solutions(case.puzzle, limit=case.count + 5))
    assert len(found) == case.count
    assert len(set(found)) == case.count
    assert all(s.is_solution(case.puzzle) for s in found)
    assert len(list(solutions(case.puzzle, limit=1))) == min(case.count, 1)


def test_text_input_and_shape() -> None:
    x = next(c for c in CORPUS if c.shape.variant == "x" and c.count == 1)
    text = str(x.puzzle)
    assert solve(text, shape=x.shape).solution == x.solution
    # Without the shape the same text is a plain 9x9 with more solutions.
    assert solve(text).puzzle.shape == Shape.from_size(x.shape.n)  # type: ignore[union-attr]
    with pytest.raises(ParseError):
        solve("12x")
    with pytest.raises(ValueError, match="shape"):
        solve(x.puzzle, shape=Shape(3, 3))
    with pytest.raises(TypeError):
        solve(123)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [{"limit": -1}, {"limit": 0}, {"budget": -1}])
def test_bad_arguments(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="must be >="):
        solve("." * 16, **bad)
    with pytest.raises(ValueError, match="must be >="):
        list(solve_many(["." * 16], **bad))


def test_budget_in_the_api() -> None:
    hard = hardest_case(_backend.engine())
    free = solve(hard.puzzle)
    if free.guesses < 2:
        pytest.skip("the engine solves this without guessing")
    r = solve(hard.puzzle, budget=1)
    assert r.status is Status.GAVE_UP
    assert not r.complete
    assert r.error
    with pytest.raises(BudgetExceededError):
        solution(hard.puzzle, budget=1)
    with pytest.raises(BudgetExceededError):
        count_solutions(hard.puzzle, budget=1)
    with pytest.raises(BudgetExceededError):
        list(solutions(hard.puzzle, budget=1))
    # A budget the search fits in changes nothing.
    assert solve(hard.puzzle, budget=free.guesses + 100).status is Status.UNIQUE


def test_solve_many_matches_solve_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "CHUNK", 3)  # several chunks, shapes mixed inside them
    cases = [c for c in CORPUS if c.shape.n <= 16]
    puzzles: list[Grid | str] = [c.puzzle for c in cases]
    results = list(solve_many(puzzles, jobs=2))
    assert len(results) == len(cases)
    for case, r in zip(cases, results, strict=True):
        single = solve(case.puzzle)
        assert r.puzzle == case.puzzle
        assert r.status is single.status
        assert r.count == single.count
        if r.status is Status.UNIQUE:
            assert r.solution == case.solution
        elif r.status is Status.MULTIPLE:
            assert r.solution is not None
            assert r.solution.is_solution(case.puzzle)
        else:
            assert r.solution is None


def test_solve_many_reports_bad_lines_and_continues() -> None:
    good = next(c for c in CORPUS if c.shape == Shape(3, 3) and c.count == 1)
    lines = [
        str(good.puzzle) + "\n",
        "",
        "12x" + "." * 13,
        "1" * 81,
        "  " + str(good.puzzle),
        "9" * 82,
    ]
    results = list(solve_many(lines, jobs=0))
    assert [r.status for r in results] == [
        Status.UNIQUE,
        Status.INVALID,
        Status.INVALID,
        Status.INVALID,
        Status.UNIQUE,
        Status.INVALID,
    ]
    assert results[1].puzzle is None
    assert results[1].error
    assert results[2].puzzle is None
    assert "unexpected character" in (results[2].error or "")
    assert results[3].puzzle is not None
    assert (results[3].error or "").startswith("conflicting")
    assert results[4].solution == good.solution
    [odd] = solve_many([3])  # type: ignore[list-item]
    assert odd.status is Status.INVALID
    assert odd.error == "expected a Grid, text or cell values (rows, a list, an array), got int"


def test_solve_many_is_lazy() -> None:
    seen: list[int] = []

    def source() -> object:
        for k in range(10**9):
            seen.append(k)
            yield "." * 16

    it = solve_many(source(), jobs=1)  # type: ignore[arg-type]
    first = next(it)
    assert first.status is Status.MULTIPLE
    assert len(seen) <= solver.CHUNK + 1


def test_solve_many_with_shape() -> None:
    jig = next(c for c in CORPUS if c.shape.variant == "jigsaw" and c.count == 1)
    [r] = solve_many([str(jig.puzzle)], shape=jig.shape)
    assert r.solution == jig.solution


def test_public_names() -> None:
    for name in solver.__all__:
        assert getattr(sudokit, name) is getattr(solver, name)
    assert Status("gave-up") is Status.GAVE_UP
    assert str(Status.UNIQUE) == "unique"


# -- the benchmark sets (slow, bounded) ------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "limit"), [("easy50.txt", 50), ("top95.txt", 95), ("hardest.txt", 11)]
)
def test_benchmark_sets_solve_uniquely(name: str, limit: int) -> None:
    lines = read_puzzles(name, limit)
    for text, r in zip(lines, solve_many(lines, jobs=0), strict=True):
        assert r.status is Status.UNIQUE, text
        assert r.solution is not None
        assert r.solution.is_solution(r.puzzle)


@pytest.mark.slow
def test_serg_puzzles_are_multiple() -> None:
    lines = read_puzzles("serg.txt", 100)
    for r in solve_many(lines, jobs=0):
        assert r.status is Status.MULTIPLE
        assert r.solution is not None
        assert r.solution.is_solution(r.puzzle)


@pytest.mark.slow
@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_big_isomorphs(seed: int) -> None:
    rng = random.Random(seed)
    for case in CORPUS:
        if case.shape.n >= 16 and case.count == 1:
            t = random_transform(case.shape, rng)
            assert solution(t.apply(case.puzzle)) == t.apply(case.solution)  # type: ignore[arg-type]
