"""JSON: a document holding puzzles (``.json``); see :mod:`~sudokit.formats.jsonl` for one per line.

A puzzle is a string of cell text, a list of rows (or a flat list) of integers, or an object
``{"puzzle": ..., "solution": ..., "box": "2x3", "diagonals": true, "regions": "...", ...}``
whose other keys are kept as fields. The object also carries the variant rules (``cages``,
``windoku``, ``antiknight``, ``kropki``, ...: see :mod:`~sudokit.formats._rules`); an
f-puzzles object (``{"size": 9, "grid": [...], ...}``) is read as such. A document
is one puzzle, a list of puzzles, an object with a ``"puzzles"`` list, or several of these
one after another. Output is a list of objects. Whole documents are held in memory, up to
:data:`MAX_DOCUMENT`; use JSON Lines for more.

>>> from sudokit.grid import Grid
>>> g = Grid.parse("1.3." "...2" "2..." ".3.1")
>>> print(dumps(g, fields={"id": "7"}))
{
 "puzzle": "1.3....22....3.1",
 "id": "7"
}
>>> rows = "[[1,0,3,0],[0,0,0,2],[2,0,0,0],[0,3,0,1]]"
>>> [str(r.grid) for r in read_text(f'[{rows}, "1..............."]')]
['1.3....22....3.1', '1...............']
"""

from __future__ import annotations

import json as _json
import re
from collections.abc import Iterator, Mapping
from typing import IO, Any

from ..errors import ParseError, quote
from ..grid import Grid
from ..shape import Shape
from . import _base, _rules, fpuzzles
from ._base import Format, Head, Line, Raw, block_error, declared_symbols, text_lines

__all__ = [
    "FORMAT",
    "MAX_DOCUMENT",
    "claims",
    "compact",
    "decode",
    "dumps",
    "grid_from_value",
    "read",
    "to_object",
]

NAME = "json"

#: Largest JSON document read whole.
MAX_DOCUMENT = 8 << 20
PUZZLE_KEYS = ("puzzle", "quizzes", "quiz", "grid", "sudoku", "givens", "cells")
_SHAPE_KEYS = ("box", "diagonals", "regions")


def _shape_of(obj: Mapping[str, Any], shape: Shape | None) -> Shape | None:
    if shape is not None:
        return shape
    diagonals = bool(obj.get("diagonals", False))
    try:
        if obj.get("regions") is not None:
            return Shape.jigsaw(obj["regions"], diagonals=diagonals)
        if obj.get("box") is not None:
            return Shape.parse_box(str(obj["box"]), diagonals=diagonals)
    except (ValueError, TypeError, OverflowError) as exc:
        raise ParseError(f"bad shape: {exc}") from None
    return None


def _from_numbers(value: list[Any], shape: Shape | None) -> Grid:
    flat: list[Any] = []
    for item in value:
        flat.extend(item if isinstance(item, list) else [item])
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in flat):
        raise ParseError(f"expected a list of rows of integers, got {quote(_json.dumps(value))}")
    target = shape or Shape.from_cell_count(len(flat))
    if target is None or len(flat) != target.ncells:
        raise ParseError(f"expected a square number of cells (81 for 9x9), got {len(flat)} numbers")
    bad = next((v for v in flat if not 0 <= v <= target.n), None)
    if bad is not None:
        raise ParseError(f"cell value {bad} is outside 0..{target.n}")
    return Grid(bytes(flat), target)


def grid_from_value(value: Any, shape: Shape | None) -> tuple[Grid, dict[str, str]]:
    """The grid and fields of one decoded JSON puzzle; anything wrong with it is a
    :class:`~sudokit.errors.ParseError` (never an :class:`OverflowError` for ``Infinity``
    or a :class:`RecursionError` for deep nesting).

    >>> grid_from_value({"puzzle": "1...............", "level": 3}, None)
    (Grid.parse('1...............'), {'level': '3'})
    >>> grid_from_value({"puzzle": "." * 16, "regions": [1e999] * 16}, None)
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: bad shape: cannot convert float infinity to integer
    """
    try:
        return _grid_from_value(value, shape)
    except ParseError:
        raise
    except RecursionError:
        raise ParseError(f"bad JSON: {_TOO_DEEP}") from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise ParseError(f"bad puzzle: {exc}") from None


