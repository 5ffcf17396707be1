"""The text picture of a :class:`~sudokit.render.model.Scene` (layer 3).

Boxes are framed with ``|``, ``-`` and ``+`` in the picture :meth:`Grid.parse
<sudokit.grid.Grid.parse>` reads back. Jigsaw regions get a uniform layout with a one-character
gap between every pair of cells, ``|`` where a region edge runs and ``-`` under a cell whose
lower edge is one. With candidates, each cell shows its pencil marks instead of a blank.

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
from .model import Scene, draw

__all__ = ["to_text"]


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
    if scene.shape.regions is None:
        return _boxed(scene, texts)
    return _uniform(scene, texts)
