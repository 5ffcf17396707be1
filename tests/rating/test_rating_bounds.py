"""Time budgets and honest lower bounds: the nested forcing chains are registered last, a
spent budget keeps the partial path, rate() reports ``>=`` bounds (never "Proof by Search"),
explain / hint label the search step, and (slow, when the hardest list is present) the bound
never exceeds Sudoku Explainer's rating."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import sudokit
import support
from sudokit.cli.app import main
from sudokit.errors import BudgetExceededError
from sudokit.grid import Grid
from sudokit.logic import forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import default_techniques, solve_path
from sudokit.logic.registry import TECHNIQUES, Technique, by_name
from sudokit.logic.step import Step
from sudokit.rating import RATE_BUDGET_S, Rating
from support import rated_file

DATA = support.DATA / "logic_puzzles.txt"
# Easter Monster (SE 11.9): no rule below the nested forcing chains makes a single step.
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
SINGLES = [t for t in TECHNIQUES if t.family == "singles"]


def first_harder_than_singles() -> Grid:
    """A corpus puzzle whose path starts with singles but needs more than singles."""
    for line in DATA.read_text().split():
        grid = Grid.parse(line)
        path = solve_path(CandidateGrid.from_grid(grid), SINGLES, unique=True)
        if path.steps and not path.solved:
            return grid
    raise AssertionError("no such puzzle in the corpus")


def test_nested_rules_registered_last() -> None:
    names = [t.name for t in TECHNIQUES]
    plus = names.index("Dynamic Forcing Chains (+)")
    assert names[plus + 1 :] == [name for name, _, _ in forcing.NESTED_RULES]
    assert [t.rating for t in TECHNIQUES[plus + 1 :]] == [9.5, 10.0, 10.5, 11.0]
    assert all(t.se for t in TECHNIQUES[plus + 1 :])
    assert by_name(forcing.NESTED_RULES[0][0]).rating == forcing.NESTED_FLOOR


def test_budget_inside_a_step_keeps_the_partial_path() -> None:
    def out_of_time(cg: CandidateGrid) -> Iterator[Step]:
        raise BudgetExceededError("spent")
        yield  # pragma: no cover (makes this a generator)

    fake = Technique("Out Of Time", "forcing", 5.0, out_of_time)
    grid = first_harder_than_singles()
    cg = CandidateGrid.from_grid(grid)
    path = solve_path(cg, [*SINGLES, fake], unique=True)
    assert path.steps, "the singles before the spent step are kept"
    assert not path.complete
    assert not path.solved
    assert (path.stopped_at, path.floor) == ("Out Of Time", 5.0)
    assert path.bound == max(path.rating, 5.0) == 5.0
    assert cg.to_grid().clues > grid.clues  # the steps were applied
    solution = sudokit.solution(grid)
    assert all(solution.cells[c] == d for s in path.steps for c, d in s.placements)


def test_stuck_path_floor_is_the_hardest_failed_rule() -> None:
    grid = first_harder_than_singles()
    path = solve_path(CandidateGrid.from_grid(grid), SINGLES, unique=True)
    assert path.stuck
    assert path.stopped_at == ""
    assert path.floor == max(t.rating for t in SINGLES)
    assert path.bound == max(path.rating, path.floor)


@pytest.mark.slow
def test_rate_with_tiny_budget_is_a_lower_bound() -> None:
    r = sudokit.rate(EASTER, budget_s=1.0)
    assert r.lower_bound
    assert not r.complete
    assert r.budget_s == 1.0
    assert "Proof by Search" not in r.techniques
    stopped = by_name(r.stopped_at)  # a registered SE rule was searching
    assert stopped.se
    # steps found before the budget ran out (none, or a few nested chains: how many depends on
    # the machine's speed) are counted, and the bound is the stopped rule's floor or a harder step
    assert r.steps == sum(r.techniques.values())
    assert stopped.rating <= r.se <= 11.9
    assert r.se_text == f">={r.se:.1f}"
    js = r.to_json(EASTER)
    assert js["lower_bound"] is True
    assert js["complete"] is False
    assert js["rating"] == r.se
    assert js["stopped_at"] == r.stopped_at
    assert js["budget_s"] == 1.0
    json.dumps(js)


def test_complete_rating_has_no_bound_fields() -> None:
    grid = Grid.parse(DATA.read_text().split()[0])
    r = sudokit.rate(grid)
    assert r.complete
    assert not r.lower_bound
    assert r.stopped_at == ""
    assert "lower_bound" not in r.to_json()
    assert not r.se_text.startswith(">=")
    assert RATE_BUDGET_S == 60.0


def test_lower_bound_json_and_repr() -> None:
    r = Rating(10.5, 900, "extreme", complete=False, lower_bound=True, stopped_at="x", budget_s=2)
    assert r.se_text == ">=10.5"
    assert r.to_json()["lower_bound"] is True


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_hint_falls_back_to_labelled_search() -> None:
    step = sudokit.hint(EASTER, budget_s=0.3)
    assert step is not None
    if step.technique != "Proof by Search":  # a nested chain finished within 0.3 s
        assert step.rating >= forcing.NESTED_FLOOR
        return
    assert "not a human technique" in step.text
    assert "Sudoku Explainer" in step.text
    solution = sudokit.solution(EASTER)
    assert step.eliminations
    assert all(solution.cells[c] != d for c, d in step.eliminations)


def test_search_technique_is_not_se() -> None:
    from sudokit.rating import _search_technique

    t = _search_technique(sudokit.solution(EASTER))
    assert t.name == "Proof by Search"
    assert not t.se
    assert all(t.name != "Proof by Search" for t in default_techniques(se_only=True))


@pytest.mark.slow
def test_cli_rate_shows_lower_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "p.txt"
    f.write_text(EASTER + "\n")
    assert main(["rate", str(f), "--budget", "0.5"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(">=")
    assert "lower bound" in first
    assert EASTER in first
    assert main(["rate", str(f), "--budget", "0.5", "--to", "json"]) == 0
    js = json.loads(capsys.readouterr().out.splitlines()[0])
    assert js["lower_bound"] is True
    assert js["complete"] is False
    assert js["rating"] <= 11.9
    assert js["budget_s"] == 0.5


# -- the hardest list (slow; needs the rated set) -----------------------------------------------


def hardest_sample(k: int) -> list[tuple[str, float]]:
    with rated_file("se_hardest_database_110626.tsv").open(encoding="utf-8") as fh:
        rows = [(r["puzzle"], float(r["ER"])) for r in csv.DictReader(fh, delimiter="\t")]
    rows.sort(key=lambda r: r[1])
    return [rows[i * (len(rows) - 1) // (k - 1)] for i in range(k)]


@pytest.mark.slow
def test_bound_never_exceeds_se_on_the_hardest_list() -> None:
    for puzzle, er in hardest_sample(3):
        # A wall budget: the two hardest stop at it (10.5-10.8 here after 1 s), which is the
        # point: a bound that stopped early is still never above SE.
        r = sudokit.rate(puzzle, budget_s=3.0)
        assert r.se <= er + 1e-9, (puzzle, er, r)  # a bound or a complete rating: never above SE
        assert r.se >= 7.5, (puzzle, er, r)  # these are all far beyond the basic tiers
        if r.lower_bound:
            assert r.se_text.startswith(">=")
