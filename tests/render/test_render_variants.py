"""Drawing the variants: killer cages, windoku, dots, XV, parity, thermometers and the
rules stated in words, in the model, SVG, the text picture, PDF pages and the CLI."""

from __future__ import annotations

import itertools
import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

import sudokit
from sudokit.cli.app import main
from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.render import (
    LAYERS,
    PRINT_THEME,
    SCREEN_THEME,
    Circle,
    Line,
    Rect,
    Scene,
    Text,
    cage_outline,
    draw,
    rules,
    rules_text,
    to_svg,
    to_text,
)
from sudokit.render.model import CAGE_INSET
from sudokit.shape import Shape
from support.render import puzzle_pair

SVG = "{http://www.w3.org/2000/svg}"


def cage_layout(solution: Grid, rng: random.Random, sizes: tuple[int, ...]) -> list[Cage]:
    """A seeded killer layout over *solution*: connected cages grown cell by cell (each size
    drawn from *sizes*, digits distinct inside a cage), each summed from the solution."""
    n = solution.n
    left = set(range(n * n))
    cages = []
    while left:
        cage = [min(left)]
        left.discard(cage[0])
        want = rng.choice(sizes)
        while len(cage) < want:
            used = {solution.cells[i] for i in cage}
            grow = sorted(
                {
                    j
                    for i in cage
                    for j, ok in (
                        (i - n, i >= n),
                        (i + n, i < n * (n - 1)),
                        (i - 1, i % n > 0),
                        (i + 1, i % n < n - 1),
                    )
                    if ok and j in left and solution.cells[j] not in used
                }
            )
            if not grow:
                break
            cage.append(rng.choice(grow))
            left.discard(cage[-1])
        cages.append(Cage(cage, sum(solution.cells[i] for i in cage)))
    return cages


def killer(shape: Shape, seed: int, *, unique: bool = False) -> tuple[Grid, Grid]:
    """(puzzle, solution): a zero-given killer on *shape* built around a seeded full grid; with
    *unique*, givens of the solution are added (in a seeded order) until it has one solution."""
    _, full = puzzle_pair(shape, seed=seed, keep=1.0)
    rng = random.Random(seed)
    rules_on = Constraints(cages=cage_layout(full, rng, (2, 2, 3, 3, 3, 4, 4, 5)))
    variant = shape.with_constraints(rules_on)
    solution = Grid(full.cells, variant)
    cells = bytearray(variant.ncells)
    order = rng.sample(range(variant.ncells), variant.ncells)
    while unique and sudokit.count_solutions(Grid(bytes(cells), variant), limit=2) != 1:
        i = order.pop()
        cells[i] = solution.cells[i]
    return Grid(bytes(cells), variant), solution


def _every_rule(seed: int) -> tuple[Grid, Grid]:
    """A 9x9 windoku puzzle carrying one of each drawn rule, all true of its solution."""
    _, full = puzzle_pair(Shape(3, 3, windoku=True), seed=seed, keep=1.0)
    v = full.cells
    n = 9
    right = [(a, a + 1) for a in range(81) if a % n < n - 1]
    down = [(a, a + n) for a in range(81 - n)]
    pairs = right + down
    runs = [(a, a + 1, a + 2) for a in range(81) if a % n < n - 2]
    runs += [(a, a + n, a + 2 * n) for a in range(81 - 2 * n)]
    runs += [run[::-1] for run in runs]  # a thermometer may run either way
    # Three cells rising along a row or column (any grid has them; a pair always does).
    thermo = next(
        (run for run in runs if v[run[0]] < v[run[1]] < v[run[2]]),
        (0, 1) if v[0] < v[1] else (1, 0),
    )
    rules_on = Constraints(
        cages=[Cage((60, 61, 70), v[60] + v[61] + v[70])],
        white=[p for p in pairs if abs(v[p[0]] - v[p[1]]) == 1][:3],
        black=[p for p in pairs if max(v[p[0]], v[p[1]]) == 2 * min(v[p[0]], v[p[1]])][:3],
        x=[p for p in pairs if v[p[0]] + v[p[1]] == 10][:2],
        v=[p for p in pairs if v[p[0]] + v[p[1]] == 5][:2],
        parity="".join(
            ("e" if d % 2 == 0 else "o") if i % 10 == 0 else "." for i, d in enumerate(v)
        ),
        thermos=[thermo],
    )
    shape = Shape(3, 3, windoku=True, constraints=rules_on)
    solution = Grid(v, shape)
    assert solution.is_solution()
    return Grid(bytes(d if i % 7 == 0 else 0 for i, d in enumerate(v)), shape), solution


