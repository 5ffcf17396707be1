"""Every rule kind of :data:`sudokit.rules.KINDS` against an independent oracle: a CP-SAT
model written from the kind's words (``support/cpsat.py``), never from its compilation.

* **Solutions**: random instances on 4x4 and 6x6 (9x9 in the slow sweep), the rule's clues
  taken from a solved grid so that they hold there, with some givens: sudokit's solutions
  (public API, either backend) are CP-SAT's, the same count up to a limit and the same set
  below it; every one has no ``Constraints.violations``.
* **Violations**: a solution with one digit changed breaks a rule exactly when CP-SAT says
  the changed grid does not keep it (the units aside), and then a violation names the rule
  (its ``describe`` words).
* **Checks**: malformed rules raise one ``ValueError`` naming the rule and where.

The oracle tests skip when OR-Tools (a ``dev`` extra) is absent; the checks always run.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from itertools import permutations

import pytest

import sudokit
from sudokit.constraints import Constraints
from sudokit.grid import Grid
from sudokit.rules import (
    KINDS,
    Arrow,
    Between,
    BoxIndexer,
    Clone,
    ColumnIndexer,
    Diagonal,
    Difference,
    DisjointGroups,
    DoubleArrow,
    Entropic,
    ExtraRegion,
    LittleKiller,
    Maximum,
    Minimum,
    Modular,
    Nabner,
    PairSum,
    Palindrome,
    Quadruple,
    Ratio,
    RegionSum,
    Renban,
    RowIndexer,
    Rule,
    Sandwich,
    Skyscraper,
    SlowThermo,
    SumCage,
    Taxicab,
    Whispers,
    XSum,
    Zipper,
)
from sudokit.shape import Shape
from support.rule_instances import GLOBAL, clues, instance, plain_grid, sizes_for
from support.tiers import sweep

LIMIT = 20
#: The kinds whose clue reads a whole row or column: their words presume its digits differ.
WHOLE_LINES = frozenset({"sandwich", "xsum", "skyscraper"})
KIND_NAMES = sorted(KINDS)


def _oracle() -> None:
    pytest.importorskip("ortools")


def test_every_kind_has_an_encoding() -> None:
    """The oracle covers every registered kind (a new kind needs its CP-SAT words)."""
    _oracle()
    from support.cpsat import ENCODINGS

    assert sorted(ENCODINGS) == KIND_NAMES


def _compare(shape: Shape, givens: bytes, sol: bytes | None) -> list[bytes]:
    """sudokit's solutions of the puzzle are CP-SAT's (count up to LIMIT, the set below it);
    a grid the clues were taken from is among them. CP-SAT's solutions are returned."""
    from support.variants import cpsat_solutions

    puzzle = Grid(givens, shape)
    truth = cpsat_solutions(puzzle, LIMIT)
    found = [s.cells for s in sudokit.solutions(puzzle, limit=LIMIT, budget=0)]
    rules = [r.to_json() for r in shape.constraints.rules] if shape.constraints else []
    assert len(found) == len(truth), (rules, givens)
    if len(truth) < LIMIT:
        assert set(found) == set(truth), (rules, givens)
        if sol is not None:
            assert sol in truth, (rules, "the grid the clues came from")
    elif sol is not None:
        assert truth, rules
    return truth


def _broken_once(shape: Shape, sol: bytes, rng: random.Random, tries: int) -> int:
    """Change one digit of the solution *tries* times (swap two, on a whole-line clue):
    ``violations`` reports a rule exactly
    when CP-SAT says the changed grid does not keep it, naming it; returns the breaks seen."""
    from support.variants import cpsat_keeps

    assert shape.constraints is not None
    n, breaks = shape.n, 0
    for rule in shape.constraints.rules:
        alone = Shape(shape.box_rows, shape.box_cols, constraints=Constraints(rules=[rule]))
        where: Sequence[int] = rule.cells_of() or range(shape.ncells)
        for _ in range(tries):
            changed = bytearray(sol)
            if rule.kind in WHOLE_LINES:  # two digits swapped: the line keeps one 1 and one n
                a, b = rng.sample(list(where), 2)
                changed[a], changed[b] = sol[b], sol[a]
            else:
                cell = rng.choice(where)
                changed[cell] = rng.choice([d for d in range(1, n + 1) if d != sol[cell]])
            said = alone.constraints.violations(bytes(changed), n)  # type: ignore[union-attr]
            keeps = cpsat_keeps(alone, bytes(changed))
            assert (said == []) == keeps, (rule.to_json(), bytes(changed), said)
            if not keeps:
                breaks += 1
                words = rule.describe(n)
                assert any(words in what for _, what, _ in said), (words, said)
    return breaks


