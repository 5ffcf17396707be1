"""Killer and variant techniques (logic/killer.py, logic/variants.py) on hand-made positions.

Every position is built from a known solution grid, so each step is checked twice: against the
exact eliminations or placement worked out by hand, and against the solution (a technique that
removes the solution's digit from a cell, or places another one, is wrong whatever else it
finds). Random layouts on 4x4, 6x6 and 9x9 then walk the full path checking every step the same
way, and a few killers are explained to completion.
"""

from __future__ import annotations

import itertools
import random

import pytest

from sudokit.constraints import Cage, Constraints, cage_combinations
from sudokit.grid import Grid
from sudokit.logic import killer, variants
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import solve_path
from sudokit.logic.registry import TECHNIQUES, by_name
from sudokit.logic.step import Step
from sudokit.rating import is_variant, rating_techniques
from sudokit.shape import Shape

# A valid 9x9 solution, row by row.
SOL9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
SOL4 = "1234341221434321"
SOL6 = "123456456123231564564231312645645312"  # 2x3 boxes
FULL = 0b111111111


def cell(r: int, c: int, n: int = 9) -> int:
    """Cell index from 1-based row and column."""
    return (r - 1) * n + (c - 1)


def digit(sol: str, c: int) -> int:
    return int(sol[c])


def killer_shape(cages: list[list[int]], sol: str = SOL9, box: tuple[int, int] = (3, 3)) -> Shape:
    """A shape whose cages (cell lists) take their sums from *sol*."""
    made = [Cage(cs, sum(digit(sol, c) for c in cs)) for cs in cages]
    return Shape(*box, constraints=Constraints(cages=made))


def sound(step: Step, sol: str) -> None:
    """The step keeps the solution: no elimination of its digit, no other placement."""
    for c, d in step.eliminations:
        assert digit(sol, c) != d, f"{step.technique} removed the solution digit: {step.text}"
    for c, d in step.placements:
        assert digit(sol, c) == d, f"{step.technique} placed a wrong digit: {step.text}"


def steps_of(finder: object, cg: CandidateGrid, sol: str = SOL9) -> list[Step]:
    assert callable(finder)
    found = list(finder(cg))
    for s in found:
        sound(s, sol)
    return found


def empty(shape: Shape) -> CandidateGrid:
    return CandidateGrid.from_grid(Grid.empty(shape))


def with_values(shape: Shape, cells: list[int], sol: str = SOL9) -> CandidateGrid:
    """The candidate grid with the solution's digits placed in *cells*."""
    values = bytearray(shape.ncells)
    for c in cells:
        values[c] = digit(sol, c)
    return CandidateGrid.from_grid(Grid(bytes(values), shape))


def mask(*digits: int) -> int:
    out = 0
    for d in digits:
        out |= 1 << (d - 1)
    return out


# -- cage combinations -------------------------------------------------------------------------


def test_cage_of_one_split_removes_every_other_digit() -> None:
    # r1c8 + r1c9 = 1 + 2 = 3: the one split 1+2.
    shape = killer_shape([[cell(1, 8), cell(1, 9)]])
    steps = steps_of(killer.cage_combination, empty(shape))
    assert len(steps) == 1
    step = steps[0]
    assert step.rating == killer.COMBINATION_ONE
    assert set(step.eliminations) == {(c, d) for c in (7, 8) for d in range(3, 10)}
    assert "can only be 1+2" in step.text


def test_three_cell_cage_of_one_split() -> None:
    # on 4x4, r1c1 r1c2 r2c1 = 1 + 2 + 3 = 6: the one split 1+2+3, so no 4 in them
    shape = killer_shape([[0, 1, 4]], SOL4, (2, 2))
    step = steps_of(killer.cage_combination, empty(shape), SOL4)[0]
    assert "The 3-cell cage of 6 (r1c1, r1c2 and r2c1) can only be 1+2+3" in step.text
    assert set(step.eliminations) == {(0, 4), (1, 4), (4, 4)}


