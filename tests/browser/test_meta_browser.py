"""An imported puzzle keeps its title, author and rules text, and the setter's solution: shown
over and under the board, kept by a save, a reload, a share link, an export and a print link;
a published solution that breaks a rule is said to, and sudokit's own solution wins then.

The named puzzle is "Piggly Wiggly" (a 6x6 jigsaw by Kinnison) of
tests/data/variants/published.jsonl, with its published solution.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from pageutil import AXE, audit, paste_import, play_by_keyboard, state

import sudokit
from sudokit.formats import fpuzzles
from support import published_records

pytestmark = pytest.mark.browser


def _published(name: str) -> dict[str, Any]:
    for entry in published_records():
        if entry["name"] == name:
            return entry
    raise LookupError(name)


def _shown(page: Any) -> dict[str, str]:
    """The title, author and both rules texts as the page shows them."""
    return dict(
        page.evaluate(
            """() => Object.fromEntries(['puzzle-title', 'puzzle-author', 'rules-setter',
                 'rules-words'].map(id => [id, document.getElementById(id).checkVisibility()
                 ? document.getElementById(id).textContent : '']))"""
        )
    )


def test_a_named_puzzle_keeps_its_words_through_save_reload_share_export_print(
    page: Any, base_url: str, artifacts: Path
) -> None:
    """Old code: the app dropped a link's title, author and rules (and a jigsaw showed no
    rules at all), and checked the player against its own search, never the setter's grid."""
    entry = _published("Piggly Wiggly")
    page.goto(f"{base_url}/")
    page.wait_for_selector('#board[data-size="9"] rect.cell')
    paste_import(page, entry["puzzle"])
    page.wait_for_selector("#puzzle-head:not([hidden])")
    shown = _shown(page)
    assert shown["puzzle-title"] == "Piggly Wiggly"
    assert shown["puzzle-author"] == "by Kinnison"
    assert shown["rules-setter"].startswith("Normal Irregular 6x6 Sudoku rules apply.")
    assert "outlined region" in shown["rules-words"]  # a jigsaw's rule in sudokit's words
    assert state(page, "s.game.meta.setter") is True
    assert state(page, "s.game.solution.join('')") == entry["solution"].replace(" ", "")
    page.screenshot(path=str(artifacts / "meta-imported.png"))

    # the new elements pass axe, every rule (best practices too), and the page its audit
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "() => axe.run({include: [['#puzzle-head'], ['#rules']]})"
        ".then(r => r.violations.map(v => v.id))"
    )
    assert found == []
    assert audit(page) == []

    page.click("#btn-games")
    assert "Piggly Wiggly by Kinnison" in str(page.text_content("#games-list"))
    page.keyboard.press("Escape")

    page.reload()
    page.wait_for_selector("#puzzle-head:not([hidden])")
    assert _shown(page) == shown
    assert state(page, "s.game.meta.setter") is True

    # the share link alone (no saved game) brings all of it back
    link = page.evaluate("location.href")
    page.evaluate("localStorage.clear()")
    page.goto(f"{base_url}/favicon.svg")
    page.goto(link)
    page.wait_for_selector("#puzzle-head:not([hidden])")
    assert _shown(page) == shown
    assert state(page, "s.game.solution.join('')") == entry["solution"].replace(" ", "")

    page.click("#btn-export")
    page.select_option("#export-format", "fpuzzles")
    page.wait_for_function("document.getElementById('export-text').value.startsWith('http')")
    record = sudokit.formats.parse_one_record(page.input_value("#export-text"))
    assert record.fields["title"] == "Piggly Wiggly"
    assert record.fields["author"] == "Kinnison"
    assert record.fields["ruleset"].startswith("Normal Irregular 6x6")
    assert record.fields["solution"] == entry["solution"].replace(" ", "")
    page.keyboard.press("Escape")

    page.evaluate("window.open = (url) => { window.printed = url; }")
    page.click("#btn-print")
    page.click("#print-blank")
    query = parse_qs(urlparse(page.evaluate("window.printed")).query)
    assert query["title"] == ["Piggly Wiggly"]
    assert query["author"] == ["Kinnison"]
    assert query["ruleset"][0].startswith("Normal Irregular 6x6")


def test_a_wrong_published_solution_is_said_and_sudokits_wins(phone: Any, base_url: str) -> None:
    """A link whose solution breaks a rule (two digits of a row swapped, so two columns
    repeat) says so, and the player who types the real solution wins; its long rules text
    is cut short on a 390 px phone until "Show all rules", and never wider than the screen."""
    made = sudokit.generate(size=9, seed=11)
    solution = sudokit.solution(made.puzzle)
    wrong = bytearray(solution.cells)
    a, b = next((a, a + 1) for a in range(80) if not made.puzzle[a] and not made.puzzle[a + 1])
    wrong[a], wrong[b] = wrong[b], wrong[a]
    rules = "Normal sudoku rules apply. " + "Every row, column and box holds 1 to 9 once. " * 20
    link = fpuzzles.dumps(
        made.puzzle,
        solution=sudokit.Grid(bytes(wrong), made.puzzle.shape),
        fields={"title": "Misprint", "author": "Nobody", "ruleset": rules},
    )
    phone.goto(f"{base_url}/")
    phone.wait_for_selector('#board[data-size="9"] rect.cell')
    paste_import(phone, link)
    phone.wait_for_selector('#toast:has-text("The setter\'s solution breaks a given or a rule")')
    assert state(phone, "s.game.meta.setter || false") is False
    assert state(phone, "s.game.solution") is None
    more = phone.locator("#rules-more")
    assert more.is_visible()
    assert more.get_attribute("aria-expanded") == "false"
    cut = phone.evaluate("document.getElementById('rules-body').clientHeight")
    more.click()
    assert more.get_attribute("aria-expanded") == "true"
    whole = phone.evaluate("document.getElementById('rules-body').clientHeight")
    assert whole > 2 * cut  # all of it, not the six lines or so it was cut to
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    play_by_keyboard(phone, made.puzzle, solution)
    phone.wait_for_selector("#banner:not([hidden])")
