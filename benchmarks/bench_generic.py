"""The generic search path (sizes above 9x9) against a SAT encoding, in the same run.

A plain depth-first search has heavy tails on under-constrained big grids
(a random 45% of a 25x25 solution's cells, 48% of a 36x36). This benchmark measures, on
seeded instances, the CPU time of sudokit's C core (``Engine.search``, counting up to
*limit* solutions, within a guess budget) and of a SAT solver (python-sat's Glucose 4, the
``bench`` extra) on the same grid, encoded after the givens' eliminations (one variable per
remaining candidate; at least / at most one per cell and per unit-digit, pairwise). Limit 1
asks for a solution; limit 2 (the default) adds the proof that there is no other (SAT: solve
again with the first solution blocked). Sets:

- ``under``: under-constrained grids: a random isomorph of the band pattern solution of each
  size, a random fraction of its cells kept (45% for 25x25, 48% for 36x36, 50% for 49x49 and 64x64);
  each has at least one solution, usually many.
- ``proper``: puzzles of :func:`sudokit.generate` (unique solution), sizes 16 and 25 (plus
  36 and 64 with ``--big``).

Times are CPU seconds of the solving call only (encoding time is reported apart). The table
gives per-grid times, the medians, and the ratio of sudokit's time to the SAT median of the
set; the target: every under-constrained 25x25 and 36x36 grid at most 1.0x that
median.
Skips cleanly (exit 0, one line) when python-sat is absent.

Run: ``python benchmarks/bench_generic.py [--seeds 5] [--big] [--sets under,proper]
[--limit 2] [--budget N] [--sat-seconds S] [--big-seeds K] [--sizes 25,36] [--out FILE.md]``
(``--sat-seconds`` bounds each SAT solve in CPU time, so a run finishes; a stopped SAT time is a
lower bound, and so is a median over it).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from _commit import code_commit
from sudokit import Grid, Shape, _backend, generate
from sudokit.generator.fill import band_pattern
from sudokit.transform import random_isomorph

#: Fraction of cells kept in the under-constrained grids of each size.
KEEP = {25: 0.45, 36: 0.48, 49: 0.50, 64: 0.50}


def under_constrained(size: int, seed: int) -> bytes:
    """A random isomorph of the pattern solution with a random KEEP[size] of its cells kept."""
    shape = Shape.from_size(size)
    rng = random.Random(f"generic-{size}-{seed}")
    full = random_isomorph(Grid(band_pattern(shape), shape), rng).cells
    keep = set(rng.sample(range(shape.ncells), round(KEEP[size] * shape.ncells)))
    return bytes(v if i in keep else 0 for i, v in enumerate(full))


def candidates(shape: Shape, cells: bytes) -> list[int] | None:
    """Each empty cell's candidate mask after its units' givens (None on a conflict)."""
    have = [0] * len(shape.units)
    for u, unit in enumerate(shape.units):
        for i in unit:
            if cells[i]:
                bit = 1 << (cells[i] - 1)
                if have[u] & bit:
                    return None
                have[u] |= bit
    full = (1 << shape.n) - 1
    masks = [0] * shape.ncells
    for i in range(shape.ncells):
        if not cells[i]:
            m = full
            for u in shape.cell_units[i]:
                m &= ~have[u]
            masks[i] = m
    return masks


def sat_clauses(shape: Shape, cells: bytes) -> tuple[list[list[int]], dict[int, tuple[int, int]]]:
    """The CNF of *cells*: variable per (empty cell, candidate digit); givens are constants.

    Returns (clauses, var -> (cell, digit)). A conflict gives the empty clause.
    """
    masks = candidates(shape, cells)
    if masks is None:
        return [[]], {}
    var: dict[tuple[int, int], int] = {}
    back: dict[int, tuple[int, int]] = {}
    clauses: list[list[int]] = []
    for i, m in enumerate(masks):
        if cells[i]:
            continue
        lits = []
        for d in range(shape.n):
            if m >> d & 1:
                v = len(var) + 1
                var[i, d] = v
                back[v] = (i, d)
                lits.append(v)
        clauses.append(lits)  # empty when the cell has no candidate: unsatisfiable
        clauses.extend([-a, -b] for k, a in enumerate(lits) for b in lits[k + 1 :])
    for unit in shape.units:
        have = 0
        for i in unit:
            if cells[i]:
                have |= 1 << (cells[i] - 1)
        for d in range(shape.n):
            if have >> d & 1:
                continue
            lits = [var[i, d] for i in unit if (i, d) in var]
            clauses.append(lits)
            clauses.extend([-a, -b] for k, a in enumerate(lits) for b in lits[k + 1 :])
    return clauses, back


def sat_solve(
    shape: Shape, cells: bytes, limit: int, seconds: float = 0.0
) -> tuple[int, float, float, bytes | None, bool]:
    """(solutions found up to *limit*, solve CPU s, encode CPU s, first solution, complete) with
    Glucose 4; *seconds* > 0 interrupts the solver once it has used that much CPU time (complete
    False): a watcher thread reads the process's CPU clock every 0.2 s."""
    import threading

    from pysat.solvers import Solver

    t0 = time.process_time()
    clauses, back = sat_clauses(shape, cells)
    t1 = time.process_time()
    found, first, complete = 0, None, True
    with Solver(name="g4", bootstrap_with=clauses) as solver:
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.2):
                if time.process_time() - t1 >= seconds:
                    solver.interrupt()
                    return

        timer = threading.Thread(target=watch, daemon=True) if seconds > 0 else None
        if timer is not None:
            timer.start()
        try:
            while found < limit:
                answer = solver.solve_limited(expect_interrupt=timer is not None)
                if answer is None:  # interrupted: the count is a lower bound
                    complete = False
                    break
                if not answer:
                    break
                model = [v for v in solver.get_model() if v > 0 and v in back]
                if first is None:
                    sol = bytearray(cells)
                    for v in model:
                        i, d = back[v]
                        sol[i] = d + 1
                    first = bytes(sol)
                found += 1
                solver.add_clause([-v for v in model])
        finally:
            done.set()
            if timer is not None:
                timer.join()
    t2 = time.process_time()
    return found, t2 - t1, t1 - t0, first, complete


