"""What a won game says about itself: the hints it took, and its line in My games.

A hint that only points at the player's mistake gives nothing away: the win banner does not
count it. A finished game is "solved", never "playing" as well. Puzzles come from fixed seeds
and their solutions from the library.
"""

from __future__ import annotations

from typing import Any

import pytest
from pageutil import open_puzzle, paste_import, play_by_keyboard, show_hint, state

import sudokit

pytestmark = pytest.mark.browser


PUZZLE = sudokit.generate(size=4, seed=11).puzzle
SOLUTION = sudokit.solution(PUZZLE)


def test_a_mistake_check_is_not_a_hint(page: Any, base_url: str) -> None:
    puzzle, solution = PUZZLE, SOLUTION
    open_puzzle(page, base_url, puzzle)
    cell = next(i for i in range(16) if not puzzle[i])
    page.click(f'#board rect[data-cell="{cell // 4},{cell % 4}"]')
    page.keyboard.press(str(solution[cell] % 4 + 1))  # a wrong digit
    show_hint(page)
    assert state(page, "s.steps[0].technique") == "Mistake"
    page.click("#hint-close")
    assert state(page, "s.game.hinted") == 0
    play_by_keyboard(page, puzzle, solution)  # types over the wrong digit too
    page.wait_for_selector("#banner:not([hidden])")
    assert "hint" not in str(page.text_content("#banner-text"))


def game_line(page: Any) -> str:
    """The current game's line in My games (the dialog closed again)."""
    page.click("#btn-games")
    page.wait_for_selector("#dlg-games[open]")
    line = str(page.locator("#games-list li .game-line").first.text_content())
    page.keyboard.press("Escape")
    return line


def test_my_games_calls_a_finished_game_solved_only(page: Any, base_url: str) -> None:
    puzzle, solution = PUZZLE, SOLUTION
    open_puzzle(page, base_url, puzzle)
    assert game_line(page).endswith(" · playing")
    play_by_keyboard(page, puzzle, solution)
    page.wait_for_selector("#banner:not([hidden])")
    page.click("#banner-close")
    line = game_line(page)
    assert " · solved · " in line
    assert "playing" not in line


def test_a_jigsaw_is_named_and_has_its_rules_text(page: Any, base_url: str) -> None:
    """A jigsaw's rule is said under the board; the top bar called a generated jigsaw plain
    "6×6" (My games said "jigsaw")."""
    made = sudokit.generate(size=6, seed=3, jigsaw=True).puzzle
    page.goto(f"{base_url}/")
    page.wait_for_selector("#board rect.cell")
    paste_import(page, sudokit.formats.dumps(made, "json"))
    page.wait_for_selector('#board[data-size="6"] text.digit.given')
    assert "outlined region" in str(page.text_content("#rules-words"))
    assert page.locator("#rules").is_visible()
    assert str(page.text_content("#puzzle-label")) == "6×6 Jigsaw"
