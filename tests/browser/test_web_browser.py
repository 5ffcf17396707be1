"""The browser app driven by Playwright in headless Chromium: play, hint, undo, reload, share.

Puzzles are generated here from fixed seeds and their solutions computed by the library, so
what the app shows is checked against an independent answer (and ``Grid.is_solution``).
Screenshots at desktop and phone widths are written to ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pageutil import open_explanation, open_puzzle, paste_import, play_by_keyboard, show_hint

import sudokit

pytestmark = pytest.mark.browser


def game_values(page: Any) -> list[int]:
    values: list[int] = page.evaluate("window.sudokit.state.game.values")
    return values


def cell_text(page: Any, r: int, c: int) -> str:
    loc = page.locator(f'#board text.digit[data-cell="{r},{c}"]')
    return str(loc.text_content()) if loc.count() else ""


@pytest.fixture(scope="module")
def nine() -> tuple[sudokit.Grid, sudokit.Grid]:
    made = sudokit.generate(size=9, seed=2024, symmetry="rot180")
    return made.puzzle, sudokit.solution(made.puzzle)


def test_play_to_completion_by_keyboard(
    page: Any, base_url: str, nine: tuple[sudokit.Grid, sudokit.Grid], artifacts: Path
) -> None:
    puzzle, solution = nine
    open_puzzle(page, base_url, puzzle)
    play_by_keyboard(page, puzzle, solution)
    page.wait_for_selector("#banner:not([hidden])")
    assert "solved in" in str(page.text_content("#banner-text"))
    played = sudokit.Grid(bytes(game_values(page)), puzzle.shape)
    assert played.is_solution(puzzle)
    page.screenshot(path=str(artifacts / "solved-desktop.png"))


def test_hint_highlights_and_undo(
    page: Any, base_url: str, nine: tuple[sudokit.Grid, sudokit.Grid], artifacts: Path
) -> None:
    puzzle, solution = nine
    open_puzzle(page, base_url, puzzle)
    show_hint(page)
    technique = page.text_content("#hint-technique")
    step = page.evaluate("window.sudokit.state.steps[0]")
    (r, c, d), *_ = step["placements"] or [[0, 0, 0]]
    assert step["cells"]
    first_cell = f"r{step['cells'][0][0]}c{step['cells'][0][1]}"
    # Graded: first the technique and the area only (units shaded, no cell, no answer) ...
    nudge = str(page.text_content("#hint-text"))
    assert technique
    assert technique in nudge
    assert step["units"]
    assert step["units"][0] in nudge
    assert first_cell not in nudge
    assert page.locator("#board rect.hint-unit").count() >= 1
    assert page.locator("#board rect.hint-cell, #board rect.hint-place").count() == 0
    assert page.locator("#hint-apply").is_hidden()
    # ... then the cells involved, then the answer.
    page.click("#hint-more")
    assert first_cell in str(page.text_content("#hint-text"))
    assert page.locator("#board text.digit.ghost").count() == 0
    page.click("#hint-more")
    text = str(page.text_content("#hint-text"))
    assert text == step["text"]
    assert page.locator("#hint-more").is_hidden()
    # The board shows the step: its cells shaded, the placement as a ghost digit.
    assert page.locator("#board rect.hint-cell, #board rect.hint-place").count() >= 1
    if d:
        assert solution[(r - 1) * 9 + c - 1] == d
        assert page.locator(f'#board rect.hint-place[data-cell="{r - 1},{c - 1}"]').count() == 1
        assert page.locator("#board text.digit.ghost").count() == 1
    page.screenshot(path=str(artifacts / "hint-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "hint-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 860})

    page.click("#hint-apply")
    assert page.locator("#hint-box").is_hidden()
    if d:
        assert cell_text(page, r - 1, c - 1) == str(d)
    after = game_values(page)
    page.focus("#board")
    page.keyboard.press("Control+z")
    assert game_values(page) == list(puzzle.cells)
    page.keyboard.press("Control+y")
    assert game_values(page) == after


def test_notes_undo_redo_and_reload_keeps_progress(
    page: Any, base_url: str, nine: tuple[sudokit.Grid, sudokit.Grid]
) -> None:
    puzzle, solution = nine
    open_puzzle(page, base_url, puzzle)
    empty = [i for i in range(81) if not puzzle[i]]
    first, second = empty[0], empty[1]
    page.click(f'#board rect[data-cell="{first // 9},{first % 9}"]')
    page.keyboard.press(str(solution[first]))
    assert game_values(page)[first] == solution[first]
    page.keyboard.press("Delete")
    assert game_values(page)[first] == 0
    page.keyboard.press("Control+z")
    assert game_values(page)[first] == solution[first]
    # Candidate mode: Space toggles it, digits then toggle pencil marks.
    page.click(f'#board rect[data-cell="{second // 9},{second % 9}"]')
    page.keyboard.press(" ")
    assert page.get_attribute("#btn-notes", "aria-pressed") == "true"
    page.keyboard.press("1")
    page.keyboard.press("2")
    marks = page.evaluate("window.sudokit.state.game.marks")
    assert marks[second] == 0b11
    assert page.locator("#board text.mark").count() == 2
    page.keyboard.press(" ")
    page.wait_for_timeout(1100)  # let the timer tick
    page.reload()
    page.wait_for_selector('#board[data-size="9"] rect.cell')
    assert game_values(page)[first] == solution[first]
    assert page.evaluate("window.sudokit.state.game.marks")[second] == 0b11
    assert page.evaluate("window.sudokit.state.game.undoStack.length") >= 3
    assert page.evaluate("window.sudokit.state.game.elapsed") >= 1


def test_shared_url_opens_the_puzzle(browser_context: Any, base_url: str, artifacts: Path) -> None:
    six = sudokit.generate(size=6, seed=7).puzzle
    tab = browser_context.new_page()
    try:
        tab.goto(f"{base_url}/favicon.svg")
        tab.evaluate("localStorage.clear()")
        open_puzzle(tab, base_url, six)
        shown = [
            (d.get_attribute("data-cell"), d.text_content())
            for d in tab.locator("#board text.digit.given").all()
        ]
        expected = [(f"{i // 6},{i % 6}", str(v)) for i, v in enumerate(six.cells) if v]
        assert shown == expected
        assert "6×6" in str(tab.text_content("#puzzle-label"))
        # The app keeps the URL in step with the puzzle, so sharing it shares the puzzle.
        assert str(six) in tab.url
    finally:
        tab.close()


def test_sixteen_with_letters_and_explanation(page: Any, base_url: str, artifacts: Path) -> None:
    made = sudokit.generate(size=16, seed=3)
    open_puzzle(page, base_url, made.puzzle)
    letters = {str(t) for t in page.locator("#board text.digit.given").all_text_contents()}
    assert letters & set("ABCDEFG")
    page.click("#btn-auto")
    assert page.locator("#board text.mark").count() > 100
    page.screenshot(path=str(artifacts / "sixteen-desktop.png"))
    page.click("#opt-numbers + span")
    numbers = set(page.locator("#board text.digit.given").all_text_contents())
    assert "16" in numbers or "10" in numbers
    # Two digits typed quickly make one number; letters still work.
    cell = next(i for i in range(256) if not made.puzzle[i])
    page.click(f'#board rect[data-cell="{cell // 16},{cell % 16}"]')
    page.keyboard.press("1")
    page.keyboard.press("6")
    assert game_values(page)[cell] == 16
    page.keyboard.press("Delete")
    page.keyboard.press("c")
    assert game_values(page)[cell] == 12


def test_explain_steps_and_new_game(
    page: Any, base_url: str, nine: tuple[sudokit.Grid, sudokit.Grid], artifacts: Path
) -> None:
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    total = open_explanation(page)
    assert total >= 81 - puzzle.clues
    page.click("#hint-next")
    page.click("#hint-next")
    assert str(page.text_content("#hint-pos")).startswith("3 /")
    page.click("#btn-theme")
    assert page.get_attribute("html", "data-theme") == "dark"
    page.wait_for_timeout(300)  # let the buttons' colour transitions end
    page.screenshot(path=str(artifacts / "explain-dark-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "explain-dark-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 860})
    page.click("#btn-theme")

    page.click("#btn-new")
    page.select_option("#new-size", "4")
    page.select_option("#new-difficulty", "")
    page.click("#new-go")
    page.wait_for_selector('#board[data-size="4"] rect.cell')
    values = game_values(page)
    assert len(values) == 16
    assert 4 <= sum(1 for v in values if v) < 16
    page.click("#timer")
    assert page.locator("#board .pause-text").count() == 1
    page.click("#timer")
    assert page.locator("#board .pause-text").count() == 0


def test_import_export_and_mistakes(
    page: Any, base_url: str, nine: tuple[sudokit.Grid, sudokit.Grid]
) -> None:
    puzzle, solution = nine
    open_puzzle(page, base_url, sudokit.generate(size=4, seed=1).puzzle)
    paste_import(page, sudokit.formats.dumps(puzzle, "ss"))
    page.wait_for_selector('#board[data-size="9"] rect.cell')
    assert game_values(page) == list(puzzle.cells)

    page.click("#btn-export")
    page.select_option("#export-format", "picture")
    expected = sudokit.formats.dumps(puzzle, "picture")
    page.wait_for_function(
        "want => document.getElementById('export-text').value === want", arg=expected
    )
    page.keyboard.press("Escape")

    page.click("#opt-mistakes + span")
    cell = next(i for i in range(81) if not puzzle[i])
    wrong = next(
        d for d in range(1, 10) if d != solution[cell] and d not in peers_digits(puzzle, cell)
    )
    page.click(f'#board rect[data-cell="{cell // 9},{cell % 9}"]')
    page.keyboard.press(str(wrong))
    page.wait_for_selector(f'#board rect.wrong[data-cell="{cell // 9},{cell % 9}"]')
    page.keyboard.press(str(solution[cell]))
    assert page.locator("#board rect.wrong").count() == 0


def peers_digits(puzzle: sudokit.Grid, cell: int) -> set[int]:
    return {puzzle[p] for p in puzzle.shape.peers[cell]}


def test_newcomer_gets_a_generated_puzzle(page: Any, base_url: str, artifacts: Path) -> None:
    page.goto(f"{base_url}/")
    page.wait_for_selector('#board[data-size="9"] text.digit.given')
    puzzle = sudokit.Grid(bytes(page.evaluate("window.sudokit.state.game.givens")))
    assert sudokit.is_unique(puzzle)
    assert str(puzzle) in page.url  # the URL already shares it
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / "start-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "start-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 860})
