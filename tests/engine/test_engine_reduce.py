"""``Engine.reduce``, the generator's clue-removal pass: the C core against the reference.

Parity: the same grid, order and groups give the same puzzle, search count and flags with
every engine (unbounded searches, boxed shapes up to 9x9, Sudoku-X). Independent checks:
the result has exactly one solution, the grid it started from (``Grid.is_solution``); and
when the order covered every cell, no group of it can be removed any more (each removal
gives a second solution, counted by the reference engine).
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from sudokit import _backend
from sudokit.grid import Grid
from sudokit.shape import Shape
from support import require_c_backend

REFERENCE = _backend.get_engine("python")

SHAPES = [
    Shape(1, 2),
    Shape(2, 2),
    Shape(2, 3),
    Shape(3, 2),
    Shape(2, 4),
    Shape(3, 3),
    Shape(3, 3, diagonals=True),
]


def _id(shape: Shape) -> str:
    return f"{shape.box_rows}x{shape.box_cols}{'X' if shape.diagonals else ''}"


@pytest.fixture
def c_engines() -> list[_backend.Engine]:
    """The C core with its default dispatch and with the generic path forced."""
    require_c_backend()
    from sudokit._cengine import CEngine

    return [CEngine(), CEngine(generic=True)]


def random_grid(shape: Shape, rng: random.Random) -> bytes:
    """A random complete grid: random non-conflicting givens, completed by the reference."""
    while True:
        cells = bytearray(shape.ncells)
        for i in rng.sample(range(shape.ncells), shape.n + 2):
            taken = {cells[p] for p in shape.peers[i]}
            free = [d for d in range(1, shape.n + 1) if d not in taken]
            if free:
                cells[i] = rng.choice(free)
        found = REFERENCE.search(shape, bytes(cells), 1, 1, 0)
        if found.count:
            grid = found.solutions[0]
            relabel = [0, *rng.sample(range(1, shape.n + 1), shape.n)]
            return bytes(relabel[v] for v in grid)


def random_groups(
    shape: Shape, rng: random.Random, *, symmetric: bool
) -> tuple[list[int], list[int]]:
    """``(order, group_ends)`` covering every cell once: rot180 orbits or random 1..3-cell
    groups, in a random order."""
    last = shape.ncells - 1
    if symmetric:
        groups = [sorted({i, last - i}) for i in range(shape.ncells) if i <= last - i]
    else:
        cells = rng.sample(range(shape.ncells), shape.ncells)
        groups = []
        while cells:
            size = rng.choice((1, 1, 2, 3))
            groups.append(cells[:size])
            cells = cells[size:]
    rng.shuffle(groups)
    order = [i for g in groups for i in g]
    ends = [sum(len(g) for g in groups[: k + 1]) for k in range(len(groups))]
    return order, ends


def count(shape: Shape, cells: bytes | bytearray) -> int:
    found = REFERENCE.search(shape, bytes(cells), 2, 0, 0)
    assert found.complete
    return found.count


def check_reduced(shape: Shape, grid: bytes, order: list[int], ends: list[int], got: Any) -> None:
    """Independent checks of a complete, unbounded pass over every cell."""
    puzzle, searches, decided, complete = got
    assert complete
    assert decided
    assert all(p in (0, g) for p, g in zip(puzzle, grid, strict=True))
    found = REFERENCE.search(shape, puzzle, 2, 1, 0)
    assert found.count == 1
    assert found.solutions[0] == grid
    assert Grid(grid, shape).is_solution(Grid(puzzle, shape))
    nonempty, start = 0, 0
    for end in ends:
        group = order[start:end]
        start = end
        nonempty += 1  # a full grid: every group holds digits when it is reached
        present = [i for i in group if puzzle[i]]
        if present:
            trial = bytearray(puzzle)
            for i in present:
                trial[i] = 0
            assert count(shape, trial) == 2, f"group {group} is still removable"
    assert searches == nonempty


@pytest.mark.parametrize("shape", SHAPES, ids=_id)
@pytest.mark.parametrize("symmetric", [False, True], ids=["groups", "rot180"])
def test_reduce_parity_and_minimality(
    shape: Shape, symmetric: bool, c_engines: list[_backend.Engine]
) -> None:
    seeds = 2 if shape.n == 9 else 6
    for seed in range(seeds):
        rng = random.Random(f"{_id(shape)}-{symmetric}-{seed}")
        grid = random_grid(shape, rng)
        order, ends = random_groups(shape, rng, symmetric=symmetric)
        want = REFERENCE.reduce(shape, grid, order, ends, 0)
        check_reduced(shape, grid, order, ends, want)
        for engine in c_engines:
            assert engine.reduce(shape, grid, order, ends, 0) == want


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 3)], ids=_id)
def test_reduce_search_cap(shape: Shape, c_engines: list[_backend.Engine]) -> None:
    """max_searches stops the pass before a group: later groups untouched, still unique."""
    rng = random.Random(7)
    grid = random_grid(shape, rng)
    order, ends = random_groups(shape, rng, symmetric=False)
    full = REFERENCE.reduce(shape, grid, order, ends, 0)
    for cap in (0, 1, len(ends) // 2):
        want = REFERENCE.reduce(shape, grid, order, ends, 0, cap)
        puzzle, searches, decided, complete = want
        assert (searches, decided, complete) == (cap, True, False)
        assert count(shape, puzzle) == 1
        # The first `cap` groups were decided as in the full pass; the rest are untouched.
        visited = set(order[: ends[cap - 1]]) if cap else set()
        for i in range(shape.ncells):
            assert puzzle[i] == (full[0][i] if i in visited else grid[i])
        for engine in c_engines:
            assert engine.reduce(shape, grid, order, ends, 0, cap) == want
    for engine in [REFERENCE, *c_engines]:
        assert engine.reduce(shape, grid, order, ends, 0, len(ends)) == full
        assert engine.reduce(shape, grid, order, ends, 0, None) == full


def test_reduce_skips_empty_groups_and_repeats(c_engines: list[_backend.Engine]) -> None:
    """Groups without a digit cost no search; a cell listed twice is cleared once."""
    shape = Shape(2, 2)
    rng = random.Random(3)
    grid = random_grid(shape, rng)
    order = [0, 0, 5, 0, 5, 1, 2, 3, 4, *range(6, 16)]
    ends = [0, 2, 2, 5, 6, 7, 8, 9, *range(10, 20)]
    want = REFERENCE.reduce(shape, grid, order, ends, 0)
    for engine in c_engines:
        assert engine.reduce(shape, grid, order, ends, 0) == want
    assert count(shape, want[0]) == 1
    empty = REFERENCE.reduce(shape, bytes(16), [0, 1], [1, 2], 0)
    assert empty == (bytes(16), 0, True, True)


def test_reduce_under_a_guess_budget_stays_unique(c_engines: list[_backend.Engine]) -> None:
    """A search that gives up keeps its group and clears ``decided``; the result is unique."""
    shape = Shape(3, 3)
    rng = random.Random(11)
    grid = random_grid(shape, rng)
    order, ends = random_groups(shape, rng, symmetric=False)
    unbounded = REFERENCE.reduce(shape, grid, order, ends, 0)
    gave_up = 0
    for engine in [REFERENCE, *c_engines]:
        puzzle, searches, decided, complete = engine.reduce(shape, grid, order, ends, 1)
        assert complete
        assert 0 < searches <= len(ends)
        assert count(shape, puzzle) == 1
        if decided:  # every search completed: the same decisions as without a budget
            assert puzzle == unbounded[0]
        gave_up += not decided
    assert gave_up  # the budget of one guess really bites somewhere


def test_reduce_is_reentrant_across_threads(c_engines: list[_backend.Engine]) -> None:
    """Threads sharing one engine and geometry get the sequential results (GIL released)."""
    shape = Shape(3, 3)
    rng = random.Random(5)
    jobs = []
    for _ in range(6):
        grid = random_grid(shape, rng)
        jobs.append((grid, *random_groups(shape, rng, symmetric=False)))
    engine = c_engines[0]
    want = [engine.reduce(shape, g, o, e, 0) for g, o, e in jobs]
    got: list[Any] = [None] * len(jobs)

    def run(k: int) -> None:
        g, o, e = jobs[k]
        got[k] = engine.reduce(shape, g, o, e, 0)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


@pytest.mark.parametrize(
    ("order", "ends", "message"),
    [
        ([0, 81], [1, 2], r"order\[1\] must be in 0..80"),
        ([0, -1], [1, 2], r"order\[1\] must be in 0..80"),
        ([0, 1, 2], [2, 1, 3], "non-decreasing"),
        ([0, 1, 2], [1, 2], "end at len"),
        ([0, 1], [1, 2, 3], "group_ends"),
        ([], [0, 1], "group_ends"),
    ],
)
def test_reduce_refuses_malformed_groups(order: list[int], ends: list[int], message: str) -> None:
    require_c_backend()
    from sudokit import _core
    from sudokit._cengine import geometry

    geo = geometry(Shape(3, 3))
    with pytest.raises(ValueError, match=message):
        _core.reduce(geo, bytes(81), order, ends, 0)
    with pytest.raises(ValueError, match=r"order|group_ends"):
        REFERENCE.reduce(Shape(3, 3), bytes(81), order, ends, 0)


def test_reduce_refuses_malformed_arguments() -> None:
    require_c_backend()
    from sudokit import _core
    from sudokit._cengine import geometry

    geo = geometry(Shape(3, 3))
    with pytest.raises(TypeError, match="takes 5 or 6 arguments"):
        _core.reduce(geo, bytes(81), [0], [1])
    with pytest.raises(TypeError, match="cells must be bytes"):
        _core.reduce(geo, bytearray(81), [0], [1], 0)
    with pytest.raises(ValueError, match="cells must hold 81"):
        _core.reduce(geo, bytes(80), [0], [1], 0)
    with pytest.raises(ValueError, match="cell 3 has value 10"):
        _core.reduce(geo, bytes(3) + bytes([10]) + bytes(77), [0], [1], 0)
    with pytest.raises(TypeError, match="order must be a sequence"):
        _core.reduce(geo, bytes(81), 5, [1], 0)
    with pytest.raises(TypeError, match=r"order\[0\] must be an int"):
        _core.reduce(geo, bytes(81), [1.0], [1], 0)
    with pytest.raises(ValueError, match="budget must be >= 0"):
        _core.reduce(geo, bytes(81), [0], [1], -1)
    with pytest.raises(ValueError, match="max_searches must be >= 0"):
        _core.reduce(geo, bytes(81), [0], [1], 0, -1)
    with pytest.raises(ValueError, match=r"order\[0\] is out of range"):
        _core.reduce(geo, bytes(81), [2**80], [1], 0)
