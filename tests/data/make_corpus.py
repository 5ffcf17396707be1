"""Regenerate tests/data/corpus.txt (run from the repository root):

    python tests/data/make_corpus.py > tests/data/corpus.txt

Honest means only: 9x9 puzzles are taken from the public benchmark sets in ../shared/data
(the first lines of easy50, top95, hardest, forum_hardest_1106 and serg) when that directory
is there, plus the well-known 12-solution puzzle; every other fixture is made here with a
fixed seed: a solved grid is searched by the reference solver from a random first row, shuffled
by a random isomorph, and clues are removed in random order while the reference solver proves
the puzzle still has one solution (up to a per-size number of blanks, so the large sizes stay
fast). Unsolvable fixtures add one wrong but non-conflicting clue to a unique puzzle; invalid
ones repeat a digit in a row. Every solution is checked with ``Grid.is_solution`` and every
count is re-counted before a line is written; the counts come from the reference solver and
the test suite checks them against every engine.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

from sudokit import _reference
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.transform import random_isomorph

#: the benchmark sets: $SUDOKIT_DATA, else ../shared/data (as in tests/support/__init__.py)
DATA = Path(os.environ.get("SUDOKIT_DATA") or Path(__file__).resolve().parents[3] / "shared/data")
TWELVE = "...456789679813245548927136...594678857361492964782513...648957796135824485279361"
HEADER = """\
# sudokit test corpus: one puzzle per line, data first.
#
#   [option;]...puzzle:count:solution
#
# options (zero or more, each ending in ';'):
#   box=RxC     the box shape (default: the most square boxes for the size, rows <= columns)
#   x           Sudoku-X: both main diagonals are units too
#   jigsaw=MAP  irregular regions replace the boxes: one symbol per cell, row by row
#               (regions numbered in order of first appearance, as Shape.jigsaw reads them)
# puzzle    the line format of Grid.parse: one symbol per cell, '.' for a blank
# count     the exact number of solutions (0 when unsolvable or when the givens conflict)
# solution  the solution when count is 1, else empty
# A puzzle whose givens conflict (Grid.conflicts() is not empty) is an "invalid" case.
# Blank lines and lines starting with '#' are ignored.
# Regenerate (reference solver, fixed seed, takes a minute or two):
#   python tests/data/make_corpus.py > tests/data/corpus.txt
"""


def count(grid: Grid, limit: int = 2) -> tuple[int, list[bytes]]:
    n, sols, _guesses, complete = _reference.search(grid.shape, grid.cells, limit, limit, 0)
    assert complete
    return n, sols


def solved(shape: Shape, rng: random.Random) -> Grid:
    """A random solved grid of *shape*."""
    first = list(range(1, shape.n + 1))
    rng.shuffle(first)
    start = Grid(bytes(first) + bytes(shape.ncells - shape.n), shape)
    n, sols = count(start, 1)
    assert n == 1, f"no solution for {shape!r}"
    grid = random_isomorph(Grid(sols[0], shape), rng)
    assert grid.is_solution()
    return grid


def carve(solution: Grid, rng: random.Random, max_blanks: int) -> Grid:
    """Remove clues in random order while the puzzle keeps one solution."""
    cells = bytearray(solution.cells)
    order = list(range(solution.shape.ncells))
    rng.shuffle(order)
    blanks = 0
    for i in order:
        if blanks >= max_blanks:
            break
        keep = cells[i]
        cells[i] = 0
        if count(Grid(bytes(cells), solution.shape))[0] == 1:
            blanks += 1
        else:
            cells[i] = keep
    return Grid(bytes(cells), solution.shape)


def jigsaw_map(n: int, box_rows: int, box_cols: int, rng: random.Random, swaps: int) -> str:
    """An irregular region map: standard boxes with random boundary cells traded between
    neighbouring regions, keeping every region connected and a solution possible."""
    base = Shape(box_rows, box_cols)
    regions = list(base.box_of)

    def connected(region: int) -> bool:
        cells = [i for i in range(n * n) if regions[i] == region]
        seen = {cells[0]}
        todo = [cells[0]]
        while todo:
            r, c = divmod(todo.pop(), n)
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                j = rr * n + cc
                if 0 <= rr < n and 0 <= cc < n and regions[j] == region and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return len(seen) == n

    done = 0
    while done < swaps:
        a = rng.randrange(n * n)
        r, c = divmod(a, n)
        nbrs = [rr * n + cc for rr, cc in ((r + 1, c), (r, c + 1)) if rr < n and cc < n]
        b = rng.choice(nbrs)
        if regions[a] == regions[b]:
            continue
        # trade a (region A) and some cell of region B adjacent to region A, the other way
        ra, rb = regions[a], regions[b]
        back = [
            j
            for j in range(n * n)
            if regions[j] == rb and j != b and any(regions[k] == ra for k in _adjacent(j, n))
        ]
        if not back:
            continue
        d = rng.choice(back)
        old = regions.copy()
        regions[a], regions[d] = rb, ra
        shape = Shape(box_rows, box_cols, regions=regions)
        if (
            connected(ra)
            and connected(rb)
            and _reference.search(shape, bytes(n * n), 1, 0, 20000)[0] == 1
        ):
            done += 1
        else:
            regions = old
    return "".join("ABCDEFGHIJKLMNOP"[x] for x in regions)


def _adjacent(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    return [
        rr * n + cc
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
        if 0 <= rr < n and 0 <= cc < n
    ]


def line(prefix: str, puzzle: Grid, limit: int = 1000) -> str:
    """The fixture line of *puzzle*, counted and checked here."""
    n, sols = count(puzzle, limit)
    assert n < limit, "counts in the corpus are exact"
    for s in sols:
        assert Grid(s, puzzle.shape).is_solution(puzzle)
    solution = str(Grid(sols[0], puzzle.shape)) if n == 1 else ""
    return f"{prefix}{puzzle}:{n}:{solution}"


def first_line(name: str) -> str | None:
    path = DATA / name
    if not path.exists():
        return None
    return path.read_text().splitlines()[0].strip()


def main() -> None:
    rng = random.Random(20261121)
    out = sys.stdout
    print(HEADER.rstrip(), file=out)

    print("\n# 9x9 from the public benchmark sets", file=out)
    for label, name in [
        ("easy", "easy50.txt"),
        ("hard", "top95.txt"),
        ("hardest", "hardest.txt"),
        ("forum-hardest", "forum_hardest_1106.txt"),
        ("serg multiple", "serg.txt"),
    ]:
        text = first_line(name)
        if text is not None:
            print(f"# {label} ({name}, line 1)", file=out)
            print(line("", Grid.parse(text)), file=out)
    print("# the 12-solution puzzle", file=out)
    print(line("", Grid.parse(TWELVE)), file=out)

    print(
        "\n# generated: a unique puzzle, an unsolvable and an invalid variant per shape", file=out
    )
    specs: list[tuple[str, Shape, int]] = [
        ("", Shape(1, 1), 1),
        ("", Shape(1, 2), 4),
        ("", Shape(2, 2), 16),
        ("box=1x4;", Shape(1, 4), 16),
        ("", Shape(2, 3), 36),
        ("box=3x2;", Shape(3, 2), 36),
        ("", Shape(2, 4), 64),
        ("box=4x2;", Shape(4, 2), 64),
        ("", Shape(3, 3), 81),
        ("", Shape(2, 5), 100),
        ("", Shape(3, 4), 80),
        ("", Shape(4, 4), 110),
        ("", Shape(5, 5), 120),
        ("x;", Shape(3, 3, diagonals=True), 81),
        ("x;", Shape(2, 2, diagonals=True), 16),
        ("x;", Shape(2, 3, diagonals=True), 36),
    ]
    for size, rows, cols, swaps in [(6, 2, 3, 4), (9, 3, 3, 10)]:
        regions = jigsaw_map(size, rows, cols, rng, swaps)
        specs.append((f"jigsaw={regions};", Shape.jigsaw(regions), size * size))
    for prefix, shape, max_blanks in specs:
        sol = solved(shape, rng)
        puzzle = carve(sol, rng, max_blanks)
        print(f"# {shape.n}x{shape.n} {shape.variant} {shape.box_spec}", file=out)
        print(line(prefix, puzzle), file=out)
        if shape.n < 4:
            continue
        blanks = [i for i in range(shape.ncells) if not puzzle.cells[i]]
        for i in blanks:  # a wrong clue that conflicts with no given
            wrong = [d for d in range(1, shape.n + 1) if d != sol.cells[i]]
            rng.shuffle(wrong)
            for d in wrong:
                bad = puzzle.replace(i, d)
                if not bad.conflicts():
                    break
            else:
                continue
            print(line(prefix, bad), file=out)
            break
        row0 = [i for i in range(shape.n) if puzzle.cells[i]]
        if row0:
            j = next(i for i in range(shape.n) if i != row0[0])
            print(line(prefix, puzzle.replace(j, puzzle.cells[row0[0]])), file=out)

    print("\n# multiple solutions: small counts, exact", file=out)
    for shape, blanks in [(Shape(2, 2), 12), (Shape(2, 3), 24), (Shape(3, 3), 48)]:
        sol = solved(shape, rng)
        while True:
            cells = bytearray(sol.cells)
            for i in rng.sample(range(shape.ncells), blanks):
                cells[i] = 0
            g = Grid(bytes(cells), shape)
            n, _ = count(g, 50)
            if 2 <= n < 50:
                print(line("box=" + shape.box_spec + ";", g), file=out)
                break


if __name__ == "__main__":
    main()
