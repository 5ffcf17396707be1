"""Regenerate tests/data/variants/rule_puzzles.jsonl (run from the repository root):

    PYTHONPATH=src:tests python tests/data/make_rule_puzzles.py \
        > tests/data/variants/rule_puzzles.jsonl

(``make_rule_puzzles.py KIND...`` prints only those kinds' lines.) The counts run on the engine
chosen at import, the reference search where it refuses a shape, so the puzzles drawn depend
on the engine (all are checked the same way).

Ten puzzles of every rule kind of ``sudokit.rules.KINDS``: three on 4x4 (6x6 for the kinds
that split the digits into thirds) and seven on 6x6, plus two on 9x9 for the kinds the C core
can count (those without linear sums or groups, when it is built, and not self-taxicab, whose
relations are more than it takes: the reference search is slow on 9x9) and one 9x9 arrow
puzzle (for the pills), each made by
:func:`support.rulepuzzles.make` with a fixed seed (a random solution, rules of the kind drawn
from it, givens until the reference search proves it unique, then the needless givens
removed). Every line is checked before it is written: the solution keeps every rule and is the
puzzle's only one.
"""

from __future__ import annotations

import sys

from sudokit.rules import KINDS
from support import rulepuzzles

HEADER = "# rule puzzles: one JSON object a line (tests/support/rulepuzzles.py; seeded)"
SIZES = ((2, 2),) * 3 + ((2, 3),) * 7
#: Kinds with no 4x4 puzzle: 6x6 instead (thirds of the digits; self-taxicab cannot hold on
#: 4x4: its 2s would be two apart).
NOT4 = frozenset({"entropic", "modular", "selftaxicab"})
#: Kinds with linear sums or groups: 9x9 only for the arrow (one puzzle, for the pills).
SLOW = frozenset(
    {"between", "doublearrow", "littlekiller", "quadruple", "regionsum", "renban",
     "sandwich", "skyscraper", "sumcage", "xsum", "zipper"}
)  # fmt: skip


def main(kinds: list[str]) -> None:
    """Print the lines of *kinds* (every kind, and the header, when none are named)."""
    if not kinds:
        print(HEADER)
    for kind in kinds or sorted(KINDS):
        seed = 0
        nine = 1 if kind == "arrow" else 0 if kind in SLOW | {"selftaxicab"} else 2
        for box in SIZES + ((3, 3),) * nine:
            if kind in NOT4 and box == (2, 2):
                box = (2, 3)
            while True:
                seed += 1
                got = rulepuzzles.make(kind, box, seed)
                if got is None:
                    continue
                puzzle, solution = got
                count, _, complete = rulepuzzles._search(puzzle.shape, puzzle.cells, 2, 0)
                assert count == 1
                assert complete
                rules = puzzle.shape.constraints
                assert rules is not None
                assert not rules.violations(solution, puzzle.shape.n)
                print(rulepuzzles.line(kind, puzzle, solution), flush=True)
                print(kind, box, seed, file=sys.stderr)
                break


if __name__ == "__main__":
    main(sys.argv[1:])
