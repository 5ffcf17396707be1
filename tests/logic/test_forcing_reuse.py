"""A nested dynamic chainer (level >= 1) continues the level-0 run of the same state where that
one stopped instead of chaining the common prefix again (sudokit.logic.forcing._Chainer): its
outcomes must be exactly those of a run from scratch, potential by potential."""

from __future__ import annotations

from sudokit.grid import Grid
from sudokit.logic import chaining, forcing
from sudokit.logic.candidates import CandidateGrid

EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def _fields(out: forcing._Outcome) -> tuple[object, ...]:
    return (out.anc, out.parents, out.absurd, out.nest_bits, out.nested, out.causes)


def test_level_1_runs_continued_from_level_0_equal_runs_from_scratch() -> None:
    cg = CandidateGrid.from_grid(Grid.parse(EASTER))
    geo = chaining.geometry(cg.shape)
    starts = [
        p
        for cell in range(geo.ncells)
        for d in range(9)
        if cg.masks[cell] >> d & 1
        for p in (chaining.on_potential(9, cell, d), chaining.off_potential(9, cell, d))
    ][:60]
    for record in (False, True):
        reused = forcing._Chainer(geo, cg.masks, y=True, dynamic=True, level=1, record=record)
        scratch = forcing._Chainer(geo, cg.masks, y=True, dynamic=True, level=1, record=record)
        assert reused.base is not None
        scratch.base = None  # same tables, but every run chains from its start
        level0 = reused.base
        resumed = 0
        for p in starts:
            assert _fields(reused.run(p)) == _fields(scratch.run(p))
            resumed += p in level0.ends and len(reused.run(p).anc) > len(level0.run(p).anc)
        assert resumed > 0  # the nesting level did add to some stopped level-0 runs