def _run(kind: str, box: tuple[int, int], rng: random.Random, count: int) -> int:
    """One random instance of *kind* on *box*, compared; the breaks its solutions showed."""
    shape, sol = instance(kind, box, rng, count)
    assert shape.constraints is not None
    n = shape.n
    if sol is None:
        givens = bytes(shape.ncells)  # a global rule no grid keeps: both must say so
    else:
        share = rng.choice((0.15, 0.3, 0.45) if n < 9 else (0.4, 0.5))
        givens = bytes(d if rng.random() < share else 0 for d in sol)
    truth = _compare(shape, givens, sol)
    for s in truth:
        assert shape.constraints.violations(s, n) == [], kind
    return _broken_once(shape, truth[0], rng, 3) if truth else 0


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_kind_against_cpsat(kind: str) -> None:
    """Two random instances of the kind on 4x4 and on 6x6 (one on 9x9 where its words need
    it): sudokit agrees with CP-SAT on the solutions and the violations, and changed digits
    break the rule at least once."""
    _oracle()
    rng = random.Random(f"oracle-{kind}")
    breaks = 0
    for box in sizes_for(kind):
        for _ in range(1 if box == (3, 3) else 2):
            breaks += _run(kind, box, rng, 3)
    if kind not in GLOBAL:  # a global rule may have no grid on 4x4: nothing to break
        assert breaks, kind


def test_mixed_kinds_against_cpsat() -> None:
    """Puzzles mixing three kinds (clues from one 6x6 grid, some givens) agree with CP-SAT:
    the kinds' primitives propagate together."""
    _oracle()
    rng = random.Random(30)
    local = [k for k in KIND_NAMES if k not in GLOBAL]
    for _ in range(8):
        sol = plain_grid((2, 3), rng)
        rules = [r for kind in rng.sample(local, 3) for r in clues(kind, sol, 6, (2, 3), rng, 2)]
        shape = Shape(2, 3, constraints=Constraints(rules=rules))
        givens = bytes(d if rng.random() < 0.2 else 0 for d in sol)
        for s in _compare(shape, givens, sol):
            assert shape.constraints is not None
            assert shape.constraints.violations(s, 6) == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", KIND_NAMES)
def test_kind_against_cpsat_sweep(kind: str) -> None:
    """The larger sweep: ten instances on each of 4x4 and 6x6, three on 9x9 (nightly; four
    and one in the full tier)."""
    _oracle()
    rng = random.Random(f"sweep-{kind}")
    breaks = 0
    for box in sizes_for(kind):
        for _ in range(sweep(4, 10)):
            breaks += _run(kind, box, rng, rng.randint(1, 5))
    for _ in range(sweep(1, 3)):
        breaks += _run(kind, (3, 3), rng, rng.randint(2, 6))
    assert breaks, kind


# -- check(): bad input, one error naming the rule and where --------------------------------