def test_cage_combination_reads_the_candidates() -> None:
    # r1c1 + r1c2 = 5 + 3 = 8: 1+7, 2+6, 3+5. With r1c1 limited to {3, 5, 6}: 2+6 and 3+5 stay
    # (1+7 needs a 1 or 7 in r1c1); r1c2 keeps {2, 3, 5}.
    shape = killer_shape([[0, 1]])
    cg = empty(shape)
    cg.masks[0] = mask(3, 5, 6)
    step = steps_of(killer.cage_combination, cg)[0]
    assert step.rating == killer.COMBINATION
    assert set(step.eliminations) == {(1, d) for d in (1, 4, 6, 7, 8, 9)}
    assert "2+6 or 3+5" in step.text
    assert "do not fit" in step.text


def test_cage_combination_with_a_placed_cell() -> None:
    # r2c1 r2c2 r2c3 = 6 + 7 + 2 = 15; with r2c1 = 6 placed, r2c2 + r2c3 = 9 without a 6:
    # 1+8, 2+7, 4+5 (3+6 is out).
    shape = killer_shape([[9, 10, 11]])
    cg = with_values(shape, [9])
    step = steps_of(killer.cage_combination, cg)[0]
    assert "already holds 6 in r2c1" in step.text
    assert {d for c, d in step.eliminations if c == 10} == {3, 9}
    assert {c for c, _ in step.eliminations} == {10, 11}


def test_last_open_cell_of_a_cage_is_placed() -> None:
    shape = killer_shape([[9, 10, 11]])
    cg = with_values(shape, [9, 10])
    step = steps_of(killer.cage_combination, cg)[0]
    assert step.placements == ((11, 2),)
    assert "last open cell" in step.text


def test_cage_without_sum_gives_no_combination() -> None:
    shape = Shape(3, 3, constraints=Constraints(cages=[Cage((0, 1), None)]))
    assert list(killer.cage_combination(empty(shape))) == []
    assert 1 in shape.peers[0]
    assert 1 in empty(shape).shape.peers[0]


def test_set_and_sum_support_against_brute_force() -> None:
    """The two counting helpers agree with trying every assignment (random small cases)."""
    rng = random.Random(7)
    for _ in range(400):
        n = rng.choice([4, 6, 9])
        k = rng.randint(1, 4)
        masks = [rng.randint(1, (1 << n) - 1) for _ in range(k)]
        total = rng.randint(1, n * k)
        choices = [[d for d in range(1, n + 1) if m >> (d - 1) & 1] for m in masks]
        distinct = [0] * k
        any_sum = [0] * k
        sets = set()
        for combo in itertools.product(*choices):
            if sum(combo) != total:
                continue
            for i, d in enumerate(combo):
                any_sum[i] |= 1 << (d - 1)
            if len(set(combo)) == k:
                sets.add(mask(*combo))
                for i, d in enumerate(combo):
                    distinct[i] |= 1 << (d - 1)
        assert killer._sum_support(masks, total) == any_sum
        found, support = killer._set_support(masks, cage_combinations(k, total, n))
        assert set(found) == sets
        assert support == distinct


# -- the rule of 45 ------------------------------------------------------------------------------


ROW1_CAGES = [[0, 1], [2, 3], [4, 5], [6, 7]]  # row 1 minus r1c9, in pairs


def test_rule_of_45_single_innie() -> None:
    # r1c9 is in a cage with r2c9: the cages inside row 1 add up to 45 - 2 = 43.
    shape = killer_shape([*ROW1_CAGES, [8, 17]])
    steps = [s for s in steps_of(killer.rule_of_45, empty(shape)) if s.placements == ((8, 2),)]
    assert steps
    assert steps[0].rating == killer.RULE45_CELL
    assert "Row 1 adds up to 45" in steps[0].text
    assert "r1c9 is 2" in steps[0].text


