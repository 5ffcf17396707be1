"""The rating's speed-ups outside the chaining engine give exactly the steps of a full search.

* The incremental finders (:mod:`sudokit.logic._delta`: intersections and the direct ones,
  subsets, direct hidden sets, basic fish, unique rectangles, aligned exclusion; and, of the
  techniques SE lacks that hints and explanations use, finned fish, the single-digit
  patterns, X-Chains by digit and the Python ALS-XZ by pairs of sets) search only
  around the cells changed since the last state on which they found nothing. Run over a
  sequence of candidate states (in path order, and shuffled: the rule holds for any two
  states), each must yield the same steps as the full search (``Since.remembered``, and so
  ``Since.changed``, patched to always answer "no remembered state").
* The unique-loop pre-check (``uniqueness._room``) must not lose a loop: the same loops with
  the pre-check replaced by "every cell".
* The BUG cells read with bit operations (``uniqueness._bug_extras``) equal the plain reading
  (a list of places per unit and digit) kept below.

The states: the easiest-first paths of shipped puzzles with the techniques outside the chaining
engine (a solution digit is placed where they are stuck, so the walk reaches late states too),
copies with random candidates removed (so that the rarer techniques fire), and a few random
grids holding a hidden quad.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest

from sudokit.grid import Grid
from sudokit.logic import _delta, als, chains, fish, single_digit, uniqueness
from sudokit.logic.candidates import CandidateGrid, bits
from sudokit.logic.step import Step
from sudokit.rating import solve_logically
from support import LOGIC_PUZZLES, python_twins
from support.states import FINDERS, path_states, step_key


@pytest.fixture(scope="module")
def states() -> list[CandidateGrid]:
    return path_states()


def _run(
    finder: Callable[[CandidateGrid], Iterable[Step]], states: list[CandidateGrid]
) -> list[list[tuple[object, ...]]]:
    return [step_key(finder(cg.copy())) for cg in states]


#: The incremental finders of the techniques SE lacks (slower: tried on every third state).
EXPLAIN_FINDERS: dict[str, Callable[[CandidateGrid], Iterable[Step]]] = {
    "finned x-wing": fish.finned_x_wing,
    "finned swordfish": fish.finned_swordfish,
    "finned jellyfish": fish.finned_jellyfish,
    "skyscraper": single_digit.skyscraper,
    "2-string kite": single_digit.two_string_kite,
    "turbot fish": single_digit.turbot_fish,
    "empty rectangle": single_digit.empty_rectangle,
    "simple colouring": single_digit.simple_colouring,
    "x-chain": chains.x_chains,
    "als-xz": als.als_xz,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FINDERS) + sorted(EXPLAIN_FINDERS))
def test_incremental_finder_equals_full_search(
    name: str, states: list[CandidateGrid], monkeypatch: pytest.MonkeyPatch
) -> None:
    python_twins(monkeypatch)  # the incremental Python searches
    finder = FINDERS.get(name) or EXPLAIN_FINDERS[name]
    narrowed: list[bool] = []
    if name == "als-xz":
        # ~10 ms a state in Python; its narrowed search needs a state where it found nothing
        # and a later one of the same path: the explanation's states of a puzzle that takes
        # chains (those of path_walk, without ALS-XZ, nearly all hold one)
        states = _explain_states(_puzzles()[73])
        only_removed = als.only_removed
        monkeypatch.setattr(
            als, "only_removed", lambda cg, d: narrowed.append(only_removed(cg, d)) or narrowed[-1]
        )
    elif name in EXPLAIN_FINDERS:
        states = states[::3]
    shuffled = states[:]
    random.Random(name).shuffle(shuffled)
    fast = _run(finder, states)
    fast_shuffled = _run(finder, shuffled)
    monkeypatch.setattr(_delta.Since, "remembered", lambda self, cg: None)  # and so changed
    full = _run(finder, states)
    full_shuffled = _run(finder, shuffled)
    assert fast == full
    assert fast_shuffled == full_shuffled
    assert sum(map(bool, full)) >= 3, "the states should make the finder fire a few times"
    assert name != "als-xz" or sum(narrowed) >= 5, narrowed


def _explain_states(puzzle: str) -> list[CandidateGrid]:
    """The states of *puzzle*'s explanation before each of its steps but the singles."""
    path, _ = solve_logically(puzzle)
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    out = []
    for step in path.steps:
        if step.technique not in ("Full House", "Hidden Single", "Naked Single"):
            out.append(cg.copy())
        cg.apply(step)
    return out


def _puzzles() -> list[str]:
    lines = LOGIC_PUZZLES.read_text().splitlines()
    return [ln.split()[0] for ln in lines if ln and ln[0] != "#"]


def test_the_states_take_the_incremental_paths(states: list[CandidateGrid]) -> None:
    # a search limited to the changed cells must really happen (a remembered state, and
    # changes of a few cells), or the comparison above compares full searches only
    seen: list[int] = []
    since = _delta.Since()

    def search(cg: CandidateGrid, delta: _delta.Delta | None) -> Iterable[Step]:
        if delta is not None:
            seen.append(delta.cells.bit_count())
        return iter(())

    for cg in states:
        list(_delta.incremental(since, search, cg))
    assert len(seen) == len(states) - 1
    assert sum(1 for k in seen if 0 < k <= 6) >= len(seen) // 4


def test_room_keeps_every_unique_loop(
    states: list[CandidateGrid], monkeypatch: pytest.MonkeyPatch
) -> None:
    pruned = [list(uniqueness.loops(cg)) for cg in states]
    monkeypatch.setattr(uniqueness, "_room", lambda shape, cells: cells)
    plain = [list(uniqueness.loops(cg)) for cg in states]
    assert pruned == plain
    assert sum(map(bool, plain)) >= 5


def _plain_bug_extras(cg: CandidateGrid) -> dict[int, int] | None:
    """The BUG cells as the plain reading finds them (the finder's code before the bit
    operations)."""
    masks = cg.masks
    shape = cg.shape
    extra: dict[int, int] = {}
    for unit in shape.units:
        for d in range(1, shape.n + 1):
            bit = 1 << (d - 1)
            pos = [c for c in unit if masks[c] & bit]
            if len(pos) in (0, 2):
                continue
            big = [c for c in pos if masks[c].bit_count() >= 3]
            if not big:
                return None
            if len(big) == 1:
                extra[big[0]] = extra.get(big[0], 0) | bit
    # without the extra digits: two candidates in every empty cell, two places everywhere
    temp = [m & ~extra.get(c, 0) for c, m in enumerate(masks)]
    if not extra or any(len(bits(m)) not in (0, 2) for m in temp):
        return None
    for unit in shape.units:
        for d in range(1, shape.n + 1):
            if sum(1 for c in unit if temp[c] >> (d - 1) & 1) not in (0, 2):
                return None
    return extra


def test_bug_cells_equal_the_plain_reading(states: list[CandidateGrid]) -> None:
    rng = random.Random(3)
    # near-BUG states: every cell cut to two candidates (the solution's and one more), then
    # a few cells given one back, so that the pattern checks run past their first test
    near = []
    for cg in states[::3]:
        masks = cg.masks[:]
        for c, m in enumerate(masks):
            ds = bits(m)
            if len(ds) > 2:
                keep = rng.sample(ds, 3 if rng.random() < 0.05 else 2)
                masks[c] = sum(1 << (d - 1) for d in keep)
        near.append(CandidateGrid(cg.shape, cg.values[:], masks))
    every = states + near
    got = [uniqueness._bug_extras(cg) for cg in every]
    assert got == [_plain_bug_extras(cg) for cg in every]
    assert any(g for g in got)