ROW = tuple(range(9))
SNAKE = (*range(1, 9), 17, 16)  # r1c2..r1c9, r2c9, r2c8
BAD: list[tuple[Rule, int, str]] = [
    (SumCage((0, 1), (3, 20)), 9, "cage of sums 3/20 at r1c1: 2 distinct digits cannot add up"),
    (SumCage((0, 0), (3,)), 9, "cage of sums 3 at r1c1 names r1c1 twice"),
    (Arrow((0,), ((2, 3),)), 9, "arrow at r1c1: the arrow from r1c3 does not leave its circle"),
    (Arrow((0,), ((1, 3),)), 9, "arrow at r1c1 is not a path: r1c2 and r1c4"),
    (Arrow((0, 2), ((1,),)), 9, "the pill of 2-cell pill arrow at r1c1 is not a path"),
    (Arrow((0,), ()), 9, "arrow at r1c1 has no arrow cells"),
    (Arrow((0, 1, 2, 3), ((9,),)), 9, "arrow: the circle needs 1 to 3 cells, got 4"),
    (Arrow((0, 1, 2), ((9, 10),)), 9, "3-cell pill arrow at r1c1: 2 cells cannot add up"),
    (Arrow((0, 1), ((16, 17),)), 16, "a pill reads decimal digits"),
    (Arrow((0,), (SNAKE,)), 9, "arrow at r1c1: 10 cells cannot add up to 9 or less"),
    (Arrow((0,), ((1, 2, 3, 7, 6),)), 4, "arrow at r1c1: 5 cells cannot add up to 4 or less"),
    (Arrow((0,), ((1, 81),)), 9, "arrow: cell index 81 is outside 0..80"),
    (Arrow((0,), ((1, 0),)), 9, "arrow at r1c1 names r1c1 twice"),
    (LittleKiller((10, 20, 30), 12), 9, "little killer 12 along r2c2 to r4c4: the cells are not"),
    (LittleKiller((0, 1, 2), 6), 9, "little killer 6 along r1c1 to r1c3: the cells are not a"),
    (LittleKiller((2, 10), 5), 9, "little killer 5 along r1c3 to r2c2: the cells are not a"),
    (LittleKiller((2, 10, 18), 2), 9, "little killer 2 along r1c3 to r3c1: 3 digits cannot"),
    (LittleKiller((), 2), 9, "little killer: no cells"),
    (Sandwich(ROW, 36), 9, "sandwich 36 on row 1 (left): no digits make 36"),
    (Sandwich((0, 1, 2), 5), 9, "sandwich 5: the cells are not a whole row or column"),
    (Sandwich(ROW, 1), 9, "sandwich 1 on row 1 (left): no digits make 1 (possible: 0, 2..33, 35)"),
    (XSum(ROW, 4), 9, "x-sum 4 on row 1 (left): no digits make 4 (possible: 1, 3, 5..45)"),
    (XSum(ROW[::-1], 46), 9, "x-sum 46 on row 1 (right): no digits make 46"),
    (XSum(tuple(range(0, 81, 9)), 0), 9, "x-sum 0 on column 1 (top): no digits make 0"),
    (Skyscraper(ROW, 10), 9, "skyscraper 10 on row 1 (left): no digits make 10"),
    (Skyscraper(tuple(range(72, -1, -9)), 0), 9, "skyscraper 0 on column 1 (bottom)"),
    (Renban((*ROW, 17)), 9, "renban line at r1c1 has 10 cells; at most 9 fit"),
    (Renban((0,)), 9, "renban line needs at least 2 cells, got 1"),
    (Renban((0, 1, 0)), 9, "renban line at r1c1 names r1c1 twice"),
    (Renban((15, 16)), 4, "renban line: cell index 16 is outside 0..15"),
    (Whispers((0, 1), 9), 9, "whispers line (difference 9) at r1c1: no two digits 1..9"),
    (Whispers((0, 2)), 9, "whispers line (difference 5) at r1c1 is not a path"),
    (Palindrome((5,)), 9, "palindrome line needs at least 2 cells"),
    (Between((0, 9, 27)), 9, "between line at r1c1 is not a path: r2c1 and r4c1"),
    (SlowThermo((0, 80)), 9, "slow thermometer at r1c1 is not a path"),
    (Nabner(tuple(range(6))), 9, "nabner line at r1c1 has 6 cells; at most 5"),
    (Entropic((0, 1, 2)), 4, "entropic line at r1c1: the digits 1..4 do not split"),
    (Modular((0, 1, 2)), 8, "modular line at r1c1: the digits 1..8 do not split"),
    (Zipper((0, 1)), 9, "zipper line needs at least 3 cells, got 2"),
    (DoubleArrow((0, 1)), 9, "double arrow needs at least 3 cells, got 2"),
    (RegionSum(((0, 1), (3,))), 9, "region-sum line at r1c1 is not a path: r1c2 and r1c4"),
    (RegionSum(((0,), ())), 9, "region-sum line needs cells in every segment"),
    (Difference((0, 2), 1), 9, "difference dot: the cells are not two orthogonal neighbours"),
    (Difference((0, 1), 9), 9, "difference 9 dot between r1c1 and r1c2: no two digits 1..9"),
    (Ratio((0, 10), 2), 9, "ratio dot: the cells are not two orthogonal neighbours"),
    (Ratio((0, 1), 5), 4, "ratio 5 dot between r1c1 and r1c2: no two digits 1..4 fit"),
    (PairSum((0, 1), 18), 9, "sum 18 between r1c1 and r1c2: no two digits 1..9 fit"),
    (PairSum((0, 1, 2), 5), 9, "sum mark: the cells are not two orthogonal neighbours"),
    (Quadruple((0, 1, 2, 3), (1,)), 9, "quadruple 1 at r1c1: the cells are not a 2x2 square"),
    (Quadruple((8, 9, 17, 18), (1,)), 9, "quadruple 1 at r1c9: the cells are not a 2x2"),
    (Quadruple((0, 1, 9), (1,)), 9, "quadruple 1 at r1c1 needs the 4 cells of a 2x2 square"),
    (Quadruple((0, 1, 9, 10), (1, 1, 1)), 9, "quadruple 111 at r1c1: a digit fits at most"),
    (Quadruple((0, 1, 6, 7), (7,)), 6, "quadruple 7 at r1c1: needs 1 to 4 digits in 1..6"),
    (Quadruple((0, 1, 9, 10), ()), 9, "quadruple  at r1c1: needs 1 to 4 digits in 1..9"),
    (Minimum(()), 9, "minimum: no cells"),
    (Maximum((81,)), 9, "maximum: cell index 81 is outside 0..80"),
    (Clone((0, 1), (2,)), 9, "clone: 2 cells and a copy of 1"),
    (Clone((0,), (0,)), 9, "clone at r1c1 names r1c1 twice"),
    (ColumnIndexer((36,)), 6, "column indexer: cell index 36 is outside 0..35"),
    (RowIndexer((-1,)), 9, "row indexer: cell index -1 is outside 0..80"),
    (BoxIndexer((0,), (2, 2)), 9, "box indexer: boxes of (2, 2) do not tile 9x9"),
    (Diagonal(2), 9, "diagonal: anti is 0 or 1, got 2"),
    (DisjointGroups((2, 3)), 9, "disjoint groups: boxes of (2, 3) do not tile 9x9"),
    (ExtraRegion(tuple(range(10))), 9, "extra region at r1c1 has 10 cells; 1 to 9 fit"),
    (ExtraRegion(()), 9, "extra region has 0 cells; 1 to 9 fit"),
    (ExtraRegion((0, 100)), 9, "extra region: cell index 100 is outside 0..80"),
    (Taxicab(0), 9, "taxicab: distance 0 is outside 1..16"),
    (Taxicab(7), 4, "taxicab: distance 7 is outside 1..6"),
]


