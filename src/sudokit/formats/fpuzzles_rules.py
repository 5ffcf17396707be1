"""The rule kinds of :mod:`sudokit.rules` in f-puzzles objects: one table, read and written
(layer 2).

:data:`TABLE` holds, for every kind f-puzzles has a key for, the key(s) and how an entry
reads into rules and how rules are written back; :data:`NO_KEY` lists the kinds f-puzzles
has no key for (writing one to f-puzzles is refused naming it; the JSON format keeps them).
Cells are f-puzzles names (``"R1C1"``); the clues outside the grid name the cell one step
outside (``"R0C3"`` above column 3, ``"R10C3"`` below it on 9x9). Numbers are read from text
or numbers and written as text, as f-puzzles writes them.

=====================  ==========================================================================
f-puzzles key          kind (entry shape)
=====================  ==========================================================================
``arrow``              ``arrow``: ``{"cells": circle, "lines": [[a circle cell, arrow...], ...]}``
                       (a pill's cells in reading order; each line starts in the circle)
``littlekillersum``    ``littlekiller``: ``{"cell": outside, "direction": "UR"/"UL"/"DR"/"DL",
                       "value"}``: the diagonal from the clue into the grid, in order
``sandwichsum``        ``sandwich``: ``{"cell": outside, "value"}``: the row or column from the
                       clue's side, in order (the same for ``xsum`` and ``skyscraper``)
``xsum``               ``xsum``
``skyscraper``         ``skyscraper``
``renban``             ``renban``: ``{"lines": [[cells], ...]}``, one rule a line (the same for
                       every line key down to ``zipperline``)
``palindrome``         ``palindrome``
``betweenline``        ``between``
``slowthermometer``    ``slowthermo``
``entropicline``       ``entropic``
``modularline``        ``modular``
``nabner``             ``nabner``
``doublearrow``        ``doublearrow``
``zipperline``         ``zipper``
``whispers``           ``whispers`` (``"value"``: the difference; none: ``ceil(n / 2)``, 5 on 9x9)
``regionsumline``      ``regionsum``: the line split into its pieces by the boxes or regions
``minimum``            ``minimum``: ``{"cell"}`` a cell, one rule of all the cells (fortress
                       cells: neighbours among them are not compared; and ``maximum``)
``maximum``            ``maximum``
``quadruple``          ``quadruple``: ``{"cells": 4 cells, "values": [digits]}``
``difference``         ``difference``: ``{"cells": 2, "value"}`` of a value other than 1 (1 or
                       none: the white kropki dot of :class:`~sudokit.constraints.Constraints`)
``ratio``              ``ratio``: the same, of a value other than 2 (the black dot)
``clone``              ``clone``: ``{"cells", "cloneCells"}`` in matching order
``extraregion``        ``extraregion``: ``{"cells"}``, any shape (exactly the windoku windows
                       of square boxes read as the shape's windows instead)
``disjointgroups``     ``disjointgroups``: ``true`` (boxes, not irregular regions)
``diagonal+``          ``diagonal`` (``anti`` 1) when alone; with ``diagonal-``: the shape's
                       diagonals (Sudoku-X)
``diagonal-``          ``diagonal`` (``anti`` 0) when alone
``rowindexer``         ``rowindexer``: ``{"cells"}``, one rule an entry (and the next two)
``columnindexer``      ``columnindexer``
``boxindexer``         ``boxindexer`` (boxes, not irregular regions)
=====================  ==========================================================================

>>> from sudokit.rules import Renban
>>> TABLE["renban"].keys, sorted(NO_KEY)[:2]
(('renban',), ['diagonalnonconsecutive', 'knightmare'])
>>> context = Context(9, None)
>>> TABLE["renban"].read({"renban": [{"lines": [["R1C1", "R1C2"]]}]}, context)
[Renban(cells=(0, 1))]
>>> TABLE["littlekiller"].read(
...     {"littlekillersum": [{"cell": "R0C3", "direction": "DL", "value": "12"}]}, context)
[LittleKiller(cells=(1, 9), total=12)]
"""

from __future__ import annotations

