"""PDF output: books parse, have the right pages and text, the answer key is the solution, and
the pages rasterised by poppler show the grid lines where they belong."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pytest

from sudokit.grid import Grid
from sudokit.render import PRINT_THEME, draw
from sudokit.render.pdf import MIN_CELL_MM, MM, PAGE_SIZES, BookInfo, BookItem, to_pdf, write_book
from sudokit.shape import SYMBOLS, Shape
from support.render import JIGSAW9, expected_thick, needs_poppler, pgm, puzzle_pair

pypdf = pytest.importorskip("pypdf")
pytest.importorskip("reportlab")


def _items(shape: Shape, count: int, seed: int = 0) -> list[BookItem]:
    out = []
    for k in range(count):
        puzzle, solution = puzzle_pair(shape, seed=seed + k)
        out.append(BookItem(puzzle, solution, f"level{k % 3}"))
    return out


def _glyphs(page: object) -> list[tuple[float, float, float, str]]:
    """(x, y, font size, text) of every positioned text run, read from the page's content stream."""
    data = page.get_contents().get_data().decode("latin-1")  # type: ignore[attr-defined]
    out = []
    size = 0.0
    token = re.compile(r"/F\d+ ([\d.]+) Tf|1 0 0 1 ([\d.]+) ([\d.]+) Tm \(([^)]*)\) Tj")
    for m in token.finditer(data):
        if m.group(1):
            size = float(m.group(1))
        else:
            out.append((float(m.group(2)), float(m.group(3)), size, m.group(4)))
    return out


def _read_grid(
    glyphs: list[tuple[float, float, float, str]], x: float, y: float, side: float, n: int
) -> list[int]:
    """The digits drawn inside the square at top-left (x, y) of *side*, as a cell list."""
    cells = [0] * (n * n)
    cell = side / n
    for gx, gy, _size, text in glyphs:
        if x <= gx <= x + side and y - side <= gy <= y:
            c = int(
                (gx - x) / cell + 0.1
            )  # text starts left of the centre, a bit right of the edge
            r = int((y - gy) / cell)
            cells[r * n + c] = SYMBOLS.index(text) + 1
    return cells


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BookInfo, list[BookItem]]:
    items = _items(Shape(3, 3), 60)
    path = tmp_path_factory.mktemp("book") / "book.pdf"
    info = write_book(items, path, title="Sixty Test Puzzles", per_page=6, answers=True)
    return path, info, items


def test_book_pages_and_text(book: tuple[Path, BookInfo, list[BookItem]]) -> None:
    path, info, _ = book
    reader = pypdf.PdfReader(path)
    per_answer_page = info.answers_per_page
    expected = 1 + math.ceil(60 / 6) + math.ceil(60 / per_answer_page)
    assert len(reader.pages) == info.pages == expected
    assert info.answer_page == 12
    assert "Sixty Test Puzzles" in reader.pages[0].extract_text()
    assert "Answers begin on page 12" in reader.pages[0].extract_text()
    assert reader.metadata.title == "Sixty Test Puzzles"
    for p in range(10):
        text = reader.pages[1 + p].extract_text()
        assert "Sixty Test Puzzles" in text
        assert f"Puzzles {6 * p + 1}–{6 * p + 6}" in text
        numbers = {int(t) for x, y, s, t in _glyphs(reader.pages[1 + p]) if s == 12}
        assert numbers == set(range(6 * p + 1, 6 * p + 7))
        assert "level0" in text
    assert "Answers" in reader.pages[11].extract_text()
    assert str(len(reader.pages)) in reader.pages[-1].extract_text().split()  # page number footer


def test_book_grids_show_the_givens_and_the_answer_key_shows_the_solution(
    book: tuple[Path, BookInfo, list[BookItem]],
) -> None:
    path, info, items = book
    reader = pypdf.PdfReader(path)
    glyphs = {p: _glyphs(reader.pages[p]) for p in {g.page for g in info.grids}}
    seen = {"puzzle": set(), "answer": set()}
    for g in info.grids:
        item = items[g.number - 1]
        drawn = _read_grid(glyphs[g.page], g.x, g.y, g.size, g.n)
        target = item.puzzle if g.kind == "puzzle" else item.solution
        assert target is not None
        assert Grid(bytes(drawn), item.puzzle.shape) == target, (g.kind, g.number)
        if g.kind == "answer":
            assert Grid(bytes(drawn), item.puzzle.shape).is_solution(item.puzzle)
        seen[g.kind].add(g.number)
    assert seen["puzzle"] == seen["answer"] == set(range(1, 61))


def _dark_run(pixels: bytes, w: int, x: int, y: int, axis: str, reach: int = 5) -> int:
    """Dark pixels (< 100: grey thin lines do not count) within *reach* of (x, y) across an edge."""
    count = 0
    for d in range(-reach, reach + 1):
        px, py = (x + d, y) if axis == "x" else (x, y + d)
        if pixels[py * w + px] < 100:
            count += 1
    return count


