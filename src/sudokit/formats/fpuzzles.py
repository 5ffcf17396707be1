"""f-puzzles and SudokuPad: the variant community's puzzle objects and links (layer 2).

An f-puzzles puzzle is a JSON object, ``{"size": 9, "grid": [[{"value": 5, "given": true},
{}, ...], ...], "killercage": [{"cells": ["R1C1", "R2C1"], "value": "11"}], ...}``, that
links carry compressed with lz-string (:mod:`~sudokit.formats.lzstring`):

* ``https://www.f-puzzles.com/?load=N4Ig...`` (f-puzzles);
* ``https://sudokupad.app/fpuzzles N4Ig...`` (also ``fpuz``, ``beta.sudokupad.app``,
  ``?puzzleid=`` and the Cracking the Cryptic app's ``app.crackingthecryptic.com/fpuz...`` and
  ``.../sudoku/?puzzleid=fpuzzles...``): the same object for SudokuPad;
* ``https://sudokupad.app/scl...`` / ``ctc...``: SudokuPad's own layout, read for its givens,
  boxes or regions and killer cages, and ``classic...``: a classic puzzle's givens packed
  into the id (see :mod:`~sudokit.formats.sudokupad`).

One record per line: a link, the bare compressed text, or an f-puzzles object on one line
(JSON and JSON Lines files read f-puzzles objects too). Read: givens, box shape or regions
(``region``), both diagonals, windoku (``extraregion`` holding exactly the windows),
``killercage``, ``antiknight``, ``antiking``, ``nonconsecutive``, kropki dots
(``difference``/``ratio``, value 1/2) and XV (``xv``) with their ``negative`` rules (per
colour; ``nonconsecutive`` beside kropki dots is the white one, as f-puzzles means it),
``odd``/``even`` and ``thermometer`` as the fields of
:class:`~sudokit.constraints.Constraints`; every key of a rule kind of :mod:`sudokit.rules`
(arrows, little killers, sandwiches, renban, whispers, ..., one diagonal alone, other
extra regions, dots of other values) through the table of
:mod:`~sudokit.formats.fpuzzles_rules`, which says which key reads to which kind. The flags
of :data:`METADATA_FLAGS` are read in a ``metadata`` object too (as SudokuPad keeps them),
where any other key set true is refused. Anything
else that sets a rule is refused, every such rule named in one line (``f-puzzles: 'fog' and
'loop' are not supported``); a rule that cannot hold is refused in its own words
(``f-puzzles: renban line at r1c1 has 10 cells; at most 9 fit``); the drawing
tools (``text``, ``line``, ``circle``, ``rectangle``, and ``cage`` without a value: a cage
with one carries a rule the puzzle's text states, and is refused) are left out, the
``dropped`` field saying which. Titles, authors, rules text and the solution are kept as
fields, and written back from the fields. :func:`dumps` writes an f-puzzles link (sizes up to
16; a kind f-puzzles has no key for is refused naming it: the JSON format keeps it); the
``sudokupad`` format writes the SudokuPad link of the same object.

>>> from sudokit.grid import Grid
>>> g = Grid.parse("1.3." "...2" "2..." ".3.1")
>>> link = dumps(g)
>>> link[:40]
'https://www.f-puzzles.com/?load=N4Igzglg'
>>> parse_link(link) == (g, {})
True
"""

from __future__ import annotations

import json as _json
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from ..constraints import Cage, Constraints
from ..errors import ParseError, quote
from ..grid import Grid
from ..shape import Shape
from . import fpuzzles_rules, lzstring
from ._base import Format, Head, Line, Raw, each_line
from .fpuzzles_rules import Cells as _Cells
from .fpuzzles_rules import Context
from .fpuzzles_rules import entries as _entries
from .fpuzzles_rules import error as _error
from .fpuzzles_rules import number as _number

__all__ = [
    "DRAWING_KEYS",
    "FIELD_KEYS",
    "FORMAT",
    "MAX_SIZE",
    "METADATA_FLAGS",
    "RULE_KEYS",
    "claims",
    "dumps",
    "flags_of",
    "from_object",
    "is_object",
    "is_sudokupad_link",
    "link_payload",
    "not_supported",
    "parse_link",
    "read",
    "shape_of_regions",
    "to_object",
]

