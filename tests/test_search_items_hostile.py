"""``_core.search_items`` against hostile callers: record specs and item classes that try to
make the core write one slot twice, see a half-built list, or run Python code in the middle of
a call (the binding must refuse, or give what a plain call gives: never crash or leak)."""

from __future__ import annotations

import sys
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
