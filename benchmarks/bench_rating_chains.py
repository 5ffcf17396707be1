"""Agreement of the logic path's rating with Sudoku Explainer 1.2.1, by SE band, with timings.

Reads an SE-rated TSV from ../shared/rated (never copied into the repository), rates each puzzle
with the SE techniques only (uniqueness techniques on: the rated puzzles are unique), and prints
Spearman rank correlation, exact agreement and agreement within 0.3, overall and per SE band,
plus the time distribution. A puzzle that runs out of its budget counts with its lower bound.

    python benchmarks/bench_rating_chains.py --limit 400 --min-se 6.5 --seed 1
    python benchmarks/bench_rating_chains.py --file se_hardest_database_110626.tsv --budget 60
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sudokit.errors import BudgetExceededError
from sudokit.grid import Grid
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chains import chain_budget
from sudokit.logic.forcing import NESTED_FLOOR
from sudokit.logic.path import default_techniques, solve_path

RATED = Path(__file__).resolve().parents[2] / "shared" / "rated"
BANDS = [
    (0.0, 4.0),
    (4.0, 6.2),
    (6.2, 7.0),
    (7.0, 7.5),
    (7.5, 8.0),
    (8.0, 8.5),
    (8.5, 9.0),
    (9.0, 12.5),
]


def ranks(xs: list[float]) -> list[float]:
    """Average ranks (ties share the mean rank)."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation (Pearson on average ranks)."""
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va and vb else float("nan")


def rate_one(line: str, budget: float) -> tuple[float, bool, float]:
    """(rating, complete, seconds) of one puzzle."""
    cg = CandidateGrid.from_grid(Grid.parse(line))
    techs = default_techniques(se_only=True)
    t0 = time.perf_counter()
    steps_rating = 0.0
    complete = True
    try:
        with chain_budget(budget):
            path = solve_path(cg, techs, unique=True, budget_s=budget)
        steps_rating = path.rating
        complete = path.complete and path.solved
        if path.complete and not path.solved:
            # stuck after every rule up to Dynamic (+): SE needs nested chains (>= 9.5)
            steps_rating = max(steps_rating, NESTED_FLOOR)
    except BudgetExceededError:
        complete = False
    return steps_rating, complete, time.perf_counter() - t0


def summary(rows: list[tuple[float, float]]) -> dict[str, float]:
    se = [a for a, _ in rows]
    us = [b for _, b in rows]
    n = len(rows)
    return {
        "n": n,
        "spearman": round(spearman(se, us), 4),
        "exact": round(sum(abs(a - b) < 0.05 for a, b in rows) / n, 4) if n else 0.0,
        "within_0.3": round(sum(abs(a - b) <= 0.3 + 1e-9 for a, b in rows) / n, 4) if n else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", default="se_controlled_bias_dev.tsv")
    ap.add_argument("--limit", type=int, default=0, help="sample this many puzzles (0 = all)")
    ap.add_argument("--min-se", type=float, default=0.0)
    ap.add_argument("--max-se", type=float, default=99.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=60.0, help="seconds per puzzle")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    args = ap.parse_args(argv)
    path = RATED / args.file
    if not path.exists():
        print(f"missing {path}", file=sys.stderr)
        return 2
    data = []
    for line in path.read_text().splitlines()[1:]:
        cols = line.split("\t")
        se = float(cols[2] if args.file.startswith("se_controlled") else cols[1])
        if args.min_se <= se <= args.max_se:
            data.append((cols[0], se))
    if args.limit and args.limit < len(data):
        data = random.Random(args.seed).sample(data, args.limit)
    rows: list[tuple[float, float]] = []
    times: list[float] = []
    incomplete = 0
    for i, (puzzle, se) in enumerate(data, 1):
        ours, complete, dt = rate_one(puzzle, args.budget)
        incomplete += not complete
        rows.append((se, ours))
        times.append(dt)
        if abs(se - ours) > 0.3:
            print(
                f"[{i}] SE {se} ours {ours}{'' if complete else ' (lower bound)'} {puzzle}",
                flush=True,
            )
    result = {
        "file": args.file,
        "machine": platform.platform(),
        "python": platform.python_version(),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip(),
        "overall": summary(rows),
        "incomplete": incomplete,
        "bands": {},
        "seconds": {
            "median": round(statistics.median(times), 4) if times else 0,
            "p90": round(sorted(times)[int(0.9 * (len(times) - 1))], 4) if times else 0,
            "p99": round(sorted(times)[int(0.99 * (len(times) - 1))], 4) if times else 0,
            "max": round(max(times), 4) if times else 0,
        },
    }
    bands: dict[str, object] = {}
    for lo, hi in BANDS:
        sel = [r for r in rows if lo <= r[0] < hi]
        sel_t = [t for r, t in zip(rows, times, strict=True) if lo <= r[0] < hi]
        if sel:
            s = summary(sel)
            s["median_s"] = round(statistics.median(sel_t), 3)
            bands[f"{lo}-{hi}"] = s
    result["bands"] = bands
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
