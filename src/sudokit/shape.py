"""Geometry of a Sudoku: size, boxes, units and peers, computed from the shape (layer 1).

A :class:`Shape` is ``box_rows x box_cols`` boxes on an ``n x n`` grid with ``n = box_rows *
box_cols`` (1 to 64). Units are data: a tuple of cell-index tuples that must each hold every
digit ``1..n`` exactly once. That makes the variants shapes too:

* Sudoku-X (``diagonals=True``) adds the two main diagonals as units;
* jigsaw (``regions=...``) replaces the boxes by irregular regions given as a region map;
* windoku (``windoku=True``) adds the "windows", extra boxes between the boxes.

The rules beyond units (killer cages, anti-knight, kropki, thermometers, ...) ride on the shape
too, as a :class:`~sudokit.constraints.Constraints` value (``constraints=...``): so every layer
that takes a shape sees the variant, and a classic shape stays exactly what it was.

Cells are numbered ``row * n + col`` from 0. Digits are ``1..n``; 0 means empty. Text uses
1-based names (``r5c4``).

>>> s = Shape(3, 3)
>>> s.n, s.ncells, len(s.units), len(s.peers[0])
(9, 81, 27, 20)
>>> Shape.from_size(6)
Shape(2, 3)
>>> Shape(3, 3, diagonals=True).variant
'x'
>>> s.cell_name(40), s.unit_name(20)
('r5c5', 'box 3')
"""

from __future__ import annotations

import math
from collections.abc import Collection
from functools import lru_cache, partial
from typing import Literal

from ._record import _Record
from .constraints import Constraints
from .errors import ParseError, quote

__all__ = ["LABELS", "MAX_SIZE", "SYMBOLS", "Labels", "Shape", "is_connected"]

MAX_SIZE = 64
#: Single-character symbols for digits 1..61; larger sizes write separated integers.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: How texts and pictures name digits: as the board's symbols (:data:`SYMBOLS`, the line
#: format's alphabet) or as decimal numbers. Step texts and rendering use the same words.
Labels = Literal["symbols", "numbers"]
LABELS: tuple[Labels, ...] = ("symbols", "numbers")

_Tables = tuple[
    tuple[tuple[int, ...], ...],  # units
    tuple[str, ...],  # unit kinds
    tuple[tuple[int, ...], ...],  # units of each cell
    tuple[int, ...],  # box (or region) of each cell
]


def is_connected(cells: Collection[int], n: int) -> bool:
    """True when *cells* of an ``n x n`` grid form one piece of orthogonally adjacent cells.

    The one connectivity rule of the library: :meth:`Shape.disconnected_region` (which the
    web API uses to refuse maps; solving does not need connected regions) and the generator
    (drawn jigsaw regions, killer cages) use it. An empty set counts as connected.

    >>> is_connected({0, 1, 5}, 4), is_connected({0, 5}, 4)
    (True, False)
    """
    members = set(cells)
    if not members:
        return True
    start = next(iter(members))
    reached = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        row, col = divmod(cell, n)
        for near, inside in (
            (cell - n, row > 0),
            (cell + n, row < n - 1),
            (cell - 1, col > 0),
            (cell + 1, col < n - 1),
        ):
            if inside and near in members and near not in reached:
                reached.add(near)
                todo.append(near)
    return len(reached) == len(members)


def _most_square_box(n: int) -> tuple[int, int]:
    """The box ``(rows, cols)``: ``rows`` is the largest divisor of *n* up to sqrt(n)."""
    rows = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return rows, n // rows


def _windows(box_rows: int, box_cols: int) -> list[tuple[int, ...]]:
    """The windoku windows of k x k boxes: k x k blocks at offsets 1, k + 2, 2k + 3, ..."""
    k, n = box_rows, box_rows * box_cols
    starts = [1 + i * (k + 1) for i in range(k - 1)]
    return [
        tuple((r0 + r) * n + c0 + c for r in range(k) for c in range(k))
        for r0 in starts
        for c0 in starts
    ]


