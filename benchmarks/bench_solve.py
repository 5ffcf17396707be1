"""Search benchmark of sudokit, tdoku-style: random isomorphs, validated warm-up, then timing.

    python benchmarks/bench_solve.py [--sets top95,serg] [--quick] [--runs 3] [--seed 1]
                                     [--data DIR] [--out DIR | --no-write]

``sudokit bench`` runs this same file (from a source checkout). For every puzzle set in the
data directory (``../shared/data`` next to the repository, or ``$SUDOKIT_DATA``):

1. each puzzle is replaced by a random isomorph (:func:`sudokit.transform.random_isomorph`,
   one seeded ``random.Random``), so no solver profits from how a file was written;
2. warm-up and validation: one batch pass at limit 2; every first solution must pass
   :meth:`Grid.is_solution`, counts must be 1 (2 for ``serg``, whose puzzles are not proper),
   and the per-call path must agree; a sample is re-solved by the pure-Python reference and
   by the generic C path (independent engines) and must give the same counts;
3. timing (limit 2 = solve and prove uniqueness), each the median of ``--runs`` passes:
   the C per-call API (``engine().search``), the C batch call on one thread and on all cores,
   the generic C path on a sample (an in-run C reference point, immune to machine noise),
   the public ``sudokit.solve`` on a sample, and the reference on a small sample
   (extrapolated, labelled as such).

Single-thread figures are CPU time of the calling thread (``time.thread_time``): the
machine this was written on is shared, and CPU time is far less noisy than wall time there.
The all-cores figure is wall time (it has to be). Ratios are against tdoku's figures for
this machine kind (ARCHITECTURE.md section 11) and against engines timed in the same run.

Also measured: ``import sudokit`` (``-X importtime``, median of 5 fresh interpreters) and the
16x16 / 25x25 puzzles of ``tests/data/corpus.txt``. Results go to
``benchmarks/results/<date>-<commit>.json`` and ``.md`` with machine, compiler, flags, commit
(to ``build/bench-results/`` instead when csrc/ or src/ has uncommitted changes: a ``-dirty``
result is not a record of any commit).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import sudokit
from sudokit import Grid, Shape
from sudokit._backend import get_engine
from sudokit.transform import random_isomorph

ROOT = Path(__file__).resolve().parent.parent
NINE = Shape(3, 3)

# tdoku's figures on this machine kind, µs per puzzle, one thread, limit 2 (ARCHITECTURE §11).
TDOKU_US = {
    "17clue_49158": 3.3,
    "top1465": 9.4,
    "forum_hardest_1905_11plus": 52.0,
    "forum_hardest_1106": 82.0,
    "serg": 2.2,
    "top95": 8.8,
    "kaggle_1k": 1.1,
}
# Sets whose puzzles have two or more solutions (all others: exactly one).
MULTIPLE = {"serg"}
DEFAULT_ORDER = [
    "17clue_49158",
    "top1465",
    "forum_hardest_1905_11plus",
    "forum_hardest_1106",
    "serg",
    "top95",
    "kaggle_1k",
    "easy50",
    "hardest",
]


@dataclass
class SetResult:
    """Every figure measured on one puzzle set (times in µs per puzzle)."""

    name: str
    puzzles: int
    guesses_per_puzzle: float
    batch1_us: float
    batch1_min_us: float
    batch1_wall_us: float
    batch_all_us: float
    threads: int
    percall_us: float
    solve_api_us: float
    solve_api_sample: int
    generic_us: float
    generic_sample: int
    fast_on_generic_sample_us: float
    reference_us: float | None
    reference_sample: int
    fast_on_reference_sample_us: float
    tdoku_us: float | None
    checks: list[str] = field(default_factory=list)

    @property
    def vs_tdoku(self) -> float | None:
        return self.batch1_us / self.tdoku_us if self.tdoku_us else None


def _median_time(fn: Callable[[], object], runs: int, clock: Callable[[], float]) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return times


def load_set(path: Path, limit: int | None, rng: random.Random) -> list[Grid]:
    """The puzzles of *path* (at most *limit*), each replaced by a random isomorph."""
    grids = []
    with path.open() as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            grids.append(random_isomorph(Grid.parse(line, NINE), rng))
            if limit is not None and len(grids) >= limit:
                break
    return grids


def _sample(grids: Sequence[Grid], k: int) -> list[Grid]:
    """*k* puzzles spread evenly over *grids*."""
    if k >= len(grids):
        return list(grids)
    step = len(grids) / k
    return [grids[int(i * step)] for i in range(k)]


def bench_set(name: str, grids: list[Grid], args: argparse.Namespace) -> SetResult:
    """Validate then time one set; raises SystemExit when an answer is wrong."""
    fast = get_engine("c")
    from sudokit._cengine import CEngine

    generic = CEngine(generic=True)
    reference = get_engine("python")
    n = len(grids)
    buffer = b"".join(g.cells for g in grids)
    cells = [g.cells for g in grids]
    want = 2 if name in MULTIPLE else 1
    threads = os.cpu_count() or 1
    checks: list[str] = []

    # -- warm-up and validation ----------------------------------------------------------
    out = fast.search_batch(NINE, buffer, 2, 0, 1)
    bad = [
        i
        for i, g in enumerate(grids)
        if out.counts[i] != want
        or not out.complete[i]
        or not Grid(out.solutions[81 * i : 81 * i + 81], NINE).is_solution(g)
    ]
    if bad:
        raise SystemExit(f"{name}: {len(bad)} wrong answers from the batch path, first #{bad[0]}")
    checks.append(f"batch: all {n} counts == {want}, every first solution valid")
    guesses = sum(out.guesses) / n
    for i, c in enumerate(cells[: min(n, 2000)]):
        one = fast.search(NINE, c, 2, 1, 0)
        if one.count != out.counts[i] or (
            want == 1 and one.solutions[0] != out.solutions[81 * i : 81 * i + 81]
        ):
            raise SystemExit(f"{name} #{i}: per-call and batch paths disagree")
    checks.append(f"per-call == batch on {min(n, 2000)} puzzles")

    # -- the generic C path on a sample: an independent engine and an in-run reference point --
    gen_sample = _sample(grids, 100 if args.quick else 300)
    gen_cells = [g.cells for g in gen_sample]
    for g in gen_sample:
        r = generic.search(NINE, g.cells, 2, 1, 0)
        if r.count != want:
            raise SystemExit(f"{name}: generic C path counts {r.count} for {g}")
    checks.append(f"generic C path agrees on {len(gen_sample)} puzzles")
    gen_buf = b"".join(gen_cells)
    gen_t = _median_time(
        lambda: generic.search_batch(NINE, gen_buf, 2, 0, 1), args.runs, time.thread_time
    )
    fast_gen_t = _median_time(
        lambda: fast.search_batch(NINE, gen_buf, 2, 0, 1), args.runs, time.thread_time
    )

    # -- the pure-Python reference: a few puzzles, time-boxed, extrapolated --------------
    ref_sample: list[Grid] = []
    ref_time = 0.0
    box = 1.0 if args.quick else 4.0
    for g in _sample(grids, 50):
        t0 = time.thread_time()
        r = reference.search(NINE, g.cells, 2, 1, 0)
        ref_time += time.thread_time() - t0
        if r.count != want:
            raise SystemExit(f"{name}: the reference counts {r.count} for {g}")
        ref_sample.append(g)
        if ref_time >= box:
            break
    checks.append(f"reference agrees on {len(ref_sample)} puzzles")
    ref_buf = b"".join(g.cells for g in ref_sample)
    fast_ref_t = _median_time(
        lambda: fast.search_batch(NINE, ref_buf, 2, 0, 1), max(args.runs, 5), time.thread_time
    )

    # -- timing ----------------------------------------------------------------------------
    batch1 = _median_time(
        lambda: fast.search_batch(NINE, buffer, 2, 0, 1), args.runs, time.thread_time
    )
    # Wall time for both sides of the thread speed-up (CPU time would hide the waiting).
    batch1_wall = _median_time(
        lambda: fast.search_batch(NINE, buffer, 2, 0, 1), args.runs, time.perf_counter
    )
    batch_all = _median_time(
        lambda: fast.search_batch(NINE, buffer, 2, 0, threads), args.runs, time.perf_counter
    )

    def per_call() -> None:
        search = fast.search
        for c in cells:
            search(NINE, c, 2, 1, 0)

    percall = _median_time(per_call, args.runs, time.thread_time)
    api_sample = _sample(grids, 300 if args.quick else 1000)

    def api() -> None:
        for g in api_sample:
            sudokit.solve(g)

    api_t = _median_time(api, args.runs, time.thread_time)

    us = 1e6
    return SetResult(
        name=name,
        puzzles=n,
        guesses_per_puzzle=guesses,
        batch1_us=statistics.median(batch1) / n * us,
        batch1_min_us=min(batch1) / n * us,
        batch1_wall_us=statistics.median(batch1_wall) / n * us,
        batch_all_us=statistics.median(batch_all) / n * us,
        threads=threads,
        percall_us=statistics.median(percall) / n * us,
        solve_api_us=statistics.median(api_t) / len(api_sample) * us,
        solve_api_sample=len(api_sample),
        generic_us=statistics.median(gen_t) / len(gen_sample) * us,
        generic_sample=len(gen_sample),
        fast_on_generic_sample_us=statistics.median(fast_gen_t) / len(gen_sample) * us,
        reference_us=ref_time / len(ref_sample) * us if ref_sample else None,
        reference_sample=len(ref_sample),
        fast_on_reference_sample_us=statistics.median(fast_ref_t) / max(len(ref_sample), 1) * us,
        tdoku_us=TDOKU_US.get(name),
        checks=checks,
    )


def import_time_ms(repeats: int = 5) -> float:
    """Median cumulative ``import sudokit`` time in ms, fresh interpreters (-X importtime)."""
    times = []
    for _ in range(repeats):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import sudokit"],
            capture_output=True,
            text=True,
            check=True,
        )
        for line in proc.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] == "sudokit":
                times.append(int(parts[1]) / 1000)
    return statistics.median(times)


_CORPUS_LINE = re.compile(r"^(?P<opts>(?:[^:;]*;)*)(?P<puzzle>[^:;]+):(?P<count>\d+):")


def big_grids(corpus: Path) -> list[tuple[str, Grid, int]]:
    """The plain (no box/x/jigsaw option) 16x16 and 25x25 puzzles of the test corpus."""
    found: list[tuple[str, Grid, int]] = []
    if not corpus.is_file():
        return found
    for line in corpus.read_text().splitlines():
        m = _CORPUS_LINE.match(line)
        if not m or m.group("opts"):
            continue
        size = {256: 16, 625: 25}.get(len(m.group("puzzle")))
        if size is None:
            continue
        grid = Grid.parse(m.group("puzzle"), Shape.from_size(size))
        if not grid.conflicts():
            found.append((f"{size}x{size}", grid, int(m.group("count"))))
    return found


def bench_big(corpus: Path) -> list[dict[str, Any]]:
    """Solve time (limit 2, first call, then median of 3) of each big corpus puzzle."""
    rows = []
    eng = get_engine("c")
    for label, grid, count in big_grids(corpus):
        t0 = time.perf_counter()
        found = eng.search(grid.shape, grid.cells, 2, 1, 0)
        first = time.perf_counter() - t0
        again = _median_time(
            partial(eng.search, grid.shape, grid.cells, 2, 1, 0), 3, time.perf_counter
        )
        ok = found.count == min(count, 2) and (
            count != 1 or Grid(found.solutions[0], grid.shape).is_solution(grid)
        )
        rows.append(
            {
                "size": label,
                "clues": grid.clues,
                "count": found.count,
                "expected": min(count, 2),
                "ok": ok,
                "first_ms": first * 1e3,
                "median_ms": statistics.median(again) * 1e3,
                "guesses": found.guesses,
            }
        )
    return rows


def _run(cmd: Sequence[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def machine_info() -> dict[str, Any]:
    """Machine, compiler, flags and commit of this run."""
    model = ""
    for line in _run(["lscpu"]).splitlines():
        if line.startswith("Model name:"):
            model = line.split(":", 1)[1].strip()
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    commit = _run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]) or "unknown"
    dirty = _run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "csrc", "src"])
    from sudokit import _core

    return {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit + ("-dirty" if dirty else ""),
        "cpu": model or platform.processor(),
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "compiler": (_run([cc, "--version"]).splitlines() or [cc])[0],
        "flags": "-O3 -march="
        + os.environ.get("SUDOKIT_MARCH", "native")
        + " -Wall -Wextra -UNDEBUG (setup.py defaults)",
        "fast9": bool(_core.FAST9),
        "backend": sudokit.BACKEND,
    }


def _fmt(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def render_markdown(
    info: dict[str, Any], sets: list[SetResult], imp: float, big: list[dict[str, Any]]
) -> str:
    """The results as a Markdown report."""
    lines = [
        f"# sudokit search benchmark, {info['date']}",
        "",
        f"- commit `{info['commit']}`, backend `{info['backend']}`, 9x9 fast path: {info['fast9']}",
        f"- machine: {info['cpu']}, {info['cores']} cores, load average at start "
        + ", ".join(f"{x:.1f}" for x in info["load_average"]),
        f"- compiler: {info['compiler']}; flags: {info['flags']}; Python {info['python']}",
        "- method: every puzzle replaced by a seeded random isomorph; validated warm-up; limit 2"
        " (solve and prove unique); single-thread times are CPU time of the thread, medians of"
        " the runs; all-cores is wall time. The machine is shared: absolute figures are noisy,"
        " the in-run ratios (vs generic C path, vs reference) much less so.",
        "",
        "## C engine, one thread (batch call), against tdoku",
        "",
        "| set | puzzles | µs/puzzle | puzzles/s | guesses/puzzle | tdoku µs | vs tdoku"
        " | bar (2x) |",
        "|---|---:|---:|---:|---:|---:|---:|:-:|",
    ]
    for r in sets:
        vs = r.vs_tdoku
        bar = "-" if vs is None else ("ok" if vs <= 2.0 else "MISSED")
        lines.append(
            f"| {r.name} | {r.puzzles:,} | {r.batch1_us:.2f} | {1e6 / r.batch1_us:,.0f} | "
            f"{r.guesses_per_puzzle:.2f} | {_fmt(r.tdoku_us, 1)} | {_fmt(vs)}x | {bar} |"
        )
    lines += [
        "",
        "## Paths compared (µs/puzzle)",
        "",
        "| set | batch 1 thread (min) | batch 1 thread, wall | batch all cores, wall"
        " | thread speed-up (wall) | per-call engine.search"
        " | per-call overhead | sudokit.solve (sample) | generic C path (sample) | fast/generic"
        " | reference, extrapolated (sample) | reference / C |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in sets:
        ref_ratio = (
            r.reference_us / r.fast_on_reference_sample_us
            if r.reference_us and r.fast_on_reference_sample_us
            else None
        )
        lines.append(
            f"| {r.name} | {r.batch1_us:.2f} ({r.batch1_min_us:.2f}) | {r.batch1_wall_us:.2f} | "
            f"{r.batch_all_us:.2f} | {r.batch1_wall_us / r.batch_all_us:.2f}x | "
            f"{r.percall_us:.2f} | "
            f"{r.percall_us - r.batch1_us:+.2f} | {r.solve_api_us:.1f} ({r.solve_api_sample}) | "
            f"{r.generic_us:.1f} ({r.generic_sample}) | "
            f"{r.generic_us / r.fast_on_generic_sample_us:.1f}x faster | "
            f"{_fmt(r.reference_us, 0)} ({r.reference_sample}) | {_fmt(ref_ratio, 0)}x |"
        )
    lines += [
        "",
        "The reference column is the pure-Python engine on a time-boxed sample, extrapolated per"
        " puzzle; its ratio is against the C batch path on the same sample puzzles. The thread"
        " speed-up compares wall times of the same batch on 1 and on all threads; on a loaded"
        " machine (see the load average) it mostly measures the load.",
        "",
        "## Other figures",
        "",
        f"- `import sudokit`: {imp:.1f} ms (median of 5, -X importtime, cumulative)",
    ]
    for b in big:
        lines.append(
            f"- {b['size']} ({b['clues']} clues): count {b['count']} (expected {b['expected']}, "
            f"{'ok' if b['ok'] else 'WRONG'}), first call {b['first_ms']:.1f} ms, "
            f"median {b['median_ms']:.1f} ms, {b['guesses']} guesses"
        )
    lines += ["", "## Validation", ""]
    for r in sets:
        lines.append(f"- {r.name}: " + "; ".join(r.checks))
    return "\n".join(lines) + "\n"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sets", default="", help="comma-separated set names (default: all found)")
    p.add_argument("--quick", action="store_true", help="at most 2,000 puzzles a set, 1 run")
    p.add_argument("--runs", type=int, default=3, help="timed passes per figure (median)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random isomorphs")
    p.add_argument(
        "--data", default=os.environ.get("SUDOKIT_DATA", str(ROOT.parent / "shared" / "data"))
    )
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    p.add_argument("--no-write", action="store_true", help="print only, write no result files")
    args = p.parse_args(argv)
    if args.quick:
        args.runs = 1
    return args


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def main(
    argv: Sequence[str] | None = None,
    echo: Callable[[str], None] = print,
    err: Callable[[str], None] = _stderr,
) -> int:
    """Run the benchmark; returns an exit code (2, after one *err* line, when nothing can be
    measured). A wrong answer from an engine raises SystemExit with a message."""
    args = parse_args(argv)
    if sudokit.BACKEND != "c":
        err("bench: the C core is not built (sudokit.BACKEND is 'python')")
        return 2
    data = Path(args.data)
    available = {p.stem: p for p in sorted(data.glob("*.txt"))}
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()] or [
        s for s in DEFAULT_ORDER if s in available
    ]
    missing = [s for s in wanted if s not in available]
    if missing or not wanted:
        err(f"bench: no puzzle set {', '.join(missing) or '(any)'} in {data}")
        return 2
    info = machine_info()
    rng = random.Random(args.seed)
    results = []
    for name in wanted:
        grids = load_set(available[name], 2000 if args.quick else None, rng)
        r = bench_set(name, grids, args)
        results.append(r)
        echo(
            f"{name:28} {r.puzzles:6d} puzzles  {r.batch1_us:8.2f} µs/puzzle  "
            f"{1e6 / r.batch1_us:10,.0f}/s  {r.guesses_per_puzzle:7.2f} guesses  "
            + (f"{r.vs_tdoku:.2f}x tdoku" if r.vs_tdoku else "")
        )
    imp = import_time_ms()
    big = bench_big(ROOT / "tests" / "data" / "corpus.txt")
    report = render_markdown(info, results, imp, big)
    echo("")
    echo(report)
    if not args.no_write:
        out = Path(args.out)
        if info["commit"].endswith("-dirty") and out == ROOT / "benchmarks" / "results":
            out = ROOT / "build" / "bench-results"  # uncommitted code: kept out of the record
        out.mkdir(parents=True, exist_ok=True)
        stem = f"{_dt.date.today().isoformat()}-{info['commit']}"
        (out / f"{stem}.md").write_text(report)
        payload = {
            "machine": info,
            "sets": [asdict(r) | {"vs_tdoku": r.vs_tdoku} for r in results],
            "import_ms": imp,
            "big": big,
            "args": vars(args),
        }
        (out / f"{stem}.json").write_text(json.dumps(payload, indent=2) + "\n")
        echo(f"written: {out / stem}.md and .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
