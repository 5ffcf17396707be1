"""A spreadsheet grid saved as CSV (one CSV row per grid row, empty cells blank) is read by
the ``csv`` format, of any size; the sniffing still tells it from the Kaggle layout and from
lines of comma-separated cells, and a grid that is not whole is one error saying what the
layout is."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import sudokit
from sudokit import Grid, Shape
from sudokit.cli.app import main
from sudokit.formats import FORMATS, dumps, parse, parse_one, read, sniff


def _sheet(grid: Grid) -> str:
    """*grid* as a spreadsheet saves it: numbers in the cells, empty cells blank."""
    return "".join(",".join(str(v) if v else "" for v in row) + "\n" for row in grid.rows())


def _puzzle(shape: Shape, seed: int) -> Grid:
    """A solved grid of *shape* with every third cell emptied (a puzzle as a sheet holds)."""
    solved = sudokit.solve(Grid(bytes(shape.ncells), shape), limit=1).solution
    assert solved is not None
    return Grid(bytes(0 if i % 3 == seed % 3 else v for i, v in enumerate(solved.cells)), shape)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_sheet_round_trip_every_size(box: tuple[int, int]) -> None:
    grid = _puzzle(Shape(*box), seed=sum(box))
    text = _sheet(grid)
    assert sniff(text) == "csv"
    assert parse_one(text) == grid
    assert parse_one(text.replace("\n", "\r\n"), "csv") == grid  # as Excel saves it


def test_sheets_separated_by_blank_lines_are_several_puzzles() -> None:
    grids = [_puzzle(Shape(3, 3), seed) for seed in (1, 2)]
    assert parse("\n".join(_sheet(g) for g in grids)) == grids


def test_other_texts_are_not_claimed_as_sheets() -> None:
    grid = _puzzle(Shape(2, 2), seed=0)
    kaggle = f"quizzes,solutions\n{grid.to_line()},{'1' * 16}\n"
    assert sniff(kaggle) == "csv"
    assert parse_one(kaggle) == grid
    separated = ",".join(str(v) for v in grid.cells)  # one puzzle a line, 0 for a blank
    assert sniff("\n".join([separated] * 20)) == "line"
    for name in FORMATS:
        if name not in ("candidates", "fpuzzles", "sudokupad"):  # no blanks to show / links
            assert sniff(dumps(grid, name)) == name, name


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        ("1,,3,\n,,,2\n2,,,\n", 1, "a spreadsheet grid of 4 columns has 3 rows; expected 4"),
        ("1,,3,\n,,,2\n2,,\n,3,,1\n", 3, "a spreadsheet grid row has 3 cells; expected 4"),
        ("1,,3,\n,,,2\n2,,,\n,3,,7\n", 4, "cell 4: unexpected character '7'"),
    ],
    ids=["short", "narrow", "bad-cell"],
)
def test_a_broken_sheet_is_one_error_naming_the_layout(text: str, line: int, why: str) -> None:
    [record] = read(io.StringIO(text), "csv")
    assert record.grid is None
    assert record.error is not None
    assert record.error.line == line
    assert record.error.message.startswith(why)
    if "cell" not in why:
        assert record.error.message.endswith("(one CSV row per grid row, empty cells blank)")


def test_solve_reads_a_saved_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = sudokit.generate(seed=4).puzzle
    (tmp_path / "grid.csv").write_text(_sheet(grid))
    assert main(["solve", str(tmp_path / "grid.csv")]) == 0
    assert capsys.readouterr().out == sudokit.solution(grid).to_line() + "\n"
