"""Benchmark: sudokit's rating against Sudoku Explainer 1.2.1 itself, same puzzles, same run.

SE 1.2.1 is the baseline in ``../shared/baselines/sudoku-explainer`` (or ``$SUDOKIT_SE_DIR``):
``se121.jar`` and ``SeTime.java``, which rates each puzzle exactly as SE's ``serate`` does and
reports its thread CPU time (see the README there). This script compiles ``SeTime`` into a
temporary directory, runs it with ``--passes`` passes (the last one, in a warm JVM, is the one
quoted), then rates the same puzzles with ``sudokit.rate`` in this process, one CPU clock per
puzzle (``time.process_time``; the machine is shared, so wall time means little), and prints
per set: the agreement (exact, complete, above SE: a complete rating above SE's is a bug), the
total and median CPU of each and the ratio sudokit / SE.

The sets come from the rated TSVs in ``../shared/rated`` (never copied into the repository):
``--random N`` puzzles drawn (``--seed``) from the controlled-bias dev set, its ``--hardest M``
by SE rating, and optionally ``--hardest-list K`` puzzles of the hardest list (ER 9.7-11.9).

Without Java (``java`` and ``javac`` on PATH), the baseline or the rated files it prints why
and exits 0: nothing to measure.

    python benchmarks/bench_rating_se.py --random 1000 --hardest 300
    python benchmarks/bench_rating_se.py --random 200 --hardest 0 --profile

``--profile`` also splits sudokit's CPU by technique (the finder of each SE rule, summed over
every state it was tried on), to show where rating time goes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import sudokit
import sudokit.rating
from _rated import DEV, RATED, add_dev_set_options, dev_sets, load_rated, run_info
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.registry import Technique
from sudokit.logic.step import Step

ROOT = Path(__file__).resolve().parents[1]
SE_DIR = Path(
    os.environ.get("SUDOKIT_SE_DIR") or ROOT.parent / "shared" / "baselines" / "sudoku-explainer"
)
HARDEST = "se_hardest_database_110626.tsv"


def missing() -> str | None:
    """Why the benchmark cannot run here, or None."""
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            return f"{tool} not found on PATH (apt-get install -y openjdk-17-jdk-headless)"
    for name in ("se121.jar", "SeTime.java"):
        if not (SE_DIR / name).is_file():
            return f"{SE_DIR / name} not found (set SUDOKIT_SE_DIR)"
    for name in (DEV, HARDEST):
        if not (RATED / name).is_file():
            return f"{RATED / name} not found"
    return None


def run_se(puzzles: list[str], passes: int, work: Path) -> dict[str, tuple[float, float]]:
    """SE's (rating, thread CPU s) per puzzle, from the last of *passes* passes of SeTime."""
    classes = work / "classes"
    if not classes.is_dir():
        classes.mkdir()
        jar = str(SE_DIR / "se121.jar")
        subprocess.run(
            ["javac", "-d", str(classes), "-cp", jar, str(SE_DIR / "SeTime.java")], check=True
        )
    src, out = work / "in.txt", work / "out.tsv"
    src.write_text("".join(p + "\n" for p in puzzles))
    cp = f"{SE_DIR / 'se121.jar'}{os.pathsep}{classes}"
    subprocess.run(["java", "-cp", cp, "SeTime", str(src), str(out), str(passes)], check=True)
    result: dict[str, tuple[float, float]] = {}
    for line in out.read_text().splitlines():
        fields = line.split("\t")
        if int(fields[0]) == passes:
            result[fields[1]] = (float(fields[2]), float(fields[5]))
    return result


def run_sudokit(puzzles: list[str], budget: float) -> dict[str, tuple[float, bool, float]]:
    """sudokit's (rating, complete, CPU s) per puzzle."""
    sudokit.rate(puzzles[0])  # imports and per-shape tables outside the clock
    out = {}
    for p in puzzles:
        start = time.process_time()
        r = sudokit.rate(p, budget_s=budget)
        out[p] = (r.se, r.complete, time.process_time() - start)
    return out


