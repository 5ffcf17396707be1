"""``_core.search_items`` against hostile callers: record specs and item classes that try to
make the core write one slot twice, see a half-built list, or run Python code in the middle of
a call (the binding must refuse, or give what a plain call gives: never crash or leak)."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from sudokit import Grid, Shape, SolveResult, Status, solver
from support import CORPUS, require_c_backend

NINE = Shape(3, 3)
UNIQUE = next(c for c in CORPUS if c.shape == NINE and c.count == 1 and not c.invalid)
SPEC = (SolveResult, solver._FIELDS, (None, Status.UNIQUE, Status.MULTIPLE))


@pytest.fixture(scope="module")
def core() -> Any:
    require_c_backend()
    from sudokit import _core

    return _core


@pytest.fixture(scope="module")
def geo9() -> Any:
    require_c_backend()
    from sudokit import _cengine

    return _cengine.geometry(NINE)


def test_two_fields_in_one_slot_are_refused(core: Any, geo9: Any) -> None:
    """Two names of one slot would make the core store twice there (the first reference
    leaked): refused with the names, and nothing kept of the caller's values."""
    from sudokit import _cengine

    names = list(solver._FIELDS)
    names[3] = names[2]  # the status written over the shape
    spec = (SolveResult, tuple(names), SPEC[2])
    table = _cengine.digit_table(9)
    line = str(UNIQUE.puzzle)
    before = sys.getrefcount(NINE)
    for _ in range(50):
        with pytest.raises(TypeError, match="are the same slot of"):
            core.search_items(geo9, NINE, (line,), table, Grid, 2, 0, 1, spec)
    assert sys.getrefcount(NINE) == before
    [record], _, _ = core.search_items(geo9, NINE, (line,), table, Grid, 2, 0, 1, SPEC)
    assert record._shape is NINE
    assert sys.getrefcount(NINE) == before + 1  # the record's one reference
    del record
    assert sys.getrefcount(NINE) == before


