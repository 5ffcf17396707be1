"""The variant rules of a JSON puzzle object: read from and written to its keys (layer 2).

One object carries a shape's windows and :class:`~sudokit.constraints.Constraints` next to
``puzzle`` (cell indices row-major from 0)::

    "cages": [{"sum": 11, "cells": [0, 9]}, {"cells": [1, 2]}],   # no "sum": digits distinct only
    "windoku": true, "antiknight": true, "antiking": true, "nonconsecutive": true,
    "kropki": {"white": [[0, 1]], "black": [[9, 10]], "negative": false},  # or true, "white"
    "xv": {"x": [[0, 9]], "v": [[1, 10]], "negative": false},
    "parity": "eo..",                                             # one symbol a cell
    "thermos": [[0, 1, 2]],                                       # bulb first
    "rules": [{"kind": "renban", "cells": [0, 1, 2]},             # any kind of sudokit.rules
              {"kind": "littlekiller", "cells": [1, 9], "total": 12}]

``rules`` holds every rule of :mod:`sudokit.rules` as :meth:`Rule.to_json
<sudokit.rules.base.Rule.to_json>` writes it: its ``kind`` and its fields (cells as indices,
in order).

Anything malformed is a :class:`~sudokit.errors.ParseError` naming the key and what is wrong;
a rule that cannot hold on the grid (a cage sum impossible for its size, overlapping cages, a
thermometer that is not a path, a cell index out of range, ...) is refused with the words of
:meth:`Constraints.check <sudokit.constraints.Constraints.check>`.

>>> from sudokit.shape import Shape
>>> shape = with_rules(Shape(2, 2), {"cages": [{"sum": 3, "cells": [0, 1]}], "antiking": True})
>>> shape.variant, to_keys(shape)
('killer-antiking', {'cages': [{'sum': 3, 'cells': [0, 1]}], 'antiking': True})
>>> with_rules(Shape(2, 2), {"cages": [{"sum": 30, "cells": [0, 1]}]})
Traceback (most recent call last):
...
sudokit.errors.ParseError: cage of sum 30 at r1c1: 2 cells cannot add up to 30 (possible: 3..7)
>>> to_keys(with_rules(Shape(2, 2), {"rules": [{"kind": "renban", "cells": [0, 1]}]}))
{'rules': [{'kind': 'renban', 'cells': [0, 1]}]}
>>> rules_of({"rules": [{"kind": "renban", "cells": [0, 1]}, {"kind": "arow"}]})
Traceback (most recent call last):
...
sudokit.errors.ParseError: 'rules[2]': unknown rule kind 'arow' (known: arrow, between, ...)
"""

from __future__ import annotations

import json as _json
from collections.abc import Mapping
from typing import Any

from ..constraints import Cage, Constraints
from ..errors import ParseError, quote
from ..rules import Rule
from ..shape import Shape

__all__ = ["KEYS", "rules_of", "to_keys", "with_rules"]

_FLAGS = ("windoku", "antiknight", "antiking", "nonconsecutive")
#: The keys of a puzzle object that hold rules (not kept as fields).
KEYS = ("cages", *_FLAGS, "kropki", "xv", "parity", "thermos", "rules")


def _shown(value: Any) -> str:
    return quote(_json.dumps(value))


