"""The immutable :class:`Grid` and the cell-text codec (layer 1).

A grid is a :class:`~sudokit.shape.Shape` plus one value per cell (``0`` = empty, ``1..n``
= digit), stored as ``bytes``. :meth:`Grid.parse` reads one puzzle written as cell text: the
line format (``..3.2.6..``), the multi-line picture with separators, or separated integers
for large sizes. It is the one place that maps symbols to digits; the readers in
:mod:`sudokit.formats` build on it.

>>> line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
>>> g = Grid.parse(line)
>>> g.shape, g.clues, g[0, 2], g.is_complete
(Shape(3, 3), 32, 3, False)
>>> g.conflicts()
()
>>> [c.unit for c in Grid.parse("11.." "...." "...." "....").conflicts()]
['row 1', 'box 1']
"""

from __future__ import annotations

import math
import operator
import sys
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, TypeAlias

from ._record import _Record
from .errors import ParseError, quote
from .shape import MAX_SIZE, SYMBOLS, Shape

__all__ = [
    "BLANKS",
    "MAX_TEXT",
    "Conflict",
    "Grid",
    "PuzzleLike",
    "as_grid",
    "expand_symbols",
    "shifted_alphabet_hint",
]

#: Characters read as an empty cell in cell text.
BLANKS = frozenset(".0-_*")
#: Cell text longer than this is refused (a 64x64 picture with separators fits easily).
MAX_TEXT = 1 << 20
# Characters that only separate cells in pictures; never cell symbols.
CELL_SEPARATORS = frozenset("|+:!")
# For each size n, the byte values a cell may hold (0..n).
_VALID_VALUES = tuple(bytes(range(n + 1)) for n in range(MAX_SIZE + 1))
# Characters (besides whitespace) a picture's rule line is made of.
_RULE_CHARS = frozenset("-+=|*:_.~")
# Maps the separators of integer cell text (besides whitespace) to a space, for str.split().
_INT_SEPARATORS = str.maketrans(",;|+", "    ")


class Conflict(_Record):
    """A digit that appears more than once in one unit (immutable, compared by value).

    >>> Conflict(1, "row 1", (0, 3))
    Conflict(digit=1, unit='row 1', cells=(0, 3))
    """

    __slots__ = ("cells", "digit", "unit")
    __match_args__ = ("digit", "unit", "cells")
    digit: int
    unit: str
    cells: tuple[int, ...]

    def __init__(self, digit: int, unit: str, cells: tuple[int, ...]) -> None:
        object.__setattr__(self, "digit", digit)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "cells", cells)


def symbol_value(ch: str, n: int) -> int:
    """The digit of symbol *ch* for size *n*, or -1 when it is not one."""
    if ch in BLANKS:
        return 0
    if n <= 35:
        ch = ch.upper()
    idx = SYMBOLS.find(ch)
    return idx + 1 if 0 <= idx < n else -1


