"""Sparse 9x9 puzzles (17 to 23 clues, sudokit.generator.lowclue): exact clue counts, every
puzzle unique and minimal (checked by the engine that did not generate), reproducible from the
seed and the same on both engines; the 17-clue seed catalogue shipped as package data is
sound."""

from __future__ import annotations

from importlib.resources import files

import pytest

from sudokit import _backend
from sudokit.errors import BudgetExceededError
from sudokit.generator import GeneratedPuzzle, derive_seed, generate, generate_many, is_minimal
from sudokit.generator import lowclue as _lowclue
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.transform import canonical
from support import data_file

GENERATING = _backend.engine().name
#: The engine that checks: the reference when the C core generated (and else the C core).
CHECKING = "python" if GENERATING == "c" else "c"


def _checker() -> _backend.Engine:
    try:
        return _backend.get_engine(CHECKING)
    except ImportError:  # no C core: the reference checks itself
        return _backend.get_engine("python")


def check(p: GeneratedPuzzle, clues: int) -> None:
    """Exact count, the givens of the solution, unique and minimal by the other engine."""
    assert p.clues == clues, (p.clues, clues)
    assert p.solution.is_solution(p.puzzle)  # independent of every engine
    found = _checker().search(p.shape, p.puzzle.cells, 2, 1, 0)
    assert found.count == 1, p.puzzle
    assert found.complete
    assert found.solutions[0] == p.solution.cells
    assert p.minimal
    assert is_minimal(p.puzzle, backend=_checker().name), p.puzzle


# -- the catalogue ----------------------------------------------------------------------------


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_catalogue_ships_as_package_data_with_its_source() -> None:
    text = files("sudokit").joinpath(_lowclue.CATALOGUE).read_text(encoding="ascii")
    assert len(text.encode()) < 100_000
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any("Royle" in line for line in header)
    lines = _lowclue.catalogue()
    assert len(lines) == 1004
    assert all(len(line) == 81 and set(line) <= set(".123456789") for line in lines)
    assert all(81 - line.count(".") == 17 for line in lines)
    assert len({str(canonical(Grid.parse(line))) for line in lines}) == len(lines)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_catalogue_puzzles_are_unique() -> None:
    engine = _backend.engine()
    reference = _backend.get_engine("python")
    for k, line in enumerate(_lowclue.catalogue()):
        g = Grid.parse(line)
        assert engine.search(g.shape, g.cells, 2, 0, 0).count == 1, line
        if k % 25 == 0:  # the reference too, on a sample
            assert reference.search(g.shape, g.cells, 2, 0, 0).count == 1, line


def test_catalogue_is_taken_from_the_public_list() -> None:
    source = data_file("17clue_49158.txt").read_text().split()
    assert list(_lowclue.catalogue()) == source[::49]


# -- generation -------------------------------------------------------------------------------


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize("clues", range(17, 24))
def test_exact_count_unique_minimal(clues: int) -> None:
    for k in range(2):
        p = generate(clues=clues, seed=derive_seed(clues, k))
        check(p, clues)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize("clues", [17, 19, 21])
def test_reproducible_from_the_seed(clues: int) -> None:
    a = generate(clues=clues, seed=5)
    b = generate(clues=clues, seed=5)
    assert a.puzzle == b.puzzle
    assert a.solution == b.solution
    assert generate(clues=clues, seed=6).puzzle != a.puzzle


def test_same_puzzle_on_both_engines() -> None:
    # Moves are decided by solution counts only; the sets that save searches differ.
    if CHECKING == GENERATING or _checker().name == GENERATING:
        pytest.skip("one engine only")
    for clues in (17, 18, 22):
        a = generate(clues=clues, seed=11)
        b = generate(clues=clues, seed=11, backend=CHECKING)
        assert (a.puzzle, a.solution) == (b.puzzle, b.solution)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_clue_range_spreads_over_its_counts() -> None:
    puzzles = list(generate_many(12, clues=(17, 23), seed=4))
    for p in puzzles:
        assert 17 <= p.clues <= 23
        assert p.solution.is_solution(p.puzzle)
        assert p.minimal
    assert len({p.clues for p in puzzles}) >= 4


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_seventeens_are_walked_away_from_the_catalogue() -> None:
    known = {str(canonical(Grid.parse(line))) for line in _lowclue.catalogue()}
    forms = {str(canonical(generate(clues=17, seed=s).puzzle)) for s in range(30)}
    assert len(forms) >= 25  # random catalogue lines (and walks)
    assert forms - known  # some are 17s that are not in the catalogue
    assert forms & known  # and some are catalogue lines in a random isomorph


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_descents_alone_reach_twenty_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # 21 clues come from random grids: the catalogue route is only a fallback.
    def no_catalogue(*args: object) -> None:
        raise AssertionError("the catalogue route was taken")

    monkeypatch.setattr(_lowclue, "_seeded", no_catalogue)
    for s in range(3):
        check(generate(clues=21, seed=s), 21)


def test_only_plain_nine_by_nine_takes_the_sparse_route() -> None:
    nine = Shape(3, 3)
    assert _lowclue.applies(nine, "none", None, (17, 23))
    assert not _lowclue.applies(nine, "none", None, (17, 24))
    assert not _lowclue.applies(nine, "none", None, None)
    assert not _lowclue.applies(nine, "rot180", None, (20, 20))
    assert not _lowclue.applies(nine, "none", (0, 1, 2), (20, 20))
    assert not _lowclue.applies(Shape(3, 3, diagonals=True), "none", None, (20, 20))
    assert not _lowclue.applies(Shape(2, 3), "none", None, (8, 10))


def test_spent_budget_says_what_was_asked() -> None:
    with pytest.raises(BudgetExceededError, match=r"9x9 puzzle with 19 clues .* 50 searches"):
        generate(clues=19, seed=1, budget=50)


@pytest.mark.slow
@pytest.mark.parametrize("clues", range(17, 24))
def test_many_seeds_within_the_default_budget(clues: int) -> None:
    seen = set()
    for k in range(25):
        p = generate(clues=clues, seed=derive_seed(100 + clues, k))
        check(p, clues)
        seen.add(str(p.puzzle))
    assert len(seen) == 25
