"""The C chainer (csrc/sk_chain.c, ``_core.Chainer``) against its specification, the Python
runs of :mod:`sudokit.logic.forcing`: on candidate states of test puzzles, SE's Nishio,
multiple, dynamic, dynamic (+) and nested (level 2) forcing chains found on each backend
must be identical -- every hint's rating, complexity, kind, discovery order, target and
source, and, for every branch, the whole run behind it (each potential reached, in order,
with its ancestor set and parents; the contradiction; why each potential holds), and the
steps the rules take (texts included). Levels >= 1 continue level-0 runs, so they check the
C runs' stopping states too."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import sudokit
import support
from sudokit import _native
from sudokit.grid import Grid
from sudokit.logic import chaining, forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import geometry
from support.chainers import both

DATA = support.DATA / "logic_puzzles.txt"
CORE = _native.core()

pytestmark = pytest.mark.skipif(CORE is None, reason="the C core (with Chainer) is not in use")


def _states(puzzles: list[str], seed: int) -> Iterator[CandidateGrid]:
    """One consistent state per puzzle: a random share of the wrong candidates removed."""
    rng = random.Random(seed)
    for text in puzzles:
        grid = Grid.parse(text)
        solution = sudokit.solution(grid)
        cg = CandidateGrid.from_grid(grid)
        share = rng.uniform(0.3, 0.6)
        masks = [
            m
            & (
                (1 << (solution.cells[cell] - 1))
                | (rng.getrandbits(9) if rng.random() > share else 0)
            )
            if m
            else 0
            for cell, m in enumerate(cg.masks)
        ]
        yield CandidateGrid.from_masks(cg.shape, list(cg.values), masks)


def _both(monkeypatch: pytest.MonkeyPatch, cg: CandidateGrid, rank: int, record: bool) -> None:
    both(monkeypatch, cg, rank, record)


@pytest.mark.slow
@pytest.mark.parametrize("rank", [forcing.RANK_NISHIO, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC])
def test_level_0_rules_equal_on_both_backends(monkeypatch: pytest.MonkeyPatch, rank: int) -> None:
    puzzles = DATA.read_text().split()[: 24 if rank < forcing.RANK_DYNAMIC else 10]
    for i, cg in enumerate(_states(puzzles, seed=rank)):
        _both(monkeypatch, cg, rank, record=i % 2 == 1)


def test_nested_levels_continue_c_runs_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzles = DATA.read_text().split()[40:43]
    for rank in (forcing.RANK_DYNAMIC_PLUS, forcing.RANK_DYNAMIC + 2):
        for cg in _states(puzzles[:1] if rank > forcing.RANK_DYNAMIC_PLUS else puzzles, seed=9):
            _both(monkeypatch, cg, rank, record=False)


def test_c_runs_are_used_and_reach_contradictions() -> None:
    cg = next(_states(DATA.read_text().split()[:1], seed=1))
    forcing._LEVEL0.clear()
    chainer = forcing._Chainer(geometry(cg.shape), cg.masks, y=True, dynamic=True, level=0)
    assert chainer.c is not None
    outcomes = [
        chainer.run(chaining.on_potential(9, cell, d))
        for cell in range(81)
        for d in range(9)
        if cg.masks[cell] >> d & 1
    ]
    assert any(o.absurd is not None for o in outcomes)
    assert any(o.absurd is None for o in outcomes)
    assert chainer.stopped  # the runs without contradiction noted where they stopped
    start = next(iter(chainer.stopped))
    masks, counts = chainer.end_state(start)
    assert len(masks) == 81
    assert len(counts) == 27 * 9


def test_chainer_rejects_bad_arguments() -> None:
    assert CORE is not None
    geo = geometry(sudokit.Shape(2, 2))
    chainer = CORE.Chainer(4, geo.units, geo.unit_order, [0b1111] * 16, True, True)
    with pytest.raises(ValueError, match="start"):
        chainer.run(2 * 16 * 4)
    with pytest.raises(ValueError, match="masks"):
        CORE.Chainer(4, geo.units, geo.unit_order, [0b1111] * 15, True, True)
    run = chainer.run(1)
    with pytest.raises(IndexError):
        run.anc_at(len(run.index))
