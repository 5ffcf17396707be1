"""The rating loop's own economies (of an easy puzzle's cost) keep the values they stand for: steps
whose text is made when first read equal the steps with their text, name digits as they were named
when made; the walk's dead-cell test and its "consistent" start agree with their definitions; a
record's fields set through the slots' setters behave as before; rate's cheaper order of the
uniqueness and givens checks raises what it raised."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

import sudokit
import support
from sudokit._record import _Record
from sudokit.errors import InvalidPuzzleError, MultipleSolutionsError, NoSolutionError
from sudokit.grid import Grid
from sudokit.logic import singles
from sudokit.logic._names import digit_labels, digit_list
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import _dead_cell, find_step, solve_path
from sudokit.logic.step import Step, deferred_text
from sudokit.rating import explain, hint, rate, rating_techniques
from sudokit.shape import SYMBOLS, Shape

DATA = support.DATA / "logic_puzzles.txt"
SINGLES = (
    singles.full_house,
    singles.hidden_single_box,
    singles.hidden_single_line,
    singles.naked_single,
)


def puzzles(count: int) -> list[Grid]:
    return [Grid.parse(line) for line in DATA.read_text().split()[:count]]


def states(grid: Grid, count: int, seed: int) -> list[CandidateGrid]:
    """*count* states on the way from *grid* to its solution (random placements of the
    solution's digits), each a fresh candidate grid."""
    solution = sudokit.solution(grid).cells
    rng = random.Random(seed)
    cg = CandidateGrid.from_grid(grid)
    out = []
    empty = [c for c, v in enumerate(grid.cells) if not v]
    rng.shuffle(empty)
    for cell in empty[: count * 3 : 3]:
        out.append(cg.copy())
        cg.place(cell, solution[cell])
    return out


def shapes_states() -> list[CandidateGrid]:
    grids = puzzles(6)
    grids += [sudokit.generate(shape=Shape(4, 4), seed=s).puzzle for s in (1, 2)]
    grids += [sudokit.generate(shape=Shape(2, 3), seed=s).puzzle for s in (1, 2)]
    return [cg for i, g in enumerate(grids) for cg in states(g, 6, i)]


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_singles_with_deferred_texts_equal_the_steps_with_their_texts() -> None:
    seen = 0
    for cg in shapes_states():
        for finder in SINGLES:
            deferred = list(finder(cg))
            made = [Step(*s._values()) for s in finder(cg)]  # texts read, then given as str
            again = list(finder(cg))
            assert [hash(s) for s in again] == [hash(s) for s in made]
            assert [repr(s) for s in list(finder(cg))] == [repr(s) for s in made]
            assert deferred == made
            for s in made:
                assert isinstance(s._text, str)
                assert s.text
            for s in finder(cg):
                assert pickle.loads(pickle.dumps(s)) == s
                assert s.to_json() == Step(*s._values()).to_json()
            seen += len(made)
    assert seen > 100


def test_a_deferred_text_names_digits_as_when_it_was_made() -> None:
    with digit_labels("numbers"):
        made_as_numbers = Step("x", 1.0, text=deferred_text(digit_list, 16, [10, 11]))
    made_as_symbols = Step("x", 1.0, text=deferred_text(digit_list, 16, [10, 11]))
    with digit_labels("numbers"):
        assert made_as_symbols.text == f"{SYMBOLS[9]} and {SYMBOLS[10]}"
    assert made_as_numbers.text == "10 and 11"
    assert made_as_symbols.text == f"{SYMBOLS[9]} and {SYMBOLS[10]}"  # kept once made


@pytest.mark.parametrize("labels", ["symbols", "numbers"])
def test_singles_on_16x16_name_their_digit_as_the_caller_asked(labels: str) -> None:
    grid = sudokit.generate(shape=Shape(4, 4), seed=3).puzzle
    with digit_labels(labels):  # type: ignore[arg-type]
        steps = [s for cg in states(grid, 8, 3) for f in SINGLES for s in f(cg)]
    big = [s for s in steps if s.placements[0][1] > 9]
    assert big
    for s in big:  # read outside the block
        d = s.placements[0][1]
        name = str(d) if labels == "numbers" else SYMBOLS[d - 1]
        assert s.text.endswith(f" {name}."), s.text


def test_a_step_is_frozen_with_its_deferred_text() -> None:
    step = Step("x", 1.0, text=deferred_text(str, 5))
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.text = "y"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        step._text = "y"  # type: ignore[misc]
    assert step.text == "5"
    assert step._replace(text="y").text == "y"


def test_the_dead_cell_test_is_its_definition() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        n = rng.choice((4, 9, 16))
        values = [rng.choice((0, 0, 0, 1 + rng.randrange(n))) for _ in range(n * n)]
        masks = [0 if v else rng.randrange(1 << n) * (rng.random() < 0.99) for v in values]
        dead = any(v == 0 and m == 0 for v, m in zip(values, masks, strict=True))
        assert _dead_cell(masks, values, True) == dead
        stray = list(masks)  # a solved cell that still holds candidates: the counts cannot tell
        solved = [c for c, v in enumerate(values) if v]
        if solved:
            stray[rng.choice(solved)] = 1
        assert _dead_cell(stray, values, False) == dead


@pytest.mark.parametrize("stray", [False, True])
def test_wrong_marks_end_the_walk_at_the_first_dead_cell(stray: bool) -> None:
    """Pencil marks without the solution's digit lead to an empty cell without candidates: the
    walk stops after the step (or batch) that makes one, and not before."""
    ended = 0
    for i, grid in enumerate(puzzles(25)):
        solution = sudokit.solution(grid).cells
        cg = CandidateGrid.from_grid(grid)
        rng = random.Random(i)
        for cell in rng.sample([c for c, v in enumerate(grid.cells) if not v], 3):
            cg.masks[cell] &= ~(1 << (solution[cell] - 1))  # a wrong elimination
        if stray:  # a given that still has its own digit as a candidate
            given = next(c for c, v in enumerate(grid.cells) if v)
            cg.masks[given] = 1 << (grid.cells[given] - 1)
        start = cg.copy()
        path = solve_path(cg, rating_techniques(grid.shape), unique=True)
        if path.solved:
            continue
        replay = start.copy()
        dead_at = []
        for k, step in enumerate(path.steps):
            replay.apply(step)
            if 0 in map(int.__or__, replay.masks, replay.values):
                dead_at.append(k)
        if dead_at:
            ended += 1
            last = path.steps[-1]
            # the first dead cell appears in the last batch: steps of the last one's kind
            assert all(
                s.technique == last.technique and s.rating == last.rating
                for s in path.steps[dead_at[0] :]
            )
        elif not path.steps:  # broken from the start (a digit without a place in a unit)
            assert start.is_broken()
        else:  # no contradiction: the walk stopped because no technique applied
            assert find_step(cg, rating_techniques(grid.shape), unique=True) is None
    assert ended >= 5


def test_a_consistent_start_walks_the_same_path() -> None:
    techs = rating_techniques(Shape(3, 3))
    for grid in puzzles(30):
        a = solve_path(CandidateGrid.from_grid(grid), techs, unique=True)
        b = solve_path(CandidateGrid.from_grid(grid), techs, unique=True, consistent=True)
        assert a == b
        assert a.solved


class Base(_Record):
    __slots__ = ("a",)
    __match_args__ = ("a",)
    a: int


class Pair(Base):
    __slots__ = ("b",)
    __match_args__ = ("a", "b")
    b: int

    def __init__(self, a: int, b: int) -> None:
        self._set(a, b)


def test_record_fields_from_a_base_slot_and_the_frozen_contract() -> None:
    p = Pair(1, 2)
    assert p == Pair(1, b=2) == pickle.loads(pickle.dumps(p))
    assert repr(p) == "Pair(a=1, b=2)"
    assert p._replace(a=3) == Pair(3, 2)
    assert p != Base(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.a = 5  # type: ignore[misc]


@pytest.mark.slow
def test_bad_puzzles_raise_what_they_raised() -> None:
    clash = "1..1" + "." * 12
    with pytest.raises(InvalidPuzzleError, match=r"conflicting givens in r1c1 and r1c4"):
        rate(clash)
    with pytest.raises(InvalidPuzzleError, match="conflicting givens"):
        hint(clash)
    none = "......34...23..."  # no digit repeats, yet no solution
    assert sudokit.solve(none).status.value == "none"
    assert not Grid.parse(none).conflicts()
    for f in (rate, hint, explain):
        with pytest.raises(NoSolutionError, match="has no solution"):
            f(none)
    several = "." * 16
    with pytest.raises(MultipleSolutionsError):
        rate(several)
    assert isinstance(explain(several), list)
