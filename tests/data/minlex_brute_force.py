"""Check ``sudokit.transform.canonical`` by brute force over the whole 9x9 symmetry group.

    python tests/data/minlex_brute_force.py PUZZLE [PUZZLE ...]

For each puzzle, every one of the 2 x 1296 x 1296 = 3,359,232 maps (transpose or not, a band
and row-in-band order, a stack and column-in-stack order) is applied, the digits are
relabelled in order of first appearance, and the smallest result is kept. It prints the
puzzle, that minimum and whether ``canonical`` agrees. Pure Python, a few minutes per
puzzle: too slow for the test suite, whose ``BRUTE_FORCE_CHECKED`` table it produced.
"""

from __future__ import annotations

import sys
from itertools import permutations

from sudokit.grid import Grid
from sudokit.transform import canonical


def block_orders() -> list[tuple[int, ...]]:
    """The 1296 orders of 0..8 that keep the three blocks of three together."""
    orders = []
    for blocks in permutations(range(3)):
        for a in permutations(range(3)):
            for b in permutations(range(3)):
                for c in permutations(range(3)):
                    inner = (a, b, c)
                    orders.append(
                        tuple(
                            3 * blk + inner[k][i] for k, blk in enumerate(blocks) for i in range(3)
                        )
                    )
    return orders


def brute_force(grid: Grid) -> Grid:
    cells = grid.cells
    rows = [cells[r * 9 : r * 9 + 9] for r in range(9)]
    columns = [bytes(cells[c::9]) for c in range(9)]
    orders = block_orders()
    best: bytes | None = None
    for lines in (rows, columns):
        for row_order in orders:
            ordered = [lines[r] for r in row_order]
            for col_order in orders:
                labels = [0] * 10
                nxt = 1
                out = bytearray()
                for line in ordered:
                    for c in col_order:
                        v = line[c]
                        if v and not labels[v]:
                            labels[v] = nxt
                            nxt += 1
                        out.append(labels[v])
                if best is None or out < best:
                    best = bytes(out)
    assert best is not None
    return Grid(best, grid.shape)


if __name__ == "__main__":
    for text in sys.argv[1:]:
        g = Grid.parse(text)
        form = brute_force(g)
        print(text, form, "agrees" if canonical(g) == form else "DISAGREES", flush=True)