def test_rule_of_45_single_outie() -> None:
    # Every cell of row 1 is in a cage; the last one reaches r2c9, so the cages touching row 1
    # add up to 45 + r2c9 (= 8).
    shape = killer_shape([*ROW1_CAGES, [8, 17]])
    outies = [s for s in steps_of(killer.rule_of_45, empty(shape)) if s.placements == ((17, 8),)]
    assert outies
    assert "outside it (r2c9) add up to 8" in outies[0].text


def test_rule_of_45_over_two_rows() -> None:
    # Rows 1-2 are covered by cages inside them except r2c9, whose cage reaches r3c9: the
    # one innie of rows 1-2 (r2c9 = 8), rated one house more.
    cages = [[0, 1], [2, 3], [4, 5], [6, 7], [8, 16], [9, 10], [11, 12], [13, 14], [15], [17, 26]]
    shape = killer_shape(cages)
    found = [s for s in steps_of(killer.rule_of_45, empty(shape)) if (17, 8) in s.placements]
    assert found
    assert any("rows 1-2" in s.text and s.rating == 2.0 for s in found)


def test_rule_of_45_over_two_boxes() -> None:
    # Boxes 1 and 2 (rows 1-3, columns 1-6) are covered by cages inside them except r1c6, whose
    # cage reaches r1c7: the two boxes add up to 90, so r1c6 is what the others leave (8).
    cages = [[0, 1], [2, 3, 4], [5, 6], [7, 8]]
    cages += [[r * 9 + c, r * 9 + c + 1] for r in (1, 2) for c in (0, 2, 4)]
    shape = killer_shape(cages)
    found = [s for s in steps_of(killer.rule_of_45, empty(shape)) if s.placements == ((5, 8),)]
    assert found
    assert "Box 1 and box 2 add up to 90" in found[0].text
    assert found[0].rating == pytest.approx(killer.RULE45_CELL + killer.EXTRA_HOUSE)


def test_hidden_cage_in_a_row() -> None:
    # Row 1: r1c1-r1c7 in cages inside the row, r1c8 and r1c9 in cages reaching row 2: the
    # innies r1c8 + r1c9 = 1 + 2 = 3 form a hidden cage that can only be 1+2.
    cages = [[0, 1], [2, 3], [4, 5, 6], [7, 16], [8, 17]]
    shape = killer_shape(cages)
    steps = steps_of(killer.hidden_cage, empty(shape))
    step = next(s for s in steps if {c for c, _ in s.eliminations} == {7, 8})
    assert step.rating == killer.HIDDEN_CAGE
    assert set(step.eliminations) == {(c, d) for c in (7, 8) for d in range(3, 10)}
    assert "hidden cage that can only be 1+2" in step.text


def test_rule_of_45_sum_without_distinct_cells() -> None:
    # Rows 1-2: every cell in a cage inside them except r1c9 (its cage reaches r3c9) and r2c1
    # (its cage reaches r3c1): two innies that are not peers, adding up to 2 + 6 = 8, so
    # neither is 8 or 9 (the other is at least 1).
    cages = [[0, 1], [2, 3], [4, 5], [6, 7], [8, 26], [9, 18], [10, 11], [12, 13], [14, 15]]
    cages += [[16, 17]]
    shape = killer_shape(cages)
    steps = steps_of(killer.rule_of_45_sum, empty(shape))
    step = next(s for s in steps if {c for c, _ in s.eliminations} == {8, 9})
    assert step.rating == pytest.approx(killer.RULE45_SUM + killer.EXTRA_HOUSE)
    assert set(step.eliminations) == {(c, d) for c in (8, 9) for d in (8, 9)}


# -- cages and houses ----------------------------------------------------------------------------


