"""The drawing model: a grid and what to show on it, turned into primitives (layer 3).

:func:`draw` takes a :class:`~sudokit.grid.Grid` (any shape: boxes, jigsaw regions, Sudoku-X)
and optional user digits, pencil-mark candidates and the highlights of a logic step, and returns
a :class:`Scene`: the cell contents plus flat lists of primitives (:class:`Rect`,
:class:`Line`, :class:`Text`, :class:`Circle`) grouped in fixed layers. Every backend (SVG,
PDF, the text picture) draws a scene; none of them decides what to show.

The variant rules a shape carries are drawn as puzzle books and SudokuPad draw them: windoku
windows shaded; killer cages as dashed outlines inset from the cell edges with the sum small in
the cage's top-left cell (pencil marks there move below it); thermometers as grey bulbs and
lines, even cells as grey squares and odd cells as grey circles (all under the digits); kropki
dots and X / V letters on the edge between their two cells. The rule kinds of
:mod:`sudokit.rules` (arrows, little killers, sandwiches, coloured lines, quadruples,
clones...) are drawn as SudokuPad draws them by the table of :mod:`sudokit.render.kinds`; the
clues outside the grid stand in :attr:`Scene.margins`. Rules a picture cannot show
(anti-knight, anti-king, non-consecutive, "all dots given", knightmare, taxicab...) are
sentences in :attr:`Scene.notes`, for a caption; :func:`rules` names every rule of a shape.

Coordinates are in cell units: the grid covers ``[0, n] x [0, n]`` with ``y`` pointing down
(row 0 at the top). Line weights are names (``"thin"``, ``"thick"``, ``"link"``, ``"cage"``,
``"thermo"``) that each backend maps to a width suited to its medium; text sizes are em heights
in cell units; colours are ``#rrggbb`` strings from a :class:`Theme`.

>>> from sudokit.grid import Grid
>>> scene = draw(Grid.parse("1.3." "...2" "2..." ".3.1"))
>>> [name for name, _ in scene.layers]
['cells', 'grid', 'rules', 'cages', 'candidates', 'digits', 'links']
>>> len(scene.layer("cells")), len(scene.layer("digits"))
(16, 6)
>>> scene.thick_right(0), scene.thick_right(1), scene.thick_below(5)
(False, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Literal, NamedTuple, Protocol

from .._record import _Record
from ..grid import Grid
from ..marks import Candidates
from ..rules.base import Rule as RuleKind
from ..shape import LABELS, SYMBOLS, Labels, Shape

__all__ = [
    "LAYERS",
    "PRINT_THEME",
    "SCALED",
    "SCREEN_THEME",
    "Circle",
    "Line",
    "Primitive",
    "Rect",
    "Rule",
    "Scene",
    "StepLike",
    "Text",
    "Theme",
    "cage_outline",
    "draw",
    "edge_middle",
    "rules",
    "symbol_table",
    "thick_below",
    "thick_right",
    "wrap",
]

#: The layers of every scene, bottom to top. Backends emit them in this order, always all of them.
#: ``rules`` holds the variants' marks (thermometers, parity shapes, kropki dots, X / V),
#: ``cages`` the killer cage outlines and sums; both are empty for a classic grid.
LAYERS = ("cells", "grid", "rules", "cages", "candidates", "digits", "links")

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
    """A straight line; ``weight`` is ``"thin"``, ``"thick"``, ``"link"``, ``"cage"`` (a
    killer cage's dashed outline) or one of :data:`SCALED` (``"thermo"``, a thermometer a
    third of a cell wide; a rule's ``"rule"`` line, ``"arrow"`` shaft, ``"pill"``...)."""

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
    """A disc (``fill``) with an optional ring (``stroke``, empty for none, as wide as the
    line ``weight``) around a candidate, or a rule's circle."""

    cx: float
    cy: float
    r: float
    fill: str
    stroke: str
    cls: str
    cell: int = -1
    digit: int = 0
    weight: str = "thin"


Primitive = Rect | Line | Text | Circle

#: Line weights that are a fixed share of the cell, in cells, whatever the output: a
#: thermometer, a coloured rule line, an arrow's shaft (and other thin rule strokes), a pill's
#: outline and its inside, the ring of a rule's circle. Backends map the other weights to
#: widths suited to their medium.
SCALED = {
    "thermo": 0.3,
    "rule": 0.2,
    "arrow": 0.045,
    "pill": 0.8,
    "pill-inside": 0.72,
    "ring": 0.045,
}


class Theme(_Record):
    """The colours of a scene. :data:`SCREEN_THEME` suits screens, :data:`PRINT_THEME` paper."""

    __slots__ = (
        "background",
        "cage",
        "candidate",
        "diagonal",
        "dot",
        "elimination",
        "elimination_text",
        "given",
        "highlight",
        "line",
        "link",
        "pattern",
        "placement",
        "rule",
        "thin_line",
        "unit",
        "user",
        "window",
    )
    __match_args__ = (
        "background",
        "line",
        "thin_line",
        "given",
        "user",
        "candidate",
        "diagonal",
        "unit",
        "pattern",
        "highlight",
        "elimination",
        "elimination_text",
        "placement",
        "link",
        "window",
        "cage",
        "rule",
        "dot",
    )
    background: str
    line: str
    thin_line: str
    given: str
    user: str
    candidate: str
    diagonal: str
    unit: str
    pattern: str
    highlight: str
    elimination: str
    elimination_text: str
    placement: str
    link: str
    window: str
    cage: str
    rule: str
    dot: str

    def __init__(
        self,
        background: str = "#ffffff",
        line: str = "#000000",
        thin_line: str = "#7f7f7f",
        given: str = "#000000",
        user: str = "#1f4fbf",
        candidate: str = "#5a5a5a",
        diagonal: str = "#e4e4e4",
        unit: str = "#e3edfb",
        pattern: str = "#fff1a8",
        highlight: str = "#a6dba0",
        elimination: str = "#f4a6a6",
        elimination_text: str = "#c01818",
        placement: str = "#1a7f37",
        link: str = "#2457c5",
        window: str = "#e2e2e2",
        cage: str = "#000000",
        rule: str = "#c9c9c9",
        dot: str = "#000000",
    ) -> None:
        self._set(
            background,
            line,
            thin_line,
            given,
            user,
            candidate,
            diagonal,
            unit,
            pattern,
            highlight,
            elimination,
            elimination_text,
            placement,
            link,
            window,
            cage,
            rule,
            dot,
        )


SCREEN_THEME = Theme()
PRINT_THEME = Theme(thin_line="#8c8c8c", user="#505050", diagonal="#d9d9d9", window="#e0e0e0")


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


@lru_cache(maxsize=64)
def symbol_table(n: int, labels: Labels = "symbols") -> tuple[str, ...]:
    """The text of digits ``0..n`` (index 0 is ``""``): ``1-9A-Z...`` or decimal numbers.

    >>> symbol_table(12)[9:]
    ('9', 'A', 'B', 'C')
    >>> symbol_table(12, "numbers")[10:]
    ('10', '11', '12')
    """
    if labels not in LABELS:
        raise ValueError(f"labels must be one of {', '.join(LABELS)}, got {labels!r}")
    if labels == "numbers" or n > len(SYMBOLS):
        return ("", *(str(d) for d in range(1, n + 1)))
    return ("", *SYMBOLS[:n])


class Scene(_Record):
    """A drawn grid: cell contents and the primitives of every layer.

    ``values`` holds the digit shown in each cell (0 = none) and ``kinds`` what it is
    (``"given"``, ``"user"``, ``"placement"`` or ``"empty"``); ``candidates`` the pencil-mark
    mask of each cell (bit ``d - 1``), all zero when none are shown; ``symbols`` the text of
    each digit (index 0 unused); ``notes`` the sentences of the rules the picture does not show
    (anti-knight, anti-king, non-consecutive, negative kropki / XV), for a caption;
    ``margins`` the room the clues outside the grid take past each side, ``(top, right,
    bottom, left)`` in cells (all 0 without such clues).
    """

    __slots__ = ("candidates", "kinds", "layers", "margins", "notes", "shape", "symbols", "values")
    __match_args__ = (
        "shape",
        "values",
        "kinds",
        "candidates",
        "symbols",
        "layers",
        "notes",
        "margins",
    )
    shape: Shape
    values: tuple[int, ...]
    kinds: tuple[str, ...]
    candidates: tuple[int, ...]
    symbols: tuple[str, ...]
    layers: tuple[tuple[str, tuple[Primitive, ...]], ...]
    notes: tuple[str, ...]
    margins: tuple[float, float, float, float]

    def __init__(
        self,
        shape: Shape,
        values: tuple[int, ...],
        kinds: tuple[str, ...],
        candidates: tuple[int, ...],
        symbols: tuple[str, ...],
        layers: tuple[tuple[str, tuple[Primitive, ...]], ...],
        notes: tuple[str, ...] = (),
        margins: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
    ) -> None:
        self._set(shape, values, kinds, candidates, symbols, layers, notes, margins)

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


class Rule(NamedTuple):
    """One rule of a shape: a short ``name`` (``"Anti-knight"``), the rule in a ``sentence``,
    and whether a drawing ``shows`` it (cages, dots...) or must state it in words."""

    name: str
    sentence: str
    shows: bool


def rules(shape: Shape) -> tuple[Rule, ...]:
    """The rules of *shape* beyond rows, columns and boxes, in a stable order.

    >>> from sudokit.constraints import Cage, Constraints
    >>> s = Shape(2, 2, constraints=Constraints(cages=[Cage((0, 1), 3)], antiknight=True))
    >>> [(r.name, r.shows) for r in rules(s)]
    [('Killer', True), ('Anti-knight', False)]
    >>> rules(Shape(3, 3))
    ()
    """
    found: list[Rule] = []
    if shape.regions is not None:
        found.append(Rule("Jigsaw", "Jigsaw: each outlined region holds every digit once.", True))
    if shape.diagonals:
        found.append(
            Rule("Sudoku-X", "Sudoku-X: each shaded diagonal holds every digit once.", True)
        )
    if shape.windoku:
        found.append(Rule("Windoku", "Windoku: each shaded window holds every digit once.", True))
    c = shape.constraints
    if c is None:
        return tuple(found)
    for on, rule in (
        (
            bool(c.cages),
            Rule(
                "Killer",
                "Killer: the digits of each dashed cage add up to its small number"
                " and do not repeat in the cage.",
                True,
            ),
        ),
        (
            c.antiknight,
            Rule(
                "Anti-knight",
                "Anti-knight: cells a chess knight's move apart never hold the same digit.",
                False,
            ),
        ),
        (
            c.antiking,
            Rule(
                "Anti-king",
                "Anti-king: cells that touch, even at a corner, never hold the same digit.",
                False,
            ),
        ),
        (
            c.nonconsecutive,
            Rule(
                "Non-consecutive",
                "Non-consecutive: side-by-side cells never hold consecutive digits.",
                False,
            ),
        ),
        (
            bool(c.white or c.black),
            Rule(
                "Kropki",
                "Kropki: cells joined by a white dot hold consecutive digits;"
                " by a black dot, one digit is double the other.",
                True,
            ),
        ),
        (
            c.kropki_negative,
            Rule(
                "All dots given",
                "All kropki dots are given: side-by-side cells without a dot are neither"
                " consecutive nor one double the other.",
                False,
            ),
        ),
        (
            c.white_negative and not c.black_negative,
            Rule(
                "All white dots given",
                "All white dots are given: side-by-side cells without a dot are not consecutive.",
                False,
            ),
        ),
        (
            c.black_negative and not c.white_negative,
            Rule(
                "All black dots given",
                "All black dots are given: side-by-side cells without a dot are not one double"
                " the other.",
                False,
            ),
        ),
        (
            bool(c.x or c.v),
            Rule("XV", "XV: cells joined by an X add up to 10; by a V, to 5.", True),
        ),
        (
            c.xv_negative,
            Rule(
                "All X and V given",
                "All X and V are given: side-by-side cells without one add up to neither 5 nor 10.",
                False,
            ),
        ),
        (
            c.parity is not None,
            Rule(
                "Even/odd",
                "Even/odd: a grey square holds an even digit, a grey circle an odd one.",
                True,
            ),
        ),
        (
            bool(c.thermos),
            Rule(
                "Thermo",
                "Thermometers: digits strictly increase along each grey line from its bulb.",
                True,
            ),
        ),
    ):
        if on:
            found.append(rule)
    if c.rules:
        from .kinds import LOOKS  # the kinds' table draws with this module's primitives

        by_kind: dict[str, list[RuleKind]] = {}
        for kind_rule in c.rules:
            by_kind.setdefault(kind_rule.kind, []).append(kind_rule)
        for kind, of_kind in by_kind.items():
            look = LOOKS[kind]
            found.append(Rule(look.name, look.sentence(of_kind, shape.n), look.shows))
    return tuple(found)


def wrap(text: str, fits: Callable[[str], bool]) -> list[str]:
    """*text* cut at spaces into lines, each as long as ``fits(line)`` allows (a word too long
    for a line of its own gets one anyway).

    >>> wrap("a bb ccc dd", lambda line: len(line) <= 5)
    ['a bb', 'ccc', 'dd']
    """
    lines: list[str] = []
    for word in text.split():
        if lines and fits(f"{lines[-1]} {word}"):
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


#: How far a cage outline runs inside the cell edges, in cells.
CAGE_INSET = 0.08
#: The em height of a cage sum, and the top-left corner of its text, in cells.
_SUM_SIZE = 0.25
_SUM_X = 0.07
_SUM_Y = 0.05
_DIGIT_WIDTH = 0.556  # Helvetica's digits are all this wide, in ems
_CAP_HEIGHT = 0.718  # Helvetica's cap height, in ems


def cage_outline(
    cells: Sequence[int], n: int, inset: float = CAGE_INSET
) -> tuple[tuple[float, float, float, float], ...]:
    """The outline of a cage as ``(x1, y1, x2, y2)`` segments, *inset* inside its cells' outer
    edges: one closed line around the whole cage (holes get their own), not a box per cell.
    Segments on one line that touch are merged.

    >>> cage_outline([0], 3, 0.1)
    ((0.1, 0.1, 0.9, 0.1), (0.1, 0.9, 0.9, 0.9), (0.1, 0.1, 0.1, 0.9), (0.9, 0.1, 0.9, 0.9))
    >>> len(cage_outline([0, 1, 4], 3))  # an L: six sides
    6
    """
    spots = [divmod(i, n) for i in cells]
    top = min(r for r, _ in spots)
    left = min(c for _, c in spots)
    form = tuple(sorted((r - top, c - left) for r, c in spots))
    return tuple(
        (x1 + left, y1 + top, x2 + left, y2 + top) for x1, y1, x2, y2 in _outline(form, inset)
    )


@lru_cache(maxsize=4096)
def _outline(
    form: tuple[tuple[int, int], ...], d: float
) -> tuple[tuple[float, float, float, float], ...]:
    """The outline of a cage of cells at (row, col) *form* (its top row and left column 0):
    a killer book repeats a few dozen forms, so each is traced once."""
    spots = set(form)

    def at(r: int, c: int) -> bool:
        return (r, c) in spots

    flat: dict[float, list[tuple[float, float]]] = {}  # y -> x runs
    tall: dict[float, list[tuple[float, float]]] = {}  # x -> y runs
    for r, c in sorted(spots):
        for dr, y in ((-1, r + d), (1, r + 1 - d)):  # top, bottom side
            if at(r + dr, c):
                continue
            left = c + d if not at(r, c - 1) else c - d if at(r + dr, c - 1) else c
            right = c + 1 - d if not at(r, c + 1) else c + 1 + d if at(r + dr, c + 1) else c + 1
            flat.setdefault(y, []).append((left, right))
        for dc, x in ((-1, c + d), (1, c + 1 - d)):  # left, right side
            if at(r, c + dc):
                continue
            top = r + d if not at(r - 1, c) else r - d if at(r - 1, c + dc) else r
            bottom = r + 1 - d if not at(r + 1, c) else r + 1 + d if at(r + 1, c + dc) else r + 1
            tall.setdefault(x, []).append((top, bottom))
    out: list[tuple[float, float, float, float]] = []
    for y, runs in sorted(flat.items()):
        out.extend((a, y, b, y) for a, b in _merged(runs))
    for x, runs in sorted(tall.items()):
        out.extend((x, a, x, b) for a, b in _merged(runs))
    return tuple(out)


def _merged(runs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Touching or overlapping intervals joined, in order."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(runs):
        if out and a <= out[-1][1] + 1e-9:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _cage_items(shape: Shape, theme: Theme, fills: Sequence[str]) -> list[Primitive]:
    """Dashed outlines of every cage, then the sums' patches (of their cell's colour, over
    the outline's corner), then the sums: each kind after the other, as backends batch them."""
    n = shape.n
    assert shape.constraints is not None
    items: list[Primitive] = []
    sums: list[Primitive] = []
    for cage in shape.constraints.cages:
        for x1, y1, x2, y2 in cage_outline(cage.cells, n):
            items.append(Line(x1, y1, x2, y2, "cage", theme.cage, "cage", True))
    for cage in shape.constraints.cages:
        if cage.total is None:
            continue
        first = cage.cells[0]  # sorted row-major: the top row's leftmost cell
        r, c = divmod(first, n)
        text = str(cage.total)
        width = _DIGIT_WIDTH * _SUM_SIZE * len(text)
        height = _CAP_HEIGHT * _SUM_SIZE
        pad = 0.03
        items.append(
            Rect(
                c + _SUM_X - pad,
                r + _SUM_Y - pad,
                width + 2 * pad,
                height + 2 * pad,
                fills[first],
                "cage-sum-patch",
                first,
            )
        )
        baseline = r + _SUM_Y + height
        sums.append(
            Text(
                c + _SUM_X + width / 2,
                baseline - 0.36 * _SUM_SIZE,
                text,
                _SUM_SIZE,
                theme.cage,
                "cage-sum",
                False,
                first,
            )
        )
    return items + sums


def edge_middle(a: int, b: int, n: int) -> tuple[float, float]:
    """The middle of the edge between orthogonal neighbours *a* and *b*, in cells.

    >>> edge_middle(0, 1, 9), edge_middle(0, 9, 9)
    ((1.0, 0.5), (0.5, 1.0))
    """
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return (ca + cb + 1) / 2, (ra + rb + 1) / 2


def _rule_items(
    shape: Shape, theme: Theme, tiers: Sequence[Sequence[Primitive]]
) -> list[Primitive]:
    """Parity shapes and thermometers, the rule kinds' lines (*tiers* 0 and 1: wide, then
    thin), kropki dots and X / V patches, the kinds' marks (tier 2), the letters, the kinds'
    text (tier 3): bottom to top, so dots sit on the lines they mark."""
    n = shape.n
    c = shape.constraints
    assert c is not None
    items: list[Primitive] = []
    if c.parity is not None:
        for i, ch in enumerate(c.parity):
            r, col = divmod(i, n)
            if ch == "e":
                items.append(Rect(col + 0.14, r + 0.14, 0.72, 0.72, theme.rule, "even", i))
            elif ch == "o":
                items.append(Circle(col + 0.5, r + 0.5, 0.37, theme.rule, "", "odd", i))
    for thermo in c.thermos:
        r, col = divmod(thermo[0], n)
        items.append(Circle(col + 0.5, r + 0.5, 0.36, theme.rule, "", "thermo-bulb", thermo[0]))
        for a, b in pairwise(thermo):
            (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
            items.append(
                Line(ca + 0.5, ra + 0.5, cb + 0.5, rb + 0.5, "thermo", theme.rule, "thermo")
            )
    items.extend(tiers[0])
    items.extend(tiers[1])
    for pairs, fill, stroke, cls in (
        (c.white, theme.background, theme.dot, "kropki white"),
        (c.black, theme.dot, "", "kropki black"),
    ):
        for a, b in pairs:
            x, y = edge_middle(a, b, n)
            items.append(Circle(x, y, 0.12, fill, stroke, cls, a))
    letters: list[Primitive] = []
    for pairs, letter in ((c.x, "X"), (c.v, "V")):
        for a, b in pairs:
            x, y = edge_middle(a, b, n)
            items.append(Rect(x - 0.13, y - 0.15, 0.26, 0.3, theme.background, "xv-patch", a))
            letters.append(Text(x, y, letter, 0.36, theme.dot, f"xv {letter.lower()}", True, a))
    return [*items, *tiers[2], *letters, *tiers[3]]


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


#: Where pencil marks start in a cell holding a cage sum (below the sum), in cells.
_BELOW_SUM = _SUM_Y + _CAP_HEIGHT * _SUM_SIZE + 0.06


@lru_cache(maxsize=1024)
def _candidate_pos(
    rows: int, cols: int, digit: int, below_sum: bool = False
) -> tuple[float, float, float]:
    """Offset ``(dx, dy)`` of *digit*'s pencil mark inside a cell of *rows* x *cols* boxes
    (marks sit as digits sit in a box), and the mark's pitch.
    *below_sum*: the cell holds a cage sum in its top-left corner, so the rows of marks are
    packed (and drawn a little smaller) between the sum and the cage outline's bottom edge;
    the columns stay where they are in every other cell."""
    pitch = 0.86 / max(rows, cols)  # a small inset keeps marks off the cell edges
    r, c = divmod(digit - 1, cols)
    x = (1.0 - cols * pitch) / 2 + (c + 0.5) * pitch
    if not below_sum:
        return x, (1.0 - rows * pitch) / 2 + (r + 0.5) * pitch, pitch
    bottom = 1.0 - CAGE_INSET - 0.02
    step = min(pitch, (bottom - _BELOW_SUM) / rows)
    return x, bottom - (rows - r - 0.5) * step, step


def draw(
    grid: Grid,
    *,
    user: Grid | Sequence[int] | None = None,
    candidates: Sequence[int] | Literal["auto"] | None = None,
    step: StepLike | None = None,
    labels: Labels = "symbols",
    theme: Theme = SCREEN_THEME,
    conflicts: bool = False,
) -> Scene:
    """Build the :class:`Scene` of *grid*: givens, then what else is asked for.

    *user* adds the solver's digits (a grid or a value per cell; givens win); *candidates* is a
    pencil-mark mask per cell (bit ``d - 1``), or ``"auto"`` for the digits no peer holds;
    *step* (a :class:`StepLike`, e.g. a logic hint) shades its units and pattern cells, rings
    its highlighted candidates, marks eliminations in red and placements in green, and draws
    its chain links (solid when strong, dashed when weak). Candidates a step refers to are
    drawn even when *candidates* is ``None``. *labels* names digits above 9 as the board's
    symbols (``A-Z...``, ``"symbols"``) or as decimal numbers (``"numbers"``). *conflicts*
    marks every digit that repeats in a unit (class ``conflict``, the elimination colours),
    as a playing app wants.

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
    table = symbol_table(n, labels)
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
    if shape.diagonals or shape.windoku:
        for u, kind in enumerate(shape.unit_kinds):
            if kind in ("diagonal", "anti-diagonal", "window"):
                shade = theme.window if kind == "window" else theme.diagonal
                for i in shape.units[u]:
                    fills[i] = shade
                    classes[i] = f"cell {'window' if kind == 'window' else 'diagonal'}"
    rules_of = shape.constraints
    kind_marks = None
    if rules_of is not None and rules_of.rules:
        from .kinds import rule_marks  # the kinds' table draws with this module's primitives

        kind_marks = rule_marks(rules_of.rules, n, theme)
        for i, (shade, word) in kind_marks.shades.items():
            fills[i] = shade
            classes[i] += f" {word}"
    box_rows, box_cols = shape.box_rows, shape.box_cols
    sum_cells = (
        frozenset(cage.cells[0] for cage in rules_of.cages if cage.total is not None)
        if rules_of is not None
        else frozenset()
    )

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
            x1, y1, pitch = _candidate_pos(box_rows, box_cols, d1, c1 in sum_cells)
            x2, y2, _ = _candidate_pos(box_rows, box_cols, d2, c2 in sum_cells)
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

    # Lines depend on boxes or regions only: every killer of a book shares one cached set.
    grid_layer = _grid_lines(shape if shape.constraints is None else shape.classic(), theme)
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
            dx, dy, pitch = _candidate_pos(box_rows, box_cols, d, i in sum_cells)
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

    rule_layer: tuple[Primitive, ...] = ()
    cage_layer: tuple[Primitive, ...] = ()
    margins = (0.0, 0.0, 0.0, 0.0)
    if rules_of is not None:
        tiers = kind_marks.tiers if kind_marks is not None else ((), (), (), ())
        rule_layer = tuple(_rule_items(shape, theme, tiers))
        if kind_marks is not None:
            from .kinds import margins as clue_margins

            margins = clue_margins(rules_of.rules, n)
        cage_layer = tuple(_cage_items(shape, theme, fills))
    layers: tuple[tuple[str, tuple[Primitive, ...]], ...] = (
        ("cells", tuple(cells_layer)),
        ("grid", grid_layer),
        ("rules", rule_layer),
        ("cages", cage_layer),
        ("candidates", tuple(cand_layer)),
        ("digits", tuple(digit_layer)),
        ("links", tuple(link_items)),
    )
    notes = tuple(rule.sentence for rule in rules(shape) if not rule.shows)
    return Scene(shape, tuple(values), tuple(kinds), tuple(masks), table, layers, notes, margins)