def _check_lines(
    pixels: bytes,
    w: int,
    scale: float,
    page_h: float,
    x: float,
    y: float,
    side: float,
    shape: Shape,
) -> None:
    """Every inner and outer edge is dark (thick) exactly where a box or region edge runs."""
    n = shape.n
    cell = side / n
    thick = expected_thick(shape)
    for r in range(n):
        for c in range(n + 1):  # vertical edges, sampled at a quarter of the cell (clear of digits)
            px = round((x + c * cell) * scale)
            py = round((page_h - (y - (r + 0.2) * cell)) * scale)
            dark = _dark_run(pixels, w, px, py, "x")
            assert (dark >= 2) == (("v", r, c) in thick), ("v", r, c, dark)
    for r in range(n + 1):
        for c in range(n):
            px = round((x + (c + 0.2) * cell) * scale)
            py = round((page_h - (y - r * cell)) * scale)
            dark = _dark_run(pixels, w, px, py, "y")
            assert (dark >= 2) == (("h", r, c) in thick), ("h", r, c, dark)


@needs_poppler
def test_book_page_renders_with_thick_lines_in_place(
    book: tuple[Path, BookInfo, list[BookItem]], tmp_path: Path
) -> None:
    path, info, _ = book
    dpi = 144
    w, h, pixels = pgm(path, 2, dpi, tmp_path)
    assert (w, h) == (round(PAGE_SIZES["A4"][0] * dpi / 72), round(PAGE_SIZES["A4"][1] * dpi / 72))
    dark = sum(1 for v in pixels if v < 128) / len(pixels)
    assert 0.01 < dark < 0.3  # not blank, not a black page
    scale = dpi / 72
    grids = [g for g in info.grids if g.page == 1]
    assert len(grids) == 6
    for g in grids:
        _check_lines(pixels, w, scale, h / scale, g.x, g.y, g.size, Shape(3, 3))


@needs_poppler
@pytest.mark.parametrize(
    "shape",
    [
        Shape(2, 2),
        Shape(2, 3),
        Shape(3, 4),
        Shape(4, 4),
        Shape(5, 5),
        Shape.jigsaw(JIGSAW9, diagonals=True),
    ],
    ids=lambda s: f"{s.n}x{s.n}-{s.variant}",
)
def test_single_grid_pdf_lines_for_every_size(shape: Shape, tmp_path: Path) -> None:
    buf = io.BytesIO()
    cell = 20.0
    puzzle = Grid.empty(shape)
    side, _ = to_pdf(draw(puzzle, theme=PRINT_THEME), buf, cell=cell)
    dpi = 144
    w, _, pixels = pgm(buf.getvalue(), 1, dpi, tmp_path)
    scale = dpi / 72
    _check_lines(pixels, w, scale, side, cell / 2, side - cell / 2, shape.n * cell, shape)


@pytest.mark.parametrize("n", [4, 6, 9, 12, 16, 25])
def test_every_size_is_readable(n: int, tmp_path: Path) -> None:
    shape = Shape.from_size(n)
    items = _items(shape, 8)
    info = write_book(items, tmp_path / "b.pdf", per_page=6, answers=True, title=f"{n}x{n}")
    reader = pypdf.PdfReader(tmp_path / "b.pdf")
    assert len(reader.pages) == info.pages
    for g in info.grids:
        limit = MIN_CELL_MM if g.kind == "puzzle" else 3.4
        assert g.size / g.n >= limit * MM - 1e-6
    for g in (info.grids[0], info.grids[-1]):  # a puzzle and an answer grid
        inside = [
            size
            for x, y, size, _ in _glyphs(reader.pages[g.page])
            if g.x <= x <= g.x + g.size and g.y - g.size <= y <= g.y
        ]
        assert len(inside) >= (items[g.number - 1].puzzle.clues if g.kind == "puzzle" else n * n)
        assert min(inside) >= (7.0 if g.kind == "puzzle" else 5.5)
    if n == 25:
        assert info.per_page < 6  # fewer grids per page rather than unreadable ones


def test_letter_size_and_no_title_page(tmp_path: Path) -> None:
    items = _items(Shape(3, 3), 5)
    info = write_book(
        items, tmp_path / "b.pdf", per_page=4, answers=False, page_size="letter", title_page=False
    )
    reader = pypdf.PdfReader(tmp_path / "b.pdf")
    assert len(reader.pages) == info.pages == 2
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == (612.0, 792.0)
    assert "Puzzles 1–4" in reader.pages[0].extract_text()
    assert "Puzzle 5" in reader.pages[1].extract_text()


def test_book_errors(tmp_path: Path) -> None:
    items = _items(Shape(2, 2), 2)
    with pytest.raises(ValueError, match="per_page must be one of"):
        write_book(items, tmp_path / "x.pdf", per_page=3)
    with pytest.raises(ValueError, match="page size"):
        write_book(items, tmp_path / "x.pdf", page_size="A5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="puzzle 1 has no solution"):
        write_book([items[0].puzzle], tmp_path / "x.pdf")
    assert items[1].solution != items[0].solution
    with pytest.raises(ValueError, match="does not solve it"):
        write_book([BookItem(items[0].puzzle, items[1].solution)], tmp_path / "x.pdf")
    with pytest.raises(ValueError, match="at least one puzzle"):
        write_book([], tmp_path / "x.pdf")
