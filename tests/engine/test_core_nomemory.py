"""The C searches' bindings under failed allocations (csrc/sk_py_*.c).

Each allocation the call makes is failed in turn (``_testcapi.set_nomemory``: the k-th
allocation fails, the later ones succeed again). Every such call must either give the result
of a normal call or raise :class:`MemoryError`: never another error (a SystemError is what
CPython reports when a C function goes on with an exception pending and then returns a value,
or returns NULL without one), never a crash; and the sweep must leave no memory behind.
"""

from __future__ import annotations

import random

import pytest

from sudokit.logic import _human, uniqueness
from sudokit.logic.candidates import CandidateGrid
from sudokit.shape import Shape
from support.nomemory import sweep
from support.states import first_solution, random_states

_testcapi = pytest.importorskip("_testcapi")

_core = pytest.importorskip("sudokit._core", reason="the C core is not built")


def _with_finds(states: list[CandidateGrid]) -> CandidateGrid:
    core = uniqueness._c_uniq_for(states[0].shape)
    return max(states, key=lambda cg: sum(len(t[-1]) for t in core.steps(cg.masks, None, None)))


def _bug_plus_one() -> CandidateGrid:
    """A 4x4 BUG+1 state: each cell holds its solution digit d and the digit after it (so each
    digit is in two places of each unit), one cell a third digit."""
    shape = Shape(2, 2)
    solved = first_solution(shape)
    masks = [1 << (d - 1) | 1 << d % 4 for d in solved.cells]
    masks[5] = 0b1111
    cg = CandidateGrid.from_masks(shape, [0] * 16, masks)
    assert uniqueness._bug_extras_py(cg) == {
        5: 0b1111 & ~(1 << (solved.cells[5] - 1) | 1 << solved.cells[5] % 4)
    }
    return cg


@pytest.mark.slow
def test_uniq_steps_and_bug_extras() -> None:
    shape = Shape(3, 3)
    states = random_states(shape, first_solution(shape), 40, seed=3)
    cg = _with_finds(states)
    core = uniqueness._c_uniq_for(shape)
    assert len(core.steps(cg.masks, None, None)) >= 2
    sweep(lambda: core.steps(cg.masks, None, None), at_least=10)
    bug = _bug_plus_one()
    small = uniqueness._c_uniq_for(bug.shape)
    sweep(lambda: small.bug_extras(bug.masks), at_least=1)
    kinds = list(range(len(shape.units)))
    sweep(
        lambda: _core.Uniq(9, shape.units, shape.cell_units, kinds, shape.peers).steps(
            cg.masks, None, None
        ),
        at_least=10,
    )


def test_exclusion_find() -> None:
    shape = Shape(3, 3)
    engine = _core.Exclusion(9, shape.peers)
    rng = random.Random(11)
    for _ in range(2000):
        masks = [rng.randrange(1, 512) if rng.random() < 0.8 else 0 for _ in range(81)]
        masks = [m if bin(m).count("1") != 1 else m | 3 for m in masks]
        step = engine.find(masks, 3, None, 0)
        if isinstance(step, tuple) and len(step[3]) >= 2:
            break
    else:
        pytest.fail("no Aligned Triple Exclusion state found")
    # A list of masks is read in place (csrc/sk_py.c sk_py_masks): no copy to fail. How many
    # allocations are left to fail depends on the interpreter's free lists (a tuple from a free
    # list allocates nothing): 4-5 when this module runs alone, 3 after the rest of the full
    # tier in the same worker. Every one of them must fail cleanly, however many there are.
    sweep(lambda: engine.find(masks, 3, None, 0), at_least=1)


def test_human_shape_init_and_find() -> None:
    shape = Shape(3, 3)
    rng = random.Random(5)
    masks = [rng.randrange(1, 512) for _ in range(81)]
    masks[:3] = [0b11, 0b11, 0b111]  # a naked pair in row 0 and box 0

    args = _human.table_args(shape)  # read once: the sweep fails only the binding's calls

    def build() -> object:
        return _core.HumanShape(*args).find(_human.NAKED_SETS, 2, masks, ())

    assert build() == _human._table(shape).find(_human.NAKED_SETS, 2, masks, ())
    assert build()
    sweep(build, at_least=10)
