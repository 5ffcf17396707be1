"""Benchmark: Aligned Pair / Triple Exclusion finders, and whole ``sudokit.rate`` CPU time.

Collects the candidate states at which the rating path reaches the exclusion techniques (the
states before each step of rating 6.2 and up), for puzzles of an SE-rated TSV in ../shared/rated
(never copied into the repository) rated between ``--min-se`` and ``--max-se``, then times the
two finders on them with ``time.process_time``. With ``--reference MODULE_FILE`` it also times
another implementation of the finders (an older copy of exclusion.py) and checks that both
yield the same steps; with ``--python`` it also times the Python specification with the C
core's search switched off (``exclusion._engine`` answering None) and checks both yield the
same steps (each run starts with nothing remembered, so both take the same incremental
paths). ``--rate N`` then times ``sudokit.rate`` per puzzle on N random puzzles
(seed ``--seed``) rated at least ``--rate-min-se`` and prints the median and 99th percentile.

    python benchmarks/bench_exclusion.py --puzzles 60 --reference /tmp/exclusion_old.py
    python benchmarks/bench_exclusion.py --puzzles 60 --python
    python benchmarks/bench_exclusion.py --puzzles 0 --rate 300 --rate-min-se 7.0
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

import sudokit
from sudokit.grid import Grid
from sudokit.logic import exclusion
from sudokit.logic._delta import Since
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import find_step

RATED = Path(__file__).resolve().parents[2] / "shared" / "rated"


def load(path: Path) -> list[tuple[str, float]]:
    lines = path.read_text().splitlines()
    header = lines[0].split("\t")
    col = next(i for i, name in enumerate(header) if name in ("SER", "se_rating", "ER"))
    return [(p[0], float(p[col])) for p in (ln.split("\t") for ln in lines[1:]) if len(p) > col]


def states(puzzle: str, max_steps: int = 200) -> list[CandidateGrid]:
    """Copies of the candidate states before each path step of rating 6.2 or more."""
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    out = []
    for _ in range(max_steps):
        if cg.is_solved or cg.is_broken():
            break
        before = cg.copy()
        found = find_step(cg, unique=True)
        if found is None or found[1].rating >= 6.2:
            out.append(before)
        if found is None:
            break
        cg.apply(found[0])
    return out


def run(mod: ModuleType, cgs: list[CandidateGrid]) -> tuple[float, list[object]]:
    if hasattr(mod, "_SINCE"):  # start with nothing remembered
        mod._SINCE = {2: Since(), 3: Since()}
    out: list[object] = []
    start = time.process_time()
    for cg in cgs:
        out.append(list(mod.aligned_pair(cg)))
        out.append(list(mod.aligned_triple(cg)))
    return time.process_time() - start, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", default="se_controlled_bias_dev.tsv")
    ap.add_argument("--puzzles", type=int, default=60, help="puzzles to collect states from")
    ap.add_argument("--min-se", type=float, default=7.5)
    ap.add_argument("--max-se", type=float, default=9.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", default=None, help="another exclusion.py to compare with")
    ap.add_argument("--python", action="store_true", help="compare with the C core switched off")
    ap.add_argument("--rate", type=int, default=0, help="time sudokit.rate on this many puzzles")
    ap.add_argument("--rate-min-se", type=float, default=0.0)
    args = ap.parse_args()
    path = RATED / args.file
    if not path.exists():
        print(f"{path} not present: nothing to measure", file=sys.stderr)
        return 0
    rows = load(path)
    if args.puzzles:
        pool = [p for p, se in rows if args.min_se <= se <= args.max_se]
        pick = random.Random(args.seed).sample(pool, min(args.puzzles, len(pool)))
        cgs = [s for p in pick for s in states(p)]
        print(f"{len(cgs)} states from {len(pick)} puzzles")
        t_new, out_new = run(exclusion, cgs)
        print(f"finders (this tree): {t_new:.2f} CPU-s")
        if args.reference:
            spec = importlib.util.spec_from_file_location(
                "sudokit.logic._exclusion_reference", args.reference
            )
            assert spec is not None
            assert spec.loader is not None
            ref = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(ref)
            t_ref, out_ref = run(ref, cgs)
            print(f"finders (reference): {t_ref:.2f} CPU-s  speed-up x{t_ref / t_new:.1f}")
            same = out_new == out_ref
            found = sum(len(x) for x in out_new)  # type: ignore[arg-type]
            print(f"identical output: {same} ({found} steps found)")
            if not same:
                return 1
        if args.python:
            engine = exclusion._engine
            exclusion._engine = lambda shape: None  # type: ignore[assignment]
            try:
                t_py, out_py = run(exclusion, cgs)
            finally:
                exclusion._engine = engine  # type: ignore[assignment]
            print(
                f"finders (Python specification): {t_py:.2f} CPU-s  "
                f"this tree at {t_new / t_py:.3f}x of it"
            )
            found = sum(len(x) for x in out_py)  # type: ignore[arg-type]
            print(f"identical output: {out_new == out_py} ({found} steps found)")
            if out_new != out_py:
                return 1
    if args.rate:
        pool2 = [p for p, se in rows if se >= args.rate_min_se]
        pick2 = random.Random(args.seed).sample(pool2, min(args.rate, len(pool2)))
        sudokit.rate(pick2[0])
        secs = []
        for p in pick2:
            start = time.process_time()
            sudokit.rate(p)
            secs.append(time.process_time() - start)
        secs.sort()
        p99 = secs[min(len(secs) - 1, int(len(secs) * 0.99))]
        print(
            f"rate on {len(secs)} (SE >= {args.rate_min_se}, seed {args.seed}): "
            f"median {statistics.median(secs):.4f} p99 {p99:.3f} max {secs[-1]:.3f} "
            f"total {sum(secs):.1f} CPU-s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
