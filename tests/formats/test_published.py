"""Published puzzles (tests/data/variants/published*.jsonl, sources and licences there) read
to the kinds recorded, solve to their published solutions, are unique and keep every rule."""

from __future__ import annotations

from typing import Any

import pytest

import sudokit
from sudokit import formats, rating
from sudokit.formats import sudokupad
from sudokit.grid import Grid
from support import published_records

RECORDS = published_records()
READ = [r for r in RECORDS if r["reads"]]


def _params(records: list[dict[str, Any]]) -> list[Any]:
    """The records as parameters, those over a second of CPU (``slow``) in the full tier."""
    return [
        pytest.param(r, id=r["name"], marks=[pytest.mark.slow] if r.get("slow") else [])
        for r in records
    ]


def _kinds(grid: Grid) -> list[str]:
    variant = grid.shape.variant
    return [] if variant == "standard" else variant.split("-")


@pytest.mark.parametrize("record", _params(READ))
def test_published_puzzle(record: dict[str, Any]) -> None:
    grid = formats.parse_one(record["puzzle"])
    assert _kinds(grid) == record["kinds"]
    assert sudokit.count_solutions(grid, limit=2) == 1
    solution = sudokit.solution(grid)
    assert solution.to_line() == record["solution"]
    assert solution.is_solution(grid)
    rules = grid.shape.constraints
    if rules is not None:
        assert not rules.violations(solution.cells, grid.shape.n)


#: One read puzzle of each combination of kinds (the first in the file).
ONE_A_KIND = list({tuple(r["kinds"]): r for r in reversed(READ)}.values())[::-1]


@pytest.mark.parametrize("record", _params(ONE_A_KIND))
def test_published_puzzle_rates(record: dict[str, Any]) -> None:
    """The human solver takes a published puzzle of every kind (a lower bound when the short
    budget runs out): its words for a rule once failed on a fortress of maximum cells."""
    result = rating.rate(formats.parse_one(record["puzzle"]), budget_s=0.1)
    assert result.se > 0
    assert result.steps > 0
    assert result.complete != result.lower_bound


@pytest.mark.parametrize("record", _params(READ))
def test_published_solution_keeps_the_independent_model(record: dict[str, Any]) -> None:
    """The published solution fills the grid's units and keeps every rule as the CP-SAT
    model of tests/support reads it (written from the rules' words, not from the engine)."""
    pytest.importorskip("ortools")
    from support.variants import cpsat_keeps

    grid = formats.parse_one(record["puzzle"])
    solution = Grid.parse(record["solution"], grid.shape)
    assert solution.is_solution(grid)
    assert cpsat_keeps(grid.shape, solution.cells)


#: The gaps whose puzzle sudokit can read the form of (the others keep the source's own text,
#: sigh's constraint strings, as a list of rules sudokit lacks: nothing to test on them yet).
GAPS = [r for r in RECORDS if not r["reads"] and not r["error"].startswith("sigh's constraint")]


@pytest.mark.parametrize("record", _params(GAPS))
def test_gap_is_still_a_gap(record: dict[str, Any]) -> None:
    """A puzzle recorded as not read right has its reason, and still is not read right: once
    it is, this fails, and the record moves to the puzzles above."""
    assert record["error"]
    try:
        grid = formats.parse_one(record["puzzle"])
    except sudokit.SudokuError:
        return
    read_right = (
        _kinds(grid) == record["kinds"]
        and sudokit.count_solutions(grid, limit=2) == 1
        and sudokit.solution(grid).to_line() == record["solution"]
    )
    assert not read_right


def test_plain_json_with_empty_lists_is_left_as_it_is() -> None:
    """A SudokuPad puzzle in plain JSON with ``"cages": []`` reads (unzipping once turned the
    empty list into a list holding one empty cage)."""
    grid, _ = sudokupad.from_text('{"cells": [[{"value": 1}, {}], [{}, {}]], "cages": []}')
    assert grid.cells == bytes([1, 0, 0, 0])


def test_the_corpus_is_read() -> None:
    """Most recorded puzzles read (an empty or unread file would leave the tests above empty)."""
    assert len(READ) >= 80
    assert len(READ) > len(GAPS)
