"""The C core's rules inside nested forcing chains (csrc/sk_nest.c, ``_core.InChain``) against
their specification, :mod:`sudokit.logic.inchain`, and the nested chaining rules that use
them on both backends.

* ``InChain.find(save, masks, first)`` must return exactly what the first of
  ``inchain.BASIC_RULES[first:]`` that finds anything returns (the same removals, in the same
  order, with the same parents), on chain states made from consistent states of 9x9 puzzles
  and of 4x4 / 6x6 / 16x16 grids and shapes with extra units (diagonals, windows): the chain's
  candidates are the state's with a random share removed (solution digits included, as inside
  a chain that is about to meet a contradiction).
* Dynamic forcing chains (+) and nested level 2, whole rules on states of test puzzles: every
  hint and its text identical with the core and with ``SUDOKIT_BACKEND=python`` semantics
  (``support.python_twins``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import sudokit
import support
from sudokit import _native
from sudokit.grid import Grid
from sudokit.logic import forcing, inchain
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import Geometry, geometry
from sudokit.shape import Shape
from support.shapes import by_shape
from support.tiers import sweep

DATA = support.DATA / "logic_puzzles.txt"
CORE = _native.core()

pytestmark = pytest.mark.skipif(
    CORE is None or not hasattr(CORE, "InChain"), reason="the C core (with InChain) is not in use"
)


def _chain_states(
    shape: Shape, grids: list[tuple[Grid, Grid]], per: int, seed: int
) -> Iterator[tuple[list[int], list[int]]]:
    """(save, masks) pairs: a consistent state of each (grid, solution) (the solution's digit
    plus a random share of the other candidates), and the candidates a chain left of it (a
    random share removed, any digit)."""
    rng = random.Random(seed)
    n = shape.n
    for grid, solution in grids:
        base = CandidateGrid.from_grid(grid).masks
        for _ in range(per):
            share = rng.uniform(0.2, 0.7)
            save = []
            for cell, m in enumerate(base):
                keep = 1 << (solution.cells[cell] - 1) if m else 0
                keep |= sum(1 << d for d in range(n) if rng.random() >= share)
                save.append(m & keep)
            cut = rng.uniform(0.03, 0.3)
            masks = [m & ~sum(1 << d for d in range(n) if rng.random() < cut) for m in save]
            yield save, masks


def _python(geo: Geometry, save: list[int], masks: list[int], first: int) -> inchain.Found:
    for rule in inchain.BASIC_RULES[first:]:
        found = rule(geo, save, masks)
        if found:
            return found
    return []


def _compare(shape: Shape, grids: list[tuple[Grid, Grid]], per: int, seed: int) -> list[int]:
    """Compare C and Python on the chain states; per rule, how many states it answered."""
    geo = geometry(shape)
    rules = inchain.c_rules(CORE, geo)
    assert rules is not None
    hits = [0] * len(inchain.BASIC_RULES)
    for save, masks in _chain_states(shape, grids, per, seed):
        for first in range(len(inchain.BASIC_RULES)):
            want = _python(geo, save, masks, first)
            got = rules.find(save, masks, first)
            assert got == want, (first, save, masks)
            if want:
                which = next(k for k in range(first, 4) if inchain.BASIC_RULES[k](geo, save, masks))
                hits[which] += 1
    return hits


@pytest.mark.slow
def test_basic_rules_parity_on_9x9_chain_states() -> None:
    grids = [(g, sudokit.solution(g)) for g in map(Grid.parse, DATA.read_text().split()[:60])]
    hits = _compare(Shape(3, 3), grids, 6, seed=7)
    assert all(h > 10 for h in hits), hits  # every rule is exercised


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shape", "count"), by_shape({"4x4": 40, "6x6": 30, "diagonals": 20, "windoku": 20, "16x16": 6})
)
def test_basic_rules_parity_on_other_shapes(shape: Shape, count: int) -> None:
    solved = next(sudokit.solutions(Grid.parse("." * shape.ncells, shape=shape), limit=1))
    rng = random.Random(shape.n)
    grids = []
    for _ in range(count):  # the solved grid with a random share of its cells emptied
        cells = [v if rng.random() < 0.3 else 0 for v in solved.cells]
        grids.append((Grid(cells, shape), solved))
    hits = _compare(shape, grids, 3, seed=shape.n)
    assert sum(hits) > 0


def test_find_rejects_bad_arguments() -> None:
    geo = geometry(Shape(2, 2))
    rules = inchain.c_rules(CORE, geo)
    full = [0b1111] * 16
    with pytest.raises(ValueError, match="masks must hold 16"):
        rules.find(full, full[:3])
    with pytest.raises(ValueError, match="save"):
        rules.find([16] * 16, full)
    with pytest.raises(ValueError, match="first"):
        rules.find(full, full, 4)
    with pytest.raises(TypeError):
        rules.find(full)
    with pytest.raises(ValueError, match="units"):
        CORE.InChain(4, ((0, 1),), (), ((), (), ()))
    with pytest.raises(ValueError, match="rows and cols"):
        CORE.InChain(4, geo.units, (), ((0,), (0,), (0,)))
    assert rules.find(full, full) == []  # nothing removed by a chain: nothing to find
    chainer = CORE.Chainer(4, geo.units, geo.unit_order, full, True, True)
    with pytest.raises(TypeError, match="InChain"):
        chainer.nested(True, (1, 5, 6, 7), full, None)
    with pytest.raises(ValueError, match="save"):
        chainer.nested(True, (1, 5, 6, 7), full[:3], rules)
    with pytest.raises(ValueError, match="sort_keys"):
        chainer.nested(True, (1, 5), full, rules)
    assert chainer.nested(True, (1, 5, 6, 7), full, rules) == []  # nothing removed: no parents
    mode = CORE.ChainMode(4, geo.units, geo.unit_order, full, True, True)
    with pytest.raises(TypeError, match="ChainMode"):
        CORE.unary_all((mode, mode, None), (65, 66, 65, 66, 70, 70), (2, 3, 4), (4,), 100)
    with pytest.raises(ValueError, match="base10"):
        CORE.unary_all((mode, mode, mode), (65,), (2, 3, 4), (4,), 100)


def _steps(cg: CandidateGrid, rank: int) -> list[tuple[object, ...]]:
    forcing._LEVEL0.clear()
    forcing._LEVELS.clear()
    steps = forcing.forcing_hints(cg, rank, exhaustive=True)
    return [(s.technique, s.rating, s.placements, s.eliminations, s.text) for s in steps]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rank", "count"),
    [(forcing.RANK_DYNAMIC_PLUS, sweep(2, 6)), (forcing.RANK_DYNAMIC + 2, sweep(1, 2))],
)
def test_nested_rules_equal_on_both_backends(
    monkeypatch: pytest.MonkeyPatch, rank: int, count: int
) -> None:
    from support.states import chain_states

    puzzles = DATA.read_text().split()[100 : 100 + count]
    found = 0
    for cg in chain_states(puzzles, 1, seed=41):
        c = _steps(cg, rank)
        with monkeypatch.context() as m:
            support.python_twins(m)
            py = _steps(cg, rank)
        assert c == py
        found += len(c)
    assert found > 0


def _nested_found(geo: Geometry, save: list[int], masks: list[int], rank: int) -> list[object]:
    forcing._LEVEL0.clear()
    if rank == 0:
        found = forcing._nested_unary(geo, save, masks)
    else:
        found = forcing._nested_rule(geo, save, masks, rank)
    return [(q, prs, None if nest is None else (nest[0].chains, nest[1])) for q, prs, nest in found]


@pytest.mark.slow
@pytest.mark.parametrize(
    "rank", [0, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC], ids=["unary", "multiple", "dynamic"]
)
def test_nested_rule_inside_a_chain_equal_on_both_backends(
    monkeypatch: pytest.MonkeyPatch, rank: int
) -> None:
    """Forcing chains & cycles (*rank* 0, nesting levels 2 and 3), multiple and dynamic forcing
    chains (levels 3 and 4) run inside a chain: the C core's lists of hints
    (``_core.unary_all``, ``Chainer.all``) give the same removals, parents and nested chains
    (identity and complexity) as the Python's (:func:`cycles.unary_all`,
    :func:`forcing._collect`)."""
    geo = geometry(Shape(3, 3))
    puzzles = DATA.read_text().split()[60:100]
    grids = [(g, sudokit.solution(g)) for g in map(Grid.parse, puzzles)]
    found = 0
    for save, masks in _chain_states(Shape(3, 3), grids, 1, seed=rank):
        c = _nested_found(geo, save, masks, rank)
        with monkeypatch.context() as m:
            support.python_twins(m)
            py = _nested_found(geo, save, masks, rank)
        assert c == py
        found += len(c)
    forcing._LEVEL0.clear()
    assert found > 0