def test_cage_pointing_inside_a_row_and_box() -> None:
    # r1c8 + r1c9 = 1 + 2 = 3: both digits go in row 1 and box 3.
    shape = killer_shape([[7, 8]])
    cg = empty(shape)
    for c in (7, 8):
        cg.masks[c] = mask(1, 2)
    steps = steps_of(killer.cage_pointing, cg)
    by_digit = {s.eliminations[0][1]: s for s in steps}
    assert set(by_digit) == {1, 2}
    row_and_box = set(range(7)) | {15, 16, 17, 24, 25, 26}
    assert {c for c, _ in by_digit[1].eliminations} == row_and_box
    assert "must hold a 1 (its only set: 1+2)" in by_digit[1].text
    assert "both in row 1 and box 3, so 1 is removed from the rest of row 1 and box 3" in (
        by_digit[1].text
    )


def test_cage_pointing_of_a_required_digit_only() -> None:
    # r1c1 r2c1 = 5 + 6 = 11: 2+9, 3+8, 4+7, 5+6; no digit is in every set: nothing.
    shape = killer_shape([[0, 9]])
    assert list(killer.cage_pointing(empty(shape))) == []
    # limit the cells to {5, 6, 9}: only 5+6 fits, 5 and 6 go from column 1 and box 1
    cg = empty(shape)
    cg.masks[0] = cg.masks[9] = mask(5, 6, 9)
    steps = steps_of(killer.cage_pointing, cg)
    assert {s.eliminations[0][1] for s in steps} == {5, 6}


def test_cage_claiming() -> None:
    # Cage r1c1 r2c1 r2c2 (5 + 6 + 7 = 18). In row 2 the 6 can only go in r2c1 or r2c2, both in
    # the cage: the cage's 6 is there, so r1c1 is not 6, and the sets without a 6 are dropped.
    shape = killer_shape([[0, 9, 10]])
    cg = empty(shape)
    for c in range(11, 18):
        cg.eliminate(c, 6)
    steps = steps_of(killer.cage_claiming, cg)
    step = next(s for s in steps if s.units == (shape.row_units[1],))
    assert (0, 6) in step.eliminations
    # with a 6 the other two add up to 12 without 6: 3+9, 4+8, 5+7 -> no 1, 2 or 6 left in r1c1
    assert {d for c, d in step.eliminations if c == 0} == {1, 2, 6}
    assert "can only go in r2c1 or r2c2" in step.text


def test_cage_clash_in_a_row() -> None:
    # Row 1 is 5 3 4 6 7 8 9 1 2. r1c8 + r1c9 = 3 can only be 1+2; r1c2 + r1c3 = 7 could be
    # 1+6, 2+5 or 3+4, but the first two clash with the 1+2 of the same row: it is 3+4.
    shape = killer_shape([[1, 2], [7, 8]])
    steps = steps_of(killer.cage_clash, empty(shape))
    step = next(s for s in steps if s.cells == (1, 2))
    assert step.rating == killer.CAGE_CLASH
    assert set(step.eliminations) == {(c, d) for c in (1, 2) for d in (1, 2, 5, 6, 7, 8, 9)}
    assert "1+6 or 2+5 would leave the others no set" in step.text
    # cages in different houses never clash
    assert list(killer.cage_clash(empty(killer_shape([[1, 2], [cell(9, 8), cell(9, 9)]])))) == []


# -- variant rules -------------------------------------------------------------------------------


def variant_shape(sol: str = SOL9, **rules: object) -> Shape:
    return Shape(3, 3, constraints=Constraints(**rules))  # type: ignore[arg-type]


def test_parity_step() -> None:
    parity = "".join("e" if int(ch) % 2 == 0 else "o" for ch in SOL9[:9]) + "." * 72
    cg = empty(variant_shape(parity=parity))
    (step,) = steps_of(variants.parity, cg)
    assert step.rating == variants.PARITY
    assert len(step.eliminations) == 4 * 5 + 5 * 4  # 5 odd digits from 4 even cells, and back
    assert "even (shaded)" in step.text
    assert "odd (circled)" in step.text


