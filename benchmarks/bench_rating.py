"""Benchmark: sudokit.rate against Sudoku Explainer 1.2.1 ratings, with time per puzzle.

Reads an SE-rated TSV from ../shared/rated when present (never copied into the repository):
``se_controlled_bias_dev.tsv`` (column ``SER``) by default, or ``--file`` another one (the rating
column is found by name: SER, se_rating or ER). Each puzzle is rated with the public
``sudokit.rate`` (the whole easiest-first path, uniqueness proof included in the time) and the
script prints:

* Spearman rank correlation with the SE column, exact agreement %, agreement within 0.3 %;
* median and 99th percentile of the time per puzzle, and the slowest puzzles;
* the same split into "lower tiers" (SE < 6.5, the non-chain techniques) and the rest;
* the most common (SE, ours) disagreements.

With ``--json PATH`` it appends a JSON line with the machine, Python, commit and the figures.
Times are wall-clock on a shared machine: compare them as ratios within one run.

    python benchmarks/bench_rating.py --limit 1000 --seed 1
    python benchmarks/bench_rating.py --file se_hardest_database_110626.tsv --budget 60
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import sys
import time

import sudokit
from _rated import RATED, add_sample_options, agreement, load_rated, run_info


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_sample_options(ap)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per puzzle")
    ap.add_argument("--json", default=None, help="append the figures to this JSON-lines file")
    args = ap.parse_args()
    path = RATED / args.file
    if not path.exists():
        print(f"{path} not present: nothing to measure", file=sys.stderr)
        return 0
    rows = [r for r in load_rated(args.file) if args.min_se <= r[1] <= args.max_se]
    if args.limit and args.limit < len(rows):
        rows = random.Random(args.seed).sample(rows, args.limit)
    sudokit.rate(rows[0][0])  # warm-up: imports and table building outside the clock
    pairs: list[tuple[float, float]] = []
    times: list[tuple[float, str]] = []
    wrong: collections.Counter[tuple[float, float]] = collections.Counter()
    incomplete = 0
    for puzzle, se in rows:
        start = time.perf_counter()
        r = sudokit.rate(puzzle, budget_s=args.budget)
        times.append((time.perf_counter() - start, puzzle))
        incomplete += not r.complete
        pairs.append((se, r.se))
        if abs(se - r.se) > 1e-9:
            wrong[(se, r.se)] += 1
    secs = sorted(t for t, _ in times)
    result = {
        "file": args.file,
        **run_info(),
        "backend": sudokit.BACKEND,
        "sample": {
            "limit": args.limit,
            "seed": args.seed,
            "min_se": args.min_se,
            "max_se": args.max_se,
        },
        "overall": agreement(pairs),
        "lower_tiers_se_below_6.5": agreement([p for p in pairs if p[0] < 6.5]),
        "chain_tiers_se_6.5_up": agreement([p for p in pairs if p[0] >= 6.5]),
        "incomplete": incomplete,
        "time_s": {
            "median": round(statistics.median(secs), 4),
            "p99": round(secs[min(len(secs) - 1, int(len(secs) * 0.99))], 4),
            "max": round(secs[-1], 4),
            "total": round(sum(secs), 1),
        },
    }
    print(json.dumps(result, indent=2))
    print("most common disagreements (SE, ours): count")
    for (a, b), k in wrong.most_common(12):
        print(f"  {a:4.1f} {b:4.1f}: {k}")
    print("slowest:")
    for t, p in sorted(times, reverse=True)[:5]:
        print(f"  {t:7.2f}s {p}")
    if args.json:
        with open(args.json, "a", encoding="utf-8") as f:
            f.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