import json as _json
import re
from collections.abc import Callable, Iterable, Mapping
from itertools import groupby
from typing import Any

from .. import rules as kinds
from ..errors import ParseError, quote
from ..rules import Rule
from ..rules.base import cell_name
from ..rules.sums import outside_clue
from ..shape import Shape

__all__ = [
    "NO_KEY",
    "TABLE",
    "Cells",
    "Context",
    "Entry",
    "entries",
    "error",
    "extra_regions",
    "flag",
    "is_windoku",
    "number",
    "read_rules",
    "rule_keys",
    "windows_of",
    "write_rules",
]

_CELL = re.compile(r"^[Rr](\d+)[Cc](\d+)$")
#: The kinds f-puzzles has no key for, and why (writing them to f-puzzles is refused).
NO_KEY = {
    "pairsum": "f-puzzles' xv marks are X (10) and V (5) only",
    "knightmare": "f-puzzles has no knightmare key",
    "diagonalnonconsecutive": "f-puzzles has no diagonal non-consecutive key",
    "taxicab": "f-puzzles has no taxicab key",
    "selftaxicab": "f-puzzles has no self-taxicab key",
    "sumcage": "f-puzzles' killer cages have one sum",
}
_STEPS = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}


def error(what: str) -> ParseError:
    """A :class:`~sudokit.errors.ParseError` of the f-puzzles format."""
    return ParseError(f"f-puzzles: {what}")


def _shown(value: Any) -> str:
    return quote(_json.dumps(value))


class Cells:
    """Reads ``"R1C1"`` cell names of an ``n x n`` grid, naming the key of a bad one."""

    def __init__(self, n: int) -> None:
        self.n = n

    def _row_col(self, name: Any, key: str) -> tuple[int, int]:
        match = _CELL.match(name) if isinstance(name, str) else None
        if match is None:
            raise error(f"{key!r}: expected a cell like 'R1C1', got {_shown(name)}")
        return int(match[1]), int(match[2])

    def one(self, name: Any, key: str) -> int:
        """The index of a cell inside the grid."""
        row, col = self._row_col(name, key)
        if not (1 <= row <= self.n and 1 <= col <= self.n):
            raise error(f"{key!r}: cell {name} is outside the {self.n}x{self.n} grid")
        return (row - 1) * self.n + col - 1

    def many(self, names: Any, key: str) -> list[int]:
        """The indices of a list of cells inside the grid."""
        if not isinstance(names, list):
            raise error(f"{key!r}: expected a list of cells, got {_shown(names)}")
        return [self.one(name, key) for name in names]

    def path(self, names: Any, key: str) -> tuple[int, ...]:
        """:meth:`many` as a tuple (the cells of a rule, in order)."""
        return tuple(self.many(names, key))

    def outside(self, name: Any, key: str) -> tuple[int, int]:
        """``(row, col)`` from 0 of a cell inside the grid or in the ring just outside it."""
        row, col = self._row_col(name, key)
        if not (0 <= row <= self.n + 1 and 0 <= col <= self.n + 1):
            raise error(f"{key!r}: cell {name} is not beside the {self.n}x{self.n} grid")
        return row - 1, col - 1

    def name(self, cell: int) -> str:
        """The f-puzzles name of a cell index."""
        return f"R{cell // self.n + 1}C{cell % self.n + 1}"

    def names(self, cells: Iterable[int]) -> list[str]:
        """The f-puzzles names of cell indices, in order."""
        return [self.name(c) for c in cells]


class Context:
    """What an entry needs besides itself: the size and the puzzle's boxes or regions."""

    def __init__(self, n: int, shape: Shape | None) -> None:
        self.n = n
        self.shape = shape if shape is not None else Shape.from_size(n)
        self.cells = Cells(n)

    def boxes(self, key: str) -> tuple[int, int]:
        """The box rows and columns; regions that are not boxes are refused naming *key*."""
        if self.shape.regions is not None:
            raise error(f"{key!r} on irregular regions is not supported")
        return self.shape.box_rows, self.shape.box_cols