def _grid_from_value(value: Any, shape: Shape | None) -> tuple[Grid, dict[str, str]]:
    if isinstance(value, str):
        return Grid.parse(value, shape, symbols=declared_symbols()), {}
    if isinstance(value, list):
        return _from_numbers(value, shape), {}
    if not isinstance(value, dict):
        raise ParseError(
            "expected a puzzle string, a list of rows or an object, "
            f"got {quote(_json.dumps(value))}"
        )
    if fpuzzles.is_object(value):
        return fpuzzles.from_object(value)
    key = next((k for k in PUZZLE_KEYS if k in value), None)
    if key is None:
        raise ParseError(f"expected an object with a 'puzzle' key, got keys {sorted(value)}")
    target = _shape_of(value, shape)
    if isinstance(value[key], dict):
        raise ParseError(f"expected the {key!r} value to be text or rows, got an object")
    grid, _ = _grid_from_value(value[key], target)
    if value.get("diagonals") and not grid.shape.diagonals and shape is None:
        grid = Grid(grid.cells, grid.shape.with_diagonals())
    variant = _rules.with_rules(grid.shape, value)
    if variant is not grid.shape:
        grid = Grid(grid.cells, variant)
    fields: dict[str, str] = {}
    for k, v in value.items():
        if k == key or k in _SHAPE_KEYS or k in _rules.KEYS:
            continue
        name = "solution" if k in ("solution", "solutions") else str(k)
        if name == "solution" and isinstance(v, list):
            fields[name] = _grid_from_value(v, grid.shape)[0].to_line()
        else:
            fields[name] = v if isinstance(v, str) else _json.dumps(v)
    return grid, fields


def _is_rows(value: list[Any]) -> bool:
    """A square list of lists of integers is the rows of one grid, not a list of puzzles."""
    return bool(value) and all(
        isinstance(r, list) and len(r) == len(value) and all(isinstance(v, int) for v in r)
        for r in value
    )


_DECODER = _json.JSONDecoder()
_SECTION = re.compile(r"^\[[A-Za-z ]+\]$")


def starts_json(head: Head) -> bool:
    """The text starts like a JSON value (``{``, ``[`` or ``"``, but not a ``[Section]`` line)."""
    stripped = head.stripped
    return (
        bool(stripped)
        and stripped[0] in '{["'
        and not _SECTION.match(stripped.split("\n", 1)[0].strip())
    )


def one_value_per_line(head: Head) -> bool:
    """The first line of a JSON text is one whole JSON object or string (JSON Lines)."""
    if not starts_json(head) or head.stripped[0] == "[":
        return False
    first = head.stripped.split("\n", 1)[0]
    try:
        _value, end = decode(first)
    except ParseError:
        return False
    return not first[end:].strip()


def claims(head: Head) -> bool:
    """A JSON text that is not JSON Lines."""
    return starts_json(head) and not one_value_per_line(head)


