"""The rule kinds (sudokit.rules): each kind's compilation agrees with its own words.

Every kind states its meaning twice, independently: its ``parts`` (tests of filled digits
written from its words, behind ``broken`` / ``Constraints.violations``) and its ``compile``
(the primitive forms the search propagates). Here, on every classic 4x4 solution and on
samples of 6x6 and 9x9 ones, the two must agree for an example of every kind, and each example
must hold on some grids and fail on others (so the check can fail). The CP-SAT oracle of the
engine tests checks the search against a third statement of the rules.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence
from functools import cache

import pytest

from sudokit import Constraints, Grid, Shape
from sudokit import rules as R
from sudokit.rules import KINDS, Rule
from sudokit.rules.primitives import group_holds

#: (n, example) per kind: small, each holding on some solutions of the size and not on others.
EXAMPLES: list[tuple[int, Rule]] = [
    (4, R.Arrow((0,), ((1, 2),))),
    (9, R.Arrow((0, 1), ((10, 19, 28), (2, 11)))),
    (4, R.DoubleArrow((0, 1, 2, 3))),
    (4, R.LittleKiller((1, 6, 11), 7)),
    (4, R.Sandwich((0, 1, 2, 3), 5)),
    (4, R.XSum((3, 2, 1, 0), 6)),
    (4, R.Skyscraper((0, 4, 8, 12), 2)),
    (4, R.Renban((0, 1, 5))),
    (4, R.Whispers((0, 1, 2), 2)),
    (4, R.Palindrome((5, 10, 15))),
    (9, R.Palindrome((10, 20, 30, 40, 50))),
    (4, R.Between((0, 1, 2, 3))),
    (4, R.RegionSum(((0, 1), (2, 3)))),
    (4, R.Zipper((0, 1, 2))),
    (4, R.Zipper((0, 1, 2, 3))),
    (6, R.Entropic((0, 1, 2, 3))),
    (6, R.Modular((0, 1, 2, 3))),
    (4, R.SlowThermo((0, 4, 8))),
    (4, R.Nabner((0, 5))),
    (4, R.Quadruple((1, 2, 5, 6), (1, 4))),
    (4, R.SumCage((0, 4, 5), (6, 9))),
    (4, R.Minimum((5,))),
    (4, R.Maximum((5,))),
    (4, R.Difference((0, 1), 2)),
    (4, R.Ratio((0, 1), 3)),
    (4, R.PairSum((0, 1), 5)),
    (4, R.Clone((0, 1), (10, 11))),
    (4, R.ColumnIndexer((0, 4))),
    (4, R.RowIndexer((0,))),
    (4, R.BoxIndexer((0,), (2, 2))),
    (4, R.Diagonal()),
    (4, R.Diagonal(anti=1)),
    (4, R.DisjointGroups((2, 2))),
    (4, R.ExtraRegion((0, 5, 10, 15))),
    (4, R.ExtraRegion((0, 6))),
    (4, R.Knightmare()),
    (4, R.Taxicab(3)),
    (6, R.SelfTaxicab()),
    (4, R.DiagonalNonconsecutive()),
]


@cache
def _solutions(n: int) -> tuple[bytes, ...]:
    """Every classic 4x4 solution (all 288, each checked by is_solution); a sample of 6x6 and
    9x9 ones (each a random relabelling and band/row shuffle of a fixed solution, checked)."""
    from sudokit import _reference

    shape = Shape.from_size(n)
    if n == 4:
        count, found, _, _ = _reference.search(shape, bytes(16), limit=300, keep=300, budget=0)
        assert count == len(found) == 288
        assert all(Grid(cells, shape).is_solution() for cells in found)
        return tuple(found)
    r, c = shape.box_rows, shape.box_cols
    base = [[(c * (i % r) + i // r + j) % n + 1 for j in range(n)] for i in range(n)]
    rng = random.Random(n)
    found = []
    for _ in range(400):
        relabel = list(range(1, n + 1))
        rng.shuffle(relabel)
        bands = list(range(n // r))
        rng.shuffle(bands)
        rows = [b * r + i for b in bands for i in rng.sample(range(r), r)]
        stacks = list(range(n // c))
        rng.shuffle(stacks)
        cols = [s * c + j for s in stacks for j in rng.sample(range(c), c)]
        cells = bytes(relabel[base[i][j] - 1] for i in rows for j in cols)
        assert Grid(cells, shape).is_solution()
        found.append(cells)
    return tuple(found)


def _sample(n: int, rule: Rule) -> tuple[bytes, ...]:
    """The solutions of the size, and up to 10 that keep *rule* too (found by the pure-Python
    reference search: a rare rule would otherwise never hold on the sample)."""
    from sudokit import _reference

    shape = Shape.from_size(n).with_constraints(Constraints(rules=[rule]))
    _, kept, _, _ = _reference.search(shape, bytes(n * n), limit=10, keep=10, budget=3000)
    return _solutions(n) + tuple(kept)


def _compiled_holds(rules: Constraints, cells: Sequence[int], n: int) -> bool:
    """Whether full *cells* keep every primitive form of *rules* (the search's view)."""
    if any(cells[a] == cells[b] for a, b in rules.different_pairs(n)):
        return False
    if any(len({cells[i] for i in unit}) != n for _, unit in rules.units(n)):
        return False
    allowed = rules.allowed(n)
    if allowed is not None and any(
        not m >> (d - 1) & 1 for m, d in zip(allowed, cells, strict=True)
    ):
        return False
    for a, b, table in rules.relations(n):
        if not table[cells[a] - 1] >> (cells[b] - 1) & 1:
            return False
    for where, coefs, total in rules.linear(n):
        if sum(k * cells[i] for k, i in zip(coefs, where, strict=True)) != total:
            return False
    return all(
        group_holds(kind, [cells[i] for i in where], params, n)
        for kind, where, params in rules.groups(n)
    )


def _name(example: tuple[int, Rule]) -> str:
    return f"{example[1].kind}-{example[0]}"


def test_every_kind_has_an_example() -> None:
    assert {rule.kind for _, rule in EXAMPLES} == set(KINDS)


@pytest.mark.parametrize("example", EXAMPLES, ids=_name)
def test_compilation_agrees_with_the_words(example: tuple[int, Rule]) -> None:
    n, rule = example
    rule.check(n)
    rules = Constraints(rules=[rule])
    outcomes = set()
    for cells in _sample(n, rule):
        words = not rules.violations(cells, n)
        assert words == _compiled_holds(rules, cells, n), (rule, cells)
        outcomes.add(words)
    assert outcomes == {True, False}, f"{rule} never {'fails' if True in outcomes else 'holds'}"


@pytest.mark.parametrize("example", EXAMPLES, ids=_name)
def test_json_round_trip_and_pickle(example: tuple[int, Rule]) -> None:
    n, rule = example
    assert Rule.from_json(rule.to_json()) == rule
    assert pickle.loads(pickle.dumps(rule)) == rule
    assert rule.describe(n)
    assert rule.title
    assert KINDS[rule.kind] is type(rule)


def test_a_broken_rule_names_itself() -> None:
    rules = Constraints(rules=[R.LittleKiller((1, 6, 11), 7)])
    cells = _solutions(4)[0]
    total = sum(cells[i] for i in (1, 6, 11))
    found = rules.violations(cells, 4)
    if total == 7:
        assert found == []
    else:
        assert found == [
            (0, "little killer 7 along r1c2 to r3c4 is broken: the diagonal does not add up"
             " to 7", (1, 6, 11))
        ]  # fmt: skip


def test_equal_rule_sets_compare_equal_however_listed() -> None:
    a, b = R.Renban((0, 1)), R.Diagonal()
    assert Constraints(rules=[a, b]) == Constraints(rules=[b, a, a])
    assert Constraints(rules=[a]).kinds == ("renban",)
    assert Shape(2, 2, constraints=Constraints(rules=[b])).variant == "diagonal"
    with pytest.raises(TypeError, match="rules holds rule values"):
        Constraints(rules=["renban"])  # type: ignore[list-item]


BAD = [
    (9, R.Arrow((0,), ((2, 3),)), "the arrow from r1c3 does not leave its circle"),
    (9, R.Arrow((0,), ((1, 3),)), "is not a path: r1c2 and r1c4 are not neighbours"),
    (9, R.Arrow((0, 1), ((2,),)), "1 cells cannot add up to a 2-digit number"),
    (16, R.Arrow((0, 1), ((2, 3),)), "a pill reads decimal digits"),
    (9, R.Arrow((0,), ()), "has no arrow cells"),
    (9, R.LittleKiller((10, 20), 5), "not a diagonal from outside the grid to its edge"),
    (9, R.LittleKiller((2, 10, 18), 40), "3 digits cannot add up to 40"),
    (9, R.Sandwich(tuple(range(9)), 36), "no digits make 36 (possible: 0, 2..33, 35)"),
    (9, R.Sandwich(tuple(range(8)), 5), "the cells are not a whole row or column"),
    (9, R.Skyscraper(tuple(range(9)), 10), "no digits make 10"),
    (4, R.Renban((0, 1, 2, 3, 7)), "has 5 cells; at most 4 fit"),
    (9, R.Renban((0, 1, 81)), "cell index 81 is outside 0..80"),
    (9, R.Renban((0, 1, 0)), "names r1c1 twice"),
    (9, R.Whispers((0, 1), 9), "no two digits 1..9 differ by 9"),
    (4, R.Entropic((0, 1, 2)), "do not split into thirds"),
    (9, R.Nabner((0, 1, 2, 3, 4, 5)), "at most 5 digits"),
    (9, R.Quadruple((0, 1, 2, 3), (1,)), "the cells are not a 2x2 square"),
    (9, R.Quadruple((0, 1, 9, 10), (1, 1, 1)), "a digit fits at most twice"),
    (9, R.Quadruple((0, 1, 9, 10), (10,)), "needs 1 to 4 digits in 1..9"),
    (9, R.SumCage((0, 1), (3, 18)), "2 distinct digits cannot add up to 18"),
    (9, R.SumCage((0, 1), (5, 5)), "expected 1 to 16 different totals"),
    (4, R.SumCage((0, 1, 2, 3, 4), (10,)), "has 5 cells; 1 to 4 fit"),
    (9, R.Difference((0, 2), 1), "not two orthogonal neighbours"),
    (4, R.Ratio((0, 1), 5), "no two digits 1..4 fit it"),
    (9, R.Clone((0, 1), (2,)), "2 cells and a copy of 1"),
    (9, R.DisjointGroups((2, 2)), "do not tile 9x9"),
    (9, R.Taxicab(17), "outside 1..16"),
    (9, R.Zipper((0, 1)), "needs at least 3 cells"),
]


@pytest.mark.parametrize(
    ("n", "rule", "words"), BAD, ids=[f"{r.kind}-{i}" for i, (_, r, _) in enumerate(BAD)]
)
def test_impossible_rules_are_refused_in_words(n: int, rule: Rule, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        Constraints(rules=[rule]).check(n)


def test_malformed_json_rules_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="unknown rule kind 'spiral'"):
        Rule.from_json({"kind": "spiral"})
    with pytest.raises(ValueError, match="renban line: unknown field 'colour'"):
        Rule.from_json({"kind": "renban", "cells": [0, 1], "colour": "pink"})
    with pytest.raises(ValueError, match=r"little killer: .*needs the field 'total'"):
        Rule.from_json({"kind": "littlekiller", "cells": [0]})
    with pytest.raises(ValueError, match="expected a whole number, got 'x'"):
        Rule.from_json({"kind": "renban", "cells": [0, "x"]})
    with pytest.raises(ValueError, match="a rule must be an object"):
        Rule.from_json([1, 2])  # type: ignore[arg-type]
