"""The app plays the rule kinds of sudokit.rules: an f-puzzles link with an arrow, a renban
line and a little killer is imported, its marks drawn by the server's SVG under the cells, a
hint that only the rules can give, a digit, a win."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from pageutil import open_puzzle, paste_import, play_by_keyboard, show_hint, state

import sudokit
from sudokit.rules import Arrow, Clone, LittleKiller, Renban

pytestmark = pytest.mark.browser

CELL = 60  # the board's cell size in SVG units (board.js), as the rules layer draws it


def kinds_puzzle() -> tuple[sudokit.Grid, sudokit.Grid]:
    """A 4x4 of one given (50 classic solutions) that its arrow, renban and little killer
    make unique, and its solution."""
    rules = [Arrow((0,), ((1, 4),)), Renban((4, 5, 6)), LittleKiller((1, 6, 11), 8)]
    shape = sudokit.Shape(2, 2, constraints=sudokit.Constraints(rules=rules))
    puzzle = sudokit.Grid(bytes([0, 0, 0, 0, 2] + [0] * 11), shape)
    return puzzle, sudokit.solution(puzzle)


def test_rule_kinds_drawn_hinted_and_won(page: Any, base_url: str, artifacts: Path) -> None:
    puzzle, solution = kinds_puzzle()
    page.goto(f"{base_url}/")
    page.wait_for_selector('#board[data-size="9"] rect.cell')
    paste_import(page, sudokit.formats.dumps(puzzle, "fpuzzles"))
    page.wait_for_selector('#board[data-size="4"] g.kinds circle.arrow')
    assert state(page, "s.game.geo.rules.rules.length") == 3
    # The server's marks, with its kind classes, under the cells' digits, hidden from AT.
    assert page.locator("#board g.kinds .arrow.line").count() >= 1
    assert page.locator("#board g.kinds .renban.line").count() == 2
    assert page.text_content("#board g.kinds text.littlekiller.clue") == "8"
    assert page.get_attribute("#board g.kinds", "aria-hidden") == "true"
    assert page.locator("#board g.kinds [data-cell]").count() == 0
    # The little killer's clue stands above r1c2: the board grows a cell's margin on top.
    _x, y, w, h = map(float, str(page.get_attribute("#board", "viewBox")).split())
    assert (y, h - w) == (-3 - CELL, CELL)
    assert "little killer" in str(page.text_content("#rules")).lower()
    page.screenshot(path=str(artifacts / "rule-kinds.png"))
    # The first hint is the arrow's: only the rules decide this puzzle.
    show_hint(page)
    assert page.text_content("#hint-technique") == "Arrow"
    page.click("#hint-close")
    # A click on the arrow's circle goes to its cell.
    page.click('#board rect[data-cell="0,0"]', position={"x": 30, "y": 30})
    assert state(page, "s.selected") == 0
    page.keyboard.press(str(solution[0]))
    assert state(page, "s.game.values[0]") == solution[0]
    placed = sudokit.Grid(bytes([solution[0], *puzzle.cells[1:]]), puzzle.shape)
    play_by_keyboard(page, placed, solution)
    page.wait_for_selector("#banner:not([hidden])")
    assert state(page, "s.game.finished") is True


def test_rule_kinds_kept_by_share_link_and_save(page: Any, base_url: str) -> None:
    puzzle, _ = kinds_puzzle()
    open_puzzle(page, base_url, puzzle)
    page.wait_for_selector("#board g.kinds circle.arrow")
    page.keyboard.press("Escape")
    # The app's own link carries the rules; a reload resumes the saved game with them.
    assert "rules" in unquote(page.evaluate("location.hash"))
    page.reload()
    page.wait_for_selector("#board g.kinds circle.arrow")
    kinds = sorted(r["kind"] for r in state(page, "s.game.geo.rules.rules"))
    assert kinds == ["arrow", "littlekiller", "renban"]


def test_shaded_cells_show_their_own_colour(page: Any, base_url: str) -> None:
    """A clone's cells take the server's shade, not the board's cell fill (the copied shades
    kept the class ``cell``, whose fill hid theirs: clones and indexers looked unshaded)."""
    puzzle, solution = kinds_puzzle()
    d = solution.cells
    a, b = next((i, j) for i in range(16) for j in range(i + 1, 16) if d[i] == d[j])
    assert puzzle.shape.constraints is not None
    rules = [*puzzle.shape.constraints.rules, Clone((a,), (b,))]
    shape = sudokit.Shape(2, 2, constraints=sudokit.Constraints(rules=rules))
    open_puzzle(page, base_url, sudokit.Grid(puzzle.cells, shape))
    page.wait_for_selector("#board g.kinds-shades rect.clone")
    shades = page.eval_on_selector_all(
        "#board g.kinds-shades rect",
        "rects => rects.map(r => [r.getAttribute('fill'), getComputedStyle(r).fill])",
    )
    assert len(shades) == 2
    for attribute, computed in shades:
        red, green, blue = (int(attribute[k : k + 2], 16) for k in (1, 3, 5))
        assert computed == f"rgb({red}, {green}, {blue})", (attribute, computed)
