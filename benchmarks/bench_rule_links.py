"""Benchmark: rating variant puzzles whose rules are pair relations (non-consecutive, kropki,
XV, thermometers, whispers, and the published records of those kinds).

For each kind, 20 generated 9x9 puzzles (``sudokit generate --<kind> -n 1 --seed S --to json``,
seeds 1..20, cached in ``--cache`` so that two checkouts rate the same puzzles) and the records
of ``tests/data/variants/published.jsonl`` whose kinds are relation kinds, rated in this process
with ``sudokit.rating.rate(budget_s=--seconds)``; per set: how many rate completely, the median
rating (lower bounds counted at their bound) and the median CPU seconds (``time.process_time``:
the machine is shared).

    python benchmarks/bench_rule_links.py --seconds 10 --cache /tmp/rule_links.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import sudokit.rating
from sudokit.formats import parse_one

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("nonconsecutive", "kropki", "xv", "thermo", "whispers")
PUBLISHED_KINDS = {"kropki", "nonconsecutive", "xv", "thermo", "whispers", "palindrome", "clone"}


def _generated(kind: str, seeds: int) -> list[str]:
    out = []
    for seed in range(1, seeds + 1):
        text = subprocess.run(
            [
                sys.executable,
                "-m",
                "sudokit",
                "generate",
                f"--{kind}",
                "-n",
                "1",
                "--seed",
                str(seed),
                "--to",
                "json",
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        out.append(text)
    return out


def _published() -> list[tuple[str, str]]:
    out = []
    lines = [
        line
        for path in sorted((ROOT / "tests/data/variants").glob("published*.jsonl"))
        for line in path.read_text().splitlines()
    ]
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        rec = json.loads(line)
        if rec.get("reads", True) and set(rec["kinds"]) & PUBLISHED_KINDS:
            out.append((rec["name"], rec["puzzle"]))
    return out


class _CpuTime:
    """The ``time`` module as the budget checks read it, its monotonic clock the CPU one."""

    def __getattr__(self, name: str) -> object:
        return time.process_time if name == "monotonic" else getattr(time, name)


def _cpu_clock() -> None:
    """Make the rating's budget (sudokit.logic.chaining, sudokit.logic.path) count CPU time."""
    import sudokit.logic.chaining
    import sudokit.logic.path

    for module in (sudokit.logic.chaining, sudokit.logic.path):
        module.time = _CpuTime()  # type: ignore[assignment]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/rule_links.json"))
    ap.add_argument("--out", type=Path, default=None, help="per-puzzle results (JSON lines)")
    ap.add_argument("--sets", default="", help="comma-separated sets to rate (default: all)")
    ap.add_argument(
        "--wall",
        action="store_true",
        help="count the budget in wall seconds (as `sudokit rate` does); by default it counts "
        "this process's CPU seconds, so that a loaded machine does not cut the searches short",
    )
    args = ap.parse_args()
    if not args.wall:
        _cpu_clock()
    if args.cache.exists():
        sets = json.loads(args.cache.read_text())
    else:
        sets = {
            kind: [[f"{kind} {i + 1}", t] for i, t in enumerate(_generated(kind, args.seeds))]
            for kind in KINDS
        }
        sets["published"] = [list(x) for x in _published()]
        args.cache.write_text(json.dumps(sets))
    rows = []
    log = args.out.open("w") if args.out else None
    chosen = args.sets.split(",") if args.sets else list(sets)
    for name, items in sets.items():
        if name not in chosen:
            continue
        done, ratings, cpus = 0, [], []
        for label, text in items:
            grid = parse_one(text)
            t0 = time.process_time()
            r = sudokit.rating.rate(grid, budget_s=args.seconds)
            cpu = time.process_time() - t0
            done += r.complete
            ratings.append(r.se)
            cpus.append(cpu)
            if log:
                log.write(
                    json.dumps(
                        {
                            "set": name,
                            "label": label,
                            "rating": r.se,
                            "complete": r.complete,
                            "cpu": round(cpu, 2),
                        }
                    )
                    + "\n"
                )
                log.flush()
        rows.append((name, len(items), done, statistics.median(ratings), statistics.median(cpus)))
    print("| set | puzzles | complete | median rating | median CPU s |")
    print("|---|---|---|---|---|")
    for name, k, done, med, cpu in rows:
        print(f"| {name} | {k} | {done} | {med:.1f} | {cpu:.2f} |")


if __name__ == "__main__":
    main()
