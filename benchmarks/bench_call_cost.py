"""The fixed cost of one call of the Python batch API (the layer above the search), against the C
search.

    python benchmarks/bench_call_cost.py [--set hardest] [--calls 2000] [--rounds 5] [--no-write]

For one puzzle (the first of the set, a seeded random isomorph, as in ``bench_solve.py``) at
limit 1 and 2, the thread CPU time of: the core's single search (``_core.search``, the floor),
``engine.search_batch`` of its cells, and ``sudokit.solve_many`` of its line, consumed (also
with ``logging`` imported, as in most applications: the chunk log then runs). Each figure is
the median over *rounds* of the median of *calls* calls, an empty call's time taken off, the
rounds interleaved so that a change of load hits every figure alike; the overhead columns are
differences from the search. On a set of few puzzles (the 11 "hardest") this fixed cost is a
visible share of ``solve_many``'s time a puzzle in ``bench_solve.py``'s comparison with tdoku.
Results go to ``benchmarks/results/DATE-COMMIT-bench_call_cost.md``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import sudokit
from bench_solve import ROOT, _median_time, load_set, machine_info
from sudokit._backend import get_engine
from sudokit.shape import Shape

NINE = Shape(3, 3)


def measure(calls: dict[str, Callable[[], object]], runs: int, rounds: int) -> dict[str, float]:
    """µs per call of each of *calls*: medians of *runs* calls, the median over *rounds*
    interleaved rounds, less an empty call's time."""
    found: dict[str, list[float]] = {name: [] for name in ["", *calls]}
    for _ in range(rounds):
        for name, call in [("", lambda: None), *calls.items()]:
            found[name].append(statistics.median(_median_time(call, runs, time.thread_time)))
    empty = statistics.median(found.pop(""))
    return {name: (statistics.median(t) - empty) * 1e6 for name, t in found.items()}


def solve_many(lines: list[str], limit: int) -> None:
    """``sudokit.solve_many`` of *lines*, its results consumed (not kept)."""
    for _ in sudokit.solve_many(lines, limit=limit):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--set", default="hardest", help="the puzzle set whose first puzzle is used")
    p.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    p.add_argument("--calls", type=int, default=2000, help="calls per timed round")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random isomorph")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    p.add_argument("--no-write", action="store_true", help="print only")
    args = p.parse_args(argv)
    if sudokit.BACKEND != "c":
        print("bench: the C core is not built (sudokit.BACKEND is 'python')", file=sys.stderr)
        return 2
    path = Path(args.data) / f"{args.set}.txt"
    if not path.is_file():
        print(f"bench: no puzzle set {args.set} in {args.data}", file=sys.stderr)
        return 2
    from sudokit import _core
    from sudokit._cengine import geometry

    [grid] = load_set(path, 1, random.Random(args.seed))
    line, cells, engine, geo = [grid.to_line()], grid.cells, get_engine("c"), geometry(NINE)
    info = machine_info()
    rows: dict[int, dict[str, float]] = {}
    for limit in (1, 2):
        rows[limit] = measure(
            {
                "search": partial(_core.search, geo, cells, limit, 1, 0),
                "search_batch": partial(engine.search_batch, NINE, cells, limit, 0, 1),
                "solve_many": partial(solve_many, line, limit),
            },
            args.calls,
            args.rounds,
        )
    import logging  # noqa: F401  # from here on solve_many logs its chunks (nobody listens)

    for limit in (1, 2):
        rows[limit] |= measure(
            {"with logging": partial(solve_many, line, limit)}, args.calls, args.rounds
        )
    lines = [
        f"# The fixed cost of a Python batch call, {info['date']}",
        "",
        f"- commit `{info['commit']}`, {info['cpu']}, {info['cores']} cores, load average at "
        f"start {', '.join(f'{x:.1f}' for x in info['load_average'])}; {info['compiler']}; "
        f"Python {info['python']}",
        f"- one puzzle: the first of {args.set} as a seeded isomorph; thread CPU, median of "
        f"{args.calls} calls, median of {args.rounds} interleaved rounds, empty call taken off",
        "",
        "| limit | _core.search µs | engine.search_batch µs | solve_many µs | "
        "solve_many, logging imported µs | search_batch - search | solve_many - search_batch |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for limit, got in rows.items():
        s, b, m, lg = got["search"], got["search_batch"], got["solve_many"], got["with logging"]
        lines.append(
            f"| {limit} | {s:.2f} | {b:.2f} | {m:.2f} | {lg:.2f} | {b - s:+.2f} | {m - b:+.2f} |"
        )
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if not args.no_write:
        day = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d")
        out = Path(args.out) / f"{day}-{info['commit']}-bench_call_cost.md"
        out.write_text(text)
        print(f"written: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
