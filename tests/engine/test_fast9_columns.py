"""The 9x9 fast path's column rules (csrc/sk_fast9.c, columns()): hidden singles in columns.

The fast path is asymmetric (band bitboards: rows and boxes inside a band are handled by one
table lookup, columns separately), so these tests hold it to orientation-free contracts:

- a puzzle that naked and hidden singles alone solve (in rows, columns and boxes, checked by
  a small independent solver here) is solved without a guess, and so is its transpose;
- exact counts of under-constrained puzzles (many solutions) agree with the generic C path and
  do not change under transposition.
"""

from __future__ import annotations

import random

import pytest

from sudokit.grid import Grid
from sudokit.shape import Shape
from support import read_puzzles, require_c_backend

SHAPE = Shape(3, 3)
UNITS = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [
        [(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)]
        for br in range(3)
        for bc in range(3)
    ]
)
PEERS = [{p for u in UNITS if i in u for p in u} - {i} for i in range(81)]


def singles_solve(cells: bytes) -> bytes | None:
    """The solution when naked and hidden singles (rows, columns, boxes) alone reach it."""
    grid = list(cells)
    while 0 in grid:
        cands = [
            set(range(1, 10)) - {grid[p] for p in PEERS[i]} if not grid[i] else set()
            for i in range(81)
        ]
        moves = {i: next(iter(c)) for i, c in enumerate(cands) if len(c) == 1}
        for unit in UNITS:
            for d in range(1, 10):
                where = [i for i in unit if d in cands[i]]
                if len(where) == 1 and d not in (grid[i] for i in unit):
                    moves.setdefault(where[0], d)
        if not moves:
            return None
        for i, d in moves.items():
            grid[i] = d
    return bytes(grid)


def transpose(cells: bytes) -> bytes:
    return bytes(cells[c * 9 + r] for r in range(9) for c in range(9))


def singles_puzzles(count: int, seed: int) -> list[bytes]:
    """Puzzles carved from benchmark solutions, as sparse as singles alone still solve."""
    from sudokit import _backend

    rng = random.Random(seed)
    engine = _backend.get_engine("c")
    out = []
    for line in read_puzzles("top95.txt", count):
        solution = engine.search(SHAPE, Grid.parse(line).cells, 1, 1, 0).solutions[0]
        cells = bytearray(solution)
        for i in rng.sample(range(81), 81):
            keep = cells[i]
            cells[i] = 0
            if singles_solve(bytes(cells)) != solution:
                cells[i] = keep
        out.append(bytes(cells))
    return out


def test_singles_puzzles_need_no_guess() -> None:
    require_c_backend()
    from sudokit._cengine import CEngine

    fast = CEngine()
    for cells in singles_puzzles(12, 15):
        want = singles_solve(cells)
        for puzzle, solution in ((cells, want), (transpose(cells), transpose(want or b""))):
            found = fast.search(SHAPE, puzzle, 2, 1, 0)
            assert found.count == 1
            assert found.solutions[0] == solution
            assert found.guesses == 0


@pytest.mark.parametrize("seed", range(3))
def test_exact_counts_agree_under_transposition(seed: int) -> None:
    """Sparse carvings (many solutions): exact counts, fast path = generic path = transpose."""
    require_c_backend()
    from sudokit._cengine import CEngine

    fast, generic = CEngine(), CEngine(generic=True)
    rng = random.Random(seed)
    limit = 400
    for line in read_puzzles("top95.txt", 8)[seed::3]:
        solution = fast.search(SHAPE, Grid.parse(line).cells, 1, 1, 0).solutions[0]
        cells = bytearray(solution)
        for i in rng.sample(range(81), rng.randint(52, 58)):
            cells[i] = 0
        puzzle = bytes(cells)
        a = fast.search(SHAPE, puzzle, limit, 0, 0)
        b = generic.search(SHAPE, puzzle, limit, 0, 0)
        t = fast.search(SHAPE, transpose(puzzle), limit, 0, 0)
        assert a.complete
        assert b.complete
        assert t.complete
        assert a.count == b.count == t.count >= 1
