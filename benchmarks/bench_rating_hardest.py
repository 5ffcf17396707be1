"""Rate the hardest list (ER 9.7-11.9, ``se_hardest_database_110626.tsv``) against its published
ratings (targets: complete and exact for every puzzle with ER <= 11.0, never above ER for any,
median <= 4 s CPU, all complete within 60 s).

Each puzzle is rated by ``sudokit.rate`` in a child process (one at a time) with a budget of
``--budget`` CPU seconds (``rate`` counts wall time; the child makes its budget clock the CPU
clock, so that a loaded machine does not cut ratings short) and, as a hard stop, a CPU limit of
twice the budget. A
rating cut by the budget is a lower bound (">= x"). Per ER band it reports: exact, below ER
(complete), above ER (complete, or a lower bound above ER: must never happen), lower bounds, and
the median and maximum CPU. ``--sample K`` takes K puzzles spread evenly over the list sorted by
ER (a stratified sample); ``--se K`` also times SE 1.2.1 on the first K of them in the same run,
within ``--se-timeout`` seconds in all (skipped cleanly without Java or the baseline).

    python benchmarks/bench_rating_hardest.py --sample 12 --budget 60 --se 0
    python benchmarks/bench_rating_hardest.py --budget 60 --json out.json     # all 269

Results go to ``benchmarks/results/rating_hardest_<date>_<commit>.md`` by hand.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _rated import RATED, load_rated, parse_or_skip, run_info

HARDEST = "se_hardest_database_110626.tsv"
BANDS = (
    ("9.7-9.9", 9.7, 9.95),
    ("10.0-10.4", 10.0, 10.45),
    ("10.5-10.9", 10.5, 10.95),
    ("11.0", 10.95, 11.05),
    (">= 11.1", 11.05, 12.0),
)

# The child rates one puzzle; its library's budget clock is the process CPU clock (the budget
# is checked against time.monotonic in logic.chaining and logic.path: here, CPU seconds).
_CHILD = """
import json, sys, time, types
import sudokit
import sudokit.logic.chaining, sudokit.logic.path
cpu_clock = types.SimpleNamespace(monotonic=time.process_time)
sudokit.logic.chaining.time = sudokit.logic.path.time = cpu_clock
p, budget = sys.argv[1], float(sys.argv[2])
sudokit.rate("1.3." "...2" "2..." ".3.1")
start = time.process_time()
r = sudokit.rate(p, budget_s=budget)
print(json.dumps({"se": r.se, "complete": r.complete, "cpu": time.process_time() - start}))
"""


def stratified(rows: list[tuple[str, float]], k: int) -> list[tuple[str, float]]:
    """*k* rows spread evenly over *rows* sorted by rating (all of them when k <= 0).

    >>> stratified([("a", 3.0), ("b", 1.0), ("c", 2.0), ("d", 4.0)], 2)
    [('b', 1.0), ('d', 4.0)]
    """
    ordered = sorted(rows, key=lambda r: r[1])
    if k <= 0 or k >= len(ordered):
        return ordered
    if k == 1:
        return [ordered[len(ordered) // 2]]
    step = (len(ordered) - 1) / (k - 1)
    return [ordered[round(i * step)] for i in range(k)]


def rate_one(puzzle: str, budget: float) -> dict[str, object]:
    """sudokit's rating of *puzzle* in a child process: se, complete, cpu (or killed)."""
    limit = int(2 * budget) + 5 if budget > 0 else resource.RLIM_INFINITY

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, puzzle, str(budget)],
        capture_output=True,
        text=True,
        preexec_fn=cap,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if proc.returncode != 0:
        return {"se": None, "complete": False, "cpu": child_cpu, "killed": True}
    out: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def run_se(puzzles: list[str], timeout: float) -> dict[str, tuple[float, float]]:
    """SE 1.2.1's (rating, thread CPU s) for the puzzles it rated within *timeout* s."""
    se_dir = Path(
        os.environ.get("SUDOKIT_SE_DIR") or RATED.parent / "baselines" / "sudoku-explainer"
    )
    jar, src = se_dir / "se121.jar", se_dir / "SeTime.java"
    if not puzzles or not jar.is_file() or not src.is_file():
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        try:
            subprocess.run(["javac", "-d", tmp, "-cp", str(jar), str(src)], check=True)
        except (OSError, subprocess.CalledProcessError):
            return {}
        (work / "in.txt").write_text("".join(p + "\n" for p in puzzles))
        out = work / "out.tsv"
        cmd = ["java", "-cp", f"{jar}{os.pathsep}{tmp}", "SeTime", str(work / "in.txt"), str(out)]
        with contextlib.suppress(subprocess.TimeoutExpired):  # keep the rows written so far
            subprocess.run(cmd, check=False, timeout=timeout, capture_output=True)
        rows = out.read_text().splitlines() if out.is_file() else []
    return {f[1]: (float(f[2]), float(f[5])) for f in (r.split("\t") for r in rows)}


