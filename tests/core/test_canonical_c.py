"""The C canonical form (``_core.canonical9``, csrc/sk_canon.c) against its specification, the
pure-Python ``transform._canonical_python``: the same bytes on puzzles, their isomorphs,
complete and empty grids, grids with few clues, grids with many automorphisms, conflicting
grids and the published 17-clue puzzles; malformed arguments are refused; and
``transform.canonical`` uses the C code unless ``SUDOKIT_BACKEND=python``."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

import pytest

from sudokit import transform as tf
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.solver import count_solutions, solution
from support import CORPUS, read_puzzles, require_c_backend

NINE = Shape(3, 3)
NINES = [c for c in CORPUS if c.shape == NINE]
SOLUTIONS = [c.solution for c in NINES if c.solution is not None]
# A grid with a large automorphism group: cell (r, c) holds (3 * (r % 3) + r // 3 + c) % 9 + 1,
# so shifting bands, rows in bands, stacks and columns in stacks maps it onto relabellings of
# itself (many candidates survive every level of the search).
PATTERN = Grid(bytes((3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)), NINE)


@pytest.fixture(scope="module")
def core() -> ModuleType:
    require_c_backend()
    from sudokit import _core

    if not hasattr(_core, "canonical9"):
        pytest.fail("the C core was built without canonical9: rebuild it (pip install -e .)")
    return _core


def check_agrees(core: ModuleType, grid: Grid) -> bytes:
    """Assert that the C form of *grid* is the Python one, byte for byte; return it."""
    fast: bytes = core.canonical9(grid.cells)
    assert len(fast) == 81
    try:
        slow = tf._canonical_python(grid).cells
    except ValueError:
        # A digit twice in a row makes the specification issue labels above 9, which Grid
        # refuses; the C code must compute the same out-of-range labels.
        assert grid.conflicts(), grid
        assert max(fast) > 9, grid
    else:
        assert fast == slow, str(grid)
    return fast


def with_clues(solution: Grid, count: int, rng: random.Random) -> Grid:
    """*count* cells of *solution* at random places, the rest empty."""
    cells = bytearray(81)
    for i in rng.sample(range(81), count):
        cells[i] = solution.cells[i]
    return Grid(bytes(cells), NINE)


def test_corpus_puzzles_and_isomorphs(core: ModuleType) -> None:
    rng = random.Random(8)
    checked = 0
    for case in NINES:
        form = check_agrees(core, case.puzzle)
        for _ in range(10):
            iso = tf.random_isomorph(case.puzzle, rng, keep_shape=False)
            assert check_agrees(core, iso) == form
            checked += 1
        if not case.invalid:
            assert core.canonical9(form) == form  # a canonical form is its own form
        checked += 1
    assert checked >= 100


def test_random_clue_counts(core: ModuleType) -> None:
    """Every clue count from the empty grid to complete grids, few clues most often (they keep
    the most candidates tied)."""
    rng = random.Random(81)
    counts = [*range(0, 16), *range(16, 36, 2), *range(36, 81, 9)] * 2 + [81] * 3
    for count in counts:
        solution = rng.choice(SOLUTIONS)
        puzzle = with_clues(solution, count, rng)
        form = check_agrees(core, puzzle)
        assert sum(map(bool, form)) == count
        iso = tf.random_isomorph(puzzle, rng, keep_shape=False)
        assert core.canonical9(iso.cells) == form


def test_empty_and_single_clue_grids(core: ModuleType) -> None:
    assert check_agrees(core, Grid(bytes(81), NINE)) == bytes(81)
    for cell in (0, 40, 80):
        cells = bytearray(81)
        cells[cell] = 7
        assert check_agrees(core, Grid(bytes(cells), NINE)) == bytes(80) + b"\x01"


def test_grids_with_many_automorphisms(core: ModuleType) -> None:
    rng = random.Random(648)
    form = check_agrees(core, PATTERN)
    assert Grid(form, NINE).is_solution()
    for _ in range(2):
        assert core.canonical9(tf.random_isomorph(PATTERN, rng, keep_shape=False).cells) == form
    # symmetric clue patterns on the symmetric grid: 180-degree turns and mirror pairs
    for count in (8, 14, 20, 26, 32):
        cells = bytearray(81)
        for i in rng.sample(range(41), count // 2):
            for j in (i, 80 - i):
                cells[j] = PATTERN.cells[j]
        check_agrees(core, Grid(bytes(cells), NINE))
    # one band, one row, one box of the pattern
    for keep in (range(27), range(9), [r * 9 + c for r in range(3) for c in range(3)]):
        cells = bytearray(81)
        for i in keep:
            cells[i] = PATTERN.cells[i]
        check_agrees(core, Grid(bytes(cells), NINE))


def test_conflicting_grids(core: ModuleType) -> None:
    """Grids that break the rules are still mapped as the specification maps them."""
    rng = random.Random(99)
    for _ in range(120):
        density = rng.choice((0.1, 0.25, 0.4))
        cells = bytes(rng.randint(1, 9) if rng.random() < density else 0 for _ in range(81))
        check_agrees(core, Grid(cells, NINE))
    row_twice = Grid(bytes([5, 5] + [0] * 79), NINE)
    assert row_twice.conflicts()
    check_agrees(core, row_twice)


def test_forms_tell_puzzles_apart_and_keep_solution_counts(core: ModuleType) -> None:
    """Independent checks of the C forms alone: isomorphs agree, inequivalent corpus puzzles
    differ, and a form has as many solutions as its puzzle."""
    rng = random.Random(3)
    uniques = {c.puzzle for c in NINES if c.count == 1 and not c.invalid}
    forms = {core.canonical9(p.cells) for p in uniques}
    assert len(forms) == len(uniques)
    for case in rng.sample(NINES, 10):
        form = Grid(core.canonical9(case.puzzle.cells), NINE)
        limit = case.count + 1
        assert count_solutions(form, limit=limit) == count_solutions(case.puzzle, limit=limit)


def test_published_17_clue_puzzles(core: ModuleType) -> None:
    lines = read_puzzles("17clue_49158.txt")
    rng = random.Random(17)
    for line in rng.sample(lines, 150):
        puzzle = Grid.parse(line)
        form = check_agrees(core, puzzle)
        assert form <= puzzle.cells  # the list is written in minlex form (or above it)
        assert core.canonical9(tf.random_isomorph(puzzle, rng, keep_shape=False).cells) == form


@pytest.mark.slow
def test_many_17_clue_puzzles_and_complete_grids(core: ModuleType) -> None:
    """1,000 of the 17-clue puzzles as random isomorphs, and the solutions of 6 of them (complete
    grids are the slowest case of the Python specification: about 0.2 s each)."""
    lines = read_puzzles("17clue_49158.txt")
    rng = random.Random(1749)
    for line in rng.sample(lines, 1000):
        check_agrees(core, tf.random_isomorph(Grid.parse(line), rng, keep_shape=False))
    for line in rng.sample(lines, 6):
        full = solution(Grid.parse(line))
        form = check_agrees(core, tf.random_isomorph(full, rng, keep_shape=False))
        assert form[:9] == bytes(range(1, 10))


def test_threads_get_the_same_forms(core: ModuleType) -> None:
    """The GIL is released during the call: concurrent calls must not share state."""
    rng = random.Random(2)
    grids = [
        with_clues(rng.choice(SOLUTIONS), rng.choice((0, 5, 20, 30, 81)), rng) for _ in range(60)
    ]
    expected = [core.canonical9(g.cells) for g in grids]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert list(pool.map(core.canonical9, (g.cells for g in grids))) == expected


# -- the binding -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "exc", "message"),
    [
        ((), TypeError, "takes 1 argument"),
        ((bytes(81), bytes(81)), TypeError, "takes 1 argument"),
        ((bytearray(81),), TypeError, "cells must be bytes"),
        (("." * 81,), TypeError, "cells must be bytes"),
        ((None,), TypeError, "cells must be bytes"),
        ((bytes(80),), ValueError, "cells must hold 81 values"),
        ((bytes(82),), ValueError, "cells must hold 81 values"),
        ((bytes(0),), ValueError, "cells must hold 81 values"),
        ((bytes([10]) + bytes(80),), ValueError, "cell 0 has value 10"),
        ((bytes(80) + bytes([255]),), ValueError, "cell 80 has value 255"),
    ],
)
def test_malformed_arguments_are_refused(
    core: ModuleType, args: tuple[object, ...], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=message):
        core.canonical9(*args)


def test_keyword_arguments_are_refused(core: ModuleType) -> None:
    with pytest.raises(TypeError):
        core.canonical9(cells=bytes(81))


# -- dispatch ----------------------------------------------------------------------------------


def test_transform_canonical_uses_the_c_core(core: ModuleType) -> None:
    if os.environ.get("SUDOKIT_BACKEND", "").strip().lower() == "python":
        assert tf._c_canonical9() is None
        return
    assert tf._c_canonical9() is core.canonical9
    g = NINES[0].puzzle
    assert tf.canonical(g).cells == core.canonical9(g.cells)


def test_backend_python_uses_the_python_code() -> None:
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    code = (
        "import sys\n"
        "from sudokit import transform as tf\n"
        "from sudokit.grid import Grid\n"
        "assert tf._c_canonical9() is None\n"
        "print(tf.canonical(Grid.parse(sys.argv[1])))\n"
    )
    env = {**os.environ, "SUDOKIT_BACKEND": "python"}
    env.pop("SUDOKIT_REQUIRE_C", None)
    done = subprocess.run(
        [sys.executable, "-c", code, puzzle], env=env, capture_output=True, text=True, check=True
    )
    form = "........1.....1.23..4.5..........5.....6..74.38............2.....7...6...1...8..."
    assert done.stdout.strip() == form  # the brute-force-checked form (test_transform.py)
