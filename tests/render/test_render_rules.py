"""Drawing the rule kinds of sudokit.rules as SudokuPad draws them: every kind has a look and
a sentence, its marks in SVG (classes naming the kind, where they belong), PDF pages, the
margin of the clues outside the grid (only on their sides) and sizes that scale with the cell."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET

import pytest

from sudokit.constraints import Constraints
from sudokit.grid import Grid
from sudokit.render import SCALED, Circle, Line, Rect, Text, draw, rules, rules_text, to_svg
from sudokit.render.kinds import LINE_COLOURS, LOOKS, MARGIN, margins
from sudokit.rules import KINDS, Arrow, Rule, Sandwich, XSum
from sudokit.shape import Shape
from support.rule_samples import SAMPLES

SVG = "{http://www.w3.org/2000/svg}"
OUTSIDE = {"littlekiller", "sandwich", "xsum", "skyscraper"}
SHADED = {"clone", "columnindexer", "rowindexer", "boxindexer", "minimum", "maximum",
          "extraregion"}  # fmt: skip


def _grid(*found: Rule) -> Grid:
    return Grid(bytes(81), Shape(3, 3, constraints=Constraints(rules=found)))


def _classes(svg: str) -> list[tuple[set[str], dict[str, str]]]:
    root = ET.fromstring(svg)
    return [(set(e.get("class", "").split()), dict(e.attrib)) for e in root.iter()]


def test_every_kind_has_a_look_a_sentence_and_a_sample() -> None:
    assert set(LOOKS) == set(KINDS) == set(SAMPLES)
    for kind, look in LOOKS.items():
        sentence = look.sentence([SAMPLES[kind]], 9)
        assert sentence.startswith(look.name.split()[0].rstrip("s")), kind
        assert sentence.endswith("."), kind
        assert len(sentence) > 30, kind
        assert (look.draw is None) == (not look.shows), kind


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_has_marks_in_svg_or_a_sentence_in_words(kind: str) -> None:
    rule = SAMPLES[kind]
    grid = _grid(rule)
    scene = draw(grid)
    svg = to_svg(scene, cell=36)
    elements = _classes(svg)
    marked = [attrs for classes, attrs in elements if kind in classes]
    (legend,) = rules(grid.shape)
    assert legend.sentence == LOOKS[kind].sentence([rule], 9)
    if LOOKS[kind].shows:
        assert marked, f"no element of class {kind}"
        assert legend.sentence not in scene.notes
    else:
        assert not marked
        assert not scene.layer("rules")
        assert scene.notes == (legend.sentence,)
        assert legend.sentence in svg  # the caption and the <desc>
    assert legend.sentence in rules_text(grid.shape)


@pytest.mark.parametrize("kind", sorted(LINE_COLOURS))
def test_coloured_lines_run_through_the_cell_centres_in_their_colour(kind: str) -> None:
    rule = SAMPLES[kind]
    cells = rule.cells_of()  # a region-sum line's segments, end to end
    lines = [p for p in draw(_grid(rule)).layer("rules") if isinstance(p, Line)]
    assert [(p.x1, p.y1) for p in lines] == [(c % 9 + 0.5, c // 9 + 0.5) for c in cells[:-1]]
    assert lines[-1][2:4] == (cells[-1] % 9 + 0.5, cells[-1] // 9 + 0.5)
    assert {p.colour for p in lines} == {LINE_COLOURS[kind]}
    assert {p.weight for p in lines} == {"rule"}
    assert len(set(LINE_COLOURS.values())) == len(LINE_COLOURS)  # one hue per kind


def test_arrow_circle_shaft_and_head_and_a_pill() -> None:
    items = draw(_grid(Arrow((10,), ((11, 12, 13),)))).layer("rules")
    (circle,) = [p for p in items if isinstance(p, Circle)]
    assert (circle.cx, circle.cy, circle.cls) == (1.5, 1.5, "arrow circle")
    shafts = [p for p in items if isinstance(p, Line) and p.cls == "arrow line"]
    assert math.isclose(shafts[0].x1, 1.5 + 0.38)
    assert shafts[-1][2:4] == (4.5, 1.5)
    heads = [p for p in items if isinstance(p, Line) and p.cls == "arrow head"]
    assert len(heads) == 2
    assert all((p.x1, p.y1) == (4.5, 1.5) and p.x2 < 4.5 for p in heads)
    pill = draw(_grid(Arrow((0, 1), ((2, 3),)))).layer("rules")
    weights = [p.weight for p in pill if isinstance(p, Line) and p.cls == "arrow pill"]
    assert weights == ["pill", "pill-inside"]
    assert not any(isinstance(p, Circle) for p in pill)


def test_dots_quadruples_and_edge_sums_carry_their_numbers_where_they_belong() -> None:
    items = draw(_grid(SAMPLES["difference"], SAMPLES["ratio"], SAMPLES["quadruple"],
                       SAMPLES["pairsum"])).layer("rules")  # fmt: skip
    text = {(p.cls, p.text): (p.x, p.y) for p in items if isinstance(p, Text)}
    assert text[("difference value", "3")] == (6.0, 1.5)  # r2c6 | r2c7
    assert text[("ratio value", "3")] == (6.0, 2.5)
    assert text[("pairsum value", "7")] == (5.0, 3.5)
    dots = {p.cls: p for p in items if isinstance(p, Circle)}
    assert dots["difference dot"].fill == "#ffffff"
    assert dots["ratio dot"].fill == "#000000"
    assert (dots["quadruple"].cx, dots["quadruple"].cy) == (4.0, 1.0)  # the corner of r1c4..r2c5
    digits = sorted(p.text for p in items if isinstance(p, Text) and p.cls == "quadruple digit")
    assert digits == ["1", "2"]


def test_shaded_kinds_shade_their_cells_and_clones_share_a_colour() -> None:
    for kind in SHADED:
        rule = SAMPLES[kind]
        cells = rule.cells_of()
        scene = draw(_grid(rule))
        rects = [p for p in scene.layer("cells") if isinstance(p, Rect) and p.cell in cells]
        fills = {p.fill for p in rects}
        assert len(fills) == 1, kind
        assert fills != {"#ffffff"}, kind
        assert all(kind in p.cls.split() for p in rects)
    two = draw(_grid(SAMPLES["clone"], type(SAMPLES["clone"])((0,), (80,))))
    cells = {p.cell: p.fill for p in two.layer("cells") if isinstance(p, Rect)}
    assert cells[0] == cells[80] != cells[42] == cells[51]


def test_outside_clues_sit_outside_on_their_side_and_only_they_make_a_margin() -> None:
    for kind, rule in SAMPLES.items():
        assert any(margins([rule], 9)) == (kind in OUTSIDE), kind
    clue = {"littlekiller": (3.5, -0.5), "sandwich": (-0.5, 1.5), "xsum": (8.5, -0.5),
            "skyscraper": (9.5, 8.5)}  # fmt: skip
    for kind in OUTSIDE:
        items = draw(_grid(SAMPLES[kind])).layer("rules")
        (number,) = [p for p in items if isinstance(p, Text)]
        assert number.cls == f"{kind} clue"
        assert math.dist((number.x, number.y), clue[kind]) < 0.2, kind
    assert draw(_grid(SAMPLES["sandwich"])).margins == (0, 0, 0, MARGIN)
    assert draw(_grid(SAMPLES["skyscraper"], SAMPLES["xsum"])).margins == (MARGIN, MARGIN, 0, 0)
    plain = ET.fromstring(to_svg(_grid(SAMPLES["renban"]), cell=30, caption=False))
    wide = ET.fromstring(to_svg(_grid(SAMPLES["sandwich"]), cell=30, caption=False))
    assert float(wide.get("width", 0)) == float(plain.get("width", 0)) + 30
    assert wide.get("height") == plain.get("height")
    left = [float(svg.get("viewBox", "").split()[0]) for svg in (plain, wide)]
    assert left[1] == left[0] - 30


def test_little_killer_arrow_points_along_its_diagonal() -> None:
    items = draw(_grid(SAMPLES["littlekiller"])).layer("rules")  # r1c3 -> r3c1: down-left
    (shaft, *_) = [p for p in items if isinstance(p, Line)]
    assert shaft.x2 < shaft.x1
    assert shaft.y2 > shaft.y1
    assert math.isclose(shaft.x1 - shaft.x2, shaft.y2 - shaft.y1)
    (ring,) = [p for p in draw(_grid(SAMPLES["xsum"])).layer("rules") if isinstance(p, Circle)]
    assert ring.cls == "xsum ring"


def test_widths_and_sizes_scale_with_the_cell_down_to_a_phone() -> None:
    grid = _grid(*(SAMPLES[k] for k in ("whispers", "arrow", "sandwich", "xsum", "between")))
    phone = 390 / (9 + 2)  # sandwich (left) and x-sum (top) margins: 9 + 1 + 1 cells across
    svgs = {cell: _classes(to_svg(grid, cell=cell, caption=False)) for cell in (phone, 60.0)}
    root = ET.fromstring(to_svg(grid, cell=phone, caption=False))
    assert float(root.get("width", 0)) <= 390 + 4  # + the frame's half width
    for cell, elements in svgs.items():
        line = next(a for c, a in elements if {"whispers", "line"} <= c)
        assert math.isclose(float(line["stroke-width"]), SCALED["rule"] * cell, abs_tol=0.01)
        ring = next(a for c, a in elements if {"between", "end"} <= c)
        assert math.isclose(float(ring["stroke-width"]), SCALED["ring"] * cell, abs_tol=0.01)
        clue = next(a for c, a in elements if {"sandwich", "clue"} <= c)
        assert float(clue["font-size"]) >= 0.45 * cell
    line = next(a for c, a in svgs[phone] if {"whispers", "line"} <= c)
    assert float(line["stroke-width"]) >= 6  # a coloured line stays visible at phone size


pytest.importorskip("reportlab")
from sudokit.render.pdf import to_pdf, write_book  # noqa: E402


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_pdf_draws_each_kind(kind: str) -> None:
    out = io.BytesIO()
    width, height = to_pdf(_grid(SAMPLES[kind]), out, cell=20)
    data = out.getvalue()
    assert data.startswith(b"%PDF")
    assert b"%%EOF" in data[-32:]
    top, right, bottom, left = margins([SAMPLES[kind]], 9)
    assert width == 9 * 20 + 20 + (left + right) * 20, kind
    assert height >= 9 * 20 + 20 + (top + bottom) * 20, kind
    assert (width * height > 200 * 200) == (kind in OUTSIDE) or LOOKS[kind].shows is False


def test_book_fits_outside_clues_in_the_slot_and_states_every_kind() -> None:
    pypdf = pytest.importorskip("pypdf")
    kinds = ("littlekiller", "sandwich", "arrow", "whispers", "quadruple", "clone",
             "knightmare", "taxicab")  # fmt: skip
    clued = _grid(*(SAMPLES[k] for k in kinds[:4]))
    plain = _grid(*(SAMPLES[k] for k in kinds[4:]))
    out = io.BytesIO()
    info = write_book([clued, plain], out, answers=False, per_page=2)
    with_clues, without = info.grids
    # The margins' room comes out of the grid: a margin above and one on the left leave it 9
    # of 10 cells each way.
    assert math.isclose(with_clues.size, without.size * 9 / 10, rel_tol=1e-6)
    cover = " ".join(pypdf.PdfReader(io.BytesIO(out.getvalue())).pages[0].extract_text().split())
    stated = [rule.sentence for grid in (clued, plain) for rule in rules(grid.shape)]
    assert len(stated) == len(kinds)
    for sentence in stated:
        assert sentence in cover, sentence


def test_sandwich_and_x_sum_clues_on_every_side() -> None:
    for cells, side in ((range(9), 3), (range(8, -1, -1), 1), (range(0, 81, 9), 0),
                        (range(72, -1, -9), 2)):  # fmt: skip
        want = [0.0] * 4
        want[side] = MARGIN
        assert margins([Sandwich(tuple(cells), 5)], 9) == tuple(want)
        assert margins([XSum(tuple(cells), 5)], 9) == tuple(want)


def test_text_picture_lists_each_rule_with_its_cells_under_its_sentence() -> None:
    grid = _grid(SAMPLES["arrow"], SAMPLES["sandwich"], SAMPLES["knightmare"])
    lines = rules_text(grid.shape).splitlines()
    arrow = lines.index(LOOKS["arrow"].sentence([SAMPLES["arrow"]], 9))
    assert lines[arrow + 1] == "  arrow at r2c2: r2c2 r2c3 r2c4 r2c5"
    assert "  sandwich 10 on row 2 (left): r2c1 r2c2 r2c3 r2c4 r2c5 r2c6 r2c7 r2c8 r2c9" in lines
    knightmare = lines.index(LOOKS["knightmare"].sentence([], 9))
    assert knightmare == len(lines) - 1 or lines[knightmare + 1][0] != " "  # nothing to list


def test_a_book_of_every_kind_states_every_rule_on_its_title_page() -> None:
    pypdf = pytest.importorskip("pypdf")
    every = _grid(*SAMPLES.values())
    out = io.BytesIO()
    write_book([every], out, answers=False)
    cover = " ".join(pypdf.PdfReader(io.BytesIO(out.getvalue())).pages[0].extract_text().split())
    stated = rules(every.shape)
    assert len(stated) == len(KINDS)
    for rule in stated:  # the cover picture gives way to the rules
        assert rule.sentence in cover, rule.name
