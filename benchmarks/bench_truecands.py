"""True candidates (:func:`sudokit.true_candidates`): milliseconds a puzzle, against the plain
algorithm measured in the same run.

    python benchmarks/bench_truecands.py [--engine c|python] [--out DIR | --no-write]

The plain algorithm is the one the feature was specified with: one search at limit 1, then
one search (limit 1) for each candidate no solution found so far holds, one at a time,
every solution found marking its digits. ``true_candidates`` adds the limit-2 first search
(a unique puzzle is then settled at once), batches of placements through the engine's batch
call and several open candidates placed in one search while searches find solutions. Both
give the same answer on every puzzle (checked). CPU time of this process, one pass over each
set (the empty grids several passes). Sets: ``top95`` and 200 17-clue puzzles (unique), 200
of ``serg`` (50 to 900 solutions), 100 17-clue puzzles with 3 clues taken out (seeded; most
have a million solutions or more), empty 9x9 and 16x16 grids, ``examples/hexadoku.txt``, the
killers of ``tests/data/variants/killer9.jsonl`` and 30 of ``tests/data/killers9.txt``
(unique), that first killer with only 20 or 12 of its cages (many solutions), and an empty
anti-knight 9x9. The corpora come from ``$SUDOKIT_DATA`` (default ``../shared/data``); a
missing one is skipped with a note.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import sudokit
from _commit import code_commit, write_result
from sudokit import _backend, formats
from sudokit.grid import Grid
from sudokit.marks import Candidates
from sudokit.shape import Shape
from sudokit.truecands import settle

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SUDOKIT_DATA", ROOT.parent / "shared" / "data"))


def plain(eng: _backend.Engine, grid: Grid) -> tuple[tuple[int, ...], int]:
    """The plain algorithm: ``(true masks, searches)``, no bound."""
    shape = grid.shape
    first = eng.search(shape, grid.cells, 1, 1, 0).solutions
    true = [0] * shape.ncells
    searches = 1
    if not first:
        return tuple(true), searches

    def mark(solution: bytes) -> None:
        for i, v in enumerate(solution):
            true[i] |= 1 << (v - 1)

    mark(first[0])
    for i, mask in enumerate(Candidates.from_grid(grid).masks):
        for d in range(1, shape.n + 1):
            bit = 1 << (d - 1)
            if not mask & bit or true[i] & bit:
                continue
            cells = bytearray(grid.cells)
            cells[i] = d
            found = eng.search(shape, bytes(cells), 1, 1, 0).solutions
            searches += 1
            if found:
                mark(found[0])
    return tuple(true), searches


def _lines(path: Path, count: int) -> list[Grid] | None:
    if not path.is_file():
        print(f"skipped: {path} not found", file=sys.stderr)
        return None
    out = []
    with path.open() as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                out.append(Grid.parse(line.strip()[:81]))
                if len(out) == count:
                    break
    return out


def _drop(grids: list[Grid], k: int, seed: int) -> list[Grid]:
    rng = random.Random(seed)
    out = []
    for g in grids:
        cells = bytearray(g.cells)
        given = [i for i, v in enumerate(cells) if v]
        rng.shuffle(given)
        for i in given[:k]:
            cells[i] = 0
        out.append(Grid(bytes(cells), g.shape))
    return out


def sets() -> list[tuple[str, list[Grid], int]]:
    """``(name, puzzles, passes)`` of every set that can be read."""
    found: list[tuple[str, list[Grid], int]] = []
    top = _lines(DATA / "top95.txt", 95)
    if top:
        found.append(("top95 (unique)", top, 1))
    seventeen = _lines(DATA / "17clue_49158.txt", 200)
    if seventeen:
        found.append(("17-clue x200 (unique)", seventeen, 1))
        found.append(("17-clue minus 3 clues x100", _drop(seventeen[:100], 3, 1), 1))
    serg = _lines(DATA / "serg.txt", 200)
    if serg:
        found.append(("serg x200 (50-900 solutions)", serg, 1))
    found.append(("empty 9x9", [Grid.empty(Shape(3, 3))], 20))
    hexa = [
        formats.parse_one(line) for line in (ROOT / "examples/hexadoku.txt").open() if line.strip()
    ]
    found.append(("examples/hexadoku.txt (16x16)", hexa, 3))
    found.append(("empty 16x16", [Grid.empty(Shape(4, 4))], 2))
    killer = [r.grid for r in formats.read(str(ROOT / "tests/data/variants/killer9.jsonl"))]
    found.append(("killer9.jsonl (unique)", [g for g in killer if g is not None], 5))
    killers = [r.grid for r in formats.read(str(ROOT / "tests/data/killers9.txt"), "jsonl")]
    found.append(("killers9.txt x30 (unique)", [g for g in killers[:30] if g is not None], 1))
    first = killer[0]
    assert first is not None
    assert first.shape.constraints is not None
    for keep in (20, 12):
        rules = sudokit.Constraints(cages=first.shape.constraints.cages[:keep])
        found.append(
            (f"killer9, first {keep} cages", [Grid(first.cells, Shape(3, 3, constraints=rules))], 3)
        )
    knight = Shape(3, 3, constraints=sudokit.Constraints(antiknight=True))
    found.append(("empty anti-knight 9x9", [Grid.empty(knight)], 3))
    return found


def _time(fn: Callable[[], object], passes: int) -> float:
    start = time.process_time()
    for _ in range(passes):
        fn()
    return time.process_time() - start


def run(eng: _backend.Engine) -> list[dict[str, object]]:
    rows = []
    for name, puzzles, passes in sets():
        results = [settle(eng, g, 0) for g in puzzles]  # untimed: the answers, checked below
        for grid, result in zip(puzzles, results, strict=True):
            masks, _ = plain(eng, grid)
            assert result.complete
            assert result.masks == masks, (name, str(grid))
        fast = _time(lambda p=puzzles: [settle(eng, g, 0) for g in p], passes)  # type: ignore[misc]
        searches_plain = sum(plain(eng, g)[1] for g in puzzles)
        slow = _time(lambda p=puzzles: [plain(eng, g) for g in p], passes)  # type: ignore[misc]
        count = len(puzzles) * passes
        rows.append(
            {
                "set": name,
                "puzzles": len(puzzles),
                "ms": 1000 * fast / count,
                "searches": sum(r.searches for r in results) / len(puzzles),
                "guesses": sum(r.guesses for r in results) / len(puzzles),
                "plain_ms": 1000 * slow / count,
                "plain_searches": searches_plain / len(puzzles),
            }
        )
        print(
            f"{name:34s} {rows[-1]['ms']:8.2f} ms  {rows[-1]['searches']:7.1f} searches   "
            f"plain {rows[-1]['plain_ms']:8.2f} ms  {rows[-1]['plain_searches']:7.1f}",
            file=sys.stderr,
        )
    return rows


def markdown(rows: list[dict[str, object]], meta: dict[str, str]) -> str:
    head = [
        f"# true_candidates, {meta['date']}, {meta['commit']}",
        "",
        f"Machine: {meta['machine']} (load average {meta['load']} at the end: a shared machine); "
        f"Python {meta['python']}; engine {meta['engine']}; CPU time, one process; "
        "`python benchmarks/bench_truecands.py`. Plain: one search per candidate no solution "
        "holds yet, one at a time (the algorithm as first specified).",
        "",
        "| set | puzzles | ms/puzzle | searches | guesses | plain ms | plain searches | speed-up |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ms, pm = float(r["ms"]), float(r["plain_ms"])  # type: ignore[arg-type]
        head.append(
            f"| {r['set']} | {r['puzzles']} | {ms:.2f} | {float(r['searches']):.1f} | "  # type: ignore[arg-type]
            f"{float(r['guesses']):.0f} | {pm:.2f} | {float(r['plain_searches']):.1f} | "  # type: ignore[arg-type]
            f"{pm / ms if ms else 0:.1f}x |"
        )
    return "\n".join(head) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["c", "python"], default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    eng = _backend.get_engine(args.engine)
    rows = run(eng)
    meta = {
        "date": _dt.date.today().isoformat(),
        "commit": code_commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "python": platform.python_version(),
        "engine": eng.name,
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    text = markdown(rows, meta)
    print(text)
    if not args.no_write:
        stem = f"truecands-{meta['date']}-{meta['commit']}"
        write_result(args.out, stem, text, {**meta, "rows": rows})


if __name__ == "__main__":
    main()