# -- the cage outline -------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)])
def test_cage_outlines_are_closed_loops_inset_along_the_cage_edges(shape: Shape) -> None:
    n = shape.n
    for seed in range(4):
        _, solution = killer(shape, seed)
        assert solution.shape.constraints is not None
        for cage in solution.shape.constraints.cages:
            inside = set(cage.cells)
            segments = cage_outline(cage.cells, n)
            # Closed: every corner ends one horizontal and one vertical segment.
            ends: Counter[tuple[float, float, str]] = Counter()
            for x1, y1, x2, y2 in segments:
                assert x1 == x2 or y1 == y2
                kind = "h" if y1 == y2 else "v"
                ends[round(x1, 6), round(y1, 6), kind] += 1
                ends[round(x2, 6), round(y2, 6), kind] += 1
            corners = Counter((x, y) for x, y, _ in ends)
            assert all(k == 1 for k in ends.values()), ends
            assert all(k == 2 for k in corners.values()), corners
            # Every outer edge of every cage cell is followed, inset, by one segment.
            for i in inside:
                r, c = divmod(i, n)
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < n and 0 <= cc < n and rr * n + cc in inside:
                        continue
                    mx = c + 0.5 + dc * (0.5 - CAGE_INSET)
                    my = r + 0.5 + dr * (0.5 - CAGE_INSET)
                    assert any(
                        min(x1, x2) - 1e-9 <= mx <= max(x1, x2) + 1e-9
                        and min(y1, y2) - 1e-9 <= my <= max(y1, y2) + 1e-9
                        for x1, y1, x2, y2 in segments
                    ), (i, dr, dc)
            # No segment runs over an edge between two cells of the cage, nor outside it.
            for x1, y1, x2, y2 in segments:
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                cell = int(my) * n + int(mx)
                assert cell in inside


def test_an_l_shaped_cage_has_six_sides_and_one_concave_corner() -> None:
    d = CAGE_INSET
    segments = set(cage_outline([0, 3, 4], 3))  # r1c1, r2c1, r2c2 on 3x3
    assert len(segments) == 6
    # The inner corner is at (1 - d, 1 + d): r1c1's right side meets r2c2's top there.
    assert (1 - d, 1 + d, 2 - d, 1 + d) in segments
    assert (1 - d, d, 1 - d, 1 + d) in segments
    assert (d, 2 - d, 2 - d, 2 - d) in segments  # the bottom: one run under both cells


# -- the drawing model ------------------------------------------------------------------------


def test_killer_scene_has_outlines_and_one_sum_per_cage_in_its_top_left_cell() -> None:
    puzzle, _ = killer(Shape(3, 3), seed=1)
    assert puzzle.shape.constraints is not None
    cages = puzzle.shape.constraints.cages
    scene = draw(puzzle)
    layer = scene.layer("cages")
    lines = [p for p in layer if isinstance(p, Line)]
    assert all(p.dashed and p.weight == "cage" for p in lines)
    expected = sum(len(cage_outline(c.cells, 9)) for c in cages)
    assert len(lines) == expected
    sums = [p for p in layer if isinstance(p, Text)]
    assert sorted((t.cell, t.text) for t in sums) == sorted(
        (min(c.cells), str(c.total)) for c in cages
    )
    for t in sums:  # small, in the top-left corner of its cell
        r, c = divmod(t.cell, 9)
        assert t.size <= 0.3
        assert c <= t.x < c + 0.4
        assert r <= t.y < r + 0.3
    assert scene.layer("rules") == ()
    assert scene.notes == ()


