"""The solving path: every step sound (checked against the solution found by the search engine),
every path complete, on generated puzzles of several shapes; hints from pencil marks."""

from __future__ import annotations

import random

import pytest

import sudokit
import support
from sudokit.grid import Grid
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import default_techniques, find_step, solve_path
from sudokit.logic.registry import TECHNIQUES, Technique
from sudokit.marks import Candidates
from sudokit.rating import _search_technique
from sudokit.shape import Shape
from support import rated_file

DATA = support.DATA / "logic_puzzles.txt"

# the techniques of this area (the chain families are tested in test_logic_chains*)
OWN = [t for t in TECHNIQUES if t.family not in ("chains", "forcing")]


def puzzles() -> list[Grid]:
    return [Grid.parse(line) for line in DATA.read_text().split()]


def check_path(grid: Grid, techniques: list[Technique]) -> dict[str, int]:
    """Walk the path; assert every step agrees with the unique solution and the path ends
    solved; return the technique counts."""
    solution = sudokit.solution(grid)
    cg = CandidateGrid.from_grid(grid)
    path = solve_path(cg, [*techniques, _search_technique(solution)], unique=True)
    counts: dict[str, int] = {}
    for step in path.steps:
        counts[step.technique] = counts.get(step.technique, 0) + 1
        assert step.placements or step.eliminations, step
        for c, d in step.placements:
            assert solution.cells[c] == d, (str(grid), step)
        for c, d in step.eliminations:
            assert solution.cells[c] != d, (str(grid), step)
        assert step.text
        assert step.rating > 0
    assert path.solved
    assert cg.to_grid() == solution
    assert cg.to_grid().is_solution(grid)
    return counts


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_corpus_paths_are_sound_and_complete() -> None:
    total: dict[str, int] = {}
    for grid in puzzles()[:100]:
        for name, k in check_path(grid, OWN).items():
            total[name] = total.get(name, 0) + k
    # the corpus is varied enough to exercise the main tiers
    for name in ("Full House", "Hidden Single", "Naked Single", "Pointing", "Naked Pair"):
        assert total.get(name, 0) > 0, name


def test_se_only_paths_are_sound() -> None:
    se = [t for t in OWN if t.se]
    total: dict[str, int] = {}
    for grid in puzzles()[:60]:
        for name, k in check_path(grid, se).items():
            total[name] = total.get(name, 0) + k
    for name in ("BUG+1", "Unique Rectangle type 1", "Unique Rectangle type 4", "XY-Wing"):
        assert total.get(name, 0) > 0, name


def _random_puzzle(shape: Shape, rng: random.Random) -> Grid:
    """A minimal unique puzzle of *shape* (random first row, solved, then clues removed)."""
    first = list(range(1, shape.n + 1))
    rng.shuffle(first)
    full = sudokit.solve(Grid(bytes(first + [0] * (shape.ncells - shape.n)), shape)).solution
    assert full is not None
    cells = bytearray(full.cells)
    order = list(range(shape.ncells))
    rng.shuffle(order)
    for i in order:
        keep, cells[i] = cells[i], 0
        if not sudokit.solve(Grid(bytes(cells), shape)).is_unique:
            cells[i] = keep
    return Grid(bytes(cells), shape)


@pytest.mark.parametrize(
    "shape",
    [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3, diagonals=True)],
    ids=str,
)
def test_other_shapes(shape: Shape) -> None:
    rng = random.Random(11)
    for _ in range(3 if shape.n == 9 else 6):
        check_path(_random_puzzle(shape, rng), OWN)


def _minimal(solution: Grid, rng: random.Random) -> Grid:
    cells = bytearray(solution.cells)
    order = list(range(len(cells)))
    rng.shuffle(order)
    for i in order:
        keep, cells[i] = cells[i], 0
        if not sudokit.solve(Grid(bytes(cells), solution.shape)).is_unique:
            cells[i] = keep
    return Grid(bytes(cells), solution.shape)


