"""The text picture of a :class:`~sudokit.render.model.Scene` (layer 3).

Boxes are framed with ``|``, ``-`` and ``+`` in the picture :meth:`Grid.parse
<sudokit.grid.Grid.parse>` reads back. Jigsaw regions get a uniform layout with a one-character
gap between every pair of cells, ``|`` where a region edge runs and ``-`` under a cell whose
lower edge is one. With candidates, each cell shows its pencil marks instead of a blank.

A text picture cannot draw the variants' marks, so it says what it leaves out: after the
picture and a blank line, each rule of the shape in words with what it holds (every killer
cage with its sum and cells, the dots, the thermometers, the even and odd cells...).

>>> from sudokit.constraints import Cage, Constraints
>>> from sudokit.shape import Shape
>>> killer = Shape(2, 2, constraints=Constraints(cages=[Cage((0, 1), 3)], antiknight=True))
>>> print(to_text(Grid(bytes(16), killer)))
+-----+-----+
| . . | . . |
| . . | . . |
+-----+-----+
| . . | . . |
| . . | . . |
+-----+-----+
<BLANKLINE>
Killer: the digits of each dashed cage add up to its small number and do not repeat in the cage.
  3: r1c1 r1c2
Anti-knight: cells a chess knight's move apart never hold the same digit.

>>> from sudokit.grid import Grid
>>> print(to_text(Grid.parse("1.3." "...2" "2..." ".3.1")))
+-----+-----+
| 1 . | 3 . |
| . . | . 2 |
+-----+-----+
| 2 . | . . |
| . 3 | . 1 |
+-----+-----+
"""

from __future__ import annotations

from ..grid import Grid
from ..shape import Shape
from .model import Scene, draw, rules

__all__ = ["rules_text", "to_text"]


def _cell_texts(scene: Scene, blank: str) -> list[str]:
    table = scene.symbols
    texts = []
    for v, mask in zip(scene.values, scene.candidates, strict=True):
        if v:
            texts.append(table[v])
        elif mask:
            sep = "" if all(len(s) <= 1 for s in table) else ","
            texts.append(sep.join(table[d] for d in range(1, scene.n + 1) if mask >> (d - 1) & 1))
        else:
            texts.append(blank)
    width = max(len(t) for t in texts)
    if any(scene.candidates):
        return [t.ljust(width) for t in texts]
    return [t.rjust(width) for t in texts]


