"""The three C searches of the human techniques (``_core.HumanShape``, ``_core.Exclusion``,
``_core.Uniq``; csrc/sk_py_logic.c) answer the same mistake with the same exception type and
message: re-initialising, calling an uninitialised object, a wrong argument count, n out of
range, and masks that are not a sequence, of the wrong length, not ints or out of range.
"""

from __future__ import annotations

from typing import Any

import pytest

from sudokit.logic import _human
from sudokit.shape import Shape

_core = pytest.importorskip("sudokit._core", reason="the C core is not built")

SHAPE = Shape(2, 2)
KINDS = [0] * len(SHAPE.units)
FULL = [0b1111] * 16

#: name: (constructor arguments after n, the search method, its arguments (FULL: the masks))
CASES: dict[str, tuple[tuple[Any, ...], str, tuple[Any, ...]]] = {
    "HumanShape": (
        (SHAPE.units, KINDS, KINDS, SHAPE.peers, SHAPE.cell_units, (), ()),
        "find",
        (_human.NAKED_SINGLES, 0, FULL, ()),
    ),
    "Exclusion": ((SHAPE.peers,), "find", (FULL, 2, None, 0)),
    "Uniq": ((SHAPE.units, SHAPE.cell_units, KINDS, SHAPE.peers), "steps", (FULL, None, None)),
}


def _call(name: str, obj: Any, masks: Any) -> Any:
    _, method, args = CASES[name]
    args = list(args)
    args[args.index(FULL)] = masks  # masks is the argument equal to FULL
    return getattr(obj, method)(*args)


@pytest.fixture(params=sorted(CASES))
def search(request: pytest.FixtureRequest) -> tuple[str, type, Any]:
    name = request.param
    cls = getattr(_core, name)
    return name, cls, cls(4, *CASES[name][0])


def test_reinitialising(search: tuple[str, type, Any]) -> None:
    name, _, obj = search
    with pytest.raises(TypeError, match=f"^{name} is already initialised$"):
        obj.__init__(4, *CASES[name][0])
    _call(name, obj, FULL)  # still usable


def test_uninitialised(search: tuple[str, type, Any]) -> None:
    name, cls, _ = search
    fresh = cls.__new__(cls)
    with pytest.raises(ValueError, match=f"^{name} is not initialised$"):
        _call(name, fresh, FULL)


@pytest.mark.parametrize("n", [0, 65])
def test_n_out_of_range(search: tuple[str, type, Any], n: int) -> None:
    name, cls, _ = search
    with pytest.raises(ValueError, match=f"^n must be in 1..64, got {n}$"):
        cls(n, *CASES[name][0])


def test_wrong_argument_count(search: tuple[str, type, Any]) -> None:
    name, _, obj = search
    _, method, args = CASES[name]
    # an optional last argument reads "takes 4 or 5 arguments (a, b, c, d[, e])"
    expected = (
        rf"^{method}\(\) takes {len(args)}( or \d+)? arguments \(\w+(, \w+)+(\[, \w+\])?\), got 1$"
    )
    with pytest.raises(TypeError, match=expected):
        getattr(obj, method)(FULL)


@pytest.mark.parametrize(
    ("masks", "error", "message"),
    [
        (5, TypeError, "^masks must be a sequence, not int$"),
        ("x" * 16, TypeError, "^masks must be a sequence, not str$"),
        (FULL[:15], ValueError, "^masks must hold 16 items, got 15$"),
        ([*FULL[:3], 1.5, *FULL[4:]], TypeError, r"^masks\[3\] must be an int, not float$"),
        ([*FULL[:3], 16, *FULL[4:]], ValueError, r"^masks\[3\] must be in 0..15, got 16$"),
        ([*FULL[:3], -1, *FULL[4:]], ValueError, r"^masks\[3\] must be in 0..15, got -1$"),
    ],
)
def test_bad_masks(search: tuple[str, type, Any], masks: Any, error: type, message: str) -> None:
    name, _, obj = search
    with pytest.raises(error, match=message):
        _call(name, obj, masks)
