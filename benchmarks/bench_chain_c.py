"""Benchmark: the chaining engine in C against its Python specification, same puzzles, same run.

Rates each puzzle twice in one process, alternating, with the C chaining engine
(``csrc/sk_chain.c``) and with the pure-Python chaining code (``cycles._Mode`` and
``forcing._Run``; everything else, the uniqueness search included, stays the same), one CPU
clock per rating (``time.process_time``), per-state caches cleared before each rating. Checks
that both ratings are equal and prints the totals, medians and the ratio C / Python.

    python benchmarks/bench_chain_c.py --random 200 --hardest 50
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

import sudokit
from _rated import load_rated, run_info
from sudokit import _native
from sudokit.logic import chaining, cycles, forcing

DEV = "se_controlled_bias_dev.tsv"


@contextmanager
def python_chaining() -> Iterator[None]:
    """The chaining rules on their pure-Python code inside the block."""
    # only the chaining rooms lose the core: cycles' modes, and forcing's chainer and in-chain
    # rules (forcing reads the core through its module reference to _native)
    saved = cycles._c_engine, forcing._native
    cycles._c_engine = lambda: None  # type: ignore[assignment]
    forcing._native = SimpleNamespace(core=lambda: None)  # type: ignore[assignment]
    try:
        yield
    finally:
        cycles._c_engine, forcing._native = saved  # type: ignore[assignment]


def timed(puzzle: str) -> tuple[str, float]:
    """(rating text, CPU s) of one rating with the per-state caches cleared."""
    forcing._LEVEL0.clear()
    chaining._FOUND.clear()
    start = time.process_time()
    r = sudokit.rate(puzzle, budget_s=0)
    return r.se_text, time.process_time() - start


def measure(name: str, puzzles: list[str]) -> dict[str, object]:
    """The figures of one set."""
    c_cpu, py_cpu, differ = [], [], 0
    for p in puzzles:
        rc, tc = timed(p)
        with python_chaining():
            rp, tp = timed(p)
        c_cpu.append(tc)
        py_cpu.append(tp)
        differ += rc != rp
    return {
        "set": name,
        "n": len(puzzles),
        "ratings_differ": differ,
        "python_cpu_s": round(sum(py_cpu), 2),
        "c_cpu_s": round(sum(c_cpu), 2),
        "ratio": round(sum(c_cpu) / sum(py_cpu), 3),
        "python_median_s": round(statistics.median(py_cpu), 4),
        "c_median_s": round(statistics.median(c_cpu), 4),
        "python_max_s": round(max(py_cpu), 2),
        "c_max_s": round(max(c_cpu), 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=200, help="random dev puzzles")
    ap.add_argument("--hardest", type=int, default=50, help="hardest dev puzzles by SER")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the figures here")
    args = ap.parse_args()
    if _native.core() is None:
        print("bench_chain_c: skipped: the C core's chaining engine is not in use", file=sys.stderr)
        return 0
    rated = load_rated(DEV)
    rng = random.Random(args.seed)
    sets = []
    if args.random:
        sets.append((f"dev random {args.random}", rng.sample([p for p, _ in rated], args.random)))
    if args.hardest:
        by_se = sorted(rated, key=lambda r: -r[1])
        sets.append((f"dev hardest {args.hardest}", [p for p, _ in by_se[: args.hardest]]))
    sudokit.rate(sets[0][1][0])  # imports and tables outside the clock
    results = []
    for name, puzzles in sets:
        results.append(measure(name, puzzles))
        print(json.dumps(results[-1]), flush=True)
    report = {"run": run_info(), "sets": results}
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
