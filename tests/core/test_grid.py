"""Grid invariants for every shape: text round-trips, conflicts and is_solution from first
principles. Solved grids come from the pattern formula below, independent of every solver."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import ParseError
from sudokit.grid import Conflict, Grid, shifted_alphabet_hint
from sudokit.shape import Shape
from support.tiers import examples

BOXES = [(r, c) for r in range(1, 9) for c in range(1, 9)]


def pattern(shape: Shape) -> Grid:
    """A solved grid for any ``r x c`` boxes: row ``i`` is row 0 shifted by a box width per
    row of a band and by one per band (a classic construction, no search)."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    return Grid(
        bytes((bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n)), shape
    )


def naive_conflicts(grid: Grid) -> set[tuple[int, frozenset[int]]]:
    """(digit, cells) of every repeated digit, from coordinates (rows, columns, boxes)."""
    n, br, bc = grid.n, grid.shape.box_rows, grid.shape.box_cols
    groups: list[list[int]] = [[r * n + c for c in range(n)] for r in range(n)]
    groups += [[r * n + c for r in range(n)] for c in range(n)]
    for b in range(n):
        top, left = (b // (n // bc)) * br, (b % (n // bc)) * bc
        groups.append([(top + i) * n + left + j for i in range(br) for j in range(bc)])
    found = set()
    for cells in groups:
        for d in range(1, n + 1):
            where = frozenset(i for i in cells if grid.cells[i] == d)
            if len(where) > 1:
                found.add((d, where))
    return found


@pytest.mark.parametrize(("rows", "cols"), BOXES, ids=[f"{r}x{c}" for r, c in BOXES])
def test_pattern_solutions_and_text(rows: int, cols: int) -> None:
    shape = Shape(rows, cols)
    g = pattern(shape)
    assert g.is_solution()
    assert g.is_complete
    assert g.clues == shape.ncells
    assert not g.conflicts()
    assert g.is_valid
    assert Grid.parse(str(g), shape) == g
    assert eval(repr(g), {"Grid": Grid, "Shape": Shape}) == g
    if shape.n > 1:
        # one changed cell breaks it, and conflicts() says where
        i = shape.ncells // 2
        bad = g.replace(i, g[i] % shape.n + 1)
        assert not bad.is_solution()
        assert any(i in c.cells for c in bad.conflicts())
        # two cells of a row swapped: the row stays complete, columns break
        a, b = 0, shape.n - 1
        swapped = g.replace(a, g[b]).replace(b, g[a])
        assert not swapped.is_solution()


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (8, 8)])
def test_is_solution_respects_the_puzzle(rows: int, cols: int) -> None:
    shape = Shape(rows, cols)
    g = pattern(shape)
    rng = random.Random(rows * 10 + cols)
    keep = set(rng.sample(range(shape.ncells), shape.ncells // 3))
    puzzle = Grid(bytes(v if i in keep else 0 for i, v in enumerate(g.cells)), shape)
    assert g.is_solution(puzzle)
    assert not puzzle.is_solution()
    if shape.n > 1 and keep:
        i = min(keep)
        wrong = puzzle.replace(i, puzzle[i] % shape.n + 1)
        assert not g.is_solution(wrong)
    other = Shape(cols, rows)
    if other != shape:
        assert not g.is_solution(Grid.empty(other))


def test_is_solution_uses_every_unit() -> None:
    # A valid plain 4x4 grid whose diagonals repeat digits is not a Sudoku-X solution.
    g = Grid.parse("1234341221434321")
    assert g.is_solution()
    x = Grid(g.cells, Shape(2, 2, diagonals=True))
    assert not x.is_solution()
    assert {c.unit for c in x.conflicts()} <= {"diagonal", "anti-diagonal"}
    jig = Shape.jigsaw("AABBABBACCDDCCDD")  # region A takes r2c4
    assert not Grid(g.cells, jig).is_solution()


@settings(max_examples=examples(60), deadline=None)
@given(
    box=st.sampled_from([(1, 1), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (4, 4), (5, 5)]),
    seed=st.integers(0, 2**32 - 1),
    density=st.floats(0.0, 1.0),
)
def test_random_grids_round_trip_and_conflicts(
    box: tuple[int, int], seed: int, density: float
) -> None:
    shape = Shape(*box)
    rng = random.Random(seed)
    values = [rng.randint(1, shape.n) if rng.random() < density else 0 for _ in range(shape.ncells)]
    g = Grid(values, shape)
    assert Grid.parse(str(g), shape) == g
    assert Grid.parse(g.to_line(blank="0"), shape) == g
    assert eval(repr(g), {"Grid": Grid, "Shape": Shape}) == g
    assert g.clues == sum(1 for v in values if v)
    assert g.rows() == [values[r * shape.n : (r + 1) * shape.n] for r in range(shape.n)]
    found = {(c.digit, frozenset(c.cells)) for c in g.conflicts()}
    assert found == naive_conflicts(g)
    assert all(isinstance(c, Conflict) for c in g.conflicts())


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_64x64_round_trip(seed: int) -> None:
    shape = Shape(8, 8)
    rng = random.Random(seed)
    g = Grid(bytes(rng.randint(0, 64) for _ in range(shape.ncells)), shape)
    text = str(g)
    assert "," in text  # beyond the single symbols: separated integers
    assert Grid.parse(text) == g


def test_access_and_value_semantics() -> None:
    g = Grid.parse("1.3....22....3.1")
    assert g[0] == 1
    assert g[0, 2] == 3
    assert g[3, 3] == 1
    assert len(g) == 16
    assert list(g)[:4] == [1, 0, 3, 0]
    assert g.n == 4
    assert not g.is_complete
    assert g.replace(1, 2)[1] == 2
    assert g[1] == 0
    assert pickle.loads(pickle.dumps(g)) == g
    assert hash(Grid.parse(str(g))) == hash(g)
    assert g != Grid(g.cells, Shape(1, 4))
    with pytest.raises(AttributeError):
        g.cells = b""  # type: ignore[misc]
    assert Grid.empty(Shape(2, 3)).clues == 0


def test_construction_errors() -> None:
    with pytest.raises(ValueError, match="36 cells"):
        Grid([0] * 35, Shape(2, 3))
    with pytest.raises(ValueError, match=r"0\.\.4"):
        Grid([5] + [0] * 15)
    with pytest.raises(ValueError, match="infer"):
        Grid([0] * 15)
    with pytest.raises(ParseError):
        Grid.parse("1" * 80)
    with pytest.raises(TypeError):
        Grid.parse(b"...")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "12|34\n34|12\n21|43\n43|21",
        "|12|34|\n|34|12|\n|21|43|\n|43|21|",
        "12 34\n34 12\n21 43\n43 21",
        "12 34\n34 12\n-----\n21 43\n43 21",
    ],
)
def test_small_pictures_are_symbols_not_two_digit_numbers(text: str) -> None:
    # Eight "numbers" make no square grid; four rows of four symbols do.
    grid = Grid.parse(text)
    assert grid.shape == Shape(2, 2)
    assert grid.cells == bytes([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])


