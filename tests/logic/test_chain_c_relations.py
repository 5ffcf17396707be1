"""The C chainers with the pair relations (``_core.Chainer.relate``, ``_core.ChainMode(
relations=, peers=)``, csrc/sk_chain.c) against their specification, the Python of
:mod:`sudokit.logic.forcing` and :mod:`sudokit.logic.cycles` on shapes whose rules relate two
cells (non-consecutive, kropki, XV, thermometers) or say that two cells outside every unit
differ (anti-knight, anti-king): SE's Forcing Chains & Cycles, Nishio, multiple, dynamic,
dynamic (+) and nested forcing chains found on each backend are identical, hint for hint and
run for run (the comparison of tests/logic/test_chain_c_forcing.py), and so are the steps the
rating takes."""

from __future__ import annotations

import random
from array import array

import pytest

import sudokit
import support
from sudokit import _native, rating
from sudokit.logic import chaining, cycles, forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import geometry, off_potential, on_potential
from sudokit.shape import Shape
from support.chainers import both

CORE = _native.core()

pytestmark = pytest.mark.skipif(CORE is None, reason="the C core (with Chainer) is not in use")

KINDS = ("nonconsecutive", "kropki", "xv", "thermo", "antiknight", "antiking")
RANKS = (forcing.RANK_NISHIO, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC)


def _state(made: sudokit.Generated, seed: int) -> CandidateGrid:
    """A consistent state of the generated puzzle: a random share of wrong candidates gone."""
    rng = random.Random(seed)
    cg = CandidateGrid.from_grid(made.puzzle)
    n = cg.shape.n
    share = rng.uniform(0.3, 0.6)
    masks = [
        m
        & (
            (1 << (made.solution.cells[cell] - 1))
            | (rng.getrandbits(n) if rng.random() > share else 0)
        )
        if m
        else 0
        for cell, m in enumerate(cg.masks)
    ]
    return CandidateGrid.from_masks(cg.shape, list(cg.values), masks)


def _both(monkeypatch: pytest.MonkeyPatch, cg: CandidateGrid, rank: int, record: bool) -> None:
    assert geometry(cg.shape).pairs is not None
    count = both(monkeypatch, cg, rank, record)
    assert count or rank == forcing.RANK_NISHIO  # something to compare


