"""Geometry invariants of every shape: 1x1 to 8x8 boxes (rectangular too), Sudoku-X, jigsaw.

The tables are checked against first principles (coordinates), never against typed-out data.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import ParseError
from sudokit.shape import MAX_SIZE, Shape
from support.tiers import examples

BOXES = [(r, c) for r in range(1, 9) for c in range(1, 9)]


def check_units(shape: Shape) -> None:
    """The invariants every shape satisfies, from coordinates."""
    n = shape.n
    cells = range(shape.ncells)
    extra = 2 if shape.diagonals else 0
    assert shape.ncells == n * n
    assert len(shape.units) == len(shape.unit_kinds) == 3 * n + extra
    for unit in shape.units:
        assert len(unit) == n == len(set(unit))
        assert all(0 <= i < shape.ncells for i in unit)
    # rows, columns, boxes/regions each partition the grid
    for k in range(3):
        block = shape.units[k * n : (k + 1) * n]
        assert sorted(i for u in block for i in u) == list(cells)
    for r in range(n):
        assert shape.units[r] == tuple(r * n + c for c in range(n))
        assert shape.unit_kinds[r] == "row"
    for c in range(n):
        assert shape.units[n + c] == tuple(r * n + c for r in range(n))
        assert shape.unit_kinds[n + c] == "column"
    for b in range(n):
        assert shape.units[2 * n + b] == tuple(i for i in cells if shape.box_of[i] == b)
    if shape.diagonals:
        assert set(shape.units[3 * n]) == {i * n + i for i in range(n)}
        assert set(shape.units[3 * n + 1]) == {i * n + n - 1 - i for i in range(n)}
        assert shape.unit_kinds[3 * n :] == ("diagonal", "anti-diagonal")
    # cell_units and peers agree with the units
    member: list[list[int]] = [[] for _ in cells]
    for u, unit in enumerate(shape.units):
        for i in unit:
            member[i].append(u)
    assert [list(x) for x in shape.cell_units] == member
    peers = shape.peers
    for i in cells:
        expected = {j for u in shape.cell_units[i] for j in shape.units[u]} - {i}
        assert set(peers[i]) == expected
        assert list(peers[i]) == sorted(peers[i])
        assert all(i in peers[j] for j in peers[i])  # symmetric


@pytest.mark.parametrize(("rows", "cols"), BOXES, ids=[f"{r}x{c}" for r, c in BOXES])
def test_standard_shapes(rows: int, cols: int) -> None:
    shape = Shape(rows, cols)
    n = rows * cols
    assert shape.n == n
    assert shape.box_rows == rows
    assert shape.box_cols == cols
    assert shape.is_standard
    assert shape.variant == "standard"
    assert shape.box_spec == f"{rows}x{cols}"
    if n <= 36:
        check_units(shape)
    # boxes are aligned rows x cols rectangles, numbered row-major
    for i in range(0, shape.ncells, max(1, shape.ncells // 500)):
        r, c = divmod(i, n)
        assert shape.box_of[i] == (r // rows) * (n // cols) + c // cols
        box = shape.units[2 * n + shape.box_of[i]]
        assert {j // n for j in box} == set(range(r // rows * rows, r // rows * rows + rows))
        assert {j % n for j in box} == set(range(c // cols * cols, c // cols * cols + cols))
    # every cell's peers: row + column + box minus the overlaps
    assert len(shape.peers[0]) == 3 * n - rows - cols - 1 if n > 1 else len(shape.peers[0]) == 0


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 4)])
def test_x_shapes(rows: int, cols: int) -> None:
    shape = Shape(rows, cols, diagonals=True)
    assert shape.variant == "x"
    assert not shape.is_standard
    check_units(shape)
    n = shape.n
    centre = (n // 2) * n + n // 2
    # the centre of an odd grid is on both diagonals
    assert len(shape.cell_units[centre]) == (5 if n % 2 else 4)


def random_region_map(n: int, rng: random.Random) -> list[int]:
    labels = [k for k in range(n) for _ in range(n)]
    rng.shuffle(labels)
    return labels


@settings(max_examples=examples(40), deadline=None)
@given(n=st.integers(1, 12), seed=st.integers(0, 2**32 - 1), diagonals=st.booleans())
def test_jigsaw_shapes(n: int, seed: int, diagonals: bool) -> None:
    regions = random_region_map(n, random.Random(seed))
    shape = Shape.jigsaw(regions, diagonals=diagonals)
    assert shape.n == n
    assert shape.variant == ("jigsaw-x" if diagonals else "jigsaw")
    assert shape.regions == tuple(regions) == shape.box_of
    check_units(shape)
    assert all(shape.unit_kinds[2 * n + b] == "region" for b in range(n))


def test_jigsaw_from_text_numbers_regions_by_first_appearance() -> None:
    shape = Shape.jigsaw("BBAA\nBBAA\nCCDD\nCCDD")
    assert shape.regions == (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3)
    assert shape.units[2 * 4 :] == Shape(2, 2).units[2 * 4 :]
    assert shape != Shape(2, 2)  # a jigsaw is a different shape even with box-shaped regions


@pytest.mark.parametrize(
    "bad",
    [
        [0] * 16,  # one region of 16 cells
        [0, 1, 2, 3] * 3 + [0, 1, 2, 4],  # index out of range
        [0, 1, 2, 3] * 3,  # wrong length
    ],
)
def test_bad_region_maps(bad: list[int]) -> None:
    with pytest.raises(ValueError, match="region"):
        Shape(2, 2, regions=bad)


def test_bad_sizes() -> None:
    for rows, cols in [(0, 3), (3, 0), (-1, 2), (9, 8)]:
        with pytest.raises(ValueError, match=r"must be >= 1|larger than the maximum"):
            Shape(rows, cols)
    assert Shape(8, 8).n == MAX_SIZE
    with pytest.raises(ValueError, match="outside"):
        Shape.from_size(0)
    with pytest.raises(ValueError, match="outside"):
        Shape.from_size(MAX_SIZE + 1)
    with pytest.raises(ParseError):
        Shape.parse_box("2-3")
    with pytest.raises(ParseError):
        Shape.parse_box("9x9")


@pytest.mark.parametrize("n", range(1, MAX_SIZE + 1))
def test_from_size_picks_the_most_square_box(n: int) -> None:
    shape = Shape.from_size(n)
    assert shape.n == n
    assert shape.box_rows <= shape.box_cols
    better = [d for d in range(shape.box_rows + 1, n + 1) if n % d == 0 and d <= n // d]
    assert not better
    assert Shape.from_cell_count(n * n) == shape


def test_parse_box_round_trip() -> None:
    for rows, cols in BOXES:
        shape = Shape(rows, cols)
        assert Shape.parse_box(shape.box_spec) == shape
    assert Shape.parse_box("3X4", diagonals=True) == Shape(3, 4, diagonals=True)


def test_names() -> None:
    s = Shape(3, 3, diagonals=True)
    assert [s.cell_name(i) for i in (0, 8, 80)] == ["r1c1", "r1c9", "r9c9"]
    assert [s.unit_name(u) for u in (0, 9, 18, 26, 27, 28)] == [
        "row 1",
        "column 1",
        "box 1",
        "box 9",
        "diagonal",
        "anti-diagonal",
    ]
    assert s.row_of(40) == 4
    assert s.col_of(41) == 5
    assert s.symbol(0) == "."
    assert s.symbol(9) == "9"
    assert Shape(4, 4).symbols == "123456789ABCDEFG"
    assert Shape(8, 8).symbols == ""


@pytest.mark.parametrize(
    "shape",
    [Shape(3, 3), Shape(2, 3, diagonals=True), Shape.jigsaw("AABBAABBCCDDCDCD")],
    ids=repr,
)
def test_value_semantics(shape: Shape) -> None:
    copy = pickle.loads(pickle.dumps(shape))
    assert copy == shape
    assert hash(copy) == hash(shape)
    rebuilt = eval(repr(shape), {"Shape": Shape})
    assert rebuilt == shape
    with pytest.raises(AttributeError):
        shape.n = 4  # type: ignore[misc]
    assert len({shape, copy, rebuilt}) == 1
    assert Shape(2, 3) != Shape(3, 2) != Shape(3, 2, diagonals=True)