def test_a_cage_without_a_sum_has_an_outline_and_no_text() -> None:
    shape = Shape(2, 2, constraints=Constraints(cages=[Cage((0, 1), None), Cage((2, 3), 5)]))
    layer = draw(Grid(bytes(16), shape)).layer("cages")
    assert [p.text for p in layer if isinstance(p, Text)] == ["5"]
    assert {p.cell for p in layer if isinstance(p, Rect)} == {2}
    assert len([p for p in layer if isinstance(p, Line)]) == 8


def _box(t: Text) -> tuple[float, float, float, float]:
    """The ink box of a text primitive (Helvetica digits: 0.556 em wide, 0.72 em tall)."""
    w = 0.556 * t.size * len(t.text)
    base = t.y + 0.36 * t.size
    return t.x - w / 2, base - 0.72 * t.size, t.x + w / 2, base


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 3), Shape(4, 4)], ids=str)
def test_cage_sums_do_not_collide_with_pencil_marks_digits_or_outlines(shape: Shape) -> None:
    puzzle, solution = killer(shape, seed=2)
    user = bytes(d if i % 5 == 0 else 0 for i, d in enumerate(solution.cells))
    scene = draw(puzzle, user=user, candidates="auto", labels="numbers")
    sums = [p for p in scene.layer("cages") if isinstance(p, Text)]
    assert sums
    marks = [p for p in scene.layer("candidates") if isinstance(p, Text)]
    digits = [p for p in scene.layer("digits") if isinstance(p, Text)]
    outlines = [p for p in scene.layer("cages") if isinstance(p, Line)]
    for t in sums:
        box = _box(t)
        near = [m for m in marks + digits if m.cell == t.cell]
        assert near, "every sum cell shows a digit or pencil marks in this test"
        for m in near:
            assert not _overlap(box, _box(m)), (t, m)
    by_cell = {t.cell: t for t in sums}
    for m in marks:  # marks in sum cells stay inside the cage outline too
        if m.cell in by_cell:
            r, c = divmod(m.cell, shape.n)
            x0, y0, x1, y1 = _box(m)
            assert c + CAGE_INSET < x0
            assert x1 < c + 1 - CAGE_INSET
            assert r + CAGE_INSET < y0
            assert y1 < r + 1 - CAGE_INSET
    # The sum's patch covers the outline's corner: it is drawn after the outlines.
    layer = scene.layer("cages")
    last_line = max(k for k, p in enumerate(layer) if isinstance(p, Line))
    assert all(k > last_line for k, p in enumerate(layer) if isinstance(p, Rect))
    assert outlines


