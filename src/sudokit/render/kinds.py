"""How each rule kind of :mod:`sudokit.rules` is drawn and stated, as SudokuPad shows it
(layer 3).

:data:`LOOKS` holds one :class:`Look` per kind name of :data:`sudokit.rules.KINDS`: the
rule's name and sentence for a legend, whether the picture shows it, and the function that
draws one rule of the kind as primitives of the drawing model (``None`` for a global rule,
stated in words only). A test holds the table to the registry, so a new kind cannot be
forgotten.

The drawings follow SudokuPad: arrows as a circle (a pill over two or three cells) with thin
grey shafts ending in arrowheads; lines coloured by kind (whispers green, renban purple,
palindrome grey, region sum blue, zipper lavender, entropic orange, modular teal, nabner
yellow, between grey-blue with hollow circles at its ends); slow thermometers with a hollow
bulb; quadruples as a white circle on the corner holding its digits; difference and ratio
dots as white and black dots with their number; sums as the number on the edge; clones,
indexers, extreme cells and extra regions as shaded cells; one diagonal as a thin line; the
clues outside the grid (little killers with a small diagonal arrow, sandwiches, x-sums in a
ring, skyscrapers) in a margin that :func:`margins` reserves only on the sides that have them.

>>> from sudokit.rules import KINDS, Renban
>>> sorted(KINDS) == sorted(LOOKS)
True
>>> marks = rule_marks((Renban((0, 1, 2)),), 9, SCREEN_THEME)
>>> [(p.cls, p.weight) for p in marks.items]
[('renban line', 'rule'), ('renban line', 'rule')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import NamedTuple

from ..rules import (
    Arrow,
    Between,
    Clone,
    Diagonal,
    Difference,
    DoubleArrow,
    ExtraRegion,
    LittleKiller,
    Maximum,
    Minimum,
    PairSum,
    Quadruple,
    Ratio,
    Rule,
    Sandwich,
    Skyscraper,
    SlowThermo,
    SumCage,
    XSum,
)
from ..rules.cells import orthogonal
from ..rules.sums import outside_clue
from .model import (
    SCREEN_THEME,
    Circle,
    Line,
    Primitive,
    Rect,
    Text,
    Theme,
    cage_outline,
    edge_middle,
)

__all__ = ["LOOKS", "Look", "Marks", "margins", "rule_marks"]

#: The colour of each coloured line kind (SudokuPad's hues, dark enough to print).
LINE_COLOURS = {
    "whispers": "#5ec95e",
    "renban": "#d46fd4",
    "palindrome": "#b4b4b4",
    "regionsum": "#4aa3e8",
    "zipper": "#b9a2e8",
    "entropic": "#f5a33c",
    "modular": "#35b5a8",
    "nabner": "#e6cc3a",
    "between": "#9fb1d6",
}
#: Grey of arrows and double arrows; the darker grey of the chevrons of extreme cells.
ARROW = "#9c9c9c"
CHEVRON = "#6e6e6e"
#: Cell shades: column, row and box indexers, extreme cells, extra regions; clone colours.
SHADES = {
    "columnindexer": "#f6cfcf",
    "rowindexer": "#cfdcf6",
    "boxindexer": "#d4ecd4",
    "minimum": "#e6e6e6",
    "maximum": "#e6e6e6",
    "extraregion": "#e4e4e4",
}
CLONE_SHADES = ("#fde2a6", "#cde8f7", "#e3d3f3", "#d3f0d0", "#f7d3df", "#e6e6c8")
#: The text size of an outside clue, in cells.
CLUE_SIZE = 0.5
#: How far outside clues reach past the grid, in cells (one cell, as SudokuPad leaves).
MARGIN = 1.0

# Tiers within the rules layer, bottom to top: wide lines, thin lines (and pills' insides),
# circles and patches, text.
_WIDE, _THIN, _MARK, _TEXT = 0, 1, 2, 3


class Marks:
    """What the rules add to a scene: primitives by tier (``items`` in drawing order) and
    cell shades (``shades``: cell -> (colour, class word))."""

    def __init__(self) -> None:
        self._tiers: list[list[Primitive]] = [[], [], [], []]
        self.shades: dict[int, tuple[str, str]] = {}

    def add(self, tier: int, *items: Primitive) -> None:
        self._tiers[tier].extend(items)

    @property
    def tiers(self) -> tuple[tuple[Primitive, ...], ...]:
        """The primitives of each tier: wide lines, thin lines, marks, text."""
        return tuple(tuple(tier) for tier in self._tiers)

    @property
    def items(self) -> list[Primitive]:
        """Every primitive, bottom to top."""
        return [p for tier in self._tiers for p in tier]


Draw = Callable[[Rule, int, Theme, Marks], None]


class Look(NamedTuple):
    """How one kind shows: its legend ``name``, its ``sentence`` (of the shape's rules of
    that kind and the grid size), whether the picture ``shows`` it, and ``draw`` (one rule
    onto :class:`Marks`; None for a rule stated in words only)."""

    name: str
    sentence: Callable[[Sequence[Rule], int], str]
    shows: bool
    draw: Draw | None


def _centre(cell: int, n: int) -> tuple[float, float]:
    r, c = divmod(cell, n)
    return c + 0.5, r + 0.5


def _path(
    cells: Sequence[int], n: int, colour: str, cls: str, weight: str = "rule"
) -> list[Primitive]:
    points = [_centre(i, n) for i in cells]
    return [Line(x1, y1, x2, y2, weight, colour, cls) for (x1, y1), (x2, y2) in pairwise(points)]


def _arrowhead(
    tip: tuple[float, float], back: tuple[float, float], size: float, colour: str, cls: str
) -> list[Primitive]:
    """Two strokes from *tip*, opening towards *back*."""
    dx, dy = back[0] - tip[0], back[1] - tip[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    out: list[Primitive] = []
    for turn in (0.6, -0.6):
        cos, sin = math.cos(turn), math.sin(turn)
        ex, ey = ux * cos - uy * sin, ux * sin + uy * cos
        out.append(
            Line(tip[0], tip[1], tip[0] + size * ex, tip[1] + size * ey, "arrow", colour, cls)
        )
    return out


def _line(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    """A wide line of the kind's colour through its cells (a region-sum line's segments end
    to end)."""
    marks.add(_WIDE, *_path(rule.cells_of(), n, LINE_COLOURS[rule.kind], f"{rule.kind} line"))


def _ring(cell: int, n: int, theme: Theme, colour: str, cls: str, r: float = 0.38) -> Circle:
    x, y = _centre(cell, n)
    return Circle(x, y, r, theme.background, colour, cls, cell, 0, "ring")


def _between(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, Between)
    colour = LINE_COLOURS["between"]
    marks.add(_WIDE, *_path(rule.cells, n, colour, "between line"))
    for end in (rule.cells[0], rule.cells[-1]):
        marks.add(_MARK, _ring(end, n, theme, colour, "between end"))


def _slow_thermo(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, SlowThermo)
    marks.add(_WIDE, *_path(rule.cells, n, theme.rule, "slowthermo line"))
    marks.add(_MARK, _ring(rule.cells[0], n, theme, ARROW, "slowthermo bulb", 0.34))


def _double_arrow(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, DoubleArrow)
    marks.add(_THIN, *_path(rule.cells, n, ARROW, "doublearrow line", "arrow"))
    for end in (rule.cells[0], rule.cells[-1]):
        marks.add(_MARK, _ring(end, n, theme, ARROW, "doublearrow end"))


def _arrow(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, Arrow)
    circle = rule.circle
    if len(circle) == 1:
        marks.add(_MARK, _ring(circle[0], n, theme, ARROW, "arrow circle"))
    else:  # a pill: a wide grey stroke with a narrower white one inside
        marks.add(_WIDE, *_path(circle, n, ARROW, "arrow pill", "pill"))
        marks.add(_THIN, *_path(circle, n, theme.background, "arrow pill", "pill-inside"))
    for arrow in rule.arrows:
        start = min(circle, key=lambda c: math.dist(_centre(c, n), _centre(arrow[0], n)))
        sx, sy = _centre(start, n)
        fx, fy = _centre(arrow[0], n)
        d = math.hypot(fx - sx, fy - sy)
        reach = 0.38 if len(circle) == 1 else 0.4
        points = [(sx + (fx - sx) * reach / d, sy + (fy - sy) * reach / d)]
        points += [_centre(c, n) for c in arrow]
        for (x1, y1), (x2, y2) in pairwise(points):
            marks.add(_THIN, Line(x1, y1, x2, y2, "arrow", ARROW, "arrow line"))
        marks.add(_THIN, *_arrowhead(points[-1], points[-2], 0.26, ARROW, "arrow head"))


def _side(row: int, col: int, n: int) -> tuple[bool, bool, bool, bool]:
    """Which margins (top, right, bottom, left) an outside position (row, col) is in."""
    return row < 0, col >= n, row >= n, col < 0


def _little_killer(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, LittleKiller)
    r, c = outside_clue(rule.cells, n)
    r1, c1 = divmod(rule.cells[0], n)
    dr, dc = r1 - r, c1 - c
    x, y = c + 0.5, r + 0.5
    marks.add(
        _TEXT,
        Text(x - 0.1 * dc, y - 0.1 * dr, str(rule.total), 0.4, theme.given, "littlekiller clue"),
    )
    tail = (x + 0.2 * dc, y + 0.2 * dr)
    tip = (x + 0.45 * dc, y + 0.45 * dr)
    marks.add(_THIN, Line(*tail, *tip, "arrow", theme.given, "littlekiller arrow"))
    marks.add(_THIN, *_arrowhead(tip, tail, 0.13, theme.given, "littlekiller arrow"))


def _outside(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, Sandwich | XSum | Skyscraper)
    r, c = outside_clue(rule.cells, n)
    x, y = c + 0.5, r + 0.5
    text = str(rule.total)
    size = CLUE_SIZE if len(text) < 3 else 0.4
    if isinstance(rule, XSum):
        marks.add(_MARK, Circle(x, y, 0.34, theme.background, theme.given, "xsum ring", -1, 0))
        size = min(size, 0.42 if len(text) < 2 else 0.36)
    marks.add(_TEXT, Text(x, y, text, size, theme.given, f"{rule.kind} clue"))


def _quadruple(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, Quadruple)
    r, c = divmod(rule.cells[0], n)
    x, y = c + 1.0, r + 1.0
    digits = rule.digits
    wide = any(d > 9 for d in digits)  # two-figure digits of a big grid
    # As large as the four cells allow (a phone's 40-pixel cell gives 10-pixel digits).
    radius = 0.34 if wide else 0.3
    marks.add(_MARK, Circle(x, y, radius, theme.background, theme.dot, "quadruple", rule.cells[0]))
    if len(digits) <= 2:
        spots = [(x + 0.12 * (2 * k - len(digits) + 1), y) for k in range(len(digits))]
        size = 0.3
    else:
        spots = [(x + (-0.105 if k % 2 == 0 else 0.105), y + (-0.1 if k < 2 else 0.115))
                 for k in range(len(digits))]  # fmt: skip
        size = 0.25
    if wide:
        size *= 0.8
        spots = [(x + 1.3 * (tx - x), y + 1.15 * (ty - y)) for tx, ty in spots]
    for (tx, ty), d in zip(spots, digits, strict=True):
        marks.add(_TEXT, Text(tx, ty, str(d), size, theme.given, "quadruple digit"))


def _dot(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, Difference | Ratio)
    a, b = rule.cells
    x, y = edge_middle(a, b, n)
    value = str(rule.value)
    black = isinstance(rule, Ratio)
    fill, stroke, ink = (theme.dot, "", theme.background) if black else (
        theme.background, theme.dot, theme.dot)  # fmt: skip
    marks.add(_MARK, Circle(x, y, 0.2, fill, stroke, f"{rule.kind} dot", a))
    size = 0.3 if len(value) == 1 else 0.24
    marks.add(_TEXT, Text(x, y, value, size, ink, f"{rule.kind} value", True, a))


def _pair_sum(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, PairSum)
    a, b = rule.cells
    x, y = edge_middle(a, b, n)
    text = str(rule.value)
    half = 0.1 * len(text) + 0.03
    marks.add(_MARK, Rect(x - half, y - 0.14, 2 * half, 0.28, theme.background, "pairsum patch", a))
    marks.add(_TEXT, Text(x, y, text, 0.3, theme.dot, "pairsum value", True, a))


def _extreme(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    """Shaded cells with a chevron towards each neighbour they are compared with (outside
    the rule's cells): pointing out of a maximum, into a minimum."""
    assert isinstance(rule, Minimum | Maximum)
    cells = rule.cells
    out = isinstance(rule, Maximum)
    near, far = (0.3, 0.42) if out else (0.42, 0.3)
    for cell in cells:
        marks.shades[cell] = (SHADES[rule.kind], rule.kind)
        cx, cy = _centre(cell, n)
        for other in orthogonal(cell, n):
            if other in cells:
                continue
            ox, oy = _centre(other, n)
            ux, uy = ox - cx, oy - cy  # a unit step towards the neighbour
            tip = (cx + far * ux, cy + far * uy)
            for side in (-1, 1):
                arm = (cx + near * ux - side * 0.09 * uy, cy + near * uy + side * 0.09 * ux)
                marks.add(_THIN, Line(*arm, *tip, "arrow", CHEVRON, f"{rule.kind} chevron"))


def _shade(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    for cell in rule.cells_of():
        marks.shades[cell] = (SHADES[rule.kind], rule.kind)


def _extra_region(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, ExtraRegion)
    _shade(rule, n, theme, marks)
    for x1, y1, x2, y2 in cage_outline(rule.cells, n, 0.04):
        marks.add(_THIN, Line(x1, y1, x2, y2, "arrow", ARROW, "extraregion outline"))


def _sum_cage(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    """A killer cage's dashed outline with its totals small in the top-left cell: ``10/15``."""
    assert isinstance(rule, SumCage)
    for x1, y1, x2, y2 in cage_outline(rule.cells, n):
        marks.add(_THIN, Line(x1, y1, x2, y2, "cage", theme.cage, "sumcage", True))
    r, c = divmod(min(rule.cells), n)
    label = rule.label()
    size = 0.25
    width = 0.556 * size * len(label)  # Helvetica's digits (and "/" about) are this wide
    marks.add(_MARK, Rect(c + 0.04, r + 0.02, width + 0.06, 0.24, theme.background, "sumcage", -1))
    marks.add(_TEXT, Text(c + 0.07 + width / 2, r + 0.2, label, size, theme.cage, "sumcage sum"))


def _clone(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, Clone)
    used = {colour for colour, word in marks.shades.values() if word == "clone"}
    fresh = [c for c in CLONE_SHADES if c not in used]
    colour = fresh[0] if fresh else CLONE_SHADES[len(used) % len(CLONE_SHADES)]
    for cell in rule.cells + rule.copy:
        marks.shades[cell] = (colour, "clone")


def _diagonal(rule: Rule, n: int, theme: Theme, marks: Marks) -> None:
    assert isinstance(rule, Diagonal)
    x1, x2 = (n, 0) if rule.anti else (0, n)
    marks.add(_THIN, Line(x1, 0, x2, n, "arrow", "#6f8fc4", "diagonal line"))


def _say(text: str) -> Callable[[Sequence[Rule], int], str]:
    """A sentence that names the grid's largest digit as ``{n}`` and its thirds as
    ``{t1}`` .. ``{t2}``."""

    def sentence(found: Sequence[Rule], n: int) -> str:
        third = max(1, n // 3)
        return text.format(n=n, t1=third, t2=2 * third)

    return sentence


def _one_value(found: Sequence[Rule], field: str) -> int | None:
    values = {getattr(rule, field) for rule in found}
    return values.pop() if len(values) == 1 else None


def _whispers(found: Sequence[Rule], n: int) -> str:
    d = _one_value(found, "difference")
    return (
        "Whispers: neighbouring digits along a green line differ by at least"
        f" {d if d is not None else 'the difference named for the line'}."
    )


def _taxicab(found: Sequence[Rule], n: int) -> str:
    d = _one_value(found, "distance")
    far = f"exactly {d}" if d is not None else "exactly the given number of"
    return (
        f"Taxicab: cells {far} steps apart, counting rows and columns, never hold the same digit."
    )


def _diagonals(found: Sequence[Rule], n: int) -> str:
    which = {rule.anti for rule in found if isinstance(rule, Diagonal)}
    what = "each marked diagonal holds" if len(which) > 1 else "the marked diagonal holds"
    return f"Diagonal: {what} every digit once."


#: Every kind's look, by kind name (the keys of :data:`sudokit.rules.KINDS`).
LOOKS: dict[str, Look] = {
    "arrow": Look(
        "Arrow",
        _say(
            "Arrow: the digits along an arrow add up to the number in its circle (a pill's"
            " digits read as one number); digits may repeat on an arrow."
        ),
        True,
        _arrow,
    ),
    "doublearrow": Look(
        "Double arrow",
        _say(
            "Double arrow: the digits on a line between two circles add up to the sum of the"
            " digits in the circles."
        ),
        True,
        _double_arrow,
    ),
    "littlekiller": Look(
        "Little killer",
        _say(
            "Little killer: the digits along the diagonal a clue's small arrow points down add"
            " up to the clue; digits may repeat."
        ),
        True,
        _little_killer,
    ),
    "sandwich": Look(
        "Sandwich",
        _say(
            "Sandwich: a number outside the grid is the sum of the digits between the 1 and the"
            " {n} of its row or column."
        ),
        True,
        _outside,
    ),
    "xsum": Look(
        "X-sum",
        _say(
            "X-sum: a circled number outside the grid is the sum of the first X digits of its"
            " row or column seen from that side, X being the first of them."
        ),
        True,
        _outside,
    ),
    "skyscraper": Look(
        "Skyscraper",
        _say(
            "Skyscraper: digits are heights; a number outside the grid counts the digits its"
            " row or column shows from that side, a higher digit hiding the lower ones behind"
            " it."
        ),
        True,
        _outside,
    ),
    "renban": Look(
        "Renban",
        _say("Renban: a purple line holds distinct consecutive digits, in any order."),
        True,
        _line,
    ),
    "whispers": Look("Whispers", _whispers, True, _line),
    "palindrome": Look(
        "Palindrome", _say("Palindrome: a grey line reads the same from both ends."), True, _line
    ),
    "regionsum": Look(
        "Region sum",
        _say(
            "Region sum: the digits of a blue line add up to the same total in every box or"
            " region it passes through."
        ),
        True,
        _line,
    ),
    "zipper": Look(
        "Zipper",
        _say(
            "Zipper: on a lavender line, digits the same distance from its middle add up to the"
            " same total, the middle digit when the line has one."
        ),
        True,
        _line,
    ),
    "entropic": Look(
        "Entropic",
        _say(
            "Entropic: any three cells in a row on an orange line hold a low (1-{t1}), a middle"
            " and a high (over {t2}) digit."
        ),
        True,
        _line,
    ),
    "modular": Look(
        "Modular",
        _say(
            "Modular: any three cells in a row on a teal line hold digits of three different"
            " remainders when divided by 3."
        ),
        True,
        _line,
    ),
    "between": Look(
        "Between",
        _say(
            "Between: every digit on a line lies strictly between the digits in the circles at"
            " its two ends."
        ),
        True,
        _between,
    ),
    "nabner": Look(
        "Nabner",
        _say("Nabner: no two digits on a yellow line are equal or consecutive."),
        True,
        _line,
    ),
    "slowthermo": Look(
        "Slow thermo",
        _say(
            "Slow thermometer: digits never decrease along a thermometer with a hollow bulb,"
            " from the bulb on."
        ),
        True,
        _slow_thermo,
    ),
    "sumcage": Look(
        "Killer (several sums)",
        _say(
            "Killer cages of several sums: the digits of a dashed cage never repeat and add up"
            " to one of the totals in its corner."
        ),
        True,
        _sum_cage,
    ),
    "quadruple": Look(
        "Quadruple",
        _say(
            "Quadruple: the digits in a circle on a corner appear in the four cells around it"
            " (a digit written twice, twice)."
        ),
        True,
        _quadruple,
    ),
    "minimum": Look(
        "Minimum",
        _say(
            "Minimum: a shaded cell with chevrons pointing in is lower than each side-by-side"
            " neighbour they point from."
        ),
        True,
        _extreme,
    ),
    "maximum": Look(
        "Maximum",
        _say(
            "Maximum: a shaded cell with chevrons pointing out is higher than each side-by-side"
            " neighbour they point at."
        ),
        True,
        _extreme,
    ),
    "difference": Look(
        "Difference dots",
        _say("Difference dots: the two digits either side of a white dot differ by its number."),
        True,
        _dot,
    ),
    "ratio": Look(
        "Ratio dots",
        _say(
            "Ratio dots: of the two digits either side of a black dot, one is its number times"
            " the other."
        ),
        True,
        _dot,
    ),
    "pairsum": Look(
        "Edge sums",
        _say("Edge sums: the two digits either side of a number on an edge add up to it."),
        True,
        _pair_sum,
    ),
    "clone": Look(
        "Clone",
        _say(
            "Clones: cells shaded in one colour form two groups of the same shape that hold the"
            " same digits in the same places."
        ),
        True,
        _clone,
    ),
    "columnindexer": Look(
        "Column indexer",
        _say(
            "Column indexers: a digit X in a red cell of column C means that column X of its"
            " row holds C."
        ),
        True,
        _shade,
    ),
    "rowindexer": Look(
        "Row indexer",
        _say(
            "Row indexers: a digit X in a blue cell of row R means that row X of its column"
            " holds R."
        ),
        True,
        _shade,
    ),
    "boxindexer": Look(
        "Box indexer",
        _say(
            "Box indexers: a digit X in a green cell at place P of its box (in reading order)"
            " means that place X of the box holds P."
        ),
        True,
        _shade,
    ),
    "diagonal": Look("Diagonal", _diagonals, True, _diagonal),
    "disjointgroups": Look(
        "Disjoint groups",
        _say("Disjoint groups: the cells at the same place in every box hold every digit once."),
        False,
        None,
    ),
    "extraregion": Look(
        "Extra regions",
        _say("Extra regions: digits do not repeat in an outlined grey region."),
        True,
        _extra_region,
    ),
    "knightmare": Look(
        "Knightmare",
        _say("Knightmare: cells a chess knight's move apart never add up to 5 or 15."),
        False,
        None,
    ),
    "taxicab": Look("Taxicab", _taxicab, False, None),
    "selftaxicab": Look(
        "Self-taxicab",
        _say(
            "Self-taxicab: a digit d is never exactly d steps (rows plus columns) away from"
            " another d."
        ),
        False,
        None,
    ),
    "diagonalnonconsecutive": Look(
        "Diagonal non-consecutive",
        _say("Diagonal non-consecutive: cells touching at a corner never hold consecutive digits."),
        False,
        None,
    ),
}


def rule_marks(found: Sequence[Rule], n: int, theme: Theme = SCREEN_THEME) -> Marks:
    """The primitives and cell shades of every rule of *found* on an ``n x n`` grid.

    >>> from sudokit.rules import Clone, Ratio
    >>> marks = rule_marks([Clone((0,), (8,)), Ratio((0, 1), 3)], 9)
    >>> marks.shades[0] == marks.shades[8], [p.cls for p in marks.items]
    (True, ['ratio dot', 'ratio value'])
    """
    marks = Marks()
    for rule in found:
        look = LOOKS[rule.kind]
        if look.draw is not None:
            look.draw(rule, n, theme, marks)
    return marks


def margins(found: Sequence[Rule], n: int) -> tuple[float, float, float, float]:
    """The room outside clues need past each side of the grid, ``(top, right, bottom,
    left)`` in cells: :data:`MARGIN` on each side that holds one, else 0.

    >>> from sudokit.rules import Sandwich
    >>> margins([Sandwich(range(9), 10)], 9)
    (0.0, 0.0, 0.0, 1.0)
    """
    sides = [False] * 4
    for rule in found:
        if isinstance(rule, LittleKiller | Sandwich | XSum | Skyscraper) and rule.cells:
            for k, on in enumerate(_side(*outside_clue(rule.cells, n), n)):
                sides[k] = sides[k] or on
    top, right, bottom, left = (MARGIN if on else 0.0 for on in sides)
    return top, right, bottom, left
