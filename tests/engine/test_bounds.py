"""Every search is bounded by default (an empty 64x64 once had no answer after 590 s):
``budget=None`` in the public API means :func:`sudokit.default_budget` of the shape, 0 means no
bound, and bad bounds are refused with a clear error."""

from __future__ import annotations

import math

import pytest

import sudokit
from sudokit import Shape, Status, default_budget, solver
from sudokit.errors import BudgetExceededError
from support import pigeonhole64, small_default_bound

#: Most guesses any puzzle of ../shared/data needs at limit 2 (fast path 605 on
#: forum_hardest_1905, generic path 2,586 on forum_hardest_1106; measured for this change).
MOST_GUESSES_SEEN = 2_586

#: No solution, and exponential to refute (support.pigeonhole64): a search that would run for
#: ages without a bound.
LONG64 = pigeonhole64()
#: 64x64 searches in the pure-Python reference take minutes even at its smaller bound.
needs_c = pytest.mark.c_only  # 64x64 needs the C core's speed


def test_default_budget_scales_with_the_shape() -> None:
    sizes = [Shape(2, 2), Shape(3, 3), Shape(4, 4), Shape(5, 5), Shape(6, 6), Shape(8, 8)]
    budgets = [default_budget(s) for s in sizes]
    assert budgets == sorted(budgets, reverse=True)
    assert all(isinstance(b, int) and b > 0 for b in budgets)
    if sudokit.BACKEND == "c":
        # No real 9x9 comes anywhere near it, and counting more solutions allows more guesses.
        assert default_budget(Shape(3, 3)) > 1_000 * MOST_GUESSES_SEEN
    assert default_budget(Shape(3, 3), 10**5) > default_budget(Shape(3, 3), 2) + 10**5
    assert default_budget(Shape(3, 3), 10**12) == default_budget(Shape(3, 3), 10**13)


def test_the_long_search_is_a_pigeonhole_with_no_clash() -> None:
    """What makes LONG64 long, checked from the grid itself: no two givens clash, and 33
    cells of row 1 each see all of 33-64 in their column or box (so they share 32 digits)."""
    assert not LONG64.conflicts()
    shape, cells = LONG64.shape, LONG64.cells
    seen = [{cells[j] for u in shape.units if i in u for j in u if cells[j]} for i in range(64)]
    squeezed = [i for i in range(64) if not cells[i] and seen[i] >= set(range(33, 65))]
    assert len(squeezed) == 33


@pytest.mark.slow
@needs_c
def test_a_long_64x64_search_gives_up_at_the_default_bound_and_names_it() -> None:
    """The library's one search to the real default bound (~244,000 guesses on a 64x64; the
    other give-ups of the suite use :func:`support.small_default_bound`)."""
    bound = default_budget(LONG64.shape)
    result = sudokit.solve(LONG64)
    assert result.status is Status.GAVE_UP
    assert not result.complete
    assert result.guesses <= bound + 1
    assert result.error is not None
    assert f"budget {bound}" in result.error


def test_count_solutions_raises_at_the_default_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    small_default_bound(monkeypatch)
    bound = default_budget(LONG64.shape)
    assert bound < 2_000
    with pytest.raises(BudgetExceededError, match=f"budget {bound}"):
        sudokit.count_solutions(LONG64)


@pytest.mark.slow
def test_solve_many_bounds_each_shape_by_its_own_default(monkeypatch: pytest.MonkeyPatch) -> None:
    small_default_bound(monkeypatch)
    nine = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    results = list(sudokit.solve_many([LONG64, nine]))
    assert [r.status for r in results] == [Status.GAVE_UP, Status.UNIQUE]
    assert f"budget {default_budget(LONG64.shape)}" in (results[0].error or "")


def test_an_explicit_budget_is_used_as_given() -> None:
    result = sudokit.solve("." * 81, limit=2_200_000_000, budget=5_000)
    assert result.status is Status.MULTIPLE
    assert result.count >= 2
    with pytest.raises(BudgetExceededError, match="budget 5000"):
        sudokit.count_solutions("." * 81, limit=2_200_000_000, budget=5_000)


@pytest.mark.parametrize(
    ("budget", "exc", "message"),
    [
        (-1, ValueError, "budget must be >= 0"),
        (2**63, ValueError, "at most 2\\*\\*63 - 1"),
        (math.nan, TypeError, "budget must be an int"),
        (1.5, TypeError, "budget must be an int"),
        (True, TypeError, "budget must be an int"),
        ("10", TypeError, "budget must be an int"),
    ],
)
def test_bad_budgets_are_refused(budget: object, exc: type[Exception], message: str) -> None:
    calls = [
        lambda: sudokit.solve("." * 16, budget=budget),  # type: ignore[arg-type]
        lambda: sudokit.count_solutions("." * 16, budget=budget),  # type: ignore[arg-type]
        lambda: sudokit.solve_many(["." * 16], budget=budget),  # type: ignore[arg-type]
        lambda: sudokit.solutions("." * 16, budget=budget),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(exc, match=message):
            call()


def test_limits_beyond_64_bits_are_refused() -> None:
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1"):
        sudokit.count_solutions("." * 16, limit=2**63)
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1"):
        default_budget(Shape(2, 2), 2**63)
    assert sudokit.count_solutions("." * 16, limit=2**63 - 1) == 288


def test_zero_still_means_no_bound() -> None:
    assert sudokit.count_solutions("." * 16, limit=1000, budget=0) == 288
    assert solver.default_budget is sudokit.default_budget