def test_thermometer_bounds() -> None:
    # r9c7 (1) -> r8c8 (3) -> r7c9 (4) rises in the solution: diagonal steps of a thermometer
    path = (cell(9, 7), cell(8, 8), cell(7, 9))
    cg = empty(variant_shape(thermos=[path]))
    (step,) = steps_of(variants.thermometer, cg)
    assert set(step.eliminations) == {
        (path[0], 8),
        (path[0], 9),
        (path[1], 1),
        (path[1], 9),
        (path[2], 1),
        (path[2], 2),
    }
    assert "is between 2 and 8" in step.text


def test_thermometer_reads_the_candidates() -> None:
    path = (cell(9, 7), cell(8, 8), cell(7, 9))
    cg = empty(variant_shape(thermos=[path]))
    cg.masks[path[1]] = mask(3, 5)
    (step,) = steps_of(variants.thermometer, cg)
    assert {d for c, d in step.eliminations if c == path[0]} == set(range(5, 10))
    assert {d for c, d in step.eliminations if c == path[2]} == {1, 2, 3}


@pytest.mark.parametrize("rule", ["white", "black", "x", "v"])
def test_neighbour_rules(rule: str) -> None:
    """A pair of the solution that obeys the rule, one cell placed: the other keeps only the
    digits the rule allows next to it."""
    n = 9
    pairs = [(a, a + 1) for a in range(81) if a % n < n - 1] + [(a, a + n) for a in range(72)]

    def holds(a: int, b: int) -> bool:
        x, y = digit(SOL9, a), digit(SOL9, b)
        return {
            "white": abs(x - y) == 1,
            "black": x == 2 * y or y == 2 * x,
            "x": x + y == 10,
            "v": x + y == 5,
        }[rule]

    a, b = next(p for p in pairs if holds(*p))
    x = digit(SOL9, a)
    expect = {
        "white": {x - 1, x + 1},
        "black": {x * 2, x // 2 if x % 2 == 0 else 0},
        "x": {10 - x},
        "v": {5 - x},
    }[rule] & set(range(1, 10))
    cg = with_values(variant_shape(**{rule: [(a, b)]}), [a])
    steps = steps_of(variants.neighbour_rule, cg)
    step = next(s for s in steps if s.eliminations[0][0] == b)
    assert {d for _, d in step.eliminations} == set(cg.digits(b)) - expect
    assert step.rating == variants.NEIGHBOUR
    assert "are joined by" in step.text


def pattern_solution(pair_ok: object) -> str:
    """A 9x9 solution whose orthogonal neighbours all satisfy *pair_ok(x, y)*: the pattern
    grid ``L[(3 * (r % 3) + r // 3 + c) % 9]`` (neighbours are 1, 3 or 4 apart in L's cycle)
    with the first labelling L that works."""
    assert callable(pair_ok)
    for labels in itertools.permutations(range(1, 10)):
        if all(pair_ok(labels[i], labels[(i + s) % 9]) for i in range(9) for s in (1, 3, 4)):
            return "".join(
                str(labels[(3 * (r % 3) + r // 3 + c) % 9]) for r in range(9) for c in range(9)
            )
    raise AssertionError("no labelling")


def consecutive(x: int, y: int) -> bool:
    return abs(x - y) == 1


def double(x: int, y: int) -> bool:
    return x == 2 * y or y == 2 * x


@pytest.mark.parametrize(
    ("rule", "pair_ok", "name"),
    [
        ("nonconsecutive", lambda x, y: not consecutive(x, y), "Non-Consecutive"),
        ("kropki_negative", lambda x, y: not consecutive(x, y) and not double(x, y), "Kropki Dot"),
        ("white_negative", lambda x, y: not consecutive(x, y), "Kropki Dot"),
        ("xv_negative", lambda x, y: x + y not in (5, 10), "XV"),
    ],
)
def test_neighbour_rules_without_marks(rule: str, pair_ok: object, name: str) -> None:
    """Around a placed r5c5, each orthogonal neighbour loses exactly the digits the rule
    forbids next to it. Kropki's negative rule: no grid avoids doubles everywhere, so the
    solution's doubles carry black dots and their cells lose every digit but the double."""
    assert callable(pair_ok)
    rules: dict[str, object] = {rule: True}
    black: list[tuple[int, int]] = []
    if rule == "kropki_negative":
        sol = pattern_solution(lambda x, y: not consecutive(x, y))
        pairs = [(a, a + 1) for a in range(81) if a % 9 < 8] + [(a, a + 9) for a in range(72)]
        black = [(a, b) for a, b in pairs if double(digit(sol, a), digit(sol, b))]
        rules["black"] = black
    else:
        sol = pattern_solution(pair_ok)
    shape = variant_shape(**rules)
    assert Grid(bytes(int(ch) for ch in sol), shape).is_solution()
    centre = cell(5, 5)
    cg = with_values(shape, [centre], sol)
    x = digit(sol, centre)
    steps = steps_of(variants.neighbour_rule, cg, sol)
    assert steps
    assert {s.technique for s in steps} == {name}
    if rule == "white_negative":
        assert all("no dot (so they are not consecutive)" in s.text for s in steps)
    around = (cell(4, 5), cell(6, 5), cell(5, 4), cell(5, 6))
    for b in around:
        removed = {d for s in steps for c, d in s.eliminations if c == b}
        if (min(centre, b), max(centre, b)) in black:
            assert removed == {y for y in range(1, 10) if y != x and not double(x, y)}
        else:
            assert removed == {y for y in range(1, 10) if y != x and not pair_ok(x, y)}
    if not black:  # (black-dot cells also lose the digits that have no double)
        assert {c for s in steps for c, _ in s.eliminations} <= set(around)


def test_variant_techniques_find_nothing_on_classic_shapes() -> None:
    cg = empty(Shape(3, 3))
    finders = [t.finder for t in TECHNIQUES if t.family in ("killer", "variant")]
    assert len(finders) == 16
    assert all(list(f(cg)) == [] for f in finders)


# -- uniqueness techniques are switched off on variants ------------------------------------------


UR_PUZZLE = "2.9.4.8.7.7.9.......1.7...9...5.4..5...3.2...6..8.1...3...8.6.......3.4.8.3.1.9.2"


def test_uniqueness_off_on_variants() -> None:
    ur = by_name("Unique Rectangle / Loop")
    # a deadly pattern: r1c1 r1c4 r2c1 r2c4 share {1, 2} and r1c1 has an extra 3
    masks = [FULL] * 81
    for c in (0, 3, 9, 12):  # r1c1 r1c4 r2c1 r2c4: two rows, two columns, two boxes
        masks[c] = mask(1, 2)
    masks[0] = mask(1, 2, 3)
    classic = CandidateGrid.from_masks(Shape(3, 3), [0] * 81, masks)
    assert list(ur.finder(classic)), "the classic rectangle should be found"
    for shape in (
        killer_shape([[0, 1]]),
        Shape(3, 3, windoku=True),
        Shape(3, 3, diagonals=True),
        variant_shape(antiknight=True),
    ):
        cg = CandidateGrid.from_masks(shape, [0] * 81, masks)
        assert list(ur.finder(cg)) == [], shape.variant
        assert list(by_name("BUG").finder(cg)) == []


# -- whole paths ---------------------------------------------------------------------------------


def neighbours(c: int, n: int) -> list[int]:
    """The orthogonal neighbours of cell *c* on an n x n grid."""
    r, k = divmod(c, n)
    return [
        rr * n + kk
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
        if 0 <= rr < n and 0 <= kk < n
    ]


def random_cages(sol: str, n: int, rng: random.Random, sizes: tuple[int, ...]) -> list[list[int]]:
    """A connected cage layout of *sol* whose cages hold distinct digits."""
    free = set(range(n * n))
    order = list(range(n * n))
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        want = rng.choice(sizes)
        cage = [start]
        free.discard(start)
        while len(cage) < want:
            used = {sol[c] for c in cage}
            near = [x for c in cage for x in neighbours(c, n) if x in free and sol[x] not in used]
            if not near:
                break
            pick = rng.choice(near)
            cage.append(pick)
            free.discard(pick)
        cages.append(cage)
    return cages


def walk_sound(shape: Shape, sol: str) -> tuple[bool, list[Step]]:
    """Walk the variant rating's path on the empty grid of *shape*, checking every step against
    *sol*; returns whether it ended solved (then on *sol*) and the steps."""
    cg = CandidateGrid.from_grid(Grid.empty(shape))
    # the techniques below the chains: the chains never read cages or relations (and are
    # tested elsewhere); without them a non-unique layout stops at once instead of searching
    techs = [t for t in rating_techniques(shape) if t.rating < 6.0]
    path = solve_path(cg, techs, unique=True)
    for step in path.steps:
        sound(step, sol)
    if path.solved:
        assert "".join(str(v) for v in cg.values) == sol
    return path.solved, list(path.steps)


@pytest.mark.parametrize(
    ("sol", "box"),
    [(SOL4, (2, 2)), (SOL6, (2, 3)), (SOL9, (3, 3))],
)
def test_random_killers_every_step_keeps_the_solution(sol: str, box: tuple[int, int]) -> None:
    n = box[0] * box[1]
    rng = random.Random(12)
    checked = 0
    for _ in range(4 if n == 9 else 12):
        cages = random_cages(sol, n, rng, (2, 3, 3, 4))
        shape = killer_shape(cages, sol, box)
        checked += len(walk_sound(shape, sol)[1])
    assert checked >= 10 * n  # the walks took steps (each one checked)


def test_random_variant_mixes_keep_the_solution() -> None:
    """Dots, X/V, thermometers and parity drawn from the solution (so it obeys them)."""
    rng = random.Random(5)
    n = 9
    pairs = [(a, a + 1) for a in range(81) if a % n < n - 1] + [(a, a + n) for a in range(72)]
    for _ in range(3):
        picked = rng.sample(pairs, 40)
        white = [p for p in picked if abs(digit(SOL9, p[0]) - digit(SOL9, p[1])) == 1]
        black = [
            p
            for p in picked
            if p not in white
            and (
                digit(SOL9, p[0]) == 2 * digit(SOL9, p[1])
                or digit(SOL9, p[1]) == 2 * digit(SOL9, p[0])
            )
        ]
        x = [p for p in picked if digit(SOL9, p[0]) + digit(SOL9, p[1]) == 10]
        v = [p for p in picked if digit(SOL9, p[0]) + digit(SOL9, p[1]) == 5]
        parity = "".join(
            ("e" if int(ch) % 2 == 0 else "o") if rng.random() < 0.3 else "." for ch in SOL9
        )
        thermos = [(cell(9, 7), cell(8, 8), cell(7, 9))]
        shape = variant_shape(white=white, black=black, x=x, v=v, parity=parity, thermos=thermos)
        assert len(walk_sound(shape, SOL9)[1]) >= 5


def test_explain_killers_to_completion() -> None:
    """Small-cage killers walked to the end: every placement is the solution's (walk_sound);
    unique layouts end solved, the others stop where the logic cannot choose."""
    solved = 0
    rng = random.Random(2024)
    for _ in range(12):
        cages = random_cages(SOL9, 9, rng, (2, 2, 3))
        done, steps = walk_sound(killer_shape(cages), SOL9)
        if done:
            solved += 1
            names = {s.technique for s in steps}
            assert "Cage Combination" in names
    assert solved >= 3, "expected some of these small-cage killers to be solved by logic"


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_variant_rating_uses_the_variant_techniques(monkeypatch: pytest.MonkeyPatch) -> None:
    from sudokit import rating

    shape = killer_shape([[c, c + 1] for c in range(0, 81, 2) if c % 9 < 8] + [])
    assert is_variant(shape)
    assert not is_variant(Shape(3, 3, diagonals=True))
    names = {t.name for t in rating_techniques(shape)}
    assert {"Cage Combination", "Rule of 45", "Hidden Cage", "Thermometer"} <= names
    assert "Skyscraper" not in names  # not an SE technique
    assert not {"Cage Combination"} & {t.name for t in rating_techniques(Shape(3, 3))}
    # rate a killer (its solution given directly: the search is another module's job)
    solution = Grid(bytes(int(ch) for ch in SOL9), shape)
    monkeypatch.setattr(rating, "_solution", lambda grid: solution)
    cages = random_cages(SOL9, 9, random.Random(2024), (2, 2, 3))
    shape = killer_shape(cages)
    solution = Grid(bytes(int(ch) for ch in SOL9), shape)
    result = rating.rate(Grid.empty(shape), budget_s=20)
    assert result.scale == "variant"
    assert result.to_json()["scale"] == "variant"
    assert result.techniques.get("Cage Combination", 0) > 0
    assert result.level == rating.level_of(result.se)
    classic = rating.rate("1.3....22....3.1")
    assert classic.scale == "se"
    assert "scale" not in classic.to_json()


# -- innies less outies, two cages read together ------------------------------------------------


def test_innies_less_outies_make_a_known_difference() -> None:
    # row 1: r1c2..r1c8 one cage (38), r1c1 + r2c1 (11) and r1c9 + r2c9 (10) reach out of it;
    # counting the first whole: r1c9 - r2c1 = 45 - 38 - 11 = -4
    shape = killer_shape([[1, 2, 3, 4, 5, 6, 7], [0, 9], [8, 17]])
    cg = CandidateGrid.from_grid(Grid.empty(shape))
    found = list(killer.rule_of_45_difference(cg))
    for s in found:
        sound(s, SOL9)
    step = next(s for s in found if "r1c9 - r2c1 = -4" in s.text)
    assert set(step.eliminations) == {(8, d) for d in (6, 7, 8, 9)} | {(9, d) for d in (1, 2, 3, 4)}
    assert step.technique == "Rule of 45 (difference)"
    assert step.rating == killer.RULE45_DIFFERENCE
    assert step.text.startswith("Row 1 adds up to 45, the cages wholly inside add up to 38")
    # without a second cage reaching out there is no difference to count
    alone = killer_shape([[1, 2, 3, 4, 5, 6, 7, 8], [0, 9]])
    assert not list(killer.rule_of_45_difference(CandidateGrid.from_grid(Grid.empty(alone))))


def test_two_cages_in_a_row_keep_their_digits_apart() -> None:
    # row 1: the cage of 7 (r1c2, r1c3: 3+4 in SOL9) and the cage of 3 (r1c8, r1c9: 1+2)
    shape = killer_shape([[1, 2], [7, 8]])
    cg = CandidateGrid.from_grid(Grid.empty(shape))
    for s in list(killer.cage_combination(cg)):
        cg.apply(s)
    found = list(killer.cage_interaction(cg))
    assert found
    for s in found:
        sound(s, SOL9)
    step = found[0]
    elims = set(step.eliminations)
    # the cage of 7 cannot take 1+6 or 2+5 beside a 1+2: it is 3+4
    assert {(1, 5), (1, 6), (2, 5), (2, 6)} <= elims
    # and 1, 2, 3, 4 are all in those four cells of row 1
    assert {(c, d) for c in (0, 3, 4, 5, 6) for d in (1, 2, 3, 4)} <= elims
    assert step.technique == "Cage Interaction"
    assert "have cells that see each other" in step.text


def test_two_cages_that_never_clash_give_nothing() -> None:
    # two 2-cell cages far apart (no cell of one sees a cell of the other)
    shape = killer_shape([[0, 1], [79, 80]])
    cg = CandidateGrid.from_grid(Grid.empty(shape))
    assert not list(killer.cage_interaction(cg))
    # and a classic grid has no cages at all
    assert not list(killer.cage_interaction(CandidateGrid.from_grid(Grid.empty(Shape(3, 3)))))
    assert not list(killer.rule_of_45_difference(CandidateGrid.from_grid(Grid.empty(Shape(3, 3)))))