@pytest.mark.parametrize(
    ("rule", "n", "words"), BAD, ids=[f"{r.kind}-{i}" for i, (r, _, _) in enumerate(BAD)]
)
def test_check_names_the_rule_and_where(rule: Rule, n: int, words: str) -> None:
    """A rule that cannot hold raises one ValueError whose line names it and where, from the
    rule and from the ``Constraints`` holding it."""
    with pytest.raises(ValueError, match=re.escape(words)) as caught:
        rule.check(n)
    message = str(caught.value)
    assert "\n" not in message
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Constraints(rules=[rule]).check(n)


@pytest.mark.parametrize("n", [4, 6, 8])
def test_outside_clues_refuse_exactly_the_totals_no_row_makes(n: int) -> None:
    """A sandwich or x-sum total passes ``check`` exactly when some row of the digits 1..n
    makes it (every row tried, the totals read from the words); gaps inside the range too
    (sandwich 1, x-sum 2 and 4 on 9x9 passed the range checks before)."""
    row = tuple(range(n))
    sandwiches, xsums = set(), set()
    for digits in permutations(range(1, n + 1)):
        i, j = sorted((digits.index(1), digits.index(n)))
        sandwiches.add(sum(digits[i + 1 : j]))
        xsums.add(sum(digits[: digits[0]]))
    for cls, made in ((Sandwich, sandwiches), (XSum, xsums)):
        for total in range(-1, n * (n + 1) // 2 + 2):
            clue = cls(row, total)
            if total in made:
                clue.check(n)
            else:
                with pytest.raises(ValueError, match=f"no digits make {total} "):
                    clue.check(n)


def test_every_kind_with_fields_has_a_bad_case() -> None:
    """Each kind that has something to get wrong is refused at least once above."""
    refused = {rule.kind for rule, _, _ in BAD}
    fieldless = {name for name, cls in KINDS.items() if not cls.fields()}
    assert refused | fieldless == set(KINDS)
    assert fieldless == {"knightmare", "selftaxicab", "diagonalnonconsecutive"}


def test_diagonal_words_name_the_grid_corners() -> None:
    """The diagonal's words name the corners of the grid it is on (they said r9 on 4x4)."""
    assert Diagonal(1).describe(4) == "anti-diagonal (r1c4 to r4c1)"
    assert Diagonal(0).describe(6) == "diagonal (r1c1 to r6c6)"
    cells = bytearray(16)
    cells[0], cells[5], cells[10], cells[15] = 1, 2, 3, 1
    said = Constraints(rules=[Diagonal(0)]).violations(bytes(cells), 4)
    assert said == [(0, "diagonal (r1c1 to r4c4) is broken: a digit repeats on it", (0, 5, 10, 15))]


def test_two_cell_entropic_line_asks_nothing() -> None:
    """The words ("any three cells in a row on it") ask nothing of a line of two cells, and
    neither do the kind's compile() and parts()."""
    _oracle()
    from support.variants import cpsat_solutions

    shape = Shape(2, 3, constraints=Constraints(rules=[Entropic((0, 1))]))
    givens = bytes([0] * 12 + [1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3] + [0] * 12)
    plain = Shape(2, 3)
    truth = cpsat_solutions(Grid(givens, shape), LIMIT)
    found = [s.cells for s in sudokit.solutions(Grid(givens, shape), limit=LIMIT, budget=0)]
    free = [s.cells for s in sudokit.solutions(Grid(givens, plain), limit=LIMIT, budget=0)]
    assert len(found) == len(truth) == len(free)
    assert sorted(found) == sorted(free)  # the same search order: the line changes nothing
    assert not Constraints(rules=[Entropic((0, 1))]).relations(6)
