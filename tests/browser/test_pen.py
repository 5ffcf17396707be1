"""The pen (lines through the cells and along their edges), the print of the player's grid,
the display settings, and what a long generation says: played in the browser."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from pageutil import audit, open_puzzle, state, touch_drag

import sudokit

pytestmark = pytest.mark.browser

GAMES_KEY = "sudokit.games.v2"


@pytest.fixture(scope="module")
def nine() -> tuple[sudokit.Grid, sudokit.Grid]:
    made = sudokit.generate(size=9, seed=2024, symmetry="rot180")
    return made.puzzle, sudokit.solution(made.puzzle)


def at(page: Any, x: float, y: float) -> tuple[float, float]:
    """The page position of board position (x, y), in cells from the grid's top-left corner."""
    got = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('board');
            const p = new DOMPoint(x * 60, y * 60).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y]; }""",
        [x, y],
    )
    return got[0], got[1]


def drag(page: Any, *points: tuple[float, float]) -> None:
    """A mouse stroke through board *points* (in cells), a few moves between each two."""
    page.mouse.move(*at(page, *points[0]))
    page.mouse.down()
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        for k in range(1, 5):
            page.mouse.move(*at(page, x0 + (x1 - x0) * k / 4, y0 + (y1 - y0) * k / 4))
    page.mouse.up()


def centre(r: int, c: int, n: int = 9) -> int:
    """The pen lattice point of cell (r, c)'s centre (PEN LINES in game.js)."""
    return (2 * r + 1) * (2 * n + 1) + 2 * c + 1


def corner(r: int, c: int, n: int = 9) -> int:
    """The pen lattice point of the corner above and left of cell (r, c)."""
    return 2 * r * (2 * n + 1) + 2 * c


def pen(page: Any) -> list[list[int]]:
    return sorted(state(page, "s.game.pen"))


def test_the_pen_draws_erases_undoes_and_is_kept(page: Any, base_url: str, nine: Any) -> None:
    """A drag from cell to cell (a diagonal too) draws through the centres, one from near a
    corner along the edges; a stroke over a line erases it; each stroke is one undo step;
    the lines are saved and come back after a reload; Delete with nothing selected erases
    them all."""
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    page.click("#btn-pen")
    assert page.get_attribute("#btn-pen", "aria-pressed") == "true"
    assert page.text_content("#mode-label") == "Pen"
    drag(page, (0.5, 0.5), (1.5, 1.5), (2.5, 1.5))  # r1c1, r2c2 (diagonal), r2c3
    through = [[centre(0, 0), centre(1, 1)], [centre(1, 1), centre(1, 2)]]
    assert pen(page) == through
    assert page.locator("#board line.pen-line.centre").count() == 2
    assert state(page, "s.selected") is None  # the pen draws, it does not select
    drag(page, (3.05, 0.05), (4, 0.03), (5, 0.02), (5.02, 1))  # along the top edge, then down
    along = [
        [corner(0, 3), corner(0, 4)],
        [corner(0, 4), corner(0, 5)],
        [corner(0, 5), corner(1, 5)],
    ]
    assert pen(page) == sorted(through + along)
    assert page.locator("#board line.pen-line.edge").count() == 3
    assert "pen line down-right" in str(page.get_attribute("#cell-0-0", "aria-label"))
    drag(page, (0.5, 0.5), (1.5, 1.5))  # over the diagonal: erased
    assert pen(page) == sorted([through[1], *along])
    page.keyboard.press("Control+z")
    assert pen(page) == sorted(through + along)
    page.keyboard.press("Control+z")  # the edge stroke, one step
    assert pen(page) == through
    page.keyboard.press("Control+y")
    page.reload()
    page.wait_for_selector("#board line.pen-line")
    assert pen(page) == sorted(through + along)
    assert page.locator("#board line.pen-line").count() == 5
    page.click("#btn-pen")
    page.focus("#board")
    page.keyboard.press("Delete")  # nothing selected: every line
    assert pen(page) == []
    page.keyboard.press("Control+z")
    assert len(pen(page)) == 5


