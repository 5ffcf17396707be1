"""Bounded-work campaign: random puzzles of random sizes under the default guess bound.

    PYTHONPATH=src python benchmarks/campaigns/bounded.py [--puzzles 1000] [--seed 1]

Every puzzle (a box shape of 4x4..25x25, both orientations, 0-60% of its cells given) is one
of three kinds, in turn:

* ``from-solution``: givens taken from a random solution grid (a solved empty grid with its
  digits relabelled and its rows, bands, columns and stacks shuffled), so it has a solution;
* ``clash-free``: random digits placed where they clash with no given (often no solution,
  and the searches that thrash on a hidden contradiction before they see it);
* ``raw``: random digits anywhere (mostly ``invalid``).

Each goes through ``sudokit.solve`` (limit 2) and ``sudokit.count_solutions(limit=10)`` with
the default bound (``--budget N``: that bound instead, small enough for the searches to reach
it, so that the gave-up paths are checked too), and the answers are checked:

* a solution given (``unique``, ``solved``, ``multiple``, ``gave-up`` with one) passes
  ``Grid.is_solution`` of the puzzle;
* ``complete`` False must show: status ``gave-up`` (or ``multiple`` with two found), an
  ``error`` naming the bound; a complete ``unique`` has count 1, ``multiple`` 2, ``none`` 0;
  ``invalid`` exactly when the givens clash (an independent check of the units);
  a ``from-solution`` puzzle is never ``none`` / ``invalid``;
* ``count_solutions`` returns a count (exact below 10, 10 meaning "at least 10") only when
  its search finished, else raises ``BudgetExceededError``; a count agrees with the solve
  status (``unique`` 1, ``none``/``invalid`` 0, ``multiple`` >= 2);
* up to 9x9, both are compared with an independent count by the pure-Python reference engine
  (``sudokit._reference.search``, limit 10, its own bound of ``--ref-budget`` guesses; a
  reference search that does not finish leaves that puzzle unchecked, and is counted).

Prints the failures, then a table per size; exit code 1 when any answer failed.
A campaign tool, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from typing import Any

import sudokit
from sudokit import BudgetExceededError, Grid, Shape, Status
from sudokit._reference import search as reference_search

#: Box shapes (rows, columns) of the sizes 4..25 that have one, both orientations.
SHAPES = sorted(
    {(r, c) for n in range(4, 26) for r in range(2, n) for c in (n // r,) if r * c == n and c >= 2}
)
KINDS = ("from-solution", "clash-free", "raw")


def random_solution(shape: Shape, rng: random.Random) -> list[int]:
    """A random solution grid of *shape*: one solution, relabelled and shuffled."""
    n, rows, cols = shape.n, shape.box_rows, shape.box_cols
    found = sudokit.solve(Grid(bytes(shape.ncells), shape), limit=1).solution
    assert found is not None
    cells = list(found.cells)
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    bands = rng.sample(range(n // rows), n // rows)
    row_order = [b * rows + r for b in bands for r in rng.sample(range(rows), rows)]
    stacks = rng.sample(range(n // cols), n // cols)
    col_order = [s * cols + c for s in stacks for c in rng.sample(range(cols), cols)]
    return [labels[cells[r * n + c] - 1] for r in row_order for c in col_order]


def clashes(shape: Shape, cells: list[int] | bytes) -> bool:
    """Whether a digit repeats in a row, column or box (read from the geometry only)."""
    n, rows, cols = shape.n, shape.box_rows, shape.box_cols
    units: list[list[int]] = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(br + r) * n + bc + c for r in range(rows) for c in range(cols)]
        for br in range(0, n, rows)
        for bc in range(0, n, cols)
    ]
    for unit in units:
        digits = [cells[i] for i in unit if cells[i]]
        if len(digits) != len(set(digits)):
            return True
    return False


def make_puzzle(kind: str, shape: Shape, share: float, rng: random.Random) -> bytes:
    """A puzzle of *kind* with about *share* of its cells given."""
    n, count = shape.n, shape.ncells
    chosen = rng.sample(range(count), round(share * count))
    cells = [0] * count
    if kind == "from-solution":
        solution = random_solution(shape, rng)
        for i in chosen:
            cells[i] = solution[i]
    elif kind == "raw":
        for i in chosen:
            cells[i] = rng.randint(1, n)
    else:
        for i in chosen:
            digit = rng.randint(1, n)
            cells[i] = digit
            if clashes(shape, cells):  # slow but plain: the puzzles are few
                cells[i] = 0
    return bytes(cells)


def check(
    kind: str, shape: Shape, cells: bytes, ref_budget: int, budget: int | None = None
) -> tuple[list[str], dict[str, Any]]:
    """The problems found with the answers for one puzzle, and what was seen."""
    grid = Grid(cells, shape)
    problems: list[str] = []
    start = time.process_time()
    result = sudokit.solve(grid, budget=budget)
    try:
        counted: int | None = sudokit.count_solutions(grid, limit=10, budget=budget)
    except BudgetExceededError:
        counted = None
    seen: dict[str, Any] = {
        "status": result.status.value,
        "complete": result.complete,
        "counted": counted,
    }
    seen["cpu"] = time.process_time() - start
    if result.solution is not None and not result.solution.is_solution(grid):
        problems.append(f"solve: {result.status.value} solution is not a solution")
    if result.status in (Status.UNIQUE, Status.SOLVED) and result.solution is None:
        problems.append(f"solve: {result.status.value} without a solution")
    if not result.complete:
        two_found = result.status is Status.MULTIPLE and result.count >= 2
        if result.status is not Status.GAVE_UP and not two_found:
            status, count = result.status.value, result.count
            problems.append(f"solve: incomplete but status {status}, count {count}")
        if not result.error:
            problems.append("solve: incomplete without an error naming the bound")
    else:
        want = {Status.UNIQUE: 1, Status.MULTIPLE: 2, Status.NONE: 0, Status.INVALID: 0}
        if result.status is Status.GAVE_UP:
            problems.append("solve: gave-up but complete")
        elif result.status in want and result.count != want[result.status]:
            problems.append(f"solve: {result.status.value} with count {result.count}")
    clash = clashes(shape, cells)
    if (result.status is Status.INVALID) != clash:
        problems.append(f"solve: status {result.status.value}, givens clash: {clash}")
    if kind == "from-solution" and result.status in (Status.NONE, Status.INVALID):
        problems.append(f"solve: {result.status.value} for a puzzle that has a solution")
    if counted is not None and result.complete:
        expect = {Status.UNIQUE: (1, 1), Status.NONE: (0, 0), Status.INVALID: (0, 0)}
        low, high = expect.get(result.status, (2, 10))
        if not low <= counted <= high:
            problems.append(f"count {counted} against solve status {result.status.value}")
    if counted is not None and result.status is Status.MULTIPLE and counted < 2:
        problems.append(f"count {counted} against solve status multiple")
    if shape.n <= 9:
        ref_count, _, _, ref_complete = reference_search(shape, cells, 10, 0, ref_budget)
        seen["reference"] = ref_count if ref_complete else None
        if ref_complete:
            if counted is not None and counted != ref_count:
                problems.append(f"count {counted}, reference {ref_count}")
            judged = result.complete and result.status is not Status.INVALID
            if judged and min(result.count, 2) != min(ref_count, 2):
                problems.append(f"solve {result.status.value}, reference count {ref_count}")
        elif counted is not None and counted < 10:
            problems.append(f"count {counted} exact, reference did not finish")
    return problems, seen


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ref-budget", type=int, default=200_000, help="reference's guesses")
    parser.add_argument(
        "--budget", type=int, default=None, help="guess bound of both calls (default: theirs)"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    by_size: dict[int, Counter[str]] = defaultdict(Counter)
    statuses: Counter[str] = Counter()
    failures = 0
    started = time.monotonic()
    for i in range(args.puzzles):
        kind = KINDS[i % len(KINDS)]
        shape = Shape(*rng.choice(SHAPES))
        share = rng.uniform(0, 0.6)
        cells = make_puzzle(kind, shape, share, rng)
        problems, seen = check(kind, shape, cells, args.ref_budget, args.budget)
        row = by_size[shape.n]
        row["puzzles"] += 1
        row["incomplete solve"] += not seen["complete"]
        row["count gave up"] += seen["counted"] is None
        row["reference checked"] += seen.get("reference") is not None
        row["reference unfinished"] += shape.n <= 9 and seen.get("reference") is None
        row["failures"] += bool(problems)
        row["cpu_ms"] += round(1000 * seen["cpu"])
        statuses[f"{seen['status']}{'' if seen['complete'] else ' (incomplete)'}"] += 1
        if problems:
            failures += 1
            print(f"FAIL {i + 1} {kind} {shape} {share:.2f}: {'; '.join(problems)}")
            print(f"     {Grid(cells, shape)!r}")
    columns = ["puzzles", "incomplete solve", "count gave up", "reference checked",
               "reference unfinished", "failures", "cpu_ms"]  # fmt: skip
    bound = "the default bound" if args.budget is None else f"budget {args.budget}"
    elapsed = time.monotonic() - started
    print(f"\n{args.puzzles} puzzles in {elapsed:.0f} s, seed {args.seed}, {bound}")
    print("size | " + " | ".join(columns))
    for n in sorted(by_size):
        print(f"{n}x{n} | " + " | ".join(str(by_size[n][c]) for c in columns))
    total = Counter[str]()
    for row in by_size.values():
        total.update(row)
    print("all | " + " | ".join(str(total[c]) for c in columns))
    print("statuses:", dict(sorted(statuses.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
