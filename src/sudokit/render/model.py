"""The drawing model: a grid and what to show on it, turned into primitives (layer 3).

:func:`draw` takes a :class:`~sudokit.grid.Grid` (any shape: boxes, jigsaw regions, Sudoku-X)
and optional user digits, pencil-mark candidates and the highlights of a logic step, and returns
a :class:`Scene`: the cell contents plus flat lists of primitives (:class:`Rect`,
:class:`Line`, :class:`Text`, :class:`Circle`) grouped in fixed layers. Every backend (SVG,
PDF, the text picture) draws a scene; none of them decides what to show.

Coordinates are in cell units: the grid covers ``[0, n] x [0, n]`` with ``y`` pointing down
(row 0 at the top). Line weights are names (``"thin"``, ``"thick"``, ``"link"``) that each
backend maps to a width suited to its medium; text sizes are em heights in cell units; colours
are ``#rrggbb`` strings from a :class:`Theme`.

>>> from sudokit.grid import Grid
>>> scene = draw(Grid.parse("1.3." "...2" "2..." ".3.1"))
>>> [name for name, _ in scene.layers]
['cells', 'grid', 'candidates', 'digits', 'links']
>>> len(scene.layer("cells")), len(scene.layer("digits"))
(16, 6)
>>> scene.thick_right(0), scene.thick_right(1), scene.thick_below(5)
(False, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, NamedTuple, Protocol

from ..grid import Grid
from ..marks import Candidates
from ..shape import SYMBOLS, Shape

__all__ = [
    "LAYERS",
    "PRINT_THEME",
    "SCREEN_THEME",
    "Circle",
    "Line",
    "Primitive",
    "Rect",
    "Scene",
    "StepLike",
    "Text",
    "Theme",
    "draw",
    "symbol_table",
    "thick_below",
    "thick_right",
]

#: The layers of every scene, bottom to top. Backends emit them in this order, always all of them.
LAYERS = ("cells", "grid", "candidates", "digits", "links")

# Primitives are named tuples: immutable like the rest of the model and several times cheaper
# to build than frozen dataclasses (a 600-puzzle book builds about 100,000 of them).


class Rect(NamedTuple):
    """A filled rectangle; ``cell`` is the cell it paints, or -1."""

    x: float
    y: float
    w: float
    h: float
    fill: str
    cls: str
    cell: int = -1


class Line(NamedTuple):
    """A straight line; ``weight`` is ``"thin"``, ``"thick"`` or ``"link"``."""

    x1: float
    y1: float
    x2: float
    y2: float
    weight: str
    colour: str
    cls: str
    dashed: bool = False


class Text(NamedTuple):
    """Text centred on ``(x, y)``; ``size`` is the em height in cell units."""

    x: float
    y: float
    text: str
    size: float
    colour: str
    cls: str
    bold: bool = False
    cell: int = -1
    digit: int = 0


class Circle(NamedTuple):
    """A disc (``fill``) with an optional ring (``stroke``, empty for none) around a candidate."""

    cx: float
    cy: float
    r: float
    fill: str
    stroke: str
    cls: str
    cell: int = -1
    digit: int = 0


Primitive = Rect | Line | Text | Circle


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of a scene. :data:`SCREEN_THEME` suits screens, :data:`PRINT_THEME` paper."""

    background: str = "#ffffff"
    line: str = "#000000"
    thin_line: str = "#7f7f7f"
    given: str = "#000000"
    user: str = "#1f4fbf"
    candidate: str = "#5a5a5a"
    diagonal: str = "#e4e4e4"
    unit: str = "#e3edfb"
    pattern: str = "#fff1a8"
    highlight: str = "#a6dba0"
    elimination: str = "#f4a6a6"
    elimination_text: str = "#c01818"
    placement: str = "#1a7f37"
    link: str = "#2457c5"


SCREEN_THEME = Theme()
PRINT_THEME = Theme(thin_line="#8c8c8c", user="#505050", diagonal="#d9d9d9")