def entries(obj: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    """The list of objects under *key* (none when absent)."""
    value = obj.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise error(f"{key!r}: expected a list of objects, got {_shown(value)}")
    return value


def number(value: Any, key: str) -> int | None:
    """A clue's number (f-puzzles writes them as text); None when there is none."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise error(f"{key!r}: expected a number, got {_shown(value)}")


def _lines(entry: Mapping[str, Any], key: str, cells: Cells) -> list[tuple[int, ...]]:
    lines = entry.get("lines")
    if not isinstance(lines, list) or not lines:
        raise error(f"{key!r}: expected 'lines', a list of cell paths")
    paths = [cells.path(line, key) for line in lines]
    if not all(paths):
        raise error(f"{key!r}: a line has no cells")
    return paths


class Entry:
    """How one kind lives in an f-puzzles object: its keys, its reader and its writer.

    ``read(obj, context)`` gives the kind's rules found under its keys; ``write(rules,
    context, obj)`` sets the keys for *rules* (all of this kind) on *obj*.
    """

    def __init__(
        self,
        keys: tuple[str, ...],
        read: Callable[[Mapping[str, Any], Context], list[Rule]],
        write: Callable[[list[Rule], Context, dict[str, Any]], None],
    ) -> None:
        self.keys = keys
        self.read = read
        self.write = write


def _add(obj: dict[str, Any], key: str, items: Iterable[dict[str, Any]]) -> None:
    obj.setdefault(key, []).extend(items)


# -- lines --------------------------------------------------------------------------------------


def _line_kind(key: str, cls: type[Rule]) -> Entry:
    def read(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
        return [cls(line) for e in entries(obj, key) for line in _lines(e, key, ctx.cells)]

    def write(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
        _add(obj, key, ({"lines": [ctx.cells.names(r.cells_of())]} for r in rules))

    return Entry((key,), read, write)


def _default_whisper(n: int) -> int:
    return (n + 1) // 2


def _read_whispers(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    found: list[Rule] = []
    for e in entries(obj, "whispers"):
        value = number(e.get("value"), "whispers")
        difference = _default_whisper(ctx.n) if value is None else value
        found.extend(kinds.Whispers(line, difference) for line in _lines(e, "whispers", ctx.cells))
    return found


def _write_whispers(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    _add(
        obj,
        "whispers",
        (
            {"lines": [ctx.cells.names(r.cells)], "value": str(r.difference)}
            for r in rules
            if isinstance(r, kinds.Whispers)
        ),
    )


def _read_region_sums(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    box_of = ctx.shape.box_of
    found: list[Rule] = []
    for e in entries(obj, "regionsumline"):
        for line in _lines(e, "regionsumline", ctx.cells):
            pieces = [tuple(run) for _, run in groupby(line, key=lambda c: box_of[c])]
            found.append(kinds.RegionSum(tuple(pieces)))
    return found


def _write_region_sums(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    _add(
        obj,
        "regionsumline",
        (
            {"lines": [ctx.cells.names(c for piece in r.segments for c in piece)]}
            for r in rules
            if isinstance(r, kinds.RegionSum)
        ),
    )


# -- arrows -------------------------------------------------------------------------------------


def _read_arrows(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    found: list[Rule] = []
    for e in entries(obj, "arrow"):
        circle = tuple(sorted(ctx.cells.path(e.get("cells"), "arrow")))
        if not circle:
            raise error("'arrow': an arrow needs its circle's 'cells'")
        arrows = []
        where = cell_name(circle[0], ctx.n)
        for line in _lines(e, "arrow", ctx.cells):
            if line[0] not in circle:
                raise error(
                    f"arrow at {where}: its line starts at {cell_name(line[0], ctx.n)},"
                    " outside its circle"
                )
            arrows.append(line[1:])
        found.append(kinds.Arrow(circle, tuple(arrows)))
    return found


def _write_arrows(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    out = []
    for r in rules:
        if not isinstance(r, kinds.Arrow):
            continue
        lines = []
        for arrow in r.arrows:
            start = next((c for c in r.circle if _touch(c, arrow[0], ctx.n)), r.circle[0])
            lines.append(ctx.cells.names((start, *arrow)))
        out.append({"cells": ctx.cells.names(r.circle), "lines": lines})
    _add(obj, "arrow", out)


def _touch(a: int, b: int, n: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return max(abs(ra - rb), abs(ca - cb)) == 1


# -- clues outside the grid ---------------------------------------------------------------------


def _inside(r: int, c: int, n: int) -> bool:
    return 0 <= r < n and 0 <= c < n


def _read_little_killers(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    n = ctx.n
    found: list[Rule] = []
    for e in entries(obj, "littlekillersum"):
        total = number(e.get("value"), "littlekillersum")
        if total is None:
            continue  # a clue without a number states nothing
        r, c = ctx.cells.outside(e.get("cell"), "littlekillersum")
        direction = e.get("direction")
        step = _STEPS.get(direction) if isinstance(direction, str) else None
        where = f"little killer {total} at R{r + 1}C{c + 1}"
        if step is None:
            shown = quote(direction) if isinstance(direction, str) else _shown(direction)
            raise error(f"{where}: direction {shown} is not UR, UL, DR or DL")
        dr, dc = step
        if _inside(r, c, n) or not _inside(r + dr, c + dc, n):
            raise error(f"{where}: the clue is not outside the grid pointing along a diagonal")
        cells = []
        r, c = r + dr, c + dc
        while _inside(r, c, n):
            cells.append(r * n + c)
            r, c = r + dr, c + dc
        found.append(kinds.LittleKiller(tuple(cells), total))
    return found


def _write_little_killers(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    n = ctx.n
    out = []
    for rule in rules:
        if not isinstance(rule, kinds.LittleKiller):
            continue
        r0, c0 = divmod(rule.cells[0], n)
        if len(rule.cells) > 1:
            r1, c1 = divmod(rule.cells[1], n)
            dr, dc = r1 - r0, c1 - c0
        else:  # a corner cell: a diagonal of one from outside to outside
            dr, dc = (1 if r0 == 0 else -1), (1 if c0 == n - 1 else -1)
        name = next(k for k, v in _STEPS.items() if v == (dr, dc))
        out.append(
            {"cell": f"R{r0 - dr + 1}C{c0 - dc + 1}", "direction": name, "value": str(rule.total)}
        )
    _add(obj, "littlekillersum", out)


def _outside_kind(
    key: str, cls: type[kinds.Sandwich] | type[kinds.XSum] | type[kinds.Skyscraper]
) -> Entry:
    def read(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
        n = ctx.n
        found: list[Rule] = []
        for e in entries(obj, key):
            total = number(e.get("value"), key)
            if total is None:
                continue
            r, c = ctx.cells.outside(e.get("cell"), key)
            if (r in (-1, n)) == (c in (-1, n)):
                raise error(
                    f"{cls.title} {total} at R{r + 1}C{c + 1}: the clue is not beside a row or"
                    " column"
                )
            if r == -1:
                cells = [i * n + c for i in range(n)]
            elif r == n:
                cells = [i * n + c for i in reversed(range(n))]
            elif c == -1:
                cells = [r * n + j for j in range(n)]
            else:
                cells = [r * n + j for j in reversed(range(n))]
            found.append(cls(tuple(cells), total))
        return found

    def write(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
        out = []
        for rule in rules:
            if isinstance(rule, kinds.Sandwich | kinds.XSum | kinds.Skyscraper):
                r, c = outside_clue(rule.cells, ctx.n)
                out.append({"cell": f"R{r + 1}C{c + 1}", "value": str(rule.total)})
        _add(obj, key, out)

    return Entry((key,), read, write)


# -- cells --------------------------------------------------------------------------------------


def _cell_kind(key: str, cls: type[kinds.Minimum] | type[kinds.Maximum]) -> Entry:
    def read(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
        found = tuple(ctx.cells.one(e.get("cell"), key) for e in entries(obj, key))
        return [cls(found)] if found else []

    def write(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
        _add(obj, key, ({"cell": ctx.cells.name(c)} for r in rules for c in r.cells_of()))

    return Entry((key,), read, write)


def _dot_kind(key: str, cls: type[kinds.Difference] | type[kinds.Ratio], legacy: int) -> Entry:
    def read(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
        found: list[Rule] = []
        for e in entries(obj, key):
            value = number(e.get("value"), key)
            if value is not None and value != legacy:
                found.append(cls(ctx.cells.path(e.get("cells"), key), value))
        return found

    def write(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
        _add(
            obj,
            key,
            (
                {"cells": ctx.cells.names(r.cells), "value": str(r.value)}
                for r in rules
                if isinstance(r, kinds.Difference | kinds.Ratio)
            ),
        )

    return Entry((key,), read, write)


def _read_quadruples(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    found: list[Rule] = []
    for e in entries(obj, "quadruple"):
        values = e.get("values")
        if not isinstance(values, list):
            raise error(f"'quadruple': expected 'values', a list of digits, got {_shown(values)}")
        digits = [number(v, "quadruple") for v in values]
        found.append(
            kinds.Quadruple(ctx.cells.path(e.get("cells"), "quadruple"), [d for d in digits if d])
        )
    return found


def _write_quadruples(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    _add(
        obj,
        "quadruple",
        (
            {"cells": ctx.cells.names(r.cells), "values": list(r.digits)}
            for r in rules
            if isinstance(r, kinds.Quadruple)
        ),
    )


def _read_clones(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    return [
        kinds.Clone(
            ctx.cells.path(e.get("cells"), "clone"), ctx.cells.path(e.get("cloneCells"), "clone")
        )
        for e in entries(obj, "clone")
    ]


def _write_clones(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    _add(
        obj,
        "clone",
        (
            {"cells": ctx.cells.names(r.cells), "cloneCells": ctx.cells.names(r.copy)}
            for r in rules
            if isinstance(r, kinds.Clone)
        ),
    )


def _indexer_kind(key: str, cls: type[kinds.RowIndexer] | type[kinds.ColumnIndexer]) -> Entry:
    def read(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
        return [cls(ctx.cells.path(e.get("cells"), key)) for e in entries(obj, key)]

    def write(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
        _add(obj, key, ({"cells": ctx.cells.names(r.cells_of())} for r in rules))

    return Entry((key,), read, write)


def _read_box_indexers(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    found = entries(obj, "boxindexer")
    if not found:
        return []
    box = ctx.boxes("boxindexer")
    return [kinds.BoxIndexer(ctx.cells.path(e.get("cells"), "boxindexer"), box) for e in found]


def _write_box_indexers(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    _add(obj, "boxindexer", ({"cells": ctx.cells.names(r.cells_of())} for r in rules))


# -- the board ----------------------------------------------------------------------------------


def windows_of(shape: Shape) -> set[frozenset[int]] | None:
    """The windoku windows of *shape*'s boxes (None unless square boxes, not regions)."""
    if shape.box_rows != shape.box_cols or shape.regions is not None:
        return None
    windows = Shape(shape.box_rows, shape.box_cols, windoku=True)
    return {frozenset(windows.units[u]) for u in windows.extra_units}