def test_every_other_rule_is_drawn_where_it_belongs() -> None:
    puzzle, _ = _every_rule(seed=3)
    c = puzzle.shape.constraints
    assert c is not None
    scene = draw(puzzle)
    cells = scene.layer("cells")
    windows = {p.cell for p in cells if isinstance(p, Rect) and "window" in p.cls.split()}
    assert windows == {i for u, k in zip(puzzle.shape.units, puzzle.shape.unit_kinds, strict=True)
                       if k == "window" for i in u}  # fmt: skip
    assert len(windows) == 36
    assert {p.fill for p in cells if isinstance(p, Rect) and p.cell in windows} == {
        SCREEN_THEME.window
    }
    items = scene.layer("rules")

    def middle(a: int, b: int) -> tuple[float, float]:
        (ra, ca), (rb, cb) = divmod(a, 9), divmod(b, 9)
        return (ca + cb + 1) / 2, (ra + rb + 1) / 2

    dots = {(p.cx, p.cy): p for p in items if isinstance(p, Circle) and "kropki" in p.cls}
    for a, b in c.white:
        dot = dots[middle(a, b)]
        assert dot.fill == "#ffffff"
        assert dot.stroke == "#000000"
    for a, b in c.black:
        dot = dots[middle(a, b)]
        assert dot.fill == "#000000"
        assert not dot.stroke
    assert len(dots) == len(c.white) + len(c.black)
    letters = {(p.x, p.y): p.text for p in items if isinstance(p, Text)}
    assert letters == {
        **{middle(a, b): "X" for a, b in c.x},
        **{middle(a, b): "V" for a, b in c.v},
    }
    thermo = c.thermos[0]
    bulbs = [p for p in items if isinstance(p, Circle) and p.cls == "thermo-bulb"]
    assert [(b.cell, b.cx, b.cy) for b in bulbs] == [
        (thermo[0], thermo[0] % 9 + 0.5, thermo[0] // 9 + 0.5)
    ]
    tubes = [p for p in items if isinstance(p, Line) and p.weight == "thermo"]
    assert [(t.x1, t.y1, t.x2, t.y2) for t in tubes] == [
        (a % 9 + 0.5, a // 9 + 0.5, b % 9 + 0.5, b // 9 + 0.5)
        for a, b in itertools.pairwise(thermo)
    ]
    assert c.parity is not None
    even = {p.cell for p in items if isinstance(p, Rect) and p.cls == "even"}
    odd = {p.cell for p in items if isinstance(p, Circle) and p.cls == "odd"}
    assert even == {i for i, ch in enumerate(c.parity) if ch == "e"}
    assert odd == {i for i, ch in enumerate(c.parity) if ch == "o"}
    assert even
    assert odd
    # All under the digits: the rules layer comes before candidates and digits.
    assert LAYERS.index("rules") < LAYERS.index("cages") < LAYERS.index("digits")


def test_rules_a_picture_cannot_show_become_notes() -> None:
    shape = Shape(
        3,
        3,
        constraints=Constraints(
            antiknight=True, antiking=True, nonconsecutive=True, kropki_negative=True
        ),
    )
    scene = draw(Grid(bytes(81), shape))
    assert len(scene.notes) == 4
    for word in ("knight", "touch", "consecutive", "dot"):
        assert sum(word in note for note in scene.notes) >= 1, word
    assert [r.name for r in rules(shape)] == [
        "Anti-knight",
        "Anti-king",
        "Non-consecutive",
        "All dots given",
    ]
    white = Shape(3, 3, constraints=Constraints(white_negative=True))
    black = Shape(3, 3, constraints=Constraints(black_negative=True))
    assert [r.name for r in rules(white)] == ["All white dots given"]
    assert [r.name for r in rules(black)] == ["All black dots given"]
    assert "not consecutive" in draw(Grid(bytes(81), white)).notes[0]
    classic = draw(puzzle_pair(Shape(3, 3), seed=1)[0])
    assert classic.notes == ()
    assert classic.layer("rules") == classic.layer("cages") == ()


# -- SVG and text -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_svg_of_variants_is_well_formed_and_carries_cages_dots_and_caption(seed: int) -> None:
    puzzle, _ = _every_rule(seed)
    shape = puzzle.shape.with_constraints(
        Constraints(**{**_fields(puzzle.shape.constraints), "antiknight": True})
    )
    grid = Grid(puzzle.cells, shape)
    root = ET.fromstring(to_svg(grid, cell=36))
    assert [g.attrib["data-layer"] for g in root.findall(f"{SVG}g[@data-layer]")] == list(LAYERS)
    cages = root.find(f"{SVG}g[@data-layer='cages']")
    assert cages is not None
    dashed = [e for e in cages.findall(f"{SVG}line") if "stroke-dasharray" in e.attrib]
    assert len(dashed) == len(cage_outline((60, 61, 70), 9))
    assert shape.constraints is not None
    assert [t.text for t in cages.findall(f"{SVG}text")] == [str(shape.constraints.cages[0].total)]
    kropki = root.findall(f".//{SVG}circle")
    assert {e.attrib["class"] for e in kropki} >= {"kropki white", "kropki black", "thermo-bulb"}
    desc = root.find(f"{SVG}desc")
    assert desc is not None
    assert "knight" in (desc.text or "")
    caption = root.findall(f"{SVG}g[@class='caption']/{SVG}text")
    assert caption
    assert "knight" in " ".join(t.text or "" for t in caption)
    assert float(root.attrib["height"]) > float(root.attrib["width"])
    plain = ET.fromstring(to_svg(grid, cell=36, caption=False))
    assert plain.attrib["height"] == plain.attrib["width"]


def _fields(c: Constraints | None) -> dict[str, object]:
    assert c is not None
    return {name: getattr(c, name) for name in Constraints.__match_args__}


def test_text_picture_lists_what_it_cannot_draw() -> None:
    puzzle, _ = killer(Shape(3, 3), seed=4)
    text = to_text(puzzle)
    picture, _, words = text.partition("\n\n")
    assert Grid.parse(picture).cells == puzzle.cells  # the picture itself is unchanged
    lines = words.splitlines()
    assert lines[0].startswith("Killer:")
    assert puzzle.shape.constraints is not None
    listed = lines[1:]
    assert len(listed) == len(puzzle.shape.constraints.cages)
    for cage, line in zip(puzzle.shape.constraints.cages, listed, strict=True):
        total, _, cells = line.strip().partition(": ")
        assert int(total) == cage.total
        assert cells.split() == [puzzle.shape.cell_name(i) for i in cage.cells]
    every, _ = _every_rule(seed=5)
    words = rules_text(every.shape)
    for head in ("Windoku", "Killer", "Kropki", "XV", "Even/odd", "Thermometers"):
        assert any(line.startswith(head) for line in words.splitlines()), head
    c = every.shape.constraints
    assert c is not None
    name = every.shape.cell_name
    assert f"{name(c.white[0][0])}-{name(c.white[0][1])}" in words
    assert " ".join(name(i) for i in c.thermos[0]) in words
    assert rules_text(Shape(3, 3)) == ""
    assert "\n\n" not in to_text(puzzle_pair(Shape(3, 3), seed=1)[0])


def test_scene_type_is_unchanged_for_callers() -> None:
    scene = draw(Grid(bytes(16), Shape(2, 2)))
    assert isinstance(scene, Scene)
    assert scene.notes == ()


# -- PDF pages and pixels ---------------------------------------------------------------------

pytest.importorskip("reportlab")
from sudokit.render.pdf import BookItem, to_pdf, write_book  # noqa: E402
from support.render import needs_poppler, pgm  # noqa: E402


def _dark(pixels: bytes, w: int, x: float, y: float, reach: int = 2) -> int:
    """Dark pixels (< 110) in the (2 reach + 1)^2 square around (x, y)."""
    xi, yi = round(x), round(y)
    return sum(
        1
        for dy in range(-reach, reach + 1)
        for dx in range(-reach, reach + 1)
        if pixels[(yi + dy) * w + xi + dx] < 110
    )


@needs_poppler
def test_pdf_pixels_show_cage_outlines_sums_and_dots(tmp_path: Path) -> None:
    puzzle, _ = _every_rule(seed=6)
    c = puzzle.shape.constraints
    assert c is not None
    cell_pt = 40.0
    dpi = 144
    scale = dpi / 72
    path = tmp_path / "v.pdf"
    to_pdf(draw(puzzle, theme=PRINT_THEME), path, cell=cell_pt)
    w, _h, pixels = pgm(path, 1, dpi, tmp_path)

    def px(x: float, y: float) -> tuple[float, float]:  # cell units -> pixels
        return (cell_pt / 2 + x * cell_pt) * scale, (cell_pt / 2 + y * cell_pt) * scale

    # A cage outline: along each segment, dashes (some dark pixels, some light ones).
    cage = c.cages[0]
    for x1, y1, x2, y2 in cage_outline(cage.cells, 9):
        steps = 40
        samples = [
            _dark(pixels, w, *px(x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps), 1)
            for k in range(2, steps - 1)
        ]
        assert sum(1 for s in samples if s) > len(samples) // 4, (x1, y1, x2, y2)
        assert sum(1 for s in samples if not s) > 0, "dashed, not solid"
        # and inset: half way between the outline and the cell edge, nothing is drawn
    r, col = divmod(cage.cells[1], 9)  # a cell of the cage without the sum
    assert _dark(pixels, w, *px(col + 0.5, r + CAGE_INSET / 2), 0) == 0 or (
        r * 9 + col - 9 in cage.cells
    )
    # The sum is ink in the top-left corner of the cage's first cell.
    r, col = divmod(cage.cells[0], 9)
    assert sum(_dark(pixels, w, *px(col + 0.07 + 0.03 * k, r + 0.15), 1) for k in range(4))
    # A black dot is dark at its centre, a white dot light with a dark ring.
    a, b = c.black[0]
    (ra, ca), (rb, cb) = divmod(a, 9), divmod(b, 9)
    assert _dark(pixels, w, *px((ca + cb + 1) / 2, (ra + rb + 1) / 2), 1) == 9
    a, b = c.white[0]
    (ra, ca), (rb, cb) = divmod(a, 9), divmod(b, 9)
    mx, my = (ca + cb + 1) / 2, (ra + rb + 1) / 2
    assert _dark(pixels, w, *px(mx, my), 0) == 0
    ring = [(mx + 0.12 * dx, my + 0.12 * dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    assert all(_dark(pixels, w, *px(x, y), 1) for x, y in ring)
    # A thermometer is grey (neither white nor black) between its first two cells.
    t0, t1 = c.thermos[0][:2]
    gx, gy = px((t0 % 9 + t1 % 9 + 1) / 2, (t0 // 9 + t1 // 9 + 1) / 2 + 0.08)
    grey = pixels[round(gy) * w + round(gx)]
    assert 120 < grey < 240, grey


@needs_poppler
def test_killer_book_with_answers_rasterises_and_states_rules(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    items = [BookItem(*killer(Shape(3, 3), seed), "Hard") for seed in range(8)]
    path = tmp_path / "book.pdf"
    info = write_book(items, path, title="Killer", answers=True)
    reader = pypdf.PdfReader(str(path))
    assert len(reader.pages) == info.pages
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "How to play" in text
    assert "cage" in text
    assert text.count("Killer") >= len(items)  # a caption over every puzzle
    for page in range(1, info.pages + 1):
        _w, _h, pixels = pgm(path, page, 50, tmp_path)
        dark = sum(1 for v in pixels if v < 128) / len(pixels)
        assert 0.002 < dark < 0.3, page
    # Answer grids show the digits only: no cage sums drawn there.
    answer_page = reader.pages[info.answer_page - 1].extract_text()
    sums = {str(cage.total) for it in items for cage in it.puzzle.shape.constraints.cages}  # type: ignore[union-attr]
    assert not any(s in answer_page.split() for s in sums if int(s) > 9)


# -- the CLI, end to end ----------------------------------------------------------------------


def _jsonl(items: list[tuple[Grid, Grid]], path: Path) -> None:
    lines = []
    for puzzle, _ in items:
        c = puzzle.shape.constraints
        assert c is not None
        lines.append(
            json.dumps(
                {
                    "puzzle": "".join(str(d) if d else "." for d in puzzle.cells),
                    "cages": [{"sum": cage.total, "cells": list(cage.cells)} for cage in c.cages],
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@needs_poppler
def test_cli_render_and_print_a_killer_jsonl_with_no_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pairs = [killer(Shape(3, 3), seed, unique=True) for seed in range(3)]
    src = tmp_path / "killer.jsonl"
    _jsonl(pairs, src)
    assert main(["render", str(src)]) == 0
    out = capsys.readouterr().out
    assert "Killer:" in out
    assert out.count(":") >= len(pairs[0][0].shape.constraints.cages)  # type: ignore[union-attr]
    svg = tmp_path / "k.svg"
    assert main(["render", str(src), "--index", "2", "-o", str(svg)]) == 0
    root = ET.parse(svg).getroot()
    assert root.attrib["data-variant"] == "killer"
    sums = [t.text for t in root.findall(f"{SVG}g[@data-layer='cages']/{SVG}text")]
    assert sorted(sums, key=int) == sorted(
        (str(c.total) for c in pairs[1][0].shape.constraints.cages),  # type: ignore[union-attr]
        key=int,
    )
    png = tmp_path / "k.png"
    assert main(["render", str(src), "-o", str(png), "--solution"]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    book = tmp_path / "book.pdf"
    assert main(["print", str(src), "-o", str(book), "--answers"]) == 0
    err = capsys.readouterr().err
    assert "3 puzzles" in err
    pypdf = pytest.importorskip("pypdf")
    pages = pypdf.PdfReader(str(book)).pages
    assert "Killer" in pages[1].extract_text()
    _w, _, pixels = pgm(book, 2, 50, tmp_path)
    assert any(v < 128 for v in pixels)


def test_cli_print_names_a_broken_cage_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "bad.jsonl"
    good, _ = killer(Shape(2, 2), seed=1)
    _jsonl([(good, good)], src)
    cage = Cage((0, 1), 3)
    broken = {"puzzle": "13" + "." * 14, "cages": [{"sum": cage.total, "cells": [0, 1]}]}
    with src.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(broken) + "\n")
    assert main(["print", str(src), "-o", str(tmp_path / "b.pdf")]) == 1
    err = capsys.readouterr().err
    assert "conflicting givens (cage of sum 3 at r1c1 adds up to 4: r1c1, r1c2); left out" in err
    assert "1 puzzle," in err


def test_book_title_page_says_how_to_play_every_rule(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    items = [BookItem(_every_rule(seed)[0]) for seed in range(2)]
    puzzle, _ = killer(Shape(3, 3), seed=5)
    stated = Constraints(
        **{
            **_fields(puzzle.shape.constraints),
            "antiknight": True,
            "antiking": True,
            "nonconsecutive": True,
            "kropki_negative": True,
            "xv_negative": True,
        }
    )
    items.append(BookItem(Grid(puzzle.cells, puzzle.shape.with_constraints(stated))))
    path = tmp_path / "mix.pdf"
    write_book(items, path, title="Variety", answers=False, per_page=4)
    pages = pypdf.PdfReader(str(path)).pages
    cover = " ".join(pages[0].extract_text().split())
    assert "How to play" in cover
    shapes = {it.puzzle.shape for it in items}
    every = {rule.sentence for shape in shapes for rule in rules(shape)}
    assert len(every) == 11  # six drawn rules, five stated ones
    for sentence in every:
        assert sentence in cover, sentence
    # Each grid's caption names its rules.
    grids = " ".join(pages[1].extract_text().split())
    assert "Killer · Anti-knight · Anti-king · Non-consecutive" in grids


def test_sudoku_x_and_jigsaw_text_pictures_stay_readable_by_the_parser() -> None:
    from support.render import JIGSAW9

    for shape in (Shape(3, 3, diagonals=True), Shape.jigsaw(JIGSAW9, diagonals=True)):
        puzzle, _ = puzzle_pair(shape, seed=2)
        assert rules_text(shape) == ""
        assert Grid.parse(to_text(puzzle), shape=shape) == puzzle
