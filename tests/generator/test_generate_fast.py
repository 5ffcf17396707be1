"""The fast generation path (its Python round trips were half a puzzle's cost): ``Engine.fill``
(phase 1 in the C core, ``sk_fill``) and the removal pass with necessity witnesses (``sk_reduce``).

Parity: the native fill draws the same numbers from the caller's generator and makes the
same decisions as the Python loop of ``generator.fill._fill`` (its specification): same
puzzle, solution, search count and generator state afterwards, on every shape and symmetry
the unguided fill serves, with and without a search cap. Independent checks of what
``generate`` makes (minimal 9x9, the default): exactly one solution (the reference solver),
every clue necessary (each removal gives a second solution, counted by the reference
solver), the same puzzles for the same seed, symmetric clue positions when asked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from sudokit import _backend, _reference
from sudokit.generator import derive_seed, generate, generate_many, is_symmetric
from sudokit.generator.fill import _fill
from sudokit.generator.search import _Counter, _OutOfBudget, search_budget, shuffled
from sudokit.generator.symmetry import orbits
from sudokit.grid import Grid
from sudokit.shape import Shape
from support import require_c_backend


class _LoopOnly:
    """An engine that delegates everything but ``fill``: the generator then runs its Python
    loop (the specification) over the same searches."""

    name = "c-loop"

    def __init__(self, inner: _backend.Engine) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    def fill(self, *args: object) -> None:
        return None

    def random_puzzle(self, *args: object) -> None:
        return None


@pytest.fixture
def c_engine() -> _backend.Engine:
    require_c_backend()
    from sudokit._cengine import CEngine

    return CEngine()


CASES = [
    (Shape(3, 3), "none"),
    (Shape(3, 3), "rot180"),
    (Shape(3, 3), "dihedral"),
    (Shape(3, 3), "mirror-tb"),
    (Shape(3, 3, diagonals=True), "none"),
    (Shape(2, 2), "none"),
    (Shape(2, 3), "rot180"),
    (Shape(2, 4), "none"),
]


def _run_fill(
    engine: _backend.Engine, shape: Shape, symmetry: str, seed: int, budget: int = 0
) -> tuple[object, int, float]:
    """(what _fill returned or "budget", searches, the generator's next draw)."""
    rng = random.Random(seed)
    counter = _Counter(engine, shape, budget, search_budget(shape))
    order = shuffled(orbits(shape, symmetry), rng)
    try:
        got: object = _fill(shape, order, rng, counter, complete_orbits=symmetry != "none")
    except _OutOfBudget:
        got = "budget"
    return got, counter.searches, rng.random()


@pytest.mark.parametrize(("shape", "symmetry"), CASES, ids=lambda c: str(c))
def test_native_fill_is_the_python_loop(
    c_engine: _backend.Engine, shape: Shape, symmetry: str
) -> None:
    loop = _LoopOnly(c_engine)
    for seed in range(60):
        native = _run_fill(c_engine, shape, symmetry, seed)
        spec = _run_fill(loop, shape, symmetry, seed)  # type: ignore[arg-type]
        assert native == spec, (shape, symmetry, seed)
        got = native[0]
        assert isinstance(got, tuple)
        assert got[1] is not None
        puzzle, solution = got
        # independent: the solution is the only one (reference solver) and fits the clues
        count, sols, _, _ = _reference.search(shape, bytes(puzzle), 2, 1, 0)
        assert count == 1
        assert bytes(sols[0]) == solution
        if symmetry != "none":
            assert is_symmetric(Grid(bytes(puzzle), shape), symmetry)


def test_native_fill_stops_at_the_same_search_budget(c_engine: _backend.Engine) -> None:
    loop = _LoopOnly(c_engine)
    for seed in range(30):
        for budget in (1, 3, 8, 15, 25):
            native = _run_fill(c_engine, Shape(3, 3), "none", seed, budget)
            spec = _run_fill(loop, Shape(3, 3), "none", seed, budget)  # type: ignore[arg-type]
            assert native == spec, (seed, budget)


def test_generate_same_puzzles_with_the_python_loop(
    c_engine: _backend.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole runs (minimal, symmetric, clue range, difficulty): the same puzzles either way."""
    from sudokit._cengine import CEngine

    options: list[dict[str, object]] = [
        {},
        {"symmetry": "rot180"},
        {"clues": (24, 27)},
        {"size": 6},
        {"difficulty": "easy"},
    ]
    fast = {str(o): [str(p.puzzle) for p in generate_many(40, seed=9, **o)] for o in options}
    monkeypatch.setattr(CEngine, "fill", lambda self, *args: None)
    monkeypatch.setattr(CEngine, "random_puzzle", lambda self, *args: None)
    for o in options:
        assert [str(p.puzzle) for p in generate_many(40, seed=9, **o)] == fast[str(o)], o


ATTEMPTS = [
    ("none", {}),
    ("rot180", {"symmetry": "rot180"}),
    ("dihedral", {"symmetry": "dihedral"}),
    ("clues 20-22", {"clues": (20, 22)}),
    ("X", {"diagonals": True}),
    ("6x6", {"size": 6}),
]


@pytest.mark.parametrize(("name", "options"), ATTEMPTS, ids=[a[0] for a in ATTEMPTS])
def test_native_attempt_is_the_python_steps(
    c_engine: _backend.Engine, name: str, options: dict[str, object]
) -> None:
    """One attempt (shuffle, fill, shuffle, removal pass, then descents or minimality
    checks): the same result, searches and generator state with the native call."""
    from sudokit.generator.options import GenerateOptions
    from sudokit.generator.puzzle import _attempt

    plan = GenerateOptions(**options).plan  # type: ignore[arg-type]
    loop = _LoopOnly(c_engine)
    for seed in range(25):
        for budget in (0, 20, 45):
            outs = []
            for engine in (c_engine, loop):
                rng = random.Random(seed)
                counter = _Counter(engine, plan.shape, budget, search_budget(plan.shape))  # type: ignore[arg-type]
                try:
                    got: object = _attempt(plan, plan.shape, rng, counter)
                except _OutOfBudget:
                    got = "budget"
                outs.append((got, counter.searches, rng.random()))
            assert outs[0] == outs[1], (name, seed, budget)


def _count(shape: Shape, cells: bytes) -> int:
    return _reference.search(shape, cells, 2, 0, 0)[0]


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_generated_minimal_puzzles_are_unique_and_minimal() -> None:
    """Checked with the reference solver only, clue by clue."""
    for p in generate_many(25, seed=15):
        cells = p.puzzle.cells
        shape = p.puzzle.shape
        assert p.minimal
        assert _count(shape, cells) == 1
        assert p.solution.is_solution(p.puzzle)
        for i, v in enumerate(cells):
            if v:
                fewer = bytearray(cells)
                fewer[i] = 0
                assert _count(shape, bytes(fewer)) == 2, (str(p.puzzle), i)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_same_seed_same_puzzles_and_shards() -> None:
    run = [str(p.puzzle) for p in generate_many(30, seed=4)]
    assert run == [str(p.puzzle) for p in generate_many(30, seed=4)]
    assert run[10:20] == [str(generate(seed=derive_seed(4, j)).puzzle) for j in range(10, 20)]
    assert len(set(run)) == len(run)


@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "dihedral", "diagonal"])
def test_symmetry_respected(symmetry: str) -> None:
    for p in generate_many(10, seed=6, symmetry=symmetry):
        assert is_symmetric(p.puzzle, symmetry)
        assert _count(p.puzzle.shape, p.puzzle.cells) == 1


def _core_fill(
    order: Sequence[int], ends: Sequence[int] | None, draw: Callable[[], object]
) -> object:
    from sudokit import _core
    from sudokit._cengine import geometry

    return _core.fill(geometry(Shape(3, 3)), order, ends, draw, 0)  # type: ignore[arg-type]


def test_fill_binding_refuses_bad_arguments(c_engine: _backend.Engine) -> None:
    rng = random.Random(1)
    with pytest.raises(TypeError, match="draw must be callable"):
        _core_fill(range(81), None, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"draw\(\) must return a float in \[0, 1\)"):
        _core_fill(range(81), None, lambda: 1.0)
    with pytest.raises(TypeError):
        _core_fill(range(81), None, lambda: "x")

    def boom() -> float:
        raise KeyError("draw failed")

    with pytest.raises(KeyError, match="draw failed"):
        _core_fill(range(81), None, boom)
    with pytest.raises(ValueError, match="ends must hold one entry per cell"):
        _core_fill(range(81), [81] * 80, rng.random)
    with pytest.raises(ValueError, match="order"):
        _core_fill([0, 81], None, rng.random)
    with pytest.raises(ValueError, match="invalid fill arguments"):
        _core_fill([0, 0], None, rng.random)  # a cell twice
    with pytest.raises(ValueError, match="invalid fill arguments"):
        _core_fill([0, 1], [0, 2], rng.random)  # an orbit ending before its cell


def test_fill_of_an_empty_order_is_full(c_engine: _backend.Engine) -> None:
    puzzle, solution, searches, complete = c_engine.fill(  # type: ignore[misc]
        Shape(3, 3), [], None, random.Random(1).random, 0
    )
    assert (puzzle, solution, searches, complete) == (bytes(81), None, 0, True)


def test_random_puzzle_binding_refuses_bad_orbits(c_engine: _backend.Engine) -> None:
    from sudokit import _core
    from sudokit._cengine import geometry

    geo = geometry(Shape(3, 3))
    draw = random.Random(2).random
    with pytest.raises(ValueError, match="ends must end at len"):
        _core.random_puzzle(geo, range(81), [], False, draw, 0)
    with pytest.raises(ValueError, match="ends must end at len"):
        _core.random_puzzle(geo, range(81), [40], False, draw, 0)
    with pytest.raises(ValueError, match="invalid random_puzzle arguments"):
        _core.random_puzzle(geo, range(81), [40, 40, 81], False, draw, 0)  # an empty orbit
    calls = []

    def counted() -> float:
        calls.append(1)
        return 0.5

    with pytest.raises(ValueError, match="invalid random_puzzle arguments"):
        _core.random_puzzle(geo, [0, 0], [1, 2], False, counted, 0)  # a cell twice
    assert not calls  # refused before any draw
    with pytest.raises(TypeError, match="draw must be callable"):
        _core.random_puzzle(geo, range(81), range(1, 82), False, None, 0)  # type: ignore[arg-type]
