"""Every technique on small hand-made candidate grids: a positive case with the exact placement
or eliminations worked out by hand, and a negative case where the pattern is broken."""

from __future__ import annotations

import pytest

from sudokit.grid import Grid
from sudokit.logic import (
    als,
    exclusion,
    fish,
    intersections,
    single_digit,
    singles,
    subsets,
    uniqueness,
    wings,
)
from sudokit.logic.candidates import CandidateGrid, bits
from sudokit.logic.step import Step, chain_length_bonus
from sudokit.shape import Shape

S9 = Shape(3, 3)
FULL = 0b111111111


def cell(r: int, c: int) -> int:
    """Cell index from 1-based row and column."""
    return (r - 1) * 9 + (c - 1)


def grid_of(masks: dict[int, int] | None = None, remove: dict[int, list[int]] | None = None):
    """A 9x9 candidate grid with every candidate everywhere, except: *masks* sets whole cell
    masks, *remove* maps a digit to the cells that lose it."""
    ms = [FULL] * 81
    for c, m in (masks or {}).items():
        ms[c] = m
    for d, cells in (remove or {}).items():
        for c in cells:
            ms[c] &= ~(1 << (d - 1))
    return CandidateGrid.from_masks(S9, [0] * 81, ms)


def mask(*digits: int) -> int:
    out = 0
    for d in digits:
        out |= 1 << (d - 1)
    return out


def row(r: int) -> list[int]:
    return [cell(r, c) for c in range(1, 10)]


def col(c: int) -> list[int]:
    return [cell(r, c) for r in range(1, 10)]