NAME = "fpuzzles"
#: Largest grid f-puzzles draws.
MAX_SIZE = 16
F_PUZZLES = "https://www.f-puzzles.com/?load="
SUDOKUPAD = "https://sudokupad.app/fpuzzles"
# SudokuPad's hosts: sudokupad.app (beta., www.) and the Cracking the Cryptic app, which is
# SudokuPad under another address (f-puzzles' "open in app" writes its links).
_SUDOKUPAD = re.compile(
    r"^(?:https?://)?(?:(?:[a-z]+\.)?sudokupad\.app|app\.crackingthecryptic\.com)/(.*)$",
    re.IGNORECASE,
)
# The kinds of puzzle a SudokuPad id names by its prefix (as SudokuPad reads them).
_KINDS = (
    ("fpuzzles", "fpuzzles"), ("fpuz", "fpuzzles"), ("scl", "scl"), ("ctc", "scl"),
    ("classic", "classic"),
)  # fmt: skip
_FPUZZLES = re.compile(r"^(?:https?://)?(?:www\.)?f-puzzles\.com/?(\?.*)$", re.IGNORECASE)
#: Keys that describe the puzzle without setting a rule (kept as fields or ignored).
FIELD_KEYS = ("title", "author", "ruleset")
_IGNORED = frozenset(
    ("size", "grid", "solution", "activeConstraints", "disabledlogic", "truecandidatesoptions",
     "highlight", "metadata", "version", "id", *FIELD_KEYS)
)  # fmt: skip
#: f-puzzles' drawing tools, in the order the note names them (no rule by themselves).
DRAWING_KEYS = ("text", "line", "circle", "rectangle", "cage")
_PLURALS = {"text": "texts"}
# f-puzzles' negative kropki rule speaks of its own dots only (white 1, black 2).
_OTHER_DOTS = "negative 'difference'/'ratio' with dots of other values is not supported"
# f-puzzles' non-consecutive rule is the negative white-dot rule where there are kropki dots.
_NONCONSECUTIVE = (
    "f-puzzles: the non-consecutive rule with kropki dots cannot be written (f-puzzles reads it"
    " as all white dots given); the JSON format keeps it"
)
#: The keys read as rules of the model (every other key that sets a rule is refused by name).
RULE_KEYS = frozenset(
    ("antiknight", "antiking", "nonconsecutive", "killercage", "difference", "ratio", "xv",
     "odd", "even", "thermometer", "negative", *fpuzzles_rules.rule_keys())
)  # fmt: skip
#: The true/false rule keys SudokuPad also keeps in a puzzle's ``metadata`` object (Sudoku
#: Maker writes them there), read as the keys of the same names.
METADATA_FLAGS = (
    "antiknight", "antiking", "nonconsecutive", "diagonal+", "diagonal-", "disjointgroups"
)  # fmt: skip


# -- reading ----------------------------------------------------------------------------------


def is_object(value: Any) -> bool:
    """True when a decoded JSON *value* is an f-puzzles puzzle object (``size`` and ``grid``)."""
    return isinstance(value, dict) and "size" in value and isinstance(value.get("grid"), list)


def flags_of(place: Any, where: str) -> dict[str, bool]:
    """The rule flags of :data:`METADATA_FLAGS` that *place* (an object, or anything else:
    none) sets true; every other key set true is a rule not read, refused naming them all.

    >>> flags_of({"title": "T", "antiknight": True, "antiking": False}, "'metadata'")
    {'antiknight': True}
    >>> flags_of({"antiknight": True, "fog": True}, "'metadata'")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: f-puzzles: 'metadata' flag 'fog' is not supported
    """
    if not isinstance(place, dict):
        return {}
    found, refused = {}, []
    for key, value in place.items():
        if value is not True:
            continue  # text (title, solution, source, ...) and flags left unset
        if key in METADATA_FLAGS:
            found[key] = True
        else:
            refused.append(f"{where} flag {key!r}")
    if refused:
        raise _error(not_supported(refused))
    return found