def test_results_list_is_whole_while_python_code_runs() -> None:
    """A Grid item's ``shape`` is looked up (Python code may run) before the search: the
    results list it could reach through gc.get_objects() has no empty (NULL) entry then.
    In a subprocess, since the failure was a crash."""
    require_c_backend()
    code = textwrap.dedent(
        """
        import gc
        from sudokit import _cengine, _core, solver, Shape, SolveResult, Status

        NINE = Shape(3, 3)
        K = 5
        seen = []

        class Item:
            cells = bytes(81)

            @property
            def shape(self):
                for o in gc.get_objects():
                    if type(o) is list and len(o) == K and o[0] is None:
                        seen.append(list(o))  # reads every entry
                return NINE

        spec = (SolveResult, solver._FIELDS, (None, Status.UNIQUE, Status.MULTIPLE))
        out = _core.search_items(
            _cengine.geometry(NINE), NINE, (Item(),) * K, None, Item, 2, 0, 1, spec
        )
        assert len(out[0]) == K and out[2] == [], out
        assert seen and all(entries == [None] * K for entries in seen), seen
        print("ok")
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert (run.returncode, run.stdout.strip()) == (0, "ok"), run.stderr[-2000:]


class Raising:
    """An item class whose ``shape`` raises: the item is the caller's, the error swallowed."""

    cells = bytes(81)

    @property
    def shape(self) -> Shape:
        raise RuntimeError("no shape")


class BadEquals:
    """A shape whose comparison raises."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparison")

    __hash__ = object.__hash__


def test_hostile_item_classes(core: Any, geo9: Any) -> None:
    """Items whose attributes raise, compare badly, or re-enter the core on the same geometry
    (taking workspaces from its pool in the middle of the call) are left to the caller or
    read as a plain call reads them; the call's own results are unchanged."""
    plain = core.search_items(geo9, NINE, (UNIQUE.puzzle,), None, Grid, 2, 0, 1, SPEC)
    assert plain[0][0].solution == UNIQUE.solution

    assert core.search_items(geo9, NINE, (Raising(),), None, Raising, 2, 0, 1, SPEC) == (
        [None],
        [],
        [0],
    )

    class Odd:
        cells = UNIQUE.puzzle.cells
        shape = BadEquals()

    assert core.search_items(geo9, NINE, (Odd(),), None, Odd, 2, 0, 1, SPEC) == ([None], [], [0])

    class Reentrant:
        cells = UNIQUE.puzzle.cells

        @property
        def shape(self) -> Shape:
            inner = core.search_items(geo9, NINE, (UNIQUE.puzzle,), None, Grid, 2, 0, 2, SPEC)
            assert inner[0][0].solution == UNIQUE.solution
            assert core.search(geo9, UNIQUE.puzzle.cells, 2, 1, 0)[0] == 1
            return NINE

    items = (Reentrant(),) * 6
    found, rest, pending = core.search_items(geo9, NINE, items, None, Reentrant, 2, 0, 2, SPEC)
    assert (rest, pending) == ([], [])
    for record, item in zip(found, items, strict=True):
        assert record.puzzle is item
        assert record.solution == UNIQUE.solution
        assert (record.status, record.count, record.complete) == (Status.UNIQUE, 1, True)


@pytest.mark.slow
def test_failed_allocations_raise_memory_error_and_leak_nothing(core: Any, geo9: Any) -> None:
    """search_items and search_batch with each of their allocations failed in turn: the
    result of a normal call or MemoryError, never another error or a leak (the sweep of
    tests/engine/test_core_nomemory.py).  A Grid item whose attribute lookup failed is left to the
    caller (read_grid's contract: the general path then reads it), so search_items' answer
    may also be the normal one with such items moved to ``pending``."""
    pytest.importorskip("_testcapi")
    from sudokit import _cengine
    from support.nomemory import failing, sweep

    cases = [c for c in CORPUS if c.shape == NINE and not c.invalid][:3]
    items = (*(str(c.puzzle) for c in cases), cases[0].puzzle, cases[1].puzzle, "bad", 7)
    table = _cengine.digit_table(9)

    def call() -> object:
        return core.search_items(geo9, NINE, items, table, Grid, 2, 0, 1, SPEC)

    expected: Any = call()
    grids = {i for i, item in enumerate(items) if isinstance(item, Grid)}
    raised = 0
    gc.collect()
    before = sys.getallocatedblocks()
    for k in range(400):
        got: Any = failing(call, k)
        if got is MemoryError:
            raised += 1
            continue
        found, rest, pending = got
        left = set(pending) - set(expected[2])
        assert left <= grids, k
        assert sorted(pending) == sorted([*expected[2], *left]), k
        assert rest == [r for r in expected[1] if r[0] not in left], k
        for i, record in enumerate(found):
            assert record == (None if i in left else expected[0][i]), k
    del got, found, rest, pending
    gc.collect()
    assert sys.getallocatedblocks() - before < 50, "a failed call leaked"
    assert raised >= 10
    batch = b"".join(c.puzzle.cells for c in cases)
    sweep(lambda: core.search_batch(geo9, batch, 2, 0, 1), at_least=5)


def test_keyboard_interrupt_in_an_item_stops_the_call(core: Any, geo9: Any) -> None:
    """Ctrl-C always stops: a KeyboardInterrupt (or any BaseException that is not an
    Exception) raised by an item's attribute lookup or its shape's ``__eq__`` propagates out of
    search_items instead of being cleared like an ordinary error, and solve_many lets one that
    fires once (as a user's Ctrl-C does) stop the run instead of solving on."""

    class Interrupting:
        cells = UNIQUE.puzzle.cells

        @property
        def shape(self) -> Shape:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        core.search_items(geo9, NINE, (Interrupting(),), None, Interrupting, 2, 0, 1, SPEC)

    class Exiting:
        def __eq__(self, other: object) -> bool:
            raise SystemExit(3)

        __hash__ = object.__hash__

    class Odd:
        cells = UNIQUE.puzzle.cells
        shape = Exiting()

    with pytest.raises(SystemExit):
        core.search_items(geo9, NINE, (UNIQUE.puzzle, Odd()), None, Odd, 2, 0, 1, SPEC)

    fired: list[int] = []

    class OnceShape(Shape):
        __slots__ = ()

        def __eq__(self, other: object) -> bool:
            if not fired:
                fired.append(1)
                raise KeyboardInterrupt
            return Shape.__eq__(self, other)

        __hash__ = Shape.__hash__

    once = object.__new__(OnceShape)
    for name in Shape.__slots__:
        object.__setattr__(once, name, getattr(NINE, name))
    item = Grid._trusted(UNIQUE.puzzle.cells, once)
    with pytest.raises(KeyboardInterrupt):
        list(solver.solve_many([UNIQUE.puzzle, item, UNIQUE.puzzle], jobs=1))
    assert fired == [1]
