"""Benchmark: how the generated puzzles of the rule kinds rate, default against ``--any``.

For each kind of :data:`bench_generate_rules.OLDER` (``killer``, ``antiknight``, ...,
``x`` for Sudoku-X, ``antiknight+kropki``) and size: seeds 1-20, each generated (CPU time
measured) and rated with a 10 s budget (:func:`sudokit.rate`, outside the timed part). One
line per kind and size: puzzles rated completely (not a lower bound) out of 20, the median
rating (of lower bounds too), the median givens, puzzles a CPU second.

``--any`` keeps the search builder (the behaviour before the human default), so one checkout
gives both columns. Usage: ``python benchmarks/bench_generate_rated.py [--sizes 9,6]
[--kinds killer,x] [--any]``; prints a Markdown table. The machine is shared: CPU time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_generate_rules import OLDER, _keywords
from sudokit import generate, rate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="9,6")
    ap.add_argument("--kinds", default=",".join(OLDER))
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--any", action="store_true", dest="any_unique")
    args = ap.parse_args()
    print("| kind | size | rated completely | median rating | median givens | puzzles/s |")
    print("|---|---|---|---|---|---|")
    for n in map(int, args.sizes.split(",")):
        for kind in args.kinds.split(","):
            if "windoku" in kind and round(n**0.5) ** 2 != n:
                continue  # windoku needs square boxes
            cpu = 0.0
            givens: list[int] = []
            ratings: list[float] = []
            complete = 0
            for seed in range(1, args.seeds + 1):
                start = time.process_time()
                p = generate(n, seed=seed, any_unique=args.any_unique, **_keywords(kind))  # type: ignore[misc]
                cpu += time.process_time() - start
                givens.append(p.clues)
                r = rate(p.puzzle, budget_s=args.budget)
                complete += r.complete
                ratings.append(r.se)
            print(
                f"| {kind} | {n}x{n} | {complete}/{args.seeds} | "
                f"{statistics.median(ratings):.1f} | {statistics.median(givens):.0f} | "
                f"{args.seeds / cpu:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
