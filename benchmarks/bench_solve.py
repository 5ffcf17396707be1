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

Against tdoku itself (``../shared/baselines/tdoku``, or ``$SUDOKIT_TDOKU`` / ``--tdoku``; the
section is skipped, with a note, when it is absent or does not build): the C driver
``benchmarks/c/bench_fast9.c`` is built with tdoku linked in (``make bench_tdoku``, under
``build/bench-c/``; tdoku is a measuring stick and never part of the product), the isomorphs of
every set are written to a file there, and on those same puzzles, at limit 1 and limit 2:

(a) the C core from C against tdoku, both in one process, rounds alternating (``-T``);
(b) the Python batch paths: the engine's batch call on a bytes buffer, and the public
    ``sudokit.solve_many`` over the text lines, streamed and with every result kept in a list
    (a limit it refuses is shown as "-"), each against tdoku's time of (a);
(c) ``sudokit solve FILE`` as a whole process (CPU time of the child: user + system) against
    the same driver solving the file (``-F tdoku``: the same output, a unique puzzle costing
    tdoku a second call at limit 1 for its solution; ``-F tdoku1``: limit 1 only, no
    uniqueness proof) and our own C floor (``-F sk9``); outputs are compared byte for byte
    where every puzzle is unique. A set of fewer than 1,000 puzzles is also run in (a) and (b)
    as at least 1,000 isomorphs, K of each puzzle (a row ``NAME_xK``; the 11 "hardest" as
    1,100): 11 or 50 puzzles alone say more about the isomorphs drawn than about the solvers.
    A verdict table reads every set off its widened rows where it has them (:data:`MIN_COMPARED`).
    With the kaggle set (not with ``--quick``), also a
    1,000,000-line file (each kaggle puzzle under 1,000 seeded transforms), at ``--jobs 1``
    and ``--jobs 2`` (wall time for the latter comparison). ``--no-cli`` skips (c).

Also measured: ``import sudokit`` (``-X importtime``, median of 5 fresh interpreters) and the
16x16 / 25x25 puzzles of ``tests/data/corpus.txt``. Results go to
``benchmarks/results/<date>-<commit>.json`` and ``.md`` with machine, compiler, flags, commit
(to ``build/bench-results/`` instead when csrc/ or src/ has uncommitted changes: a ``-dirty``
result is not a record of any commit).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import operator
import os
import platform
import random
import re
import resource
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
from sudokit.transform import random_isomorph, random_transform

ROOT = Path(__file__).resolve().parent.parent
# `sudokit bench` and the tests load this file by its path: its directory is not on sys.path
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.append(str(ROOT / "benchmarks"))
from _commit import code_commit, write_result  # noqa: E402

NINE = Shape(3, 3)
BUILD = ROOT / "build" / "bench-c"

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


@dataclass
class VsTdoku:
    """One set at one limit against tdoku, µs and guesses per puzzle (see the docstring)."""

    name: str
    puzzles: int
    limit: int
    c_us: float
    c_guesses: float
    tdoku_us: float
    tdoku_guesses: float
    c_ratio: float  # median of the rounds' ratios, both in one process
    engine_batch_us: float
    solve_many_us: float | None  # None: solve_many refuses this limit
    load: float  # one-minute load average when the set started
    solve_many_kept_us: float | None = None  # the results kept in a list (memory, GC)


@dataclass
class CliRun:
    """A whole-process solve of one file: CPU seconds per puzzle (µs) of each command."""

    name: str
    puzzles: int
    sudokit_us: float
    tdoku_us: float
    tdoku1_us: float
    sk9_us: float
    same_output: bool | None  # None: not compared (puzzles with several solutions)
    load: float
    sudokit_startup_us: float  # per process: the same command on a file of one puzzle
    jobs1_wall_us: float | None = None
    jobs2_wall_us: float | None = None
    jobs2_cpu_us: float | None = None  # CPU of --jobs 2 (all threads): its overhead over one


