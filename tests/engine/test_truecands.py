"""True candidates (:mod:`sudokit.truecands`) on both engines, against brute force.

Small random puzzles (4x4 and 6x6, classic and with variant rules: killer cages, anti-knight,
non-consecutive) have few enough solutions to enumerate with one search that keeps them all;
the union of their digits per cell is the exact answer, and :func:`settle` must give it, with
the status the count implies. A bound too small never claims a false candidate true nor a true
one false: what it cannot settle is in ``unknown``, and ``complete`` says so.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sudokit
from sudokit import _backend
from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.solver import Status
from sudokit.truecands import TrueCandidates, settle, true_candidates
from support.tiers import examples

#: Puzzles with this many solutions or more are not enumerated (drawn again).
ENUMERATE = 3000
SHAPES = (Shape(2, 2), Shape(2, 3))
RULES = ("none", "killer", "antiknight", "nonconsecutive")
#: The engine fixture is the same for every example (engines keep no state between calls).
FIXTURE = HealthCheck.function_scoped_fixture


def _cages(solution: bytes, shape: Shape, rng: random.Random) -> list[Cage]:
    """Cages of 1-3 orthogonally connected cells covering part of *solution*'s grid, with
    their sums (or none) read from it."""
    n = shape.n
    free = set(range(shape.ncells))
    cages = []
    while free and len(cages) < shape.ncells // 2:
        cell = rng.choice(sorted(free))
        cells = [cell]
        free.discard(cell)
        for _ in range(rng.randrange(3)):
            r, c = divmod(cells[-1], n)
            near = [
                rr * n + cc
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                if 0 <= rr < n and 0 <= cc < n and rr * n + cc in free
            ]
            if not near:
                break
            cells.append(rng.choice(near))
            free.discard(cells[-1])
        digits = [solution[i] for i in cells]
        if len(set(digits)) == len(digits):  # a cage holds distinct digits
            total = sum(digits) if rng.random() < 0.8 else None
            cages.append(Cage(cells, total))
    return cages


def _puzzle(seed: int, eng: _backend.Engine) -> Grid:
    """A random small puzzle: a shape, maybe a variant rule, and givens from a solution of it
    (sometimes one wrong digit too, so that some have no solution or conflicting givens)."""
    rng = random.Random(seed)
    base = rng.choice(SHAPES)
    rule = rng.choice(RULES)
    rules = None
    if rule in ("antiknight", "nonconsecutive"):
        rules = Constraints(**{rule: True})
    shape = Shape(base.box_rows, base.box_cols, constraints=rules)
    empty = bytes(shape.ncells)
    found = eng.search(shape, empty, 1, 1, 0).solutions
    solution = found[0] if found else bytes(rng.randint(1, shape.n) for _ in empty)
    if rule == "killer":
        shape = Shape(
            base.box_rows, base.box_cols, constraints=Constraints(cages=_cages(solution, base, rng))
        )
    keep = rng.uniform(0.0, 0.45)
    cells = bytearray(v if rng.random() < keep else 0 for v in solution)
    if rng.random() < 0.15:
        cells[rng.randrange(shape.ncells)] = rng.randint(1, shape.n)
    return Grid(bytes(cells), shape)


def _union(grid: Grid, eng: _backend.Engine) -> tuple[tuple[int, ...], int] | None:
    """The digits of every solution of *grid* per cell and the number of solutions, by
    enumeration; None when there are too many to enumerate."""
    if grid.conflicts():
        return (0,) * grid.shape.ncells, 0
    found = eng.search(grid.shape, grid.cells, ENUMERATE, ENUMERATE, 0)
    assert found.complete
    if found.count >= ENUMERATE:
        return None
    masks = [0] * grid.shape.ncells
    for solution in found.solutions:
        for i, v in enumerate(solution):
            masks[i] |= 1 << (v - 1)
    return tuple(masks), found.count


def _expected_status(grid: Grid, count: int) -> Status:
    if grid.conflicts():
        return Status.INVALID
    return {0: Status.NONE, 1: Status.UNIQUE}.get(count, Status.MULTIPLE)


def _draw(seed: int, eng: _backend.Engine) -> tuple[Grid, tuple[int, ...], int]:
    """A random puzzle with few enough solutions to enumerate, its union and its count."""
    for k in range(50):
        grid = _puzzle(seed * 64 + k, eng)
        found = _union(grid, eng)
        if found is not None:
            return grid, *found
    raise AssertionError(f"no enumerable puzzle drawn from seed {seed}")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[FIXTURE])
@given(seed=st.integers(0, 2**32))
def test_true_candidates_are_the_union_of_all_solutions(engine: _backend.Engine, seed: int) -> None:
    grid, union, count = _draw(seed, engine)
    found = settle(engine, grid, 0)
    assert found.complete
    assert found.error is None or found.status is Status.INVALID
    assert found.masks == union
    assert found.unknown == (0,) * grid.shape.ncells
    assert found.status is _expected_status(grid, count)
    assert found.solutions <= count


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[FIXTURE])
@given(seed=st.integers(0, 2**32), budget=st.integers(1, 60))
def test_a_small_bound_never_claims_a_false_candidate(
    engine: _backend.Engine, seed: int, budget: int
) -> None:
    grid, union, _ = _draw(seed, engine)
    found = settle(engine, grid, budget)
    for proven, open_, true in zip(found.masks, found.unknown, union, strict=True):
        assert proven & ~true == 0  # nothing proven true is false
        assert true & ~(proven | open_) == 0  # nothing true is left out as false
        assert proven & open_ == 0
    if found.complete:
        assert found.masks == union
        assert not any(found.unknown)
    else:
        assert any(found.unknown), "an incomplete answer names what it did not settle"
        assert found.error is not None
        assert "undecided" in found.error
        assert found.status in (Status.GAVE_UP, Status.SOLVED, Status.MULTIPLE)


def test_an_empty_grid_needs_few_searches(engine: _backend.Engine) -> None:
    """Every candidate of an empty grid is true; placing several open candidates in one
    search settles them far sooner than one search a candidate (729 for 9x9)."""
    found = settle(engine, Grid.empty(Shape(3, 3)), 0)
    assert found.complete
    assert found.status is Status.MULTIPLE
    assert found.masks == (511,) * 81
    assert found.searches < 120


def test_the_bound_runs_out_honestly(engine: _backend.Engine) -> None:
    empty = Grid.empty(Shape(3, 3))
    found = settle(engine, empty, 1)
    assert not found.complete
    assert found.status is Status.GAVE_UP
    assert found.masks == (0,) * 81
    assert found.unknown == (511,) * 81
    assert found.is_true(0, 5) is None
    assert found.error is not None
    assert found.error.endswith("729 candidates undecided")
    some = settle(engine, empty, 400)  # solutions found, not every candidate settled
    assert not some.complete
    assert any(some.masks)
    assert any(some.unknown)
    assert some.status in (Status.SOLVED, Status.MULTIPLE)


def test_the_bound_is_shared_by_the_whole_call(engine: _backend.Engine) -> None:
    """Each search counts at least one guess, so the bound caps the number of searches too
    (an engine may overrun a search's share by a few guesses: the Python reference does)."""
    for budget in (1, 10, 100, 1000):
        found = settle(engine, Grid.empty(Shape(2, 3)), budget)
        assert found.searches <= budget
        assert found.guesses <= budget + 8 * found.searches


def test_no_solution_and_conflicting_givens(engine: _backend.Engine) -> None:
    none = settle(engine, Grid.parse("......34...23..."), 0)
    assert none.status is Status.NONE
    assert none.complete
    assert none.solutions == 0
    assert none.masks == none.unknown == (0,) * 16
    assert none.to_candidates().digits(0) == ()
    bad = settle(engine, Grid.parse("1..1" + "." * 12), 0)
    assert bad.status is Status.INVALID
    assert bad.solutions == 0
    assert bad.masks == bad.unknown == (0,) * 16
    assert bad.error == "conflicting givens: 1 twice in row 1 (r1c1, r1c4)"


def test_every_rule_counts() -> None:
    """The same givens with a killer cage: the cage's sum takes digits away."""
    plain = true_candidates("." * 16)
    cage = Constraints(cages=[Cage([0, 1], 3)])
    caged = true_candidates(Grid(bytes(16), Shape(2, 2, constraints=cage)))
    assert plain.digits(0) == (1, 2, 3, 4)
    assert caged.digits(0) == caged.digits(1) == (1, 2)
    assert 1 not in caged.digits(2)
    assert 2 not in caged.digits(2)


def test_the_record_is_a_frozen_value_and_its_json() -> None:
    found = sudokit.true_candidates("..34..1...4..3.1")
    assert isinstance(found, TrueCandidates)
    again = settle(_backend.get_engine("python"), found.puzzle, 0)
    assert found == again  # diagnostics are not compared
    assert hash(found) == hash(again)
    with pytest.raises(AttributeError):
        found.complete = False  # type: ignore[misc]
    data = found.to_json()
    assert data["cells"] == [list(found.digits(i)) for i in range(16)]
    assert data["status"] == "multiple"
    assert data["complete"] is True
    assert "error" not in data
    cut = true_candidates("." * 16, budget=1).to_json()
    assert cut["complete"] is False
    assert cut["unknown"][0] == {
        "cell": [1, 1],
        "digits": [1, 2, 3, 4],
    }
    assert cut["error"]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="budget must be >= 0"):
        true_candidates("." * 16, budget=-1)
    with pytest.raises(sudokit.ParseError):
        true_candidates("12")
