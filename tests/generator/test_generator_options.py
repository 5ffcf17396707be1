"""The generator's seams (where its rooms meet): one validated ``GenerateOptions`` value, the
engines' ``bind``, the symmetry words (one meaning each, older names kept as aliases) and the cell
maps the generator takes from ``transform``."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from click.testing import CliRunner

import sudokit
from sudokit import _backend, transform
from sudokit.cli.app import cli
from sudokit.errors import SudokuError
from sudokit.generator import (
    SYMMETRIES,
    SYMMETRY_ALIASES,
    GenerateOptions,
    applicable_symmetries,
    canonical_symmetry,
    generate,
    generate_many,
    is_symmetric,
)
from sudokit.grid import Grid
from sudokit.shape import Shape


def _engines() -> list[str]:
    names = ["python"]
    try:
        _backend.get_engine("c")
    except ImportError:
        return names
    return [*names, "c"]


# -- GenerateOptions --------------------------------------------------------------------------


def test_options_are_one_value_used_by_generate_and_generate_many() -> None:
    opts = GenerateOptions(6, symmetry="rot180", clues=(12, 14))
    assert generate(options=opts, seed=3) == generate(6, symmetry="rot180", clues=(12, 14), seed=3)
    run = [p.puzzle for p in generate_many(4, options=opts, seed=9)]
    assert run == [
        p.puzzle for p in generate_many(4, size=6, symmetry="rot180", clues=(12, 14), seed=9)
    ]
    assert all(12 <= g.clues <= 14 for g in run)


def test_options_are_frozen_hashable_and_pickle() -> None:
    opts = GenerateOptions(9, symmetry="mirror-h", require=["XY-Wing"], pattern=None)
    assert opts.require == ("XY-Wing",)  # sequences kept as tuples: the value is hashable
    assert hash(opts) == hash(GenerateOptions(9, symmetry="mirror-h", require=("XY-Wing",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.symmetry = "none"  # type: ignore[misc]
    back = pickle.loads(pickle.dumps(opts))
    assert back == opts
    assert back.plan == opts.plan
    assert back.resolved_symmetry == "mirror-tb"
    assert back.resolved_shape == Shape(3, 3)


def test_options_validate_once_when_built() -> None:
    with pytest.raises(SudokuError, match="does not fit a 6x6"):
        GenerateOptions(6, symmetry="rot90")
    with pytest.raises(SudokuError, match="unknown symmetry 'mirror'"):
        GenerateOptions(symmetry="mirror")
    with pytest.raises(SudokuError, match="clue range 30-20 is empty"):
        GenerateOptions(clues=(30, 20))
    with pytest.raises(SudokuError, match="unknown difficulty"):
        GenerateOptions(difficulty="fiendish")
    # replace() re-validates from the values as given (defaults that depend on other fields
    # are worked out again, not carried over)
    plain = GenerateOptions(9)
    assert plain.plan.minimal is True
    assert dataclasses.replace(plain, symmetry="rot180").plan.minimal is False
    with pytest.raises(SudokuError, match="does not fit"):
        dataclasses.replace(plain, size=6, symmetry="rot90")


def test_options_and_keywords_are_not_mixed() -> None:
    opts = GenerateOptions(4)
    with pytest.raises(SudokuError, match=r"either options= or .*\(size, symmetry\)"):
        generate(9, options=opts, symmetry="rot180")
    with pytest.raises(SudokuError, match=r"either options= or .*\(clues\)"):
        generate_many(2, options=opts, clues=6)


def test_public_api_names() -> None:
    assert sudokit.GenerateOptions is GenerateOptions
    assert sudokit.SYMMETRY_ALIASES == {"mirror-h": "mirror-tb", "mirror-v": "mirror-lr"}
    assert "GenerateOptions" in sudokit.__all__
    assert "SYMMETRY_ALIASES" in sudokit.__all__


# -- Engine.bind -----------------------------------------------------------------------------


@pytest.mark.parametrize("engine", _engines())
@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3, diagonals=True)])
def test_bind_gives_what_search_gives(engine: str, shape: Shape) -> None:
    """A bound search answers every call as ``Engine.search`` on the same shape does."""
    eng = _backend.get_engine(engine)
    bound = eng.bind(shape)
    rng = random.Random(shape.n)
    solution = eng.search(shape, bytes(shape.ncells), 1, 1, 0).solutions[0]
    for _ in range(12):
        cells = bytearray(solution)
        for i in rng.sample(range(shape.ncells), rng.randrange(shape.ncells)):
            cells[i] = 0
        for limit, keep in ((1, 1), (2, 0), (5, 2)):
            want = eng.search(shape, bytes(cells), limit, keep, 0)
            got = bound(bytes(cells), limit, keep, 0)
            assert got == (want.count, want.solutions, want.guesses, want.complete)


@pytest.mark.parametrize("engine", _engines())
def test_bound_search_budget(engine: str) -> None:
    """The guess bound reaches the bound search: an empty 16x16 counted up to 10**6 stops."""
    found = _backend.get_engine(engine).bind(Shape(4, 4))(bytes(256), 10**6, 0, 5)
    assert found[3] is False
    assert found[0] < 10**6


# -- symmetry words ---------------------------------------------------------------------------


def test_symmetry_words_mean_what_transform_says() -> None:
    """``mirror-lr`` is invariant under ``transform.mirror(..., "horizontal")`` (left-right),
    ``mirror-tb`` under ``"vertical"`` (top-bottom); checked on generated puzzles."""
    for name, axis in (("mirror-lr", "horizontal"), ("mirror-tb", "vertical")):
        for p in generate_many(5, symmetry=name, seed=4):
            moved = transform.mirror(p.shape, axis).apply(p.puzzle)
            assert [v > 0 for v in moved.cells] == [v > 0 for v in p.puzzle.cells]
            other = "vertical" if axis == "horizontal" else "horizontal"
            flipped = transform.mirror(p.shape, other).apply(p.puzzle)
            assert [v > 0 for v in flipped.cells] != [v > 0 for v in p.puzzle.cells]


@pytest.mark.parametrize(("old", "new"), sorted(SYMMETRY_ALIASES.items()))
def test_old_symmetry_names_are_aliases(old: str, new: str) -> None:
    assert canonical_symmetry(old) == new
    assert old not in SYMMETRIES
    for size in (6, 9):
        a = [p.puzzle for p in generate_many(5, size=size, symmetry=old, seed=2)]
        b = [p.puzzle for p in generate_many(5, size=size, symmetry=new, seed=2)]
        assert a == b
        assert all(is_symmetric(g, old) and is_symmetric(g, new) for g in a)
    assert new in applicable_symmetries(Shape(2, 3))
    runner = CliRunner()
    out = [
        runner.invoke(cli, ["generate", "-n", "3", "--seed", "8", "--symmetry", name]).output
        for name in (old, new)
    ]
    assert out[0] == out[1]
    assert len(out[0].split()) == 3


def test_cell_maps_come_from_transform() -> None:
    """The generator's maps are transform's: ``cell_map`` equals the cells of ``rotate`` and
    ``mirror`` on every shape kind, and the rotations compose as rotations do."""
    for shape in (Shape(2, 2), Shape(2, 3), Shape(3, 3, diagonals=True)):
        n = shape.n
        assert transform.cell_map(n, "rot90") == transform.rotate(shape).cells
        assert transform.cell_map(n, "rot180") == transform.rotate(shape, 2).cells
        assert transform.cell_map(n, "rot270") == transform.rotate(shape, 3).cells
        for axis in transform.MIRRORS:
            assert transform.cell_map(n, axis) == transform.mirror(shape, axis).cells
        quarter = transform.cell_map(n, "rot90")
        twice = tuple(quarter[quarter[i]] for i in range(n * n))
        assert twice == transform.cell_map(n, "rot180")
    with pytest.raises(ValueError, match="unknown map 'rot45'"):
        transform.cell_map(4, "rot45")


def test_is_symmetric_reads_clue_positions_only() -> None:
    g = Grid.parse("1..2........3..4")
    assert is_symmetric(g, "mirror-lr")
    assert is_symmetric(g, "mirror-tb")
    assert is_symmetric(g, "dihedral")
    h = Grid.parse("12..............")
    assert not any(is_symmetric(h, s) for s in SYMMETRIES if s != "none")
    with pytest.raises(SudokuError, match="unknown symmetry"):
        is_symmetric(h, "spiral")