def ours(
    shape: Shape, cells: bytes, limit: int, budget: int
) -> tuple[int, float, int, bool, bytes | None]:
    """(count, CPU s, guesses, complete, first solution) of sudokit's C core."""
    eng = _backend.get_engine("c")
    t0 = time.process_time()
    out = eng.search(shape, cells, limit, 1, budget)
    t1 = time.process_time()
    return out.count, t1 - t0, out.guesses, out.complete, (out.solutions or (None,))[0]


def instances(
    seeds: int, big: bool, sets: str, big_seeds: int = 2, sizes: tuple[int, ...] = (25, 36, 49, 64)
) -> Iterator[tuple[str, Shape, bytes]]:
    """(set name, shape, cells) of every benchmark grid of *sets* ("under", "proper" or both,
    comma-separated); 49x49 and 64x64 under-constrained: *big_seeds* at most."""
    for size in sizes if "under" in sets else ():
        for seed in range(seeds if size <= 36 else min(seeds, big_seeds)):
            yield f"under {size}x{size}", Shape.from_size(size), under_constrained(size, seed)
    sizes = ((16, 25, 36, 64) if big else (16, 25)) if "proper" in sets else ()
    for size in sizes:
        for seed in range(seeds if size <= 25 else 1):
            p = generate(size=size, seed=seed).puzzle
            yield f"proper {size}x{size}", p.shape, bytes(p.cells)


