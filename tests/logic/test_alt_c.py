"""The C search of the named alternating chains (csrc/sk_alt.c, ``HumanShape.find`` kind 15:
X-Chain, XY-Chain, AIC) keeps
the chains of its Python specification (``chains._alt_found``), chain for chain, and the
finders give the same steps with either backend.

* Every 6th state of the rating path of shipped puzzles (tests/support/states.py) and random
  states of 4x4, 6x6, 9x9 (also with diagonals, windoku windows and jigsaw regions) and 16x16
  grids (bigger sweeps in the nightly tier), and 9x9 candidate masks no solution explains.
* An AIC on a shape with pair relations (a variant's dots) stays on the Python search.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from sudokit.constraints import Constraints
from sudokit.grid import Grid
from sudokit.logic import _human, chains
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import geometry
from sudokit.shape import Shape
from support import python_twins
from support.states import emptied_states, jigsaw_shape, noise_states, path_states, step_key
from support.tiers import sweep

pytestmark = pytest.mark.skipif(
    _human._table(Shape(2, 2)) is None, reason="the C core has no HumanShape"
)

FINDERS = {
    "X-Chain": chains.x_chains,
    "XY-Chain": chains.xy_chains,
    "AIC": chains.alternating_inference_chains,
}


def _compare(cgs: Iterable[CandidateGrid]) -> dict[str, int]:
    """Assert the core keeps Python's chains on every state; per kind, the states with one."""
    fired = dict.fromkeys(chains._ALT_KINDS, 0)
    for i, cg in enumerate(cgs):
        geo = geometry(cg.shape)
        for name in chains._ALT_KINDS:
            fast = chains._core_found(cg, geo, name)
            assert fast is not None
            want = chains._alt_found(geo, cg.masks, name, None)
            assert fast == want, (name, i, cg.masks)
            fired[name] += bool(want)
    return fired


def test_chains_equal_on_path_states() -> None:
    fired = _compare(path_states()[::6])
    assert all(v >= 10 for v in fired.values()), fired


@pytest.mark.parametrize(
    ("shape", "count"),
    [
        (Shape(2, 2), sweep(20, 100)),
        (Shape(2, 3), sweep(12, 80)),
        (Shape(3, 3), sweep(12, 100)),
        (Shape(3, 3, diagonals=True), sweep(6, 40)),
        (Shape(3, 3, windoku=True), sweep(6, 40)),
        (jigsaw_shape(), sweep(6, 40)),
        (Shape(4, 4), sweep(3, 12)),
        (None, sweep(8, 60)),
    ],
    ids=["4x4", "6x6", "9x9", "diagonals", "windoku", "jigsaw", "16x16", "noise"],
)
def test_chains_equal_on_random_states(shape: Shape | None, count: int) -> None:
    if shape is None:
        fired = _compare(noise_states(count, seed=5))
    else:
        fired = _compare(emptied_states(shape, count, seed=shape.ncells + 3))
    assert any(fired.values()), fired


@pytest.mark.parametrize("name", sorted(FINDERS))
def test_finders_give_the_same_steps_with_either_backend(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    finder = FINDERS[name]
    every = path_states()[::12] + list(emptied_states(Shape(3, 3), 6, seed=2))
    fast = [step_key(finder(cg.copy())) for cg in every]
    python_twins(monkeypatch)
    assert [step_key(finder(cg.copy())) for cg in every] == fast
    assert sum(bool(k) for k in fast) >= 5


def test_aic_with_pair_relations_stays_in_python() -> None:
    shape = Shape(3, 3, constraints=Constraints(white=[(0, 1)]))  # type: ignore[arg-type]
    cg = CandidateGrid.from_grid(Grid.empty(shape))
    geo = geometry(shape)
    assert geo.pairs is not None
    assert chains._core_found(cg, geo, "AIC") is None
    assert chains._core_found(cg, geo, "X-Chain") is not None
