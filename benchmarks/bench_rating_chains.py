"""Agreement of the logic path's rating with Sudoku Explainer 1.2.1, by SE band, with timings.

Reads an SE-rated TSV from ../shared/rated (never copied into the repository), rates each puzzle
with the SE techniques only (uniqueness techniques on: the rated puzzles are unique), and prints
Spearman rank correlation, exact agreement and agreement within 0.3, overall and per SE band,
plus the distribution of CPU seconds per puzzle (``time.process_time``: the machine is shared,
so wall time is not meaningful). A puzzle that runs out of its budget counts with its lower
bound and is listed as incomplete.

Each run can save its per-puzzle results (``--json``); ``--compare SAVED.json`` re-rates exactly
the puzzles of a saved run and reports every rating that changed and the CPU-time ratio (the
check that a speed-up changed no result).

    python benchmarks/bench_rating_chains.py --limit 1000 --seed 1 --json out.json
    python benchmarks/bench_rating_chains.py --compare out.json --json new.json
    python benchmarks/bench_rating_chains.py --file se_hardest_database_110626.tsv --budget 60
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from _rated import RATED, add_sample_options, agreement, load_rated, run_info
from sudokit.errors import BudgetExceededError
from sudokit.grid import Grid
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chains import chain_budget
from sudokit.logic.forcing import NESTED_FLOOR, NESTED_RULES
from sudokit.logic.path import default_techniques, solve_path
from sudokit.logic.registry import Technique
from sudokit.logic.step import Step

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


def nested_techniques() -> list[Technique]:
    """SE's nested forcing chains as path techniques (not registered by default: slow)."""
    return [Technique(name, "forcing", rating, finder) for name, rating, finder in NESTED_RULES]


# The base rating of the technique being searched right now (see _tracked).
_RUNNING = [0.0]


def _tracked(t: Technique) -> Technique:
    """*t* with a finder that notes its base rating while it searches: when the budget runs out
    inside it, every easier technique has already failed on that state, so the puzzle's
    rating is at least that base rating."""
    inner = t.finder

    def finder(cg: CandidateGrid) -> Iterator[Step]:
        _RUNNING[0] = t.rating
        yield from inner(cg)

    return t._replace(finder=finder)


def techniques(nested: int) -> list[Technique]:
    """SE's techniques, plus the nested forcing chains up to SE level *nested* (0 = none)."""
    techs = default_techniques(se_only=True)
    techs += [t for t in nested_techniques() if t.rating <= 9.5 + 0.5 * (nested - 2)]
    techs.sort(key=lambda t: t.rating)
    return [_tracked(t) for t in techs]


def rate_one(line: str, budget: float, techs: list[Technique]) -> tuple[float, bool, float]:
    """(rating, complete, CPU seconds) of one puzzle; an incomplete rating is a lower bound.

    The path is walked one step at a time (``solve_path(max_steps=1)`` keeps its batching of
    singles), so that when the chain budget runs out in the middle of a step the hardest step
    applied so far is still known.
    """
    cg = CandidateGrid.from_grid(Grid.parse(line))
    t0 = time.process_time()
    rating = 0.0
    complete = True
    floor = max(NESTED_FLOOR, max(t.rating for t in techs) + 0.5)
    try:
        with chain_budget(budget):
            while not cg.is_solved:
                path = solve_path(cg, techs, unique=True, max_steps=1)
                if not path.steps:
                    # stuck after every enabled rule: SE needs a deeper nesting level
                    rating = max(rating, floor)
                    complete = False
                    break
                rating = max(rating, path.rating)
                if cg.is_broken():
                    complete = False
                    break
    except BudgetExceededError:
        complete = False
        rating = max(rating, _RUNNING[0])
    return rating, complete, time.process_time() - t0


def _dist(times: list[float]) -> dict[str, float]:
    if not times:
        return {"median": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0, "total": 0.0}
    st = sorted(times)
    return {
        "median": round(statistics.median(st), 4),
        "p90": round(st[int(0.9 * (len(st) - 1))], 4),
        "p99": round(st[int(0.99 * (len(st) - 1))], 4),
        "max": round(st[-1], 4),
        "total": round(sum(st), 2),
    }