def extra_regions(obj: Mapping[str, Any], ctx: Context) -> list[frozenset[int]]:
    """The cells of every ``extraregion`` entry."""
    key = "extraregion"
    return [frozenset(ctx.cells.path(e.get("cells"), key)) for e in entries(obj, key)]


def is_windoku(obj: Mapping[str, Any], ctx: Context) -> bool:
    """Whether the ``extraregion`` entries are exactly the windoku windows."""
    found = extra_regions(obj, ctx)
    windows = windows_of(ctx.shape)
    if not found or windows is None:
        return False
    return len(found) == len(windows) and set(found) == windows


def _read_extra_regions(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    if is_windoku(obj, ctx):
        return []
    return [kinds.ExtraRegion(cells) for cells in extra_regions(obj, ctx)]


def _write_extra_regions(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    _add(obj, "extraregion", ({"cells": ctx.cells.names(r.cells_of())} for r in rules))


def flag(obj: Mapping[str, Any], key: str) -> bool:
    """The value of a true/false key (false when absent)."""
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise error(f"{key!r}: expected true or false, got {_shown(value)}")
    return value


def _read_disjoint(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    if not flag(obj, "disjointgroups"):
        return []
    return [kinds.DisjointGroups(ctx.boxes("disjointgroups"))]


def _write_disjoint(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    obj["disjointgroups"] = True


def _read_diagonal(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    plus, minus = flag(obj, "diagonal+"), flag(obj, "diagonal-")
    if plus == minus:
        return []  # none, or both: the shape's diagonals (Sudoku-X)
    return [kinds.Diagonal(1 if plus else 0)]


def _write_diagonal(rules: list[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    for rule in rules:
        if isinstance(rule, kinds.Diagonal):
            obj["diagonal+" if rule.anti else "diagonal-"] = True


#: Every kind f-puzzles has a key for, by kind name.
TABLE: dict[str, Entry] = {
    "arrow": Entry(("arrow",), _read_arrows, _write_arrows),
    "littlekiller": Entry(("littlekillersum",), _read_little_killers, _write_little_killers),
    "sandwich": _outside_kind("sandwichsum", kinds.Sandwich),
    "xsum": _outside_kind("xsum", kinds.XSum),
    "skyscraper": _outside_kind("skyscraper", kinds.Skyscraper),
    "renban": _line_kind("renban", kinds.Renban),
    "palindrome": _line_kind("palindrome", kinds.Palindrome),
    "between": _line_kind("betweenline", kinds.Between),
    "slowthermo": _line_kind("slowthermometer", kinds.SlowThermo),
    "entropic": _line_kind("entropicline", kinds.Entropic),
    "modular": _line_kind("modularline", kinds.Modular),
    "nabner": _line_kind("nabner", kinds.Nabner),
    "doublearrow": _line_kind("doublearrow", kinds.DoubleArrow),
    "zipper": _line_kind("zipperline", kinds.Zipper),
    "whispers": Entry(("whispers",), _read_whispers, _write_whispers),
    "regionsum": Entry(("regionsumline",), _read_region_sums, _write_region_sums),
    "minimum": _cell_kind("minimum", kinds.Minimum),
    "maximum": _cell_kind("maximum", kinds.Maximum),
    "quadruple": Entry(("quadruple",), _read_quadruples, _write_quadruples),
    "difference": _dot_kind("difference", kinds.Difference, 1),
    "ratio": _dot_kind("ratio", kinds.Ratio, 2),
    "clone": Entry(("clone",), _read_clones, _write_clones),
    "extraregion": Entry(("extraregion",), _read_extra_regions, _write_extra_regions),
    "disjointgroups": Entry(("disjointgroups",), _read_disjoint, _write_disjoint),
    "diagonal": Entry(("diagonal+", "diagonal-"), _read_diagonal, _write_diagonal),
    "rowindexer": _indexer_kind("rowindexer", kinds.RowIndexer),
    "columnindexer": _indexer_kind("columnindexer", kinds.ColumnIndexer),
    "boxindexer": Entry(("boxindexer",), _read_box_indexers, _write_box_indexers),
}


def rule_keys() -> frozenset[str]:
    """Every f-puzzles key :data:`TABLE` reads."""
    return frozenset(key for entry in TABLE.values() for key in entry.keys)


def read_rules(obj: Mapping[str, Any], ctx: Context) -> list[Rule]:
    """Every rule of :data:`TABLE`'s kinds in *obj*, in the table's order."""
    return [rule for entry in TABLE.values() for rule in entry.read(obj, ctx)]


def write_rules(rules: Iterable[Rule], ctx: Context, obj: dict[str, Any]) -> None:
    """Set the keys of *rules* on *obj*; :class:`ValueError` naming the first kind f-puzzles
    has no key for."""
    by_kind: dict[str, list[Rule]] = {}
    for rule in rules:
        by_kind.setdefault(rule.kind, []).append(rule)
    refused = sorted(kind for kind in by_kind if kind not in TABLE)
    if refused:
        kind = refused[0]
        why = NO_KEY.get(kind, "f-puzzles has no key for it")
        raise ValueError(
            f"f-puzzles cannot hold the {by_kind[kind][0].title} rule ({kind!r}: {why});"
            " write the puzzle as json"
        )
    for kind, entry in TABLE.items():
        if kind in by_kind:
            entry.write(by_kind[kind], ctx, obj)
