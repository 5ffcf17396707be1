"""Bulk benchmark: ``sudokit dataset`` and ``sudokit solve`` end to end, as a user runs them.

    python benchmarks/bench_dataset.py [--n 10000] [--small 2000] [--lines 1000000]
                                       [--data DIR] [--work DIR] [--skip-solve]

Every figure is one command in a fresh process, measured with ``os.wait4``: wall time, CPU
time (user + system of the process and its workers) and peak resident memory (the largest
single process of the tree). The machine these were written on is shared, so CPU time is
reported next to wall time, and the 1,000,000-puzzle figures are extrapolated from ``--n``
(labelled as such). Measured:

1. ``sudokit dataset -n N`` (9x9 minimal puzzles, solutions, guesses; no rating) with
   ``--jobs 1`` and ``--jobs 2``: rows/s, the speed-up of two workers, the extrapolated time
   for 1,000,000 rows;
2. memory flatness: peak RSS of ``--n`` versus ``--small`` rows;
3. ``sudokit solve`` of a ``--lines`` file built from the shared puzzle sets (17-clue,
   top1465, kaggle: repeated, each line a random isomorph, shuffled) with ``--jobs 1`` / ``2``
   (engine threads, the streaming path) and ``--jobs 2 --resume`` (worker processes over
   resumable shards, :func:`sudokit.batch.solve_file`).

``--speedup R`` measures only what two workers gain over one, for ``generate -n 20000``,
``dataset -n 10000`` and ``solve --resume`` of a 100,000-line file: R alternating rounds of
``--jobs 1`` then ``--jobs 2`` (the median of the R wall-time ratios is the figure; a shared
machine makes single runs noisy), each run's CPU seconds split into the parent process and
each worker process (sampled from ``/proc`` every 20 ms), and the load average. Since the
parent competes with the workers for the cores, ``total CPU / max(parent + workers on the
busier core)`` bounds the speed-up; the split shows where it goes. Every run's output must be
byte-identical to the ``--jobs 1`` run's.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _commit import code_commit
from sudokit import Grid
from sudokit.transform import random_isomorph

ROOT = Path(__file__).resolve().parent.parent
SETS = ("17clue_49158.txt", "top1465.txt", "kaggle_1k.txt")


def measure(cmd: list[str]) -> dict[str, float]:
    """Run *cmd*; its wall time, CPU time (s) and peak RSS (MB)."""
    env = {**os.environ, "SUDOKIT_NO_PROGRESS": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {err}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mb": usage.ru_maxrss / 1024,
    }


def build_lines(data: Path, count: int, out: Path, seed: int = 1) -> None:
    """Write *count* puzzles: the sets repeated, each line a random isomorph, shuffled."""
    base = [
        line.strip()
        for name in SETS
        if (data / name).exists()
        for line in (data / name).read_text().splitlines()
        if len(line.strip()) >= 81
    ]
    rng = random.Random(seed)
    variants = [str(random_isomorph(Grid.parse(p[:81]), rng)) for p in base]
    with open(out, "w") as f:
        for _ in range(count // len(variants) + 1):
            rng.shuffle(variants)
            take = min(len(variants), count)
            f.write("\n".join(variants[:take]) + "\n")
            count -= take
            if not count:
                break


def verify(path: Path, sample: int = 200) -> str:
    """Check every row of a dataset file independently; a one-line summary.

    Each solution must pass :meth:`Grid.is_solution` for its puzzle, the clue count must match,
    the puzzle must have exactly one solution (C engine, limit 2), a random *sample* must be
    unique for the pure-Python reference engine too and minimal, and no two rows may repeat a
    seed.
    """
    from sudokit import count_solutions
    from sudokit._reference import search as reference_search
    from sudokit.batch import read_rows
    from sudokit.generator import is_minimal

    rng = random.Random(0)
    rows = bad = 0
    seeds: set[int] = set()
    checked_by_reference = 0
    for row in read_rows(path):
        rows += 1
        puzzle, solution = Grid.parse(row["puzzle"]), Grid.parse(row["solution"])
        ok = solution.is_solution(puzzle) and puzzle.clues == int(row["clues"])
        ok = ok and count_solutions(puzzle, 2) == 1 and int(row["guesses"]) >= 0
        seeds.add(int(row["seed"]))
        if rng.random() < sample / 100_000:
            count, _, _, complete = reference_search(puzzle.shape, puzzle.cells, 2, 0, 0)
            ok = ok and complete and count == 1 and is_minimal(puzzle)
            checked_by_reference += 1
        bad += not ok
    return (
        f"verified {path.name}: {rows} rows, {bad} bad, {len(seeds)} distinct seeds, "
        f"{checked_by_reference} re-checked by the reference engine (and minimal)"
    )


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of a live process, from ``/proc`` (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_split(cmd: list[str]) -> dict[str, Any]:
    """Run *cmd*; wall time, total CPU, and the CPU of each of its worker processes (the
    parent's is the rest: an upper bound, as a worker's last 20 ms may go unsampled)."""
    env = {**os.environ, "SUDOKIT_NO_PROGRESS": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers: dict[int, float] = {}
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            kids = []
        for kid in kids:
            workers[kid] = max(workers.get(kid, 0.0), _cpu_of(kid))
        time.sleep(0.02)
    # poll() reaped it: the rusage of the whole tree is in our children's times
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed: {err}")
    return {"wall": wall, "workers": sorted(workers.values(), reverse=True)}


def speedup(sk: list[str], work: Path, data: Path, rounds: int) -> None:
    """Alternating ``--jobs 1`` / ``--jobs 2`` runs of the three bulk commands (see above)."""
    lines = work / "solve-100000.txt"
    if not lines.exists():
        build_lines(data, 100_000, lines)
    runs = {  # each command ends with its output option; the file name follows
        "generate -n 20000 --seed 1": [*sk, "generate", "-n", "20000", "--seed", "1", "-o"],
        "dataset -n 10000 --seed 1": [*sk, "dataset", "-n", "10000", "--seed", "1", "--out"],
        "solve 100,000 lines --resume": [*sk, "solve", str(lines), "--resume", "-o"],
    }
    print("| command | --jobs | wall s | CPU s | parent CPU s | worker CPU s | load (1 min) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    summary = []
    for label, command in runs.items():
        ratios = []
        reference: bytes | None = None
        for _ in range(rounds):
            walls = {}
            for jobs in (1, 2):
                out = work / f"speedup-{jobs}.out"
                load = os.getloadavg()[0]
                before = os.times()
                m = measure_split([*command, str(out), "--jobs", str(jobs)])
                after = os.times()
                cpu = sum(after[2:4]) - sum(before[2:4])
                parent = cpu - sum(m["workers"])
                body = out.read_bytes()
                if reference is None:
                    reference = body
                elif body != reference:
                    raise SystemExit(f"{label} --jobs {jobs}: output differs from --jobs 1")
                walls[jobs] = m["wall"]
                shown = " + ".join(f"{w:.2f}" for w in m["workers"]) or "-"
                print(
                    f"| {label} | {jobs} | {m['wall']:.2f} | {cpu:.2f} | {parent:.2f} | {shown} "
                    f"| {load:.2f} |",
                    flush=True,
                )
            ratios.append(walls[1] / walls[2])
        ratios.sort()
        summary.append(
            f"{label}: --jobs 2 / --jobs 1 wall ratio median {ratios[len(ratios) // 2]:.2f}x "
            f"(runs: {', '.join(f'{r:.2f}' for r in ratios)})"
        )
    print()
    for line in summary:
        print(f"- {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--small", type=int, default=2_000)
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--work", type=Path, default=Path("/tmp/sudokit-bench-dataset"))
    ap.add_argument("--skip-solve", action="store_true")
    ap.add_argument("--skip-dataset", action="store_true")
    ap.add_argument("--verify", type=Path, metavar="FILE", help="Only verify a dataset file.")
    ap.add_argument(
        "--speedup", type=int, metavar="R", help="Only the --jobs 2 / --jobs 1 rounds (R of them)."
    )
    args = ap.parse_args()
    if args.verify:
        print(verify(args.verify))
        return
    args.work.mkdir(parents=True, exist_ok=True)
    sk = [sys.executable, "-m", "sudokit"]
    commit = code_commit()
    print(f"# bench_dataset  {platform.node()}  {platform.processor() or platform.machine()}")
    print(f"# cpus {os.cpu_count()}  load {os.getloadavg()}  commit {commit}")
    print(f"# python {platform.python_version()}  {platform.platform()}")
    if args.speedup:
        speedup(sk, args.work, args.data, args.speedup)
        return
    print("| run | rows | wall s | CPU s | rows/s (wall) | rows/s per CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rate: dict[str, float] = {}

    def row(label: str, rows: int, m: dict[str, float]) -> None:
        rate[label] = rows / m["wall"]
        print(
            f"| {label} | {rows} | {m['wall']:.1f} | {m['cpu']:.1f} | {rows / m['wall']:.0f} "
            f"| {rows / m['cpu']:.0f} | {m['rss_mb']:.0f} |",
            flush=True,
        )

    if not args.skip_dataset:
        for n, jobs in ((args.small, 2), (args.n, 1), (args.n, 2)):
            out = args.work / f"d{n}-{jobs}.csv"
            m = measure([*sk, "dataset", "-n", str(n), "--out", str(out), "--jobs", str(jobs)])
            row(f"dataset -n {n} --jobs {jobs}", n, m)
        one, two = rate[f"dataset -n {args.n} --jobs 1"], rate[f"dataset -n {args.n} --jobs 2"]
        print(f"\nspeed-up of --jobs 2 over --jobs 1 (wall): {two / one:.2f}x")
        print(f"extrapolated 1,000,000 rows with --jobs 2: {1e6 / two / 60:.1f} min (wall)")
    if not args.skip_solve:
        lines = args.work / f"solve-{args.lines}.txt"
        if not lines.exists():
            build_lines(args.data, args.lines, lines)
        for jobs in (1, 2):
            cmd = [*sk, "solve", str(lines), "-o", os.devnull, "--jobs", str(jobs)]
            row(f"solve {args.lines} lines --jobs {jobs}", args.lines, measure(cmd))
        out = args.work / "solved.txt"
        cmd = [*sk, "solve", str(lines), "-o", str(out), "--jobs", "2", "--resume"]
        row(
            f"solve {args.lines} lines --jobs 2 --resume (processes, shards)",
            args.lines,
            measure(cmd),
        )


if __name__ == "__main__":
    main()
