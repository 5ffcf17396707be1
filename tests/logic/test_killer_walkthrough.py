"""Killer walkthroughs (logic/walkthrough.py) and the two-cage killer steps (logic/killer.py).

The walkthrough replays: on the killers of ``tests/data/killers9.txt`` (each with its recorded
solution, checked unique by the C core when the file was made) every step of ``explain`` keeps
the solution, its parts are the path's steps (their placements and eliminations are the
step's), and applying the steps in order ends on the solution. A few puzzles run in the quick
tier, a third of the corpus in the slow one (with the walkthrough's length target).
The new steps are checked on hand-made positions (where they must fire, where they must not).
"""

from __future__ import annotations

import statistics

import pytest

from sudokit import rating
from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.logic import killer
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import solve_path
from sudokit.logic.step import Step
from sudokit.logic.walkthrough import SINGLES, walkthrough
from sudokit.rating import explain, rating_techniques
from sudokit.shape import Shape
from support.tiers import sweep
from support.variants import read_killers

SOL9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
KILLERS = read_killers()


def shape_of(cages: list[list[int]], sol: str = SOL9) -> Shape:
    made = [Cage(cs, sum(int(sol[c]) for c in cs)) for cs in cages]
    return Shape(3, 3, constraints=Constraints(cages=made))


def keeps(step: Step, sol: bytes | str) -> None:
    digits = [int(ch) for ch in sol] if isinstance(sol, str) else list(sol)
    for c, d in step.eliminations:
        assert digits[c] != d, f"{step.technique} removed the solution digit: {step.text}"
    for c, d in step.placements:
        assert digits[c] == d, f"{step.technique} placed a wrong digit: {step.text}"


def replay(index: int, monkeypatch: pytest.MonkeyPatch) -> list[Step]:
    """explain() of killer *index*, replayed against its solution: every step keeps it, a
    grouped step is its parts, and the steps end on it."""
    puzzle, sol = KILLERS[index]
    solution = Grid(sol, puzzle.shape)
    monkeypatch.setattr(rating, "_solution", lambda grid: solution)
    steps = explain(puzzle, budget_s=5)
    cg = CandidateGrid.from_grid(puzzle)
    for step in steps:
        keeps(step, sol)
        if step.parts:
            assert step.placements == tuple(p for s in step.parts for p in s.placements)
            assert step.eliminations == tuple(e for s in step.parts for e in s.eliminations)
            assert step.rating == max(s.rating for s in step.parts)
            assert step.to_json()["parts"] == [s.to_json() for s in step.parts]
            assert step.text.startswith(f"{step.technique}")  # the CLI's line names it once
            for part in step.parts:
                keeps(part, sol)
                cg.apply(part)
        else:
            cg.apply(step)
    assert bytes(cg.values) == sol
    return steps


@pytest.mark.parametrize("index", [0, 2, 178])
def test_explain_a_killer_replays_to_its_solution(
    index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps = replay(index, monkeypatch)
    assert any(s.parts for s in steps)
    assert all(s.technique != "Proof by Search" for s in steps)
    assert len(steps) < sum(len(s.parts) or 1 for s in steps)


@pytest.mark.slow
def test_a_sample_of_the_corpus_replays_in_at_most_60_steps_on_average(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every third killer (100; every sixth in the full tier): the whole corpus is
    benchmarks/bench_killer_explain.py's (39.4 steps on average, one searched), whose killer
    77 alone costs 40 s of CPU in its search."""
    lengths = []
    searched = 0
    for index in range(0, len(KILLERS), len(KILLERS) // sweep(50, 100)):
        steps = replay(index, monkeypatch)
        lengths.append(len(steps))
        searched += any(s.technique == "Proof by Search" for s in steps)
    assert statistics.mean(lengths) <= 60
    assert searched == 0


def test_a_run_of_singles_is_one_step_with_each_reason_kept() -> None:
    shape = shape_of([[0, 1], [2, 3]])
    cg = CandidateGrid.from_grid(Grid.empty(shape))
    a = Step("Hidden Single", 1.2, ((0, 5),), text="In box 1 the 5 can only go in r1c1.", size=9)
    b = Step("Full House", 1.0, ((80, 9),), text="r9c9 is the last empty cell.", size=9)
    c = Step("Hidden Single", 1.5, ((1, 3),), text="In row 1 the 3 can only go in r1c2.", size=9)
    (grouped,) = walkthrough(cg, [a, b, c])
    assert grouped.technique == "Singles"
    assert grouped.text == "Singles: r1c1=5, r1c2=3 (hidden singles); r9c9=9 (full house)."
    assert grouped.parts == (a, b, c)
    assert grouped.rating == 1.5
    assert [p["text"] for p in grouped.to_json()["parts"]] == [a.text, b.text, c.text]
    assert set(SINGLES) >= {a.technique, b.technique}
    # one single alone stays as it is
    assert walkthrough(cg, [a]) == [a]


def test_a_classic_explanation_is_the_path() -> None:
    puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    steps = explain(puzzle)
    path = solve_path(CandidateGrid.from_grid(Grid.parse(puzzle)), rating_techniques(Shape(3, 3)))
    assert not any(s.parts for s in steps)
    assert "parts" not in steps[0].to_json()
    assert len(steps) == len(path.steps)


def test_a_cage_combination_unchanged_is_not_restated() -> None:
    # the 2-cell cage of 8 (r1c1, r1c2): 1+7, 2+6, 3+5 (SOL9 has 5 and 3 there)
    shape = shape_of([[0, 1]])
    cg = CandidateGrid.from_grid(Grid.empty(shape))
    first = next(killer.cage_combination(cg))
    words, sets = killer.combination_clause(cg, first, None)
    assert words == "the 2-cell cage of 8 at r1c1 can only be 1+7, 2+6 or 3+5"
    cg.apply(first)
    cg.eliminate(0, 6)  # r1c1 cannot be 6: r1c2 cannot be 2, and the sets are the same
    again = next(killer.cage_combination(cg))
    assert again.eliminations == ((1, 2),)
    words, _ = killer.combination_clause(cg, again, sets)
    assert words == (
        "the 2-cell cage of 8 at r1c1 is still 1+7, 2+6 or 3+5, and 2 is removed from r1c2"
        " (no set fits there)"
    )
    cg.eliminate(0, 7)
    cg.eliminate(0, 1)
    changed = next(killer.cage_combination(cg))
    words, _ = killer.combination_clause(cg, changed, sets)
    assert words.startswith("the 2-cell cage of 8 at r1c1 can now only be 2+6 or 3+5")
