"""The variant rules' pair relations inside chains (sudokit.logic.pairlinks): the weak links
and the loss of support, in the static tables, the dynamic runs and the step words; never on
a classic shape; every step sound against the unique solution."""

from __future__ import annotations

import pytest

import sudokit
from sudokit import rating
from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.logic import forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import (
    Links,
    geometry,
    off_potential,
    on_potential,
    pair_label,
    path_names,
)
from sudokit.logic.pairlinks import pair_links
from sudokit.logic.path import solve_path
from sudokit.logic.step import Step
from sudokit.rules import Whispers
from sudokit.shape import Shape

ALL = 0b111111111


def _shape(**rules: object) -> Shape:
    return Shape(3, 3, constraints=Constraints(**rules))  # type: ignore[arg-type]


def test_classic_shapes_have_no_pair_links() -> None:
    geo = geometry(Shape(3, 3))
    assert geo.pairs is None
    assert Links(geo, [ALL] * 81).on_off_r is None
    # rules that neither relate two cells nor say two cells differ add none either
    assert geometry(_shape(parity="e" + "." * 80)).pairs is None


def test_moves_that_differ_are_links_outside_the_units() -> None:
    links = pair_links(_shape(antiknight=True, antiking=True, nonconsecutive=True))
    assert links is not None
    related = {b: (ab, ba) for b, ab, ba in links.related[2]}  # r1c3
    assert links.label(2, 11) == "non-consecutive"  # r2c3: its box says they differ
    assert 19 not in related  # r3c2: a knight's move inside the box
    assert links.label(2, 13) == "anti-knight"  # r2c5
    assert related[13][0][4] == ALL & ~(1 << 4)  # r1c3=5: r2c5 may hold any other digit
    assert links.label(2, 12) == "anti-king"  # r2c4: a diagonal king's move
    assert related[12][0][4] == ALL & ~(1 << 4)
    assert links.label(2, 3) == "non-consecutive"  # r1c4: the row says "differ" already
    geo = geometry(_shape(antiknight=True))
    on5 = on_potential(9, 2, 4)
    assert pair_label(geo, on5, off_potential(9, 13, 4)) == "anti-knight"
    assert path_names(geo, [on5, off_potential(9, 13, 4)]) == ["r1c3=5", "r2c5<>5 (anti-knight)"]
    # the killer cages are not links (their rules reason about the cells)
    assert geometry(_shape(cages=[Cage((0, 40), 3)])).pairs is None


def test_labels_name_each_rule_of_a_pair() -> None:
    links = pair_links(_shape(white=[(0, 1)], x=[(0, 1)], black=[(1, 2)], v=[(9, 10)]))
    assert links is not None
    assert links.label(1, 0) == "white dot, X"
    assert links.label(1, 2) == "black dot"
    assert links.label(10, 9) == "V"
    neg = pair_links(_shape(white=[(0, 1)], kropki_negative=True))
    assert neg is not None
    assert neg.label(0, 1) == "white dot"
    assert neg.label(1, 2) == "no dot"
    nc = pair_links(_shape(nonconsecutive=True))
    assert nc is not None
    assert nc.label(0, 9) == "non-consecutive"
    thermo = pair_links(_shape(thermos=[(0, 1, 2)]))
    assert thermo is not None
    assert thermo.label(2, 1) == "thermometer"
    wh = pair_links(Shape(3, 3, constraints=Constraints(rules=[Whispers((0, 1, 2), 5)])))
    assert wh is not None
    assert wh.label(0, 1) == "whispers line"


def test_static_weak_links_join_the_xy_tables_only() -> None:
    geo = geometry(_shape(v=[(0, 1)]))  # r1c1 + r1c2 = 5
    masks = [ALL] * 81
    links = Links(geo, masks)
    c = 0 * 9 + 0  # r1c1 = 1: r1c2 can only be 4
    assert links.on_off_r is not None
    rel = set(links.on_off_r[c])
    # r1c2 loses every digit but 4; its 1 is the row's X link, not repeated
    assert rel == {off_potential(9, 1, d) for d in range(9) if d not in (0, 3)}
    xy_on_off, _ = links.tables(True, True)
    assert rel <= set(xy_on_off[c])
    for y, x in ((True, False), (False, True)):
        assert not rel & set(links.tables(y, x)[0][c])


def test_static_strong_links_where_the_other_digits_force_one() -> None:
    # a black dot r1c1-r1c2, r1c1 in {1, 3}, r1c2 in {2, 4, 6}: r1c1<>1 -> r1c1=3 -> r1c2=6
    geo = geometry(_shape(black=[(0, 1)]))
    masks = [ALL] * 81
    masks[0], masks[1] = 0b101, 0b101010
    links = Links(geo, masks)
    assert links.off_on_r is not None
    assert links.off_on_r[0] == (on_potential(9, 1, 5),)
    assert links.off_on_r[2] == (on_potential(9, 1, 1),)  # r1c1<>3 -> r1c1=1 -> r1c2=2
    masks[0] = 0b1101  # r1c1 in {1, 3, 4}: r1c1<>1 leaves r1c2 6 (with 3) or 2 (with 4)
    assert Links(geo, masks).off_on_r[0] == ()  # type: ignore[index]
    assert on_potential(9, 1, 5) in links.tables(True, True)[1][0]
    assert on_potential(9, 1, 5) not in links.tables(True, False)[1][0]
    assert pair_label(geo, off_potential(9, 0, 0), on_potential(9, 1, 5)) == "black dot"