def build_tdoku_driver(tdoku: Path, out: Path, opt: str = "-O3") -> tuple[Path | None, str]:
    """Build ``bench_fast9_tdoku`` (benchmarks/c/Makefile) into *out*: (path, note), or
    (None, why not) when tdoku's source is absent or the build fails. *opt* is the optimisation
    level of both sides (``-O3`` is tdoku's own): a test that checks the driver, not the speed,
    builds at ``-O1`` in half the CPU."""
    if not (tdoku / "solver_dpll_triad_simd.cc").is_file():
        return None, f"tdoku not found in {tdoku}: the comparison with it is skipped"
    out.mkdir(parents=True, exist_ok=True)
    cmd = ["make", "-s", "-C", str(ROOT / "benchmarks" / "c"), f"OUT={out}", f"TDOKU={tdoku}"]
    cmd.append(f"OPT={opt}")
    try:
        proc = subprocess.run([*cmd, "bench_tdoku"], capture_output=True, text=True)
    except OSError as exc:
        return None, f"cannot run make ({exc}): the comparison with tdoku is skipped"
    if proc.returncode:
        why = (proc.stderr.strip().splitlines() or ["make failed"])[-1]
        return None, f"building the tdoku driver failed ({why}): the comparison is skipped"
    return out / "bench_fast9_tdoku", f"tdoku from {tdoku}, built with its own CMake flags"


