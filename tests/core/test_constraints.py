"""The variant model: Constraints on a Shape, checked against plain restatements of the rules."""

from __future__ import annotations

import itertools
import pickle
import random
import re
from functools import cache

import pytest

from sudokit import Cage, Constraints, Grid, Shape
from sudokit.constraints import cage_combinations, sum_range


@cache
def solutions_4x4() -> list[bytes]:
    """Every classic 4x4 solution, by brute force over row permutations (no solver involved):
    rows whose columns repeat no digit (the 576 Latin squares), kept when ``is_solution``.
    Made at first use, not at import: every collection imported this module (2.6 s of CPU
    when it tried all 331,776 products of rows)."""
    perms = list(itertools.permutations(range(1, 5)))
    squares: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(4):
        squares = [
            (*rows, row)
            for rows in squares
            for row in perms
            if all(row[c] != above[c] for above in rows for c in range(4))
        ]
    found = []
    for rows in squares:
        cells = bytes(d for row in rows for d in row)
        if Grid(cells, Shape(2, 2)).is_solution():
            found.append(cells)
    return found


def _obeys(cells: bytes, rules: Constraints, n: int) -> bool:
    """The rules restated plainly, independent of constraints.py's tables."""
    at = lambda i: cells[i]  # noqa: E731
    rc = lambda i: divmod(i, n)  # noqa: E731
    for a in range(n * n):
        for b in range(a + 1, n * n):
            (ra, ca), (rb, cb) = rc(a), rc(b)
            dr, dc = abs(ra - rb), abs(ca - cb)
            if rules.antiknight and {dr, dc} == {1, 2} and at(a) == at(b):
                return False
            if rules.antiking and max(dr, dc) == 1 and at(a) == at(b):
                return False
            if dr + dc != 1:
                continue
            x, y = at(a), at(b)
            if rules.nonconsecutive and abs(x - y) == 1:
                return False
            consecutive, double = abs(x - y) == 1, x == 2 * y or y == 2 * x
            if (a, b) in rules.white and not consecutive:
                return False
            if (a, b) in rules.black and not double:
                return False
            dotted = (a, b) in rules.white or (a, b) in rules.black
            if rules.kropki_negative and not dotted and (consecutive or double):
                return False
            if (a, b) in rules.x and x + y != 10:
                return False
            if (a, b) in rules.v and x + y != 5:
                return False
            marked = (a, b) in rules.x or (a, b) in rules.v
            if rules.xv_negative and not marked and x + y in (5, 10):
                return False
    for cage in rules.cages:
        digits = [at(i) for i in cage.cells]
        if len(set(digits)) != len(digits):
            return False
        if cage.total is not None and sum(digits) != cage.total:
            return False
    if rules.parity is not None:
        for i, ch in enumerate(rules.parity):
            if (ch == "e" and at(i) % 2) or (ch == "o" and not at(i) % 2):
                return False
    for thermo in rules.thermos:
        if any(at(p) >= at(q) for p, q in itertools.pairwise(thermo)):
            return False
    return True


def _random_rules(rng: random.Random, n: int) -> Constraints:
    """A random mix of rules on an n x n grid (not necessarily satisfiable)."""
    adjacent = [(i, i + 1) for i in range(n * n) if (i + 1) % n] + [
        (i, i + n) for i in range(n * n - n)
    ]
    cells = list(range(n * n))
    rng.shuffle(cells)
    cages = []
    for k in range(rng.randrange(3)):
        members = cells[3 * k : 3 * k + rng.randrange(1, 4)]
        low, high = sum_range(len(members), n)
        cages.append(Cage(members, rng.choice([None, rng.randint(low, high)])))
    pairs = rng.sample(adjacent, 6)
    return Constraints(
        cages=cages,
        antiknight=rng.random() < 0.3,
        antiking=rng.random() < 0.2,
        nonconsecutive=rng.random() < 0.2,
        white=pairs[:1] if rng.random() < 0.5 else (),
        black=pairs[1:2] if rng.random() < 0.5 else (),
        kropki_negative=rng.random() < 0.2,
        v=pairs[2:3] if rng.random() < 0.5 else (),
        xv_negative=rng.random() < 0.2,
        parity="".join(rng.choice("..eo") for _ in range(n * n)) if rng.random() < 0.4 else None,
        thermos=[(0, 1, 2)] if rng.random() < 0.3 else (),
    )


