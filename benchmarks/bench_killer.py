"""Killer Sudoku search benchmark: the C core against OR-Tools CP-SAT on the same puzzles.

    python benchmarks/bench_killer.py [--data tests/data/killers9.txt] [--cpsat 100]
                                      [--runs 3] [--out DIR | --no-write]
    python benchmarks/bench_killer.py --make-data tests/data/killers9.txt [--count 300] [--seed 1]

For every puzzle of the data file (zero-given 9x9 killers with their solutions, format at the
file's top), "solve + prove unique" is one search counting up to 2 solutions:

* sudokit's C core (``sudokit._core.search``, limit 2), CPU time of this thread; reported with
  and without building the puzzle's geometry (each killer is its own shape: its cages are
  part of the shape, so a caller pays one geometry build per puzzle, cached afterwards);
* the public API: ``sudokit.count_solutions(grid, limit=2)`` on a fresh ``Grid`` per puzzle;
* CP-SAT (ortools, one worker): a model of the same puzzle (AllDifferent on rows, columns,
  boxes and cages, a linear sum per cage), solved with every solution enumerated up to 2;
  model building included, as a caller of CP-SAT would pay it.

Every answer is checked: the count must be 1 and the solution the published one, for both.
``--make-data`` writes the data file: sudokit's own generated killers (no public collection
with a usable licence was found; the file's header says so), each checked unique.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import sudokit
from sudokit import _core
from sudokit._cengine import geometry
from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.shape import Shape

ROOT = Path(__file__).resolve().parent.parent
NINE = Shape(3, 3)
#: Cage sizes of the generated killers and their weights (published 9x9 killers: mostly 2-4).
SIZES = ((2, 30), (3, 35), (4, 25), (5, 10))


def read_killers(path: Path) -> list[tuple[Grid, bytes]]:
    """The (puzzle, solution) pairs of a data file: ``#`` comment lines, then one JSON object a
    line: ``{"puzzle": 81 symbols, "solution": 81 digits, "cages": [{"sum": s, "cells": [...]}]}``
    (cells row-major from 0, the JSON puzzle format of issue 12)."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        item = json.loads(line)
        cages = [Cage(c["cells"], c.get("sum")) for c in item["cages"]]
        shape = Shape(3, 3, constraints=Constraints(cages=cages))
        puzzle = Grid(bytes(0 if ch == "." else int(ch) for ch in item["puzzle"]), shape)
        out.append((puzzle, bytes(int(ch) for ch in item["solution"])))
    return out


