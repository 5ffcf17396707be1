"""Write tests/data/logic_puzzles.txt: seeded random minimal 9x9 puzzles for the logic tests.

Each puzzle comes from a random full grid (found by the solver on an empty grid with shuffled
first row) by removing clues in random order while the puzzle stays unique. Usage:
``python benchmarks/make_logic_puzzles.py [COUNT] [SEED]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from sudokit import Grid, solve
from sudokit.shape import Shape


def full_grid(rng: random.Random, shape: Shape) -> Grid:
    """A random complete grid: solve a grid seeded with a random first row and relabel."""
    n = shape.n
    row = list(range(1, n + 1))
    rng.shuffle(row)
    cells = row + [0] * (shape.ncells - n)
    sol = solve(Grid(bytes(cells), shape)).solution
    assert sol is not None
    rows = list(range(n))
    # shuffle rows inside bands, keeping validity
    bands = [rows[b : b + shape.box_rows] for b in range(0, n, shape.box_rows)]
    for band in bands:
        rng.shuffle(band)
    order = [r for band in bands for r in band]
    data = bytes(sol.cells[r * n + c] for r in order for c in range(n))
    return Grid(data, shape)


def minimal_puzzle(rng: random.Random, grid: Grid) -> Grid:
    """Remove clues in random order while the puzzle stays unique."""
    cells = bytearray(grid.cells)
    order = list(range(len(cells)))
    rng.shuffle(order)
    for i in order:
        keep = cells[i]
        cells[i] = 0
        if not solve(Grid(bytes(cells), grid.shape)).is_unique:
            cells[i] = keep
    return Grid(bytes(cells), grid.shape)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rng = random.Random(seed)
    shape = Shape(3, 3)
    out = Path(__file__).resolve().parent.parent / "tests" / "data" / "logic_puzzles.txt"
    lines = [str(minimal_puzzle(rng, full_grid(rng, shape))) for _ in range(count)]
    out.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {len(lines)} puzzles to {out}")


if __name__ == "__main__":
    main()