def _pairs(obj: Mapping[str, Any], key: str, cells: _Cells, value: int) -> list[list[int]]:
    """The cell pairs of a kropki dot of *value* (or none): the other values are read as
    rules (:mod:`~sudokit.formats.fpuzzles_rules`)."""
    pairs = []
    for entry in _entries(obj, key):
        found = _number(entry.get("value"), key)
        if found is not None and found != value:
            continue
        pair = cells.many(entry.get("cells"), key)
        if len(pair) != 2:
            raise _error(f"{key!r}: a dot joins two cells, got {len(pair)}")
        pairs.append(pair)
    return pairs


def _layout(obj: Mapping[str, Any], n: int) -> Shape:
    """The shape the grid's ``region`` entries draw (the default boxes when there are none)."""
    default = Shape.from_size(n)
    rows = obj["grid"]
    if len(rows) != n or not all(isinstance(r, list) and len(r) == n for r in rows):
        raise _error(f"'grid': expected {n} rows of {n} cells")
    if not all(isinstance(c, dict) for r in rows for c in r):
        raise _error("'grid': expected every cell to be an object")
    cells = [c for r in rows for c in r]
    if not any("region" in c for c in cells):
        return default
    regions = []
    for i, cell in enumerate(cells):
        region = cell.get("region", default.box_of[i])
        if not isinstance(region, int) or isinstance(region, bool) or not 0 <= region < n:
            raise _error(
                f"cell R{i // n + 1}C{i % n + 1} has region {quote(_json.dumps(region))}:"
                " cells outside every region are not supported"
            )
        regions.append(region)
    return shape_of_regions(regions, n)