def test_jigsaw() -> None:
    # a solved standard grid stays valid when two cells holding the same digit trade boxes
    rng = random.Random(3)
    for k in range(3):
        solution = sudokit.solution(puzzles()[k])
        box1, box2 = Shape(3, 3).units[18], Shape(3, 3).units[19]
        a = box1[0]
        b = next(c for c in box2 if solution.cells[c] == solution.cells[a])
        regions = list(Shape(3, 3).box_of)
        regions[a], regions[b] = regions[b], regions[a]
        shape = Shape.jigsaw(regions)
        jig = Grid(solution.cells, shape)
        assert jig.is_solution()
        check_path(_minimal(jig, rng), OWN)


def test_paths_are_deterministic() -> None:
    grid = puzzles()[0]
    a = solve_path(CandidateGrid.from_grid(grid), OWN, unique=True)
    b = solve_path(CandidateGrid.from_grid(grid), OWN, unique=True)
    assert a.steps == b.steps


def test_find_step_prefers_the_first_technique() -> None:
    grid = puzzles()[0]
    found = find_step(CandidateGrid.from_grid(grid), default_techniques())
    assert found is not None
    step, tech = found
    assert step.rating == tech.rating <= 1.5


def test_uniqueness_techniques_need_uniqueness() -> None:
    # without `unique`, no step may come from a uniqueness technique
    for grid in puzzles()[:40]:
        path = solve_path(CandidateGrid.from_grid(grid), OWN, unique=False)
        assert not any(s.technique.startswith(("Unique", "BUG")) for s in path.steps)


def test_path_ends_at_a_contradiction() -> None:
    """Wrong pencil marks: r1c1 and r1c2 both hold only 1. The first step places one of
    them and leaves the other without a candidate; the path ends there instead of going on
    over a broken grid (where it took 12 more steps)."""
    masks = [0b1111] * 16
    masks[0] = masks[1] = 0b0001
    cg = CandidateGrid.from_masks(Shape(2, 2), [0] * 16, masks)
    assert not cg.is_broken()
    path = solve_path(cg)
    assert len(path.steps) == 1, path.steps
    assert not path.solved
    assert any(v == 0 and m == 0 for v, m in zip(cg.values, cg.masks, strict=True))


def test_hint_from_pencil_marks() -> None:
    grid = puzzles()[0]
    marks = Candidates.from_grid(grid)
    step = sudokit.hint(marks)
    assert step is not None
    assert step == sudokit.hint(grid)
    # marks that dropped the solution's digit are reported as a mistake
    solution = sudokit.solution(grid)
    masks = list(marks.masks)
    cell = next(i for i, v in enumerate(grid.cells) if v == 0)
    masks[cell] &= ~(1 << (solution.cells[cell] - 1))
    wrong = Candidates(grid.shape, tuple(masks), grid.cells)
    step = sudokit.hint(wrong)
    assert step is not None
    assert step.technique == "Mistake"
    assert grid.shape.cell_name(cell) in step.text


def test_hint_on_solved_grid_is_none() -> None:
    solved = sudokit.solution(puzzles()[0])
    assert sudokit.hint(solved) is None


def test_every_step_has_one_based_json() -> None:
    for step in sudokit.explain(puzzles()[1]):
        js = step.to_json()
        for r, c, d in js["placements"] + js["eliminations"]:  # type: ignore[operator]
            assert 1 <= r <= 9
            assert 1 <= c <= 9
            assert 1 <= d <= 9


@pytest.mark.slow
def test_sound_on_the_rest_of_the_corpus() -> None:
    for grid in puzzles()[100:]:
        check_path(grid, OWN)


@pytest.mark.slow
def test_sound_on_rated_puzzles() -> None:
    lines = rated_file("se_controlled_bias_dev.tsv").read_text().splitlines()[1:]
    for line in lines[:300:3]:
        check_path(Grid.parse(line.split("\t")[0]), OWN)
