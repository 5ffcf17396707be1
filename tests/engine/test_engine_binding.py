"""The C binding ``sudokit._core``: malformed input is refused with clear exceptions, the
``.pyi`` stub matches the module, and CI really runs the C backend."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import sudokit
from sudokit.shape import Shape
from support import REQUIRE_C, require_c_backend, run_text

STUB = Path(sudokit.__file__).with_name("_core.pyi")


@pytest.fixture
def core() -> ModuleType:
    require_c_backend()
    from sudokit import _core

    return _core


@pytest.fixture
def geo9(core: ModuleType) -> Any:
    from sudokit._cengine import geometry

    return geometry(Shape(3, 3))


def test_c_backend_is_loaded_when_required() -> None:
    """Under SUDOKIT_REQUIRE_C=1 (CI) the C core is the engine in use, compiled, not a stub."""
    if not REQUIRE_C:
        pytest.skip("SUDOKIT_REQUIRE_C is not 1")
    assert os.environ.get("SUDOKIT_BACKEND", "") != "python"
    assert sudokit.BACKEND == "c"
    from sudokit import _backend, _core

    assert _backend.engine().name == "c"
    assert Path(_core.__file__).suffix in (".so", ".pyd")
    found = _backend.engine().search(Shape(2, 2), bytes(16), 1000, 0, 0)
    assert found.count == 288


# -- malformed input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "exc", "message"),
    [
        ((bytes(80), 2, 1, 0), ValueError, "cells must hold 81 values"),
        ((bytes(82), 2, 1, 0), ValueError, "cells must hold 81 values"),
        ((bytes([10]) + bytes(80), 2, 1, 0), ValueError, "cell 0 has value 10"),
        ((bytes(80) + bytes([255]), 2, 1, 0), ValueError, "cell 80 has value 255"),
        ((bytes(81), 0, 1, 0), ValueError, "limit must be >= 1"),
        ((bytes(81), -3, 1, 0), ValueError, "limit must be >= 1"),
        ((bytes(81), 2**70, 1, 0), ValueError, "limit is too large"),
        ((bytes(81), 2, -1, 0), ValueError, "keep must be >= 0"),
        ((bytes(81), 2, 1, -1), ValueError, "budget must be >= 0"),
        ((bytes(81), 2.0, 1, 0), TypeError, "limit must be an int"),
        ((bytes(81), True, 1, 0), TypeError, "limit must be an int"),
        ((bytearray(81), 2, 1, 0), TypeError, "cells must be bytes"),
        (("." * 81, 2, 1, 0), TypeError, "cells must be bytes"),
        (([0] * 81, 2, 1, 0), TypeError, "cells must be bytes"),
        ((None, 2, 1, 0), TypeError, "cells must be bytes"),
        ((bytes(81), 10**9, 10**9, 0), ValueError, "exceed"),
    ],
)
def test_search_refuses_malformed_input(
    core: ModuleType, geo9: Any, args: tuple[Any, ...], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=message):
        core.search(geo9, *args)


def test_search_argument_count_and_geometry(core: ModuleType, geo9: Any) -> None:
    with pytest.raises(TypeError, match="takes 5 arguments"):
        core.search(geo9, bytes(81), 2, 1)
    with pytest.raises(TypeError, match=r"geometry must be a sudokit\._core\.Geometry"):
        core.search(Shape(3, 3), bytes(81), 2, 1, 0)
    with pytest.raises(TypeError, match="takes 5 arguments"):
        core.search_batch(geo9, bytes(81))
    with pytest.raises(TypeError, match="geometry must be"):
        core.search_batch(None, bytes(81), 2, 0, 1)


@pytest.mark.parametrize(
    ("args", "exc", "message"),
    [
        ((bytes(80), 2, 0, 1), ValueError, "multiple of 81"),
        ((bytes(81 * 3 - 1), 2, 0, 1), ValueError, "multiple of 81"),
        (
            (bytes(81) + bytes(80) + bytes([12]), 2, 0, 1),
            ValueError,
            "puzzle 1, cell 80 has value 12",
        ),
        ((bytes(81), 0, 0, 1), ValueError, "limit must be >= 1"),
        ((bytes(81), 2, -1, 1), ValueError, "budget must be >= 0"),
        ((bytes(81), 2, 0, -1), ValueError, "threads must be >= 0"),
        ((bytearray(81), 2, 0, 1), TypeError, "puzzles must be bytes"),
        ((memoryview(bytes(81)), 2, 0, 1), TypeError, "puzzles must be bytes"),
    ],
)
def test_batch_refuses_malformed_input(
    core: ModuleType, geo9: Any, args: tuple[Any, ...], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=message):
        core.search_batch(geo9, *args)


def test_batch_refuses_huge_batches(core: ModuleType) -> None:
    """More than MAX_BATCH puzzles is refused before any work (1x1 puzzles keep this cheap)."""
    from sudokit._cengine import geometry

    tiny = geometry(Shape(1, 1))
    with pytest.raises(ValueError, match="larger than the maximum"):
        core.search_batch(tiny, bytes(core.MAX_BATCH + 1), 1, 0, 1)


def test_many_threads_are_capped(core: ModuleType, geo9: Any) -> None:
    counts, _, _, complete = core.search_batch(geo9, bytes(81 * 3), 2, 0, 10**6)
    assert counts == [2, 2, 2]
    assert complete == [True] * 3


def test_batch_calls_on_many_threads_share_the_workspaces(core: ModuleType, geo9: Any) -> None:
    """search_batch and search_items take the calling thread's workspace from the geometry's
    pool (4 kept) and give it back, as search does: more Python threads than that, calling
    all three on one geometry at once (the GIL released while they search), still get right
    answers (each solution checked, counts equal to those of a call on its own)."""
    from concurrent.futures import ThreadPoolExecutor

    from sudokit.grid import Grid, digit_table
    from sudokit.solver import _RECORD_SPECS
    from support import CORPUS

    nine = Shape(3, 3)
    cases = [c for c in CORPUS if c.shape == nine and not c.invalid][:12]
    assert len(cases) >= 4
    expected = [core.search(geo9, c.puzzle.cells, 2, 0, 0)[0] for c in cases]
    assert expected == [min(c.count, 2) for c in cases]
    table, spec = digit_table(9), _RECORD_SPECS[1]

    def work(seed: int) -> list[tuple[int, ...]]:
        rounds = []
        for r in range(30):
            k = (seed + r) % len(cases)
            one = cases[k].puzzle
            counts, sols, _, done = core.search_batch(geo9, one.cells, 2, 0, 1 + r % 2)
            assert done == [True]
            if counts[0]:
                assert Grid(sols, nine).is_solution(one)
            [record], rest, pending = core.search_items(
                geo9, nine, (str(one),), table, Grid, 2, 0, 1, spec
            )
            assert pending == []
            if record is not None:
                assert record.solution.is_solution(one)
            count = record.count if record is not None else rest[0][2]
            alone = core.search(geo9, one.cells, 2, 1, 0)[0]
            rounds.append((k, counts[0], count, alone))
        return rounds

    with ThreadPoolExecutor(max_workers=7) as pool:
        for rounds in pool.map(work, range(7)):
            for k, *counts in rounds:
                assert counts == [expected[k]] * 3


@pytest.mark.parametrize(
    ("n", "units", "exc", "message"),
    [
        (0, [[0]], ValueError, "size n must be in 1..64"),
        (65, [[0]], ValueError, "size n must be in 1..64"),
        (2, [], ValueError, "expected 1..24 units"),
        (2, [[0, 1]] * 25, ValueError, "expected 1..24 units"),
        (2, [[0, 1, 2]], ValueError, "unit 0 has 3 cells, expected 2"),
        (2, [[0, 4]], ValueError, r"cell index 4 is outside 0..3"),
        (2, [[0, -1]], ValueError, r"cell index -1 is outside"),
        (2, [[1, 1]], ValueError, "distinct cells"),
        (2, [[0, "a"]], TypeError, "integer"),
        (2, [[0, 2**80]], OverflowError, "too large"),
        (2, 5, TypeError, "units must be a sequence"),
        (2, [5], TypeError, "each unit must be a sequence"),
    ],
)
def test_geometry_refuses_malformed_units(
    core: ModuleType, n: int, units: Any, exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=message):
        core.Geometry(n, units)


def test_geometry_is_immutable(core: ModuleType, geo9: Any) -> None:
    with pytest.raises(TypeError, match="immutable"):
        geo9.__init__(9, Shape(3, 3).units)
    with pytest.raises(AttributeError):
        geo9.n = 4
    assert (geo9.n, geo9.ncells, geo9.nunits, geo9.standard9) == (9, 81, 27, True)
    assert not core.Geometry(9, Shape(3, 3).units, generic=True).standard9
    assert not core.Geometry(9, Shape(3, 3, diagonals=True).units).standard9
    assert "n=9" in repr(geo9)


def test_uninitialised_geometry_is_refused(core: ModuleType) -> None:
    raw = core.Geometry.__new__(core.Geometry)
    with pytest.raises(ValueError, match="not initialised"):
        core.search(raw, bytes(81), 2, 1, 0)


# -- the stub ----------------------------------------------------------------------------------


def _stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text())


def _params(args: ast.arguments) -> list[str]:
    names = [a.arg for a in args.posonlyargs]
    if args.posonlyargs:
        names.append("/")
    names += [a.arg for a in args.args]
    if args.kwonlyargs:
        names.append("*")
    names += [a.arg for a in args.kwonlyargs]
    return names


def _runtime_params(obj: Any) -> list[str]:
    """Parameter names of a runtime callable, with '/' and '*' markers as in a stub."""
    names: list[str] = []
    previous = None
    for p in inspect.signature(obj).parameters.values():
        if previous is inspect.Parameter.POSITIONAL_ONLY and p.kind is not previous:
            names.append("/")
        if p.kind is inspect.Parameter.KEYWORD_ONLY and previous is not p.kind:
            names.append("*")
        names.append(p.name)
        previous = p.kind
    if previous is inspect.Parameter.POSITIONAL_ONLY:
        names.append("/")
    return names


def test_stub_matches_module(core: ModuleType) -> None:
    """Every public name of the module is in the stub and vice versa, with the same
    parameters (the C functions publish their signatures through __text_signature__)."""
    tree = _stub_tree()
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    constants = {
        n.target.id: ast.unparse(n.annotation)
        for n in tree.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    public = {name for name in dir(core) if not name.startswith("_")}
    assert public == set(functions) | set(classes) | set(constants)
    for name, node in functions.items():
        assert _params(node.args) == _runtime_params(getattr(core, name)), name
    types = {"Final[bool]": bool, "Final[int]": int, "Final[str]": str}
    for name, annotation in constants.items():
        assert type(getattr(core, name)) is types[annotation], name
    geometry = classes["Geometry"]
    members = {n.name: n for n in geometry.body if isinstance(n, ast.FunctionDef)}
    init = members.pop("__init__")
    assert _params(init.args)[1:] == _runtime_params(core.Geometry)
    runtime_attrs = {a for a in dir(core.Geometry) if not a.startswith("_")}
    assert set(members) == runtime_attrs


# -- containment (a limit of 2,200,000,000 was once clamped to INT_MAX): 64-bit limits, no writes
# into objects the core did not allocate, inputs copied before they are trusted. Checks that could
# crash or corrupt the interpreter on a broken core run in a child process, so that a regression
# fails one test.

#: A 9x9 with exactly 12 solutions (solver.py's doctest).
TWELVE = bytes(
    int(c) if c != "." else 0
    for c in "...456789679813245548927136...594678857361492964782513...648957796135824485279361"
)


def _child(code: str) -> subprocess.CompletedProcess[str]:
    """Run *code* in a fresh interpreter (60 s at most) and return what it did."""
    return run_text(
        [sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(code)],
        timeout=60,
    )


# -- 64-bit limits -----------------------------------------------------------------------------


def test_9x9_path_does_not_depend_on_the_size_of_the_limit(core: ModuleType, geo9: Any) -> None:
    """Every limit takes the same (fast) path with the same exact count: the fast path once
    clamped limits to INT_MAX (so `count --limit 2200000000` printed 2147483647 as exact)
    and left limits above 2**32 to the generic path."""
    small = core.search(geo9, TWELVE, 1000, 1, 0)
    for limit in (2**31 - 1, 2**31 + 1, 2_200_000_000, 2**32 + 1, 2**40, 2**63 - 1):
        found = core.search(geo9, TWELVE, limit, 1, 0)
        assert found == small, limit
    assert small[0] == 12
    assert small[3] is True


def test_limit_above_int_max_on_an_empty_9x9_is_not_an_exact_count(
    core: ModuleType, geo9: Any
) -> None:
    count, _, guesses, complete = core.search(geo9, bytes(81), 2_200_000_000, 0, 20_000)
    assert not complete
    assert guesses == 20_000
    assert 0 < count < 2_200_000_000


def test_limits_and_budgets_beyond_64_bits_are_refused(core: ModuleType, geo9: Any) -> None:
    for args in ((2**63, 0, 0), (2, 0, 2**63), (2, 2**64, 0)):
        with pytest.raises(ValueError, match="too large"):
            core.search(geo9, bytes(81), *args)
    with pytest.raises(ValueError, match="too large"):
        core.search_batch(geo9, bytes(81), 2**63, 0, 1)


# -- no writes into objects the core did not allocate -------------------------------------------


def test_reduce_of_a_one_cell_grid_leaves_shared_bytes_alone() -> None:
    """reduce once cleared the cell of CPython's shared 1-byte b"\\x01" in place: afterwards
    b"\\x01" == b"\\x00" in the whole process."""
    run = _child(
        """
        import sys
        from sudokit import _core
        geo = _core.Geometry(1, [[0]])
        given = bytes([1])
        puzzle, searches, decided, complete = _core.reduce(geo, given, [0], [1], 0)
        assert (puzzle, searches, decided, complete) == (b"\\x00", 1, True, True), puzzle
        assert given == bytes([1]) and b"\\x01" != b"\\x00" and bytes([1])[0] == 1
        print("ok")
        """
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_reduce_returns_a_new_object_and_leaves_its_input_alone(
    core: ModuleType, geo9: Any
) -> None:
    solution = core.search(geo9, bytes(81), 1, 1, 0)[1][0]
    before = bytes(solution)
    puzzle, searches, _, _ = core.reduce(geo9, solution, range(81), range(1, 82), 0)
    assert solution == before
    assert puzzle is not solution
    assert searches == 81
    assert puzzle.count(0) > 40


# -- inputs copied before they are trusted ------------------------------------------------------


def test_geometry_survives_units_mutated_while_it_is_built() -> None:
    """An __index__ that empties the unit list (or the list of units) being read once made
    Geometry() read freed memory and crash."""
    run = _child(
        """
        from sudokit import _core

        class Evil:
            def __init__(self, victim, value):
                self.victim, self.value = victim, value
            def __index__(self):
                self.victim.clear()
                return self.value

        units = [list(range(4 * i, 4 * i + 4)) for i in range(4)]
        for unit in units:
            unit[0] = Evil(unit, unit[0])
        a = _core.Geometry(4, units)
        outer = [list(range(4 * i, 4 * i + 4)) for i in range(4)]
        outer[0][1] = Evil(outer, 1)
        b = _core.Geometry(4, outer)
        print(a.nunits, b.nunits)
        """
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["4", "4"]


def test_geometry_init_run_again_from_index_is_refused(core: ModuleType) -> None:
    """__init__ called again on the same object while it is being built: one geometry, no
    leak or overwrite, and the outer call fails cleanly."""
    geo = core.Geometry.__new__(core.Geometry)

    class Reenter:
        def __index__(self) -> int:
            geo.__init__(1, [[0]])
            return 0

    with pytest.raises(TypeError, match="already initialised"):
        geo.__init__(1, [[Reenter()]])
    assert geo.n == 1
    assert core.search(geo, b"\x00", 2, 1, 0)[0] == 1


def test_geometry_refuses_non_sequences_clearly(core: ModuleType) -> None:
    with pytest.raises(TypeError, match="units must be a sequence"):
        core.Geometry(4, 5)
    with pytest.raises(TypeError, match="each unit must be a sequence"):
        core.Geometry(4, [5, 6])
    with pytest.raises(TypeError):
        core.Geometry(4, [[0, 1, 2, 3.5]])