def _bad(key: str, expected: str, value: Any) -> ParseError:
    return ParseError(f"{key!r}: expected {expected}, got {_shown(value)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cells(value: Any, key: str, expected: str = "a list of cell indices") -> list[int]:
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        raise _bad(key, expected, value)
    return value


def _items(value: Any, key: str, expected: str) -> list[tuple[str, Any]]:
    """``(key[k], item)`` for each item of the list *value*, k counted from 1."""
    if not isinstance(value, list):
        raise _bad(key, expected, value)
    return [(f"{key}[{k}]", item) for k, item in enumerate(value, 1)]


def _pairs(value: Any, key: str) -> list[list[int]]:
    what = "a list of [cell, cell] pairs"
    pairs = [pair for _, pair in _items(value, key, what)]
    for pair in pairs:
        if len(_cells(pair, key, what)) != 2:
            raise _bad(key, what, pair)
    return pairs


def _object(value: Any, key: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    names = ", ".join(repr(k) for k in allowed)
    if not isinstance(value, dict):
        raise _bad(key, f"an object with {names}", value)
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        raise ParseError(f"{key!r}: unknown key {unknown[0]!r} (expected {names})")
    return value


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(key, "true or false", value)
    return value


def _cages(value: Any) -> list[Cage]:
    cages = []
    for where, item in _items(value, "cages", 'a list of {"sum": ..., "cells": [...]} objects'):
        cage = _object(item, where, ("sum", "cells"))
        if "cells" not in cage:
            raise ParseError(f"{where!r}: a cage needs 'cells'")
        total = cage.get("sum")
        if total is not None and not _is_int(total):
            raise _bad(f"{where}.sum", "a whole number", total)
        cages.append(Cage(_cells(cage["cells"], f"{where}.cells"), total))
    return cages


def _rules(value: Any) -> list[Rule]:
    found = []
    for where, item in _items(value, "rules", 'a list of {"kind": ..., ...} objects'):
        try:
            found.append(Rule.from_json(item))
        except ValueError as exc:
            raise ParseError(f"{where!r}: {exc}") from None
    return found


def rules_of(obj: Mapping[str, Any]) -> tuple[bool, Constraints | None] | None:
    """The windows flag and constraints the keys of *obj* set, or ``None`` when it has no
    rule key. Raises :class:`~sudokit.errors.ParseError` for a malformed value (the rules
    themselves are checked against a grid by :func:`with_rules`).

    >>> rules_of({"puzzle": "..."}) is None
    True
    >>> rules_of({"kropki": {"white": [[0, 1]], "negative": True}})
    (False, Constraints(white=((0, 1),), kropki_negative=True))
    """
    if not any(key in obj for key in KEYS):
        return None
    flags = {key: _flag(obj[key], key) for key in _FLAGS if key in obj}
    kropki = _object(obj.get("kropki", {}), "kropki", ("white", "black", "negative"))
    xv = _object(obj.get("xv", {}), "xv", ("x", "v", "negative"))
    parity = obj.get("parity")
    if parity is not None and not isinstance(parity, str):
        raise _bad("parity", "a string of e, o and . (one a cell)", parity)
    thermos = obj.get("thermos", [])
    if not isinstance(thermos, list):
        raise _bad("thermos", "a list of cell paths", thermos)
    constraints = Constraints(
        cages=_cages(obj.get("cages", [])),
        antiknight=flags.get("antiknight", False),
        antiking=flags.get("antiking", False),
        nonconsecutive=flags.get("nonconsecutive", False),
        white=_pairs(kropki.get("white", []), "kropki.white"),
        black=_pairs(kropki.get("black", []), "kropki.black"),
        **_kropki_negative(kropki.get("negative", False)),
        x=_pairs(xv.get("x", []), "xv.x"),
        v=_pairs(xv.get("v", []), "xv.v"),
        xv_negative=_flag(xv.get("negative", False), "xv.negative"),
        parity=parity,
        thermos=[_cells(t, f"thermos[{k}]") for k, t in enumerate(thermos, 1)],
        rules=_rules(obj.get("rules", [])),
    )
    return flags.get("windoku", False), None if constraints.is_empty() else constraints


def _kropki_negative(value: Any) -> dict[str, bool]:
    """The negative kropki rule of ``kropki.negative``: ``true`` (both colours), ``false``,
    ``"white"`` or ``"black"`` (that colour only).

    >>> _kropki_negative("black")
    {'black_negative': True}
    """
    if value in ("white", "black"):
        return {f"{value}_negative": True}
    if not isinstance(value, bool):
        raise _bad("kropki.negative", 'true, false, "white" or "black"', value)
    return {"kropki_negative": value}


def with_rules(shape: Shape, obj: Mapping[str, Any]) -> Shape:
    """*shape* with the rules the keys of *obj* set (itself when there are none); a rule
    that cannot hold on it is a :class:`~sudokit.errors.ParseError` naming it."""
    rules = rules_of(obj)
    if rules is None:
        return shape
    windoku, constraints = rules
    try:
        return Shape(
            shape.box_rows,
            shape.box_cols,
            diagonals=shape.diagonals,
            regions=shape.regions,
            windoku=windoku,
            constraints=constraints,
        )
    except ValueError as exc:
        raise ParseError(str(exc)) from None


def to_keys(shape: Shape) -> dict[str, Any]:
    """The rule keys of a puzzle object for *shape* (none for a classic shape), in the
    order of :data:`KEYS`; only the rules that are set are written."""
    out: dict[str, Any] = {}
    rules = shape.constraints
    if rules is not None and rules.cages:
        out["cages"] = [
            {"cells": list(c.cells)}
            if c.total is None
            else {"sum": c.total, "cells": list(c.cells)}
            for c in rules.cages
        ]
    if shape.windoku:
        out["windoku"] = True
    if rules is None:
        return out
    for key in _FLAGS[1:]:
        if getattr(rules, key):
            out[key] = True
    kropki_negative: bool | str = rules.kropki_negative or (
        "white" if rules.white_negative else "black" if rules.black_negative else False
    )
    for key, first, second, negative in (
        ("kropki", "white", "black", kropki_negative),
        ("xv", "x", "v", rules.xv_negative),
    ):
        part: dict[str, Any] = {
            name: [list(p) for p in getattr(rules, name)]
            for name in (first, second)
            if getattr(rules, name)
        }
        if negative:
            part["negative"] = negative
        if part:
            out[key] = part
    if rules.parity is not None:
        out["parity"] = rules.parity
    if rules.thermos:
        out["thermos"] = [list(t) for t in rules.thermos]
    if rules.rules:
        out["rules"] = [rule.to_json() for rule in rules.rules]
    return out