def _layout(sol: bytes, rng: random.Random) -> list[Cage]:
    """Random connected cages covering the grid, digits distinct in *sol*, sums from *sol*."""
    n = 9
    free = set(range(81))
    order = list(range(81))
    rng.shuffle(order)
    sizes, weights = zip(*SIZES, strict=True)
    cages = []
    for start in order:
        if start not in free:
            continue
        cage = [start]
        free.discard(start)
        size = rng.choices(sizes, weights)[0]
        while len(cage) < size:
            digits = {sol[i] for i in cage}
            grow = [
                j
                for i in cage
                for j in (i - 1, i + 1, i - n, i + n)
                if j in free and (j // n == i // n or abs(j - i) == n) and sol[j] not in digits
            ]
            if not grow:
                break
            j = rng.choice(grow)
            cage.append(j)
            free.discard(j)
        cages.append(Cage(cage, sum(sol[i] for i in cage)))
    return cages


def make_killers(count: int, seed: int) -> list[tuple[Shape, bytes]]:
    """*count* unique zero-given killers: a random full grid, random cage layouts until one
    pins the grid down (checked with the C core, limit 2)."""
    rng = random.Random(seed)
    out: list[tuple[Shape, bytes]] = []
    while len(out) < count:
        cells = bytearray(81)
        cells[rng.randrange(81)] = rng.randint(1, 9)
        perm = list(range(1, 10))
        rng.shuffle(perm)
        sol = _core.search(geometry(NINE), bytes(cells), 1, 1, 0)[1][0]
        sol = bytes(perm[d - 1] for d in sol)
        for _ in range(200):
            shape = Shape(3, 3, constraints=Constraints(cages=_layout(sol, rng)))
            geo = _core.Geometry(9, shape.units, **_rules(shape))
            found = _core.search(geo, bytes(81), 2, 1, 200_000)
            if found[0] == 1 and found[3]:
                assert found[1][0] == sol
                out.append((shape, sol))
                break
    return out


def _rules(shape: Shape) -> dict[str, Any]:
    rules = shape.constraints
    assert rules is not None
    return {
        "different": rules.different_pairs(9),
        "cages": [(c.cells, c.total) for c in rules.cages],
    }


def write_killers(path: Path, killers: list[tuple[Shape, bytes]], seed: int) -> None:
    lines = [
        "# 9x9 zero-given killer sudokus with their solutions, one JSON object a line.",
        "# Source: generated by sudokit itself (benchmarks/bench_killer.py --make-data"
        f" --count {len(killers)} --seed {seed});",
        "# no public killer collection with solutions under a licence that allows copying was",
        "# found (the ones seen were scraped from copyrighted newspaper/website puzzles).",
        "# Licence: the project's own. Each puzzle was checked unique by the C core (limit 2).",
        '# Format: {"puzzle": 81 symbols (. = empty), "solution": 81 digits,',
        '#          "cages": [{"sum": s, "cells": [row-major indices from 0]}, ...]}',
    ]
    for shape, sol in killers:
        assert shape.constraints is not None
        cages = [{"sum": c.total, "cells": list(c.cells)} for c in shape.constraints.cages]
        item = {"puzzle": "." * 81, "solution": "".join(map(str, sol)), "cages": cages}
        lines.append(json.dumps(item, separators=(",", ":")))
    path.write_text("\n".join(lines) + "\n")


def time_c(killers: list[tuple[Grid, bytes]], runs: int) -> dict[str, float]:
    """Median over runs of the mean CPU µs a puzzle: geometry + search, search alone, API."""
    totals: dict[str, list[float]] = {"build+search": [], "search": [], "api": []}
    for _ in range(runs):
        build = search = api = 0.0
        for puzzle, sol in killers:
            shape = puzzle.shape
            rules = shape.constraints
            assert rules is not None
            t0 = time.thread_time()
            geo = _core.Geometry(
                9,
                shape.units,
                different=rules.different_pairs(9),
                cages=[(c.cells, c.total) for c in rules.cages],
            )
            t1 = time.thread_time()
            count, sols, _, complete = _core.search(geo, puzzle.cells, 2, 1, 0)
            t2 = time.thread_time()
            assert complete
            assert count == 1
            assert sols[0] == sol
            build += t1 - t0
            search += t2 - t1
            fresh = Grid(puzzle.cells, shape)
            t3 = time.thread_time()
            assert sudokit.count_solutions(fresh, limit=2) == 1
            api += time.thread_time() - t3
        k = len(killers)
        totals["build+search"].append((build + search) / k * 1e6)
        totals["search"].append(search / k * 1e6)
        totals["api"].append(api / k * 1e6)
    return {name: statistics.median(v) for name, v in totals.items()}


def cpsat_count(puzzle: Grid, limit: int = 2) -> list[bytes]:
    """Solutions (up to *limit*) of a killer by CP-SAT, model building included."""
    from ortools.sat.python import cp_model

    shape = puzzle.shape
    model = cp_model.CpModel()
    x = [model.NewIntVar(1, 9, f"c{i}") for i in range(81)]
    for unit in shape.units:
        model.AddAllDifferent([x[i] for i in unit])
    assert shape.constraints is not None
    for cage in shape.constraints.cages:
        model.AddAllDifferent([x[i] for i in cage.cells])
        if cage.total is not None:
            model.Add(sum(x[i] for i in cage.cells) == cage.total)
    for i, d in enumerate(puzzle.cells):
        if d:
            model.Add(x[i] == d)
    found: list[bytes] = []

    class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def on_solution_callback(self) -> None:
            found.append(bytes(self.Value(v) for v in x))
            if len(found) >= limit:
                self.StopSearch()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.Solve(model, Collect())
    return found


def time_cpsat(killers: list[tuple[Grid, bytes]]) -> float:
    """Mean CPU µs a puzzle of CP-SAT (solve + prove unique), every answer checked."""
    t0 = time.process_time()  # CP-SAT may use helper threads: count the whole process
    for puzzle, sol in killers:
        assert cpsat_count(puzzle) == [sol]
    return (time.process_time() - t0) / len(killers) * 1e6


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=str(ROOT / "tests" / "data" / "killers9.txt"))
    p.add_argument("--make-data", metavar="PATH", help="write generated killers to PATH, then stop")
    p.add_argument("--count", type=int, default=300, help="killers to generate (--make-data)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cpsat", type=int, default=100, help="puzzles timed with CP-SAT (0: none)")
    p.add_argument("--runs", type=int, default=3, help="timed passes of the C figures (median)")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)

    if args.make_data:
        t0 = time.process_time()
        killers = make_killers(args.count, args.seed)
        spent = time.process_time() - t0
        write_killers(Path(args.make_data), killers, args.seed)
        print(f"wrote {len(killers)} killers to {args.make_data} ({spent:.1f} s CPU)")
        return 0

    killers = read_killers(Path(args.data))
    c = time_c(killers, args.runs)
    result: dict[str, Any] = {
        "date": _dt.date.today().isoformat(),
        "commit": _commit(),
        "machine": platform.machine(),
        "python": sys.version.split()[0],
        "compiler": _core.COMPILER,
        "flags": _core.BUILD_FLAGS,
        "puzzles": len(killers),
        "data": str(Path(args.data).relative_to(ROOT))
        if ROOT in Path(args.data).parents
        else args.data,
        "c_us": c,
    }
    lines = [
        f"# Killer Sudoku: solve + prove unique (limit 2), {len(killers)} zero-given 9x9 killers",
        "",
        f"commit {result['commit']}, {result['date']}, {platform.platform()}, {_core.COMPILER}, "
        f"flags `{_core.BUILD_FLAGS}`, Python {result['python']}; CPU time of one thread, "
        f"median of {args.runs} passes",
        "",
        "| engine | µs a puzzle |",
        "|---|---:|",
        f"| C core, search only (`_core.search`, limit 2) | {c['search']:.1f} |",
        f"| C core, geometry build + search | {c['build+search']:.1f} |",
        f"| public API (`count_solutions(grid, limit=2)`, fresh Grid) | {c['api']:.1f} |",
    ]
    if args.cpsat:
        try:
            import ortools  # noqa: F401
        except ImportError:
            print("ortools not installed: CP-SAT skipped", file=sys.stderr)
        else:
            sample = killers[: args.cpsat]
            cp = time_cpsat(sample)
            result["cpsat_us"] = cp
            result["cpsat_puzzles"] = len(sample)
            result["ratio_cpsat_over_c_build_search"] = cp / c["build+search"]
            result["ratio_cpsat_over_api"] = cp / c["api"]
            lines += [
                f"| OR-Tools CP-SAT {ortools_version()} (1 worker, model build + enumerate to 2; "
                f"first {len(sample)} puzzles, process CPU) | {cp:.0f} |",
                "",
                f"CP-SAT / C core (build + search): **{cp / c['build+search']:.0f}x**; "
                f"CP-SAT / public API: **{cp / c['api']:.0f}x** (target: >= 10x).",
            ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "killer.md").write_text(text)
        (out / "killer.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


def ortools_version() -> str:
    import ortools

    return str(getattr(ortools, "__version__", "?"))


if __name__ == "__main__":
    raise SystemExit(main())