def expand_symbols(spec: str) -> str:
    """The alphabet a declared symbol set stands for: ranges ``a-b`` of consecutive
    characters and single characters, in digit order (the first symbol is digit 1).

    >>> expand_symbols("0-9A-F")
    '0123456789ABCDEF'
    >>> expand_symbols("1-9")
    '123456789'
    >>> expand_symbols("9-1")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: symbols '9-1': the range 9-1 runs backwards
    """
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = spec[i], spec[i + 2]
            if hi < lo:
                raise ParseError(f"symbols {quote(spec)}: the range {lo}-{hi} runs backwards")
            out.extend(chr(c) for c in range(ord(lo), ord(hi) + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    alphabet = "".join(out)
    bad = next(
        (ch for ch in alphabet if ch.isspace() or ch in CELL_SEPARATORS or ch in ".,;"), None
    )
    if bad is not None or not alphabet:
        what = "is empty" if not alphabet else f"holds {bad!r}, a blank or separator"
        raise ParseError(f"symbols {quote(spec)}: {what}")
    if len(set(alphabet)) != len(alphabet) or len(alphabet) > min(MAX_SIZE, len(SYMBOLS)):
        raise ParseError(
            f"symbols {quote(spec)}: expected up to {len(SYMBOLS)} different symbols, "
            f"got {len(alphabet)}"
        )
    return alphabet


def _declared(text: str, alphabet: str, spec: str) -> str:
    """*text* with the declared *alphabet* mapped onto the default symbols (digit d is
    ``SYMBOLS[d - 1]``); blanks, separators and whitespace kept; anything else refused."""
    n = len(alphabet)
    digits = {ch: SYMBOLS[d] for d, ch in enumerate(alphabet)}
    if n <= 35:
        digits |= {
            ch.lower(): SYMBOLS[d] for d, ch in enumerate(alphabet) if ch.lower() not in digits
        }
    out = []
    for lineno, line in enumerate(text.split("\n"), 1):
        for col, ch in enumerate(line, 1):
            mapped = digits.get(ch)
            if mapped is None:
                if not (ch in BLANKS or ch.isspace() or ch in CELL_SEPARATORS or ch in _RULE_CHARS):
                    raise ParseError(
                        f"unexpected character {ch!r}, expected one of the symbols {spec} "
                        "or a blank (. - _ *)",
                        line=lineno if "\n" in text.strip() else None,
                        column=col,
                    )
                mapped = ch
            out.append(mapped)
        out.append("\n")
    return "".join(out[:-1])


def shifted_alphabet_hint(grid: Grid) -> str | None:
    """A hint when a 16x16 puzzle read with the default symbols (``1-9A-G``, ``0`` blank)
    looks written with ``0-9A-F`` instead: at least 16 givens and not one of them is the
    digit 16 (``G``), which that alphabet cannot write. ``None`` otherwise.

    >>> g = Grid.parse("0123456789ABCDEF" + "." * 224 + "FEDCBA9876543210")
    >>> shifted_alphabet_hint(g)[:50]
    'this 16x16 puzzle has no digit G (16): if its digi'
    """
    if grid.n != 16 or grid.clues < 16 or 16 in grid.cells:
        return None
    return (
        "this 16x16 puzzle has no digit G (16): if its digits are written 0-9A-F, "
        "read it with --symbols 0-9A-F"
    )


def is_separator_line(line: str, n_hint: int | None) -> bool:
    """A picture line made only of rule characters (``------+-----``), not a row of blanks."""
    if not line.strip() or not all(ch in _RULE_CHARS or ch.isspace() for ch in line):
        return False
    if any(ch in "+=~" for ch in line):
        return True
    # A row of blanks written with '-' or '.' has exactly n cells once spaces and '|' are gone.
    core = [ch for ch in line if ch not in " \t|"]
    # A line of exactly n cells holding a '.' is a row of blanks, even without '|'.
    if n_hint is None or len(core) != n_hint:
        return True
    return "|" not in line and len(core) > 9 and "." not in core


@lru_cache(maxsize=64)
def digit_table(n: int) -> bytes:
    """A ``bytes.translate`` table: ASCII symbol to digit as `symbol_value` reads it, else 255."""
    table = bytearray([255] * 256)
    for code in range(128):
        value = symbol_value(chr(code), n)
        if value >= 0:
            table[code] = value
    return bytes(table)


@lru_cache(maxsize=64)
def default_shape(ncells: int) -> Shape | None:
    """The shape a line of *ncells* cells is read as when no shape is given (one cached object
    per count; ``None`` when no shape has that many cells).

    >>> default_shape(81).n, default_shape(81) is default_shape(81), default_shape(80)
    (9, True, None)
    """
    return Shape.from_cell_count(ncells)


def _parse_line_fast(text: str, shape: Shape | None) -> tuple[Shape, bytes] | None:
    """The common case, one line of one symbol per cell, by table lookup; ``None`` for anything
    else (separators, integers, errors), which the general readers below handle."""
    line = text.strip()
    target = shape or default_shape(len(line))
    if target is None or len(line) != target.ncells or target.n > len(SYMBOLS):
        return None
    if not line.isascii() or len(text.splitlines()) > 1:
        return None
    values = line.encode("ascii").translate(digit_table(target.n))
    return None if 255 in values else (target, values)


def int_tokens(text: str) -> list[str] | None:
    """The values of *text* read as separated integers, or ``None`` when some token is not one.

    Values are at most 64, so a token of three or more digits is a row of symbols instead.

    >>> int_tokens("10, 0 | 3"), int_tokens("123 4")
    (['10', '0', '3'], None)
    """
    tokens = text.translate(_INT_SEPARATORS).split()
    if tokens and all(
        (t.isdecimal() and t.isascii() and len(t) <= 2) or t in BLANKS for t in tokens
    ):
        return tokens
    return None


def _parse_integers(text: str, shape: Shape | None) -> tuple[Shape, bytes] | None:
    """Separated-integer cell text (``"10,0,3,..."``), or ``None`` when *text* is not that."""
    tokens = int_tokens(text)
    # One token ("12") is two symbols, not a 1x1 grid of integers.
    if tokens is None or len(tokens) < 2:
        return None
    separated = "," in text or ";" in text
    if not separated and not any(len(t) == 2 for t in tokens):
        return None
    # Below size 10 digits are single symbols: "12|34" is four cells, not two numbers.
    if shape is not None and shape.n < 10 and not separated:
        return None
    if shape is None and not separated:
        # Without commas '12|34' rows may as well be symbols: numbers only when that reading
        # makes a square grid with as many rows as the text has.
        square = Shape.from_cell_count(len(tokens))
        rows = sum(1 for line in text.splitlines() if int_tokens(line) is not None)
        if square is None or (rows > 1 and rows != square.n):
            return None
    target = shape or Shape.from_cell_count(len(tokens))
    if target is None:
        raise ParseError(
            f"expected a square number of cells (81 for 9x9), got {len(tokens)} numbers"
        )
    if len(tokens) != target.ncells:
        raise ParseError(
            f"expected {target.ncells} cells for {target.n}x{target.n}, got {len(tokens)}"
        )
    values = bytearray()
    for pos, tok in enumerate(tokens):
        v = 0 if tok in BLANKS else int(tok)
        if v > target.n:
            raise ParseError(
                f"cell {pos + 1} is {quote(tok)}, expected 0..{target.n} for {target.n}x{target.n}"
            )
        values.append(v)
    return target, bytes(values)


def _parse_symbols(text: str, shape: Shape | None) -> tuple[Shape, bytes]:
    """One-symbol-per-cell cell text: a line or a picture with separators."""
    lines = text.splitlines() or [""]
    n_hint = shape.n if shape is not None else None
    if n_hint is None and len([ln for ln in lines if ln.strip()]) > 1:
        # A row of blank cells ('|..|..|') is a row, not a rule: rules never hold '.'.
        rows = [ln for ln in lines if ln.strip() and ("." in ln or not is_separator_line(ln, None))]
        n_hint = len(rows) or None
    kept: list[tuple[str, int, int]] = []  # symbol, line, column (1-based)
    multi = len(lines) > 1
    for lineno, line in enumerate(lines, 1):
        if multi and is_separator_line(line, n_hint):
            continue
        for col, ch in enumerate(line, 1):
            if ch.isspace() or ch in CELL_SEPARATORS:
                continue
            kept.append((ch, lineno, col))
    count = len(kept)
    if shape is not None and shape.n > len(SYMBOLS):
        raise ParseError(
            f"a {shape.n}x{shape.n} grid needs separated integers (e.g. '10,0,3,...'); "
            f"one symbol per cell goes up to {len(SYMBOLS)}x{len(SYMBOLS)}"
        )
    target = shape or Shape.from_cell_count(count)
    if target is not None and target.n > len(SYMBOLS):
        raise ParseError(
            f"{count} cells make a {target.n}x{target.n} grid, which needs separated integers "
            f"(e.g. '10,0,3,...'): one symbol per cell covers sizes up to "
            f"{len(SYMBOLS)}x{len(SYMBOLS)}"
        )
    if target is None:
        root = round(count ** (1 / 3))
        if (
            count > 64
            and root**3 == count
            and root <= len(SYMBOLS)
            and all(symbol_value(ch, root) >= 0 for ch, _, _ in kept)
        ):
            raise ParseError(
                f"{count} symbols make no grid (at most {MAX_SIZE}x{MAX_SIZE} cells) but are "
                f"a {root}x{root} pencilmark string: read it with --from candidates"
            )
        side = math.isqrt(count)
        if side * side == count and side > MAX_SIZE:
            raise ParseError(
                f"{count} cells make a {side}x{side} grid, larger than the {MAX_SIZE}x{MAX_SIZE} "
                "maximum"
            )
        raise ParseError(
            f"expected a square number of cells (81 for 9x9, 16 for 4x4), got {count}"
            if count
            else "expected a puzzle, got no cells"
        )
    if count != target.ncells:
        raise ParseError(f"expected {target.ncells} cells for {target.n}x{target.n}, got {count}")
    values = bytearray(count)
    for i, (ch, lineno, col) in enumerate(kept):
        v = symbol_value(ch, target.n)
        if v < 0:
            top = target.symbols[-1]
            raise ParseError(
                f"unexpected character {ch!r}, expected a digit 1-{top} or a blank (. 0 - _ *)",
                line=lineno if multi else None,
                column=col,
            )
        values[i] = v
    return target, bytes(values)


# -- cell values from Python objects: lists, rows, arrays ------------------------------------


def _cell_bytes(cells: object) -> bytes:
    """The cell values of *cells*, one byte a cell, row by row: bytes as they are; a flat
    sequence or iterable of ints; a list or tuple of rows (py-sudoku's lists of lists); an
    object of the NumPy array protocol (1-D or 2-D, any integer dtype). ``None`` is an
    empty cell, as ``0`` is. A :class:`~sudokit.errors.ParseError` names what is wrong:
    text (read with :meth:`Grid.parse`), floats, booleans, rows of unequal length, a value
    below 0 or above 64."""
    if isinstance(cells, bytes | bytearray):
        return bytes(cells)
    if isinstance(cells, list | tuple):
        items: Sequence[Any] = cells
    elif isinstance(cells, str):
        raise ParseError(
            "Grid() takes cell values (ints, rows, an array); read text with Grid.parse"
        )
    elif isinstance(cells, Grid):
        return cells.cells
    elif (hasattr(cells, "__array__") or hasattr(cells, "__array_interface__")) and (
        found := _array_bytes(cells)
    ) is not None:
        return found
    elif isinstance(cells, Iterable):
        items = list(cells)
    else:
        raise ParseError(f"expected cell values (ints, rows, an array), got {type(cells).__name__}")
    if items and _is_row(items[0]):
        return _rows_bytes(items)
    return _values_bytes(items, None)


def _is_row(item: object) -> bool:
    """A row of a list of rows: a list, a tuple or a 1-D array (``tolist`` gives its values)."""
    return isinstance(item, list | tuple) or (
        hasattr(item, "tolist") and getattr(item, "ndim", None) == 1
    )


def _rows_bytes(rows: Sequence[Any]) -> bytes:
    """The cells of a list of rows, which must be n rows of n values."""
    n = len(rows)
    out = bytearray()
    for r, row in enumerate(rows, 1):
        values = row.tolist() if hasattr(row, "tolist") else row
        if len(values) != n:
            raise ParseError(
                f"expected {n} rows of {n} values (a square grid), row {r} has {len(values)}"
            )
        out += _values_bytes(values, (r, n))
    return bytes(out)


def _values_bytes(values: Sequence[Any], row: tuple[int, int] | None) -> bytes:
    """The bytes of flat cell *values*; *row* = (row number, its length) places an error."""
    try:
        if bool not in set(map(type, values)):  # bytes() would take True as 1
            return bytes(values)
    except (TypeError, ValueError):
        pass  # None, a float, a value out of 0..255: found and named below
    out = bytearray()
    for k, value in enumerate(values):
        where = f"cell {k + 1}" if row is None else f"row {row[0]}, column {k + 1}"
        out.append(_cell_value(value, where))
    return bytes(out)


def _cell_value(value: Any, where: str) -> int:
    """One cell's value: None or 0 for an empty cell, else an int 1..64."""
    if value is None:
        return 0
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_"):
        raise ParseError(f"{where}: expected an int 0..{MAX_SIZE}, got the boolean {value!r}")
    try:
        number = operator.index(value)  # ints, NumPy's integers; not floats, not text
    except TypeError:
        raise ParseError(
            f"{where}: expected an int 0..{MAX_SIZE} (or None), "
            f"got {type(value).__name__} {quote(value)}"
        ) from None
    if number < 0:
        raise ParseError(f"{where}: {number} is below 0 (0 or None is an empty cell)")
    if number > 255:
        raise ParseError(f"{where}: {number} is above {MAX_SIZE}, the largest digit")
    return number  # above the grid's size: Grid names the cell and the range


def _array_bytes(cells: object) -> bytes | None:
    """The cells of an object of the NumPy array protocol, through NumPy (already imported
    when such an object exists; imported here otherwise), or ``None`` without NumPy."""
    np: Any = sys.modules.get("numpy")
    if np is None:
        try:
            import numpy as np
        except ImportError:
            return None
    array = np.asarray(cells)
    kind, dims = array.dtype.kind, array.shape
    if kind == "O":  # Python objects (None for blanks, ...): read as lists are
        values = array.tolist()
        return _rows_bytes(values) if array.ndim == 2 else _values_bytes(values, None)
    if kind == "b":
        raise ParseError("expected an array of integers 0..n, got booleans (dtype bool)")
    if kind not in "iu":
        hint = " (a float array of whole numbers: pass array.astype(int))" if kind == "f" else ""
        raise ParseError(f"expected an array of integers 0..n, got dtype {array.dtype}{hint}")
    if array.ndim == 2 and dims[0] != dims[1]:
        raise ParseError(
            f"expected an n x n array (one row per grid row), got shape {dims[0]}x{dims[1]}"
        )
    if array.ndim not in (1, 2):
        raise ParseError(
            f"expected a 1-D or 2-D array of cells, got {array.ndim}-D (shape {tuple(dims)})"
        )
    flat = array.reshape(-1)
    outside = (flat < 0) | (flat > 255)
    if outside.any():
        k = int(np.flatnonzero(outside)[0])
        where = f"row {k // dims[1] + 1}, column {k % dims[1] + 1}" if array.ndim == 2 else ""
        _cell_value(int(flat[k]), where or f"cell {k + 1}")  # raises, naming the cell
    return bytes(flat.astype(np.uint8).tobytes())  # Grid checks the values against the size


def _range_error(data: bytes, shape: Shape) -> ParseError:
    """The error for the first cell of *data* above *shape*'s size."""
    k = next(i for i, v in enumerate(data) if v > shape.n)
    n = shape.n
    return ParseError(f"cell r{k // n + 1}c{k % n + 1} is {data[k]}, expected 0..{n} for {n}x{n}")


class Grid(_Record):
    """An immutable Sudoku grid: a shape and one value per cell (0 = empty).

    The cells are bytes, a flat list of ints, a list of rows (``0`` or ``None`` for an
    empty cell, as py-sudoku writes them) or a 1-D or 2-D NumPy array of any integer
    dtype; the shape is inferred from the number of cells when not given. Anything else
    (floats, booleans, rows of unequal length, values out of range) is a
    :class:`~sudokit.errors.ParseError` (a ``ValueError`` too) saying what and where.
    ``numpy.asarray(grid)`` and :meth:`to_numpy` give the n x n array back.

    >>> g = Grid.parse("1234341221434321")
    >>> g.is_solution(), str(g), g.shape
    (True, '1234341221434321', Shape(2, 2))
    >>> Grid([[1, 2, 3, 4], [3, 4, None, 2], [0, 1, 4, 3], [4, 3, 2, 1]])
    Grid.parse('123434.2.1434321')
    >>> Grid([0] * 35, Shape(2, 3))
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: a 6x6 grid needs 36 cells, got 35
    >>> Grid([[1, 2.5], [0, 0]])
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: row 1, column 2: expected an int 0..64 (or None), got float 2.5
    """

    __slots__ = ("_hash", "cells", "shape")

    shape: Shape
    cells: bytes
    _hash: int | None

    def __init__(
        self,
        cells: bytes | Sequence[int | None] | Sequence[Sequence[int | None]] | Iterable[int] | Any,
        shape: Shape | None = None,
    ) -> None:
        data = cells if type(cells) is bytes else _cell_bytes(cells)
        if shape is None:
            shape = default_shape(len(data))
            if shape is None:
                raise ParseError(
                    f"cannot infer a shape from {len(data)} cells (a square number of cells, "
                    "81 for 9x9); pass shape="
                )
        if len(data) != shape.ncells:
            raise ParseError(
                f"a {shape.n}x{shape.n} grid needs {shape.ncells} cells, got {len(data)}"
            )
        # translate() deletes the valid values; anything left is out of range (fast in C).
        if data.translate(None, _VALID_VALUES[shape.n]):
            raise _range_error(data, shape)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "cells", data)
        object.__setattr__(self, "_hash", None)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def _trusted(cls, cells: bytes, shape: Shape) -> Grid:
        """The grid of *cells*, already known to be ``shape.ncells`` bytes of values 0..n (the
        engines' output, or cells a parser produced): no check, half the cost of ``Grid(...)``.

        >>> Grid._trusted(bytes(16), Shape(2, 2)) == Grid(bytes(16), Shape(2, 2))
        True
        """
        grid = object.__new__(cls)
        set_field = object.__setattr__
        set_field(grid, "shape", shape)
        set_field(grid, "cells", cells)
        set_field(grid, "_hash", None)
        return grid

    @classmethod
    def parse(cls, text: str, shape: Shape | None = None, *, symbols: str | None = None) -> Grid:
        """Read one puzzle from cell text: a line, a picture with separators, or separated
        integers (large sizes). The shape is inferred from the cell count when not given.

        *symbols* declares the alphabet (see :func:`expand_symbols`), e.g. ``"0-9A-F"`` for
        hexadoku written with ``0`` as a digit: its size is the grid's size and only ``.``,
        ``-``, ``_``, ``*`` not in it are blanks.

        Raises :class:`~sudokit.errors.ParseError` naming the line and column.

        >>> hexa = Grid.parse("0123456789ABCDEF" + "." * 240, symbols="0-9A-F")
        >>> hexa.to_line()[:17]
        '123456789ABCDEFG.'

        >>> Grid.parse('''
        ... 5 3 . | . 7 . | . . .
        ... 6 . . | 1 9 5 | . . .
        ... . 9 8 | . . . | . 6 .
        ... ------+-------+------
        ... 8 . . | . 6 . | . . 3
        ... 4 . . | 8 . 3 | . . 1
        ... 7 . . | . 2 . | . . 6
        ... ------+-------+------
        ... . 6 . | . . . | 2 8 .
        ... . . . | 4 1 9 | . . 5
        ... . . . | . 8 . | . 7 9
        ... ''').clues
        30
        >>> Grid.parse("12x4" + "." * 12)
        Traceback (most recent call last):
        ...
        sudokit.errors.ParseError: column 3: unexpected character 'x', expected a digit 1-4 ...
        """
        if not isinstance(text, str):
            raise TypeError(f"expected text, got {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise ParseError(
                f"puzzle text of {len(text)} characters is larger than the limit {MAX_TEXT}"
            )
        if symbols is not None:
            alphabet = expand_symbols(symbols)
            shape = shape or Shape.from_size(len(alphabet))
            if shape.n != len(alphabet):
                raise ParseError(
                    f"symbols {quote(symbols)} are {len(alphabet)}, a {shape.n}x{shape.n} "
                    f"grid needs {shape.n}"
                )
            text = _declared(text, alphabet, symbols)
        try:
            fast = _parse_line_fast(text, shape)
            if fast is not None:  # its table gives only values 0..n: nothing to re-check
                return cls._trusted(fast[1], fast[0])
            parsed = _parse_integers(text, shape)
            found_shape, cells = parsed if parsed is not None else _parse_symbols(text, shape)
            return cls(cells, found_shape)
        except ParseError:
            raise
        except (ValueError, OverflowError, RecursionError) as exc:  # a bug's last line of defence
            raise ParseError(f"cannot read {quote(text)}: {exc}") from None

    @classmethod
    def empty(cls, shape: Shape) -> Grid:
        """The grid of *shape* with no digits."""
        return cls(bytes(shape.ncells), shape)

    def replace(self, cell: int, value: int) -> Grid:
        """A copy with *cell* set to *value* (0 clears it)."""
        data = bytearray(self.cells)
        data[cell] = value
        return Grid(bytes(data), self.shape)

    # -- access ----------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The size (digits ``1..n``)."""
        return self.shape.n

    def __getitem__(self, key: int | tuple[int, int]) -> int:
        """The value at a cell index or a 0-based ``(row, col)``."""
        if isinstance(key, tuple):
            r, c = key
            return self.cells[r * self.shape.n + c]
        return self.cells[key]

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[int]:
        return iter(self.cells)

    @property
    def clues(self) -> int:
        """How many cells hold a digit."""
        return self.shape.ncells - self.cells.count(0)

    @property
    def is_complete(self) -> bool:
        """True when no cell is empty."""
        return 0 not in self.cells

    def rows(self) -> list[list[int]]:
        """The values as a list of rows (0 = empty); ``Grid(grid.rows())`` is the grid again."""
        n = self.shape.n
        return [list(self.cells[r * n : (r + 1) * n]) for r in range(n)]

    def to_numpy(self, dtype: Any = None) -> Any:
        """The values as a new n x n NumPy array (0 = empty; ``int64`` unless *dtype* says
        otherwise), for ``numpy.asarray(grid)`` too. Needs NumPy, which sudokit itself does
        not: it is imported here, on first use.

        >>> import pytest; np = pytest.importorskip("numpy")
        >>> g = Grid.parse("1.3." "...2" "2..." ".3.1")
        >>> a = g.to_numpy()
        >>> a.shape, a.dtype.name, a[0].tolist(), np.asarray(g, dtype=np.uint8).dtype.name
        ((4, 4), 'int64', [1, 0, 3, 0], 'uint8')
        >>> Grid(a) == g and Grid(a.ravel()) == g
        True
        """
        return self.__array__(dtype)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        """The NumPy array protocol (as NumPy 2 calls it): a new array of the values. The
        cells are immutable bytes, so there is no array without a copy: ``copy=False``
        raises ``ValueError``, as the protocol asks."""
        import numpy as np

        if copy is False:
            raise ValueError("a Grid's cells are immutable bytes: its array is always a copy")
        n = self.shape.n
        view = np.frombuffer(self.cells, dtype=np.uint8).reshape(n, n)
        return view.astype(np.int64 if dtype is None else dtype)

    # -- checks ----------------------------------------------------------------------------

    def conflicts(self) -> tuple[Conflict, ...]:
        """Every digit that stands more than once in a unit, in unit order; then every
        variant rule the filled cells break (``digit`` 0 when no single digit is at fault,
        ``unit`` the rule in words)."""
        found = []
        cells = self.cells
        for u, unit in enumerate(self.shape.units):
            where: dict[int, list[int]] = {}
            for i in unit:
                v = cells[i]
                if v:
                    where.setdefault(v, []).append(i)
            for digit in sorted(where):
                if len(where[digit]) > 1:
                    found.append(Conflict(digit, self.shape.unit_name(u), tuple(where[digit])))
        rules = self.shape.constraints
        if rules is not None:
            found.extend(Conflict(*broken) for broken in rules.violations(cells, self.shape.n))
        return tuple(found)

    @property
    def is_valid(self) -> bool:
        """True when no digit repeats in a unit and no variant rule is broken (says nothing
        about solvability)."""
        return not self.conflicts()

    def is_solution(self, puzzle: Grid | None = None) -> bool:
        """True when this grid is complete, breaks no rule, and keeps every given of *puzzle*.

        This check is independent of every solver: it only reads the units and the rules.

        >>> p = Grid.parse("1.3." "...2" "2..." ".3.1")
        >>> Grid.parse("1234" "3412" "2143" "4321").is_solution(p)
        True
        """
        if not self.is_complete:
            return False
        full = set(range(1, self.shape.n + 1))
        cells = self.cells
        if any({cells[i] for i in unit} != full for unit in self.shape.units):
            return False
        rules = self.shape.constraints
        if rules is not None and rules.violations(cells, self.shape.n):
            return False
        if puzzle is None:
            return True
        if puzzle.shape != self.shape:
            return False
        return all(g == 0 or g == v for g, v in zip(puzzle.cells, cells, strict=True))

    # -- text ------------------------------------------------------------------------------

    def to_line(self, blank: str = ".") -> str:
        """The line format: one symbol per cell (sizes up to 61), else comma-separated integers."""
        n = self.shape.n
        if n > len(SYMBOLS):
            return ",".join(str(v) for v in self.cells)
        table = blank + SYMBOLS[:n]
        return "".join(table[v] for v in self.cells)

    def __str__(self) -> str:
        return self.to_line()

    def __repr__(self) -> str:
        default = Shape.from_cell_count(self.shape.ncells)
        if default == self.shape:
            return f"Grid.parse({self.to_line()!r})"
        return f"Grid.parse({self.to_line()!r}, shape={self.shape!r})"

    def _repr_svg_(self) -> str:
        """The grid as an SVG picture (Jupyter shows it); drawn by :mod:`sudokit.render`."""
        from .render import to_svg  # the one upward import the layering test allows

        return to_svg(self, cell=32)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.cells == other.cells and self.shape == other.shape

    def __hash__(self) -> int:
        h: int | None = self._hash
        if h is None:
            h = hash((self.cells, self.shape))
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple[object, ...]:
        return (Grid, (self.cells, self.shape))


#: What the API takes as a puzzle (:func:`as_grid`): a Grid, cell text, cell values (a flat
#: list, a list of rows) or an object of the NumPy array protocol, typed ``Any`` because
#: sudokit does not depend on NumPy.
PuzzleLike: TypeAlias = Grid | str | Sequence[Any] | Any


def as_grid(puzzle: PuzzleLike, shape: Shape | None = None) -> Grid:
    """The puzzle a function of the API was given, as a Grid: the one place puzzles are
    coerced. A Grid is itself (and must have *shape*, when given); text is read by
    :meth:`Grid.parse`; a list of rows, a flat list or a NumPy array is read by
    :class:`Grid` (with *shape*, or the shape its cell count implies), and what is wrong
    with it is a :class:`~sudokit.errors.ParseError`. Bytes are refused (a line of a file
    is text: decode it; raw cell values go to :class:`Grid`), as is what holds no cells,
    with a ``TypeError``; so is a record that holds a puzzle (a
    :class:`~sudokit.GeneratedPuzzle`), with a message naming the ``.puzzle`` to pass.

    >>> as_grid([[1, 0, 3, 0], [0, 0, 0, 2], [2, 0, 0, 0], [0, 3, 0, 1]])
    Grid.parse('1.3....22....3.1')
    >>> as_grid("1.3....22....3.1") == as_grid(Grid.parse("1.3....22....3.1"))
    True
    >>> as_grid(3.5)
    Traceback (most recent call last):
    ...
    TypeError: expected a Grid, text or cell values (rows, a list, an array), got float
    """
    if isinstance(puzzle, Grid):
        if shape is not None and puzzle.shape != shape:
            raise ValueError(f"the grid has shape {puzzle.shape!r}, not {shape!r}")
        return puzzle
    if isinstance(puzzle, str):
        return Grid.parse(puzzle, shape)
    if isinstance(getattr(puzzle, "puzzle", None), Grid):  # a GeneratedPuzzle, say
        raise TypeError(
            "expected a Grid, text or cell values (rows, a list, an array), got "
            f"{type(puzzle).__name__}: pass its .puzzle (a Grid)"
        )
    if isinstance(puzzle, bytes | bytearray) or not (
        isinstance(puzzle, Iterable) or hasattr(puzzle, "__array__")
    ):
        raise TypeError(
            "expected a Grid, text or cell values (rows, a list, an array), "
            f"got {type(puzzle).__name__}"
        )
    return Grid(puzzle, shape)
