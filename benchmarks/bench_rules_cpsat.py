"""Every rule kind: sudokit against OR-Tools CP-SAT on the same 9x9 puzzles.

    python benchmarks/bench_rules_cpsat.py [--kinds arrow renban ...] [--puzzles N]
                                           [--seed S] [--budget G] [--out DIR | --no-write]

For each kind of ``sudokit.rules.KINDS``, *N* 9x9 puzzles are built from solved grids
(``tests/support/rule_instances.py``): the kind's clues read off the grid (a board-wide rule
such as knightmare: the rule alone, the grid searched under it), then givens from the grid
added in a random order (three at a time) until the puzzle is unique, and with ``--reduce``
removed again while it stays unique (uniqueness decided by CP-SAT, so building never waits
on the engine measured); the older Constraints fields of ``FIELDS`` (kropki, XV,
thermometers, a mix) take ``sudokit.generate``'s puzzles instead (reduced the same way). Then
"solve + prove unique" is timed on each puzzle, CPU time:

* sudokit: ``sudokit.solve(Grid(cells, shape), limit=2)`` (whichever backend is loaded:
  ``SUDOKIT_BACKEND=python`` for the pure-Python reference; the table says which);
* CP-SAT (one worker): model build + enumerate up to 2 solutions (``tests/support/
  variants.py``, the oracle's model), process CPU time.

Both answers are checked (unique, the grid the clues came from). The table gives the mean and
the worst of each and the ratio of the means (CP-SAT / sudokit, over the puzzles sudokit
finished within its guess budget; above 1: sudokit is faster);
it is written to ``benchmarks/results/<date>-<commit>-bench_rules_cpsat.md`` (and ``.json``).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import platform
import random
import statistics
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

import sudokit
from _commit import code_commit, write_result
from sudokit.constraints import Constraints
from sudokit.errors import BudgetExceededError
from sudokit.grid import Grid
from sudokit.rules import KINDS
from sudokit.shape import Shape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.rule_instances import GLOBAL, clues, global_rule, plain_grid, solved_grid  # noqa: E402
from support.variants import cpsat_solutions  # noqa: E402

BOX = (3, 3)
#: Clues a puzzle gets, by kind (a board-wide rule is one rule).
CLUES: dict[str, int] = {
    "difference": 14, "ratio": 10, "pairsum": 14, "minimum": 3, "maximum": 3, "clone": 4,
    "columnindexer": 4, "rowindexer": 4, "boxindexer": 4, "quadruple": 8, "extraregion": 3,
    "sandwich": 8, "xsum": 8, "skyscraper": 8, "littlekiller": 8,
}  # fmt: skip
LINES = 8
#: The speed target: CP-SAT mean / sudokit mean at least this (and the worst case below).
TARGET = 10.0
#: The older rules, Constraints fields rather than rule kinds: the generator's options
#: (``sudokit.generate``: every dot / X / V of the solution with the negative rule, a few
#: thermometers), named as the kinds are.
FIELDS: dict[str, dict[str, bool]] = {
    "kropki": {"kropki": True},
    "xv": {"xv": True},
    "thermo": {"thermo": True},
    "thermo+kropki+antiknight": {"thermo": True, "kropki": True, "antiknight": True},
}


def _unique(shape: Shape, cells: bytes) -> bool:
    return len(cpsat_solutions(Grid(cells, shape), 2)) == 1


def make_puzzle(kind: str, rng: random.Random, reduce: bool) -> tuple[Shape, bytes, bytes]:
    """One unique 9x9 puzzle of *kind*: (shape with its rules, givens, solution); the givens
    are just enough to be unique, then (*reduce*) removed again while it stays unique."""
    n = 9
    if kind in FIELDS:
        made = sudokit.generate(seed=rng.randrange(2**31), **FIELDS[kind])  # type: ignore[arg-type]
        shape, sol = made.puzzle.shape, made.solution.cells
        givens = bytearray(made.puzzle.cells)
        for cell in range(81) if reduce else ():
            if givens[cell]:
                givens[cell] = 0
                if not _unique(shape, bytes(givens)):
                    givens[cell] = sol[cell]
        return shape, bytes(givens), sol
    if kind in GLOBAL:
        rule = global_rule(kind, n, BOX, rng)
        shape = Shape(*BOX, constraints=Constraints(rules=[rule]))
        found = solved_grid(shape, rng)
        if found is None:
            raise AssertionError(f"no 9x9 grid keeps {rule.describe(n)}")
        sol = found
    else:
        sol = plain_grid(BOX, rng)
        rules = clues(kind, sol, n, BOX, rng, CLUES.get(kind, LINES))
        shape = Shape(*BOX, constraints=Constraints(rules=rules))
    order = list(range(81))
    rng.shuffle(order)
    givens = bytearray(81)
    k = 0
    while not _unique(shape, bytes(givens)):
        for cell in order[k : k + 3]:
            givens[cell] = sol[cell]
        k += 3
    for cell in order[:k] if reduce else ():  # one pass of removal, while unique
        givens[cell] = 0
        if not _unique(shape, bytes(givens)):
            givens[cell] = sol[cell]
    return shape, bytes(givens), sol


def time_sudokit(puzzles: list[tuple[Shape, bytes, bytes]], budget: int) -> list[float | None]:
    """CPU seconds of each solve + prove unique (None: the guess budget ran out)."""
    out: list[float | None] = []
    for shape, givens, sol in puzzles:
        grid = Grid(givens, shape)
        t0 = time.process_time()
        try:
            result = sudokit.solve(grid, limit=2, budget=budget)
        except BudgetExceededError:
            out.append(None)
            continue
        spent = time.process_time() - t0
        if not result.complete:
            out.append(None)
            continue
        assert result.count == 1, (shape, givens)
        assert result.solution is not None
        assert result.solution.cells == sol
        out.append(spent)
    return out


def time_cpsat(puzzles: list[tuple[Shape, bytes, bytes]]) -> list[float]:
    """CPU seconds of CP-SAT on each (model build + enumerate to 2), answers checked."""
    out = []
    for shape, givens, sol in puzzles:
        t0 = time.process_time()
        found = cpsat_solutions(Grid(givens, shape), 2)
        out.append(time.process_time() - t0)
        assert found == [sol], shape
    return out


def _ms(values: list[float]) -> tuple[float, float]:
    return statistics.mean(values) * 1e3, max(values) * 1e3


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    every = [*sorted(KINDS), *FIELDS]
    p.add_argument("--kinds", nargs="+", default=every, choices=every)
    p.add_argument("--puzzles", type=int, default=10, help="puzzles a kind (default 10)")
    p.add_argument("--seed", type=int, default=30)
    p.add_argument("--budget", type=int, default=0, help="sudokit's guess budget (0: none)")
    p.add_argument(
        "--reduce", action="store_true", help="remove givens while unique (harder puzzles)"
    )
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    try:
        import ortools
    except ImportError:
        print("bench_rules_cpsat: OR-Tools is not installed (a dev extra)", file=sys.stderr)
        return 2

    cpsat_solutions(Grid(bytes(16), Shape(2, 2)), 1)  # warm-up: the import is not timed
    engine = sudokit.BACKEND
    rows: list[dict[str, Any]] = []
    for kind in args.kinds:
        rng = random.Random(f"{args.seed}-{kind}")
        t0 = time.process_time()
        puzzles = [make_puzzle(kind, rng, args.reduce) for _ in range(args.puzzles)]
        built = time.process_time() - t0
        ours = time_sudokit(puzzles, args.budget)
        theirs = time_cpsat(puzzles)
        done = [t for t in ours if t is not None]
        row: dict[str, Any] = {
            "kind": kind,
            "puzzles": len(puzzles),
            "givens": statistics.mean(sum(map(bool, g)) for _, g, _ in puzzles),
            "build_s": built,
            "cpsat_ms": _ms(theirs),
            "gave_up": len(ours) - len(done),
        }
        if done:  # the ratio over the puzzles sudokit finished
            row["sudokit_ms"] = _ms(done)
            same = [c for c, t in zip(theirs, ours, strict=True) if t is not None]
            row["ratio"] = statistics.mean(same) / statistics.mean(done)
        rows.append(row)
        print(_line(row), flush=True)

    commit = code_commit()
    date = _dt.date.today().isoformat()
    text = "\n".join(
        [
            f"# Rule kinds: solve + prove unique (limit 2), sudokit ({engine}) vs CP-SAT, 9x9",
            "",
            f"commit {commit}, {date}, {platform.platform()}, Python {sys.version.split()[0]},"
            f" OR-Tools {getattr(ortools, '__version__', '?')}; sudokit backend **{engine}**"
            f"{' (the pure-Python reference)' if engine == 'python' else ''}; CPU time;"
            f" {args.puzzles} puzzles a kind (seed {args.seed}): the kind's clues from a solved"
            " grid plus givens until unique"
            f"{', then reduced while unique' if args.reduce else ''}; guess budget"
            f" {args.budget or 'none'}. CP-SAT: one worker, model build"
            " included. Ratio = CP-SAT mean / sudokit mean (above 1: sudokit is faster).",
            "",
            f"Target: ratio >= {TARGET:g} and sudokit's worst below CP-SAT's worst."
            f" Compiler: {sysconfig.get_config_var('CC') or '?'}.",
            "",
            "| kind | givens | sudokit mean ms | worst ms | CP-SAT mean ms | worst ms | ratio"
            " | met? |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
            *(_line(row) for row in rows),
            "",
        ]
    )
    print(text)
    if not args.no_write:
        stem = f"{date}-{commit}-bench_rules_cpsat{'-reduce' if args.reduce else ''}"
        meta = {"commit": commit, "date": date, "engine": engine, "seed": args.seed}
        write_result(Path(args.out), stem, text, {**meta, "kinds": rows}, indent=2)
    return 0


def _line(row: dict[str, Any]) -> str:
    cp_mean, cp_worst = row["cpsat_ms"]
    if "sudokit_ms" in row:
        mean, worst = row["sudokit_ms"]
        ours = f"{mean:.1f} | {worst:.1f}"
        ratio = f"{row['ratio']:.2f}"
    else:
        ours, ratio = "- | -", "-"
    if row["gave_up"]:
        ratio += f" ({row['gave_up']} gave up)"
    met = (
        "sudokit_ms" in row
        and not row["gave_up"]
        and row["ratio"] >= TARGET
        and row["sudokit_ms"][1] < cp_worst
    )
    return (
        f"| {row['kind']} | {row['givens']:.1f} | {ours} | {cp_mean:.1f} | {cp_worst:.1f}"
        f" | {ratio} | {'yes' if met else 'no'} |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
