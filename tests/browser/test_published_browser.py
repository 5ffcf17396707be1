"""Every rule kind of the published corpus, played in the app: one real community puzzle a
kind (tests/data/variants/published*.jsonl, the smallest that sudokit reads) is pasted into
the Import dialog as published (a link or the puzzle's text), its kind's mark is on the board,
the published solution typed in wins, and the print view of the player's grid shows those
digits. All of them in one page, one after another: the browser suite is CI's slowest part.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from pageutil import SYMBOLS, paste_import

import sudokit
from sudokit import formats
from support import published_records

pytestmark = pytest.mark.browser


#: Where the board draws each kind's mark. The kinds the server draws (POST /api/rules-layer)
#: are copied into ``g.kinds`` (lines, clues) and ``g.kinds-shades`` (shaded cells) with the
#: kind as a class; those board.js draws itself are listed here (a jigsaw's region borders:
#: see _marks); a kind of the whole grid has nothing to draw and is said in the rules panel
#: instead (SAID).
DRAWN = {
    "kropki": "g.rules-over circle.dot",
    "xv": "g.rules-over text.xv",
    "thermo": "g.rules-under circle.thermo-bulb",
    "parity": "g.rules-under rect.even, #board g.rules-under circle.odd",
    "killer": "g.rules-under g.cage",
    "windoku": "g.rules-under rect.window",
    "x": "g.lines line.diag",
}
#: The kinds of the whole grid (no mark): the rules panel's sentence that names each.
SAID = {
    "antiknight": "Anti-knight:",
    "antiking": "Anti-king:",
    "nonconsecutive": "Non-consecutive:",
    "disjointgroups": "Disjoint groups:",
    "selftaxicab": "Self-taxicab:",
}


def _records() -> list[dict[str, Any]]:
    """The read, quick records with a rule kind, each with its grid and open cells."""
    out = []
    for record in published_records():
        if record["reads"] and not record.get("slow") and record["kinds"]:
            record["grid"] = formats.parse_one(record["puzzle"])
            record["open"] = record["grid"].cells.count(0)
            out.append(record)
    return out


def _form(record: dict[str, Any]) -> str:
    """How the record's puzzle is pasted: a link, or the puzzle's text (JSON)."""
    return "link" if record["puzzle"].startswith("http") else "text"


def one_a_kind(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For every kind the smallest record that has it (fewest open cells, then the shortest
    text), less those whose kinds the others chosen all have (a puzzle of several kinds
    plays for each) unless it is the only link or the only text among them: fewer imports,
    no kind left out, links and texts both pasted."""
    kinds = sorted({k for r in records for k in r["kinds"]})
    chosen: list[dict[str, Any]] = []
    for kind in kinds:
        best = min(
            (r for r in records if kind in r["kinds"]),
            key=lambda r: (r["open"], len(r["puzzle"])),
        )
        if all(best is not c for c in chosen):
            chosen.append(best)
    for record in sorted(chosen, key=lambda r: -r["open"]):
        others = [c for c in chosen if c is not record]
        covered = {k for c in others for k in c["kinds"]}
        if set(record["kinds"]) <= covered and _form(record) in {_form(c) for c in others}:
            chosen.remove(record)
    assert {k for c in chosen for k in c["kinds"]} == set(kinds)
    return chosen


def _marks(kinds: list[str], n: int) -> dict[str, str]:
    """For each of *kinds* the CSS selector of its mark on the board, or the words of its
    sentence in the rules panel (``said:`` first) for a kind of the whole grid."""
    out = {}
    for kind in kinds:
        if kind in SAID:
            out[kind] = f"said:{SAID[kind]}"
        elif kind == "jigsaw":
            # The grid's 2(n - 1) lines across the board come first (thick ones on a box's
            # edge); a jigsaw's region borders follow them, cell edge by cell edge.
            out[kind] = f"#board g.lines line.thick:nth-of-type(n+{2 * n - 1})"
        else:
            at = DRAWN.get(kind) or f"g.kinds .{kind}, #board g.kinds-shades .{kind}"
            out[kind] = f"#board {at}"
    return out


