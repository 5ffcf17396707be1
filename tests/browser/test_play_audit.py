"""The play app held to what players of the best Sudoku apps expect, and to WCAG 2.1 AA.

Each test here failed on the app before the fix it guards (one commit a defect). Puzzles come
from fixed seeds and their answers from the library, never from the app.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pageutil import open_puzzle, play_by_keyboard, state

import sudokit

pytestmark = pytest.mark.browser

GAMES_KEY = "sudokit.games.v2"
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


def corruptions(game: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Saved games as a bug, another version or a hand edit could leave them."""
    n2 = len(game["givens"])
    return {
        "undo null": {**game, "undo": None, "redo": None},
        "meta null": {**game, "meta": None},
        "values too short": {**game, "values": [1, 2]},
        "marks of another size": {**game, "marks": [1], "corner": "x", "colours": [9] * n2},
        "undo entries broken": {**game, "undo": [None, {"v": [1]}], "redo": [7]},
        "elapsed not a number": {**game, "elapsed": "soon", "hinted": None},
        "solution wrong size": {**game, "solution": [1, 2, 3]},
    }


def test_a_corrupt_saved_game_does_not_break_the_app(page: Any, base_url: str, four: Any) -> None:
    puzzle, solution = four
    open_puzzle(page, base_url, puzzle)
    entry = page.evaluate(f"JSON.parse(localStorage.getItem('{GAMES_KEY}'))[0]")
    cell = next(i for i in range(16) if not puzzle[i])
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for label, game in corruptions(entry["game"]).items():
        page.goto(f"{base_url}/favicon.svg")  # no app here to save over the stored game
        page.evaluate(
            "([key, e]) => { localStorage.clear();"
            " localStorage.setItem(key, JSON.stringify([e])); }",
            [GAMES_KEY, {**entry, "game": game}],
        )
        page.goto(f"{base_url}/")
        page.wait_for_selector("#board rect.cell")
        page.wait_for_function("window.sudokit && window.sudokit.state.game")
        n = state(page, "s.game.n")
        assert page.locator("#board rect.cell").count() == n * n, label
        assert state(page, "s.game.values.length") == n * n, label
        assert re.fullmatch(r"\d+:\d\d", str(page.text_content("#time"))), label
        # The saved puzzle is kept when its givens are sound, and it can be played and undone.
        assert state(page, "s.game.puzzleLine") == str(puzzle), label
        page.click(f'#board rect[data-cell="{cell // 4},{cell % 4}"]')
        page.keyboard.press(str(solution[cell]))
        assert state(page, f"s.game.values[{cell}]") == solution[cell], label
        page.keyboard.press("Control+z")
        assert state(page, f"s.game.values[{cell}]") == 0, label
        assert not errors, (label, errors)