def test_the_pen_by_keyboard_and_old_saves(page: Any, base_url: str, nine: Any) -> None:
    """Q turns the pen on and off; Shift+arrow draws to the next cell and over it erases;
    Delete erases the selected cell's lines only. A save from before the pen (no pen field,
    undo steps without lines) loads, and its undo works. axe finds nothing serious."""
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    page.focus("#board")
    page.keyboard.press("ArrowDown")  # r1c1
    page.keyboard.press("q")
    assert page.get_attribute("#btn-pen", "aria-pressed") == "true"
    assert page.get_attribute("#btn-notes", "aria-pressed") == "false"
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    assert pen(page) == [[centre(0, 0), centre(0, 1)], [centre(0, 1), centre(1, 1)]]
    assert state(page, "s.selected") == 10
    label = str(page.get_attribute("#cell-0-1", "aria-label"))
    assert "pen line left, down" in label
    assert audit(page) == []
    page.keyboard.press("Shift+ArrowUp")  # back over the last line: erased
    assert pen(page) == [[centre(0, 0), centre(0, 1)]]
    page.keyboard.press("ArrowLeft")  # r1c1, one end of the line left
    page.keyboard.press("ArrowDown")  # r2c1: no line there
    page.keyboard.press("Delete")
    assert len(pen(page)) == 1
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Delete")
    assert pen(page) == []
    page.keyboard.press("q")
    assert page.text_content("#mode-label") == "Digits"

    # A save of an earlier version: no pen, undo steps without one.
    entry = page.evaluate(f"JSON.parse(localStorage.getItem('{GAMES_KEY}'))[0]")
    page.goto(f"{base_url}/favicon.svg")  # the app saves its game as it goes: gone first
    game = {k: v for k, v in entry["game"].items() if k != "pen"}
    game["undo"] = [{k: v for k, v in s.items() if k != "p"} for s in game["undo"]]
    page.evaluate(
        "([key, e]) => localStorage.setItem(key, JSON.stringify([e]))",
        [GAMES_KEY, {**entry, "game": game}],
    )
    page.goto(f"{base_url}/")
    page.wait_for_function("window.sudokit && window.sudokit.state.game")
    assert pen(page) == []
    before = state(page, "s.game.undoStack.length")
    assert before > 0
    page.focus("#board")
    page.keyboard.press("Control+z")
    assert state(page, "s.game.undoStack.length") == before - 1
    assert pen(page) == []


def test_print_my_grid_shows_digits_marks_colours_and_pen(
    page: Any, base_url: str, nine: Any
) -> None:
    """Print asks which: the player's grid as it stands (the page's print view: givens set
    apart from the player's digits, corner and centre marks, colours, pen lines) or the blank
    puzzle (the server's PDF)."""
    puzzle, solution = nine
    open_puzzle(page, base_url, puzzle)
    empty = [i for i in range(81) if not puzzle[i]]
    a, b, c = empty[:3]
    page.click(f'#board rect[data-cell="{a // 9},{a % 9}"]')
    page.keyboard.press(str(solution[a]))
    page.click(f'#board rect[data-cell="{b // 9},{b % 9}"]')
    page.keyboard.press("Shift+Digit3")
    page.keyboard.press("Control+Digit5")
    page.click(f'#board rect[data-cell="{c // 9},{c % 9}"]')
    page.keyboard.press("Control+Shift+Digit4")
    page.keyboard.press("q")
    page.keyboard.press("Shift+ArrowRight")
    page.evaluate(
        """() => { window.print = () => { window.printed = (window.printed || 0) + 1; };
                   window.open = (url) => { window.opened = url; }; }"""
    )
    page.click("#btn-hint")  # a hint on the board is not the player's: it goes first
    page.wait_for_selector("#hint-box:not([hidden])")
    page.click("#btn-print")
    page.wait_for_selector("#dlg-print[open]")
    assert audit(page) == []
    page.click("#print-mine")
    assert page.evaluate("window.printed") == 1
    assert page.locator("#hint-box").is_hidden()
    assert page.locator("#dlg-print[open]").count() == 0
    page.emulate_media(media="print")
    try:
        seen = page.evaluate(
            """() => { const css = (sel, p) => [...document.querySelectorAll(sel)]
                .filter(e => e.checkVisibility()).map(e => getComputedStyle(e)[p]);
              return { given: css('#board text.digit.given', 'fill'),
                       givenWeight: css('#board text.digit.given', 'fontWeight'),
                       user: css('#board text.digit.user', 'fill'),
                       userWeight: css('#board text.digit.user', 'fontWeight'),
                       userText: [...document.querySelectorAll('#board text.digit.user')]
                         .map(e => e.textContent),
                       corner: [...document.querySelectorAll('#board text.corner')]
                         .filter(e => e.checkVisibility()).map(e => e.textContent),
                       centre: [...document.querySelectorAll('#board text.mark')]
                         .filter(e => e.checkVisibility()).map(e => e.textContent),
                       tints: css('#board rect.tint.t4', 'fill'),
                       pen: css('#board line.pen-line', 'stroke'),
                       panel: getComputedStyle(document.getElementById('pad')).display }; }"""
        )
    finally:
        page.emulate_media(media="screen")
    assert seen["userText"] == [str(solution[a])]
    assert len(seen["user"]) == 1
    assert set(seen["given"]) == {"rgb(0, 0, 0)"}
    assert seen["user"][0] != "rgb(0, 0, 0)"
    assert int(seen["userWeight"][0]) < int(seen["givenWeight"][0])
    assert seen["corner"] == ["3"]
    assert seen["centre"] == ["5"]
    assert len(seen["tints"]) == 1
    assert len(seen["pen"]) == 1
    assert seen["panel"] == "none"
    # The blank puzzle is the server's PDF, as before.
    page.click("#btn-print")
    page.click("#print-blank")
    assert str(page.evaluate("window.opened")).startswith("/api/print.pdf?")