#: The kinds whose marks are missing: a said kind missing from the rules panel, a drawn
#: one with no element on the board.
MISSING = """marks => Object.keys(marks).filter(kind => marks[kind].startsWith('said:')
  ? !document.getElementById('rules-words').textContent.includes(marks[kind].slice(5))
  : !document.querySelector(marks[kind]))"""

#: Type each digit once in all its cells: the cells selected as Ctrl-click selects many
#: (state.selected and state.multi), then the digit's key pressed on the board, which the
#: app's keyboard handler places in every selected cell.
PLAY = """byDigit => { const s = window.sudokit.state, board = document.getElementById('board');
  board.focus();
  for (const [key, cells] of byDigit) {
    s.selected = cells[0];
    s.multi = new Set(cells.slice(1));
    board.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  } }"""


def _play(page: Any, grid: sudokit.Grid, solution: str) -> dict[str, str]:
    """Enter *solution* in every open cell, a digit at a time (PLAY). Returns the digits
    entered by cell ("r,c")."""
    n = grid.n
    entered = {}
    by_digit: dict[str, list[int]] = {}
    for cell in range(grid.shape.ncells):
        if not grid[cell]:
            by_digit.setdefault(solution[cell], []).append(cell)
            entered[f"{cell // n},{cell % n}"] = solution[cell]
    page.evaluate(PLAY, sorted(by_digit.items()))
    return entered


def _printed_digits(page: Any, times: int) -> dict[str, str]:
    """Print, "My grid" (window.print counts its calls: this is the *times*-th), then the
    player's digits the print view shows, by cell ("r,c")."""
    page.click("#btn-print")
    page.click("#print-mine")
    assert page.evaluate("window.printed") == times
    page.emulate_media(media="print")
    try:
        return dict(
            page.evaluate(
                """() => Object.fromEntries([...document.querySelectorAll(
                     '#board text.digit.user')].filter(e => e.checkVisibility())
                     .map(e => [e.dataset.cell, e.textContent]))"""
            )
        )
    finally:
        page.emulate_media(media="screen")


def _wait_drawn(page: Any, marks: dict[str, str]) -> None:
    """Wait up to 10 s for every mark of the puzzle just pasted. The wait on the game's state
    cannot tell two puzzles of no givens apart (the same puzzle line): after one such puzzle
    it can pass before the next one is imported, and a clean-clone CI run then found the three
    kinds of "Little Killers Matter" missing. What is still missing is reported by the caller."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"marks => ({MISSING})(marks).length === 0", arg=marks, timeout=10_000
        )


def test_one_published_puzzle_a_kind_imported_drawn_won_printed(page: Any, base_url: str) -> None:
    chosen = one_a_kind(_records())
    assert len({k for c in chosen for k in c["kinds"]}) >= 30  # the corpus's kinds, all read
    assert {_form(c) for c in chosen} == {"link", "text"}
    page.goto(f"{base_url}/")
    page.wait_for_selector('#board[data-size="9"] rect.cell')
    page.evaluate("() => { window.print = () => { window.printed = (window.printed || 0) + 1; }; }")
    failed: list[str] = []
    for k, record in enumerate(chosen, 1):
        grid: sudokit.Grid = record["grid"]
        solution = record["solution"]
        paste_import(page, record["puzzle"])
        page.wait_for_function(
            "line => { const s = window.sudokit.state; return s.game && s.game.puzzleLine === line"
            " && (!s.game.geo.kinds.length || (s.kinds && s.kinds.game === s.game)); }",
            arg=str(grid),
        )
        name = record["name"]
        marks = _marks(record["kinds"], grid.n)
        _wait_drawn(page, marks)
        for kind in page.evaluate(MISSING, marks):
            failed.append(f"{name}: {kind} not drawn")
        entered = _play(page, grid, solution)
        page.wait_for_selector("#banner:not([hidden])")
        won = page.evaluate(
            "sym => { const g = window.sudokit.state.game;"
            " return [g.finished, [...g.values].map(d => sym[d - 1]).join('')]; }",
            SYMBOLS,
        )
        assert won == [True, solution], name
        assert "solved" in str(page.text_content("#banner-text")), name
        page.keyboard.press("Escape")  # the banner closes
        if _printed_digits(page, k) != entered:
            failed.append(f"{name}: the print view lacks digits")
    assert not failed, failed