@pytest.mark.parametrize("seed", range(40))
def test_is_solution_matches_the_rules_restated(seed: int) -> None:
    rng = random.Random(seed)
    rules = _random_rules(rng, 4)
    shape = Shape(2, 2, constraints=rules)
    kept = [s for s in solutions_4x4() if _obeys(s, rules, 4)]
    assert [s for s in solutions_4x4() if Grid(s, shape).is_solution()] == kept
    # and every grid that breaks a rule says which one, with the cells involved
    for s in solutions_4x4():
        if s not in kept:
            assert Grid(s, shape).conflicts()
            assert not Grid(s, shape).is_valid


@pytest.mark.parametrize("seed", range(20))
def test_relations_are_the_pair_rules(seed: int) -> None:
    """Every support table entry agrees with the restated rule on that pair alone."""
    rng = random.Random(100 + seed)
    rules = _random_rules(rng, 4)
    only_pairs = Constraints(
        nonconsecutive=rules.nonconsecutive,
        white=rules.white,
        black=rules.black,
        kropki_negative=rules.kropki_negative,
        x=rules.x,
        v=rules.v,
        xv_negative=rules.xv_negative,
        thermos=rules.thermos,
    )
    tables = {(a, b): t for a, b, t in only_pairs.relations(4)}
    for (a, b), table in tables.items():
        assert (b, a) in tables
        for x, y in itertools.product(range(1, 5), repeat=2):
            cells = bytearray(16)
            cells[a], cells[b] = x, y
            allowed = bool(table[x - 1] >> (y - 1) & 1)
            assert allowed == (not only_pairs.violations(bytes(cells), 4)), (a, b, x, y)


@pytest.mark.parametrize("n", [4, 6, 9])
def test_cage_combinations_are_every_digit_set(n: int) -> None:
    for size in range(1, n + 1):
        low, high = sum_range(size, n)
        for total in range(low - 1, high + 2):
            expected = sorted(
                sum(1 << (d - 1) for d in combo)
                for combo in itertools.combinations(range(1, n + 1), size)
                if sum(combo) == total
            )
            assert list(cage_combinations(size, total, n)) == expected
            assert bool(expected) == (low <= total <= high)


