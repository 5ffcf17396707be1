"""Benchmark: the 9x9 canonical form (``sudokit.transform.canonical``), C core vs pure Python.

Times, per grid, the C core's ``_core.canonical9`` (bytes in, bytes out), the public
``transform.canonical`` on top of it (Grid in, Grid out: what ``dataset --dedupe`` pays) and
the pure-Python specification ``transform._canonical_python``, on random isomorphs of:

* ``generated``: minimal puzzles from ``sudokit.generate`` (seeds 0..N-1), the dedupe case;
* ``17-clue``: a random sample of /work/shared/data/17clue_49158.txt (skipped when absent);
* ``few clues``: 0..12 random cells of generated solutions (ties keep many candidates alive);
* ``complete``: the generated solutions (the slowest case).

Prints a markdown table of median and 99th-percentile microseconds per grid and the C speed-up;
``--out FILE`` also writes it with the machine, compiler and commit. Timings are
``time.perf_counter_ns`` around single calls on a shared machine: compare ratios, not absolutes.

    python benchmarks/bench_canonical.py --n 1000 --out benchmarks/results/canonical.md
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sudokit
from bench_generate import machine
from sudokit import _core
from sudokit import transform as tf
from sudokit.grid import Grid
from sudokit.shape import Shape

SEVENTEEN = Path(__file__).resolve().parents[2] / "shared" / "data" / "17clue_49158.txt"
NINE = Shape(3, 3)


def cpu_and_compiler(cc: str) -> tuple[str, str]:
    """The CPU model (Linux) and the first line of ``cc --version``, or ``?``."""
    cpu = "?"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        models = [
            ln.split(":", 1)[1].strip()
            for ln in cpuinfo.read_text().splitlines()
            if ln.startswith("model name")
        ]
        cpu = models[0] if models else cpu
    try:
        found = subprocess.run([cc.split()[0], "--version"], capture_output=True, text=True)
        version = found.stdout.splitlines()[0] if found.stdout else cc
    except (OSError, IndexError):
        version = cc
    return cpu, version


def per_call_us(fn: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - start) / 1000


def summary(times: list[float]) -> tuple[float, float]:
    """Median and 99th percentile."""
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def grid_sets(n: int, seed: int) -> dict[str, list[Grid]]:
    rng = random.Random(seed)
    made = [sudokit.generate(seed=i) for i in range(n)]
    sets = {"generated": [p.puzzle for p in made]}
    if SEVENTEEN.is_file():
        lines = SEVENTEEN.read_text().split()
        sets["17-clue"] = [Grid.parse(line) for line in rng.sample(lines, min(n, len(lines)))]
    few = []
    for p in made:
        cells = bytearray(81)
        for i in rng.sample(range(81), rng.randint(0, 12)):
            cells[i] = p.solution.cells[i]
        few.append(Grid(bytes(cells), NINE))
    sets["few clues (0-12)"] = few
    sets["complete"] = [p.solution for p in made]
    return {
        name: [tf.random_isomorph(g, rng, keep_shape=False) for g in grids]
        for name, grids in sets.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="grids per set (default 1000)")
    parser.add_argument(
        "--python-n",
        type=int,
        default=1000,
        help="at most this many grids per set for the pure-Python code (default 1000; "
        "complete grids take ~0.2 s each there, so at most 50 of those)",
    )
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--out", type=Path, help="write the table (markdown) here too")
    args = parser.parse_args()
    if tf._c_canonical9() is None:
        sys.exit("the C canonical form is not in use (core not built, or SUDOKIT_BACKEND=python)")

    sets = grid_sets(args.n, args.seed)
    rows = [
        "| grids | n (C / Python) | C core us median | p99 | canonical() us median "
        "| Python us median | p99 | speed-up (median) | C grids/s per core |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, grids in sets.items():
        c_times = [per_call_us(lambda g=g: _core.canonical9(g.cells)) for g in grids]
        api_times = [per_call_us(lambda g=g: tf.canonical(g)) for g in grids]
        few = min(args.python_n, 50) if name == "complete" else args.python_n
        py_grids = grids[:few]
        py_times = [per_call_us(lambda g=g: tf._canonical_python(g)) for g in py_grids]
        for g in py_grids:  # the timed results must agree, or the comparison means nothing
            assert _core.canonical9(g.cells) == tf._canonical_python(g).cells, str(g)
        c_med, c_p99 = summary(c_times)
        api_med, _ = summary(api_times)
        py_med, py_p99 = summary(py_times)
        rows.append(
            f"| {name} | {len(grids)} / {len(py_grids)} | {c_med:.1f} | {c_p99:.1f} "
            f"| {api_med:.1f} | {py_med:.0f} | {py_p99:.0f} | {py_med / c_med:.0f}x "
            f"| {1e6 / c_med:,.0f} |"
        )
        print(rows[-1] if len(rows) > 3 else "\n".join(rows), flush=True)
    if args.out:
        info = machine()
        cpu, compiler = cpu_and_compiler(str(info["compiler"]))
        text = (
            "# bench_canonical: the 9x9 canonical form, C core vs pure Python\n\n"
            f"Machine: {info['platform']}, {cpu}, {info['cores']} cores, "
            f"Python {info['python']}, {compiler} (-O3 -march=native); "
            f"backend {info['backend']}; commit "
            f"{info['commit']}. Command: `python benchmarks/bench_canonical.py --n {args.n} "
            f"--python-n {args.python_n} --seed {args.seed}`. Per-call wall time "
            "(`perf_counter_ns`) on a shared 2-core machine: ratios are the stable figure.\n\n"
            + "\n".join(rows)
            + "\n\n"
            "Columns: *C core* is `_core.canonical9(bytes)`; *canonical()* the public "
            "`transform.canonical(grid)` on top of it (Grid in, Grid out: what `dataset --dedupe` "
            "pays per row); *Python* the pure-Python specification `transform._canonical_python` "
            "(timed on the first 50 complete grids only). Every timed Python result was checked "
            "equal to the C one. Grids are random isomorphs of each set.\n"
        )
        args.out.write_text(text)


if __name__ == "__main__":
    main()
