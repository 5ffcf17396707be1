"""Published puzzles (tests/data/variants/published.jsonl, sources and licences there) read
to the kinds recorded, solve to their published solutions, are unique and keep every rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

import sudokit
from sudokit import formats
from sudokit.formats import sudokupad
from sudokit.grid import Grid
from support import DATA

RECORDS = [
    json.loads(line)
    for line in (DATA / "variants" / "published.jsonl").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]
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


GAPS = [r for r in RECORDS if not r["reads"]]


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