class StepLike(Protocol):
    """What :func:`draw` reads from a logic step (duck-typed; ``sudokit.logic.Step`` fits)."""

    @property
    def cells(self) -> tuple[int, ...]: ...
    @property
    def units(self) -> tuple[int, ...]: ...
    @property
    def highlights(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def eliminations(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def placements(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def links(self) -> tuple[tuple[int, int, int, int, bool], ...]: ...


def symbol_table(n: int, symbols: Literal["letters", "numbers"] = "letters") -> tuple[str, ...]:
    """The text of digits ``0..n`` (index 0 is ``""``): ``1-9A-Z...`` or decimal numbers.

    >>> symbol_table(12)[9:]
    ('9', 'A', 'B', 'C')
    >>> symbol_table(12, "numbers")[10:]
    ('10', '11', '12')
    """
    if symbols not in ("letters", "numbers"):
        raise ValueError(f"symbols must be 'letters' or 'numbers', got {symbols!r}")
    if symbols == "numbers" or n > len(SYMBOLS):
        return ("", *(str(d) for d in range(1, n + 1)))
    return ("", *SYMBOLS[:n])


@dataclass(frozen=True, slots=True)
class Scene:
    """A drawn grid: cell contents and the primitives of every layer.

    ``values`` holds the digit shown in each cell (0 = none) and ``kinds`` what it is
    (``"given"``, ``"user"``, ``"placement"`` or ``"empty"``); ``candidates`` the pencil-mark
    mask of each cell (bit ``d - 1``), all zero when none are shown; ``symbols`` the text of
    each digit (index 0 unused).
    """

    shape: Shape
    values: tuple[int, ...]
    kinds: tuple[str, ...]
    candidates: tuple[int, ...]
    symbols: tuple[str, ...]
    layers: tuple[tuple[str, tuple[Primitive, ...]], ...] = field(repr=False)

    @property
    def n(self) -> int:
        """The size of the grid."""
        return self.shape.n

    def layer(self, name: str) -> tuple[Primitive, ...]:
        """The primitives of layer *name* (one of :data:`LAYERS`)."""
        for key, items in self.layers:
            if key == name:
                return items
        raise KeyError(name)

    def thick_right(self, cell: int) -> bool:
        """True when a thick line (box or region edge, or the frame) is right of *cell*."""
        return thick_right(self.shape, cell)

    def thick_below(self, cell: int) -> bool:
        """True when a thick line (box or region edge, or the frame) is below *cell*."""
        return thick_below(self.shape, cell)


def thick_right(shape: Shape, cell: int) -> bool:
    """True when the edge right of *cell* is a box or region edge, or the frame.

    >>> thick_right(Shape(2, 3), 2), thick_right(Shape(2, 3), 3)
    (True, False)
    """
    n = shape.n
    if cell % n == n - 1:
        return True
    return shape.box_of[cell] != shape.box_of[cell + 1]


def thick_below(shape: Shape, cell: int) -> bool:
    """True when the edge below *cell* is a box or region edge, or the frame.

    >>> thick_below(Shape(2, 3), 6), thick_below(Shape(2, 3), 0)
    (True, False)
    """
    n = shape.n
    if cell >= n * (n - 1):
        return True
    return shape.box_of[cell] != shape.box_of[cell + n]


def _cell_values(grid: Grid, user: Grid | Sequence[int] | None) -> tuple[list[int], list[str]]:
    values = list(grid.cells)
    kinds = ["given" if v else "empty" for v in values]
    if user is not None:
        extra = user.cells if isinstance(user, Grid) else bytes(user)
        if len(extra) != len(values):
            raise ValueError(f"user digits need {len(values)} cells, got {len(extra)}")
        for i, v in enumerate(extra):
            if v and not values[i]:
                if not 1 <= v <= grid.shape.n:
                    raise ValueError(
                        f"user digit {v} at {grid.shape.cell_name(i)} is outside 1..{grid.shape.n}"
                    )
                values[i] = v
                kinds[i] = "user"
    return values, kinds


def _auto_candidates(grid: Grid, values: Sequence[int]) -> list[int]:
    """Pencil marks of the grid with the user's digits placed: the digits no peer holds."""
    return list(Candidates.from_grid(Grid(bytes(values), grid.shape)).masks)


@lru_cache(maxsize=32)
def _grid_lines(shape: Shape, theme: Theme) -> tuple[Primitive, ...]:
    """Thin lines across the whole grid, then thick runs along box/region edges and the frame."""
    n = shape.n
    out: list[Primitive] = []
    for k in range(1, n):
        out.append(Line(k, 0, k, n, "thin", theme.thin_line, "thin"))
        out.append(Line(0, k, n, k, "thin", theme.thin_line, "thin"))
    # Thick runs: merge consecutive thick edges along each boundary line into one segment.
    for k in range(n + 1):
        start = -1  # horizontal boundary y = k, edges below row k-1 / above row k
        for c in range(n + 1):
            thick = c < n and (k in (0, n) or thick_below(shape, (k - 1) * n + c))
            if thick and start < 0:
                start = c
            elif not thick and start >= 0:
                out.append(Line(start, k, c, k, "thick", theme.line, "thick"))
                start = -1
        start = -1  # vertical boundary x = k
        for r in range(n + 1):
            thick = r < n and (k in (0, n) or thick_right(shape, r * n + k - 1))
            if thick and start < 0:
                start = r
            elif not thick and start >= 0:
                out.append(Line(k, start, k, r, "thick", theme.line, "thick"))
                start = -1
    return tuple(out)


@lru_cache(maxsize=64)
def _spots(n: int) -> tuple[tuple[int, int], ...]:
    """``(row, col)`` of every cell of an ``n x n`` grid."""
    return tuple(divmod(i, n) for i in range(n * n))


def _candidate_pos(shape: Shape, digit: int) -> tuple[float, float, float]:
    """Offset ``(dx, dy)`` of *digit*'s pencil mark inside its cell, and the mark's pitch."""
    rows, cols = shape.box_rows, shape.box_cols
    pitch = 0.86 / max(rows, cols)  # a small inset keeps marks off the cell edges
    r, c = divmod(digit - 1, cols)
    x0 = (1.0 - cols * pitch) / 2
    y0 = (1.0 - rows * pitch) / 2
    return x0 + (c + 0.5) * pitch, y0 + (r + 0.5) * pitch, pitch


def draw(
    grid: Grid,
    *,
    user: Grid | Sequence[int] | None = None,
    candidates: Sequence[int] | Literal["auto"] | None = None,
    step: StepLike | None = None,
    symbols: Literal["letters", "numbers"] = "letters",
    theme: Theme = SCREEN_THEME,
    conflicts: bool = False,
) -> Scene:
    """Build the :class:`Scene` of *grid*: givens, then what else is asked for.

    *user* adds the solver's digits (a grid or a value per cell; givens win); *candidates* is a
    pencil-mark mask per cell (bit ``d - 1``), or ``"auto"`` for the digits no peer holds;
    *step* (a :class:`StepLike`, e.g. a logic hint) shades its units and pattern cells, rings
    its highlighted candidates, marks eliminations in red and placements in green, and draws
    its chain links (solid when strong, dashed when weak). Candidates a step refers to are
    drawn even when *candidates* is ``None``. *symbols* picks ``1-9A-Z`` (``"letters"``) or
    decimal numbers for digits above 9. *conflicts* marks every digit that repeats in a unit
    (class ``conflict``, the elimination colours), as a playing app wants.

    Raises :class:`ValueError` when *user* or *candidates* has the wrong length.

    >>> from sudokit.grid import Grid
    >>> g = Grid.parse("1.3." "...2" "2..." ".3.1")
    >>> s = draw(g, candidates="auto")
    >>> [t.text for t in s.layer("candidates") if t.cell == 1]
    ['2', '4']
    >>> s.kinds[:4], s.values[:4]
    (('given', 'empty', 'given', 'empty'), (1, 0, 3, 0))
    """
    shape = grid.shape
    n = shape.n
    table = symbol_table(n, symbols)
    values, kinds = _cell_values(grid, user)
    if candidates is None:
        masks = [0] * shape.ncells
    elif isinstance(candidates, str):
        if candidates != "auto":
            raise ValueError(f"candidates must be a mask per cell or 'auto', got {candidates!r}")
        masks = _auto_candidates(grid, values)
    else:
        masks = [int(m) for m in candidates]
        if len(masks) != shape.ncells:
            raise ValueError(f"candidates need {shape.ncells} masks, got {len(masks)}")
    masks = [0 if values[i] else m for i, m in enumerate(masks)]

    fills = [theme.background] * shape.ncells
    classes = ["cell"] * shape.ncells
    if shape.diagonals:
        for u, kind in enumerate(shape.unit_kinds):
            if kind in ("diagonal", "anti-diagonal"):
                for i in shape.units[u]:
                    fills[i] = theme.diagonal
                    classes[i] = "cell diagonal"

    # (cell, digit) -> "highlight" | "elimination" | "placement"
    marks: dict[tuple[int, int], str] = {}
    link_items: list[Primitive] = []
    if step is not None:
        for u in step.units:
            for i in shape.units[u]:
                fills[i] = theme.unit
                classes[i] += " unit"
        for i in step.cells:
            fills[i] = theme.pattern
            classes[i] += " pattern"
        for cell, digit in step.highlights:
            marks[cell, digit] = "highlight"
        for cell, digit in step.eliminations:
            marks[cell, digit] = "elimination"
        for cell, digit in step.placements:
            marks[cell, digit] = "placement"
        for (cell, digit), kind in list(marks.items()):
            if values[cell]:
                continue
            if kind == "placement" and not masks[cell]:
                # No pencil marks in that cell: show the placed digit itself.
                values[cell], kinds[cell] = digit, "placement"
                del marks[cell, digit]
            else:
                masks[cell] |= 1 << (digit - 1)
        for c1, d1, c2, d2, strong in step.links:
            for cell, digit in ((c1, d1), (c2, d2)):  # chain ends are candidates: show them
                if not values[cell]:
                    masks[cell] |= 1 << (digit - 1)
            x1, y1, pitch = _candidate_pos(shape, d1)
            x2, y2, _ = _candidate_pos(shape, d2)
            ax, ay = c1 % n + x1, c1 // n + y1
            bx, by = c2 % n + x2, c2 // n + y2
            length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
            if length <= 0.95 * pitch:  # neighbours in one cell: nothing left to see
                continue
            cut = 0.45 * pitch / length  # stop at the edge of each candidate's ring
            sx, sy = (bx - ax) * cut, (by - ay) * cut
            kind = "strong" if strong else "weak"
            link_items.append(
                Line(
                    ax + sx,
                    ay + sy,
                    bx - sx,
                    by - sy,
                    "link",
                    theme.link,
                    f"link {kind}",
                    not strong,
                )
            )

    clashing: set[int] = set()
    if conflicts:
        for found in Grid(bytes(values), shape).conflicts():
            clashing.update(found.cells)
    for i in clashing:
        classes[i] += " conflict"
        fills[i] = theme.elimination
    spots = _spots(n)
    cells_layer: list[Primitive] = [
        Rect(c, r, 1, 1, fill, f"{cls} {kind}", i)
        for i, ((r, c), fill, cls, kind) in enumerate(
            zip(spots, fills, classes, kinds, strict=True)
        )
    ]

    grid_layer = _grid_lines(shape, theme)
    wide = max(len(t) for t in table)  # one text size for every digit of the grid

    cand_layer: list[Primitive] = []
    for i in range(shape.ncells):
        mask = masks[i]
        if not mask:
            continue
        r, c = divmod(i, n)
        for d in range(1, n + 1):
            if not mask >> (d - 1) & 1:
                continue
            dx, dy, pitch = _candidate_pos(shape, d)
            mark = marks.get((i, d))
            colour = theme.candidate
            size = (0.78 if wide == 1 else 0.6) * pitch
            if mark is not None:
                fill = {"highlight": theme.highlight, "elimination": theme.elimination}.get(
                    mark, theme.highlight
                )
                stroke = theme.placement if mark == "placement" else ""
                cand_layer.append(
                    Circle(c + dx, r + dy, 0.46 * pitch, fill, stroke, f"mark {mark}", i, d)
                )
                if mark == "elimination":
                    colour = theme.elimination_text
                elif mark == "placement":
                    colour = theme.placement
            cls = "cand" if mark is None else f"cand {mark}"
            cand_layer.append(
                Text(c + dx, r + dy, table[d], size, colour, cls, mark == "placement", i, d)
            )

    digit_layer: list[Primitive] = []
    size = 0.66 if wide == 1 else 0.5
    colours = {"given": theme.given, "user": theme.user, "placement": theme.placement}
    for i, v in enumerate(values):
        if not v:
            continue
        r, c = spots[i]
        kind = kinds[i]
        colour = colours[kind]
        cls = f"digit {kind}"
        if i in clashing:
            cls += " conflict"
            if kind != "given":
                colour = theme.elimination_text
        digit_layer.append(
            Text(c + 0.5, r + 0.5, table[v], size, colour, cls, kind == "given", i, v)
        )

    layers: tuple[tuple[str, tuple[Primitive, ...]], ...] = (
        ("cells", tuple(cells_layer)),
        ("grid", grid_layer),
        ("candidates", tuple(cand_layer)),
        ("digits", tuple(digit_layer)),
        ("links", tuple(link_items)),
    )
    return Scene(shape, tuple(values), tuple(kinds), tuple(masks), table, layers)
