"""SudokuPad links: the ``sudokupad`` format, and SudokuPad's own puzzle layout (``scl``).

A SudokuPad link that carries its puzzle is ``https://sudokupad.app/`` followed by a kind and
the lz-string-compressed puzzle: ``fpuzzles``/``fpuz`` (an f-puzzles object, read and written
by :mod:`~sudokit.formats.fpuzzles`) or ``scl``/``ctc`` (SudokuPad's own layout). Links to a
puzzle kept by the site (``sudokupad.app/abc123``) need the site and are refused with a
message saying so. This format reads every link :mod:`~sudokit.formats.fpuzzles` reads and
writes the SudokuPad ``fpuzzles`` link.

SudokuPad's own layout (``{"cells": [[{"value": 5}, {}, ...], ...], "regions": [[[r, c],
...], ...], "cages": [{"cells": [[r, c], ...], "value": 11}], ...}``, rows and columns from
0), possibly "zipped" (keys shortened, quotes swapped; undone here), is read for its givens,
its boxes or regions and its killer cages, and the metadata SudokuPad keeps in cages
without cells (``{"value": "title: ..."}``) or in its ``metadata`` object (title, author,
rules text and a solution of single digits, kept as fields). Its rule flags, at the top level
or in ``metadata`` (where Sudoku Maker writes them), are read as f-puzzles reads the keys of
the same names (``antiknight``, ``antiking``, ``nonconsecutive``, ``diagonal+``,
``diagonal-``, ``disjointgroups``); any other key set true there is refused by name, never
dropped. Its drawings (lines, overlays, underlays, arrows:
how it draws thermometers, dots and the rest) are refused by name: the same puzzle's
f-puzzles link carries those rules.

>>> from sudokit.grid import Grid
>>> g = Grid.parse("1.3." "...2" "2..." ".3.1")
>>> dumps(g)[:40]
'https://sudokupad.app/fpuzzlesN4IgzglgXg'
>>> text = '{"cells": [[{"value": 1}, {}], [{}, {}]], "cages": [{"cells": [[0, 1], [1, 1]]}]}'
>>> grid, fields = from_text(text)
>>> grid.shape.constraints.cages, str(grid)
((Cage(cells=(1, 3), total=None),), '1...')
"""

from __future__ import annotations

import json as _json
import re
from collections.abc import Mapping
from typing import Any

from ..constraints import Cage, Constraints
from ..errors import ParseError, quote
from ..grid import Grid
from ..shape import Shape
from . import fpuzzles, fpuzzles_rules
from ._base import Format, Head

__all__ = [
    "FIELD_NAMES",
    "FORMAT",
    "METADATA",
    "claims",
    "classic_id",
    "dumps",
    "from_classic",
    "from_text",
    "unzip",
]

NAME = "sudokupad"
#: Long key names of the zipped layout, by their short names.
_KEYS = {
    "c": "color", "ca": "cages", "ct": "center", "c1": "borderColor", "c2": "backgroundColor",
    "ce": "cells", "cs": "cellSize", "a": "arrows", "o": "overlays", "u": "underlays",
    "w": "width", "h": "height", "v": "value", "vd": "videos", "l": "lines", "r": "rounded",
    "re": "regions", "fs": "fontSize", "th": "thickness", "hl": "headLength", "wp": "wayPoints",
    "t": "title", "te": "text", "d": "duration",
}  # fmt: skip
_DRAWINGS = ("lines", "arrows", "overlays", "underlays")
_UNZIP = (
    (re.compile(r"([,{\[])([a-zA-Z0-9]+):"), r'\1"\2":'),  # bare keys
    (re.compile(r"([,{\[])(?=[,}\]])"), r"\1_"),  # empty slots are empty objects
    (re.compile(r"\{_\}"), "{}"),
    (re.compile(r"([,{\[])_"), r"\1{}"),
    (re.compile(r":f([,}\]])"), r":false\1"),
    (re.compile(r":t([,}\]])"), r":true\1"),
    (re.compile(r":#0([,}\]])"), r':"#000000"\1'),
    (re.compile(r":#F([,}\]])"), r':"#FFFFFF"\1'),
    (re.compile(r":([0-9a-fA-F]{6})([,}\]])"), r':"#\1"\2'),
)