def decode(doc: str, pos: int = 0) -> tuple[Any, int]:
    """The JSON value starting at *pos* of *doc* and where it ends.

    Raises :class:`~sudokit.errors.ParseError` at the line and column of bad JSON, or of
    nesting too deep to decode.

    >>> decode('  [1, 2] x', 2)
    ([1, 2], 8)
    >>> decode('[' * 100000)
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: line 1, column 1: bad JSON: nested too deeply
    """
    try:
        value, end = _DECODER.raw_decode(doc, pos)
    except _json.JSONDecodeError as exc:
        raise ParseError(f"bad JSON: {exc.msg}", line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise _bad_json(_TOO_DEEP, doc, pos) from None
    return value, end


_TOO_DEEP = "nested too deeply"
# A string (escapes included) or a bracket: what finding the end of a value needs to see.
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def _end_of_deep_value(doc: str, pos: int) -> int | None:
    """Where the list or object at *pos* ends (after its closing bracket), found without
    decoding it, or ``None`` when its brackets never balance: a value nested too deeply to
    decode is then one bad record, and the records after it are still read.

    >>> _end_of_deep_value('[[["]"]], 1] x', 0), _end_of_deep_value('[[', 0)
    (12, None)
    """
    depth = 0
    for match in _STRUCTURE.finditer(doc, pos):
        token = match.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def _after_error(doc: str, pos: int, error: Raw) -> int | None:
    """Where reading resumes after the bad value at *pos*: past it when it was only nested
    too deeply (its extent is still known), else nowhere (``None``: the text is lost)."""
    message = error.error.message if error.error is not None else ""
    return _end_of_deep_value(doc, pos) if message.endswith(_TOO_DEEP) else None


def _bad_json(what: str, doc: str, pos: int) -> ParseError:
    """A ParseError for bad JSON at offset *pos* of *doc*, with its line and column."""
    line = doc.count("\n", 0, pos) + 1
    column = pos - (doc.rfind("\n", 0, pos) + 1) + 1
    return ParseError(f"bad JSON: {what}", line=line, column=column)


def _skip_space(doc: str, pos: int, line: int) -> tuple[int, int]:
    """The offset of the first non-space at or after *pos* in *doc*, and its line."""
    start = pos
    while pos < len(doc) and doc[pos].isspace():
        pos += 1
    return pos, line + doc.count("\n", start, pos)


def _decoded(doc: str, pos: int, line: int) -> tuple[Any, int] | Raw:
    """:func:`decode` at *pos*, or the error record (on *line* when the error has none)."""
    try:
        return decode(doc, pos)
    except ParseError as exc:
        return Raw(exc.line or line, error=exc)


def _document(doc: str, shape: Shape | None) -> Iterator[Raw]:
    pos = 0
    line = 1
    while True:
        pos, line = _skip_space(doc, pos, line)
        if pos >= len(doc):
            return
        if doc[pos] == "[" and not _starts_rows(doc, pos):
            # A list of puzzles: decode element by element to know each one's line.
            pos += 1
            after_value = False
            while True:
                pos, line = _skip_space(doc, pos, line)
                if pos < len(doc) and doc[pos] == "]":
                    pos += 1
                    break
                if after_value:
                    if pos >= len(doc) or doc[pos] != ",":
                        yield Raw(line, error=_bad_json("expected ',' or ']'", doc, pos))
                        return
                    pos, after_value = pos + 1, False
                    continue
                if isinstance(got := _decoded(doc, pos, line), Raw):
                    yield got
                    if (end := _after_error(doc, pos, got)) is None:
                        return
                else:
                    value, end = got
                    yield _entry(value, shape, line)
                line += doc.count("\n", pos, end)
                pos, after_value = end, True
            continue
        if isinstance(got := _decoded(doc, pos, line), Raw):
            yield got
            if (end := _after_error(doc, pos, got)) is None:
                return
            line += doc.count("\n", pos, end)
            pos = end
            continue
        value, end = got
        if end < len(doc) and not doc[end].isspace() and doc[end - 1] not in ']}"':
            # '003' is not 0, 0, 3: values that run together are one bad value.
            yield Raw(line, error=_bad_json("extra data after the value", doc, end))
            return
        if isinstance(value, dict) and isinstance(value.get("puzzles"), list):
            for item in value["puzzles"]:
                yield _entry(item, shape, line)
        else:
            yield _entry(value, shape, line)
        line += doc.count("\n", pos, end)
        pos = end


def _starts_rows(doc: str, pos: int) -> bool:
    """True when the list at *pos* is the rows of one grid (``[[1, 0, ...], ...]``)."""
    inner = pos + 1
    while inner < len(doc) and doc[inner].isspace():
        inner += 1
    try:
        first, _ = decode(doc, inner)
        if not isinstance(first, list) or not all(isinstance(v, int) for v in first):
            return False
        value, _ = decode(doc, pos)
    except ParseError:
        return False
    return isinstance(value, list) and _is_rows(value)


def _entry(value: Any, shape: Shape | None, line: int) -> Raw:
    try:
        grid, fields = grid_from_value(value, shape)
    except ParseError as exc:
        return Raw(line, error=block_error(exc, line))
    return Raw(line, grid, fields=fields)


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """The puzzles of one or more JSON documents (read whole, up to :data:`MAX_DOCUMENT`)."""
    parts: list[str] = []
    size = 0
    for lineno, text in lines:
        if isinstance(text, ParseError):
            yield Raw(lineno, error=text.located(line=lineno))
            return
        parts.append(text)
        size += len(text) + 1
        if size > MAX_DOCUMENT:
            yield Raw(
                lineno,
                error=ParseError(
                    f"JSON document larger than {MAX_DOCUMENT >> 20} MiB; use JSON Lines (jsonl)",
                    line=lineno,
                ),
            )
            return
    yield from _document("\n".join(parts), shape)


def read_text(text: str, shape: Shape | None = None) -> list[Raw]:
    """The records of a JSON text (for doctests and quick use)."""
    return list(read(text_lines(text), shape))


def to_object(
    grid: Grid | None, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """The JSON object written for one puzzle (``puzzle`` is ``None`` when there is no grid).

    >>> to_object(Grid.parse("." * 36, Shape(3, 2)), fields={"status": "none"})
    {'puzzle': '....................................', 'box': '3x2', 'status': 'none'}
    """
    obj: dict[str, Any] = {"puzzle": None if grid is None else grid.to_line()}
    if grid is not None:
        shape = grid.shape
        if shape.regions is not None:
            # Always the region index of every cell: one JSON type whatever the size (as the
            # HTTP API writes it); reading also takes a string of one symbol a cell.
            obj["regions"] = list(shape.regions)
        elif Shape.from_size(shape.n) != Shape(shape.box_rows, shape.box_cols):
            obj["box"] = shape.box_spec
        if shape.diagonals:
            obj["diagonals"] = True
        obj.update(_rules.to_keys(shape))
    if solution is not None:
        obj["solution"] = solution.to_line()
    for key, value in (fields or {}).items():
        obj.setdefault(key, value)
    return obj


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """One JSON object for *grid* (with ``box``/``diagonals``/``regions`` when not standard),
    one key per line; :class:`~sudokit.formats.Writer` writes lists of compact objects.
    """
    return _json.dumps(
        to_object(grid, solution=solution, fields=fields), indent=1, ensure_ascii=False
    )


class LinesWriter(_base.Writer):
    """One compact JSON object a line; a record without a grid is an object with a null
    ``puzzle`` and a ``status`` (the layout of JSON Lines)."""

    TEXT = False

    def record(self, grid: Grid, solution: Grid | None, fields: Mapping[str, object] | None) -> str:
        """One compact object."""
        return compact(to_object(grid, solution=solution, fields=fields))

    def marker_record(self, status: str, fields: Mapping[str, object] | None) -> str:
        """An object with a null puzzle, the *status* and *fields*."""
        return compact(to_object(None, fields={"status": status, **(fields or {})}))


class Writer(LinesWriter):
    """A JSON list: ``[``, one compact object a line separated by commas, ``]``."""

    def __init__(
        self, stream: IO[str], fmt: str, *, follows: tuple[int, list[str] | None] | None = None
    ) -> None:
        super().__init__(stream, fmt, follows=follows)
        self._closed = False

    def begin(self) -> None:
        """The list's opening bracket, or the comma after the record before."""
        self.stream.write("[\n" if self.count == 0 else ",\n")
        self.count += 1

    def end(self) -> None:
        """Nothing: the comma or the closing bracket follows."""

    def close(self) -> None:
        """The closing bracket (an empty list when nothing was written)."""
        if not self._closed:
            self.stream.write("\n]\n" if self.count else "[]\n")
        self._closed = True


def compact(obj: Mapping[str, Any]) -> str:
    """*obj* as JSON on one line (non-ASCII kept as is).

    >>> compact({"puzzle": "1.3.", "comment": "naïve"})
    '{"puzzle": "1.3.", "comment": "naïve"}'
    """
    return _json.dumps(obj, ensure_ascii=False)


FORMAT = Format(
    NAME,
    read,
    dumps,
    multiline=True,
    structured=True,
    extensions=(".json",),
    priority=10,
    claims=claims,
    writer=Writer,
)
