"""``sudokit candidates``: the true candidates of each puzzle, as the CLI conventions say.

One record per input puzzle in input order (a candidate grid, a pencilmark line or a JSON
object), a marker line for a puzzle without candidates to show, one stderr line per problem
naming its record, exit codes 0 / 1 / 2; a bad record costs only itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sudokit
from sudokit import formats
from sudokit.cli.app import main

#: Two solutions: 1234341221434321 and 2134341212434321.
TWO = "..34..1...4..3.1"
NONE = "......34...23..."
EMPTY9 = "." * 81


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, list[str]]:
    code = main(["candidates", *args])
    out, err = capsys.readouterr()
    return code, out, err.splitlines()


def _union(puzzle: sudokit.Grid) -> tuple[int, ...]:
    """The digits of every solution per cell (few solutions: enumerated)."""
    masks = [0] * puzzle.shape.ncells
    for solution in sudokit.solutions(puzzle, limit=1000):
        for i, v in enumerate(solution.cells):
            masks[i] |= 1 << (v - 1)
    return tuple(masks)


def test_text_is_the_candidate_grid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "-p", TWO)
    assert (code, err) == (0, [])
    assert out == (
        "*---------------*\n"
        "| 12 12 | 3  4  |\n"
        "| 3  4  | 1  2  |\n"
        "|-------+-------|\n"
        "| 12 12 | 4  3  |\n"
        "| 4  3  | 2  1  |\n"
        "*---------------*\n"
    )
    assert formats.parse_candidates(out, "candgrid").masks == _union(sudokit.Grid.parse(TWO))


def test_json_and_pencilmark_lines_hold_the_true_digits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "--to", "json", "-p", TWO)
    row = json.loads(out)
    assert code == 0
    assert row["complete"] is True
    assert row["status"] == "multiple"
    assert row["unknown"] == []
    union = _union(sudokit.Grid.parse(TWO))
    assert [sudokit.marks.mask_of(d) for d in row["cells"]] == list(union)
    code, out, _ = _run(capsys, "--to", "candidates", "-p", TWO)
    assert code == 0
    assert formats.parse_candidates(out.strip(), "candidates").masks == union


def test_variant_rules_count(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A killer cage read from JSON takes digits away: the cage 0+1 of sum 3 holds 1 and 2."""
    path = tmp_path / "k.jsonl"
    path.write_text(json.dumps({"puzzle": "." * 16, "cages": [{"sum": 3, "cells": [0, 1]}]}))
    code, out, _ = _run(capsys, "--to", "json", str(path))
    cells = json.loads(out)["cells"]
    assert code == 0
    assert cells[0] == cells[1] == [1, 2]
    assert cells[2] == [3, 4]


def test_a_bad_record_costs_only_itself(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "in.txt"
    path.write_text(f"{TWO}\n12x\n{NONE}\n1..1{'.' * 12}\n{TWO}\n")
    code, out, err = _run(capsys, "--to", "candidates", str(path))
    assert code == 2  # unreadable input wins over the "no" answers
    rows = out.splitlines()
    assert rows[1:4] == ["!invalid", "!none", "!invalid"]
    assert rows[0] == rows[4]
    assert len(err) == 3
    assert err[0].startswith(f"sudokit: {path}:2: puzzle 2: ")
    assert err[1] == f"sudokit: {path}:3: puzzle 3: no solution"
    assert err[2].startswith(f"sudokit: {path}:4: puzzle 4: invalid: conflicting givens")


def test_no_solution_is_a_no_answer(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "-p", NONE)
    assert (code, out) == (1, "!none\n")
    assert err == ["sudokit: --puzzle:1: puzzle 1: no solution"]
    code, out, _ = _run(capsys, "--to", "json", "-p", NONE)
    assert code == 1
    assert json.loads(out)["status"] == "none"


@pytest.mark.backend  # what a small --guesses bound leaves undecided: the engine's guess counts
def test_a_bound_that_runs_out_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--guesses", "1", "-p", EMPTY9)
    assert (code, out) == (1, "!gave-up\n")
    assert len(err) == 1
    assert "gave up after" in err[0]
    assert err[0].endswith("729 candidates undecided; raise the bound with --guesses N (0 = none)")
    code, out, err = _run(capsys, "--guesses", "400", "-p", EMPTY9)
    assert code == 1
    assert out.splitlines()[-1].startswith("undecided (the --guesses bound ran out): r")
    assert len(err) == 1
    code, out, _ = _run(capsys, "--guesses", "400", "--to", "json", "-p", EMPTY9)
    row = json.loads(out)
    assert row["complete"] is False
    assert row["unknown"]
    assert row["error"].startswith("gave up after")


def test_the_old_budget_spelling_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--budget", "1", "-p", EMPTY9)
    assert (code, out) == (1, "!gave-up\n")
    assert err[0] == "sudokit: --budget is deprecated; use --guesses"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--to", "csv", "-p", TWO], "invalid value for '--to'"),
        (["--guesses", "-1", "-p", TWO], "--guesses"),
        (["no-such-file.txt"], "no-such-file.txt: no such file"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    code, _, err = _run(capsys, *args)
    assert code == 2
    assert len(err) == 1
    assert err[0].startswith("sudokit:")
    assert says.lower() in err[0].lower()