def write_lines(path: Path, lines: Sequence[str]) -> Path:
    """Write one puzzle a line (the isomorphs every timed path reads)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


IndexMap = tuple[Callable[[str], Sequence[str]], dict[int, int]]

#: The extra isomorphs drawn after a set's own: 100 of each "hardest" puzzle and the
#: 1,000,000-line kaggle file. They are drawn whether or not they are timed, so every set's
#: isomorphs depend on ``--seed`` alone (``--no-cli`` skipped the kaggle draw until
#: 2026-11-25 and so changed the isomorphs of the sets drawn after it: easy50, hardest).
EXTRA_COPIES = {"hardest": 100, "kaggle_1k": 1000}


#: Against tdoku, a set of fewer puzzles is also timed as this many isomorphs at least (k of
#: each puzzle): on 11 or 50 puzzles, one isomorph each, a ratio says more about the isomorphs
#: drawn than about the solvers (the 11 "hardest" at limit 1: 0.65x to 1.38x over seeds 1-8 of
#: the same code, benchmarks/results/2026-11-25-773942b-hardest.md). The set's verdict is read
#: off those rows.
MIN_COMPARED = 1000


def widening_maps(name: str, puzzles: int, extra: list[IndexMap], seed: int) -> list[IndexMap]:
    """The transforms that take a set of *puzzles* to at least :data:`MIN_COMPARED` isomorphs
    ([] when it has that many): its own extra draw when that is enough (the "hardest": 100
    each), else ``ceil(MIN_COMPARED / puzzles)`` drawn from a generator of their own, seeded
    by *seed* and *name*, so the main draw (every set's first isomorphs) does not change.

    >>> len(widening_maps("top95", 95, [], 1)), len(widening_maps("serg", 10000, [], 1))
    (11, 0)
    """
    if puzzles >= MIN_COMPARED:
        return []
    if puzzles * len(extra) >= MIN_COMPARED:
        return extra
    return draw_maps(-(-MIN_COMPARED // puzzles), random.Random(f"{seed}/{name}"))


def draw_maps(copies: int, rng: random.Random) -> list[IndexMap]:
    """*copies* random transforms drawn with *rng*, as (cell picker, digit table) pairs."""
    maps: list[IndexMap] = []
    for _ in range(copies):
        t = random_transform(NINE, rng)
        table = str.maketrans("".join(map(str, range(1, 10))), "".join(map(str, t.digits[1:])))
        maps.append((operator.itemgetter(*t.cells), table))
    return maps


def apply_maps(grids: Sequence[Grid], maps: Sequence[IndexMap]) -> list[str]:
    """``len(grids) * len(maps)`` isomorph lines: every grid under every map (index maps: fast
    enough for 10^6)."""
    texts = [g.to_line() for g in grids]
    return ["".join(pick(text)).translate(table) for pick, table in maps for text in texts]


def draw_sets(
    available: dict[str, Path],
    order: Sequence[str],
    wanted: Sequence[str],
    rng: random.Random,
    limit: int | None = None,
) -> dict[str, tuple[list[Grid], list[IndexMap]]]:
    """The isomorphs of every set (at most *limit* puzzles each) and the maps of its extra draw
    (:data:`EXTRA_COPIES`), by name. Every set is drawn in *order*, wanted or not, up to the
    last one *wanted*, so a set's isomorphs depend on the seed of *rng* alone, not on which sets
    or options a run asks for."""
    draws: dict[str, tuple[list[Grid], list[IndexMap]]] = {}
    for name in order:
        if draws.keys() >= set(wanted):
            break
        grids = load_set(available[name], limit, rng)
        draws[name] = (grids, draw_maps(EXTRA_COPIES.get(name, 0), rng))
    return draws


def compare_in_c(driver: Path, path: Path, runs: int) -> dict[int, tuple[float, ...]]:
    """Run ``driver -T -P`` on one isomorph file: {limit: (c µs, c guesses, tdoku µs, tdoku
    guesses, ratio)}; raises SystemExit when the two disagree on an answer."""
    proc = subprocess.run(
        [str(driver), "-T", "-P", "-r", str(runs), str(path)], capture_output=True, text=True
    )
    if proc.returncode:
        raise SystemExit(f"{path.stem}: sk9 and tdoku disagree: {proc.stderr.strip()}")
    found: dict[int, tuple[float, ...]] = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "cmp":
            found[int(parts[3])] = tuple(float(x) for x in parts[4:9])
    return found


def bench_vs_tdoku(
    name: str, grids: list[Grid], driver: Path, args: argparse.Namespace
) -> list[VsTdoku]:
    """(a) and (b) of the docstring on one set, at limit 1 and limit 2."""
    load = os.getloadavg()[0]
    lines = [g.to_line() for g in grids]
    path = write_lines(BUILD / "isomorphs" / f"{name}.txt", lines)
    in_c = compare_in_c(driver, path, args.runs)
    fast = get_engine("c")
    buffer = b"".join(g.cells for g in grids)
    n = len(grids)
    rows = []
    for limit in (1, 2):
        batch = _median_time(
            partial(fast.search_batch, NINE, buffer, limit, 0, 1), args.runs, time.thread_time
        )
        many_us = kept_us = None
        try:
            sudokit.solve_many(lines[:1], limit=limit)
        except ValueError:
            pass  # a limit this version refuses
        else:

            def stream(limit: int = limit) -> None:
                for _ in sudokit.solve_many(lines, limit=limit):
                    pass

            def kept(limit: int = limit) -> None:
                list(sudokit.solve_many(lines, limit=limit))

            many_us = statistics.median(_median_time(stream, args.runs, time.thread_time))
            many_us *= 1e6 / n
            kept_us = statistics.median(_median_time(kept, args.runs, time.thread_time))
            kept_us *= 1e6 / n
        c_us, c_g, t_us, t_g, ratio = in_c[limit]
        rows.append(
            VsTdoku(
                name=name,
                puzzles=n,
                limit=limit,
                c_us=c_us,
                c_guesses=c_g,
                tdoku_us=t_us,
                tdoku_guesses=t_g,
                c_ratio=ratio,
                engine_batch_us=statistics.median(batch) * 1e6 / n,
                solve_many_us=many_us,
                solve_many_kept_us=kept_us,
                load=load,
            )
        )
    return rows


def _child_cpu(cmd: Sequence[str], out: Path | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one child process (user + system, from rusage)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(out or os.devnull, "wb") as sink:
        proc = subprocess.run(cmd, stdout=sink, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # 1: a puzzle with several solutions (serg), said in `sudokit: ...` lines; anything else
    # on stderr (a traceback exits 1 too) makes the figure meaningless
    strange = [
        ln
        for ln in proc.stderr.decode(errors="replace").splitlines()
        if not ln.startswith("sudokit: ")
    ]
    if proc.returncode not in (0, 1) or strange:
        raise SystemExit(f"{' '.join(cmd)} exited with {proc.returncode}: {strange[:3]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall


def bench_cli(
    name: str, path: Path, puzzles: int, driver: Path, unique: bool, runs: int, jobs2: bool
) -> CliRun:
    """(c) of the docstring on one file: medians of *runs* whole-process runs of each command;
    with *jobs2*, also the wall time of ``sudokit solve --jobs 1`` and ``--jobs 2``."""
    load = os.getloadavg()[0]
    cli = [sys.executable, "-m", "sudokit", "solve"]
    cmds = {
        "sudokit": [*cli, str(path)],
        "tdoku": [str(driver), "-F", "tdoku", str(path)],
        "tdoku1": [str(driver), "-F", "tdoku1", str(path)],
        "sk9": [str(driver), "-F", "sk9", str(path)],
    }
    same: bool | None = None
    if unique:
        BUILD.mkdir(parents=True, exist_ok=True)  # a fresh clone has no build/ yet
        outs = {k: BUILD / f"out-{k}.txt" for k in ("sudokit", "tdoku")}
        for k, out in outs.items():
            _child_cpu(cmds[k], out)
        same = outs["sudokit"].read_bytes() == outs["tdoku"].read_bytes()
    cpu = {k: [_child_cpu(cmd)[0] for _ in range(runs)] for k, cmd in cmds.items()}
    us = {k: statistics.median(v) * 1e6 / puzzles for k, v in cpu.items()}
    # An empty file is an error for `sudokit solve`: the start-up is timed on one puzzle.
    one = write_lines(BUILD / "one.txt", path.read_text().splitlines()[:1])
    startup = statistics.median(_child_cpu([*cli, str(one)])[0] for _ in range(runs)) * 1e6
    row = CliRun(
        name, puzzles, us["sudokit"], us["tdoku"], us["tdoku1"], us["sk9"], same, load, startup
    )
    if jobs2:  # the bulk path's threads: runs alternate, so that both see the same load
        times: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
        for _ in range(runs):
            for jobs in (1, 2):
                times[jobs].append(_child_cpu([*cmds["sudokit"], "--jobs", str(jobs)]))
        for jobs, found in times.items():
            wall = statistics.median(w for _, w in found)
            setattr(row, f"jobs{jobs}_wall_us", wall * 1e6 / puzzles)
        row.jobs2_cpu_us = statistics.median(c for c, _ in times[2]) * 1e6 / puzzles
    return row


#: The targets against tdoku: the C core at most 1.0x on every set; ``solve_many`` at
#: most 1.15x where tdoku needs 3 µs or more a puzzle, 1.5x on the easy sets, which the targets
#: name (tdoku's time here depends on the load: a set's class does not).
C_TARGET, PYTHON_TARGET, PYTHON_EASY_TARGET = 1.0, 1.15, 1.5
EASY_SETS = frozenset({"kaggle_1k", "easy50", "serg"})


def render_verdict(rows: Sequence[VsTdoku]) -> list[str]:
    """Markdown lines: each set against the targets, read off its widened rows (``NAME_xK``,
    see :data:`MIN_COMPARED`) when it has them, else off its own."""
    groups: dict[str, list[VsTdoku]] = {}
    for r in rows:
        groups.setdefault(re.sub(r"_x\d+$", "", r.name), []).append(r)
    lines = [
        "",
        f"Verdict per set: C core <= {C_TARGET}x tdoku at limits 1 and 2; `solve_many` <="
        f" {PYTHON_TARGET}x, on the easy sets ({', '.join(sorted(EASY_SETS))}) <="
        f" {PYTHON_EASY_TARGET}x. A set of fewer than {MIN_COMPARED:,} puzzles is read off"
        " its widened rows (`_xK`: K isomorphs of each puzzle); its own rows, one isomorph"
        " each, are in the table above.",
        "",
        "| set | read off | puzzles | C / tdoku limit 1 | limit 2 | solve_many / tdoku limit 1"
        " | limit 2 | met |",
        "|---|---|---:|---:|---:|---:|---:|:-:|",
    ]
    for name, group in groups.items():
        used = [r for r in group if r.name != name] or group
        c = {r.limit: r.c_ratio for r in used}
        many = {r.limit: (r.solve_many_us / r.tdoku_us if r.solve_many_us else None) for r in used}
        python_target = PYTHON_EASY_TARGET if name in EASY_SETS else PYTHON_TARGET
        met = all(v <= C_TARGET for v in c.values()) and all(
            v is not None and v <= python_target for v in many.values()
        )
        lines.append(
            f"| {name} | {used[0].name} | {used[0].puzzles:,} | {_fmt(c.get(1))}x |"
            f" {_fmt(c.get(2))}x | {_fmt(many.get(1))}x | {_fmt(many.get(2))}x |"
            f" {'yes' if met else 'NO'} |"
        )
    return lines


def render_vs_tdoku(note: str, rows: list[VsTdoku], cli: list[CliRun]) -> str:
    """The Markdown section of the comparison with tdoku."""
    lines = ["## Against tdoku, same run, same isomorphs", "", f"- {note}"]
    if not rows:
        return "\n".join(lines) + "\n"
    lines += [
        "- (a) C core from C and tdoku in one process (`bench_fast9_tdoku -T`), CPU time,"
        " medians of the rounds; ratio = median of the rounds' ratios. (b) Python paths on the"
        " same puzzles, CPU time of the thread, against tdoku's time in (a). load = one-minute"
        " load average of the machine when the set started (2 cores).",
        "",
        "| set | puzzles | limit | C µs | C guesses | tdoku µs | tdoku guesses | C / tdoku"
        " | engine batch µs | / tdoku | solve_many µs | / tdoku | kept in a list µs | / tdoku"
        " | load |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        many, kept = r.solve_many_us, r.solve_many_kept_us
        lines.append(
            f"| {r.name} | {r.puzzles:,} | {r.limit} | {r.c_us:.2f} | {r.c_guesses:.2f} |"
            f" {r.tdoku_us:.2f} | {r.tdoku_guesses:.2f} | {r.c_ratio:.2f}x |"
            f" {r.engine_batch_us:.2f} | {r.engine_batch_us / r.tdoku_us:.2f}x |"
            f" {_fmt(many)} | {_fmt(many / r.tdoku_us if many else None)}"
            f"{'x' if many else ''} | {_fmt(kept)} | {_fmt(kept / r.tdoku_us if kept else None)}"
            f"{'x' if kept else ''} | {r.load:.1f} |"
        )
    lines += render_verdict(rows)
    if cli:
        lines += [
            "",
            "(c) whole process on the isomorph file (CPU of the child, user + system, median;"
            " µs per puzzle): `sudokit solve FILE` against the C driver solving the same file"
            " with tdoku (same output: limit 2, then limit 1 for a unique puzzle's solution),"
            " with tdoku at limit 1 only, and with our C core (`-F sk9`). The start-up of"
            " `sudokit solve` (the same command on a file of its first puzzle) is shown apart:"
            " on small files it is most of the time. On the big file, `--jobs 1` and `--jobs 2`"
            " (the bulk path's threads) alternate: wall times, their ratio (the speed-up; it"
            " needs a quiet machine to mean anything) and the CPU of `--jobs 2` (all threads:"
            " what the threads cost beyond one).",
            "",
            "| file | puzzles | sudokit solve | tdoku driver | sudokit / tdoku | tdoku limit 1"
            " | sudokit / that | sk9 driver | same output | sudokit start-up ms"
            " | --jobs 1 wall | --jobs 2 wall | speed-up | --jobs 2 CPU | load |",
            "|---|---:|---:|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|---:|---:|",
        ]
        for c in cli:
            same = {None: "-", True: "yes", False: "NO"}[c.same_output]
            speed = (
                c.jobs1_wall_us / c.jobs2_wall_us if c.jobs1_wall_us and c.jobs2_wall_us else None
            )
            lines.append(
                f"| {c.name} | {c.puzzles:,} | {c.sudokit_us:.2f} | {c.tdoku_us:.2f} |"
                f" {c.sudokit_us / c.tdoku_us:.2f}x | {c.tdoku1_us:.2f} |"
                f" {c.sudokit_us / c.tdoku1_us:.2f}x | {c.sk9_us:.2f} | {same} |"
                f" {c.sudokit_startup_us / 1e3:.0f} | {_fmt(c.jobs1_wall_us)} |"
                f" {_fmt(c.jobs2_wall_us)} | {_fmt(speed)}{'x' if speed else ''} |"
                f" {_fmt(c.jobs2_cpu_us)} | {c.load:.1f} |"
            )
    return "\n".join(lines) + "\n"


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
    from sudokit import _core

    return {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": code_commit(),
        "cpu": model or platform.processor(),
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "compiler": (_run([cc, "--version"]).splitlines() or [cc])[0],
        "flags": getattr(_core, "BUILD_FLAGS", "unknown") + " (the core's own record)",
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
        "## C engine, one thread (batch call), against tdoku's published figures",
        "",
        "(ARCHITECTURE.md section 11, another machine and run; the section 'Against tdoku,"
        " same run' below times tdoku itself on the same puzzles.)",
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
    p.add_argument(
        "--tdoku",
        default=os.environ.get(
            "SUDOKIT_TDOKU", str(ROOT.parent / "shared" / "baselines" / "tdoku")
        ),
        help="tdoku's source directory (the comparison is skipped when it is absent)",
    )
    p.add_argument("--no-tdoku", action="store_true", help="skip the comparison with tdoku")
    p.add_argument("--no-million", action="store_true", help="skip the 1,000,000-line CLI file")
    p.add_argument("--no-cli", action="store_true", help="skip (c), the whole-process CLI runs")
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
    order = sorted(
        available, key=lambda s: (DEFAULT_ORDER.index(s) if s in DEFAULT_ORDER else 99, s)
    )
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()] or order
    missing = [s for s in wanted if s not in available]
    if missing or not wanted:
        err(f"bench: no puzzle set {', '.join(missing) or '(any)'} in {data}")
        return 2
    info = machine_info()
    rng = random.Random(args.seed)
    driver, note = (None, "skipped (--no-tdoku)")
    if not args.no_tdoku:
        driver, note = build_tdoku_driver(Path(args.tdoku), BUILD)
    echo(f"tdoku: {note}")
    results = []
    vs: list[VsTdoku] = []
    cli: list[CliRun] = []
    draws = draw_sets(available, order, wanted, rng, 2000 if args.quick else None)
    for name in wanted:
        grids, extra = draws[name]
        r = bench_set(name, grids, args)
        results.append(r)
        echo(
            f"{name:28} {r.puzzles:6d} puzzles  {r.batch1_us:8.2f} µs/puzzle  "
            f"{1e6 / r.batch1_us:10,.0f}/s  {r.guesses_per_puzzle:7.2f} guesses  "
            + (f"{r.vs_tdoku:.2f}x tdoku" if r.vs_tdoku else "")
        )
        if driver is None:
            continue
        vs += bench_vs_tdoku(name, grids, driver, args)
        path = BUILD / "isomorphs" / f"{name}.txt"
        if not args.no_cli:
            cli.append(
                bench_cli(name, path, len(grids), driver, name not in MULTIPLE, args.runs, False)
            )
        for v in vs[-2:]:
            echo(
                f"  limit {v.limit}: C {v.c_us:.2f} µs, tdoku {v.tdoku_us:.2f} µs, {v.c_ratio:.2f}x"
            )
        wide = widening_maps(name, len(grids), extra, args.seed)
        if wide:  # a small set: its verdict is read off at least MIN_COMPARED isomorphs
            many = [Grid.parse(line, NINE) for line in apply_maps(grids, wide)]
            vs += bench_vs_tdoku(f"{name}_x{len(wide)}", many, driver, args)
        if name == "kaggle_1k" and not (args.quick or args.no_million or args.no_cli):
            path = write_lines(
                BUILD / "isomorphs" / "kaggle_1k_x1000.txt", apply_maps(grids, extra)
            )
            cli.append(
                bench_cli(
                    "kaggle_1k x 1000", path, 1000 * len(grids), driver, True, args.runs, True
                )
            )
    imp = import_time_ms()
    big = bench_big(ROOT / "tests" / "data" / "corpus.txt")
    report = render_markdown(info, results, imp, big) + "\n" + render_vs_tdoku(note, vs, cli)
    echo("")
    echo(report)
    if not args.no_write:
        out = Path(args.out)
        if info["commit"].endswith("-dirty") and out == ROOT / "benchmarks" / "results":
            out = ROOT / "build" / "bench-results"  # uncommitted code: kept out of the record
        payload = {
            "machine": info,
            "sets": [asdict(r) | {"vs_tdoku": r.vs_tdoku} for r in results],
            "import_ms": imp,
            "big": big,
            "tdoku": note,
            "vs_tdoku": [asdict(v) for v in vs],
            "cli": [asdict(c) for c in cli],
            "args": vars(args),
        }
        stem = write_result(
            out, f"{_dt.date.today().isoformat()}-{info['commit']}", report, payload, 2
        )
        echo(f"written: {stem}.md and .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