def band_of(er: float) -> str:
    """The ER band of *er* (:data:`BANDS`).

    >>> band_of(9.7), band_of(11.0), band_of(11.9)
    ('9.7-9.9', '11.0', '>= 11.1')
    """
    for name, lo, hi in BANDS:
        if lo <= er <= hi:
            return name
    return "other"


def summarise(rows: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    """Counts and CPU per ER band (and "all")."""
    groups: dict[str, list[dict[str, object]]] = {}
    for r in rows:
        groups.setdefault(band_of(float(r["er"])), []).append(r)  # type: ignore[arg-type]
        groups.setdefault("all", []).append(r)
    out = {}
    for name, rs in groups.items():
        cpu = [float(r["cpu"]) for r in rs]  # type: ignore[arg-type]
        out[name] = {
            "n": len(rs),
            "exact": sum(1 for r in rs if r["verdict"] == "exact"),
            "below": sum(1 for r in rs if r["verdict"] == "below"),
            "above": sum(1 for r in rs if r["verdict"] == "ABOVE"),
            "lower_bound": sum(1 for r in rs if r["verdict"] == "bound"),
            "median_cpu": round(statistics.median(cpu), 2),
            "max_cpu": round(max(cpu), 2),
        }
    return out


def verdict(er: float, se: float | None, complete: bool) -> str:
    if se is None:
        return "bound"
    if se > er + 1e-9:
        return "ABOVE"  # a complete rating above ER, or a lower bound above it
    if not complete:
        return "bound"
    return "exact" if abs(se - er) < 1e-9 else "below"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=0, help="stratified sample size (0 = all)")
    ap.add_argument("--max-er", type=float, default=99.0, help="only puzzles with ER <= this")
    ap.add_argument("--budget", type=float, default=60.0, help="sudokit seconds per puzzle")
    ap.add_argument("--se", type=int, default=0, help="also time SE on the first K puzzles")
    ap.add_argument("--se-timeout", type=float, default=600.0, help="SE's total seconds")
    args = parse_or_skip(ap, HARDEST, "bench_rating_hardest")
    if args is None:
        return 0
    rated = [r for r in load_rated(HARDEST) if r[1] <= args.max_er + 1e-9]
    chosen = stratified(rated, args.sample)
    rows: list[dict[str, object]] = []
    for puzzle, er in chosen:
        t0 = time.monotonic()
        got = rate_one(puzzle, args.budget)
        se = got["se"]
        row = {
            "puzzle": puzzle,
            "er": er,
            "se": se,
            "complete": got["complete"],
            "cpu": round(float(got["cpu"]), 2),  # type: ignore[arg-type]
            "wall": round(time.monotonic() - t0, 2),
            "load": round(os.getloadavg()[0], 1),
        }
        row["verdict"] = verdict(er, se, bool(got["complete"]))  # type: ignore[arg-type]
        rows.append(row)
        print(json.dumps(row), flush=True)
    se_times = run_se([r["puzzle"] for r in rows[: args.se]], args.se_timeout)  # type: ignore[misc]
    for r in rows:
        if r["puzzle"] in se_times:
            r["se121"], r["se121_cpu"] = se_times[r["puzzle"]]  # type: ignore[index]
    report = {"run": run_info(), "budget_s": args.budget, "bands": summarise(rows), "rows": rows}
    print(json.dumps(report["bands"], indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
