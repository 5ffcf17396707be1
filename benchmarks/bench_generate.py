"""Benchmark: puzzle generation (targets: 9x9 minimal unique >= 2,000/s on one core and
>= 1.8x that on two; 16x16 >= 5/s; 25x25 >= 0.5/s; a flat blank-cell chart up to 64 blanks).

Three parts, all in one run on one machine (so ratios compare across machines):

* **blank-cell chart**: the CPU time to generate a unique 9x9 puzzle with exactly ``b`` blank
  cells (``clues = 81 - b``), ``b = 1..64``, min / median / max over ``--repeat`` seeds (CPU
  time, since wall time on a shared machine mostly measures the neighbours), drawn with
  matplotlib to ``results/generate_blanks.png``; runs that do not reach the count within
  ``--budget`` searches are counted and drawn as the success rate. From 58 blanks (23
  clues) on the generator switches to :mod:`sudokit.generator.lowclue` (descents from random grids
  for 20-23 clues, the packaged 17-clue catalogue for 17-19): the table names the method
  per count and how many descents fell back to a catalogue 17. One untimed puzzle first
  loads the catalogue.
* **throughput table**: puzzles per second per shape, symmetry and variant, one process (wall
  and CPU time) and ``--jobs`` processes, with mean clues, the share proven minimal and engine
  searches per puzzle.
* **where the time goes**: for 9x9 minimal, the share spent inside the C search versus the
  Python policy, and the same generation on the pure-Python reference engine (a ratio).
* **by level** (targets, one core: hard = SE 4.0-6.0 >= 10 puzzles/s, expert = SE
  6.2-7.5 >= 2/s): puzzles per CPU second for each level, rating window and required
  technique, every puzzle re-rated by :func:`sudokit.rate` outside the timed part (the
  "in window" column), next to plain generate-and-reject (minimal puzzles rated by
  :func:`sudokit.rate` until one fits) as the baseline.

* **--levels** (generation by level: hard, expert and extreme puzzles a second on one core,
  before and after a change): only that table, one process, CPU time, each puzzle timed on
  its own (mean rate and median CPU a puzzle), every puzzle re-rated outside the timed part;
  written to ``results/levels-<date>-<commit>.md`` and ``.json`` so that runs at two commits
  sit side by side. Windows above SE 7.5 (extreme) give each rating walk a 10 s budget, so
  their puzzles, unlike the others', depend on the machine's speed.
* **--tdoku** (target: minimal 9x9 at or past tdoku's library generator): minimal 9x9
  puzzles a CPU second through ``sudokit generate`` (whole process, output to /dev/null) and
  through :func:`generate_many`, against tdoku's ``Constrain`` + ``Minimize`` built from
  ``../shared/baselines/tdoku`` (``$SUDOKIT_TDOKU``) by ``benchmarks/c/tdoku_generate.cc``, all
  in the same run, rounds alternating, medians; skipped with a note when tdoku is absent.

Usage: ``python benchmarks/bench_generate.py [--quick] [--repeat 15] [--jobs 2]``; it writes
``results/generate.json``, ``results/generate.md`` and the PNG. ``--levels`` and ``--tdoku``
run only their part. The machine is shared and noisy: read the figures as ratios within a run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import sudokit
from _commit import code_commit
from sudokit import _backend
from sudokit.errors import BudgetExceededError
from sudokit.generator import derive_seed, generate, generate_many, lowclue

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    """What ran the benchmark: platform, Python, compiler, cores, commit, backend."""
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": sys.version.split()[0],
        "compiler": sysconfig.get_config_var("CC") or "?",
        "cores": os.cpu_count(),
        "commit": code_commit(),
        "backend": sudokit.BACKEND,
        "sudokit": sudokit.__version__,
    }


# -- the blank-cell chart ---------------------------------------------------------------------


def route(clues: int, fallbacks: int, runs: int) -> str:
    """How the generator makes a 9x9 puzzle with *clues* clues (see sudokit.generator.lowclue)."""
    if clues > lowclue.LOW_CLUES:
        return "removal pass (+ swap moves)"
    if clues < lowclue.SEEDED_BELOW:
        grows = clues - 17
        return "catalogue 17 + walk" + (f" + {grows} x {{-1,+2}}" if grows else "")
    share = f"; {fallbacks}/{runs} fell back to a catalogue 17" if fallbacks else ""
    return "random minimal + {-2,+1}/{-1,+1} descent" + share


def blank_chart(blanks: range, repeat: int, budget: int) -> list[dict[str, Any]]:
    generate(clues=17, seed=0)  # load the seed catalogue once (not part of a puzzle's cost)
    seeded = lowclue._seeded
    fell_back = [False]

    def counted(goal: int, *args: Any) -> Any:  # notes a descent that fell back to a 17
        fell_back[0] = fell_back[0] or goal >= lowclue.SEEDED_BELOW
        return seeded(goal, *args)

    lowclue._seeded = counted  # type: ignore[assignment]
    rows = []
    try:
        for b in blanks:
            times, walls, ok, fallbacks = [], [], 0, 0
            for r in range(repeat):
                fell_back[0] = False
                t, w = time.process_time(), time.perf_counter()
                try:
                    generate(clues=81 - b, seed=derive_seed(b, r), budget=budget)
                    ok += 1
                except BudgetExceededError:
                    pass
                fallbacks += fell_back[0]
                times.append(time.process_time() - t)
                walls.append(time.perf_counter() - w)
            rows.append(
                {
                    "blanks": b,
                    "min_ms": 1e3 * min(times),
                    "median_ms": 1e3 * statistics.median(times),
                    "max_ms": 1e3 * max(times),
                    "wall_median_ms": 1e3 * statistics.median(walls),
                    "wall_max_ms": 1e3 * max(walls),
                    "reached": ok / repeat,
                    "route": route(81 - b, fallbacks, repeat),
                }
            )
            last = rows[-1]
            print(
                f"  {b:2d} blanks: median {last['median_ms']:7.2f} ms, "
                f"max {last['max_ms']:7.2f} ms, reached {ok}/{repeat}; {last['route']}",
                file=sys.stderr,
            )
    finally:
        lowclue._seeded = seeded
    return rows


def draw_chart(rows: list[dict[str, Any]], info: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["blanks"] for r in rows]
    fig, ax = plt.subplots(figsize=(10, 5.5), dpi=120)
    ax.fill_between(
        x,
        [r["min_ms"] for r in rows],
        [r["max_ms"] for r in rows],
        alpha=0.25,
        color="tab:blue",
        label="min-max",
    )
    ax.plot(x, [r["median_ms"] for r in rows], color="tab:blue", marker=".", label="median")
    ax.set_yscale("log")
    # Where the generator changes method (sudokit.generator.lowclue takes over at 58 blanks).
    descent = 81 - lowclue.LOW_CLUES - 0.5
    seeded = 81 - lowclue.SEEDED_BELOW + 0.5
    ax.axvspan(descent, seeded, color="tab:green", alpha=0.08)
    ax.axvspan(seeded, max(x) + 1, color="tab:orange", alpha=0.10)
    ax.text(descent + 0.3, 0.97, "descent", transform=ax.get_xaxis_transform(), fontsize=7)
    ax.text(seeded + 0.3, 0.97, "17-seeded", transform=ax.get_xaxis_transform(), fontsize=7)
    ax.set_xlabel("blank cells (9x9, clues = 81 - blanks)")
    ax.set_ylabel("CPU time per unique puzzle (ms, log scale)")
    ax.set_xlim(0, max(x) + 1)
    ax.grid(True, which="both", alpha=0.3)
    share = ax.twinx()
    share.plot(
        x,
        [100 * r["reached"] for r in rows],
        color="tab:red",
        linestyle="--",
        label="runs reaching the count (%)",
    )
    share.set_ylabel("runs reaching the exact count within the budget (%)", color="tab:red")
    share.set_ylim(0, 105)
    lines = ax.get_legend_handles_labels()[0] + share.get_legend_handles_labels()[0]
    labels = ax.get_legend_handles_labels()[1] + share.get_legend_handles_labels()[1]
    ax.legend(lines, labels, loc="center left")
    ax.set_title(
        f"sudokit generate: unique 9x9 puzzles by blank cells ({info['repeat']} seeds each; "
        f"backend {info['backend']}, commit {info['commit']})",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# -- throughput -------------------------------------------------------------------------------

CASES: list[tuple[str, dict[str, Any], int]] = [
    ("4x4 minimal", {"size": 4}, 2000),
    ("6x6 minimal", {"size": 6}, 1000),
    ("9x9 minimal", {}, 1000),
    ("9x9 rot180 (no removable pair)", {"symmetry": "rot180"}, 1000),
    ("9x9 dihedral", {"symmetry": "dihedral"}, 1000),
    ("9x9 clues 28-32", {"clues": (28, 32)}, 1000),
    ("9x9 Sudoku-X minimal", {"diagonals": True}, 300),
    ("9x9 random jigsaw minimal", {"jigsaw": True}, 200),
    ("12x12 (3x4)", {"size": 12}, 40),
    ("16x16", {"size": 16}, 20),
    ("16x16 rot180", {"size": 16, "symmetry": "rot180"}, 20),
    ("25x25", {"size": 25}, 4),
    # variants (target: >= 20 unique zero-given 9x9 killers a second on one core)
    ("4x4 killer", {"size": 4, "killer": True}, 500),
    ("6x6 killer", {"size": 6, "killer": True}, 500),
    ("9x9 killer (zero givens)", {"killer": True}, 300),
    ("9x9 killer windoku rot180", {"killer": True, "windoku": True, "symmetry": "rot180"}, 200),
    ("16x16 killer", {"size": 16, "killer": True}, 3),
    ("9x9 windoku minimal", {"windoku": True}, 300),
    ("9x9 anti-knight minimal", {"antiknight": True}, 50),
    ("9x9 kropki (every dot)", {"kropki": True}, 300),
    ("9x9 XV (every X and V)", {"xv": True}, 300),
    ("9x9 thermometers", {"thermo": True}, 300),
]


def throughput(label: str, options: dict[str, Any], count: int, jobs: int) -> dict[str, Any]:
    t, c = time.perf_counter(), time.process_time()
    puzzles = list(generate_many(count, seed=1, **options))
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    row: dict[str, Any] = {
        "case": label,
        "count": count,
        "per_s": count / wall,
        "per_cpu_s": count / cpu,
        "clues": statistics.mean(p.clues for p in puzzles),
        "minimal": sum(p.minimal for p in puzzles) / count,
        "searches": statistics.mean(p.searches for p in puzzles),
    }
    if jobs > 1:
        t = time.perf_counter()
        again = list(generate_many(count, seed=1, jobs=jobs, **options))
        row[f"per_s_jobs{jobs}"] = count / (time.perf_counter() - t)
        assert [p.puzzle for p in again] == [p.puzzle for p in puzzles]
    print(f"  {label}: {row['per_s']:.1f}/s", file=sys.stderr)
    return row


def where_time_goes(count: int) -> dict[str, Any]:
    """For 9x9 minimal (CPU time): the share inside the C search, and the reference ratio."""
    out: dict[str, Any] = {}
    if sudokit.BACKEND == "c":
        from sudokit import _core

        inside = [0.0]
        original = _core.search

        def timed(*args: Any) -> Any:
            t = time.process_time()
            try:
                return original(*args)
            finally:
                inside[0] += time.process_time() - t

        _core.search = timed  # type: ignore[assignment]
        # Engine.bind reads _core.search when the generator binds a shape (once per puzzle)
        try:
            t = time.process_time()
            puzzles = list(generate_many(count, seed=2))
            total = time.process_time() - t
        finally:
            _core.search = original  # type: ignore[assignment]
        out["c_search_share"] = inside[0] / total
        out["c_search_us_per_call"] = 1e6 * inside[0] / sum(p.searches for p in puzzles)
        out["searches_per_puzzle"] = statistics.mean(p.searches for p in puzzles)
        n = max(10, count // 20)
        t = time.process_time()
        list(generate_many(n, seed=2))
        c_rate = n / (time.process_time() - t)
        t = time.process_time()
        slow = list(generate_many(n, seed=2, backend="python"))
        py_rate = n / (time.process_time() - t)
        assert [p.puzzle for p in slow] == [p.puzzle for p in puzzles[:n]]  # engine independent
        out["c_over_python_reference"] = c_rate / py_rate
    return out


#: (label, generate options, count, target puzzles per CPU second or None, SE window checked).
LEVEL_CASES: list[tuple[str, dict[str, Any], int, float | None, tuple[float, float]]] = [
    ("easy", {"difficulty": "easy"}, 200, None, (1.0, 2.3)),
    ("medium", {"difficulty": "medium"}, 100, None, (2.4, 3.9)),
    ("hard (SE 4.0-6.0)", {"difficulty": "hard"}, 150, 10.0, (4.0, 6.0)),
    ("hard, minimal", {"difficulty": "hard", "minimal": True}, 60, None, (4.0, 6.0)),
    ("hard, rot180", {"difficulty": "hard", "symmetry": "rot180"}, 40, None, (4.0, 6.0)),
    ("expert (SE 6.2-7.5)", {"rating": (6.2, 7.5)}, 60, 2.0, (6.2, 7.5)),
    (
        "SE 4.0-6.0 needing XY-Wing",
        {"rating": (4.0, 6.0), "require": "XY-Wing"},
        40,
        None,
        (4.0, 6.0),
    ),
    ("needing X-Wing (any rating)", {"require": "X-Wing"}, 40, None, (1.0, 11.0)),
    ("extreme (SE > 7.5)", {"difficulty": "extreme"}, 4, None, (7.6, 11.0)),
]


def by_level(scale: float) -> list[dict[str, Any]]:
    """Puzzles per CPU second for each difficulty target, each puzzle re-rated independently."""
    rows = []
    for label, options, count, target, (lo, hi) in LEVEL_CASES:
        n = max(2, int(count * scale))
        c = time.process_time()
        puzzles = list(generate_many(n, seed=3, **options))
        cpu = time.process_time() - c
        ratings = [sudokit.rate(p.puzzle) for p in puzzles]  # not timed: the check
        wanted = options.get("require")
        inside = sum(
            lo <= r.se <= hi and (wanted is None or wanted in r.techniques) for r in ratings
        )
        rows.append(
            {
                "case": label,
                "count": n,
                "per_cpu_s": n / cpu,
                "target": target,
                "in_window": inside / n,
                "se": statistics.mean(r.se for r in ratings),
                "clues": statistics.mean(p.clues for p in puzzles),
                "minimal": sum(p.minimal for p in puzzles) / n,
            }
        )
        print(f"  {label}: {n / cpu:.1f}/CPU s", file=sys.stderr)
    for label, (lo, hi), count in (
        ("hard by generate-and-reject", (4.0, 6.0), 15),
        ("expert by generate-and-reject", (6.2, 7.5), 15),
    ):
        n = max(2, int(count * scale))
        got, tried = 0, 0
        c = time.process_time()
        while got < n:
            p = generate(seed=derive_seed(4, tried))
            tried += 1
            got += lo <= sudokit.rate(p.puzzle).se <= hi
        cpu = time.process_time() - c
        rows.append({"case": label, "count": n, "per_cpu_s": n / cpu, "baseline": True})
        print(f"  {label}: {n / cpu:.1f}/CPU s", file=sys.stderr)
    return rows


#: The levels: (label, generate options, puzzles, SE window the re-rating checks).
LEVELS_ONLY: list[tuple[str, dict[str, Any], int, tuple[float, float]]] = [
    ("hard (SE 4.0-6.0)", {"difficulty": "hard"}, 100, (4.0, 6.0)),
    ("expert (SE 6.2-7.5)", {"difficulty": "expert"}, 40, (6.2, 7.5)),
    ("extreme (SE > 7.5)", {"difficulty": "extreme"}, 8, (7.6, 12.0)),
]


def levels_only(scale: float) -> list[dict[str, Any]]:
    """Generation by level: puzzles per CPU second on one core, each timed alone."""
    rows = []
    for label, options, count, (lo, hi) in LEVELS_ONLY:
        n = max(2, int(count * scale))
        times, puzzles = [], []
        for j in range(n):
            c = time.process_time()
            puzzles.append(generate(seed=derive_seed(3, j), **options))
            times.append(time.process_time() - c)
        ses = [sudokit.rate(p.puzzle).se for p in puzzles]  # not timed: the check
        rows.append(
            {
                "case": label,
                "count": n,
                "per_cpu_s": n / sum(times),
                "median_cpu_ms": 1e3 * statistics.median(times),
                "max_cpu_ms": 1e3 * max(times),
                "in_window": sum(lo <= se <= hi for se in ses) / n,
                "se": statistics.mean(ses),
                "clues": statistics.mean(p.clues for p in puzzles),
                "puzzles_sha256": _digest(str(p.puzzle) for p in puzzles),
            }
        )
        print(f"  {label}: {n / sum(times):.2f}/CPU s", file=sys.stderr)
    return rows


def _digest(lines: Iterable[str]) -> str:
    """A short digest of the puzzles (equal digests: the same puzzles before and after)."""
    import hashlib

    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def levels_markdown(info: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    lines = [
        "# Generation by level",
        "",
        f"Machine: {info['platform']}, {info['cores']} cores, Python {info['python']}; backend "
        f"{info['backend']}; commit {info['commit']}; load average at start {info['load']}. "
        "One process, CPU time, 9x9, seeds derive_seed(3, j); every puzzle re-rated by "
        "sudokit.rate outside the timed part. Command: "
        "`python benchmarks/bench_generate.py --levels`.",
        "",
        "| level | puzzles | per CPU s | median CPU ms | max CPU ms | in window | mean SE | "
        "mean clues | puzzles digest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['count']} | {r['per_cpu_s']:.2f} | {r['median_cpu_ms']:.0f} | "
            f"{r['max_cpu_ms']:.0f} | {100 * r['in_window']:.0f}% | {r['se']:.2f} | "
            f"{r['clues']:.1f} | {r['puzzles_sha256']} |"
        )
    return "\n".join(lines) + "\n"


# -- against tdoku's library generator --------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "bench-c"
TDOKU_FLAGS = ["-O3", "-march=native", "-DNDEBUG", "-std=gnu++14", "-fno-exceptions", "-fno-rtti"]


def build_tdoku_generator(tdoku: Path) -> tuple[Path | None, str]:
    """Build ``benchmarks/c/tdoku_generate.cc`` against tdoku's source (its own flags) into
    build/bench-c: (path, note), or (None, why not) when tdoku is absent or the build fails."""
    if not (tdoku / "solver_dpll_triad_simd.cc").is_file():
        return None, f"tdoku not found in {tdoku}: the comparison is skipped"
    BUILD.mkdir(parents=True, exist_ok=True)
    out = BUILD / "tdoku_generate"
    cmd = [
        "g++",
        *TDOKU_FLAGS,
        f"-I{tdoku}",
        "-o",
        str(out),
        str(ROOT / "benchmarks" / "c" / "tdoku_generate.cc"),
        str(tdoku / "solver_dpll_triad_simd.cc"),
        str(tdoku / "util.cc"),
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as exc:
        return None, f"cannot run g++ ({exc}): the comparison is skipped"
    if proc.returncode:
        return None, f"building tdoku_generate failed: {proc.stderr.strip()[:300]}"
    return out, f"tdoku from {tdoku} (Constrain + Minimize, its own flags)"


def _child_cpu(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one child process, its output thrown away."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def vs_tdoku(count: int, rounds: int, tdoku: Path) -> dict[str, Any]:
    """Minimal 9x9 puzzles a CPU second: the CLI (whole process), the library, tdoku's
    library generator; rounds alternate, medians per CPU second."""
    driver, note = build_tdoku_generator(tdoku)
    rates: dict[str, list[float]] = {"cli": [], "library": [], "tdoku": []}
    clues: dict[str, float] = {}
    cli = [sys.executable, "-m", "sudokit", "generate", "-n", str(count), "--seed", "1"]
    for r in range(rounds):
        if driver is not None:
            out = subprocess.run([str(driver), str(count)], capture_output=True, text=True)
            n, seconds, mean = out.stdout.split()
            rates["tdoku"].append(int(n) / float(seconds))
            clues["tdoku"] = float(mean)
        rates["cli"].append(count / _child_cpu(cli))
        c = time.process_time()
        puzzles = list(generate_many(count, seed=1 + r))
        rates["library"].append(count / (time.process_time() - c))
        clues["sudokit"] = statistics.mean(p.clues for p in puzzles)
        print(
            f"  round {r + 1}: " + ", ".join(f"{k} {v[-1]:.0f}/s" for k, v in rates.items() if v),
            file=sys.stderr,
        )
    med = {k: statistics.median(v) for k, v in rates.items() if v}
    return {
        "count": count,
        "rounds": rounds,
        "note": note,
        "per_cpu_s": med,
        "clues": clues,
        "load": f"{os.getloadavg()[0]:.2f}",
    }


def tdoku_markdown(info: dict[str, Any], res: dict[str, Any]) -> str:
    med = res["per_cpu_s"]
    lines = [
        "# Minimal 9x9 generation against tdoku's library generator",
        "",
        f"Machine: {info['platform']}, {info['cores']} cores, Python {info['python']}; backend "
        f"{info['backend']}; commit {info['commit']}; load average {info['load']} at the start, "
        f"{res['load']} at the end (shared machine: compare within the run). {res['note']}. "
        f"{res['count']} puzzles a round, {res['rounds']} rounds alternating, medians of CPU "
        "time. Command: `python benchmarks/bench_generate.py --tdoku`.",
        "",
        "| generator | puzzles per CPU s | vs tdoku | mean clues |",
        "|---|---:|---:|---:|",
    ]
    names = {
        "cli": "`sudokit generate -n N --seed 1` (whole process, output to /dev/null)",
        "library": "`generate_many(N, seed=...)` (in process)",
        "tdoku": "tdoku Constrain + Minimize (C++)",
    }
    for key in ("cli", "library", "tdoku"):
        if key not in med:
            continue
        ratio = f"{med[key] / med['tdoku']:.2f}x" if "tdoku" in med else ""
        mean = res["clues"].get("tdoku" if key == "tdoku" else "sudokit", float("nan"))
        lines.append(f"| {names[key]} | {med[key]:.0f} | {ratio} | {mean:.2f} |")
    return "\n".join(lines) + "\n"


def _time(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def markdown(
    info: dict[str, Any],
    chart: list[dict[str, Any]],
    table: list[dict[str, Any]],
    split: dict[str, Any],
    jobs: int,
    levels: list[dict[str, Any]] | None = None,
) -> str:
    lines = [
        "# Generation benchmark",
        "",
        f"Machine: {info['platform']}, {info['cores']} cores, Python {info['python']}, "
        f"{info['compiler']}; backend {info['backend']}; commit {info['commit']}. "
        "Shared and noisy: compare within the run.",
        "",
        f"| case | puzzles | per s (1 process) | per CPU s | per s ({jobs} processes) | "
        "mean clues | proven minimal | searches / puzzle |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in table:
        lines.append(
            f"| {r['case']} | {r['count']} | {r['per_s']:.1f} | {r['per_cpu_s']:.1f} | "
            f"{r.get(f'per_s_jobs{jobs}', float('nan')):.1f} | {r['clues']:.1f} | "
            f"{100 * r['minimal']:.0f}% | {r['searches']:.0f} |"
        )
    if split:
        lines += [
            "",
            f"9x9 minimal: {100 * split['c_search_share']:.0f}% of the CPU time in the C search "
            f"({split['c_search_us_per_call']:.1f} us per search, "
            f"{split['searches_per_puzzle']:.0f} searches per puzzle); the rest is Python policy. "
            f"C engine vs pure-Python reference: {split['c_over_python_reference']:.1f}x "
            "(same puzzles).",
        ]
    if levels:
        lines += [
            "",
            "By level (9x9, one core, CPU time; every puzzle re-rated by sudokit.rate):",
            "",
            "| case | puzzles | per CPU s | target | in window | mean SE | mean clues | minimal |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in levels:
            if r.get("baseline"):
                lines.append(
                    f"| {r['case']} (baseline) | {r['count']} | {r['per_cpu_s']:.1f} | | | | | |"
                )
                continue
            target = r["target"]
            mark = (
                ""
                if target is None
                else f">= {target:g}/s " + ("met" if r["per_cpu_s"] >= target else "MISSED")
            )
            lines.append(
                f"| {r['case']} | {r['count']} | {r['per_cpu_s']:.1f} | {mark} | "
                f"{100 * r['in_window']:.0f}% | {r['se']:.2f} | {r['clues']:.1f} | "
                f"{100 * r['minimal']:.0f}% |"
            )
    lines += [
        "",
        "Blank-cell chart (9x9, exact clue count 81 - blanks, CPU ms per puzzle over the seeds; "
        "from 58 blanks (23 clues) down every puzzle is minimal, made by "
        "sudokit.generator.lowclue; "
        "17-19 clues are seeded from the packaged 17-clue catalogue):",
        "",
        "| blanks | clues | min ms | median ms | max ms | reached | method |",
        "|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in chart:
        lines.append(
            f"| {r['blanks']} | {81 - r['blanks']} | {r['min_ms']:.2f} | {r['median_ms']:.2f} | "
            f"{r['max_ms']:.2f} | {100 * r['reached']:.0f}% | {r.get('route', '')} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    ap.add_argument("--repeat", type=int, default=15, help="seeds per blank count")
    ap.add_argument("--budget", type=int, default=30000, help="searches per chart puzzle")
    ap.add_argument("--jobs", type=int, default=2, help="processes for the parallel column")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument(
        "--parts",
        default="throughput,split,chart,levels",
        help="comma-separated parts to run; the others are kept from the last results file",
    )
    ap.add_argument(
        "--levels",
        action="store_true",
        help="only the generation by level (hard, expert, extreme), into "
        "results/levels-<date>-<commit>.md",
    )
    ap.add_argument(
        "--tdoku",
        nargs="?",
        const=os.environ.get("SUDOKIT_TDOKU", str(ROOT.parent / "shared" / "baselines" / "tdoku")),
        default=None,
        help="only minimal 9x9 against tdoku's library generator (default source: "
        "$SUDOKIT_TDOKU or ../shared/baselines/tdoku), into results/tdoku-gen-<date>-<commit>.md",
    )
    args = ap.parse_args()
    if args.tdoku is not None or args.levels:
        info = machine() | {"load": f"{os.getloadavg()[0]:.2f}"}
        if args.tdoku is not None:
            print("against tdoku:", file=sys.stderr)
            count, rounds = (2000, 3) if args.quick else (20000, 5)
            res: Any = vs_tdoku(count, rounds, Path(args.tdoku))
            name, key, text = "tdoku-gen", "result", tdoku_markdown(info, res)
        else:
            print("by level:", file=sys.stderr)
            res = levels_only(0.25 if args.quick else 1.0)
            name, key, text = "levels", "levels", levels_markdown(info, res)
        stem = f"{name}-{time.strftime('%Y-%m-%d')}-{info['commit'].split()[0]}"
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"{stem}.json").write_text(json.dumps({"machine": info, key: res}))
        (args.out / f"{stem}.md").write_text(text)
        print(text)
        return 0
    parts = set(args.parts.split(","))
    previous: dict[str, Any] = {}
    if (args.out / "generate.json").exists():
        previous = json.loads((args.out / "generate.json").read_text())
    scale = 0.05 if args.quick else 1.0
    repeat = 3 if args.quick else args.repeat
    info = machine() | {"repeat": repeat, "budget": args.budget}
    print("machine:", json.dumps(info), file=sys.stderr)
    print("throughput:", file=sys.stderr)
    table = (
        [
            throughput(label, options, max(2, int(count * scale)), args.jobs)
            for label, options, count in CASES
            if not (args.quick and label.startswith("25x25"))
        ]
        if "throughput" in parts
        else previous.get("throughput", [])
    )
    split = previous.get("split", {})
    if "split" in parts and _backend.BACKEND == "c":
        split = where_time_goes(max(40, int(1000 * scale)))
    levels = previous.get("levels", [])
    if "levels" in parts:
        print("by level:", file=sys.stderr)
        levels = by_level(scale * 4 if args.quick else 1.0)
    chart = previous.get("blanks", [])
    if "chart" in parts:
        print("blank-cell chart:", file=sys.stderr)
        chart = blank_chart(range(1, 65), repeat, args.budget)
    args.out.mkdir(parents=True, exist_ok=True)
    draw_chart(chart, info, args.out / "generate_blanks.png")
    (args.out / "generate.json").write_text(
        json.dumps(
            {
                "machine": info,
                "throughput": table,
                "split": split,
                "blanks": chart,
                "levels": levels,
            },
            indent=1,
        )
    )
    text = markdown(info, chart, table, split, args.jobs, levels)
    (args.out / "generate.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