def _error(what: str) -> ParseError:
    return ParseError(f"sudokupad: {what}")


def unzip(text: str) -> str:
    """SudokuPad's zipped layout back to JSON text. The zipped layout writes an empty object
    as nothing, so an empty slot, ``[]`` included, becomes ``{}``: text that is JSON already
    is not for this function (:func:`from_text` reads it as it is).

    >>> unzip("{ce:[[{v:1},],[,]],t:'Killer'}")
    '{"ce":[[{"v":1},{}],[{},{}]],"t":"Killer"}'
    """
    if '"' not in text:
        text = text.replace("\\'", "\u2019").replace("'", '"').replace("\u2019", "'")
    for pattern, replacement in _UNZIP:
        text = pattern.sub(replacement, text)
    return text


def _long_keys(value: Any) -> Any:
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    if isinstance(value, dict):
        return {_KEYS.get(k, k): _long_keys(v) for k, v in value.items()}
    return value


def _cell(value: Any, n: int, key: str) -> int:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _error(f"{key!r}: expected a [row, column] cell, got {quote(_json.dumps(value))}")
    row, col = value
    if not (0 <= row < n and 0 <= col < n):
        raise _error(f"{key!r}: cell {value} is outside the {n}x{n} grid")
    return int(row * n + col)


def _cells(value: Any, n: int, key: str) -> list[int]:
    if not isinstance(value, list):
        raise _error(f"{key!r}: expected a list of cells, got {quote(_json.dumps(value))}")
    return [_cell(v, n, key) for v in value]


def _shape(obj: Mapping[str, Any], n: int) -> Shape:
    regions = obj.get("regions")
    if not regions:
        return Shape.from_size(n)
    if not isinstance(regions, list) or len(regions) != n:
        raise _error(f"'regions': expected {n} regions")
    owner = [-1] * (n * n)
    for k, region in enumerate(regions):
        for cell in _cells(region, n, "regions"):
            owner[cell] = k
    if -1 in owner:
        raise _error("'regions': cells outside every region are not supported")
    try:
        return fpuzzles.shape_of_regions(owner, n)
    except ParseError as exc:
        raise _error(str(exc).removeprefix("f-puzzles: ")) from None


def _cages(obj: Mapping[str, Any], n: int) -> list[Cage]:
    cages = []
    entries = obj.get("cages") or []
    if not isinstance(entries, list):
        raise _error(f"'cages': expected a list, got {quote(_json.dumps(entries))}")
    for entry in entries:
        if not isinstance(entry, dict):
            raise _error(f"'cages': expected objects, got {quote(_json.dumps(entry))}")
        if _metadata(entry) is not None:
            continue
        style = entry.get("style", "killer")
        if style != "killer":
            raise _error(f"cages of style {quote(str(style))} are not supported")
        value = entry.get("value")
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if value in (None, ""):
            value = None
        elif not isinstance(value, int) or isinstance(value, bool):
            raise _error(f"'cages': a cage's value must be a number, got {quote(str(value))}")
        cages.append(Cage(_cells(entry.get("cells"), n, "cages"), value))
    return cages


#: The metadata SudokuPad keeps in cages without cells (``"title: ..."``), kept as fields.
METADATA = ("title", "author", "rules", "solution")
#: The field each of :data:`METADATA` is kept as, where sudokit names it otherwise: the rules
#: text is ``ruleset`` in every format (f-puzzles' name; ``rules`` is the rule kinds' key of
#: the json format).
FIELD_NAMES = {"rules": "ruleset"}


