"""PDF output with reportlab (the ``pdf`` extra): single grids and printable puzzle books (layer 3).

reportlab is imported only when a PDF is written, so the rest of :mod:`sudokit.render` works
without it. Text uses the standard Helvetica fonts (every PDF reader has them; nothing to
embed). Book pages follow the usual printed layout: an optional title page, puzzle pages with a
running header (title, puzzle range) and page numbers, puzzles numbered from 1 with their
difficulty label when known, then answer-key pages with small solved grids (givens bold, the
filled-in digits in grey).

Variants print as books print them (see :mod:`sudokit.render.model`): killer cages, dots,
thermometers on the grid; over each grid a caption names its rules (``Killer · Anti-knight``),
and the title page says how to play every rule the book uses. Answer grids show the digits only.

Sizes are chosen so that every grid stays readable: when the requested number of puzzles per
page would make cells smaller than :data:`MIN_CELL_MM` (4 mm), fewer puzzles go on each page
(the returned :class:`BookInfo` says how many); answer grids keep cells of at least
:data:`MIN_ANSWER_CELL_MM`.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any, Literal

from .._record import _Record
from ..grid import Grid
from ..shape import Labels
from .model import (
    PRINT_THEME,
    SCALED,
    Circle,
    Line,
    Primitive,
    Rect,
    Rule,
    Scene,
    Text,
    Theme,
    draw,
    rules,
    wrap,
)

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

__all__ = [
    "LEVEL_ORDER",
    "MIN_ANSWER_CELL_MM",
    "MIN_CELL_MM",
    "PAGE_SIZES",
    "PER_PAGE",
    "BookInfo",
    "BookItem",
    "GridPlacement",
    "draw_scene",
    "to_pdf",
    "write_book",
]

log = logging.getLogger(__name__)

MM = 72 / 25.4
#: Page sizes in points (width, height).
PAGE_SIZES = {"A4": (210 * MM, 297 * MM), "letter": (612.0, 792.0)}
#: Puzzles-per-page choices and their (columns, rows) layout.
PER_PAGE = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: Smallest puzzle cell, in millimetres, before fewer puzzles go on a page.
MIN_CELL_MM = 4.0
#: Smallest answer-key cell, in millimetres.
MIN_ANSWER_CELL_MM = 3.4
FONT = "Helvetica"
BOLD = "Helvetica-Bold"
BASELINE = 0.36  # em below the centre line, as in the SVG backend

_MARGIN_X = 16 * MM
_MARGIN_TOP = 22 * MM
_MARGIN_BOTTOM = 18 * MM
_GAP = 9 * MM
_LABEL = 16.0  # points above each puzzle grid for its number and difficulty
_ANSWER_LABEL = 10.0
_MAX_GRID = 150 * MM  # one puzzle per page: do not fill the whole sheet
_MAX_CELL_MM = 14.0  # small grids (4x4, 6x6) stay a sensible size


def _require_reportlab() -> None:
    try:
        import reportlab  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise ImportError("PDF output needs reportlab: pip install 'sudokit[pdf]'") from None


def _hex(colour: str) -> tuple[float, float, float]:
    v = int(colour.lstrip("#"), 16)
    return (v >> 16 & 255) / 255, (v >> 8 & 255) / 255, (v & 255) / 255


class _Painter:
    """Draws scenes on one canvas, caching string widths (they dominate the cost of a book)."""

    def __init__(self, canvas: Canvas) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]

        self.canvas = canvas
        self._string_width = stringWidth
        self._widths: dict[tuple[str, str, float], float] = {}
        self._fonts: dict[str, str] = {}
        self._grid_ops: dict[tuple[int, float, float, float], tuple[object, list[str]]] = {}

    def width(self, text: str, font: str, size: float) -> float:
        key = (text, font, size)
        w = self._widths.get(key)
        if w is None:
            w = self._widths[key] = self._string_width(text, font, size)
        return w

    def text(
        self, x: float, y: float, text: str, font: str, size: float, anchor: str = "left"
    ) -> None:
        """Draw *text* with its baseline at *y*; *anchor* is ``left``, ``centre`` or ``right``."""
        if anchor != "left":
            w = self.width(text, font, size)
            x -= w / 2 if anchor == "centre" else w
        self.canvas.setFont(font, size)
        self.canvas.drawString(x, y, text)

    def fit(self, text: str, font: str, size: float, room: float) -> float:
        """*size*, or the smaller size at which *text* is *room* points wide."""
        w = self.width(text, font, size)
        return size if w <= room else size * room / w

    def font_ref(self, font: str) -> str:
        """The page resource name (``/F1``) of a standard font, registering it on first use."""
        ref = self._fonts.get(font)
        if ref is None:
            # reportlab has no public accessor for this; the method is stable since reportlab 1.x.
            ref = self._fonts[font] = str(self.canvas._doc.getInternalFontName(font))
        return ref

    def scene(
        self, scene: Scene, x: float, y: float, size: float, background: str = "#ffffff"
    ) -> None:
        """Draw *scene* with its top-left corner at ``(x, y)`` (PDF points, y up), *size* wide.

        Rectangles, lines and text are written as PDF operators directly (reportlab's own
        per-call number formatting made a 600-puzzle book three times slower); the graphics
        state is saved and restored around them so the canvas state is unchanged.
        """
        cell = size / scene.n
        widths = {
            "thin": min(0.75, max(0.3, cell * 0.03)),
            "thick": min(2.2, max(1.0, cell * 0.085)),
            "link": min(1.2, max(0.5, cell * 0.04)),
            "cage": min(0.9, max(0.3, cell * 0.032)),
        }
        widths.update((name, share * cell) for name, share in SCALED.items())
        ops: list[str] = ["q"]
        for name, items in scene.layers:
            if name != "grid":
                # Cell rectangles of the page's colour need no paint; patches elsewhere do.
                paper = background if name == "cells" else ""
                ops.extend(self._layer(items, x, y, cell, widths, paper))
                continue
            # Grid lines are shared by every grid of a shape (cached in the model), and a book
            # puts them at a few slot positions only: format them once per position.
            key = (id(items), x, y, size)
            hit = self._grid_ops.get(key)
            if hit is None or hit[0] is not items:
                if len(self._grid_ops) > 256:
                    self._grid_ops.clear()
                hit = self._grid_ops[key] = (
                    items,
                    self._layer(items, x, y, cell, widths, background),
                )
            ops.extend(hit[1])
        ops.append("Q")
        self.canvas.addLiteral("\n".join(ops))

    def _layer(
        self,
        items: tuple[Primitive, ...],
        x: float,
        y: float,
        cell: float,
        widths: dict[str, float],
        background: str,
    ) -> list[str]:
        """PDF operators for one layer: fills, then strokes, then marks, then text runs.

        A rectangle that follows other kinds of primitive (a patch under a cage sum, over the
        cage's outline) starts a new run, so the page keeps the layer's order where it matters.
        """
        ops: list[str] = []
        rects: dict[str, list[str]] = {}
        lines: dict[tuple[str, str, bool], list[str]] = {}
        texts: dict[tuple[str, float, str], list[str]] = {}
        circles: list[Circle] = []
        # (text, bold, em size) -> (font, point size, x offset, y offset, escaped text)
        looks: dict[tuple[str, bool, float], tuple[str, float, float, float, str]] = {}
        mixed = False  # the run holds something other than rectangles
        for p in items:
            kind = type(p)
            if kind is Rect and mixed:
                ops.extend(self._run(rects, lines, circles, texts, x, y, cell, widths))
                rects, lines, circles, texts = {}, {}, [], {}
                mixed = False
            mixed = mixed or kind is not Rect
            if kind is Text:
                assert isinstance(p, Text)
                px, py, text, em, colour, _, bold, _, _ = p
                look = looks.get((text, bold, em))
                if look is None:
                    font = BOLD if bold else FONT
                    fsize = round(em * cell, 2)
                    dx = self.width(text, font, fsize) / 2
                    look = looks[text, bold, em] = (
                        font,
                        fsize,
                        dx,
                        BASELINE * fsize,
                        _escape(text),
                    )
                font, fsize, dx, drop, body = look
                texts.setdefault((font, fsize, colour), []).append(
                    f"1 0 0 1 {x + px * cell - dx:.2f} {y - py * cell - drop:.2f} Tm ({body}) Tj"
                )
            elif kind is Rect:
                assert isinstance(p, Rect)
                if p.fill != background:
                    rects.setdefault(p.fill, []).append(
                        f"{x + p.x * cell:.2f} {y - (p.y + p.h) * cell:.2f} "
                        f"{p.w * cell:.2f} {p.h * cell:.2f} re"
                    )
            elif kind is Line:
                assert isinstance(p, Line)
                lines.setdefault((p.weight, p.colour, p.dashed), []).append(
                    f"{x + p.x1 * cell:.2f} {y - p.y1 * cell:.2f} m "
                    f"{x + p.x2 * cell:.2f} {y - p.y2 * cell:.2f} l"
                )
            elif kind is Circle:
                assert isinstance(p, Circle)
                circles.append(p)
        ops.extend(self._run(rects, lines, circles, texts, x, y, cell, widths))
        return ops

    def _run(
        self,
        rects: dict[str, list[str]],
        lines: dict[tuple[str, str, bool], list[str]],
        circles: list[Circle],
        texts: dict[tuple[str, float, str], list[str]],
        x: float,
        y: float,
        cell: float,
        widths: dict[str, float],
    ) -> list[str]:
        """The operators of one run of a layer, batched by paint: fills, strokes, marks, text."""
        ops: list[str] = []
        for fill, parts in rects.items():
            ops.append("{:.3f} {:.3f} {:.3f} rg".format(*_hex(fill)))
            ops.extend(parts)
            ops.append("f")
        for (weight, colour, dashed), parts in lines.items():
            w = widths[weight]
            cap = 2 if weight == "thick" else 1 if weight == "link" or weight in SCALED else 0
            dash = "[] 0 d"
            if dashed and weight == "cage":  # short dashes, like a printed killer's
                dash = f"[{0.07 * cell:.2f} {0.05 * cell:.2f}] 0 d"
            elif dashed:
                dash = f"[{3 * w:.2f} {2 * w:.2f}] 0 d"
            ops.append("{:.3f} {:.3f} {:.3f} RG".format(*_hex(colour)))
            ops.append(f"{w:.2f} w {cap} J {dash}")
            ops.extend(parts)
            ops.append("S")
        for p in circles:
            ops.append("{:.3f} {:.3f} {:.3f} rg".format(*_hex(p.fill)))
            ops.append(_circle_path(x + p.cx * cell, y - p.cy * cell, p.r * cell))
            if p.stroke:
                ops.append("{:.3f} {:.3f} {:.3f} RG".format(*_hex(p.stroke)))
                ops.append(f"{widths[p.weight]:.2f} w [] 0 d B")
            else:
                ops.append("f")
        for (font, fsize, colour), parts in texts.items():
            ops.append(f"BT {self.font_ref(font)} {fsize:.2f} Tf")
            ops.append("{:.3f} {:.3f} {:.3f} rg".format(*_hex(colour)))
            ops.extend(parts)
            ops.append("ET")
        return ops


def _escape(text: str) -> str:
    """A PDF literal string body: backslash, parentheses escaped (symbols are ASCII)."""
    if not ("(" in text or ")" in text or "\\" in text):
        return text
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _circle_path(cx: float, cy: float, r: float) -> str:
    """A closed circle path of four Bézier arcs."""
    k = 0.5523 * r
    return (
        f"{cx + r:.2f} {cy:.2f} m "
        f"{cx + r:.2f} {cy + k:.2f} {cx + k:.2f} {cy + r:.2f} {cx:.2f} {cy + r:.2f} c "
        f"{cx - k:.2f} {cy + r:.2f} {cx - r:.2f} {cy + k:.2f} {cx - r:.2f} {cy:.2f} c "
        f"{cx - r:.2f} {cy - k:.2f} {cx - k:.2f} {cy - r:.2f} {cx:.2f} {cy - r:.2f} c "
        f"{cx + k:.2f} {cy - r:.2f} {cx + r:.2f} {cy - k:.2f} {cx + r:.2f} {cy:.2f} c h"
    )


def _inside(scene: Scene, x: float, y: float, side: float) -> tuple[float, float, float]:
    """Where *scene*'s grid goes in a square of *side* points at ``(x, y)`` (top left, y up):
    the whole square without clues outside the grid, else smaller, so that the margins they
    need fit too (centred across). Returns the grid's top-left corner and side."""
    top, right, bottom, left = scene.margins
    n = scene.n
    if not (top or right or bottom or left):
        return x, y, side
    cell = side / (n + max(left + right, top + bottom))
    spare = side - (n + left + right) * cell
    return x + spare / 2 + left * cell, y - top * cell, n * cell


def draw_scene(canvas: Canvas, scene: Scene, x: float, y: float, size: float) -> None:
    """Draw *scene* on a reportlab *canvas*, top-left corner at ``(x, y)`` points, *size* wide."""
    _Painter(canvas).scene(scene, x, y, size)


def _canvas(target: str | os.PathLike[str] | IO[bytes], pagesize: tuple[float, float]) -> Canvas:
    _require_reportlab()
    from reportlab.pdfgen.canvas import Canvas

    dest: Any = os.fspath(target) if isinstance(target, (str, os.PathLike)) else target
    return Canvas(dest, pagesize=pagesize, pageCompression=1, invariant=1)


def _save(canvas: Canvas) -> None:
    """Save with binary (Flate only) page streams: ASCII85 would add a quarter to the size."""
    from reportlab import rl_config

    old = rl_config.useA85
    rl_config.useA85 = 0
    try:
        canvas.save()
    finally:
        rl_config.useA85 = old


def to_pdf(
    item: Grid | Scene,
    target: str | os.PathLike[str] | IO[bytes],
    *,
    cell: float = 28.0,
    title: str = "",
) -> tuple[float, float]:
    """Write one grid or scene as a one-page PDF sized to fit it; *cell* is points per cell.

    The grid's top-left corner is at ``(cell / 2, cell / 2)`` from the page's top-left corner,
    further in by the scene's margins when clues stand outside the grid (the page grows by
    them).
    The scene's notes (rules the picture cannot show, such as anti-knight) are a caption under
    the grid; the page grows to hold them. Returns the page size in points. Raises
    :class:`ImportError` without reportlab.
    """
    scene = item if isinstance(item, Scene) else draw(item, theme=PRINT_THEME)
    margin = cell / 2
    top, right, bottom, left = (m * cell for m in scene.margins)
    side = scene.n * cell + 2 * margin + top + bottom
    across = scene.n * cell + 2 * margin + left + right
    _require_reportlab()
    from reportlab.pdfbase.pdfmetrics import stringWidth

    note_size = max(6.0, min(11.0, cell * 0.38))
    room = scene.n * cell
    lines = [
        line
        for note in scene.notes
        for line in wrap(note, lambda text: stringWidth(text, FONT, note_size) <= room)
    ]
    height = side + (len(lines) * note_size * 1.3 + note_size * 0.3 if lines else 0)
    canvas = _canvas(target, (across, height))
    if title:
        canvas.setTitle(title)
    canvas.setCreator("sudokit")
    painter = _Painter(canvas)
    painter.scene(scene, margin + left, height - margin - top, scene.n * cell)
    for k, line in enumerate(lines):
        y = height - side - note_size * (1.3 * k + 0.6)
        painter.text(margin + left, y, line, FONT, note_size)
    canvas.showPage()
    _save(canvas)
    return across, height


class BookItem(_Record):
    """One puzzle of a book: the grid, its solution (needed for answers), a difficulty label,
    and a *text* printed under its grid on a page of one puzzle (a setter's rules)."""

    __slots__ = ("label", "puzzle", "solution", "text")
    __match_args__ = ("puzzle", "solution", "label", "text")
    puzzle: Grid
    solution: Grid | None
    label: str
    text: str

    def __init__(
        self,
        puzzle: Grid,
        solution: Grid | None = None,
        label: str = "",
        text: str = "",
    ) -> None:
        self._set(puzzle, solution, label, text)


class GridPlacement(_Record):
    """Where a grid was drawn: page (0-based), kind (``puzzle``/``answer``), puzzle number, and
    the grid's top-left corner and side in points from the page's bottom-left corner."""

    __slots__ = ("kind", "n", "number", "page", "size", "x", "y")
    __match_args__ = ("page", "kind", "number", "x", "y", "size", "n")
    page: int
    kind: str
    number: int
    x: float
    y: float
    size: float
    n: int


class BookInfo(_Record):
    """What :func:`write_book` wrote."""

    __slots__ = (
        "answer_page",
        "answers_per_page",
        "grids",
        "page_size",
        "pages",
        "per_page",
        "puzzles",
    )
    __match_args__ = (
        "pages",
        "puzzles",
        "per_page",
        "answers_per_page",
        "answer_page",
        "page_size",
        "grids",
    )
    pages: int
    puzzles: int
    per_page: int
    answers_per_page: int
    answer_page: int  # 1-based first answer page, 0 without answers
    page_size: tuple[float, float]
    grids: tuple[GridPlacement, ...]


def _puzzle_layout(per_page: int, n: int, page: tuple[float, float]) -> tuple[int, int, float]:
    """(columns, rows, grid side) for *per_page*, reduced until cells are at least MIN_CELL_MM."""
    width, height = page
    choices = sorted(k for k in PER_PAGE if k <= per_page)
    for k in reversed(choices):
        cols, rows = PER_PAGE[k]
        slot_w = (width - 2 * _MARGIN_X - (cols - 1) * _GAP) / cols
        slot_h = (height - _MARGIN_TOP - _MARGIN_BOTTOM - (rows - 1) * _GAP) / rows
        side = min(slot_w, slot_h - _LABEL, _MAX_GRID, n * _MAX_CELL_MM * MM)
        if side / n >= MIN_CELL_MM * MM or k == 1:
            return cols, rows, side
    raise AssertionError("unreachable: one per page always fits")


def _answer_layout(n: int, page: tuple[float, float]) -> tuple[int, int, float]:
    """(columns, rows, grid side) of answer pages: as many readable grids as fit, <= 6 across."""
    width, height = page
    gap = 6 * MM
    avail_w = width - 2 * _MARGIN_X
    avail_h = height - _MARGIN_TOP - _MARGIN_BOTTOM
    cols = max(1, min(6, int((avail_w + gap) // (n * MIN_ANSWER_CELL_MM * MM + gap))))
    side = min((avail_w - (cols - 1) * gap) / cols, 90 * MM)
    rows = max(1, int((avail_h + gap) // (side + _ANSWER_LABEL + gap)))
    return cols, rows, side


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


#: Difficulty words in increasing order, for the title page summary (others follow, as found).
LEVEL_ORDER = ("beginner", "easy", "medium", "hard", "expert", "extreme", "diabolical")
_COVER = Theme(line="#9a9a9a", thin_line="#c8c8c8", given="#9a9a9a", cage="#a8a8a8", dot="#9a9a9a")


def _title_page(
    painter: _Painter,
    book: list[BookItem],
    page: tuple[float, float],
    title: str,
    subtitle: str,
    answer_start: int,
    labels: Labels,
) -> None:
    """Title, a faint picture of the first puzzle, what the book holds, where the answers are."""
    canvas = painter.canvas
    width, height = page
    found = _book_rules(book)
    cover = min(80 * MM, width * 0.4)
    top = height / 2 + 72 * MM  # the cover block (about 145 mm tall) sits mid-page
    if found:  # a smaller picture, higher up: "How to play" goes under the title
        cover = min(60 * MM, width * 0.3)
        top = min(top, height - _MARGIN_TOP)
        # When the rules do not fit under the title, its lines and "How to play" (24 mm and
        # 117 points, as drawn below) beside the picture, the picture gives way: a rule is
        # never left out.
        if _rules_fit(painter, found, width, top - cover - 24 * MM - 117) is None:
            cover = 0.0
    if cover:
        picture = draw(book[0].puzzle, labels=labels, theme=_COVER)
        painter.scene(picture, *_inside(picture, (width - cover) / 2, top, cover))
    y = top - cover - 24 * MM
    canvas.setFillColorRGB(0, 0, 0)
    painter.text(
        width / 2, y, title, BOLD, painter.fit(title, BOLD, 34, width - 2 * _MARGIN_X), "centre"
    )
    sizes = sorted({it.puzzle.shape.n for it in book})
    line2 = subtitle or f"{_plural(len(book), 'puzzle')} · " + ", ".join(f"{n}x{n}" for n in sizes)
    if found and not subtitle:
        line2 += " · " + ", ".join(rule.name.lower() for rule in found)
    y -= 30
    painter.text(
        width / 2, y, line2, FONT, painter.fit(line2, FONT, 14, width - 2 * _MARGIN_X), "centre"
    )
    counts: dict[str, int] = {}
    for it in book:
        if it.label:
            word = it.label.split()[0]
            counts[word] = counts.get(word, 0) + 1
    rank = {w: k for k, w in enumerate(LEVEL_ORDER)}
    order = sorted(counts, key=lambda w: rank.get(w.lower(), len(rank)))
    y -= 22
    canvas.setFillColorRGB(0.25, 0.25, 0.25)
    if counts:
        painter.text(
            width / 2, y, "  ·  ".join(f"{w} {counts[w]}" for w in order), FONT, 11, "centre"
        )
        y -= 17
    if answer_start:
        painter.text(width / 2, y, f"Answers begin on page {answer_start}", FONT, 11, "centre")
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(1.5)
    canvas.line(width * 0.25, top - cover - 12 * MM, width * 0.75, top - cover - 12 * MM)
    canvas.line(width * 0.25, y - 14, width * 0.75, y - 14)
    _rules_block(painter, found, width, y - 30)
    canvas.setFillColorRGB(0.25, 0.25, 0.25)
    painter.text(width / 2, _MARGIN_BOTTOM, "made with sudokit", FONT, 8, "centre")


_CLASSIC_RULE = (
    "Place a digit in every empty cell: each row, column and box holds every digit once."
)


def _book_rules(book: list[BookItem]) -> list[Rule]:
    """Every rule of the book's puzzles, each once, in the order puzzles first use them."""
    found: dict[str, Rule] = {}
    shapes = dict.fromkeys(it.puzzle.shape for it in book)  # a book repeats few shapes
    for shape in shapes:
        for rule in rules(shape):
            found.setdefault(rule.name, rule)
    return list(found.values())


def _rules_at(
    painter: _Painter, found: list[Rule], width: float, size: float
) -> tuple[float, list[list[str]]]:
    """The rule sentences of "How to play" (the classic rule first) in lines at *size*."""
    sentences = [_CLASSIC_RULE, *(rule.sentence for rule in found)]
    return size, [_wrapped(painter, sentence, size, width * 0.66) for sentence in sentences]


def _rules_fit(
    painter: _Painter, found: list[Rule], width: float, y: float
) -> tuple[float, list[list[str]]] | None:
    """The largest size (9.5 to 6.5 points) at which every rule fits between *y* and the
    footer, with its lines; None when even the smallest does not."""
    floor = _MARGIN_BOTTOM + 14
    for size in (9.5, 8.5, 7.5, 6.5):
        lead = size * 1.3
        _, paragraphs = _rules_at(painter, found, width, size)
        need = sum(len(lines) for lines in paragraphs) * lead + len(paragraphs) * lead * 0.3
        if y - need >= floor:
            return size, paragraphs
    return None


def _rules_block(painter: _Painter, found: list[Rule], width: float, y: float) -> None:
    """ "How to play" under the title: the classic rule, then each variant rule of the book."""
    if not found:
        return
    room = width * 0.66
    x = (width - room) / 2
    canvas = painter.canvas
    canvas.setFillColorRGB(0, 0, 0)
    painter.text(width / 2, y, "How to play", BOLD, 11, "centre")
    y -= 18
    floor = _MARGIN_BOTTOM + 14  # clear of the footer
    size, paragraphs = _rules_fit(painter, found, width, y) or _rules_at(painter, found, width, 6.5)
    lead = size * 1.3
    canvas.setFillColorRGB(0.15, 0.15, 0.15)
    for lines in paragraphs:
        for line in lines:
            if y < floor:  # only when even the smallest size does not fit: never overlap
                return
            painter.text(x, y, line, FONT, size)
            y -= lead
        y -= lead * 0.3


def _wrapped(painter: _Painter, text: str, size: float, room: float) -> list[str]:
    """*text* in lines at most *room* points wide in the body font at *size*."""
    return wrap(text, lambda line: painter.width(line, FONT, size) <= room)


#: The body size of a puzzle's text under its grid, and the smallest it shrinks to.
_TEXT_SIZE = 10.5
_TEXT_MIN = 7.5


def _text_lines(painter: _Painter, text: str, size: float, room: float) -> list[str]:
    """*text* in lines at most *room* points wide at *size*; its own line breaks kept."""
    return [line for part in text.splitlines() for line in _wrapped(painter, part, size, room)]


def _text_layout(
    painter: _Painter, text: str, side: float, room: float
) -> tuple[float, float, list[str]]:
    """(grid side, text size, lines) of a page of one puzzle with *text* under its grid, in
    *room* points of height for both: the text takes the size that fits beside the full grid
    (10.5 down to 7.5 points), else the grid shrinks for it, down to two thirds of *side*."""
    for size in (_TEXT_SIZE, 9.5, 8.5, _TEXT_MIN):
        lines = _text_lines(painter, text, size, side)
        if side + _text_height(len(lines), size) <= room:
            return side, size, lines
    smaller = side
    while smaller > side * 2 / 3:
        smaller -= 4.0
        lines = _text_lines(painter, text, _TEXT_MIN, smaller)
        if smaller + _text_height(len(lines), _TEXT_MIN) <= room:
            return smaller, _TEXT_MIN, lines
    return smaller, _TEXT_MIN, _text_lines(painter, text, _TEXT_MIN, smaller)


def _text_height(lines: int, size: float) -> float:
    """The height of *lines* lines of text at *size* under a grid, with the gap above them."""
    return 6 * MM + lines * size * 1.3


def _under_grid(painter: _Painter, lines: list[str], size: float, x: float, y: float) -> None:
    """A puzzle's text lines from *y* down at *x*, stopping short of the page's footer."""
    painter.canvas.setFillColorRGB(0.1, 0.1, 0.1)
    for k, line in enumerate(lines):
        baseline = y - size * (1.3 * k + 0.9)
        if baseline < _MARGIN_BOTTOM:  # only a text far too long for the page: never overlap
            return
        painter.text(x, baseline, line, FONT, size)


def _caption(painter: _Painter, it: BookItem, x: float, y: float, side: float) -> None:
    """The puzzle's variant rules by name (``Killer · Anti-knight``), centred over its grid
    between its number and its label, in a size that fits there."""
    names = [rule.name for rule in rules(it.puzzle.shape)]
    if not names:
        return
    text = " · ".join(names)
    label = painter.width(it.label, FONT, 9) if it.label else 0.0
    room = side - 2 * max(label, 24.0) - 12  # clear of the number (left) and label (right)
    size = painter.fit(text, FONT, 9, max(room, side * 0.3))
    painter.canvas.setFillColorRGB(0.15, 0.15, 0.15)
    painter.text(x + side / 2, y, text, FONT, max(size, 5.0), "centre")


def write_book(
    items: Iterable[BookItem | Grid],
    target: str | os.PathLike[str] | IO[bytes],
    *,
    title: str = "Sudoku",
    author: str = "",
    per_page: int = 6,
    answers: bool = True,
    page_size: Literal["A4", "letter"] | tuple[float, float] = "A4",
    title_page: bool = True,
    subtitle: str = "",
    labels: Labels = "symbols",
    theme: Theme = PRINT_THEME,
) -> BookInfo:
    """Write a printable PDF puzzle book and return its :class:`BookInfo`.

    *items* are :class:`BookItem` (or bare grids when *answers* is False), numbered from 1 in
    order; on a page of one puzzle, an item's text is printed under its grid (the grid
    shrinks when a long text needs the room). *title* heads every page; *author* is the
    document's author (sudokit when empty). *per_page* is 1, 2, 4 or 6 (fewer when the grids
    would be too small to read).
    *answers* appends answer-key pages; each item then needs a solution, checked against its
    puzzle independently of any solver. *page_size* is ``"A4"``, ``"letter"`` or
    ``(width, height)`` in points.

    Raises :class:`ValueError` for an unknown *per_page* or *page_size*, an empty book, a
    missing or wrong solution; :class:`ImportError` without reportlab.
    """
    if per_page not in PER_PAGE:
        raise ValueError(f"per_page must be one of {sorted(PER_PAGE)}, got {per_page}")
    if isinstance(page_size, str):
        if page_size not in PAGE_SIZES:
            raise ValueError(f"page size must be one of {sorted(PAGE_SIZES)}, got {page_size!r}")
        page = PAGE_SIZES[page_size]
    else:
        page = (float(page_size[0]), float(page_size[1]))
    book = [it if isinstance(it, BookItem) else BookItem(it) for it in items]
    if not book:
        raise ValueError("a book needs at least one puzzle")
    if answers:
        for number, it in enumerate(book, 1):
            if it.solution is None:
                raise ValueError(f"puzzle {number} has no solution for the answer key")
            if not it.solution.is_solution(it.puzzle):
                raise ValueError(f"the answer given for puzzle {number} does not solve it")
    n_max = max(it.puzzle.shape.n for it in book)
    cols, rows, side = _puzzle_layout(per_page, n_max, page)
    fitted = cols * rows
    if fitted < per_page:
        log.info(
            "%d puzzles per page would be too small for %dx%d grids; using %d",
            per_page,
            n_max,
            n_max,
            fitted,
        )
    a_cols, a_rows, a_side = _answer_layout(n_max, page)
    per_answer_page = a_cols * a_rows
    puzzle_pages = math.ceil(len(book) / fitted)
    first = 2 if title_page else 1
    answer_start = first + puzzle_pages if answers else 0

    canvas = _canvas(target, page)
    canvas.setTitle(title)
    canvas.setAuthor(author or "sudokit")
    canvas.setCreator("sudokit")
    canvas.setSubject(f"{_plural(len(book), 'puzzle')}")
    painter = _Painter(canvas)
    width, height = page
    grids: list[GridPlacement] = []
    page_no = 0

    def frame(heading: str, right: str) -> None:
        """Header (title, rule, range) and footer (page number) of a content page."""
        top = height - _MARGIN_TOP + 9 * MM
        canvas.setFillColorRGB(0, 0, 0)
        painter.text(_MARGIN_X, top, heading, BOLD, painter.fit(heading, BOLD, 11, width * 0.7))
        painter.text(width - _MARGIN_X, top, right, FONT, 9, "right")
        canvas.setStrokeColorRGB(0.35, 0.35, 0.35)
        canvas.setLineWidth(0.5)
        canvas.setLineCap(0)
        canvas.line(_MARGIN_X, top - 2.5 * MM, width - _MARGIN_X, top - 2.5 * MM)
        painter.text(width / 2, _MARGIN_BOTTOM / 2, str(page_no + 1), FONT, 9, "centre")

    if title_page:
        _title_page(painter, book, page, title, subtitle, answer_start, labels)
        canvas.showPage()
        page_no += 1

    block_w = cols * side + (cols - 1) * _GAP
    slot_h = (height - _MARGIN_TOP - _MARGIN_BOTTOM - (rows - 1) * _GAP) / rows
    x0 = (width - block_w) / 2
    for start in range(0, len(book), fitted):
        chunk = book[start : start + fitted]
        span = (
            f"Puzzles {start + 1}–{start + len(chunk)}" if len(chunk) > 1 else f"Puzzle {start + 1}"
        )
        frame(title, span)
        for k, it in enumerate(chunk):
            r, c = divmod(k, cols)
            top = height - _MARGIN_TOP - r * (slot_h + _GAP)
            g_side, size, lines = side, _TEXT_SIZE, list[str]()
            if it.text and fitted == 1:
                g_side, size, lines = _text_layout(painter, it.text, side, slot_h - _LABEL)
            block = g_side + (_text_height(len(lines), size) if lines else 0.0)
            gx = x0 + c * (side + _GAP) + (side - g_side) / 2
            gy = top - _LABEL - max(0.0, slot_h - _LABEL - block) / 2
            number = start + k + 1
            canvas.setFillColorRGB(0, 0, 0)
            painter.text(gx, gy + 5, str(number), BOLD, 12)
            if it.label:
                canvas.setFillColorRGB(0.3, 0.3, 0.3)
                painter.text(gx + g_side, gy + 5, it.label, FONT, 9, "right")
            _caption(painter, it, gx, gy + 5, g_side)
            scene = draw(it.puzzle, labels=labels, theme=theme)
            sx, sy, grid_side = _inside(scene, gx, gy, g_side)
            painter.scene(scene, sx, sy, grid_side)
            _under_grid(painter, lines, size, gx, gy - g_side - 6 * MM)
            grids.append(
                GridPlacement(page_no, "puzzle", number, sx, sy, grid_side, it.puzzle.shape.n)
            )
        canvas.showPage()
        page_no += 1

    if answers:
        gap = 6 * MM
        a_block = a_cols * a_side + (a_cols - 1) * gap
        ax0 = (width - a_block) / 2
        for start in range(0, len(book), per_answer_page):
            chunk = book[start : start + per_answer_page]
            frame(
                "Answers",
                f"Puzzles {start + 1}–{start + len(chunk)}"
                if len(chunk) > 1
                else f"Puzzle {start + 1}",
            )
            for k, it in enumerate(chunk):
                r, c = divmod(k, a_cols)
                gx = ax0 + c * (a_side + gap)
                gy = height - _MARGIN_TOP - r * (a_side + _ANSWER_LABEL + gap) - _ANSWER_LABEL
                number = start + k + 1
                canvas.setFillColorRGB(0, 0, 0)
                painter.text(gx, gy + 3, str(number), BOLD, 8)
                # An answer is its digits: cages, dots and lines would only hide them.
                plain = it.puzzle.shape.classic()
                scene = draw(
                    Grid(it.puzzle.cells, plain),
                    user=it.solution.cells if it.solution is not None else None,
                    labels=labels,
                    theme=theme,
                )
                painter.scene(scene, gx, gy, a_side)
                grids.append(
                    GridPlacement(page_no, "answer", number, gx, gy, a_side, it.puzzle.shape.n)
                )
            canvas.showPage()
            page_no += 1
    _save(canvas)
    return BookInfo(
        pages=page_no,
        puzzles=len(book),
        per_page=fitted,
        answers_per_page=per_answer_page if answers else 0,
        answer_page=answer_start,
        page_size=page,
        grids=tuple(grids),
    )