def test_a_box_too_wide_for_symbols_asks_for_integers() -> None:
    with pytest.raises(ParseError, match="separated integers"):
        Grid.parse("0" * 81, Shape(8, 8))
    ten = Shape(2, 5)
    assert Grid.parse(",".join(["0"] * 100), ten).shape == ten


# -- honest size messages, a declared alphabet ---------------------------------------------


def test_a_64x64_line_of_symbols_says_to_use_integers() -> None:
    with pytest.raises(ParseError) as info:
        Grid.parse("." * 4096)
    message = info.value.message
    assert "64x64" in message
    assert "separated integers" in message
    assert "up to 61x61" in message
    assert "square number" not in message  # 4096 is square


def test_a_36x36_pencilmark_string_reads_back_and_says_what_it_is() -> None:
    from sudokit import formats
    from sudokit.marks import Candidates

    cands = Candidates.from_grid(Grid.empty(Shape.from_size(36)))
    text = formats.dumps_candidates(cands, "candidates")
    assert formats.sniff(text) == "candidates"
    assert formats.parse_candidates(text).shape.n == 36
    with pytest.raises(ParseError, match="36x36 pencilmark string: read it with --from candidates"):
        formats.parse(text, "line")


HEX = "0123456789ABCDEF" + "." * 224 + "FEDCBA9876543210"


def test_declared_symbols_read_hexadoku_written_with_zero() -> None:
    g = Grid.parse(HEX, symbols="0-9A-F")
    assert g.n == 16
    assert g.clues == 32
    assert [g[0, c] for c in range(16)] == list(range(1, 17))  # '0' is digit 1, 'F' 16
    assert Grid.parse(HEX.lower(), symbols="0-9A-F") == g
    default = Grid.parse(HEX)  # 0 is a blank: one clue fewer per row of givens
    assert default.clues == 30
    assert shifted_alphabet_hint(default) is not None
    assert shifted_alphabet_hint(Grid.parse(HEX.replace("0", "G"))) is None


@pytest.mark.parametrize(
    ("text", "symbols", "match"),
    [
        (HEX.replace("A", "G", 1), "0-9A-F", "unexpected character 'G'"),
        (HEX, "0-9A-E", "are 15, a 16x16 grid needs 16"),
        (HEX, "F-A", "runs backwards"),
        (HEX, "0-9A-F0", "different symbols"),
        (HEX, "", "is empty"),
    ],
)
def test_declared_symbols_errors(text: str, symbols: str, match: str) -> None:
    shape = Shape.from_size(16) if "15" in match else None
    with pytest.raises(ParseError, match=match):
        Grid.parse(text, shape, symbols=symbols)


def test_non_ascii_digits_are_a_parse_error() -> None:
    with pytest.raises(ParseError):
        Grid.parse("0,0,0,²")  # was ValueError from int()