def compare(
    name: str, se: dict[str, tuple[float, float]], ours: dict[str, tuple[float, bool, float]]
) -> dict[str, object]:
    """The figures of one set."""
    puzzles = list(ours)
    se_cpu = [se[p][1] for p in puzzles]
    our_cpu = [ours[p][2] for p in puzzles]
    above = [p for p in puzzles if ours[p][1] and ours[p][0] > se[p][0] + 1e-9]
    return {
        "set": name,
        "n": len(puzzles),
        "exact": sum(abs(ours[p][0] - se[p][0]) < 1e-9 for p in puzzles),
        "incomplete": sum(not ours[p][1] for p in puzzles),
        "above_se": len(above),
        "se_cpu_s": round(sum(se_cpu), 2),
        "sudokit_cpu_s": round(sum(our_cpu), 2),
        "ratio": round(sum(our_cpu) / sum(se_cpu), 3) if sum(se_cpu) else None,
        "se_median_s": round(statistics.median(se_cpu), 4),
        "sudokit_median_s": round(statistics.median(our_cpu), 4),
        "sudokit_max_s": round(max(our_cpu), 2),
        "mismatches": [
            (p, se[p][0], ours[p][0]) for p in puzzles if abs(ours[p][0] - se[p][0]) > 1e-9
        ][:20],
    }


def profiled(cpu: dict[str, float]) -> Callable[..., list[Technique]]:
    """A stand-in for ``rating.rating_techniques`` whose finders add their CPU to *cpu*."""
    original = sudokit.rating.rating_techniques

    def wrap(t: Technique) -> Technique:
        def finder(cg: CandidateGrid) -> Iterator[Step]:
            steps = iter(t.finder(cg))
            while True:  # time each step the path asks for (it may stop early)
                start = time.process_time()
                try:
                    step = next(steps, None)
                finally:
                    cpu[t.name] += time.process_time() - start
                if step is None:
                    return
                yield step

        return t._replace(finder=finder)

    def techniques(*args: object, **kwargs: object) -> list[Technique]:
        return [wrap(t) for t in original(*args, **kwargs)]  # type: ignore[arg-type]

    return techniques


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_dev_set_options(ap)
    ap.add_argument("--hardest-list", type=int, default=0, help="puzzles of the hardest list")
    ap.add_argument("--passes", type=int, default=2, help="SE passes (the last one is quoted)")
    ap.add_argument("--budget", type=float, default=120.0, help="sudokit seconds per puzzle")
    ap.add_argument("--profile", action="store_true", help="split sudokit's CPU by technique")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args()
    why = missing()
    if why is not None:
        print(f"bench_rating_se: skipped: {why}", file=sys.stderr)
        return 0
    rng = random.Random(args.seed)
    sets = [
        (name, [p for p, _ in rows])
        for name, rows in dev_sets(load_rated(DEV), args.random, args.hardest, rng)
    ]
    if args.hardest_list:
        hardest = [p for p, _ in load_rated(HARDEST)]
        k = min(args.hardest_list, len(hardest))
        sets.append((f"hardest list {k}", rng.sample(hardest, k)))
    cpu: defaultdict[str, float] = defaultdict(float)
    if args.profile:
        sudokit.rating.rating_techniques = profiled(cpu)  # type: ignore[assignment]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, puzzles in sets:
            se = run_se(puzzles, args.passes, Path(tmp))
            ours = run_sudokit(puzzles, args.budget)
            results.append(compare(name, se, ours))
            print(json.dumps(results[-1]), flush=True)
    report: dict[str, object] = {"run": run_info(), "sets": results}
    if args.profile:
        total = sum(cpu.values())
        report["cpu_by_technique"] = {
            k: round(v, 2) for k, v in sorted(cpu.items(), key=lambda kv: -kv[1]) if v >= 0.01
        }
        print(f"sudokit CPU in finders: {total:.1f} s", file=sys.stderr)
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