def shape_of_regions(regions: list[int], n: int) -> Shape:
    """The shape whose boxes (any r x c tiling) or jigsaw regions are *regions*, a region
    index for every cell; :class:`~sudokit.errors.ParseError` for a map that is neither.

    >>> shape_of_regions([0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2, 4)
    Shape(2, 2)
    >>> shape_of_regions([0] * 4, 2)
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: f-puzzles: regions: every region must have exactly 2 cells, ...
    """
    for rows, cols in ((r, n // r) for r in range(1, n + 1) if n % r == 0):
        boxes = Shape(rows, cols)
        if _same_partition(regions, boxes.box_of):
            return boxes
    try:
        return Shape.jigsaw(regions)
    except ValueError as exc:
        raise _error(f"regions: {exc}") from None


def _same_partition(a: list[int] | tuple[int, ...], b: tuple[int, ...]) -> bool:
    """True when the two region maps group the cells the same way (labels may differ)."""
    seen: dict[int, int] = {}
    back: dict[int, int] = {}
    for x, y in zip(a, b, strict=True):
        if seen.setdefault(x, y) != y or back.setdefault(y, x) != x:
            return False
    return True


def _parity(obj: Mapping[str, Any], cells: _Cells) -> str | None:
    marks = ["."] * (cells.n * cells.n)
    for key, mark in (("even", "e"), ("odd", "o")):
        for entry in _entries(obj, key):
            marks[cells.one(entry.get("cell"), key)] = mark
    text = "".join(marks)
    return text if text.strip(".") else None


def _negative(obj: Mapping[str, Any]) -> tuple[bool, bool, bool]:
    """The negative rules: (white kropki, black kropki, XV), as f-puzzles sets them per dot
    kind (``difference`` white, ``ratio`` black)."""
    names = obj.get("negative") or []
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise _error(f"'negative': expected a list of names, got {quote(_json.dumps(names))}")
    unknown = sorted(set(names) - {"ratio", "difference", "xv"})
    if unknown:
        raise _error(f"negative {unknown[0]!r} is not supported")
    return "difference" in names, "ratio" in names, "xv" in names


def _thermos(obj: Mapping[str, Any], cells: _Cells) -> list[list[int]]:
    thermos: list[list[int]] = []
    for entry in _entries(obj, "thermometer"):
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise _error("'thermometer': expected 'lines', a list of cell paths")
        thermos.extend(cells.many(line, "thermometer") for line in lines)
    return thermos


def _refuse_unknown(obj: Mapping[str, Any]) -> dict[str, str]:
    """The fields noting the drawings left undrawn (:func:`_drawings`); refuses, in one
    error naming them all, every key that sets a rule outside the model."""
    refused = []
    for key, value in obj.items():
        if key in _IGNORED or key in RULE_KEYS or value in (None, False, [], {}, ""):
            continue
        if key not in DRAWING_KEYS:
            refused.append(repr(key))
        elif key == "cage" and any(_cage_value(e) for e in _entries(obj, key)):
            refused.append("'cage' with a value (a rule the puzzle's text states)")
    if refused:
        raise _error(not_supported(refused))
    return _drawings(obj)


def not_supported(names: list[str]) -> str:
    """One refusal naming every rule of *names*.

    >>> not_supported(["'arrow'"]), not_supported(["'a'", "'b'", "'c'"])
    ("'arrow' is not supported", "'a', 'b' and 'c' are not supported")
    """
    if len(names) == 1:
        return f"{names[0]} is not supported"
    return f"{', '.join(names[:-1])} and {names[-1]} are not supported"


def _cage_value(entry: Mapping[str, Any]) -> bool:
    """Whether a plain ``cage`` entry carries a value (a sum, a product, a word: its rule)."""
    return entry.get("value") not in (None, "")


def _drawings(obj: Mapping[str, Any]) -> dict[str, str]:
    """``{"dropped": "2 lines, 1 text"}`` for the drawings of *obj* (none: ``{}``).

    f-puzzles' drawing tools -- text, lines, circles, rectangles and the plain ``cage``
    (which is not ``killercage``) -- set no rule by themselves: the puzzle is read without
    them and the note says what was left undrawn. A ``cage`` with a value is a rule that the
    puzzle's text states (a product, a sum without the killer rule, ...) and is refused.

    >>> _drawings({"line": [{}, {}], "text": [{"value": "hi"}], "cage": []})
    {'dropped': '1 text, 2 lines'}
    """
    found = []
    for key in DRAWING_KEYS:
        count = len(obj.get(key) or [])
        if count:
            found.append(f"{count} {key if count == 1 else _PLURALS.get(key, key + 's')}")
    return {"dropped": ", ".join(found)} if found else {}


def from_object(obj: Any) -> tuple[Grid, dict[str, str]]:
    """The grid (its shape carrying the rules) and fields of an f-puzzles object.

    Raises :class:`~sudokit.errors.ParseError` naming every rule it does not support, or
    the first thing it cannot read. Drawings (text, lines, circles, rectangles, cages
    without a value) are left out, and the ``dropped`` field says which.

    >>> cells = [[{}] * 4 for _ in range(4)]
    >>> g, _ = from_object({"size": 4, "grid": cells, "antiknight": True})
    >>> g.shape.variant
    'antiknight'
    >>> from_object({"size": 4, "grid": cells, "line": [{"lines": [["R1C1", "R1C2"]]}]})[1]
    {'dropped': '1 line'}
    >>> from_object({"size": 4, "grid": cells, "fog": [{}], "loop": [{}], "snake": [{}]})
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: f-puzzles: 'fog', 'loop' and 'snake' are not supported
    """
    if not is_object(obj):
        raise _error("expected an object with 'size' and 'grid'")
    n = obj["size"]
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 64:
        raise _error(f"'size': expected a size 1..64, got {quote(_json.dumps(n))}")
    dropped = _refuse_unknown(obj)
    obj = {**obj, **flags_of(obj.get("metadata"), "'metadata'")}
    shape = _layout(obj, n)
    cells = _Cells(n)
    context = Context(n, shape)
    both = fpuzzles_rules.flag(obj, "diagonal+") and fpuzzles_rules.flag(obj, "diagonal-")
    white_negative, black_negative, xv_negative = _negative(obj)
    rules = fpuzzles_rules.read_rules(obj, context)
    white, black = _pairs(obj, "difference", cells, 1), _pairs(obj, "ratio", cells, 2)
    # f-puzzles' negative rule of the white dots is its non-consecutive rule: with kropki
    # dots (or the negative we write) it spares the dotted pairs, as SudokuSolver reads it.
    nonconsecutive = fpuzzles_rules.flag(obj, "nonconsecutive")
    if nonconsecutive and (white_negative or white or black):
        nonconsecutive, white_negative = False, True
    if (white_negative or black_negative) and any(r.kind in ("difference", "ratio") for r in rules):
        raise _error(_OTHER_DOTS)
    constraints = Constraints(
        cages=[
            Cage(cells.many(e.get("cells"), "killercage"), _number(e.get("value"), "killercage"))
            for e in _entries(obj, "killercage")
        ],
        antiknight=fpuzzles_rules.flag(obj, "antiknight"),
        antiking=fpuzzles_rules.flag(obj, "antiking"),
        nonconsecutive=nonconsecutive,
        white=white,
        black=black,
        white_negative=white_negative,
        black_negative=black_negative,
        x=[p for p, v in _xv(obj, cells) if v == "X"],
        v=[p for p, v in _xv(obj, cells) if v == "V"],
        xv_negative=xv_negative,
        parity=_parity(obj, cells),
        thermos=_thermos(obj, cells),
        rules=rules,
    )
    try:
        variant = Shape(
            shape.box_rows,
            shape.box_cols,
            diagonals=both,
            regions=shape.regions,
            windoku=fpuzzles_rules.is_windoku(obj, context),
            constraints=constraints,
        )
    except ValueError as exc:
        raise _error(str(exc)) from None
    values = bytearray(n * n)
    for i, cell in enumerate(c for row in obj["grid"] for c in row):
        if cell.get("given"):
            value = cell.get("value")
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= n:
                raise _error(f"cell R{i // n + 1}C{i % n + 1}: given {value!r} is not 1..{n}")
            values[i] = value
    fields = {k: str(obj[k]) for k in FIELD_KEYS if isinstance(obj.get(k), str) and obj[k]}
    fields.update(dropped)
    solution = obj.get("solution")
    if (
        isinstance(solution, list)
        and len(solution) == n * n
        and all(isinstance(v, int) and 1 <= v <= n for v in solution)
    ):
        fields["solution"] = Grid(bytes(solution), variant).to_line()
    return Grid(bytes(values), variant), fields


def _xv(obj: Mapping[str, Any], cells: _Cells) -> list[tuple[list[int], str]]:
    out = []
    for entry in _entries(obj, "xv"):
        value = entry.get("value")
        if value not in ("X", "V", "x", "v"):
            raise _error(f"'xv' with value {quote(_json.dumps(value))} is not supported (X or V)")
        pair = cells.many(entry.get("cells"), "xv")
        if len(pair) != 2:
            raise _error(f"'xv': an X or V joins two cells, got {len(pair)}")
        out.append((pair, str(value).upper()))
    return out


def link_payload(text: str) -> tuple[str, str]:
    """The kind (``"fpuzzles"``, ``"scl"``, ``"classic"``) and payload of a pasted link or bare
    payload; :class:`~sudokit.errors.ParseError` for a link that holds no puzzle.

    >>> link_payload("https://sudokupad.app/fpuzzlesN4IgzglgXgpiBcBOAvkA")
    ('fpuzzles', 'N4IgzglgXgpiBcBOAvkA')
    >>> link_payload("https://f-puzzles.com/?load=N4Ig%2B%3D")
    ('fpuzzles', 'N4Ig+=')
    """
    text = text.strip()
    match = _FPUZZLES.match(text)
    if match:
        query = parse_qs(match[1][1:], keep_blank_values=True)
        if "load" in query:
            # parse_qs turns '+' into a space: base 64 has no spaces, so they were '+'.
            return "fpuzzles", query["load"][0].replace(" ", "+")
        if "id" in query:
            raise _error("short links (?id=...) are kept by the site; paste the ?load= link")
        raise _error(f"no puzzle in the link {quote(text)} (expected ?load=...)")
    match = _SUDOKUPAD.match(text)
    if match:
        path = match[1]
        try:
            split = urlsplit(path)
        except ValueError:  # a malformed address part ("//[...")
            split = urlsplit(path.replace("[", "%5B").replace("]", "%5D"))
        query = parse_qs(split.query, keep_blank_values=True)
        puzzle = query["puzzleid"][0] if "puzzleid" in query else split.path
        # The CTC app puts its puzzles under /sudoku/ (app.crackingthecryptic.com/sudoku/...).
        puzzle = unquote(puzzle.lstrip("/")).removeprefix("sudoku/")
        for prefix, kind in _KINDS:
            if puzzle.startswith(prefix):
                return kind, puzzle[len(prefix) :].replace(" ", "+")
        if puzzle.startswith("scf"):
            raise ParseError(
                "sudokupad: 'scf' ids (SudokuPad's compact layout) are not read; open the"
                " puzzle in SudokuPad and share its f-puzzles or scl link"
            )
        raise ParseError(
            f"sudokupad: the link {quote(text)} names a puzzle kept by the site; only links"
            " that carry the puzzle (sudokupad.app/fpuzzles..., /scl..., /ctc...,"
            " /classic...) are read"
        )
    return "fpuzzles", text


def parse_link(text: str) -> tuple[Grid, dict[str, str]]:
    """The grid and fields of an f-puzzles or SudokuPad link, a bare payload, or an
    f-puzzles object on one line.

    >>> g, _ = parse_link("https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZYHv3vyGCRfALrJCwgTOlyJU0XKVKFsles1c1yrRu2S9R+Yd1nVp/Vdk7r58WK5A")
    >>> str(g)[:10]
    '1.........'
    """
    text = text.strip()
    if text.startswith("{"):
        return from_object(_decode(text, "bad JSON"))
    kind, payload = link_payload(text)
    if kind == "classic":
        from . import sudokupad

        return sudokupad.from_classic(payload), {}
    who = "sudokupad" if _SUDOKUPAD.match(text) else "f-puzzles"
    try:
        decoded = lzstring.decompress(payload)
    except ValueError as exc:
        raise ParseError(f"{who}: the link's puzzle cannot be decompressed ({exc})") from None
    if kind == "scl":
        from . import sudokupad

        return sudokupad.from_text(decoded)
    return from_object(_decode(decoded, "the link does not hold a puzzle object (bad JSON"))


def _decode(text: str, what: str) -> Any:
    """The JSON value of *text*; a :class:`~sudokit.errors.ParseError` saying *what* if bad."""
    try:
        return _json.loads(text)
    except (ValueError, RecursionError) as exc:
        close = ")" if "(" in what else ""
        raise _error(f"{what}: {exc}{close}") from None


def is_sudokupad_link(text: str) -> bool:
    """Whether *text* starts with a SudokuPad address (sudokupad.app or the CTC app).

    >>> is_sudokupad_link("https://app.crackingthecryptic.com/fpuzN4Ig"), is_sudokupad_link("N4Ig")
    (True, False)
    """
    return bool(_SUDOKUPAD.match(text))


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One puzzle per non-blank line (*shape* is not used: the puzzle says it)."""
    return each_line(lines, parse_link)


def claims(head: Head) -> bool:
    """The first line is an f-puzzles link (or the bare compressed text of an object)."""
    first = head.first
    return bool(_FPUZZLES.match(first)) or first.startswith("N4Ig")


# -- writing ----------------------------------------------------------------------------------


def _name(cell: int, n: int) -> str:
    return f"R{cell // n + 1}C{cell % n + 1}"


def to_object(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """The f-puzzles object of *grid* (with the title, author and rules text of *fields*);
    :class:`ValueError` for a size over :data:`MAX_SIZE` or a rule f-puzzles has no key for
    (:data:`~sudokit.formats.fpuzzles_rules.NO_KEY`).

    >>> king = Shape(2, 2, constraints=Constraints(antiking=True))
    >>> obj = to_object(Grid.parse("1" + "." * 15, king), fields={"title": "Kings"})
    >>> obj["grid"][0][:2], obj["antiking"], obj["title"]
    ([{'value': 1, 'given': True}, {}], True, 'Kings')
    """
    shape = grid.shape
    n = shape.n
    if n > MAX_SIZE:
        raise ValueError(f"f-puzzles holds sizes up to {MAX_SIZE}, got {n}x{n}")
    layout = shape.regions if shape.regions is not None else shape.box_of
    own_regions = layout != Shape.from_size(n).box_of
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            i = r * n + c
            cell: dict[str, Any] = {}
            if grid.cells[i]:
                cell = {"value": grid.cells[i], "given": True}
            if own_regions:
                cell["region"] = layout[i]
            row.append(cell)
        rows.append(row)
    obj: dict[str, Any] = {"size": n, "grid": rows}
    for key in FIELD_KEYS:
        value = (fields or {}).get(key)
        if isinstance(value, str) and value:
            obj[key] = value
    if shape.diagonals:
        obj["diagonal+"] = obj["diagonal-"] = True
    if shape.windoku:
        obj["extraregion"] = [
            {"cells": [_name(i, n) for i in shape.units[u]]}
            for u in shape.extra_units
            if shape.unit_kinds[u] == "window"
        ]
    rules = shape.constraints
    if rules is not None:
        if rules.nonconsecutive and (rules.white or rules.black or rules.white_negative):
            raise ValueError(_NONCONSECUTIVE)
        negative = rules.white_negative or rules.black_negative
        if negative and any(r.kind in ("difference", "ratio") for r in rules.rules):
            raise ValueError(_OTHER_DOTS)
        _rules_to_object(rules, n, obj)
        fpuzzles_rules.write_rules(rules.rules, Context(n, shape), obj)
    if solution is not None and solution.is_complete:
        obj["solution"] = list(solution.cells)
    return obj


def _rules_to_object(rules: Constraints, n: int, obj: dict[str, Any]) -> None:
    def names(cells: tuple[int, ...] | list[int]) -> list[str]:
        return [_name(i, n) for i in cells]

    if rules.cages:
        obj["killercage"] = [
            {"cells": names(c.cells), **({} if c.total is None else {"value": str(c.total)})}
            for c in rules.cages
        ]
    for key in ("antiknight", "antiking", "nonconsecutive"):
        if getattr(rules, key):
            obj[key] = True
    if rules.white_negative:  # f-puzzles' own words for it, and ours when there is no dot
        obj["nonconsecutive"] = True
    if rules.white:
        obj["difference"] = [{"cells": names(p)} for p in rules.white]
    if rules.black:
        obj["ratio"] = [{"cells": names(p)} for p in rules.black]
    xv = [{"cells": names(p), "value": "X"} for p in rules.x]
    xv += [{"cells": names(p), "value": "V"} for p in rules.v]
    if xv:
        obj["xv"] = xv
    negative = [
        name
        for name, on in (
            ("ratio", rules.black_negative),
            ("difference", rules.white_negative),
            ("xv", rules.xv_negative),
        )
        if on
    ]
    if negative:
        obj["negative"] = negative
    if rules.parity is not None:
        for key, mark in (("odd", "o"), ("even", "e")):
            found = [{"cell": _name(i, n)} for i, ch in enumerate(rules.parity) if ch == mark]
            if found:
                obj[key] = found
    if rules.thermos:
        obj["thermometer"] = [{"lines": [names(t)]} for t in rules.thermos]


def payload(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """The compressed f-puzzles object of *grid*, as links carry it."""
    text = _json.dumps(to_object(grid, solution=solution, fields=fields), separators=(",", ":"))
    return lzstring.compress(text)


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """An f-puzzles link to *grid* (with its solution when given, and the title, author and
    rules text of *fields*: :data:`FIELD_KEYS`)."""
    return F_PUZZLES + payload(grid, solution=solution, fields=fields)


FORMAT = Format(NAME, read, dumps, priority=5, claims=claims)
