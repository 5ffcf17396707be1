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


def _kinds(grid: Grid) -> list[str]:
    variant = grid.shape.variant
    return [] if variant == "standard" else variant.split("-")


@pytest.mark.parametrize("record", READ, ids=[r["name"] for r in READ])
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


def test_gaps_are_measured() -> None:
    """Puzzles sudokit reads wrong or not at all are recorded, with the reason."""
    gaps = [r for r in RECORDS if not r["reads"]]
    assert all(r["error"] for r in gaps)
    assert len(READ) >= 15


def test_plain_json_with_empty_lists_is_left_as_it_is() -> None:
    """A SudokuPad puzzle in plain JSON with ``"cages": []`` reads (unzipping once turned the
    empty list into a list holding one empty cage)."""
    grid, _ = sudokupad.from_text('{"cells": [[{"value": 1}, {}], [{}, {}]], "cages": []}')
    assert grid.cells == bytes([1, 0, 0, 0])
