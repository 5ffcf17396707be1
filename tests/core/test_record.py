"""The one freezing mechanism of library values (``sudokit._record``, ARCHITECTURE section 9.3):
every frozen value of layers 0-7 is a ``_Record`` that holds no dict, list or set."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import io
import json
import pickle
import pkgutil
from pathlib import Path

import pytest

import sudokit
from sudokit._record import FrozenMap, _Record
from sudokit.formats import Record, parse_one, read
from sudokit.rating import Rating

SRC = Path(sudokit.__file__).resolve().parent
FRONT_ENDS = ("cli", "web")
# Frozen dataclasses still allowed outside the front ends, with the reason (ARCHITECTURE 9.3).
NOT_YET = {
    ("generator/options.py", "_Plan"),  # next to GenerateOptions, whose module imports dataclasses
    ("generator/options.py", "GenerateOptions"),  # documented to work with dataclasses.replace
}
MUTABLE = ("list[", "dict[", "set[", "bytearray", "MutableMapping", "MutableSequence")


def _library_files() -> list[Path]:
    return [p for p in sorted(SRC.rglob("*.py")) if p.relative_to(SRC).parts[0] not in FRONT_ENDS]


def test_no_frozen_dataclass_outside_the_front_ends() -> None:
    found = set()
    for path in _library_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            for deco in node.decorator_list:
                frozen = isinstance(deco, ast.Call) and any(
                    k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value
                    for k in deco.keywords
                )
                if frozen:
                    found.add((path.relative_to(SRC).as_posix(), node.name))
    assert found <= NOT_YET, sorted(found - NOT_YET)


def _records() -> list[type[_Record]]:
    for info in pkgutil.walk_packages(sudokit.__path__, "sudokit."):
        skip = info.name in ("sudokit.dask", "sudokit.__main__")  # optional extra; runs the CLI
        if skip or info.name.split(".")[1] in FRONT_ENDS:
            continue
        importlib.import_module(info.name)
    out: list[type[_Record]] = []
    todo = list(_Record.__subclasses__())
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return [c for c in out if c.__module__.startswith("sudokit.")]


def test_records_declare_their_fields_and_hold_nothing_mutable() -> None:
    records = _records()
    assert {"Grid", "Shape", "Rating", "Step", "Record", "BatchOutcome"} <= {
        c.__name__ for c in records
    }
    for cls in records:
        slots = {s for k in cls.__mro__ for s in getattr(k, "__dict__", {}).get("__slots__", ())}
        public = {s for s in slots if not s.startswith("_")}
        own = {"__eq__", "__hash__", "__reduce__"} <= set(vars(cls))  # Grid, Shape: their own
        if not own:  # equality, hashing and pickling go over __match_args__: every field
            assert public <= set(cls.__match_args__), (cls, public - set(cls.__match_args__))
        hints = {k: v for c in cls.__mro__ for k, v in getattr(c, "__annotations__", {}).items()}
        for name in public:
            kind = str(hints.get(name, ""))
            assert not any(m in kind for m in MUTABLE), (cls.__qualname__, name, kind)


def test_records_without_their_own_init_take_the_annotated_fields_in_order() -> None:
    """The default ``__init__`` sets the fields in ``__match_args__`` order; type checkers read
    the annotations (``dataclass_transform``): the two orders must agree, and no class between
    the record and ``_Record`` may define another ``__init__`` (but the rule kinds' base, whose
    ``__init__`` takes the same fields in the same order and converts each)."""
    from sudokit.rules import Rule

    records = _records()
    same = (_Record.__init__, Rule.__init__)
    inherited = [c for c in records if "__init__" not in vars(c) and c.__init__ not in same]
    assert not inherited  # type checkers would read the annotations, the runtime another __init__
    defaults = [c for c in records if c.__init__ in same]
    assert {"Subset", "Lock", "Head", "Candidates", "Transform"} <= {c.__name__ for c in defaults}
    for cls in defaults:
        annotated = [
            name
            for c in reversed(cls.__mro__)
            if issubclass(c, _Record) and c is not _Record
            for name, note in vars(c).get("__annotations__", {}).items()
            if "ClassVar" not in str(note)
        ]
        assert tuple(annotated) == cls.__match_args__, cls


def test_default_init_takes_positions_or_names_and_checks() -> None:
    from sudokit.logic.subsets import Subset
    from sudokit.marks import Candidates
    from sudokit.shape import Shape

    assert Subset(1, (2, 3), 6) == Subset(unit=1, cells=(2, 3), digits=6)
    assert Subset(1, (2, 3), digits=6)._replace(unit=4) == Subset(4, (2, 3), 6)
    for bad in ((1, (2, 3)), (1, (2, 3), 6, 7)):
        with pytest.raises(TypeError, match=r"Subset\(\) takes the fields unit, cells, digits"):
            Subset(*bad)
    with pytest.raises(TypeError, match="takes the fields"):
        Subset(1, (2, 3), 6, unit=1)
    with pytest.raises(ValueError, match="candidates are"):  # _check runs after the fields
        Candidates(Shape(1, 2), (3, 3, 3, 3), bytes([1, 0, 0, 0]))


def test_frozen_map_is_read_only_and_a_value() -> None:
    m = FrozenMap({"b": 2, "a": 1})
    with pytest.raises(TypeError):
        m["a"] = 3  # type: ignore[index]
    with pytest.raises(AttributeError):
        m.x = 1  # type: ignore[attr-defined]
    assert m == {"a": 1, "b": 2}
    assert list(m) == ["b", "a"]
    assert pickle.loads(pickle.dumps(m)) == m
    assert hash(m) == hash(FrozenMap({"a": 1, "b": 2}))
    assert json.dumps(dict(m)) == '{"b": 2, "a": 1}'


def test_rating_counts_are_frozen_and_keep_the_json_bytes() -> None:
    grid = sudokit.Grid.parse(
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    )
    r = sudokit.rate(grid)
    for counts in (r.techniques, r.cells, r.families):
        assert isinstance(counts, FrozenMap)
        with pytest.raises(TypeError):
            counts["Naked Single"] = 1  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.se = 1.0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(r)) == r
    assert hash(r) == hash(pickle.loads(pickle.dumps(r)))
    # the JSON shape is that of a Rating built from plain dicts (what it held before)
    plain = Rating(r.se, r.score, r.level, dict(r.techniques), r.complete, r.steps)
    assert json.dumps(r.to_json(grid)) == json.dumps(plain.to_json(grid))
    assert r.techniques == dict(r.techniques)
    assert sum(r.techniques.values()) == r.steps


def test_record_fields_are_frozen() -> None:
    (record,) = read(io.StringIO("puzzle,level\n1.3....22....3.1,easy\n"), "csv")
    assert isinstance(record, Record)
    assert record.fields == {"level": "easy"}
    with pytest.raises(TypeError):
        record.fields["level"] = "hard"  # type: ignore[index]
    assert record._replace(line=5) == Record(record.index, 5, record.grid, None, record.fields)
    assert record.grid == parse_one("1.3....22....3.1")