@pytest.mark.parametrize("kind", KINDS)
def test_level_0_rules_with_relations_equal_on_both_backends(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    made = sudokit.generate(6, seed=3, any_unique=True, **{kind: True})  # type: ignore[arg-type]
    for i, rank in enumerate(RANKS):
        _both(monkeypatch, _state(made, seed=rank), rank, record=i % 2 == 1)


def _cycles(cg: CandidateGrid) -> list[object]:
    """SE's "Forcing Chains & Cycles" on *cg*: every hint with its path and effect, what the
    C cycles nested in a chain read (:func:`cycles.unary_all_c`), and the rule's steps."""
    geo = geometry(cg.shape)
    found = [
        (h.rating, h.complexity, h.sort_key, h.seq, h.kind, h.y, h.x, cycles.hint_path(h), e)
        for h, e in cycles.unary_all(geo, cg.masks)
    ]
    steps = [(h.rating, h.seq, step.text) for h, step in cycles.unary_hints(cg, exhaustive=True)]
    return [found, steps]


@pytest.mark.parametrize("kind", KINDS)
def test_cycles_with_relations_equal_on_both_backends(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    made = sudokit.generate(6, seed=3, any_unique=True, **{kind: True})  # type: ignore[arg-type]
    cg = _state(made, seed=11)
    c = _cycles(cg)
    with monkeypatch.context() as m:
        support.python_twins(m)
        py = _cycles(cg)
    assert c == py
    assert c[0]  # something to compare
    nested = cycles.unary_all_c(geometry(cg.shape), cg.masks)
    assert nested is not None


def test_a_cycle_sees_its_eliminations_through_a_knight_move() -> None:
    # the C cycles' eliminations see the peers outside the units (Shape.peers), as the Python
    shape = Shape(3, 3, constraints=sudokit.Constraints(antiknight=True))
    assert CORE is not None
    geo = geometry(shape)
    relations, peers = chaining.c_relations(geo)
    assert 13 in peers[2]  # r1c3 sees r2c5 by a knight's move only
    assert 11 not in peers[2]  # r2c3: its box
    mode = CORE.ChainMode(
        9, geo.units, geo.unit_order, [0b11] * 81, True, True, relations=relations, peers=peers
    )
    assert mode.sources


def test_nested_level_continues_c_runs_with_relations(monkeypatch: pytest.MonkeyPatch) -> None:
    made = sudokit.generate(6, seed=1, any_unique=True, antiknight=True, kropki=True)
    for rank in (forcing.RANK_DYNAMIC_PLUS, forcing.RANK_DYNAMIC + 2):  # + 2: cycles nested
        _both(monkeypatch, _state(made, seed=7), rank, record=False)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["antiknight"])
def test_9x9_rules_with_relations_equal_on_both_backends(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    made = sudokit.generate(9, seed=1, any_unique=True, **{kind: True})  # type: ignore[arg-type]
    for rank in RANKS:
        _both(monkeypatch, _state(made, seed=rank), rank, record=rank == forcing.RANK_DYNAMIC)


def test_rating_steps_equal_on_both_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    made = sudokit.generate(6, seed=5, any_unique=True, antiking=True)
    c = [(s.technique, s.rating, s.text) for s in rating.explain(made.puzzle, budget_s=5)]
    with monkeypatch.context() as m:
        support.python_twins(m)
        py = [(s.technique, s.rating, s.text) for s in rating.explain(made.puzzle, budget_s=5)]
    assert c == py
    assert any("(anti-king)" in text for _, _, text in c)  # a chain through a king's move


def test_a_knight_move_links_the_c_runs() -> None:
    shape = Shape(3, 3, constraints=sudokit.Constraints(antiknight=True))
    geo = geometry(shape)
    chainer = forcing._Chainer(geo, [0b111111111] * 81, y=True, dynamic=True, level=0)
    assert chainer.c is not None
    out = chainer.run(on_potential(9, 2, 4))  # r1c3=5
    assert out.parents[off_potential(9, 13, 4)] == (on_potential(9, 2, 4),)  # r2c5<>5


def test_relate_rejects_bad_records() -> None:
    assert CORE is not None
    geo = geometry(Shape(2, 2))
    masks = [0b1111] * 16

    def rec(*xs: int) -> bytes:
        return array("q", xs).tobytes()

    differ = (14, 13, 11, 7)  # "any other digit", both ways
    good = rec(0, 5, *differ, *differ)
    for records, words in (
        (good[:-8], "records of 10"),
        (rec(0, 16, *differ, *differ), "record 0"),  # no such cell
        (rec(3, 3, *differ, *differ), "record 0"),  # a cell and itself
        (rec(0, 5, 16, 13, 11, 7, *differ), "record 0"),  # a digit beyond 4
        (rec(5, 0, *differ, *differ) + good, "record 1"),  # cells not ascending
    ):
        chainer = CORE.Chainer(4, geo.units, geo.unit_order, masks, True, True)
        with pytest.raises(ValueError, match=words):
            chainer.relate(records)
    chainer = CORE.Chainer(4, geo.units, geo.unit_order, masks, True, True)
    chainer.relate(good)
    with pytest.raises(ValueError, match="once"):
        chainer.relate(good)
    with pytest.raises(ValueError, match="pair relations"):
        chainer.nested(True, (1, 5, 6, 7), masks, forcing._c_rules(geo))
    run = CORE.Chainer(4, geo.units, geo.unit_order, masks, True, True)
    run.run(1)
    with pytest.raises(ValueError, match="before the first run"):
        run.relate(good)