@pytest.mark.parametrize(
    ("rules", "n", "words"),
    [
        (Constraints(cages=[Cage((0, 81), 5)]), 9, "cage 1: cell index 81 is outside 0..80"),
        (Constraints(cages=[Cage((0, 1), 3), Cage((1, 2), 5)]), 9, "cages overlap at r1c2"),
        (
            Constraints(cages=[Cage((0, 1, 2), 5)]),
            9,
            "3 cells cannot add up to 5 (possible: 6..24)",
        ),
        (Constraints(cages=[Cage((0, 0), 3)]), 9, "lists a cell twice"),
        (Constraints(cages=[Cage(range(5), None)]), 4, "has 5 cells; at most 4 fit"),
        (Constraints(cages=[Cage((), 3)]), 4, "cage 1 has no cells"),
        (Constraints(white=[(0, 2)]), 9, "white dot between r1c1 and r1c3: the cells are not"),
        (Constraints(black=[(0, 10)]), 9, "black dot between r1c1 and r2c2"),
        (Constraints(x=[(0, 1)]), 4, "X needs two digits adding up to 10: none on 4x4"),
        (Constraints(v=[(0, 99)]), 9, "V: cell index 99 is outside 0..80"),
        (Constraints(parity="e" * 80), 9, "parity needs 81 symbols, got 80"),
        (Constraints(parity="e" * 80 + "x"), 9, "parity symbol 'x' at r9c9"),
        (Constraints(thermos=[(0, 2)]), 9, "thermometer 1 is not a path: r1c1 and r1c3"),
        (Constraints(thermos=[(0, 1, 0)]), 9, "thermometer 1 visits a cell twice"),
        (Constraints(thermos=[(0, 1, 2, 3, 7)]), 4, "thermometer 1 has 5 cells; at most 4"),
        (Constraints(thermos=[()]), 4, "thermometer 1 has no cells"),
    ],
)
def test_impossible_rules_are_refused_by_name(rules: Constraints, n: int, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        rules.check(n)
    box = {4: (2, 2), 9: (3, 3)}[n]
    with pytest.raises(ValueError, match=re.escape(words.split(":")[0])):
        Shape(*box, constraints=rules)


def test_values_are_normalised_hashable_and_pickle() -> None:
    a = Constraints(cages=[Cage((9, 0), 10), Cage((2, 1))], white=[(1, 0), (0, 1)], parity=None)
    b = Constraints(cages=[Cage((1, 2)), Cage((0, 9), 10)], white=[(0, 1)])
    assert a == b
    assert hash(a) == hash(b)
    assert pickle.loads(pickle.dumps(a)) == a
    shape = Shape(3, 3, windoku=True, constraints=a)
    assert pickle.loads(pickle.dumps(shape)) == shape
    assert eval(repr(shape), {"Shape": Shape, "Constraints": Constraints, "Cage": Cage}) == shape
    assert Shape(3, 3, constraints=Constraints()) == Shape(3, 3)  # empty rules are no rules
    assert Shape(3, 3, constraints=Constraints(parity="." * 81)).constraints is None
    assert shape.classic() == Shape(3, 3)
    assert shape.classic().is_standard
    assert shape != Shape(3, 3, constraints=a)  # windows are part of the shape
    with pytest.raises(AttributeError):
        a.antiknight = True  # type: ignore[misc]


def test_windoku_windows() -> None:
    shape = Shape(3, 3, windoku=True)
    windows = [shape.units[u] for u in shape.extra_units]
    assert [shape.unit_kinds[u] for u in shape.extra_units] == ["window"] * 4
    corners = sorted(w[0] for w in windows)
    assert corners == [10, 14, 46, 50]  # r2c2, r2c6, r6c2, r6c6
    assert all(len(w) == 9 for w in windows)
    assert len(Shape(4, 4, windoku=True).extra_units) == 9
    assert len(Shape(2, 2, windoku=True).extra_units) == 1
    with pytest.raises(ValueError, match="windoku needs square boxes"):
        Shape(2, 3, windoku=True)
    # a windoku solution is a classic one whose windows hold every digit
    grid = Grid.parse(
        "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
    )
    assert grid.is_solution()
    assert not Grid(grid.cells, shape).is_solution()


def test_peers_include_the_different_pairs() -> None:
    rules = Constraints(antiknight=True, cages=[Cage((0, 80))])
    shape = Shape(3, 3, constraints=rules)
    assert 80 in shape.peers[0]
    assert 0 in shape.peers[80]
    assert 15 in shape.peers[4]  # r1c5 and r2c7: a knight's move across boxes
    assert 15 not in Shape(3, 3).peers[4]


def test_unit_ranges_and_variant_names() -> None:
    shape = Shape(2, 3)
    assert [shape.unit_kinds[u] for u in shape.row_units] == ["row"] * 6
    assert [shape.unit_kinds[u] for u in shape.column_units] == ["column"] * 6
    assert [shape.unit_kinds[u] for u in shape.box_units] == ["box"] * 6
    assert len(shape.extra_units) == 0
    killer = Constraints(cages=[Cage((0, 1), 3)])
    assert Shape(3, 3, constraints=killer).variant == "killer"
    assert Shape(3, 3, diagonals=True, constraints=killer).variant == "x-killer"
    assert Shape(3, 3, windoku=True).variant == "windoku"
    jigsaw = Shape.jigsaw("AABBAABBCCDDCCDD").with_constraints(killer)
    assert jigsaw.variant == "jigsaw-killer"
    assert Shape(3, 3).variant == "standard"


def test_conflicts_name_the_broken_rule() -> None:
    rules = Constraints(cages=[Cage((0, 1), 3)], antiknight=True)
    grid = Grid(bytes([1, 3] + [0] * 7 + [0, 0, 0, 1] + [0] * 68), Shape(3, 3, constraints=rules))
    words = [c.unit for c in grid.conflicts()]
    assert "cage of sum 3 at r1c1 adds up to 4" in words
    assert not any("knight's move" in w for w in words)  # r1c1 and r2c4: not a knight apart
    grid = Grid(bytes([1] + [0] * 10 + [1] + [0] * 69), Shape(3, 3, constraints=rules))
    assert any(
        "r1c1 and r2c3 are a knight's move apart and both hold 1" in c.unit
        for c in grid.conflicts()
    )


def test_negative_kropki_of_one_colour() -> None:
    """White negative: undotted neighbours are not consecutive (a double is fine); black
    negative the reverse; kropki_negative is both, and says so in its repr."""
    consecutive, double = bytes([2, 3] + [0] * 14), bytes([2, 4] + [0] * 14)
    white, black = Constraints(white_negative=True), Constraints(black_negative=True)
    assert white.violations(consecutive, 4)
    assert not white.violations(double, 4)
    assert black.violations(double, 4)
    assert not black.violations(consecutive, 4)
    both = Constraints(white_negative=True, black_negative=True)
    assert both == Constraints(kropki_negative=True)
    assert both.kropki_negative
    assert not white.kropki_negative
    assert white.kinds == ("kropki",)
    assert repr(both) == "Constraints(kropki_negative=True)"
    assert repr(black) == "Constraints(black_negative=True)"
    dotted = Constraints(white=[(0, 1)], black_negative=True)
    assert not dotted.violations(bytes([1, 2] + [0] * 14), 4)  # a dotted pair is spared