def test_display_settings_are_applied_and_kept(page: Any, base_url: str, nine: Any) -> None:
    """Hide the timer (it still counts, the button still pauses), outline the selection
    instead of filling it, keep centre marks small; saved with the other settings."""
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    cell = next(i for i in range(81) if not puzzle[i])
    page.click(f'#board rect[data-cell="{cell // 9},{cell % 9}"]')
    page.keyboard.press("Control+Digit4")
    big = float(str(page.get_attribute("#board text.mark", "font-size")))
    for box in ("#opt-timer", "#opt-outline", "#opt-small-marks"):
        page.check(box)
    assert page.locator("#time").is_hidden()
    assert page.is_visible("#timer")
    small = float(str(page.get_attribute("#board text.mark", "font-size")))
    assert small < big * 0.7
    selected = page.locator("#board rect.cell.selected")
    assert selected.evaluate("e => getComputedStyle(e).fill") != page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--selected')"
    )
    assert page.locator("#board .sel-outline line").count() == 4
    saved = json.loads(page.evaluate("localStorage.getItem('sudokit.settings.v1')"))
    assert [saved["hideTimer"], saved["outline"], saved["smallMarks"]] == [True, True, True]
    page.reload()
    page.wait_for_selector("#board rect.cell")
    assert page.is_checked("#opt-outline")
    assert page.locator("#time").is_hidden()
    assert audit(page) == []


def test_a_long_generation_says_so_and_a_timeout_gives_advice(page: Any, base_url: str) -> None:
    """A 16x16 killer can take most of the server's time limit: the dialog says so before,
    counts the seconds while it waits, and a timeout (504) ends in one line of advice, not
    the server's words."""
    page.goto(f"{base_url}/")
    page.wait_for_selector('#board[data-size="9"] rect.cell')
    limit = page.evaluate("fetch('/api/info').then(r => r.json()).then(i => i.limits.timeout)")
    held: list[Any] = []
    page.route("**/api/generate", lambda route: held.append(route))
    page.click("#btn-new")
    page.select_option("#new-size", "16")
    assert page.locator("#new-note").is_hidden()
    page.check('#new-variants input[data-variant="killer"]')
    page.wait_for_selector("#new-note:not([hidden])")
    assert f"{limit:g} s" in str(page.text_content("#new-note"))
    page.click("#new-go")
    page.wait_for_selector("#new-progress:not([hidden])")
    assert f"stops after {limit:g} s" in str(page.text_content("#new-progress"))
    assert page.locator("#new-note").is_hidden()  # the progress line says it now
    page.wait_for_selector("#new-progress:has-text('1 s so far')")  # it counts
    assert audit(page) == []
    while not held:
        page.wait_for_timeout(50)
    held[0].fulfill(
        status=504,
        content_type="application/json",
        body=json.dumps({"error": f"the work took longer than the server's limit of {limit:g} s"}),
    )
    page.wait_for_selector("#new-error:not([hidden])")
    text = str(page.text_content("#new-error"))
    assert "took longer" not in text
    assert "try again" in text
    assert "smaller size" in text
    assert "\n" not in text
    assert page.locator("#new-progress").is_hidden()
    assert page.is_visible("#new-note")
    assert page.text_content("#new-go") == "Generate"


def test_a_finger_draws_with_the_pen(phone: Any, base_url: str, nine: Any) -> None:
    """On a touch screen the pen follows the finger (the board holds it: the page does not
    pan, and the cells it crosses are not selected)."""
    puzzle, _ = nine
    open_puzzle(phone, base_url, puzzle)
    phone.tap("#btn-pen")
    scrolled = phone.evaluate("scrollY")
    touch_drag(phone, at(phone, 0.5, 0.5), at(phone, 3.5, 0.5))
    phone.wait_for_function("window.sudokit.state.game.pen.length === 3")
    assert pen(phone) == [[centre(0, c), centre(0, c + 1)] for c in range(3)]
    assert phone.evaluate("scrollY") == scrolled
    assert state(phone, "s.selected") is None
