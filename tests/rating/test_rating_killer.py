"""The variant rating scale on generated killers: hints, explanations and ratings end to end.

The killers (``tests/data/variants/killers_logic.jsonl``) were made by
``sudokit.generate(killer=True, seed=...)`` (seeds in the file) and are stored, so a change of
the generator does not change them. Their solutions are checked against the search
(``sudokit.solution``), independently of the human techniques: every placement of an
explanation must be the solution's digit and no elimination may remove it.
"""

from __future__ import annotations

import json

import pytest

import sudokit
import support
from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.rating import LEVELS, explain, hint, is_variant, level_of, rate
from sudokit.shape import Shape

DATA = support.DATA / "variants" / "killers_logic.jsonl"
# Killers the techniques finish without chains (measured: ratings 2.4 - 3.0).
RECORDS = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module", params=RECORDS, ids=[r["source"][-8:-1] for r in RECORDS])
def killer(request: pytest.FixtureRequest) -> tuple[Grid, Grid]:
    record = request.param
    cages = [Cage(c["cells"], c.get("sum")) for c in record["cages"]]
    shape = Shape(3, 3, constraints=Constraints(cages=cages))
    puzzle = Grid.parse(record["puzzle"], shape)
    solution = sudokit.solution(puzzle)
    assert str(solution) == record["solution"]
    return puzzle, solution


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_explain_a_killer_to_the_end(killer: tuple[Grid, Grid]) -> None:
    puzzle, solution = killer
    steps = explain(puzzle, budget_s=30)
    values = list(puzzle.cells)
    for step in steps:
        assert step.technique != "Proof by Search", step.text
        for c, d in step.eliminations:
            assert solution.cells[c] != d, step.text
        for c, d in step.placements:
            assert solution.cells[c] == d, step.text
            values[c] = d
    assert bytes(values) == solution.cells
    names = {s.technique for s in steps}
    assert "Cage Combination" in names
    assert names & {"Rule of 45", "Cage Pointing", "Hidden Cage", "Cage Clash", "Cage Claiming"}


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_killer_rating_is_on_the_variant_scale(killer: tuple[Grid, Grid]) -> None:
    puzzle, _ = killer
    assert is_variant(puzzle.shape)
    result = rate(puzzle, budget_s=30)
    assert result.complete
    assert result.scale == "variant"
    assert result.to_json()["scale"] == "variant"
    assert result.level == level_of(result.se)
    assert result.level in {name for name, _ in LEVELS}
    # the hardest step is a killer or SE technique, and the score sums the path
    assert result.techniques.get("Cage Combination", 0) > 0
    assert sum(result.techniques.values()) == result.steps


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_first_hint_of_a_zero_given_killer_reads_a_cage(killer: tuple[Grid, Grid]) -> None:
    puzzle, _ = killer
    step = hint(puzzle)
    assert step is not None
    assert step.technique in {"Cage Combination", "Rule of 45"}
    assert "cage" in step.text.lower() or "rule of 45" in step.text.lower()
