"""Benchmark: the CPU of ``sudokit.explain`` against ``sudokit.rate`` of the same puzzle.

Explain walks every registered technique (also those Sudoku Explainer lacks) to give each step
its text, rate only SE's own with their C searches; the target is explain at most 3x rate's
CPU. Per puzzle, in one process (imports and per-shape tables warmed up first), each round
rates then explains it, one CPU clock each (``time.process_time``); a puzzle's figure is the
median over ``--rounds``, its ratio explain / rate. Printed per set: the ratio's median, min
and max, how many puzzles are within 3x, and the total CPU of each.

The sets come from the SE-rated dev file (``$SUDOKIT_RATED`` or ../shared/rated, never copied
into the repository): ``--hard`` puzzles of SE 8.0-9.0 and ``--easy`` of SE 3.0-7.0, drawn with
``--seed``.

With ROOTs (checkouts whose C core is built in place), each round runs one worker process per
root, in turn, under ``PYTHONPATH=ROOT/src`` (an A/B in the same run on a noisy machine); the
tables then have a column per root.

    python benchmarks/bench_explain_rate.py --hard 30 --easy 30
    python benchmarks/bench_explain_rate.py /work/wt/base /work/wt/new --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _rated import DEV, load_rated, parse_or_skip, run_info

#: The target: explain's CPU at most this many times rate's.
TARGET = 3.0
#: (name, lowest SE, highest SE) of the two sets.
SETS = (("SE 8.0-9.0", 8.0, 9.0), ("SE 3.0-7.0", 3.0, 7.0))


def measure(puzzles: list[str]) -> list[tuple[float, float]]:
    """(rate CPU, explain CPU) of each puzzle, in this process."""
    import sudokit

    sudokit.rate(puzzles[0])  # imports and per-shape tables outside the clock
    sudokit.explain(puzzles[0])
    out = []
    for p in puzzles:
        start = time.process_time()
        sudokit.rate(p)
        rated = time.process_time() - start
        start = time.process_time()
        sudokit.explain(p)
        out.append((rated, time.process_time() - start))
    return out


def worker(root: str, puzzles: list[str]) -> tuple[str, list[tuple[float, float]]]:
    """The commit of *root* and :func:`measure` in a process importing its sudokit."""
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "src"))
    done = subprocess.run(
        [sys.executable, __file__, "--worker"],
        input="\n".join(puzzles),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        sys.exit(f"{root}: exit {done.returncode}: {done.stderr[-800:]}")
    out = json.loads(done.stdout)
    return out["commit"], [(a, b) for a, b in out["cpu"]]


def summary(cpu: list[tuple[float, float]]) -> dict[str, float]:
    """The ratio's median, min and max, the share within :data:`TARGET`, the totals."""
    ratios = [e / r for r, e in cpu]
    return {
        "median": round(statistics.median(ratios), 2),
        "min": round(min(ratios), 2),
        "max": round(max(ratios), 2),
        "within": sum(x <= TARGET for x in ratios),
        "rate_s": round(sum(r for r, _ in cpu), 3),
        "explain_s": round(sum(e for _, e in cpu), 3),
    }


def main() -> int:
    if sys.argv[1:] == ["--worker"]:
        cpu = measure(sys.stdin.read().split())
        print(json.dumps({"commit": run_info()["commit"], "cpu": cpu}))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="*", help="checkouts to compare (default: this process)")
    ap.add_argument("--hard", type=int, default=30, help="puzzles of SE 8.0-9.0")
    ap.add_argument("--easy", type=int, default=30, help="puzzles of SE 3.0-7.0")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = parse_or_skip(ap, DEV, "bench_explain_rate")
    if args is None:
        return 0
    rows = load_rated(DEV)
    rng = random.Random(args.seed)
    sets = []
    for (name, lo, hi), k in zip(SETS, (args.hard, args.easy), strict=True):
        pool = [p for p, se in rows if lo <= se <= hi]
        if k:
            sets.append((name, rng.sample(pool, min(k, len(pool)))))
    roots = args.roots or [""]
    everything = [p for _, ps in sets for p in ps]
    runs: dict[str, list[list[tuple[float, float]]]] = {root: [] for root in roots}
    commits = {"": run_info()["commit"]}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for root in roots:
            if root:
                commits[root], cpu = worker(root, everything)
            else:
                cpu = measure(everything)
            runs[root].append(cpu)
    info = run_info()
    print(f"# explain / rate CPU per puzzle ({args.rounds} rounds, medians)\n")
    print(f"{info['machine']}, Python {info['python']}; roots: ", end="")
    print(", ".join(f"{Path(r).name or 'this process'} = {commits[r]}" for r in roots))
    print(f"load average {load:.1f} at start, {os.getloadavg()[0]:.1f} at end\n")
    print("| set | root | puzzles | median | min | max | <= 3x | rate s | explain s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    results = []
    start = 0
    for name, ps in sets:
        for root in roots:
            cpu = []
            for i in range(start, start + len(ps)):
                rate_s = statistics.median(run[i][0] for run in runs[root])
                explain_s = statistics.median(run[i][1] for run in runs[root])
                cpu.append((rate_s, explain_s))
            s = summary(cpu)
            label = commits[root]
            print(
                f"| {name} | {label} | {len(ps)} | {s['median']:.2f}x | {s['min']:.2f}x | "
                f"{s['max']:.2f}x | {s['within']} | {s['rate_s']:.2f} | {s['explain_s']:.2f} |"
            )
            results.append(
                {"set": name, "root": root, "commit": commits[root], "puzzles": len(ps), **s}
                | {"cpu": cpu}
            )
        start += len(ps)
    if args.json:
        out = {"run": run_info(), "rounds": args.rounds, "seed": args.seed, "sets": results}
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
