"""The C core's Aligned Pair / Triple Exclusion search (``_core.Exclusion``, csrc/sk_excl.c)
against its Python specification (``exclusion._search`` with the incremental search of
:mod:`sudokit.logic._delta`).

Both run over the same sequences of candidate states, each with its own remembered states
(so the incremental paths are taken), and must yield the same steps: technique, removals,
text, cells, highlights, in the same order, every step of each state (the C search resumes
after each step from a cursor). The states:

* the rating path's calls: the states at which ``sudokit.rate`` asks the two finders for a
  step, recorded on puzzles of the shipped logic set, in call order and shuffled (the
  incremental rule holds for any two states);
* random consistent states of 9x9 puzzles (wrong candidates removed at random), where the
  techniques fire often;
* random states of other shapes: 4x4, 6x6, diagonals, windoku, jigsaw, anti-knight (extra
  peers), 16x16 and 25x25 (cell sets of several words; the binding's heap path), 36x36 and
  64x64 (candidate masks beyond 32 bits, cell sets of 21 and 64 words).

The C search must also give the same steps with its incremental path switched off, and the
binding must refuse bad arguments with a clear error.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial

import pytest

import sudokit
import sudokit.rating
import support
from sudokit.grid import Grid
from sudokit.logic import _delta, exclusion
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.registry import Technique
from sudokit.logic.step import Step
from sudokit.shape import Shape
from support.shapes import by_shape
from support.states import pattern_solved

DATA = support.DATA / "logic_puzzles.txt"
#: A 9x9 jigsaw region map (from tests/data/corpus.txt).
pytestmark = pytest.mark.skipif(
    exclusion._engine(Shape(3, 3)) is None, reason="the C core (with Exclusion) is not in use"
)

Key = tuple[object, ...]
Finder = Callable[[CandidateGrid, int], Iterator[Step]]


def _key(step: Step) -> Key:
    return (step.technique, step.rating, step.eliminations, step.text, step.cells, step.highlights)


def _python(cg: CandidateGrid, degree: int) -> Iterator[Step]:
    """The Python search, incremental as the finders are."""
    single = any(not m & (m - 1) for m in cg.masks if m)
    since = exclusion._SINCE[degree]
    search = partial(exclusion._search, degree=degree)
    return _delta.incremental(since, search, cg, not single)


def _c(cg: CandidateGrid, degree: int) -> Iterator[Step]:
    return exclusion._c_search(exclusion._engine(cg.shape), cg, degree)


def _run(
    finder: Finder, calls: list[tuple[int, CandidateGrid]], monkeypatch: pytest.MonkeyPatch
) -> list[list[Key]]:
    """Every step of *finder* on each call ``(degree, state)``, in order, from fresh
    remembered states."""
    monkeypatch.setattr(exclusion, "_SINCE", {2: _delta.Since(), 3: _delta.Since()})
    return [[_key(s) for s in finder(cg.copy(), degree)] for degree, cg in calls]


def _compare(calls: list[tuple[int, CandidateGrid]], monkeypatch: pytest.MonkeyPatch) -> int:
    """Assert the two searches agree on *calls*; the number of calls with a step."""
    want = _run(_python, calls, monkeypatch)
    got = _run(_c, calls, monkeypatch)
    for (degree, cg), w, g in zip(calls, want, got, strict=True):
        assert g == w, (degree, cg.masks)
    return sum(map(bool, want))


# -- the states --------------------------------------------------------------------------------


def _puzzles() -> list[str]:
    return [ln.split()[0] for ln in DATA.read_text().splitlines() if ln and ln[0] != "#"]


@pytest.fixture(scope="module")
def path_calls() -> list[tuple[int, CandidateGrid]]:
    """The (degree, state) of every call of the exclusion finders while rating puzzles of the
    logic set that reach them (the first 40 such puzzles, a 2 s budget each)."""
    calls: list[tuple[int, CandidateGrid]] = []
    original = sudokit.rating.rating_techniques

    def record(t: Technique, degree: int) -> Technique:
        def finder(cg: CandidateGrid) -> Iterator[Step]:
            calls.append((degree, cg.copy()))
            return t.finder(cg)

        return t._replace(finder=finder)

    def techniques(*args: object, **kwargs: object) -> list[Technique]:
        out = []
        for t in original(*args, **kwargs):  # type: ignore[arg-type]
            if t.name == "Aligned Pair Exclusion":
                t = record(t, 2)
            elif t.name == "Aligned Triple Exclusion":
                t = record(t, 3)
            out.append(t)
        return out

    reached = 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sudokit.rating, "rating_techniques", techniques)
        for puzzle in _puzzles():
            before = len(calls)
            sudokit.rate(puzzle, budget_s=2.0)
            reached += len(calls) > before
            if reached >= 40:
                break
    return calls


def _thinned(
    shape: Shape, solution: list[int], rng: random.Random, count: int
) -> list[CandidateGrid]:
    """*count* consistent states of *shape*: the solution's digit of each cell plus a random
    one and each other digit with a small random chance (many cells with 2-3 candidates, few
    with a single one, which would stop every base cell it sees), some cells solved (no
    candidate)."""
    n = shape.n
    out = []
    for _ in range(count):
        share = rng.uniform(0.08, 0.45) * min(1.0, 9 / n)
        masks = []
        for cell in range(shape.ncells):
            if rng.random() < 0.2:
                masks.append(0)
                continue
            keep = 1 << (solution[cell] - 1) | 1 << rng.randrange(n)
            for d in range(n):
                if rng.random() < share:
                    keep |= 1 << d
            masks.append(keep)
        out.append(CandidateGrid.from_masks(shape, [0] * shape.ncells, masks))
    return out


def _random_calls(shape: Shape, count: int, seed: int) -> list[tuple[int, CandidateGrid]]:
    solved = next(sudokit.solutions(Grid.parse("." * shape.ncells, shape=shape), limit=1))
    rng = random.Random(seed)
    states = _thinned(shape, list(solved.cells), rng, count)
    return [(degree, cg) for cg in states for degree in (2, 3)]


# -- parity ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_rating_path_calls(
    path_calls: list[tuple[int, CandidateGrid]], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(path_calls) >= 200
    fired = _compare(path_calls, monkeypatch)
    assert fired >= 3, "the path should reach a few exclusion steps"
    shuffled = path_calls[:]
    random.Random(16).shuffle(shuffled)
    _compare(shuffled, monkeypatch)


@pytest.mark.slow
def test_random_9x9_states(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, CandidateGrid]] = []
    rng = random.Random(9)
    for puzzle in _puzzles()[:30]:
        solution = sudokit.solution(Grid.parse(puzzle))
        assert solution is not None
        calls += [
            (d, cg) for cg in _thinned(Shape(3, 3), list(solution.cells), rng, 3) for d in (2, 3)
        ]
    # in order, then each state mutated a little (small deltas: the incremental paths)
    walk = []
    for degree, cg in calls[::2]:
        masks = cg.masks[:]
        for _ in range(3):
            walk.append((degree, CandidateGrid.from_masks(cg.shape, [0] * 81, masks[:])))
            cell = rng.randrange(81)
            if masks[cell] & (masks[cell] - 1):
                masks[cell] &= masks[cell] - 1
    assert _compare(calls, monkeypatch) >= 40
    assert _compare(walk, monkeypatch) >= 20


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shape", "count"),
    by_shape(
        {
            "4x4": 40,
            "6x6": 40,
            "diagonals": 20,
            "windoku": 20,
            "jigsaw": 20,
            "antiknight": 20,
            "16x16": 6,
            "25x25": 2,
        }
    ),
)
def test_other_shapes(shape: Shape, count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fired = _compare(_random_calls(shape, count, seed=shape.n), monkeypatch)
    assert fired > 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shape", "share"), [(Shape(6, 6), 0.5), (Shape(8, 8), 0.3)], ids=["36x36", "64x64"]
)
def test_shapes_beyond_32_digits(
    shape: Shape, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """36x36 and 64x64 states: the first two bands partly empty, each empty cell holding its
    solution's digit and one or two of a few digits above 32 (masks beyond 32 bits; cell sets
    of 21 and 64 words), in order with the remembered states (the incremental paths)."""
    rng = random.Random(shape.n)
    solution = pattern_solved(shape, rng).cells
    n = shape.n
    calls = []
    for _ in range(3):
        pool = rng.sample(range(n // 2, n), 4 if share < 0.5 else 6)
        masks = [0] * shape.ncells
        for c in range(2 * shape.box_rows * n):
            if rng.random() < share:
                masks[c] = 1 << (solution[c] - 1)
                for _ in range(rng.choice((1, 1, 2))):
                    masks[c] |= 1 << rng.choice(pool)
        calls += [(d, CandidateGrid.from_masks(shape, [0] * shape.ncells, masks)) for d in (2, 3)]
    assert _compare(calls, monkeypatch) >= 3


def test_incremental_equals_full(
    path_calls: list[tuple[int, CandidateGrid]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the C search limited to what changed since a remembered state against full C searches
    fast = _run(_c, path_calls, monkeypatch)
    monkeypatch.setattr(_delta.Since, "remembered", lambda self, cg: None)
    assert _run(_c, path_calls, monkeypatch) == fast


def test_the_calls_take_the_incremental_paths(
    path_calls: list[tuple[int, CandidateGrid]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the comparisons above are worth something only if the remembered states are used
    used = []
    real = _delta.Since.remembered

    def remembered(self: _delta.Since, cg: CandidateGrid) -> tuple[int, ...] | None:
        got = real(self, cg)
        used.append(got is not None)
        return got

    monkeypatch.setattr(_delta.Since, "remembered", remembered)
    _run(_c, path_calls, monkeypatch)
    assert sum(used) >= len(used) // 2


def test_python_backend_has_no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    support.python_twins(monkeypatch)
    assert exclusion._engine(Shape(3, 3)) is None
    monkeypatch.undo()
    assert exclusion._engine(Shape(3, 3)) is not None


# -- the binding -------------------------------------------------------------------------------


def test_binding_refuses_bad_arguments() -> None:
    from sudokit import _core

    shape = Shape(2, 2)
    with pytest.raises(ValueError, match="n must be"):
        _core.Exclusion(0, shape.peers)
    with pytest.raises(ValueError, match="itself"):
        _core.Exclusion(4, ((0,), *shape.peers[1:]))
    with pytest.raises(ValueError, match="peers"):
        _core.Exclusion(4, ((16,), *shape.peers[1:]))
    with pytest.raises(TypeError):
        _core.Exclusion(4, 5)
    engine = _core.Exclusion(4, shape.peers)
    full = [15] * 16
    assert engine.find(full, 2, None, 0) is True
    assert engine.find([1, *full[1:]], 3, None, 0) is False  # a single: not remembered
    with pytest.raises(ValueError, match="masks must hold 16"):
        engine.find(full[:-1], 2, None, 0)
    with pytest.raises(ValueError, match=r"masks\[3\]"):
        engine.find([*full[:3], 16, *full[4:]], 2, None, 0)
    with pytest.raises(ValueError, match="degree"):
        engine.find(full, 4, None, 0)
    with pytest.raises(ValueError, match="cursor"):
        engine.find(full, 2, None, -1)
    with pytest.raises(ValueError, match="before must hold"):
        engine.find(full, 2, full[:2], 0)
    with pytest.raises(TypeError):
        engine.find(full, 2, None)
    # a cursor past the end finds nothing more
    assert engine.find(full, 3, None, 1 << 40) is True