def _load() -> str:
    """The 1, 5 and 15 minute load averages (the machine may be shared: times are CPU time)."""
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run(
    seeds: int,
    big: bool,
    sets: str,
    limits: tuple[int, ...],
    budget: int,
    emit: Callable[[str], Any],
    sat_seconds: float = 0.0,
    big_seeds: int = 2,
    sizes: tuple[int, ...] = (25, 36, 49, 64),
) -> bool:
    """Measure every instance at every limit, emit a markdown report; False when a check fails
    (a count that differs from the SAT solver's, or a wrong solution; giving up is no failure)."""
    good = True
    emit(f"# bench_generic ({time.strftime('%Y-%m-%d')}, commit {code_commit()})\n")
    emit(f"Load average at the start: {_load()}.")
    emit(f"CPU seconds of the solving call; sudokit = C core, budget {budget:,} guesses (a count")
    emit("marked 'gave up' ran out: its time is a lower bound); SAT = Glucose 4 ")
    emit("(python-sat) on the CNF after the givens' eliminations (encoding time apart)")
    if sat_seconds > 0:
        emit(f"interrupted after {sat_seconds:g} CPU s ('stopped': its time is a lower bound)")
    emit("")
    rows: dict[tuple[str, int], list[tuple[float, float, bool]]] = {}
    emit("| set | grid | limit | sudokit count | guesses | sudokit s | SAT count | SAT s | enc s |")
    emit("|---|---|---|---|---|---|---|---|---|")
    for name, shape, cells in instances(seeds, big, sets, big_seeds, sizes):
        for limit in limits:
            count, t_ours, guesses, complete, first = ours(shape, cells, limit, budget)
            scount, t_sat, t_enc, _, sat_complete = sat_solve(shape, cells, limit, sat_seconds)
            if complete and sat_complete:
                ok = count == scount
            else:  # a search that stopped has a lower bound: never above a complete count
                ok = (complete or count <= scount) and (sat_complete or scount <= count)
            if first is not None:
                ok = ok and Grid(first, shape).is_solution()
                ok = ok and all(a in (0, b) for a, b in zip(cells, first, strict=True))
            good = good and ok
            rows.setdefault((name, limit), []).append((t_ours, t_sat, complete))
            mark = ("" if complete else " gave up") + ("" if ok else " MISMATCH")
            smark = "" if sat_complete else " stopped"
            emit(
                f"| {name} | {len(rows[name, limit])} | {limit} | {count}{mark} | {guesses}"
                f" | {t_ours:.4f} | {scount}{smark} | {t_sat:.4f} | {t_enc:.2f} |"
            )
            sys.stdout.flush()
    emit("\n## Medians\n")
    emit(
        "| set | limit | grids | sudokit median s | SAT median s | ratio of medians | "
        "worst sudokit / SAT median | answered within the SAT median |"
    )
    emit("|---|---|---|---|---|---|---|---|")
    for (name, limit), pairs in rows.items():
        mo = statistics.median(p[0] for p in pairs)
        ms = statistics.median(p[1] for p in pairs)
        worst = max(p[0] for p in pairs)
        within = sum(1 for p in pairs if p[2] and p[0] <= ms)
        emit(
            f"| {name} | {limit} | {len(pairs)} | {mo:.4f} | {ms:.4f} | {mo / ms:.2f}x | "
            f"{worst / ms:.2f}x | {within} of {len(pairs)} |"
        )
    emit(f"\nLoad average at the end: {_load()}.")
    return good


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="grids per set (default 5)")
    ap.add_argument("--big", action="store_true", help="also generated 36x36 and 64x64")
    ap.add_argument("--sets", default="under,proper", help="under, proper or both (default)")
    ap.add_argument("--limit", type=int, action="append", help="limits (default 2)")
    ap.add_argument("--budget", type=int, default=2_000_000, help="guesses (default 2,000,000)")
    ap.add_argument(
        "--sat-seconds", type=float, default=0.0, help="CPU limit of each SAT solve (0: none)"
    )
    ap.add_argument(
        "--big-seeds", type=int, default=2, help="under-constrained 49x49/64x64 grids (default 2)"
    )
    ap.add_argument(
        "--sizes", default="25,36,49,64", help="under-constrained sizes (default 25,36,49,64)"
    )
    ap.add_argument("--out", help="also write the report to this file")
    args = ap.parse_args(argv)
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        print("bench_generic: skipped (python-sat is not installed: pip install '.[bench]')")
        return 0
    if _backend.get_engine().name != "c":
        print("bench_generic: skipped (the C core is not built)")
        return 0
    lines: list[str] = []

    def emit(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    good = run(
        args.seeds,
        args.big,
        args.sets,
        tuple(args.limit or (2,)),
        args.budget,
        emit,
        args.sat_seconds,
        args.big_seeds,
        tuple(int(x) for x in args.sizes.split(",")),
    )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
