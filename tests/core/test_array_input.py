"""Puzzles as Python users hold them: lists of rows (py-sudoku style, 0 or None for an empty
cell) and NumPy arrays of any integer dtype, 1-D or 2-D, read cell for cell by ``Grid`` and
taken by every function of the API that takes a puzzle (through ``grid.as_grid``).

NumPy is not a dependency of sudokit; the array tests skip without it."""

from __future__ import annotations

from typing import Any

import pytest

import sudokit
from sudokit import Grid, ParseError, Shape, Status

LINE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
PUZZLE = Grid.parse(LINE)
ROWS = PUZZLE.rows()
SOLUTION = sudokit.solution(PUZZLE)


@pytest.fixture(scope="module")
def np() -> Any:
    return pytest.importorskip("numpy")


# -- lists of rows ---------------------------------------------------------------------------


def test_a_list_of_rows_is_the_grid_row_by_row() -> None:
    assert Grid(ROWS) == PUZZLE
    assert Grid(tuple(tuple(r) for r in ROWS)) == PUZZLE
    with_none = [[None if v == 0 else v for v in row] for row in ROWS]
    assert Grid(with_none) == PUZZLE
    six = [[0] * 6 for _ in range(6)]
    assert Grid(six).shape == Shape(2, 3)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ([[1, 2], [3]], "expected 2 rows of 2 values (a square grid), row 2 has 1"),
        ([[1, 2, 3], [0, 0, 0]], "expected 2 rows of 2 values (a square grid), row 1 has 3"),
        ([[1, 2.0], [0, 0]], "row 1, column 2: expected an int 0..64 (or None), got float 2.0"),
        ([[True, 0], [0, 0]], "row 1, column 1: expected an int 0..64, got the boolean True"),
        ([[1, 0], [0, -1]], "row 2, column 2: -1 is below 0"),
        ([[0] * 4, [0] * 4, [0] * 4, [0, 0, 0, 5]], "cell r4c4 is 5, expected 0..4 for 4x4"),
        ([0] * 80, "cannot infer a shape from 80 cells"),
        ([1] * 15 + [True], "cell 16: expected an int 0..64, got the boolean True"),
        ("1" * 16, "read text with Grid.parse"),
    ],
)
def test_bad_cell_values_are_one_parse_error(cells: Any, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        Grid(cells)
    assert message in str(caught.value)


def test_every_function_that_takes_a_puzzle_takes_rows() -> None:
    assert sudokit.solve(ROWS).solution == SOLUTION
    assert sudokit.solution(ROWS) == SOLUTION
    assert sudokit.count_solutions(ROWS) == 1
    assert sudokit.is_unique(ROWS)
    assert list(sudokit.solutions(ROWS)) == [SOLUTION]
    assert sudokit.rate(ROWS) == sudokit.rate(PUZZLE)
    assert sudokit.hint(ROWS) == sudokit.hint(PUZZLE)
    assert [r.solution for r in sudokit.solve_many([ROWS, LINE])] == [SOLUTION, SOLUTION]


def test_solve_many_gives_a_bad_array_its_own_result() -> None:
    results = list(sudokit.solve_many([ROWS, [[1, 2], [3]], 7, LINE]))  # type: ignore[list-item]
    assert [r.status for r in results] == [
        Status.UNIQUE,
        Status.INVALID,
        Status.INVALID,
        Status.UNIQUE,
    ]
    assert results[1].error == "expected 2 rows of 2 values (a square grid), row 2 has 1"
    assert (results[2].error or "").startswith("expected a Grid, text or cell values")


def test_bytes_are_refused_as_a_puzzle_but_are_cells_of_a_grid() -> None:
    from sudokit.grid import as_grid

    with pytest.raises(TypeError, match="got bytes"):
        as_grid(LINE.encode())
    assert Grid(PUZZLE.cells) == PUZZLE


# -- NumPy arrays ----------------------------------------------------------------------------


DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", ">i4", "<i8"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_an_integer_array_of_any_dtype_is_read_cell_for_cell(np: Any, dtype: str) -> None:
    array = np.array(ROWS, dtype=dtype)
    assert Grid(array) == PUZZLE  # not its bytes: an int32 9x9 was an 18x18 grid
    assert Grid(array.ravel()) == PUZZLE
    assert Grid(np.asfortranarray(array)) == PUZZLE
    assert Grid(array.T) == Grid(np.array(ROWS).T.tolist())  # strides are followed


def test_an_array_of_python_objects_takes_none_for_empty(np: Any) -> None:
    objects = np.array([[None if v == 0 else v for v in row] for row in ROWS], dtype=object)
    assert Grid(objects) == PUZZLE


def test_a_list_of_array_rows_is_a_list_of_rows(np: Any) -> None:
    assert Grid([np.array(r, dtype=np.int16) for r in ROWS]) == PUZZLE


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda np: np.array(ROWS, dtype=float), "got dtype float64 (a float array of whole"),
        (lambda np: np.array(ROWS) > 0, "got booleans (dtype bool)"),
        (lambda np: np.zeros((9, 8), dtype=int), "expected an n x n array (one row per grid row)"),
        (
            lambda np: np.zeros((3, 3, 9), dtype=int),
            "expected a 1-D or 2-D array of cells, got 3-D",
        ),
        (lambda np: np.array(ROWS) - 1, "row 1, column 1: -1 is below 0"),
        (lambda np: np.array(ROWS) * 100, "row 1, column 3: 300 is above 64"),
        (lambda np: np.array(ROWS) * 3, "cell r1c7 is 18, expected 0..9 for 9x9"),
        (lambda np: np.zeros(80, dtype=np.int32), "cannot infer a shape from 80 cells"),
        (lambda np: np.array(["1"] * 16), "got dtype <U1"),
    ],
)
def test_a_bad_array_is_one_parse_error(np: Any, make: Any, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        Grid(make(np))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_array_goes_through_every_function_that_takes_a_puzzle(np: Any) -> None:
    for array in (np.array(ROWS, dtype=np.int32), np.array(ROWS, dtype=np.int64).ravel()):
        assert sudokit.solve(array).solution == SOLUTION
        assert sudokit.solution(array) == SOLUTION
        assert sudokit.count_solutions(array) == 1
        assert sudokit.is_unique(array)
        assert sudokit.rate(array).se == sudokit.rate(PUZZLE).se
        assert sudokit.hint(array) == sudokit.hint(PUZZLE)
        [result] = sudokit.solve_many([array])
        assert result.solution == SOLUTION
    killer = sudokit.generate(killer=True, seed=1).puzzle
    shaped = sudokit.solve(np.asarray(killer), shape=killer.shape)
    assert shaped.solution == sudokit.solution(killer)


def test_a_grid_is_an_array(np: Any) -> None:
    array = np.asarray(PUZZLE)
    assert array.shape == (9, 9)
    assert array.dtype == np.int64
    assert array.tolist() == ROWS
    assert np.array(SOLUTION, dtype=np.uint8).dtype == np.uint8
    assert (SOLUTION.to_numpy() - PUZZLE.to_numpy() >= 0).all()
    array[0, 0] = 7  # a copy: the grid does not change
    assert PUZZLE[0, 0] == 0
    assert Grid(PUZZLE.to_numpy()) == PUZZLE
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        with pytest.raises(ValueError, match="always a copy"):
            np.asarray(PUZZLE, copy=False)