def _metadata(entry: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(key, text)`` of a metadata cage (no cells, a value ``"key: text"``), else None.

    >>> _metadata({"value": "author: Someone"}), _metadata({"cells": [[0, 0]], "value": "5"})
    (('author', 'Someone'), None)
    """
    value = entry.get("value")
    if entry.get("cells") or not isinstance(value, str) or ":" not in value:
        return None
    key, _, text = value.partition(":")
    return key.strip().lower(), text.strip()


def _metadata_fields(obj: Mapping[str, Any], n: int) -> dict[str, str]:
    """The fields of the metadata cages and of the ``metadata`` object: title, author, rules
    text, and a solution of ``n * n`` digits (as a line)."""
    fields: dict[str, str] = {}
    entries = obj.get("cages") or []
    found_all = [
        _metadata(e) for e in (entries if isinstance(entries, list) else []) if isinstance(e, dict)
    ]
    metadata = obj.get("metadata")
    if isinstance(metadata, dict):  # SudokuPad's own metadata object (Sudoku Maker writes it)
        found_all += [(k, v.strip()) for k, v in metadata.items() if isinstance(v, str)]
    for found in found_all:
        if found is None or found[0] not in METADATA or not found[1]:
            continue
        key, text = found
        if key == "solution" and not (len(text) == n * n and text.isdigit()):
            continue  # a solution in another layout (bigger digits, ...): not kept
        fields.setdefault(FIELD_NAMES.get(key, key), text)
    return fields


def from_text(text: str) -> tuple[Grid, dict[str, str]]:
    """The grid and fields of a decompressed ``scl`` puzzle (JSON or zipped)."""
    text = text.strip()
    try:
        try:
            obj = _json.loads(text)  # JSON already: an empty list stays empty
        except ValueError:
            obj = _json.loads(unzip(text))
        obj = _long_keys(obj)
    except (ValueError, RecursionError) as exc:
        raise _error(f"the link does not hold a puzzle (bad JSON: {exc})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("cells"), list):
        raise _error("expected a puzzle object with 'cells'")
    rows = obj["cells"]
    n = len(rows)
    if not 1 <= n <= 64 or not all(isinstance(r, list) and len(r) == n for r in rows):
        raise _error(f"'cells': expected a square grid, got {n} rows")
    drawn = [repr(key) for key in _DRAWINGS if obj.get(key)]
    if drawn:
        raise _error(
            f"{fpuzzles.not_supported(drawn)} (SudokuPad's own drawings are not read; the"
            " puzzle's f-puzzles link carries thermometers, dots and the other rules)"
        )
    shape = _shape(obj, n)
    cages = _cages(obj, n)  # its own errors are already ParseErrors (a ValueError: not below)
    flags = _flags(obj)
    try:
        rules = fpuzzles_rules.read_rules(flags, fpuzzles_rules.Context(n, shape))
    except ParseError as exc:
        raise _error(str(exc).removeprefix("f-puzzles: ")) from None
    constraints = Constraints(
        cages=cages,
        antiknight=flags.get("antiknight", False),
        antiking=flags.get("antiking", False),
        nonconsecutive=flags.get("nonconsecutive", False),
        rules=rules,
    )
    if flags.get("diagonal+") and flags.get("diagonal-"):
        shape = shape.with_diagonals()
    try:
        shape = shape.with_constraints(constraints)
    except ValueError as exc:
        raise _error(str(exc)) from None
    values = bytearray(n * n)
    for i, cell in enumerate(c for row in rows for c in row):
        value = cell.get("value") if isinstance(cell, dict) else None
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if value in (None, "", 0):
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= n:
            raise _error(f"cell r{i // n + 1}c{i % n + 1}: given {value!r} is not 1..{n}")
        values[i] = value
    fields = {
        FIELD_NAMES.get(k, k): str(obj[k])
        for k in ("title", "author", "rules")
        if isinstance(obj.get(k), str)
    }
    for key, value in _metadata_fields(obj, n).items():
        fields.setdefault(key, value)
    return Grid(bytes(values), shape), fields


def _flags(obj: Mapping[str, Any]) -> dict[str, bool]:
    """The rule flags (anti-knight, anti-king, non-consecutive, diagonals, disjoint groups)
    set true at the top level or in ``metadata``; any other key set true there is refused
    by name (a rule that is not read must not be left out unsaid)."""
    try:
        return {
            **fpuzzles.flags_of(obj, "top-level"),
            **fpuzzles.flags_of(obj.get("metadata"), "'metadata'"),
        }
    except ParseError as exc:
        raise _error(str(exc).removeprefix("f-puzzles: ")) from None


# -- classic ids: the givens of a classic puzzle packed into the id --------------------------
#
# SudokuPad writes "classic" + one character per given, each also saying how many blanks
# follow it: the character at index k of _PACKED stands for digit k % 10 (0: a blank) and
# then k // 10 more blanks (0..5). An older form writes the givens 1-9 as themselves and each
# run of blanks as one character of _RUNS, its index the run's length. An id may read in
# both; SudokuPad guesses (the packed form when it gives a square number of cells, else the
# older one when that does); this reader takes the first form that gives a grid: a square
# number of cells whose digits fit its size.
_PACKED = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
_RUNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz()[]-.~:@!$&'*,;=_"


def _unpack(text: str) -> bytes | None:
    """The cells of the packed form of a classic id, or None when *text* is not one."""
    out = bytearray()
    for ch in text:
        k = _PACKED.find(ch)
        if k < 0:
            return None
        out.append(k % 10)
        out += bytes(k // 10)
    return bytes(out)


def _unrun(text: str) -> bytes | None:
    """The cells of the older form of a classic id, or None when *text* is not one."""
    out = bytearray()
    for ch in text:
        if "1" <= ch <= "9":
            out.append(int(ch))
        elif (k := _RUNS.find(ch)) >= 0:
            out += bytes(k)
        else:
            return None
    return bytes(out)


def from_classic(text: str) -> Grid:
    """The grid of a SudokuPad classic id (what follows ``classic`` in the link), in
    either of its two forms (see the comment above); :class:`~sudokit.errors.ParseError`
    saying what the id holds when neither is a grid.

    >>> g = Grid.parse("1.3....22....3.1")
    >>> from_classic(classic_id(g)) == g  # the packed form
    True
    >>> str(from_classic("1_K2")) == "1" + "." * 79 + "2"  # the older: 69 and 10 blanks
    True
    >>> from_classic("1B3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: sudokupad: the classic id '1B3' holds no grid (4 cells in the ...
    """
    forms = {"packed": _unpack(text), "older": _unrun(text)}
    for cells in forms.values():
        shape = None if cells is None else Shape.from_cell_count(len(cells))
        if cells is not None and shape is not None and max(cells, default=0) <= shape.n:
            return Grid(cells, shape)
    read = [f"{len(c)} cells in the {form} form" for form, c in forms.items() if c is not None]
    if not read:
        bad = next(ch for ch in text if ch not in _PACKED + _RUNS + "123456789")
        raise _error(f"the classic id {quote(text)} holds {bad!r}, which no classic id holds")
    raise _error(f"the classic id {quote(text)} holds no grid ({' and '.join(read)})")


def classic_id(grid: Grid) -> str:
    """The packed classic id of *grid* (sizes up to 9x9, no variant rules), as SudokuPad
    writes it: ``https://sudokupad.app/classic`` + this opens the puzzle there.

    >>> classic_id(Grid.parse("1.3....22....3.1"))
    'Bh2gD1'
    """
    if grid.n > 9 or not grid.shape.is_standard or grid.shape != Shape.from_size(grid.n):
        raise ValueError("a classic id holds a classic grid of size up to 9x9")
    out = []
    cells = grid.cells
    k = 0
    while k < len(cells):
        blanks = 0
        while blanks < 5 and k + 1 + blanks < len(cells) and cells[k + 1 + blanks] == 0:
            blanks += 1
        out.append(_PACKED[cells[k] + 10 * blanks])
        k += 1 + blanks
    return "".join(out)


def claims(head: Head) -> bool:
    """The first line is a SudokuPad link (sudokupad.app or the CTC app)."""
    return fpuzzles.is_sudokupad_link(head.first)


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """A SudokuPad link to *grid* (its f-puzzles object; *fields* are not written)."""
    return fpuzzles.SUDOKUPAD + fpuzzles.payload(grid, solution=solution, fields=fields)


FORMAT = Format(NAME, fpuzzles.read, dumps, priority=5, claims=claims)
