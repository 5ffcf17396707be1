"""The C chaining engine (csrc/sk_chain.c, ``_core.ChainMode``) against its specification, the
Python of :mod:`sudokit.logic.cycles`: on many candidate states, SE's "Forcing Chains & Cycles"
hints found on each backend must be identical -- every hint's rating, complexity, kind, SE
discovery order, chain (potential by potential) and effect, and the step the rule takes.

States: the candidates of test puzzles with a random share of the wrong candidates removed
(the solution's stay, so each state is consistent), which gives bivalue cells, conjugate pairs
and long chains of every kind; plus the same on 4x4, 6x6 and 16x16 shapes."""

from __future__ import annotations

import random

import pytest

import sudokit
import support
from sudokit.grid import Grid
from sudokit.logic import cycles
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import geometry
from support.states import chain_states
from support.tiers import sweep

DATA = support.DATA / "logic_puzzles.txt"

pytestmark = pytest.mark.skipif(
    cycles._c_engine() is None, reason="the C core (with ChainMode) is not in use"
)


def _all(cg: CandidateGrid) -> list[tuple[object, ...]]:
    found = cycles.unary_all(geometry(cg.shape), cg.masks)
    return [
        (
            h.rating,
            h.complexity,
            h.sort_key,
            h.seq,
            h.kind,
            h.y,
            h.x,
            h.node,
            cycles.hint_path(h),
            e,
        )
        for h, e in found
    ]


def _steps(cg: CandidateGrid, exhaustive: bool) -> list[tuple[object, ...]]:
    return [
        (h.rating, h.complexity, h.seq, h.kind, h.node, step)
        for h, step in cycles.unary_hints(cg, exhaustive=exhaustive)
    ]


def _both(monkeypatch: pytest.MonkeyPatch, fn: object, *args: object) -> tuple[object, object]:
    """fn(*args) on the C engine, then on the Python specification."""
    assert callable(fn)
    c = fn(*args)
    with monkeypatch.context() as m:
        m.setattr(cycles, "_c_engine", lambda: None)
        py = fn(*args)
    return c, py


@pytest.mark.slow
def test_parity_on_random_states_of_test_puzzles(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzles = DATA.read_text().split()[: sweep(30, 80)]
    hints = 0
    for cg in chain_states(puzzles, 2, seed=16):
        c, py = _both(monkeypatch, _all, cg)
        assert c == py
        c, py = _both(monkeypatch, _steps, cg, False)
        assert c == py
        hints += len(py)  # type: ignore[arg-type]
    assert hints > len(puzzles)  # the states do exercise the rule (60 from 30 puzzles)


@pytest.mark.slow
def test_parity_exhaustive_and_every_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzles = DATA.read_text().split()[120:150]
    kinds: set[tuple[str, bool, bool]] = set()
    for cg in chain_states(puzzles, 1, seed=7):
        c, py = _both(monkeypatch, _steps, cg, True)
        assert c == py
        kinds |= {(h.kind, h.y, h.x) for h, _ in cycles.unary_hints(cg, exhaustive=True)}
    # cycles of each mode and forcing chains of both (Y-only has no forcing chains, as in SE)
    assert {("cycle", False, True), ("cycle", True, False), ("cycle", True, True)} <= kinds
    assert {("forcing", False, True), ("forcing", True, True)} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize(
    ("puzzle", "box"),
    [
        ("1.....3..4.....2", (2, 2)),
        ("1.....4..3.....6.2.....5..4.....3...", (2, 3)),
    ],
)
def test_parity_on_other_sizes(
    monkeypatch: pytest.MonkeyPatch, puzzle: str, box: tuple[int, int]
) -> None:
    shape = sudokit.Shape(*box)
    grid = Grid.parse(puzzle, shape=shape)
    solved = next(sudokit.solutions(grid, limit=1))  # a solution: some have several
    rng = random.Random(3)
    n = shape.n
    for _ in range(20):
        masks = [
            (1 << (solved.cells[c] - 1)) | (rng.getrandbits(n) if grid.cells[c] == 0 else 0)
            for c in range(shape.ncells)
        ]
        masks = [m if grid.cells[c] == 0 else 0 for c, m in enumerate(masks)]
        cg = CandidateGrid.from_masks(shape, list(grid.cells), masks)
        c, py = _both(monkeypatch, _all, cg)
        assert c == py


@pytest.mark.slow
def test_parity_on_16x16(monkeypatch: pytest.MonkeyPatch) -> None:
    shape = sudokit.Shape(4, 4)
    solved = next(sudokit.solutions(Grid.parse("." * shape.ncells, shape=shape), limit=1))
    rng = random.Random(5)
    masks = []
    for c in range(shape.ncells):
        keep = 1 << (solved.cells[c] - 1)
        if rng.random() < 0.6:
            keep |= 1 << rng.randrange(16)
        masks.append(keep)
    cg = CandidateGrid.from_masks(shape, [0] * shape.ncells, masks)
    c, py = _both(monkeypatch, _all, cg)
    assert c == py


def test_chain_mode_rejects_bad_arguments() -> None:
    from sudokit import _core

    geo = geometry(sudokit.Shape(2, 2))
    masks = [0b1111] * 16
    ok = _core.ChainMode(4, geo.units, geo.unit_order, masks, True, True)
    assert len(ok.sources) == 64
    assert len(ok.bounds) == 64
    bad: list[tuple[tuple[object, ...], type[Exception], str]] = [
        ((0, geo.units, geo.unit_order, masks, True, True), ValueError, "n must be"),
        ((4, geo.units, geo.unit_order, masks[:3], True, True), ValueError, "masks must hold"),
        ((4, geo.units, geo.unit_order, [1 << 4] * 16, True, True), ValueError, "masks"),
        ((4, geo.units, geo.unit_order[:3], masks, True, True), ValueError, "unit_order"),
        ((4, [[99]], geo.unit_order, masks, True, True), ValueError, "units"),
        ((4, geo.units, [[0]] * 16, masks, True, True), ValueError, "does not hold"),
        ((4, "abc", geo.unit_order, masks, True, True), TypeError, "units"),
        ((4, geo.units, geo.unit_order, masks, False, False), ValueError, "y or x"),
    ]
    for args, exc, text in bad:
        with pytest.raises(exc, match=text):
            _core.ChainMode(*args)
    with pytest.raises(ValueError, match="cap"):
        ok.hints(-1)