def _boxed(scene: Scene, texts: list[str]) -> str:
    shape = scene.shape
    n, w = shape.n, len(texts[0])
    box_width = shape.box_cols * (w + 1) + 1
    rule = "+" + "+".join("-" * box_width for _ in range(shape.n // shape.box_cols)) + "+"
    lines = [rule]
    for r in range(n):
        parts = ["|"]
        for c in range(n):
            parts.append(" " + texts[r * n + c])
            if (c + 1) % shape.box_cols == 0:
                parts.append(" |")
        lines.append("".join(parts))
        if (r + 1) % shape.box_rows == 0:
            lines.append(rule)
    return "\n".join(lines)


def _uniform(scene: Scene, texts: list[str]) -> str:
    n, w = scene.n, len(texts[0])
    span = w + 2

    def rule(r: int) -> str:  # the line above row r (r == n: the bottom frame)
        parts = []
        for c in range(n + 1):
            up = r > 0 and (c in (0, n) or scene.thick_right((r - 1) * n + c - 1))
            down = r < n and (c in (0, n) or scene.thick_right(r * n + c - 1))
            left = c > 0 and (r in (0, n) or scene.thick_below((r - 1) * n + c - 1))
            right = c < n and (r in (0, n) or scene.thick_below((r - 1) * n + c))
            parts.append(
                "+"
                if (up or down) and (left or right)
                else "|"
                if up or down
                else "-"
                if left or right
                else " "
            )
            if c < n:
                parts.append(("-" if right else " ") * span)
        return "".join(parts).rstrip()

    lines = [rule(0)]
    for r in range(n):
        parts = ["|"]
        for c in range(n):
            parts.append(f" {texts[r * n + c]} ")
            parts.append("|" if scene.thick_right(r * n + c) else " ")
        lines.append("".join(parts))
        lines.append(rule(r + 1))
    return "\n".join(lines)


def _pairs(shape: Shape, pairs: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{shape.cell_name(a)}-{shape.cell_name(b)}" for a, b in pairs)


def _cells(shape: Shape, cells: tuple[int, ...]) -> str:
    return " ".join(shape.cell_name(i) for i in cells)


def _details(shape: Shape) -> dict[str, list[str]]:
    """What each rule of *shape* holds, in words, by rule name (see :func:`rules`)."""
    found: dict[str, list[str]] = {}
    if shape.windoku:
        windows = [u for k, u in zip(shape.unit_kinds, shape.units, strict=True) if k == "window"]
        found["Windoku"] = [
            f"window {k}: {shape.cell_name(w[0])} to {shape.cell_name(w[-1])}"
            for k, w in enumerate(windows, 1)
        ]
    c = shape.constraints
    if c is None:
        return found
    found["Killer"] = [
        f"{'?' if cage.total is None else cage.total}: {_cells(shape, cage.cells)}"
        for cage in c.cages
    ]
    found["Kropki"] = [
        f"{word}: {_pairs(shape, pairs)}"
        for word, pairs in (("white", c.white), ("black", c.black))
        if pairs
    ]
    found["XV"] = [
        f"{word}: {_pairs(shape, pairs)}" for word, pairs in (("X", c.x), ("V", c.v)) if pairs
    ]
    if c.parity is not None:
        found["Even/odd"] = [
            f"{word}: {_cells(shape, tuple(i for i, ch in enumerate(c.parity) if ch == mark))}"
            for word, mark in (("even", "e"), ("odd", "o"))
            if mark in c.parity
        ]
    found["Thermo"] = [f"bulb first: {_cells(shape, t)}" for t in c.thermos]
    if c.rules:
        from .kinds import LOOKS

        for rule in c.rules:
            words, cells = rule.describe(shape.n), rule.cells_of()
            if cells:
                words += f": {_cells(shape, cells)}"
            if words != rule.title:  # a global rule's sentence says it all
                found.setdefault(LOOKS[rule.kind].name, []).append(words)
    return found


def rules_text(shape: Shape) -> str:
    """The rules of *shape* a text picture cannot draw, in words, with what each holds: one
    line per rule, its cages, dots, thermometers... indented under it. "" for a classic or
    jigsaw shape, whose picture shows everything, and for Sudoku-X, whose picture is read
    back with ``--x`` as it always was (the text stays a puzzle the parser reads).

    >>> from sudokit.constraints import Constraints
    >>> print(rules_text(Shape(2, 2, constraints=Constraints(white=[(0, 1)]))))
    Kropki: cells joined by a white dot hold consecutive digits; by a black dot, one digit is double the other.
      white: r1c1-r1c2
    """  # noqa: E501
    lines = []
    details = _details(shape)
    for rule in rules(shape):
        if rule.name in ("Jigsaw", "Sudoku-X"):
            continue
        lines.append(rule.sentence)
        lines.extend(f"  {line}" for line in details.get(rule.name, ()))
    return "\n".join(lines)


def to_text(item: Grid | Scene, *, blank: str = ".") -> str:
    """The text picture of a grid or a scene; *blank* marks empty cells.

    >>> from sudokit.shape import Shape
    >>> g = Grid.parse("." * 16, shape=Shape.jigsaw("AAAB" "ABBB" "CCCD" "CDDD"))
    >>> print(to_text(g))
    +-----------+---+
    | .   .   . | . |
    |   +-------+   |
    | . | .   .   . |
    +---+-------+---+
    | .   .   . | . |
    |   +-------+   |
    | . | .   .   . |
    +---+-----------+
    """
    scene = item if isinstance(item, Scene) else draw(item)
    texts = _cell_texts(scene, blank)
    picture = _boxed(scene, texts) if scene.shape.regions is None else _uniform(scene, texts)
    words = rules_text(scene.shape)
    return f"{picture}\n\n{words}" if words else picture