def box(b: int) -> list[int]:
    r0, c0 = 3 * ((b - 1) // 3), 3 * ((b - 1) % 3)
    return [cell(r0 + i + 1, c0 + j + 1) for i in range(3) for j in range(3)]


def elims_of(steps: list[Step]) -> set[tuple[int, int]]:
    return {e for s in steps for e in s.eliminations}


# -- candidates and steps ------------------------------------------------------------------


def test_candidate_grid_basics() -> None:
    g = Grid.parse("1.3....22....3.1")
    cg = CandidateGrid.from_grid(g)
    assert cg.digits(1) == [2, 4]
    assert cg.cells_with(0, 4) == [1, 3]
    copy = cg.copy()
    cg.place(1, 4)
    assert copy.values[1] == 0
    assert cg.values[1] == 4
    assert not cg.has(3, 4)
    assert copy.has(3, 4)
    assert cg.to_grid().cells[1] == 4
    assert not copy.is_broken()
    assert copy.digits(5) == [4]
    assert copy.eliminate(5, 4)
    assert not copy.eliminate(5, 4)
    assert copy.is_broken()


def test_step_json_is_one_based() -> None:
    s = Step("X", 3.2, placements=((80, 9),), eliminations=((9, 1),), text="t", size=9)
    js = s.to_json()
    assert js["placements"] == [[9, 9, 9]]
    assert js["eliminations"] == [[2, 1, 1]]
    assert {"technique", "rating", "placements", "eliminations", "text"} <= set(js)


def test_chain_length_bonus_thresholds() -> None:
    assert [chain_length_bonus(k) for k in (4, 5, 6, 7, 8, 9, 12, 13, 16, 17)] == [
        0.0,
        0.1,
        0.1,
        0.2,
        0.2,
        0.3,
        0.3,
        0.4,
        0.4,
        0.5,
    ]


# -- singles -----------------------------------------------------------------------------------


def test_full_house() -> None:
    cg = CandidateGrid.from_grid(Grid.parse("123.34.22......1"))
    steps = list(singles.full_house(cg))
    assert ((3, 4),) in [s.placements for s in steps]
    assert steps[0].rating == 1.0
    assert "last empty cell of row 1" in steps[0].text
    assert not list(singles.full_house(CandidateGrid.from_grid(Grid.parse("12.." + "." * 12))))


def test_hidden_single_box_and_line() -> None:
    target = cell(5, 5)
    cg = grid_of(remove={7: [c for c in box(5) if c != target]})
    steps = list(singles.hidden_single_box(cg))
    assert [s.placements for s in steps] == [((target, 7),)]
    assert steps[0].rating == 1.2
    assert steps[0].text == "In box 5 the 7 can only go in r5c5, so r5c5 is 7."
    assert not list(singles.hidden_single_line(cg))
    cg = grid_of(remove={3: [c for c in row(2) if c != cell(2, 9)]})
    steps = list(singles.hidden_single_line(cg))
    assert [s.placements for s in steps] == [((cell(2, 9), 3),)]
    assert steps[0].rating == 1.5
    # two places left: no single
    cg = grid_of(remove={7: [c for c in box(5) if c not in (cell(5, 5), cell(4, 4))]})
    assert not list(singles.hidden_single_box(cg))


def test_naked_single() -> None:
    cg = grid_of({cell(3, 3): mask(6)})
    steps = list(singles.naked_single(cg))
    assert [s.placements for s in steps] == [((cell(3, 3), 6),)]
    assert steps[0].rating == 2.3
    assert not list(singles.naked_single(grid_of({cell(3, 3): mask(6, 7)})))


def _pointing_grid(extra_box4: list[int]) -> CandidateGrid:
    # 7 in box 5 only at r5c4 and r5c6; in box 4 only at r5c1 plus *extra_box4*
    keep5 = {cell(5, 4), cell(5, 6)}
    keep4 = {cell(5, 1), *extra_box4}
    gone = [c for c in box(5) if c not in keep5] + [c for c in box(4) if c not in keep4]
    return grid_of(remove={7: gone})


def test_pointing() -> None:
    cg = _pointing_grid([cell(4, 1), cell(6, 2)])
    steps = list(intersections.pointing(cg))
    row5 = [s for s in steps if s.units == (22, 4)]
    assert len(row5) == 1
    step = row5[0]
    assert set(step.eliminations) == {(cell(5, c), 7) for c in (1, 7, 8, 9)}
    assert step.rating == 2.6
    assert step.text.startswith(
        "In box 5 the 7 can only go in r5c4 or r5c6, both in row 5, so 7 is removed from the "
        "rest of row 5"
    )
    # a third place outside row 5 breaks it
    cg.masks[cell(4, 5)] |= mask(7)
    assert not [s for s in intersections.pointing(cg) if s.units == (22, 4)]


def test_claiming() -> None:
    # 3 in row 1 only at r1c1 and r1c2: removed from the rest of box 1
    cg = grid_of(remove={3: [c for c in row(1) if c not in (cell(1, 1), cell(1, 2))]})
    steps = [s for s in intersections.claiming(cg) if s.units == (0, 18)]
    assert len(steps) == 1
    assert set(steps[0].eliminations) == {(c, 3) for c in box(1) if c not in row(1)}
    assert steps[0].rating == 2.8


def test_direct_pointing_and_claiming() -> None:
    # after the pointing in box 5, box 4 keeps 7 only at r4c1
    cg = _pointing_grid([cell(4, 1)])
    steps = list(singles.direct_pointing(cg))
    assert ((cell(4, 1), 7),) in [s.placements for s in steps]
    assert all(s.rating == 1.7 and not s.eliminations for s in steps)
    # with another place in box 4 there is no direct hidden single there
    cg = _pointing_grid([cell(4, 1), cell(6, 2)])
    assert ((cell(4, 1), 7),) not in [s.placements for s in singles.direct_pointing(cg)]
    # claiming: 3 in row 1 only in box 1; row 2 keeps 3 only at r2c1 and r2c5 -> r2c5 is 3
    gone = [c for c in row(1) if c not in (cell(1, 1), cell(1, 2))]
    gone += [c for c in row(2) if c not in (cell(2, 1), cell(2, 5))]
    steps = list(singles.direct_claiming(grid_of(remove={3: gone})))
    assert ((cell(2, 5), 3),) in [s.placements for s in steps]
    assert all(s.rating == 1.9 for s in steps)


def test_direct_hidden_pair() -> None:
    # row 1: 1 and 2 only in r1c1 and r1c2; 9 only in r1c1, r1c2, r1c9 -> r1c9 is 9
    gone = {1: row(1)[2:], 2: row(1)[2:], 9: row(1)[2:8]}
    steps = list(singles.direct_hidden_pair(grid_of(remove=gone)))
    assert ((cell(1, 9), 9),) in [s.placements for s in steps]
    assert all(s.rating == 2.0 for s in steps)
    gone = {1: row(1)[2:], 2: row(1)[2:], 9: row(1)[2:7]}  # 9 keeps two other places
    assert ((cell(1, 9), 9),) not in [
        s.placements for s in singles.direct_hidden_pair(grid_of(remove=gone))
    ]


# -- subsets -------------------------------------------------------------------------------


def test_naked_pair() -> None:
    cg = grid_of({cell(1, 1): mask(1, 2), cell(1, 5): mask(1, 2)})
    steps = [s for s in subsets.naked_pair(cg) if s.units == (0,)]
    assert len(steps) == 1
    assert set(steps[0].eliminations) == {
        (c, d) for c in row(1) if c not in (cell(1, 1), cell(1, 5)) for d in (1, 2)
    }
    assert steps[0].rating == 3.0
    cg = grid_of({cell(1, 1): mask(1, 2), cell(1, 5): mask(1, 3)})
    assert not list(subsets.naked_pair(cg))


def test_hidden_pair_triple_quad() -> None:
    keep = [cell(1, 1), cell(1, 2)]
    cg = grid_of(remove={d: [c for c in row(1) if c not in keep] for d in (4, 5)})
    steps = [s for s in subsets.hidden_pair(cg) if s.units == (0,)]
    assert len(steps) == 1
    assert set(steps[0].eliminations) == {
        (c, d) for c in keep for d in range(1, 10) if d > 5 or d < 4
    }
    assert steps[0].rating == 3.4
    keep3 = [cell(1, 1), cell(1, 2), cell(1, 3)]
    cg = grid_of(remove={d: [c for c in row(1) if c not in keep3] for d in (4, 5, 6)})
    steps = [s for s in subsets.hidden_triple(cg) if s.units == (0,)]
    assert len(steps) == 1
    assert steps[0].rating == 4.0
    keep4 = [*keep3, cell(1, 9)]
    cg = grid_of(remove={d: [c for c in row(1) if c not in keep4] for d in (4, 5, 6, 7)})
    steps = [s for s in subsets.hidden_quad(cg) if s.units == (0,)]
    assert len(steps) == 1
    assert steps[0].rating == 5.4
    # a digit with a third place is no hidden pair
    cg = grid_of(remove={4: [c for c in row(1) if c not in keep], 5: row(1)[3:]})
    assert not [s for s in subsets.hidden_pair(cg) if s.units == (0,)]


def test_naked_triple_and_quad() -> None:
    cg = grid_of({cell(2, 1): mask(1, 2), cell(2, 4): mask(2, 3), cell(2, 7): mask(1, 3)})
    steps = [s for s in subsets.naked_triple(cg) if s.units == (1,)]
    assert len(steps) == 1
    assert steps[0].rating == 3.6
    assert (cell(2, 9), 3) in steps[0].eliminations
    quad = {cell(2, 1): mask(1, 2), cell(2, 4): mask(2, 3), cell(2, 7): mask(3, 4)}
    quad[cell(2, 9)] = mask(4, 1)
    steps = [s for s in subsets.naked_quad(grid_of(quad)) if s.units == (1,)]
    assert len(steps) == 1
    assert steps[0].rating == 5.0


# -- fish ------------------------------------------------------------------------------------


def test_x_wing() -> None:
    # 4 in rows 1 and 5 only in columns 2 and 7
    gone = [c for r in (1, 5) for c in row(r) if c % 9 not in (1, 6)]
    steps = list(fish.x_wing(grid_of(remove={4: gone})))
    assert len(steps) == 1
    assert set(steps[0].eliminations) == {(c, 4) for c in col(2) + col(7) if c // 9 not in (0, 4)}
    assert steps[0].rating == 3.2
    assert steps[0].technique == "X-Wing"
    gone.remove(cell(5, 9))
    assert not list(fish.x_wing(grid_of(remove={4: gone})))


def test_swordfish_and_jellyfish() -> None:
    cols = (0, 4, 8)
    gone = [c for r in (1, 4, 7) for c in row(r) if c % 9 not in cols]
    gone += [cell(1, 1), cell(4, 5), cell(7, 9)]  # each base row keeps two places
    steps = list(fish.swordfish(grid_of(remove={9: gone})))
    assert len(steps) == 1
    assert steps[0].rating == 3.8
    assert (cell(2, 1), 9) in steps[0].eliminations
    cols4 = (0, 2, 4, 6)
    gone = [c for r in (1, 3, 5, 7) for c in row(r) if c % 9 not in cols4]
    steps = list(fish.jellyfish(grid_of(remove={2: gone})))
    assert len(steps) == 1
    assert steps[0].rating == 5.2
    assert not list(fish.swordfish(grid_of()))


def test_finned_x_wing() -> None:
    # 4 in row 1 at c2 and c7; in row 5 at c2, c7 and the fin r6... fin must be in the base
    gone = [c for c in row(1) if c % 9 not in (1, 6)]
    gone += [c for c in row(5) if c % 9 not in (1, 6, 7)]  # fin r5c8 in box 6 with r5c7
    steps = list(fish.finned_x_wing(grid_of(remove={4: gone})))
    found = elims_of(steps)
    # the fin's box (box 6) cells in column 7 outside rows 1 and 5 lose 4
    assert {(cell(4, 7), 4), (cell(6, 7), 4)} <= found
    assert (cell(8, 7), 4) not in found  # outside the fin's box
    assert all(s.rating == 4.3 for s in steps)


# -- wings ----------------------------------------------------------------------------------


def test_xy_wing() -> None:
    masks = {cell(1, 1): mask(1, 2), cell(1, 5): mask(2, 3), cell(5, 1): mask(1, 3)}
    steps = list(wings.xy_wing(grid_of(masks)))
    assert elims_of(steps) == {(cell(5, 5), 3)}
    assert all(s.rating == 4.2 for s in steps)
    masks[cell(5, 1)] = mask(1, 4)
    assert not list(wings.xy_wing(grid_of(masks)))


def test_xyz_wing() -> None:
    masks = {cell(5, 5): mask(1, 2, 3), cell(5, 2): mask(1, 3), cell(4, 4): mask(2, 3)}
    steps = list(wings.xyz_wing(grid_of(masks)))
    assert elims_of(steps) == {(cell(5, 4), 3), (cell(5, 6), 3)}
    assert all(s.rating == 4.4 for s in steps)
    masks[cell(4, 4)] = mask(2, 4)
    assert not list(wings.xyz_wing(grid_of(masks)))


def test_w_wing() -> None:
    masks = {cell(1, 1): mask(1, 2), cell(5, 5): mask(1, 2)}
    gone = [c for c in col(9) if c not in (cell(1, 9), cell(5, 9))]
    steps = list(wings.w_wing(grid_of(masks, {1: gone})))
    assert elims_of(steps) == {(cell(1, 5), 2), (cell(5, 1), 2)}
    assert not list(wings.w_wing(grid_of(masks)))


# -- single-digit patterns -------------------------------------------------------------------


def test_skyscraper_and_kite() -> None:
    gone = [c for r in (1, 5) for c in row(r) if c % 9 not in (1, 6, 7)]
    gone += [cell(1, 8), cell(5, 7)]
    cg = grid_of(remove={1: gone})
    steps = list(single_digit.skyscraper(cg))
    assert elims_of(steps) == {(cell(2, 8), 1), (cell(3, 8), 1), (cell(4, 7), 1), (cell(6, 7), 1)}
    # 2-String Kite: row 1 link r1c2-r1c9, column 1 link r2c1-r8c1, r1c2 and r2c1 in box 1
    gone = [c for c in row(1) if c not in (cell(1, 2), cell(1, 9))]
    gone += [c for c in col(1) if c not in (cell(2, 1), cell(8, 1))]
    steps = list(single_digit.two_string_kite(grid_of(remove={5: gone})))
    assert elims_of(steps) == {(cell(8, 9), 5)}
    assert not list(single_digit.skyscraper(grid_of()))


def test_empty_rectangle() -> None:
    # box 1: 6 only on row 2 and column 2 (r2c1, r2c3, r1c2, r3c2... with r2c2 too)
    gone = [cell(1, 1), cell(1, 3), cell(3, 1), cell(3, 3)]
    # column 8: 6 only at r2c8 and r7c8 -> r7c2 loses 6
    gone += [c for c in col(8) if c not in (cell(2, 8), cell(7, 8))]
    steps = list(single_digit.empty_rectangle(grid_of(remove={6: gone})))
    assert (cell(7, 2), 6) in elims_of(steps)
    assert all(s.rating == 4.3 for s in steps)


def test_simple_colouring_trap() -> None:
    # strong links on 8: r1c1=r1c5 (row 1), r1c5=r3c6 (box 2), r3c6=r7c6 (column 6);
    # colours A: r1c1, r3c6 and B: r1c5, r7c6
    gone = [c for c in row(1) if c not in (cell(1, 1), cell(1, 5))]
    gone += [c for c in box(2) if c not in (cell(1, 5), cell(3, 6))]
    gone += [c for c in col(6) if c not in (cell(3, 6), cell(7, 6))]
    steps = list(single_digit.simple_colouring(grid_of(remove={8: gone})))
    found = elims_of(steps)
    assert (cell(7, 1), 8) in found  # sees r1c1 (A) and r7c6 (B)
    assert (cell(8, 1), 8) not in found
    assert all(s.rating == 4.5 for s in steps)


# -- uniqueness ------------------------------------------------------------------------------


def test_unique_rectangle_types() -> None:
    ur = [cell(1, 1), cell(1, 4), cell(2, 1), cell(2, 4)]
    masks = {c: mask(5, 6) for c in ur}
    masks[cell(2, 4)] = mask(5, 6, 7)
    steps = list(uniqueness.unique_rectangle(grid_of(masks)))
    assert [s for s in steps if s.technique == "Unique Rectangle type 1"]
    type1 = next(s for s in steps if s.technique == "Unique Rectangle type 1")
    assert set(type1.eliminations) == {(cell(2, 4), 5), (cell(2, 4), 6)}
    assert type1.rating == 4.5
    # type 2: both extra cells carry the same extra digit 7
    masks[cell(2, 1)] = mask(5, 6, 7)
    steps = [s for s in uniqueness.unique_rectangle(grid_of(masks)) if s.technique.endswith("2")]
    assert steps
    assert (cell(2, 9), 7) in steps[0].eliminations
    # a rectangle inside four boxes is no deadly pattern
    four = [cell(1, 1), cell(1, 5), cell(5, 1), cell(5, 5)]
    masks = {c: mask(5, 6) for c in four}
    masks[four[3]] = mask(5, 6, 7)
    assert not [s for s in uniqueness.unique_rectangle(grid_of(masks)) if set(s.cells) == set(four)]


def test_unique_loop_of_six_cells() -> None:
    # r1c1 r1c4 r2c4 r2c7 r3c7 r3c1: every row, column and box holds two of them
    loop = [cell(1, 1), cell(1, 4), cell(2, 4), cell(2, 7), cell(3, 7), cell(3, 1)]
    masks = {c: mask(5, 6) for c in loop}
    masks[cell(3, 1)] = mask(5, 6, 7)
    steps = list(uniqueness.unique_rectangle(grid_of(masks)))
    ul = [s for s in steps if s.technique == "Unique Loop type 1"]
    assert ul
    assert set(ul[0].eliminations) == {(cell(3, 1), 5), (cell(3, 1), 6)}
    assert ul[0].rating == 4.6
    assert [uniqueness.loop_rating(k) for k in (4, 6, 8, 10)] == [4.5, 4.6, 4.7, 5.0]
    # moving one cell out of its box pairing breaks the loop
    masks = {c: mask(5, 6) for c in loop}
    masks[cell(3, 1)] = mask(5, 6, 7)
    masks[cell(3, 7)] = mask(1, 2)
    assert not [s for s in uniqueness.unique_rectangle(grid_of(masks)) if "Loop" in s.technique]


def _bug_grid(extras: dict[int, int]) -> CandidateGrid:
    """A 4x4 bivalue universal grave: each cell holds its digit in two different solutions
    (a grid and its relabelling 1<->2, 3<->4), plus *extras* (cell -> extra digit)."""
    solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    swap = {1: 2, 2: 1, 3: 4, 4: 3}
    masks = [mask(v, swap[v]) for v in solution]
    for c, d in extras.items():
        masks[c] |= mask(d)
    return CandidateGrid.from_masks(Shape(2, 2), [0] * 16, masks)


def test_bug_plus_one_and_type_2() -> None:
    steps = list(uniqueness.bug_plus_one(_bug_grid({0: 3})))
    assert [s.placements for s in steps] == [((0, 3),)]
    assert steps[0].rating == 5.6
    assert steps[0].technique == "BUG+1"
    # the same extra digit in two cells: 3 leaves every cell that sees both
    steps = list(uniqueness.bug_plus_one(_bug_grid({0: 3, 9: 3})))
    type2 = [s for s in steps if s.technique == "BUG type 2"]
    assert type2
    assert set(type2[0].eliminations) == {(5, 3), (12, 3)}
    assert type2[0].rating == 5.7
    # a grid that is not a BUG (a cell with three candidates but no unit imbalance) gives none
    assert not list(uniqueness.bug_plus_one(_bug_grid({})))
    cg = _bug_grid({0: 3})
    cg.masks[15] |= mask(3)  # a second, unrelated extra: no single BUG cell per unit
    assert not [s for s in uniqueness.bug_plus_one(cg) if s.technique == "BUG+1"]


# -- exclusion and ALS -----------------------------------------------------------------------


def test_aligned_pair_exclusion() -> None:
    masks = {0: mask(1, 2), 1: mask(1, 2, 3), 2: mask(1, 2), 3: mask(1, 3)}
    steps = list(exclusion.aligned_pair(grid_of(masks)))
    assert steps[0].eliminations == ((0, 1), (1, 1), (1, 2))
    assert steps[0].rating == 6.2
    # excluders {1,2} and {3,4} leave every candidate of r1c2 a partner: nothing to remove
    masks = {0: mask(1, 2), 1: mask(1, 2, 3), 3: mask(3, 4)}
    assert not list(exclusion.aligned_pair(grid_of(masks)))


def test_aligned_triple_exclusion_is_sound_on_a_pattern() -> None:
    masks = {0: mask(1, 2), 1: mask(1, 2, 3), 2: mask(1, 2, 3), 3: mask(1, 3), 4: mask(2, 3)}
    for s in exclusion.aligned_triple(grid_of(masks)):
        assert s.rating == 7.5
        for c, d in s.eliminations:
            assert d in bits(masks.get(c, FULL))


def test_als_xz() -> None:
    masks = {cell(1, 1): mask(1, 2), cell(1, 5): mask(1, 2)}
    step = next(als.als_xz(grid_of(masks)))
    assert {c for c, _ in step.eliminations} == set(row(1)) - {cell(1, 1), cell(1, 5)}
    # a three-cell ALS {1,2,3,4} in box 1 and a bivalue cell {4,5}... with no restricted common
    masks = {cell(1, 1): mask(1, 2), cell(9, 9): mask(1, 2)}
    assert not list(als.als_xz(grid_of(masks)))


# -- other shapes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("finder", "rating"),
    [(singles.hidden_single_box, 1.2), (intersections.pointing, 2.6), (fish.x_wing, 3.2)],
)
def test_techniques_work_on_6x6(finder: object, rating: float) -> None:
    shape = Shape(2, 3)
    full = (1 << 6) - 1
    ms = [full] * 36
    if rating == 1.2:
        for c in shape.units[12][1:]:  # box 1: 1 only in its first cell
            ms[c] &= ~1
    elif rating == 2.6:
        for c in shape.units[12]:
            if c // 6 != 0:
                ms[c] &= ~1  # box 1: 1 only in row 1
    else:
        for r in (0, 3):
            for c in range(6):
                if c not in (1, 4):
                    ms[r * 6 + c] &= ~1
    cg = CandidateGrid.from_masks(shape, [0] * 36, ms)
    steps = list(finder(cg))  # type: ignore[operator]
    assert steps
    assert all(s.rating == rating for s in steps)
