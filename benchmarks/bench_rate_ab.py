"""A/B timing of ``sudokit rate`` between checkouts: CPU of whole processes, alternated.

Each ROOT is a checkout whose C core is built in place; its runs use ``PYTHONPATH=ROOT/src``
(run ``python -m compileall -q ROOT/src/sudokit`` first where PYTHONDONTWRITEBYTECODE is set,
or every process compiles the package). For each FILE the roots take turns, ``--rounds``
times; a run's CPU is its user + system time (``resource.getrusage(RUSAGE_CHILDREN)`` around
it). Prints, per file and root, the median CPU and its ratio to the first root's in the same
run, the load average, and whether every root wrote the same bytes (a timing harness that
also proves "the same output"; a different output or a non-zero exit stops the run).

    python benchmarks/bench_rate_ab.py /work/base /work/new --file a.txt --file b.txt
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys


def cpu_of_run(root: str, path: str) -> tuple[float, bytes]:
    """CPU seconds of one ``sudokit rate PATH`` under *root*, and its output."""
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "src"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "sudokit", "rate", path], env=env, capture_output=True, check=False
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"{root}: exit {done.returncode}: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", help="checkouts; the first is the baseline")
    ap.add_argument("--file", action="append", required=True, help="puzzle file (repeatable)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"load at start: {os.getloadavg()[0]:.1f}")
    for path in args.file:
        cpu: dict[str, list[float]] = {root: [] for root in args.roots}
        outputs: dict[str, bytes] = {}
        for _ in range(args.rounds):
            for root in args.roots:
                seconds, out = cpu_of_run(root, path)
                cpu[root].append(seconds)
                if outputs.setdefault(root, out) != out:
                    sys.exit(f"{root}: two runs on {path} wrote different outputs")
        same = len(set(outputs.values())) == 1
        base = statistics.median(cpu[args.roots[0]])
        print(f"\n{path} ({args.rounds} rounds; same output: {'yes' if same else 'NO'})")
        print("| root | CPU s (median) | runs | ratio |\n|---|---:|---|---:|")
        for root in args.roots:
            med = statistics.median(cpu[root])
            runs = " ".join(f"{s:.2f}" for s in cpu[root])
            print(f"| {root} | {med:.2f} | {runs} | {med / base:.3f}x |")
        if not same:
            return 1
    print(f"\nload at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
