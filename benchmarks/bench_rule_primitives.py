"""Solve + uniqueness proof (count limit 2) of 9x9 puzzles per linear-sum and group kind.

    python benchmarks/bench_rule_primitives.py [--puzzles 5] [--seed 1] [--ref-budget 20000]

Each family is built from random solved grids (tests/support/primitives.py): arrows with a
quarter of the givens, a sandwich puzzle with all 18 sums and 10 givens, x-sums and skyscrapers
with all 36 clues and 4 givens, renban and between lines and quadruples with a fifth of the
givens, little killers (every diagonal from the top edge) with a fifth. Reported: the C core's
CPU time per puzzle (median of the family), its guesses, and the reference search's
(``sudokit._reference``) time under a guess budget (``gave up`` when the budget ran out).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from sudokit import _reference  # noqa: E402
from sudokit._backend import get_engine  # noqa: E402
from sudokit.rules import (  # noqa: E402
    Arrow,
    Between,
    LittleKiller,
    Quadruple,
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    XSum,
)
from sudokit.shape import Shape  # noqa: E402
from support.primitives import _kind, _params, givens, lines, rule_shape, solution  # noqa: E402

Family = Callable[[bytes, random.Random], tuple[list[Rule], float]]


def _many(name: str, count: int) -> Family:
    def make(sol: bytes, rng: random.Random) -> tuple[list[Rule], float]:
        found: list[Rule] = []
        while len(found) < count:
            rule = _kind(sol, 9, name, rng)
            if rule is not None and rule not in found:
                found.append(rule)
        return found, 0.25 if name == "arrow" else 0.2

    return make


def _outside(
    kind: type[Sandwich] | type[XSum] | type[Skyscraper], both: bool, share: float
) -> Family:
    def make(sol: bytes, rng: random.Random) -> tuple[list[Rule], float]:
        found: list[Rule] = []
        for cells in lines(9)[:: 1 if both else 2]:
            total = next(iter(_params(kind.group, [sol[i] for i in cells], 9)), None)
            if total is not None:
                found.append(kind(cells, total))
        return found, share

    return make


def _little_killers(sol: bytes, rng: random.Random) -> tuple[list[Rule], float]:
    found: list[Rule] = []
    for c in range(1, 9):
        cells = tuple(c - k + k * 9 for k in range(c + 1))
        found.append(LittleKiller(cells, sum(sol[i] for i in cells)))
    return found, 0.2


FAMILIES: dict[str, Family] = {
    "arrows": _many("arrow", 8),
    "sandwich (18, 10 g)": _outside(Sandwich, both=False, share=10 / 81),
    "x-sums (36, 4 g)": _outside(XSum, both=True, share=4 / 81),
    "skyscrapers (36, 4g)": _outside(Skyscraper, both=True, share=4 / 81),
    "renban lines": _many("renban", 8),
    "between lines": _many("between", 8),
    "quadruples": _many("quadruple", 8),
    "little killers": _little_killers,
}
_ = (Arrow, Between, Quadruple, Renban)  # the kinds the families draw


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ref-budget", type=int, default=2000)
    ap.add_argument("--only", default="", help="families whose name starts with this")
    args = ap.parse_args()
    c = get_engine("c")
    print(f"{'family':<20} {'C ms':>8} {'C guesses':>10} {'ref ms':>9} {'ref':>8}")
    for name, make in FAMILIES.items():
        if not name.startswith(args.only):
            continue
        rng = random.Random(args.seed)
        c_ms, c_guesses, ref_ms, gave_up = [], [], [], 0
        for _ in range(args.puzzles):
            sol = solution(Shape(3, 3), rng)
            rules, share = make(sol, rng)
            shape = rule_shape((3, 3), rules)
            cells = givens(sol, rng, share)
            c.search(shape, cells, 2, 0, 0)  # builds the geometry once, outside the timing
            t = time.process_time()
            found = c.search(shape, cells, 2, 2, 0)
            c_ms.append((time.process_time() - t) * 1e3)
            c_guesses.append(found.guesses)
            t = time.process_time()
            count, _, _, complete = _reference.search(shape, cells, 2, 2, args.ref_budget)
            ref_ms.append((time.process_time() - t) * 1e3)
            gave_up += not complete
            assert found.count >= 1
            assert not complete or count == found.count
        ref = f"gave up {gave_up}" if gave_up else "ok"
        print(
            f"{name:<20} {statistics.median(c_ms):8.2f} {statistics.median(c_guesses):10.0f}"
            f" {statistics.median(ref_ms):9.1f} {ref:>8}",
            flush=True,
        )


if __name__ == "__main__":
    main()