def test_pair_label_tells_unit_links_from_rule_links() -> None:
    geo = geometry(_shape(white=[(0, 1)]))
    on1 = on_potential(9, 0, 0)  # r1c1=1
    assert pair_label(geo, on1, off_potential(9, 1, 2)) == "white dot"  # r1c2<>3
    assert pair_label(geo, on1, off_potential(9, 1, 0)) is None  # the row's 1
    assert pair_label(geo, on1, off_potential(9, 0, 1)) is None  # the cell's other digit
    assert pair_label(geo, on1, off_potential(9, 2, 4)) is None  # r1c3: no dot
    names = path_names(geo, [on1, off_potential(9, 1, 2)])
    assert names == ["r1c1=1", "r1c2<>3 (white dot)"]


def _dynamic(geo_masks: tuple[object, list[int]]) -> forcing._Chainer:
    geo, masks = geo_masks
    return forcing._Chainer(geo, masks, y=True, dynamic=True, level=0)  # type: ignore[arg-type]


def test_dynamic_runs_follow_the_relations_in_python() -> None:
    geo = geometry(Shape(2, 2, constraints=Constraints(nonconsecutive=True)))
    masks = [0b1111] * 16
    chainer = _dynamic((geo, masks))
    assert (chainer.c is not None) == (sudokit.BACKEND == "c")  # C follows relations too
    out = chainer.run(on_potential(4, 0, 2))  # r1c1=3
    for cell in (1, 4):  # r1c2, r2c1 lose 2 and 4
        for d in (1, 3):
            q = off_potential(4, cell, d)
            assert out.parents[q] == (on_potential(4, 0, 2),)
    assert out.parents.get(off_potential(4, 5, 1)) != (on_potential(4, 0, 2),)  # r2c2: no
    nishio = forcing._Chainer(geo, masks, y=False, dynamic=True, level=0)
    nout = nishio.run(on_potential(4, 0, 2))
    assert off_potential(4, 1, 1) not in nout.parents  # Nishio follows one digit only
    if sudokit.BACKEND == "c":
        assert _dynamic((geometry(Shape(2, 2)), masks)).c is not None


def test_a_lost_partner_removes_a_candidate_and_its_cell_follows() -> None:
    # a black dot r1c1-r1c2: r1c1 in {1, 3}, r1c2 in {2, 6}; r1c1<>1 leaves r1c2's 2 without a
    # partner (only 1 and 4 go with it), so r1c2<>2, and r1c2 = 6
    geo = geometry(_shape(black=[(0, 1)]))
    masks = [ALL] * 81
    masks[0] = 0b101
    masks[1] = 0b100010
    out = _dynamic((geo, masks)).run(off_potential(9, 0, 0))
    assert out.parents[off_potential(9, 1, 1)] == (off_potential(9, 0, 0),)
    assert out.parents[on_potential(9, 1, 5)] == (off_potential(9, 1, 1),)
    line = forcing._written(out.parents, on_potential(9, 1, 5))
    text = forcing._line_text(9, line, None, geo)
    assert text == "r1c1<>1 -> r1c2<>2 (black dot) -> r1c2=6"
    # with several partners gone, the others are its parents too
    masks[0] = 0b1101  # r1c1 in {1, 3, 4}: r1c2's 2 goes with 1 and 4
    chainer = _dynamic((geo, masks))
    assert off_potential(9, 1, 1) not in chainer.run(off_potential(9, 0, 0)).parents


def _keeps(steps: list[Step], solution: Grid) -> None:
    for step in steps:
        for cell, d in step.placements:
            assert solution.cells[cell] == d, step.text
        for cell, d in step.eliminations:
            assert solution.cells[cell] != d, step.text


# a 6x6 non-consecutive puzzle (generated, seed 1) whose chains go through the rule
NC6 = ".........6...1.....................2"
NC6_SOLUTION = "426351153624315246642513264135531462"


def test_chains_through_the_rule_replay_to_the_solution() -> None:
    shape = Shape(2, 3, constraints=Constraints(nonconsecutive=True))
    puzzle = Grid.parse(NC6, shape)
    solution = Grid.parse(NC6_SOLUTION, shape)
    steps = rating.explain(puzzle, budget_s=5)
    _keeps(steps, solution)
    cg = CandidateGrid.from_grid(puzzle)
    for step in steps:
        cg.apply(step)
    assert cg.to_grid() == solution
    worded = [s for s in steps if "(non-consecutive)" in s.text]
    assert worded
    assert all(s.links for s in worded)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["nonconsecutive", "kropki", "xv", "thermo", "whispers"])
def test_generated_rule_puzzles_replay_soundly(kind: str) -> None:
    """6 generated 9x9 puzzles of the kind, the search builder's (``--any``: minimal, so the
    path needs the chains; the human default's 20 seeds a kind are replayed in
    tests/generator/test_generate_human.py): every step of the rating's path keeps the unique
    solution (a short budget: soundness, not completion, is checked)."""
    for seed in range(1, 7):
        made = sudokit.generate(9, seed=seed, any_unique=True, **{kind: True})  # type: ignore[arg-type]
        cg = CandidateGrid.from_grid(made.puzzle)
        techs = rating.rating_techniques(made.puzzle.shape)
        path = solve_path(cg, techs, unique=True, budget_s=1.0, consistent=True)
        _keeps(list(path.steps), made.solution)
