"""The play app held to what players of the best Sudoku apps expect, and to WCAG 2.1 AA.

Each test here failed on the app before the fix it guards (one commit a defect). Puzzles come
from fixed seeds and their answers from the library, never from the app.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pageutil import open_puzzle, play_by_keyboard, state

import sudokit

pytestmark = pytest.mark.browser

STATS_KEY = "sudokit.stats.v1"


@pytest.fixture(scope="module")
def four() -> tuple[sudokit.Grid, sudokit.Grid]:
    made = sudokit.generate(size=4, seed=11)
    return made.puzzle, sudokit.solution(made.puzzle)


def wins(page: Any) -> int:
    """The number of wins the statistics hold, over every level."""
    stats = json.loads(page.evaluate(f"localStorage.getItem('{STATS_KEY}') || 'null'") or "null")
    return sum(row["solved"] for row in (stats or {"levels": {}})["levels"].values())


def test_a_win_counts_once_after_undo_and_redo(page: Any, base_url: str, four: Any) -> None:
    puzzle, solution = four
    open_puzzle(page, base_url, puzzle)
    play_by_keyboard(page, puzzle, solution)
    page.wait_for_selector("#banner:not([hidden])")
    assert wins(page) == 1
    page.keyboard.press("Escape")
    page.focus("#board")
    page.keyboard.press("Control+z")
    assert state(page, "s.game.finished") is False
    page.keyboard.press("Control+y")
    assert state(page, "s.game.finished") is True
    assert state(page, "s.game.values") == list(solution.cells)
    # The same game solved again is not a second win, and the card does not come back.
    assert wins(page) == 1
    assert page.locator("#banner").is_hidden()
    page.reload()
    page.wait_for_function("window.sudokit && window.sudokit.state.game")
    page.focus("#board")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+y")
    assert wins(page) == 1
