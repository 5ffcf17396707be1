"""Hints beside the player's own centre marks: partial marks are notes, auto notes are lists.

A pair written in a cell (Snyder style) says where the player is looking, not every digit the
cell may hold: a hint must help from the real candidates there and say, as information, where
the marks leave out a digit it uses. Marks the app filled (auto notes, or a hint's Apply) are
the cell's full candidate list and still count as one: a candidate removed from them by mistake
is a mistake. Puzzles come from fixed seeds and the expected steps from the library.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pageutil import AXE, advanced_to_eliminations, audit, open_puzzle, show_hint, state

import sudokit

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def nine() -> sudokit.Grid:
    """A 9x9 whose first hint is a Hidden Single in a cell of six candidates."""
    return sudokit.generate(size=9, seed=2024, symmetry="rot180").puzzle


def click_cell(page: Any, n: int, cell: int) -> None:
    page.click(f'#board rect[data-cell="{cell // n},{cell % n}"]')


def type_centre_marks(page: Any, n: int, cell: int, digits: list[int]) -> None:
    """Select *cell*, turn notes on (centre marks) and type *digits* there, then notes off."""
    click_cell(page, n, cell)
    assert page.text_content("#kind-label") == "Centre"
    page.click("#btn-notes")
    for d in digits:
        page.keyboard.press(str(d))
    page.click("#btn-notes")
    assert state(page, f"s.game.marks[{cell}]") == sum(1 << (d - 1) for d in digits)


def hint_levels(page: Any) -> list[tuple[str, str]]:
    """Ask for a hint and step it up to its answer: the text and marks note at each level."""
    show_hint(page)
    shown = []
    while True:
        note = page.locator("#hint-note")
        text = str(note.text_content()) if note.is_visible() else ""
        shown.append((str(page.text_content("#hint-text")), text))
        if not page.locator("#hint-more").is_visible():
            return shown
        page.click("#hint-more")


def test_a_partial_pair_gets_a_real_hint_and_a_kind_note(
    page: Any, base_url: str, nine: Any
) -> None:
    expected = sudokit.hint(nine)
    ((cell, digit),) = expected.placements
    real = sudokit.Candidates.from_grid(nine).digits(cell)
    pair = [d for d in real if d != digit][:2]  # true notes that leave out the answer
    assert len(pair) == 2
    open_puzzle(page, base_url, nine)
    type_centre_marks(page, 9, cell, pair)
    levels = hint_levels(page)
    step = state(page, "s.steps[0]")
    assert step["technique"] == expected.technique != "Mistake"
    assert step["placements"] == [[cell // 9 + 1, cell % 9 + 1, digit]]
    assert levels[-1][0] == expected.text
    name = f"r{cell // 9 + 1}c{cell % 9 + 1}"
    # Said kindly, as information; the cell is named only once the hint shows the cells.
    assert levels[0][1] == "Some of your marks leave out digits that are still possible."
    for _, note in levels[1:]:
        assert note == f"Your marks in {name} leave out {digit}, which is still possible there."
    assert page.locator("#hint-apply").is_visible()
    page.click("#hint-apply")
    assert state(page, f"s.game.values[{cell}]") == digit
    # The other cells' marks are untouched, and the hint counted once.
    assert state(page, "s.game.hinted") == 1


def test_auto_notes_still_count_as_the_full_list(page: Any, base_url: str, nine: Any) -> None:
    expected = sudokit.hint(nine)
    ((cell, digit),) = expected.placements
    open_puzzle(page, base_url, nine)
    page.click("#btn-auto")
    show_hint(page)
    assert state(page, "s.steps[0].technique") == expected.technique
    page.click("#hint-close")
    # Taking the answer out of an auto-noted cell is a mistake in a full candidate list.
    click_cell(page, 9, cell)
    page.click("#btn-notes")
    page.keyboard.press(str(digit))
    assert not state(page, f"s.game.marks[{cell}]") & (1 << (digit - 1))
    show_hint(page)
    step = state(page, "s.steps[0]")
    assert step["technique"] == "Mistake"
    assert step["cells"] == [[cell // 9 + 1, cell % 9 + 1]]
    assert not page.locator("#hint-note").is_visible()


def test_apply_beside_notes_makes_progress(page: Any, base_url: str) -> None:
    """A hint's eliminations outlive Apply when the player has notes elsewhere: the next hint
    is a new step, never the same one again."""
    grid = advanced_to_eliminations()
    first = sudokit.hint(grid)
    assert first.eliminations
    assert not first.placements
    touched = {c for c, _ in first.eliminations} | set(first.cells)
    spare = next(c for c in range(81) if not grid[c] and c not in touched)
    open_puzzle(page, base_url, grid)
    notes = list(sudokit.Candidates.from_grid(grid).digits(spare)[:2])
    pair = sum(1 << (d - 1) for d in notes)
    type_centre_marks(page, 9, spare, notes)
    seen = []
    for k in range(3):
        show_hint(page)
        while page.locator("#hint-more").is_visible():
            page.click("#hint-more")
        step = state(page, "s.steps[0]")
        key = json.dumps([step["technique"], step["eliminations"], step["placements"]])
        assert key not in seen, f"the same hint twice: {key}"
        seen.append(key)
        assert step["technique"] != "Mistake"
        page.click("#hint-apply")
        if k == 0:  # the notes cell, which the step left alone, keeps the player's pair
            assert state(page, f"s.game.marks[{spare}]") == pair


def test_saved_marks_keep_their_kind(page: Any, base_url: str, nine: Any) -> None:
    """A reload keeps notes as notes; a save from before the two kinds holds full lists when
    every open cell is marked (as auto notes leave it), else notes."""
    expected = sudokit.hint(nine)
    ((cell, digit),) = expected.placements
    real = sudokit.Candidates.from_grid(nine).digits(cell)
    open_puzzle(page, base_url, nine)
    type_centre_marks(page, 9, cell, [d for d in real if d != digit][:2])
    page.reload()
    page.wait_for_selector('#board[data-size="9"] text.digit')
    show_hint(page)
    assert state(page, "s.steps[0].technique") == expected.technique
    page.click("#hint-close")
    # An older save: auto notes everywhere, the answer taken out of one cell by hand.
    page.click("#btn-auto")
    entry = page.evaluate("JSON.parse(localStorage.getItem('sudokit.games.v2'))[0]")
    game = entry["game"]
    game["marks"][cell] &= ~(1 << (digit - 1))
    del game["fullList"]
    for snapshot in game["undo"] + game["redo"]:
        snapshot.pop("f", None)
    page.goto(f"{base_url}/favicon.svg")  # no app here to save over the stored game
    page.evaluate(
        "e => localStorage.setItem('sudokit.games.v2', JSON.stringify([e]))",
        {**entry, "game": game},
    )
    page.goto(f"{base_url}/")
    page.wait_for_function("window.sudokit && window.sudokit.state.game")
    show_hint(page)
    assert state(page, "s.steps[0].technique") == "Mistake"
    page.click("#hint-close")
    # Undo goes back past the auto notes, to the pair alone: notes again.
    page.click("#btn-undo")
    assert state(page, "s.game.marks.filter(m => m).length") == 1
    show_hint(page)
    assert state(page, "s.steps[0].technique") == expected.technique


@pytest.mark.skipif(not AXE.exists(), reason="no axe-core (npm ci --prefix tests/browser)")
def test_axe_audit_hint_with_a_marks_note(page: Any, base_url: str, nine: Any) -> None:
    expected = sudokit.hint(nine)
    ((cell, digit),) = expected.placements
    real = sudokit.Candidates.from_grid(nine).digits(cell)
    open_puzzle(page, base_url, nine)
    type_centre_marks(page, 9, cell, [d for d in real if d != digit][:2])
    problems = {}
    for theme in ("light", "dark"):
        if page.get_attribute("html", "data-theme") != theme:
            page.click("#btn-theme")
        for label, size in (("1366x900", (1366, 900)), ("390x844", (390, 844))):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(250)  # colour transitions end
            show_hint(page)
            page.click("#hint-more")
            assert page.locator("#hint-note").is_visible()
            problems[f"{theme} {label}"] = audit(page)
            page.click("#hint-close")
    page.set_viewport_size({"width": 1280, "height": 860})
    bad = {k: v for k, v in problems.items() if v}
    assert not bad, json.dumps(bad, indent=1)
