"""The drawing model, the SVG and the text picture (sudokit.render)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from sudokit.grid import Grid
from sudokit.render import LAYERS, PRINT_THEME, draw, symbol_table, to_svg, to_text
from sudokit.shape import SYMBOLS, Shape
from support.render import JIGSAW9, expected_thick, puzzle_pair

SVG = "{http://www.w3.org/2000/svg}"
JIGSAW6 = "AAABBBAACCBBACCCBDECFDDDEEFFDDEEEFFF"  # six regions of six cells


SHAPES = [
    Shape(2, 2),
    Shape(2, 3),
    Shape(3, 3),
    Shape(3, 4),
    Shape(4, 4),
    Shape(5, 5),
    Shape(3, 3, diagonals=True),
]


def _cell_of(elem: ET.Element) -> tuple[int, int]:
    r, c = elem.attrib["data-cell"].split(",")
    return int(r), int(c)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.n}x{s.n}-{s.variant}")
def test_svg_is_xml_with_one_rect_per_cell_and_the_givens(shape: Shape) -> None:
    puzzle, _ = puzzle_pair(shape, seed=shape.n)
    root = ET.fromstring(to_svg(puzzle))
    layers = [g.attrib["data-layer"] for g in root.findall(f"{SVG}g")]
    assert layers == list(LAYERS)
    cells = root.find(f"{SVG}g[@data-layer='cells']")
    assert cells is not None
    rects = cells.findall(f"{SVG}rect")
    assert len(rects) == shape.ncells
    assert sorted(_cell_of(r) for r in rects) == [
        (r, c) for r in range(shape.n) for c in range(shape.n)
    ]
    digits = root.find(f"{SVG}g[@data-layer='digits']")
    assert digits is not None
    shown = {_cell_of(t): t.text for t in digits.findall(f"{SVG}text")}
    expected = {
        (r, c): SYMBOLS[puzzle[r, c] - 1]
        for r in range(shape.n)
        for c in range(shape.n)
        if puzzle[r, c]
    }
    assert shown == expected
    assert root.attrib["data-size"] == str(shape.n)


def _thick_edges_from_svg(svg: str, n: int, cell: float) -> set[tuple[str, int, int]]:
    """Unit edges under thick lines: ('v', r, c) left of cell (r, c), ('h', r, c) above it."""
    root = ET.fromstring(svg)
    edges: set[tuple[str, int, int]] = set()
    for line in root.iter(f"{SVG}line"):
        if "thick" not in line.attrib["class"].split():
            continue
        x1, y1, x2, y2 = (float(line.attrib[k]) / cell for k in ("x1", "y1", "x2", "y2"))
        if x1 == x2:
            for r in range(round(min(y1, y2)), round(max(y1, y2))):
                edges.add(("v", r, round(x1)))
        else:
            assert y1 == y2
            for c in range(round(min(x1, x2)), round(max(x1, x2))):
                edges.add(("h", round(y1), c))
    return edges


@pytest.mark.parametrize(
    "shape",
    [*SHAPES, Shape.jigsaw(JIGSAW6), Shape.jigsaw(JIGSAW9, diagonals=True)],
    ids=lambda s: f"{s.n}x{s.n}-{s.variant}",
)
def test_thick_lines_follow_box_and_region_edges(shape: Shape) -> None:
    svg = to_svg(Grid.empty(shape), cell=30)
    assert _thick_edges_from_svg(svg, shape.n, 30) == expected_thick(shape)
    # every inner edge has a thin line under it
    root = ET.fromstring(svg)
    thin = [ln for ln in root.iter(f"{SVG}line") if "thin" in ln.attrib["class"].split()]
    assert len(thin) == 2 * (shape.n - 1)


def test_jigsaw_text_picture_marks_region_edges() -> None:
    shape = Shape.jigsaw(JIGSAW6)
    text = to_text(Grid.empty(shape))
    rows = [ln for ln in text.splitlines() if ln.startswith("|") and "." in ln]
    assert len(rows) == 6
    for r, line in enumerate(rows):  # "|" then " X " and a one-character gap per cell
        walls = [line[4 + 4 * c] == "|" for c in range(5)]
        assert walls == [JIGSAW6[r * 6 + c] != JIGSAW6[r * 6 + c + 1] for c in range(5)]


@pytest.mark.parametrize(
    "shape", [s for s in SHAPES if s.is_standard], ids=lambda s: f"{s.n}x{s.n}"
)
def test_text_picture_round_trips_through_the_parser(shape: Shape) -> None:
    puzzle, solution = puzzle_pair(shape, seed=3)
    for grid in (puzzle, solution, Grid.empty(shape)):
        assert Grid.parse(to_text(grid), shape=shape) == grid


def test_sudoku_x_shades_exactly_the_diagonals() -> None:
    shape = Shape(3, 3, diagonals=True)
    scene = draw(Grid.empty(shape))
    shaded = {r.cell for r in scene.layer("cells") if "diagonal" in getattr(r, "cls", "").split()}
    assert shaded == {i * 9 + i for i in range(9)} | {i * 9 + 8 - i for i in range(9)}
    plain = draw(Grid.empty(Shape(3, 3)))
    assert not any("diagonal" in getattr(r, "cls", "") for r in plain.layer("cells"))


def test_auto_candidates_keep_the_solution_digit_and_drop_seen_digits() -> None:
    puzzle, solution = puzzle_pair(Shape(3, 3), seed=11, keep=0.35)
    root = ET.fromstring(to_svg(draw(puzzle, candidates="auto")))
    layer = root.find(f"{SVG}g[@data-layer='candidates']")
    assert layer is not None
    marks: dict[int, set[int]] = {}
    for t in layer.findall(f"{SVG}text"):
        r, c = _cell_of(t)
        marks.setdefault(r * 9 + c, set()).add(int(t.attrib["data-digit"]))
    empty = [i for i in range(81) if not puzzle[i]]
    assert sorted(marks) == empty
    for i in empty:
        assert solution[i] in marks[i]
        for p in puzzle.shape.peers[i]:
            assert puzzle[p] not in marks[i]


def test_user_digits_and_numbers_option() -> None:
    puzzle, solution = puzzle_pair(Shape(4, 4), seed=5)
    scene = draw(puzzle, user=solution, labels="numbers", theme=PRINT_THEME)
    texts = {t.cell: t for t in scene.layer("digits")}  # type: ignore[union-attr]
    assert len(texts) == 256
    for i, t in texts.items():
        assert t.text == str(solution[i])  # type: ignore[union-attr]
        assert ("given" in t.cls) == bool(puzzle[i])  # type: ignore[union-attr]
        assert ("user" in t.cls) == (not puzzle[i])  # type: ignore[union-attr]
    assert symbol_table(16)[16] == "G"
    with pytest.raises(ValueError, match="user digits need 256 cells"):
        draw(puzzle, user=[0] * 10)
    with pytest.raises(ValueError, match="candidates need 256 masks"):
        draw(puzzle, candidates=[0] * 3)


@dataclass(frozen=True)
class FakeStep:
    cells: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    highlights: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    placements: tuple[tuple[int, int], ...] = ()
    links: tuple[tuple[int, int, int, int, bool], ...] = ()


def test_step_highlights_become_classes_marks_and_links() -> None:
    shape = Shape(3, 3)
    grid = Grid.empty(shape)
    step = FakeStep(
        cells=(10, 11),
        units=(0,),
        highlights=((10, 4), (11, 4)),
        eliminations=((20, 4),),
        placements=((30, 7),),
        links=((10, 4, 11, 4, True), (11, 4, 20, 4, False)),
    )
    # without pencil marks: only the step's candidates, and the placement as a digit
    root = ET.fromstring(to_svg(draw(grid, step=step)))
    rects = {_cell_of(r): r.attrib["class"].split() for r in root.iter(f"{SVG}rect")}
    assert all("unit" in rects[0, c] for c in range(9))
    assert "pattern" in rects[1, 1]
    assert "pattern" in rects[1, 2]
    assert "unit" not in rects[1, 1]
    circles = {
        (_cell_of(c), c.attrib["data-digit"]): c.attrib["class"] for c in root.iter(f"{SVG}circle")
    }
    assert circles == {
        ((1, 1), "4"): "mark highlight",
        ((1, 2), "4"): "mark highlight",
        ((2, 2), "4"): "mark elimination",
    }
    digits = root.find(f"{SVG}g[@data-layer='digits']")
    assert digits is not None
    [placed] = digits.findall(f"{SVG}text")
    assert _cell_of(placed) == (3, 3)
    assert placed.text == "7"
    assert "placement" in placed.attrib["class"]
    links = root.find(f"{SVG}g[@data-layer='links']")
    assert links is not None
    kinds = [(ln.attrib["class"], "stroke-dasharray" in ln.attrib) for ln in links]
    assert kinds == [("line link strong", False), ("line link weak", True)]
    # with pencil marks: the placement is a ringed candidate instead
    scene = draw(grid, candidates="auto", step=step)
    assert not scene.layer("digits")
    assert any(
        getattr(p, "cls", "") == "mark placement" and getattr(p, "cell", -1) == 30
        for p in scene.layer("candidates")
    )


def test_repr_svg_for_jupyter() -> None:
    puzzle, _ = puzzle_pair(Shape(2, 3), seed=1)
    svg = puzzle._repr_svg_()
    root = ET.fromstring(svg)
    assert len(root.findall(f"{SVG}g[@data-layer='cells']/{SVG}rect")) == 36


def test_conflicting_digits_are_marked_when_asked() -> None:
    puzzle, solution = puzzle_pair(Shape(3, 3), seed=8)
    empty = [i for i in range(81) if not puzzle[i]]
    a = empty[0]
    peer = next(p for p in puzzle.shape.peers[a] if puzzle[p])
    user = [0] * 81
    user[a] = puzzle[peer]  # repeats a given it can see
    user[empty[-1]] = solution[empty[-1]]  # a right digit
    scene = draw(puzzle, user=user, conflicts=True)
    marked = {p.cell for p in scene.layer("digits") if "conflict" in p.cls.split()}  # type: ignore[union-attr]
    digit = user[a]
    expected = {a} | {p for p in puzzle.shape.peers[a] if puzzle[p] == digit}
    assert marked == expected
    assert {a, peer} <= marked
    assert empty[-1] not in marked
    assert not any(
        "conflict" in getattr(p, "cls", "") for p in draw(puzzle, user=user).layer("digits")
    )


def test_text_picture_with_candidates_lists_each_cells_marks() -> None:
    puzzle, solution = puzzle_pair(Shape(2, 3), seed=4, keep=0.3)
    masks = [0 if puzzle[i] else (1 << (solution[i] - 1)) | 1 for i in range(36)]
    text = to_text(draw(puzzle, candidates=masks))
    rows = [ln for ln in text.splitlines() if ln.startswith("|")]
    assert len(rows) == 6
    for r, line in enumerate(rows):
        words = line.replace("|", " ").split()
        assert len(words) == 6
        for c, word in enumerate(words):
            i = r * 6 + c
            if puzzle[i]:
                assert word == str(puzzle[i])
            else:
                assert word == "".join(str(d) for d in sorted({1, solution[i]}))