@lru_cache(maxsize=64)
def _tables(
    box_rows: int,
    box_cols: int,
    diagonals: bool,
    regions: tuple[int, ...] | None,
    windoku: bool = False,
    extra: tuple[tuple[str, tuple[int, ...]], ...] = (),
) -> _Tables:
    n = box_rows * box_cols
    units: list[tuple[int, ...]] = []
    kinds: list[str] = []
    for r in range(n):
        units.append(tuple(r * n + c for c in range(n)))
        kinds.append("row")
    for c in range(n):
        units.append(tuple(r * n + c for r in range(n)))
        kinds.append("column")
    if regions is None:
        box_of = tuple(
            (r // box_rows) * box_rows + c // box_cols for r in range(n) for c in range(n)
        )
        kind = "box"
    else:
        box_of = regions
        kind = "region"
    for b in range(n):
        units.append(tuple(i for i in range(n * n) if box_of[i] == b))
        kinds.append(kind)
    if diagonals:
        units.append(tuple(i * n + i for i in range(n)))
        kinds.append("diagonal")
        units.append(tuple(i * n + (n - 1 - i) for i in range(n)))
        kinds.append("anti-diagonal")
    if windoku:
        for window in _windows(box_rows, box_cols):
            units.append(window)
            kinds.append("window")
    for kind, cells in extra:  # the units of the rules (one diagonal, disjoint groups, ...)
        units.append(cells)
        kinds.append(kind)
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for u, cells in enumerate(units):
        for i in cells:
            cell_units[i].append(u)
    return tuple(units), tuple(kinds), tuple(tuple(x) for x in cell_units), box_of


@lru_cache(maxsize=64)
def _peers(shape: Shape) -> tuple[tuple[int, ...], ...]:
    peers: list[set[int]] = []
    for i in range(shape.ncells):
        seen: set[int] = set()
        for u in shape.cell_units[i]:
            seen.update(shape.units[u])
        peers.append(seen)
    if shape.constraints is not None:
        for a, b in shape.constraints.different_pairs(shape.n):
            peers[a].add(b)
            peers[b].add(a)
    for i, seen in enumerate(peers):
        seen.discard(i)
    return tuple(tuple(sorted(seen)) for seen in peers)


class Shape(_Record):
    """The geometry of an ``n x n`` Sudoku with ``box_rows x box_cols`` boxes.

    Immutable and hashable. ``regions`` (a region index ``0..n-1`` per cell, each used ``n``
    times) replaces the boxes for jigsaw; ``diagonals`` adds the two main diagonals (Sudoku-X);
    ``windoku`` adds the windows (square boxes only); ``constraints`` holds every other rule
    (checked against the size; an empty :class:`~sudokit.constraints.Constraints` is stored as
    ``None``).

    Raises :class:`ValueError` for sizes outside 1..64, a malformed region map or a rule
    that cannot hold (the message names it).

    >>> Shape(2, 3).n
    6
    >>> Shape(0, 3)
    Traceback (most recent call last):
    ...
    ValueError: box rows and columns must be >= 1, got 0x3
    """

    __slots__ = (
        "box_cols",
        "box_of",
        "box_rows",
        "cell_units",
        "constraints",
        "diagonals",
        "n",
        "ncells",
        "regions",
        "unit_kinds",
        "units",
        "windoku",
    )

    box_rows: int
    box_cols: int
    diagonals: bool
    regions: tuple[int, ...] | None
    windoku: bool
    constraints: Constraints | None
    n: int
    ncells: int
    units: tuple[tuple[int, ...], ...]
    unit_kinds: tuple[str, ...]
    cell_units: tuple[tuple[int, ...], ...]
    box_of: tuple[int, ...]

    def __init__(
        self,
        box_rows: int,
        box_cols: int,
        *,
        diagonals: bool = False,
        regions: tuple[int, ...] | list[int] | None = None,
        windoku: bool = False,
        constraints: Constraints | None = None,
    ) -> None:
        if box_rows < 1 or box_cols < 1:
            raise ValueError(f"box rows and columns must be >= 1, got {box_rows}x{box_cols}")
        n = box_rows * box_cols
        if n > MAX_SIZE:
            raise ValueError(f"size {n} is larger than the maximum {MAX_SIZE}")
        region_map = None if regions is None else tuple(int(x) for x in regions)
        if region_map is not None:
            if len(region_map) != n * n:
                raise ValueError(
                    f"a region map for size {n} needs {n * n} cells, got {len(region_map)}"
                )
            counts = [0] * n
            for x in region_map:
                if not 0 <= x < n:
                    raise ValueError(f"region index {x} is outside 0..{n - 1}")
                counts[x] += 1
            if any(c != n for c in counts):
                raise ValueError(f"every region must have exactly {n} cells, got sizes {counts}")
        if windoku and box_rows != box_cols:
            raise ValueError(f"windoku needs square boxes, got {box_rows}x{box_cols}")
        if constraints is not None:
            if constraints.is_empty():
                constraints = None
            else:
                constraints.check(n)
        sets = object.__setattr__
        sets(self, "box_rows", box_rows)
        sets(self, "box_cols", box_cols)
        sets(self, "diagonals", bool(diagonals))
        sets(self, "regions", region_map)
        sets(self, "windoku", bool(windoku))
        sets(self, "constraints", constraints)
        sets(self, "n", n)
        sets(self, "ncells", n * n)
        extra = () if constraints is None else constraints.units(n)
        units, kinds, cell_units, box_of = _tables(
            box_rows, box_cols, bool(diagonals), region_map, bool(windoku), extra
        )
        sets(self, "units", units)
        sets(self, "unit_kinds", kinds)
        sets(self, "cell_units", cell_units)
        sets(self, "box_of", box_of)

    # -- constructors -----------------------------------------------------------------------

    @classmethod
    def from_size(cls, n: int, *, diagonals: bool = False) -> Shape:
        """The shape of size *n* with the most square boxes (rows <= columns).

        >>> Shape.from_size(12), Shape.from_size(16), Shape.from_size(7)
        (Shape(3, 4), Shape(4, 4), Shape(1, 7))
        """
        if not 1 <= n <= MAX_SIZE:
            raise ValueError(f"size {n} is outside 1..{MAX_SIZE}")
        rows, cols = _most_square_box(n)
        return cls(rows, cols, diagonals=diagonals)

    @classmethod
    def from_cell_count(cls, ncells: int) -> Shape | None:
        """The default shape with *ncells* cells, or ``None`` when *ncells* is not a square."""
        n = math.isqrt(ncells)
        if n * n != ncells or not 1 <= n <= MAX_SIZE:
            return None
        return cls.from_size(n)

    @classmethod
    def parse_box(cls, text: str, *, diagonals: bool = False) -> Shape:
        """Parse a box spec ``RxC`` (``2x3``) into a shape.

        >>> Shape.parse_box("2x3")
        Shape(2, 3)
        >>> Shape.parse_box("3by3")
        Traceback (most recent call last):
        ...
        sudokit.errors.ParseError: box must look like RxC (e.g. 2x3), got '3by3'
        """
        parts = text.lower().replace("*", "x").split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ParseError(f"box must look like RxC (e.g. 2x3), got {quote(text)}")
        try:
            return cls(int(parts[0]), int(parts[1]), diagonals=diagonals)
        except ValueError as exc:
            raise ParseError(f"box {quote(text)}: {exc}") from None

    @classmethod
    def jigsaw(
        cls, regions: str | tuple[int, ...] | list[int], *, diagonals: bool = False
    ) -> Shape:
        """A jigsaw shape from a region map: a sequence of region indices, or a string with
        one symbol per cell (any distinct characters, numbered in order of first appearance).

        >>> s = Shape.jigsaw("AAAB" "ABBB" "CCCD" "CDDD")  # a 4x4 region map
        >>> s.variant, s.n, s.units[8]
        ('jigsaw', 4, (0, 1, 2, 4))
        """
        if isinstance(regions, str):
            labels: dict[str, int] = {}
            cleaned = [ch for ch in regions if not ch.isspace()]
            region_map = tuple(labels.setdefault(ch, len(labels)) for ch in cleaned)
        else:
            region_map = tuple(regions)
        n = math.isqrt(len(region_map))
        if n * n != len(region_map) or n < 1:
            raise ValueError(f"a region map needs a square number of cells, got {len(region_map)}")
        rows, cols = _most_square_box(n)
        return cls(rows, cols, diagonals=diagonals, regions=region_map)

    def disconnected_region(self) -> int | None:
        """The first region (0-based) whose cells are not one orthogonally connected piece.

        None when every region is connected (always, for rectangular boxes). Solving does not
        need connected regions; printed jigsaw puzzles and the web API do.

        >>> Shape.jigsaw("AABB" "AABB" "CCDD" "CCDD").disconnected_region() is None
        True
        >>> Shape.jigsaw("ABAB" "ABAB" "CDCD" "CDCD").disconnected_region()
        0
        """
        n = self.n
        for region in range(n):
            if not is_connected(self.units[self.box_units[region]], n):
                return region
        return None

    def with_diagonals(self) -> Shape:
        """This shape with both main diagonals as units too (itself when it has them).

        >>> Shape(2, 3).with_diagonals().variant
        'x'
        >>> Shape.jigsaw("1122" "1122" "3344" "3344").with_diagonals().variant
        'jigsaw-x'
        """
        if self.diagonals:
            return self
        return self._with(diagonals=True)

    def with_constraints(self, constraints: Constraints | None) -> Shape:
        """This shape with *constraints* instead of its own (None: without any).

        >>> from sudokit.constraints import Cage
        >>> Shape(2, 2).with_constraints(Constraints(cages=[Cage((0, 1), 3)])).variant
        'killer'
        """
        return self._with(constraints=constraints)

    def classic(self) -> Shape:
        """The same boxes or regions and diagonals, without windows or other rules.

        >>> Shape(3, 3, windoku=True, constraints=Constraints(antiknight=True)).classic()
        Shape(3, 3)
        """
        if not self.windoku and self.constraints is None:
            return self
        return self._with(windoku=False, constraints=None)

    def _with(self, **changes: object) -> Shape:
        fields: dict[str, object] = {
            "diagonals": self.diagonals,
            "regions": self.regions,
            "windoku": self.windoku,
            "constraints": self.constraints,
        }
        fields.update(changes)
        return Shape(self.box_rows, self.box_cols, **fields)  # type: ignore[arg-type]

    # -- derived properties ----------------------------------------------------------------

    @property
    def variant(self) -> str:
        """The rules by name, joined by ``-`` in a fixed order: ``'standard'``, ``'x'``,
        ``'jigsaw'``, ``'jigsaw-x'``, ``'windoku'``, ``'killer'``, ``'x-killer'``, ...

        >>> Shape(3, 3, diagonals=True, constraints=Constraints(antiknight=True)).variant
        'x-antiknight'
        """
        names = []
        if self.regions is not None:
            names.append("jigsaw")
        if self.diagonals:
            names.append("x")
        if self.windoku:
            names.append("windoku")
        if self.constraints is not None:
            names.extend(self.constraints.kinds)
        return "-".join(names) or "standard"

    @property
    def is_standard(self) -> bool:
        """True for plain boxes without extra units or rules."""
        return (
            self.regions is None
            and not self.diagonals
            and not self.windoku
            and self.constraints is None
        )

    @property
    def row_units(self) -> range:
        """The indices of the rows in :attr:`units` (row r is unit ``row_units[r]``)."""
        return range(0, self.n)

    @property
    def column_units(self) -> range:
        """The indices of the columns in :attr:`units`."""
        return range(self.n, 2 * self.n)

    @property
    def box_units(self) -> range:
        """The indices of the boxes (or jigsaw regions) in :attr:`units`."""
        return range(2 * self.n, 3 * self.n)

    @property
    def extra_units(self) -> range:
        """The indices of the units beyond rows, columns and boxes (diagonals, windows).

        >>> Shape(3, 3, diagonals=True, windoku=True).extra_units
        range(27, 33)
        """
        return range(3 * self.n, len(self.units))

    @property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For every cell, the sorted cells that share a unit with it (computed once)."""
        return _peers(self)

    @property
    def box_spec(self) -> str:
        """The box as text, ``'2x3'``."""
        return f"{self.box_rows}x{self.box_cols}"

    @property
    def symbols(self) -> str:
        """One character per digit ``1..n`` when ``n <= 61``; empty for larger sizes."""
        return SYMBOLS[: self.n] if self.n <= len(SYMBOLS) else ""

    # -- naming ----------------------------------------------------------------------------

    def row_of(self, cell: int) -> int:
        """0-based row of *cell*."""
        return cell // self.n

    def col_of(self, cell: int) -> int:
        """0-based column of *cell*."""
        return cell % self.n

    def cell_name(self, cell: int) -> str:
        """The 1-based name ``r5c4`` of *cell*."""
        r, c = divmod(cell, self.n)
        return f"r{r + 1}c{c + 1}"

    def unit_name(self, unit: int) -> str:
        """A readable name: ``row 5``, ``column 2``, ``box 3``, ``region 4``, ``diagonal``,
        ``window 2``."""
        kind = self.unit_kinds[unit]
        if kind in ("diagonal", "anti-diagonal"):
            return kind
        if kind in ("window", "disjoint groups", "extra region"):
            return f"{kind.removesuffix('s')} {unit - self.unit_kinds.index(kind) + 1}"
        return f"{kind} {unit % self.n + 1}"

    def symbol(self, digit: int) -> str:
        """The character of *digit* (``'.'`` for 0) for sizes up to 61."""
        if digit == 0:
            return "."
        return SYMBOLS[digit - 1]

    # -- value semantics -------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self.box_rows,
            self.box_cols,
            self.diagonals,
            self.regions,
            self.windoku,
            self.constraints,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = ""
        if self.diagonals:
            extra += ", diagonals=True"
        if self.regions is not None:
            extra += f", regions={self.regions!r}"
        if self.windoku:
            extra += ", windoku=True"
        if self.constraints is not None:
            extra += f", constraints={self.constraints!r}"
        return f"Shape({self.box_rows}, {self.box_cols}{extra})"

    def __reduce__(self) -> tuple[object, ...]:
        # Shape's options are keyword-only: rebuilt through a partial that carries them.
        rebuild = partial(
            Shape,
            diagonals=self.diagonals,
            regions=self.regions,
            windoku=self.windoku,
            constraints=self.constraints,
        )
        return (rebuild, (self.box_rows, self.box_cols))
