"""The C choices of SE's chaining hints against their Python specification, on random
consistent states of 9x9 puzzles, of 4x4 / 6x6 / 16x16 grids and of shapes with extra units
(diagonals, windows), where a cycle's eliminations and a region chain read every unit:

* "Forcing Chains & Cycles", per search mode (``ChainMode.best``, csrc/sk_chain.c
  ``sk_chain_best``) against ``cycles._Mode.best``, for every mode and several caps;
* Nishio, multiple and dynamic forcing chains (``Chainer.best``, ``sk_chainer_best``, read by
  ``forcing._c_choice``) against the first hint that changes the state of all those
  ``forcing._collect`` finds, sorted as SE sorts them.

The hint chosen must be identical: rating, complexity, SE discovery order, kind, chain or
branches."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import sudokit
from sudokit.grid import Grid
from sudokit.logic import cycles, forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import Effect, Links, geometry
from sudokit.logic.step import LENGTH_BONUS_THRESHOLDS
from sudokit.shape import Shape
from support import LOGIC_PUZZLES as DATA
from support.shapes import by_shape
from support.states import chain_states
from support.tiers import sweep

pytestmark = pytest.mark.skipif(
    cycles._c_engine() is None, reason="the C core (with ChainMode) is not in use"
)


def _key(h: cycles.UnaryHint | None) -> tuple[object, ...] | None:
    if h is None:
        return None
    return (h.rating, h.complexity, h.sort_key, h.seq, h.kind, h.y, h.x, cycles.hint_path(h))


def _compare(cg: CandidateGrid) -> int:
    """Compare the two choices on every mode of *cg* and caps up to unlimited; the number of
    (mode, cap) pairs where a hint was chosen."""
    geo = geometry(cg.shape)
    engine = cycles._c_engine()
    links = Links(geo, cg.masks)
    unlimited = 4 * geo.ncells * geo.n
    chosen = 0
    for i, (y, x) in enumerate(cycles._MODES):
        py = cycles._Mode(geo, cg.masks, links, y, x)
        c = cycles._CMode(engine, geo, cg.masks, y, x)
        for cap in (4, 6, 8, 12, 20, unlimited):
            memo: dict[int, Effect | None] = {}
            want = _key(py.best(cap, i * 10**9, memo))
            assert _key(c.best(cap, i * 10**9, {})) == want, (y, x, cap)
            chosen += want is not None
    return chosen


def _random_states(shape: Shape, count: int, seed: int) -> Iterator[CandidateGrid]:
    """Consistent random states of *shape*: a solution's digit plus random candidates."""
    solved = next(sudokit.solutions(Grid.parse("." * shape.ncells, shape=shape), limit=1))
    rng = random.Random(seed)
    n = shape.n
    for _ in range(count):
        masks = []
        for cell in range(shape.ncells):
            keep = 1 << (solved.cells[cell] - 1)
            for _ in range(rng.choice((0, 1, 1, 2))):
                keep |= 1 << rng.randrange(n)
            masks.append(keep)
        yield CandidateGrid.from_masks(shape, [0] * shape.ncells, masks)


@pytest.mark.slow
def test_best_parity_on_9x9_states() -> None:
    puzzles = DATA.read_text().split()[: sweep(15, 40)]
    chosen = sum(_compare(cg) for cg in chain_states(puzzles, 2, seed=29))
    assert chosen > 100  # the states do exercise the choice


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shape", "count"),
    by_shape({"4x4": 30, "6x6": 20, "diagonals": 12, "windoku": 12, "16x16": sweep(1, 2)}),
)
def test_best_parity_on_other_shapes(shape: Shape, count: int) -> None:
    chosen = sum(_compare(cg) for cg in _random_states(shape, count, seed=shape.n))
    assert chosen > 0


def _forcing_key(h: forcing._Hint) -> tuple[object, ...]:
    starts = tuple(p for p, _ in h.chains)
    return (h.rating, h.complexity, h.sort_key, h.seq, h.kind, h.target, h.source, h.digit, starts)


def _compare_forcing(cg: CandidateGrid) -> int:
    """Compare the C choice of each level-0 forcing rule on *cg* with the Python's; the
    number of rules that found a hint."""
    geo = geometry(cg.shape)
    n = cg.shape.n
    chosen = 0
    for rank in (forcing.RANK_NISHIO, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC):
        forcing._LEVEL0.clear()
        hints = sorted(forcing._collect(geo, cg.masks, rank), key=forcing._Hint.order)
        want = next((h for h in hints if forcing._effect(cg, n, h) is not None), None)
        forcing._LEVEL0.clear()
        got = forcing._c_choice(geo, cg.masks, rank)
        assert got is not None
        assert [_forcing_key(h) for h in got] == ([] if want is None else [_forcing_key(want)])
        chosen += want is not None
    return chosen


@pytest.mark.slow
def test_forcing_choice_parity_on_9x9_states() -> None:
    puzzles = DATA.read_text().split()[40:70]
    chosen = sum(_compare_forcing(cg) for cg in chain_states(puzzles, 1, seed=31))
    assert chosen > 30


@pytest.mark.parametrize(
    ("shape", "count"), by_shape({"4x4": 20, "6x6": 12, "diagonals": 6, "16x16": 1})
)
def test_forcing_choice_parity_on_other_shapes(shape: Shape, count: int) -> None:
    chosen = sum(_compare_forcing(cg) for cg in _random_states(shape, count, seed=shape.n + 1))
    assert chosen > 0


def test_best_rejects_bad_arguments() -> None:
    from sudokit import _core

    geo = geometry(Shape(2, 2))
    mode = _core.ChainMode(4, geo.units, geo.unit_order, [0b1111] * 16, True, True)
    assert mode.best(0, 70, 70, LENGTH_BONUS_THRESHOLDS) is None  # no chain fits in 0 potentials
    for args, exc in [
        ((-1, 70, 70, ()), ValueError),
        ((8, 70, 70), TypeError),
        ((8, 70, 70, "abc"), TypeError),
        ((8, 70, 70, tuple(range(65))), ValueError),
        ((8, -1, 70, ()), ValueError),
    ]:
        with pytest.raises(exc):
            mode.best(*args)


def test_chainer_best_rejects_bad_arguments() -> None:
    from sudokit import _core

    geo = geometry(Shape(2, 2))
    chainer = _core.Chainer(4, geo.units, geo.unit_order, [0b1111] * 16, True, True)
    keys = (1, 5, 6, 7)
    assert chainer.best(False, True, 85, LENGTH_BONUS_THRESHOLDS, keys) is None  # nothing is forced
    for args, exc in [
        ((False, True, 85, LENGTH_BONUS_THRESHOLDS), TypeError),
        ((False, True, 85, LENGTH_BONUS_THRESHOLDS, (1, 5, 6)), ValueError),
        ((False, True, -3, LENGTH_BONUS_THRESHOLDS, keys), ValueError),
        ((False, True, 85, (-1,), keys), ValueError),
        ((False, True, 85, tuple(range(65)), keys), ValueError),
    ]:
        with pytest.raises(exc):
            chainer.best(*args)