def load(args: argparse.Namespace) -> list[tuple[int, str, float]]:
    """The (row, puzzle, SE rating) triples to rate (row: 0-based data line of the TSV): a saved
    run's rows, or a sample of the file. Saved runs keep only row numbers and our results, so
    the GPL-licensed rated files are never copied."""
    saved_rows: list[int] | None = None
    if args.compare:
        saved = json.loads(Path(args.compare).read_text())
        args.file = saved["file"]
        saved_rows = [int(r[0]) for r in saved["puzzles"]]
    data = [
        (row, puzzle, se)
        for row, (puzzle, se) in enumerate(load_rated(args.file))
        if saved_rows is not None or args.min_se <= se <= args.max_se
    ]
    if saved_rows is not None:
        return [data[r] for r in saved_rows]
    if args.limit and args.limit < len(data):
        data = random.Random(args.seed).sample(data, args.limit)
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_sample_options(ap)
    ap.add_argument(
        "--budget",
        type=float,
        default=60.0,
        help="wall-clock seconds per puzzle (chains.chain_budget)",
    )
    ap.add_argument(
        "--nested", type=int, default=0, help="also SE's nested forcing chains up to this level"
    )
    ap.add_argument("--compare", type=Path, default=None, help="re-rate a saved run and diff")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    args = ap.parse_args(argv)
    if not (RATED / args.file).exists():
        print(f"missing {RATED / args.file}", file=sys.stderr)
        return 2
    data = load(args)
    techs = techniques(args.nested)
    records: list[list[object]] = []
    rows: list[tuple[float, float]] = []
    times: list[float] = []
    incomplete = 0
    for i, (row, puzzle, se) in enumerate(data, 1):
        ours, complete, dt = rate_one(puzzle, args.budget, techs)
        incomplete += not complete
        rows.append((se, ours))
        times.append(dt)
        records.append([row, ours, complete, round(dt, 4)])
        if abs(se - ours) > 0.3 or not complete:
            print(
                f"[{i}] row {row}: SE {se} ours {ours}{'' if complete else ' (lower bound)'} "
                f"{dt:.1f} CPU s",
                file=sys.stderr,
                flush=True,
            )
    result: dict[str, object] = {
        "file": args.file,
        "sample": {"limit": args.limit, "seed": args.seed, "min_se": args.min_se},
        "nested": args.nested,
        "budget": args.budget,
        **run_info(),
        "overall": agreement(rows, exact_tol=0.05),
        "incomplete": incomplete,
        # incomplete results are lower bounds: one above SE's rating would be a bug
        "lower_bound_above_se": sum(
            1 for (se, ours), r in zip(rows, records, strict=True) if not r[2] and ours > se + 1e-9
        ),
        "cpu_seconds": _dist(times),
    }
    bands: dict[str, object] = {}
    for lo, hi in BANDS:
        sel = [r for r in rows if lo <= r[0] < hi]
        sel_t = [t for r, t in zip(rows, times, strict=True) if lo <= r[0] < hi]
        if sel:
            s = agreement(sel, exact_tol=0.05)
            s["incomplete"] = sum(
                1 for (se, _), r in zip(rows, records, strict=True) if lo <= se < hi and not r[2]
            )
            s["median_s"] = round(statistics.median(sel_t), 3)
            s["max_s"] = round(max(sel_t), 3)
            bands[f"{lo}-{hi}"] = s
    result["bands"] = bands
    if args.compare:
        saved = json.loads(Path(args.compare).read_text())["puzzles"]
        # a change of rating, or of completeness (e.g. a budget hit on one side only)
        changed = [
            {"row": old[0], "before": old[1:3], "after": new[1:3]}
            for old, new in zip(saved, records, strict=True)
            if abs(old[1] - new[1]) > 1e-9 or old[2] != new[2]
        ]
        before_t = sum(float(r[3]) for r in saved)
        result["compare"] = {
            "against": str(args.compare),
            "changed": changed,
            "before_cpu": _dist([float(r[3]) for r in saved]),
            "cpu_ratio_total": round(sum(times) / before_t, 3) if before_t else 0.0,
        }
    print(json.dumps(result, indent=2))
    if args.json:
        # per puzzle: [data row of the TSV, our rating, complete, CPU seconds] (one line)
        result["puzzles"] = "@records@"
        text = json.dumps(result, indent=1)
        text = text.replace('"@records@"', json.dumps(records, separators=(",", ":")))
        args.json.write_text(text + "\n")
    if args.compare and result["compare"]["changed"]:  # type: ignore[index]
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
