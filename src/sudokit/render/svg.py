"""SVG output of a :class:`~sudokit.render.model.Scene` (layer 3).

The structure is stable, for the web app and for CSS: one ``<g>`` per layer (``class`` and
``data-layer`` name it, in :data:`~sudokit.render.model.LAYERS` order, always all of them), one
``<rect>`` per cell in the ``cells`` layer, and every cell-bound element carries
``data-cell="r,c"`` (0-based row and column) and classes (``cell given``, ``cell diagonal
unit empty``, ``digit user``, ``cand elimination``, ``mark highlight``, ``line thick``,
``link weak``, ``cage``, ``cage-sum``, ``thermo``, ``kropki white``, ``xv x``, ``even``,
``odd``; a rule kind's marks name the kind first: ``arrow circle``, ``whispers line``,
``sandwich clue``...). Colours are presentation attributes, so any CSS rule overrides them.
Clues outside the grid widen the picture by the scene's margins on their sides. The rules a
picture cannot show (:attr:`Scene.notes <sudokit.render.model.Scene.notes>`: anti-knight...)
are the ``<desc>`` and, unless ``caption=False``, a caption under the grid.

>>> from sudokit.grid import Grid
>>> svg = to_svg(Grid.parse("1.3." "...2" "2..." ".3.1"), cell=30)
>>> svg.count('class="cell ')
16
>>> '<g class="layer-digits" data-layer="digits">' in svg
True
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..grid import Grid
from .model import SCALED, Circle, Line, Rect, Scene, Text, draw, wrap

__all__ = ["FONT_FAMILY", "to_svg"]

#: The font stack of SVG text (Helvetica metrics, as in the PDF output).
FONT_FAMILY = "Helvetica, Arial, sans-serif"
# Baseline offset below the centre of a line of digits, in ems (half the cap height of Helvetica).
BASELINE = 0.36
# The average width of a character of caption text, in ems (Helvetica prose is about 0.5).
NOTE_EM_WIDTH = 0.52


def _num(v: float) -> str:
    text = f"{v:.2f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _cell_attr(scene: Scene, cell: int) -> str:
    if cell < 0:
        return ""
    r, c = divmod(cell, scene.n)
    return f' data-cell="{r},{c}"'


def to_svg(
    item: Grid | Scene, *, cell: float = 40, title: str | None = None, caption: bool = True
) -> str:
    """The SVG document of a grid or a scene, *cell* pixels per cell.

    A :class:`~sudokit.grid.Grid` is drawn with :func:`~sudokit.render.model.draw`'s defaults;
    build a scene yourself for candidates, user digits or step highlights. *title* adds a
    ``<title>`` (a tooltip and an accessible name). The scene's notes (rules the picture cannot
    show) go in a ``<desc>`` and, with *caption*, in lines of text under the grid (the picture
    grows; a classic grid has none).

    >>> from sudokit.grid import Grid
    >>> to_svg(Grid.parse("1" * 0 + "." * 16), cell=10).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    """
    scene = item if isinstance(item, Scene) else draw(item)
    n = scene.n
    thin = max(1.0, cell / 40)
    thick = max(2.0, cell * 3 / 40)
    link = max(1.0, cell / 28)
    cage = max(0.75, cell / 36)
    widths = {"thin": thin, "thick": thick, "link": link, "cage": cage}
    widths.update((name, share * cell) for name, share in SCALED.items())
    dashes = {
        "cage": f' stroke-dasharray="{_num(cell * 0.07)} {_num(cell * 0.05)}"',
        "link": f' stroke-dasharray="{_num(3 * link)} {_num(2 * link)}"',
    }
    caps = {"thick": "square", "link": "round", **dict.fromkeys(SCALED, "round")}
    pad = thick / 2
    top, right, bottom, left = (m * cell for m in scene.margins)
    size = n * cell + 2 * pad
    wide = size + left + right
    note_px = max(9.0, min(16.0, cell * 0.38))
    room = n * cell / (NOTE_EM_WIDTH * note_px)  # characters a caption line holds
    notes = [
        line
        for note in (scene.notes if caption else ())
        for line in wrap(note, lambda text: len(text) <= room)
    ]
    height = size + top + bottom + (len(notes) * note_px * 1.35 + note_px * 0.6 if notes else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="sudokit-grid" width="{_num(wide)}" '
        f'height="{_num(height)}" viewBox="{_num(-pad - left)} {_num(-pad - top)} '
        f'{_num(wide)} {_num(height)}" data-size="{n}" data-variant="{scene.shape.variant}" '
        f'font-family="{FONT_FAMILY}">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    if scene.notes:
        out.append(f"<desc>{escape(' '.join(scene.notes))}</desc>")
    for name, items in scene.layers:
        out.append(f'<g class="layer-{name}" data-layer="{name}">')
        for p in items:
            if isinstance(p, Rect):
                out.append(
                    f'<rect class="{p.cls}"{_cell_attr(scene, p.cell)} x="{_num(p.x * cell)}" '
                    f'y="{_num(p.y * cell)}" width="{_num(p.w * cell)}" '
                    f'height="{_num(p.h * cell)}" fill="{p.fill}"/>'
                )
            elif isinstance(p, Line):
                dash = dashes.get(p.weight, dashes["link"]) if p.dashed else ""
                cap = caps.get(p.weight, "butt")
                out.append(
                    f'<line class="line {p.cls}" x1="{_num(p.x1 * cell)}" y1="{_num(p.y1 * cell)}" '
                    f'x2="{_num(p.x2 * cell)}" y2="{_num(p.y2 * cell)}" stroke="{p.colour}" '
                    f'stroke-width="{_num(widths[p.weight])}" stroke-linecap="{cap}"{dash}/>'
                )
            elif isinstance(p, Text):
                px = p.size * cell
                weight = ' font-weight="bold"' if p.bold else ""
                out.append(
                    f'<text class="{p.cls}"{_cell_attr(scene, p.cell)} data-digit="{p.digit}" '
                    f'x="{_num(p.x * cell)}" y="{_num((p.y + BASELINE * p.size) * cell)}" '
                    f'font-size="{_num(px)}"{weight} text-anchor="middle" fill="{p.colour}">'
                    f"{escape(p.text)}</text>"
                )
            elif isinstance(p, Circle):
                stroke = (
                    f' stroke="{p.stroke}" stroke-width="{_num(widths[p.weight])}"'
                    if p.stroke
                    else ""
                )
                out.append(
                    f'<circle class="{p.cls}"{_cell_attr(scene, p.cell)} data-digit="{p.digit}" '
                    f'cx="{_num(p.cx * cell)}" cy="{_num(p.cy * cell)}" r="{_num(p.r * cell)}" '
                    f'fill="{p.fill}"{stroke}/>'
                )
        out.append("</g>")
    if notes:
        out.append('<g class="caption">')
        for k, note in enumerate(notes):
            y = n * cell + pad + bottom + note_px * (1.35 * k + 1.2)
            out.append(
                f'<text class="note" x="0" y="{_num(y)}" font-size="{_num(note_px)}" '
                f'fill="#000000">{escape(note)}</text>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
