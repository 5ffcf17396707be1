"""The play app held to what players of the best Sudoku apps expect, and to WCAG 2.1 AA.

Each test here failed on the app before the fix it guards (one commit a defect). Puzzles come
from fixed seeds and their answers from the library, never from the app.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from pageutil import (
    SYMBOLS,
    centre_of,
    killer_of,
    open_explanation,
    open_puzzle,
    paste_import,
    play_by_keyboard,
    state,
    touch_drag,
)

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
    # The same game solved again is not a second win, and the card does not come back: a
    # message says why (after a restart too, the same puzzle counts once).
    assert wins(page) == 1
    assert page.locator("#banner").is_hidden()
    page.wait_for_selector("#toast:has-text('Solved again')")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#btn-restart")
    play_by_keyboard(page, puzzle, solution)
    page.wait_for_selector("#toast:has-text('Solved again')")
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


#: Board text that fails WCAG 1.4.3 against what is drawn under it (its cell's fill, the ring
#: behind a pencil mark); text under 24 px (18.66 px bold) needs 4.5:1, larger text 3:1.
LOW_CONTRAST_JS = """
() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const over = (top, alpha, under) => [0, 1, 2].map((k) => top[k] * alpha + under[k] * (1 - alpha));
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => v / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const svg = document.getElementById('board');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const rings = [...svg.querySelectorAll('circle.ring')];
  const out = [];
  for (const t of svg.querySelectorAll('.digits text, .marks text')) {
    const box = t.getBBox();
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const cell = document.getElementById(`cell-${Math.floor(cy / 60)}-${Math.floor(cx / 60)}`);
    let bg = rgb(getComputedStyle(cell).fill);
    for (const ring of rings) {
      if (Math.hypot(ring.cx.baseVal.value - cx, ring.cy.baseVal.value - cy) > 3) continue;
      const s = getComputedStyle(ring);
      bg = over(rgb(s.fill), parseFloat(s.opacity), bg);
    }
    const s = getComputedStyle(t);
    const fg = over(rgb(s.fill), parseFloat(s.opacity), bg);
    const px = parseFloat(s.fontSize) * scale;
    const large = px >= 24 || (px >= 18.66 && Number(s.fontWeight) >= 700);
    const r = ratio(fg, bg);
    if (r < (large ? 3 : 4.5)) {
      out.push(`${t.getAttribute('class')} on ${cell.getAttribute('class')}: `
        + `${r.toFixed(2)} at ${px.toFixed(1)}px`);
    }
  }
  return [...new Set(out)];
}
"""


@pytest.fixture(scope="module")
def hard() -> tuple[sudokit.Grid, sudokit.Grid]:
    made = sudokit.generate(size=9, seed=7, difficulty="hard", symmetry="rot180")
    return made.puzzle, sudokit.solution(made.puzzle)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_board_text_contrast_in_every_highlight(
    page: Any, base_url: str, hard: Any, theme: str
) -> None:
    """Digits and pencil marks keep 4.5:1 (3:1 when large) on every cell highlight a player
    meets: selected, peers, same digit (and the ring behind same-digit marks), conflicts, a
    hint's cells, its placement and its eliminations; on a 360 px phone, where the board's
    digits are under 24 px."""
    puzzle, solution = hard
    page.emulate_media(color_scheme=theme)
    page.set_viewport_size({"width": 360, "height": 640})
    try:
        open_puzzle(page, base_url, puzzle)
        assert page.get_attribute("html", "data-theme") == theme
        n = 9
        empty = [i for i in range(81) if not puzzle[i]]

        def click(cell: int) -> None:
            page.click(f'#board rect[data-cell="{cell // n},{cell % n}"]')

        seen: dict[str, list[str]] = {}
        page.click("#btn-auto")
        click(empty[0])
        page.keyboard.press(str(solution[empty[0]]))  # a digit of the player's, selected
        seen["own digit selected, same-digit marks"] = page.evaluate(LOW_CONTRAST_JS)
        click(empty[1])
        page.keyboard.press("x")  # corner marks
        for d in "123":
            page.keyboard.press(d)
        page.keyboard.press("z")
        seen["empty cell selected, its marks"] = page.evaluate(LOW_CONTRAST_JS)
        wrong = next(
            puzzle[p] for p in puzzle.shape.peers[empty[2]] if puzzle[p]
        )  # a digit a peer holds
        click(empty[2])
        page.keyboard.press(str(wrong))
        click(next(i for i in range(81) if puzzle[i]))
        seen["conflict, given selected"] = page.evaluate(LOW_CONTRAST_JS)
        page.keyboard.press("Control+z")
        total = open_explanation(page)
        kinds: set[str] = set()
        for k in range(total):
            step = state(page, "s.steps[s.stepIndex]")
            kinds |= {key for key in ("placements", "eliminations") if step[key]}
            seen[f"explanation step {k + 1}"] = page.evaluate(LOW_CONTRAST_JS)
            if kinds == {"placements", "eliminations"}:
                break
            page.click("#hint-next")
        assert kinds == {"placements", "eliminations"}
        bad = {k: v for k, v in seen.items() if v}
        assert not bad, json.dumps(bad, indent=1)
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})


#: Records every text put into a live region, and whether the region was rendered then (a
#: region under display:none is not in the accessibility tree: what it receives is not said).
LIVE_LOG_JS = """
window.liveLog = [];
new MutationObserver((records) => {
  for (const rec of records) {
    const node = rec.target.nodeType === 1 ? rec.target : rec.target.parentElement;
    const region = node && node.closest('[aria-live], [role=status], [role=alert], [role=log]');
    if (!region || !region.textContent.trim()) continue;
    window.liveLog.push({ text: region.textContent, rendered: region.getClientRects().length > 0 });
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def said(page: Any, text: str) -> bool:
    """Whether *text* reached a screen reader: put into a rendered live region, or shown in an
    alert (an element of role alert is announced when it appears)."""
    page.wait_for_timeout(100)  # the app's own live region is written on the next frame
    log = page.evaluate("window.liveLog")
    if any(text in entry["text"] and entry["rendered"] for entry in log):
        return True
    return bool(
        page.evaluate(
            """t => [...document.querySelectorAll('[role=alert]')]
                 .some(e => e.textContent.includes(t) && e.getClientRects().length > 0)""",
            text,
        )
    )


def test_status_messages_are_announced(page: Any, base_url: str, four: Any) -> None:
    """WCAG 4.1.3: the toast's messages and the import dialog's error reach a screen reader."""
    puzzle, _ = four
    page.add_init_script(LIVE_LOG_JS)
    open_puzzle(page, base_url, puzzle)
    page.evaluate("window.liveLog = []")
    page.click('#pad button[data-digit="1"]')  # no cell selected yet
    page.wait_for_selector("#toast:has-text('Select a cell first')")
    assert said(page, "Select a cell first")
    page.click("#btn-check")
    page.wait_for_selector("#toast:has-text('exactly one solution')")
    assert said(page, "This puzzle has exactly one solution.")
    page.click("#btn-import")
    page.fill("#import-text", "12x")
    page.click("#import-go")
    page.wait_for_selector("#import-error:not([hidden])")
    assert said(page, str(page.text_content("#import-error")))


def test_states_visible_in_forced_colours(page: Any, base_url: str, four: Any) -> None:
    """Forced colours (Windows high contrast) replace every background with the system's: the
    switches (their track and knob), the pressed Notes button and the colour swatches, drawn
    by backgrounds alone, vanished or looked all alike."""
    page.emulate_media(forced_colors="active")
    try:
        open_puzzle(page, base_url, four[0])
        looks = """() => {
          const bg = (e, pseudo) => getComputedStyle(e, pseudo).backgroundColor;
          const on = document.getElementById('opt-autoremove');
          const off = document.getElementById('opt-mistakes');
          return { checked: on.checked, unchecked: !off.checked,
                   onTrack: bg(on), onKnob: bg(on, '::after'),
                   offTrack: bg(off), offKnob: bg(off, '::after'),
                   offBorder: getComputedStyle(off).borderTopStyle,
                   notes: bg(document.getElementById('btn-notes')),
                   swatches: [...document.querySelectorAll('.swatch')].map((s) => bg(s)) };
        }"""
        before = page.evaluate(looks)
        assert before["checked"]
        assert before["unchecked"]
        # Each switch shows a knob on its track, and "on" looks unlike "off".
        assert before["onKnob"] != before["onTrack"]
        assert before["offKnob"] != before["offTrack"]
        assert before["offBorder"] != "none" or before["offTrack"] != page.evaluate(
            "getComputedStyle(document.querySelector('.settings')).backgroundColor"
        )
        assert (before["onTrack"], before["onKnob"]) != (before["offTrack"], before["offKnob"])
        # Nine colours and "no colour": ten swatches that look different.
        assert len(set(before["swatches"])) == 10
        page.click("#btn-notes")
        assert state(page, "s.notes") is True
        assert page.evaluate(looks)["notes"] != before["notes"]
    finally:
        page.emulate_media(forced_colors="none")


def test_reduced_motion_stops_the_transitions(page: Any, base_url: str, four: Any) -> None:
    """With prefers-reduced-motion the buttons and switches change at once (no slide, no
    fade, no press movement)."""
    page.emulate_media(reduced_motion="reduce")
    try:
        open_puzzle(page, base_url, four[0])
        durations = page.evaluate(
            """() => ['#btn-new', '#opt-mistakes', '.actions .btn'].flatMap((sel) => {
                 const e = document.querySelector(sel);
                 return [getComputedStyle(e).transitionDuration,
                         getComputedStyle(e, '::after').transitionDuration];
               })"""
        )
        assert all(float(d) == 0 for part in durations for d in part.rstrip("s").split("s,")), (
            durations
        )
    finally:
        page.emulate_media(reduced_motion="no-preference")


@pytest.fixture(scope="module")
def nine() -> tuple[sudokit.Grid, sudokit.Grid]:
    made = sudokit.generate(size=9, seed=2024, symmetry="rot180")
    return made.puzzle, sudokit.solution(made.puzzle)


def test_a_toast_never_takes_a_tap_meant_for_the_pad(page: Any, base_url: str, nine: Any) -> None:
    """On a 360x640 phone the digit pad sits at the bottom of the screen, where the toast
    shows its message for 2.6 s (5 s for errors): a tap there hit the toast, not the digit."""
    puzzle, _ = nine
    page.set_viewport_size({"width": 360, "height": 640})
    try:
        open_puzzle(page, base_url, puzzle)
        page.evaluate("document.getElementById('pad').scrollIntoView({ block: 'end' })")
        page.click('#pad button[data-digit="5"]')  # no cell selected: a toast says so
        page.wait_for_selector("#toast:has-text('Select a cell first')")
        covered = page.evaluate(
            """() => [...document.querySelectorAll('#pad button, .toolbar button, .actions button')]
                 .filter((b) => {
                   const r = b.getBoundingClientRect();
                   const x = r.left + r.width / 2, y = r.top + r.height / 2;
                   if (y < 0 || y > innerHeight) return false;
                   return !b.contains(document.elementFromPoint(x, y));
                 }).map((b) => b.id || b.textContent.trim())"""
        )
        assert not covered, covered
        cell = next(i for i in range(81) if not puzzle[i])
        page.click(f'#board rect[data-cell="{cell // 9},{cell % 9}"]', position={"x": 5, "y": 5})
        page.evaluate("document.getElementById('pad').scrollIntoView({ block: 'end' })")
        page.mouse.click(
            *page.evaluate(
                """() => { const r = document.querySelector('#pad button[data-digit="4"]')
                             .getBoundingClientRect();
                           return [r.left + r.width / 2, r.top + r.height / 2]; }"""
            )
        )
        assert state(page, f"s.game.values[{cell}]") == 4
    finally:
        page.set_viewport_size({"width": 1280, "height": 860})


#: The toast on screen: its box, how many lines its text takes, whether the text runs out of
#: the box, whether a tap at its centre lands on it, and its border (its edge in forced colours).
TOAST_RECT = """() => {
    const t = document.getElementById('toast');
    const r = t.getBoundingClientRect();
    const text = document.createRange();
    text.selectNodeContents(t);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { left: r.left, right: r.right, width: r.width, screen: innerWidth,
             lines: text.getClientRects().length, overflow: t.scrollWidth > t.clientWidth,
             taken: t.contains(hit), edge: getComputedStyle(t).borderTopStyle }; }"""


@pytest.mark.parametrize("look", ["light", "dark", "forced"])
def test_a_toast_is_one_line_where_it_fits(page: Any, base_url: str, nine: Any, look: str) -> None:
    """A toast was centred by left: 50% and a transform, which capped its width at half the
    screen: on a 360x640 phone 'Loaded the shared puzzle' took two lines, 180 px wide, and a
    share link the clipboard refused ran out of its box. A message now takes one line where it
    fits; a longer one wraps at the screen's width less a margin, even a link with no spaces;
    centred, letting taps through, and with an edge in forced colours (its background is the
    page's there)."""
    page.set_viewport_size({"width": 360, "height": 640})
    page.emulate_media(
        color_scheme="dark" if look == "dark" else "light",
        forced_colors="active" if look == "forced" else "none",
    )
    try:
        open_puzzle(page, base_url, nine[0])
        page.wait_for_selector("#toast:has-text('Loaded the shared puzzle')")
        toast = page.evaluate(TOAST_RECT)
        assert toast["lines"] == 1, toast
        assert abs(toast["left"] + toast["right"] - toast["screen"]) <= 1, toast
        assert not toast["taken"], toast
        if look == "forced":
            assert toast["edge"] != "none", toast
        # Text with no space to wrap at (a link: Share link without a clipboard showed one
        # here before it had its own dialog) still wraps inside the toast.
        page.evaluate(
            "() => { const t = document.getElementById('toast');"
            " t.textContent = location.href; t.hidden = false; }"
        )
        page.wait_for_selector("#toast:has-text('http://')")
        toast = page.evaluate(TOAST_RECT)
        assert toast["lines"] > 1, toast
        assert not toast["overflow"], toast
        assert toast["left"] >= 8, toast
        assert toast["screen"] - toast["right"] >= 8, toast
        assert toast["width"] >= toast["screen"] - 40, toast  # as wide as the margins allow
        assert abs(toast["left"] + toast["right"] - toast["screen"]) <= 1, toast
        assert not toast["taken"], toast
    finally:
        page.emulate_media(color_scheme="light", forced_colors="none")
        page.set_viewport_size({"width": 1280, "height": 860})


def heard(page: Any, text: str) -> bool:
    """Whether *text* is in the page's accessibility tree, where a screen reader reaches it
    (an open modal dialog leaves the page outside it out: it is inert)."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    return any(
        not node.get("ignored") and text in str(node.get("name", {}).get("value", ""))
        for node in nodes
    )


def test_a_toast_is_never_behind_a_dialog(page: Any, base_url: str, four: Any) -> None:
    """A toast showed under an open dialog's backdrop, dimmed, and out of a screen reader's
    reach (a modal dialog makes the page outside it inert): "Copied" from the export dialog's
    Copy button, or a toast still on screen when a dialog opened. A toast that comes while a
    dialog is open now shows in the dialog, above its backdrop, and is heard; one on screen
    when a dialog opens goes."""
    open_puzzle(page, base_url, four[0])
    page.evaluate("navigator.clipboard.writeText = () => Promise.resolve()")
    page.click("#btn-share")
    page.wait_for_selector("#toast:has-text('Link copied')")
    page.click("#btn-export")
    page.wait_for_selector("#dlg-export[open]")
    assert page.locator("#toast").is_hidden()
    assert not heard(page, "Sudoku grid")  # the page behind the dialog is out of reach
    page.click("#export-copy")
    page.wait_for_selector("#toast:has-text('Copied')")
    assert heard(page, "Copied")
    page.click("#dlg-export button[value=cancel]")
    page.click("#btn-share")  # with the dialog gone, a toast shows on the page again
    page.wait_for_selector("#toast:has-text('Link copied')")
    assert heard(page, "Link copied")


def test_settings_work_when_storage_refuses(page: Any, base_url: str, four: Any) -> None:
    """Storage full or blocked (private windows, a site-data policy): the game plays on without
    saving, and so must the settings: the theme switch did nothing and threw."""
    puzzle, solution = four
    open_puzzle(page, base_url, puzzle)
    page.evaluate(
        """() => { Storage.prototype.setItem = () => {
                     throw new DOMException('the quota is exceeded', 'QuotaExceededError'); }; }"""
    )
    theme = page.get_attribute("html", "data-theme")
    page.click("#btn-theme")
    assert page.get_attribute("html", "data-theme") != theme
    cell = next(i for i in range(16) if not puzzle[i])
    wrong = next(d for d in range(1, 5) if d != solution[cell])
    page.click("label:has(#opt-mistakes)")
    page.click(f'#board rect[data-cell="{cell // 4},{cell % 4}"]')
    page.keyboard.press(str(wrong))
    page.wait_for_selector(f'#board rect[data-cell="{cell // 4},{cell % 4}"].wrong')


@pytest.mark.parametrize(
    ("fragment", "says"),
    [
        ("p=abc", "This link has no valid puzzle"),
        ("p=" + "." * 81 + "&b=7x7", "This link has no valid puzzle"),
        ("p=" + "." * 81 + "&b=3x3&v=%7Bbad", "not valid JSON"),
    ],
)
def test_a_broken_link_says_why(page: Any, base_url: str, fragment: str, says: str) -> None:
    """A shared link whose puzzle cannot be opened gives the player a playable game and a
    message saying why: the message was replaced at once by "Generating a puzzle…"."""
    page.goto(f"{base_url}/#{fragment}")
    page.wait_for_function(
        "window.sudokit && window.sudokit.state.game && !window.sudokit.state.game.meta.editing"
        " && document.querySelectorAll('#board rect.cell').length > 0"
    )
    page.wait_for_selector(f"#toast.error:has-text('{says}')", timeout=4000)


def test_nothing_changes_the_board_while_paused(page: Any, base_url: str, four: Any) -> None:
    """The pause cover hides the board; undo, redo, auto notes and clear notes changed it
    under the cover (typing and hints were already refused)."""
    puzzle, solution = four
    open_puzzle(page, base_url, puzzle)
    empty = [i for i in range(16) if not puzzle[i]]
    page.click(f'#board rect[data-cell="{empty[0] // 4},{empty[0] % 4}"]')
    page.keyboard.press(str(solution[empty[0]]))
    page.click(f'#board rect[data-cell="{empty[1] // 4},{empty[1] % 4}"]')
    page.keyboard.press(f"Control+Digit{solution[empty[1]]}")  # a candidate
    page.keyboard.press("Control+z")  # ... taken back: something to redo
    before = state(page, "[s.game.values, s.game.marks, s.game.undoStack.length]")
    page.keyboard.press("p")
    assert state(page, "s.paused") is True
    page.focus("#board")
    for key in ("Control+z", "Control+y"):
        page.keyboard.press(key)
    page.click("#btn-auto")
    page.click("#btn-clear-notes")
    assert state(page, "[s.game.values, s.game.marks, s.game.undoStack.length]") == before
    page.click("#timer")  # resume
    page.focus("#board")
    page.keyboard.press("Control+z")
    assert state(page, f"s.game.values[{empty[0]}]") == 0


def test_toggle_buttons_expose_their_state(page: Any, base_url: str, four: Any) -> None:
    """WCAG 4.1.2: the dark-mode button and the timer's pause button are toggles whose state
    was shown by colours and an icon only; a screen reader now hears pressed / not pressed."""
    open_puzzle(page, base_url, four[0])
    dark = page.get_attribute("html", "data-theme") == "dark"
    theme = page.get_by_role("button", name="Dark mode")
    assert theme.get_attribute("aria-pressed") == str(dark).lower()
    theme.click()
    assert theme.get_attribute("aria-pressed") == str(not dark).lower()
    theme.click()
    timer = page.get_by_role("button", name="Pause")
    assert timer.get_attribute("aria-pressed") == "false"
    page.focus("#board")
    page.keyboard.press("p")
    assert timer.get_attribute("aria-pressed") == "true"
    timer.click()
    assert state(page, "s.paused") is False
    assert timer.get_attribute("aria-pressed") == "false"


def test_conflicts_and_mistakes_not_by_colour_alone(page: Any, base_url: str, nine: Any) -> None:
    """WCAG 1.4.1 and 1.3.1: a digit that breaks a rule, or (with "Show mistakes") differs
    from the solution, was shown by red alone: no shape on the board, nothing in the cell's
    name. Now each such cell gets a drawn flag (an inset outline) and its name says so."""
    puzzle, solution = nine
    open_puzzle(page, base_url, puzzle)
    n = 9
    cell = next(i for i in range(81) if not puzzle[i])
    peer = next(p for p in puzzle.shape.peers[cell] if puzzle[p])
    page.click(f'#board rect[data-cell="{cell // n},{cell % n}"]')
    page.keyboard.press(str(puzzle[peer]))
    name = str(page.get_attribute(f"#cell-{cell // n}-{cell % n}", "aria-label"))
    assert name.endswith(f"placed {puzzle[peer]}, breaks a rule")
    name = str(page.get_attribute(f"#cell-{peer // n}-{peer % n}", "aria-label"))
    assert name.endswith(f"given {puzzle[peer]}, breaks a rule")
    flagged = page.evaluate(
        "[...document.querySelectorAll('#board .flags [data-cell]')].map(e => e.dataset.cell)"
    )
    assert sorted(flagged) == sorted(f"{c // n},{c % n}" for c in (cell, peer))
    page.keyboard.press("Control+z")
    assert page.locator("#board .flags [data-cell]").count() == 0
    # A digit no peer holds, but not the solution's: "wrong" once mistakes are shown.
    other = next(
        i
        for i in range(81)
        if not puzzle[i]
        and any(
            d != solution[i] and all(puzzle[p] != d for p in puzzle.shape.peers[i])
            for d in range(1, 10)
        )
    )
    wrong = next(
        d
        for d in range(1, 10)
        if d != solution[other] and all(puzzle[p] != d for p in puzzle.shape.peers[other])
    )
    page.click("label:has(#opt-mistakes)")
    page.click(f'#board rect[data-cell="{other // n},{other % n}"]')
    page.keyboard.press(str(wrong))
    page.wait_for_selector(f'#board rect[data-cell="{other // n},{other % n}"].wrong')
    name = str(page.get_attribute(f"#cell-{other // n}-{other % n}", "aria-label"))
    assert name.endswith(f"placed {wrong}, wrong")
    assert page.evaluate(
        "[...document.querySelectorAll('#board .flags [data-cell]')].map(e => e.dataset.cell)"
    ) == [f"{other // n},{other % n}"]


def _contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two computed rgb() colours."""

    def lum(c: str) -> float:
        v = [float(x) / 255 for x in re.findall(r"[\d.]+", c)[:3]]
        v = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_switches_and_swatches_non_text_contrast(
    page: Any, base_url: str, four: Any, theme: str
) -> None:
    """WCAG 1.4.11: a switch's track (on and off) stands out 3:1 from its card and its knob
    3:1 from the track; the "no colour" swatch's ring 3:1 from the panel. An off switch was a
    1.2:1 grey track on white (1.4:1 in dark), the "no colour" swatch a faint circle."""
    page.emulate_media(color_scheme=theme)
    open_puzzle(page, base_url, four[0])
    got = page.evaluate(
        """() => {
          const css = (e, p, pseudo) => getComputedStyle(e, pseudo)[p];
          const card = css(document.querySelector('.settings'), 'backgroundColor');
          const on = document.getElementById('opt-autoremove');
          const off = document.getElementById('opt-mistakes');
          const none = document.querySelector('.swatch.t0');
          const bg = 'backgroundColor';
          return { card, onTrack: css(on, bg), onKnob: css(on, bg, '::after'),
                   offTrack: css(off, bg), offKnob: css(off, bg, '::after'),
                   panel: getComputedStyle(document.body).backgroundColor,
                   swatchRing: css(none, 'borderTopColor') };
        }"""
    )
    for track, knob in (("onTrack", "onKnob"), ("offTrack", "offKnob")):
        assert _contrast(got[track], got["card"]) >= 3, (track, got)
        assert _contrast(got[knob], got[track]) >= 3, (knob, got)
    assert _contrast(got["swatchRing"], got["panel"]) >= 3, got


def test_jigsaw_cells_name_their_region(page: Any, base_url: str) -> None:
    """WCAG 1.3.1: a jigsaw's regions were drawn only (thick lines); a cell's name gave its row
    and column, from which a classic box follows but a jigsaw region does not. The names now
    say the region, and the regions they say are the puzzle's."""
    made = sudokit.generate(size=6, seed=3, jigsaw=True)
    puzzle, regions = made.puzzle, made.puzzle.shape.regions
    symbols = "".join(SYMBOLS[k] for k in regions)
    page.goto(f"{base_url}/#p={puzzle}&r={symbols}")
    page.wait_for_function(
        "line => window.sudokit && window.sudokit.state.game"
        " && window.sudokit.state.game.puzzleLine === line",
        arg=str(puzzle),
    )
    names = page.eval_on_selector_all(
        "#board rect.cell", "cells => cells.map((c) => c.getAttribute('aria-label'))"
    )
    said = [re.search(r", region (\d+)", name) for name in names]
    assert all(said), names
    groups: dict[str, set[int]] = {}
    for cell, match in enumerate(said):
        assert match is not None
        groups.setdefault(match.group(1), set()).add(cell)
    expected: dict[int, set[int]] = {}
    for cell, k in enumerate(regions):
        expected.setdefault(k, set()).add(cell)
    assert sorted(map(sorted, groups.values())) == sorted(map(sorted, expected.values()))


def test_windoku_cells_name_their_window(page: Any, base_url: str) -> None:
    """WCAG 1.3.1: a windoku's four extra units were shaded only; the names of the cells in
    them now say which window, and the windows said are the puzzle's."""
    made = sudokit.generate(shape=sudokit.Shape(3, 3, windoku=True), seed=1)
    puzzle, shape = made.puzzle, made.puzzle.shape
    windows = [set(shape.units[u]) for u, kind in enumerate(shape.unit_kinds) if kind == "window"]
    assert len(windows) == 4
    open_puzzle(page, base_url, puzzle)
    names = page.eval_on_selector_all(
        "#board rect.cell", "cells => cells.map((c) => c.getAttribute('aria-label'))"
    )
    groups: dict[str, set[int]] = {}
    for cell, name in enumerate(names):
        match = re.search(r", window (\d+)", name)
        if match:
            groups.setdefault(match.group(1), set()).add(cell)
    assert sorted(map(sorted, groups.values())) == sorted(map(sorted, windows))


def several_solutions(puzzle: sudokit.Grid) -> sudokit.Grid:
    """*puzzle* with givens taken away, in order, until it has more than one solution."""
    cells = bytearray(puzzle.cells)
    for i in range(puzzle.shape.ncells):
        cells[i] = 0
        fewer = sudokit.Grid(bytes(cells), puzzle.shape)
        if sudokit.count_solutions(fewer, limit=2) > 1:
            return fewer
    raise AssertionError("an empty grid has many solutions")


@pytest.mark.parametrize("kind", ["breaks a rule", "several solutions"])
def test_import_says_when_the_puzzle_has_no_one_answer(
    page: Any, base_url: str, nine: Any, kind: str
) -> None:
    """An imported puzzle whose givens break a rule, or that has several solutions, was
    announced as "Imported a 9x9 puzzle" and nothing more: the player found out at the end (or
    never). Now the import says it, as the Uniqueness button would."""
    puzzle, _ = nine
    line = str(puzzle)
    if kind == "breaks a rule":
        text, says = "11" + line[2:], "break a rule"
    else:
        text, says = str(several_solutions(puzzle)), "more than one solution"
        assert sudokit.count_solutions(sudokit.Grid.parse(text), limit=2) == 2
    open_puzzle(page, base_url, puzzle)
    paste_import(page, text)
    page.wait_for_function(
        "line => window.sudokit.state.game.puzzleLine === line", arg=text.replace("0", ".")
    )
    page.wait_for_selector(f"#toast.error:has-text('{says}')", timeout=4000)
    # A sound puzzle imports without a warning.
    paste_import(page, line)
    page.wait_for_selector("#toast:has-text('Imported a 9×9')")
    page.wait_for_timeout(500)
    assert "error" not in str(page.get_attribute("#toast", "class"))


def test_a_full_grid_that_is_not_solved_says_so(page: Any, base_url: str, four: Any) -> None:
    """Filling the last cell with a digit that breaks a rule gave no word: the grid sat full,
    with no completion card, and a screen-reader player could not tell why. Now a message
    says the grid is full but breaks a rule (once, not at every later change)."""
    puzzle, solution = four
    open_puzzle(page, base_url, puzzle)
    empty = [i for i in range(16) if not puzzle[i]]
    last = empty[-1]
    wrong = next(d for d in range(1, 5) if d != solution[last])
    for cell in empty:
        page.click(f'#board rect[data-cell="{cell // 4},{cell % 4}"]')
        page.keyboard.press(str(wrong if cell == last else solution[cell]))
    page.wait_for_selector("#toast.error:has-text('Every cell is filled')")
    assert state(page, "s.game.finished") is False
    page.evaluate("document.getElementById('toast').hidden = true")
    page.click('.swatch[data-colour="2"]')  # a later change says nothing again
    page.wait_for_timeout(200)
    assert page.locator("#toast").is_hidden()
    page.keyboard.press(str(solution[last]))
    page.wait_for_selector("#banner:not([hidden])")


def test_theme_follows_the_system_until_chosen(page: Any, base_url: str, four: Any) -> None:
    """With no theme chosen in the app, the board follows the system's light/dark setting
    when it changes (it did only at load); a theme chosen with the button stays."""
    page.emulate_media(color_scheme="light")
    try:
        open_puzzle(page, base_url, four[0])
        assert page.get_attribute("html", "data-theme") == "light"
        page.emulate_media(color_scheme="dark")
        page.wait_for_function("document.documentElement.dataset.theme === 'dark'", timeout=2000)
        page.click("#btn-theme")  # chosen: light, whatever the system says
        page.emulate_media(color_scheme="light")
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(100)
        assert page.get_attribute("html", "data-theme") == "light"
    finally:
        page.emulate_media(color_scheme="light")


def test_hint_box_in_view_on_a_phone(phone: Any, base_url: str, nine: Any) -> None:
    """On a 360x640 phone the hint box opened below the digit pad, half off the screen: the
    hint's text and its Apply / Close buttons needed a scroll nobody expects after tapping
    Hint. It now opens right under the toolbar, whole, with the board's top still in view (not
    under the sticky top bar either). It is there in the DOM too, so the focus order is the
    order on screen; a wide screen keeps it after the digit pad. Reduced motion: the page's
    smooth scrolls then end at once, and the taps below cannot race one (at load 11 a tap on
    "more" during one left the board 173 px above the screen)."""
    phone.emulate_media(reduced_motion="reduce")
    phone.set_viewport_size({"width": 360, "height": 640})
    puzzle, _ = nine
    open_puzzle(phone, base_url, puzzle)
    phone.tap("#btn-hint")
    phone.wait_for_selector("#hint-box:not([hidden])")
    assert_hint_box_whole_under_the_bar(phone)
    assert phone.evaluate("document.querySelector('.toolbar').nextElementSibling.id") == "hint-box"
    phone.tap("#hint-more")
    phone.tap("#hint-more")
    assert_hint_box_whole_under_the_bar(phone)
    phone.tap("#hint-apply")
    phone.wait_for_selector("#hint-box", state="hidden")
    phone.set_viewport_size({"width": 1280, "height": 860})
    # the layout's media-query listener moves the box, after the resize: wait for it (an
    # evaluate at once lost that race once in a clean-clone CI run, the other worker busy)
    phone.wait_for_function(
        "document.getElementById('pad').nextElementSibling?.id === 'hint-box'", timeout=5000
    )


def assert_hint_box_whole_under_the_bar(page: Any) -> None:
    """The hint box is whole on screen, and it and the board's top are below the top bar."""
    box = page.evaluate(HINT_BOX_RECT)
    assert box["top"] >= box["bar"], box
    assert box["bottom"] <= box["height"], box
    assert box["board"] >= box["bar"], box


#: Where the hint box, the board's top and the sticky top bar's bottom are on screen.
HINT_BOX_RECT = """() => {
    const r = document.getElementById('hint-box').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: innerHeight, scrolled: scrollY,
             board: document.getElementById('board').getBoundingClientRect().top,
             bar: document.querySelector('.topbar').getBoundingClientRect().bottom }; }"""


def test_a_long_hint_comes_into_view_and_goes_back(phone: Any, base_url: str, hard: Any) -> None:
    """A step too long for the room under the board on a 360x640 phone scrolls the page just
    far enough to show the box whole (at once with reduced motion), and Close scrolls back so
    the board is whole again."""
    phone.set_viewport_size({"width": 360, "height": 640})
    phone.emulate_media(reduced_motion="reduce")
    open_puzzle(phone, base_url, hard[0])
    # pressed from the page's top (a tap would scroll the button into view first, and the app
    # then remembers that place as where the page was)
    phone.evaluate("document.getElementById('btn-explain').click()")
    phone.wait_for_selector("#hint-pos:has-text('1 /')")
    longest = state(
        phone, "s.steps.reduce((k, x, i, all) => x.text.length > all[k].text.length ? i : k, 0)"
    )
    assert longest > 0
    assert len(state(phone, f"s.steps[{longest}].text")) > 200
    phone.evaluate(f"window.sudokit.state.stepIndex = {longest - 1}")
    phone.tap("#hint-next")
    box = phone.evaluate(HINT_BOX_RECT)
    assert box["scrolled"] > 0, box
    assert box["top"] >= box["bar"], box
    assert box["bottom"] <= box["height"], box
    assert box["height"] - box["bottom"] < 10, f"scrolled further than it takes: {box}"
    phone.tap("#hint-close")
    assert phone.evaluate("scrollY") == 0


def test_closing_the_hint_box_keeps_the_focus(page: Any, base_url: str, four: Any) -> None:
    """Close and Apply hide the hint box with the focused button in it, and "Show the answer"
    hides itself: the focus fell to the page's start, and the next Tab went to the top bar's
    first control. It goes on to Apply, and from Close or Apply to the board."""
    open_puzzle(page, base_url, four[0])
    for button in ("#hint-close", "#hint-apply"):
        page.focus("#btn-hint")
        page.keyboard.press("Enter")
        page.wait_for_selector("#hint-box:not([hidden])")
        page.focus("#hint-more")
        while page.locator("#hint-more").is_visible():
            page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "hint-apply"
        page.focus(button)
        page.keyboard.press("Enter")
        page.wait_for_selector("#hint-box", state="hidden")
        assert page.evaluate("document.activeElement.id") == "board", button


def test_explain_prev_and_next_keep_the_focus(page: Any, base_url: str, four: Any) -> None:
    """Explain steps' Next became disabled on reaching the last step with the focus on it (Prev
    on the first): the focus fell to the page's start and the next Tab went to the top bar.
    They are now unavailable (aria-disabled, dimmed) but keep the focus; pressing one then does
    nothing, and Tab goes on inside the box (WCAG 2.4.3)."""
    open_puzzle(page, base_url, four[0])
    total = open_explanation(page)
    assert total >= 2
    page.focus("#hint-next")
    for _ in range(total):  # one press more than it takes: the last does nothing
        page.keyboard.press("Enter")
    assert page.text_content("#hint-pos") == f"{total} / {total}"
    assert page.evaluate("document.activeElement.id") == "hint-next"
    assert page.get_attribute("#hint-next", "aria-disabled") == "true"
    assert page.get_attribute("#hint-prev", "aria-disabled") == "false"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "hint-apply"
    page.focus("#hint-prev")
    for _ in range(total):
        page.keyboard.press("Enter")
    assert page.text_content("#hint-pos") == f"1 / {total}"
    assert page.evaluate("document.activeElement.id") == "hint-prev"
    assert page.get_attribute("#hint-prev", "aria-disabled") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "hint-next"
    page.click("#hint-prev", force=True)  # a click at the first step does nothing either
    assert page.text_content("#hint-pos") == f"1 / {total}"


#: Holds the app's next /api/generate call until ``window.__answer()``, which answers it as
#: a busy server does; ``window.__calls`` counts the calls.
HOLD_GENERATE = """() => {
    const real = window.fetch;
    window.__calls = 0;
    window.fetch = (url, opts) => {
        if (!String(url).endsWith('/api/generate')) return real(url, opts);
        window.__calls += 1;
        return new Promise((resolve) => {
            window.__answer = () => resolve(new Response(
                JSON.stringify({error: 'the server is busy'}),
                {status: 503, headers: {'Content-Type': 'application/json'}}));
        });
    };
}"""


def focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement.id"))


def test_undo_redo_start_and_generate_keep_the_focus(page: Any, base_url: str, four: Any) -> None:
    """Undo pressed until its history was empty became disabled with the focus on it (Redo
    likewise), as did "Start playing" when a key changed the puzzle being entered and Generate
    while it generated: the focus fell to the page's start. They are now unavailable
    (aria-disabled, dimmed) but keep the focus, and pressing or clicking one does nothing."""
    puzzle, solution = four
    open_puzzle(page, base_url, puzzle)
    empty = [i for i in range(16) if not puzzle[i]][:2]
    for cell in empty:
        page.click(f'#board rect[data-cell="{cell // 4},{cell % 4}"]')
        page.keyboard.press(str(solution[cell]))
    played = state(page, "s.game.values")
    page.focus("#btn-undo")
    for key in ("Enter", "Space", "Enter"):  # one press more than it takes
        page.keyboard.press(key)
    assert state(page, "s.game.values") == list(puzzle.cells)
    assert focused(page) == "btn-undo"
    assert page.get_attribute("#btn-undo", "aria-disabled") == "true"
    page.click("#btn-undo", force=True)  # a click does nothing either
    assert state(page, "s.game.redoStack.length") == 2
    page.keyboard.press("Tab")
    assert focused(page) == "btn-redo"
    for _ in range(3):
        page.keyboard.press("Enter")
    assert state(page, "s.game.values") == played
    assert focused(page) == "btn-redo"
    assert page.get_attribute("#btn-redo", "aria-disabled") == "true"
    # The shortcuts act as before, from the unavailable button too.
    page.keyboard.press("Control+z")
    assert page.get_attribute("#btn-redo", "aria-disabled") == "false"
    page.keyboard.press("Control+y")
    assert state(page, "s.game.values") == played
    assert focused(page) == "btn-redo"

    # Your own puzzle: a key that makes it ambiguous again leaves "Start playing" focused.
    page.click("#btn-custom")
    for cell in (i for i in range(16) if puzzle[i]):
        page.click(f'#board rect[data-cell="{cell // 4},{cell % 4}"]')
        page.keyboard.press(str(puzzle[cell]))
    status = "document.getElementById('edit-status').textContent"
    page.wait_for_function(f"{status}.includes('exactly one')")
    page.focus("#edit-done")
    page.keyboard.press("Delete")  # the last given typed, erased: more than one solution
    page.wait_for_function(f"{status}.includes('more than one')")
    assert focused(page) == "edit-done"
    assert page.get_attribute("#edit-done", "aria-disabled") == "true"
    page.keyboard.press("Enter")
    assert state(page, "s.game.meta.editing") is True
    page.keyboard.press(str(puzzle[cell]))
    page.wait_for_function(f"{status}.includes('exactly one')")
    page.keyboard.press("Enter")
    assert state(page, "s.game.givens") == list(puzzle.cells)
    assert focused(page) == "board"  # the edit bar went away with the button

    # Generate, pressed, keeps the focus while it works and after the server says no; a
    # second press meanwhile asks for no second puzzle.
    page.evaluate(HOLD_GENERATE)
    page.click("#btn-new")
    page.focus("#new-go")
    page.keyboard.press("Enter")
    page.wait_for_function("window.__calls === 1")
    assert page.text_content("#new-go") == "Generating…"
    assert page.get_attribute("#new-go", "aria-disabled") == "true"
    assert focused(page) == "new-go"
    page.keyboard.press("Enter")
    page.evaluate("window.__answer()")
    page.wait_for_selector("#new-error:not([hidden])")
    assert page.evaluate("window.__calls") == 1
    assert focused(page) == "new-go"
    assert page.get_attribute("#new-go", "aria-disabled") == "false"


#: Holds the server's answer to the app's next /api/generate call until ``window.__answer()``.
#: As fetch does, the call fails at once with an AbortError when its signal aborts (and sets
#: ``window.__aborted``); ``window.__asked`` says that the call was made.
HOLD_ANSWER = """() => {
    const real = window.fetch;
    window.fetch = (url, opts = {}) => {
        if (!String(url).endsWith('/api/generate')) return real(url, opts);
        window.__asked = true;
        const answer = real(url, {...opts, signal: undefined});
        return new Promise((resolve, reject) => {
            window.__answer = () => answer.then(resolve, reject);
            if (opts.signal) opts.signal.addEventListener('abort', () => {
                window.__aborted = true;
                reject(opts.signal.reason);
            });
        });
    };
}"""


@pytest.mark.parametrize("cancel", ["button", "Escape"])
def test_cancelling_a_new_game_stops_it(page: Any, base_url: str, four: Any, cancel: str) -> None:
    """Cancel (or Escape) in the new-game dialog while it generated closed the dialog, and
    the game on screen was replaced all the same when the server answered, progress and all.
    Cancel now aborts the request: the game plays on, and the app is as it was before
    Generate was pressed (no toast, no busy cursor, Generate ready again)."""
    puzzle, solution = four
    open_puzzle(page, base_url, puzzle)
    cell = next(i for i in range(16) if not puzzle[i])
    page.click(f'#board rect[data-cell="{cell // 4},{cell % 4}"]')
    page.keyboard.press(str(solution[cell]))
    played = state(page, "s.game.values")
    page.evaluate(HOLD_ANSWER)
    page.click("#btn-new")
    page.select_option("#new-size", "9")
    page.click("#new-go")
    page.wait_for_function("window.__asked")
    assert page.text_content("#new-go") == "Generating…"
    if cancel == "button":
        page.click("#dlg-new button[value=cancel]")
    else:
        page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-new", state="hidden")
    page.evaluate("window.__answer()")  # the server's answer comes, unless it was aborted
    page.wait_for_function(
        "line => window.__aborted || window.sudokit.state.game.puzzleLine !== line",
        arg=str(puzzle),
    )
    assert state(page, "s.game.puzzleLine") == str(puzzle)
    assert state(page, "s.game.values") == played
    page.wait_for_function("document.getElementById('new-go').textContent === 'Generate'")
    assert page.get_attribute("#new-go", "aria-disabled") == "false"
    assert page.locator("#toast").is_hidden()
    assert "busy" not in str(page.get_attribute("body", "class"))
    page.click("#btn-new")  # opened again, the dialog is as it was, with no error
    assert page.locator("#new-error").is_hidden()


#: What of the board, the digit pad and the hint box is on screen, clear of the sticky top bar.
ON_SCREEN = """() => {
    const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
    const inView = (e) => { const r = e.getBoundingClientRect();
        return r.top >= bar - 0.5 && r.bottom <= innerHeight + 0.5
            && r.left >= -0.5 && r.right <= innerWidth + 0.5; };
    const board = document.getElementById('board').getBoundingClientRect();
    const box = document.getElementById('hint-box');
    return { board: inView(document.getElementById('board')),
             boardSize: [Math.round(board.width), Math.round(board.height)],
             pad: [...document.querySelectorAll('#pad button')].every(inView),
             hint: !box.hidden && inView(box),
             sideways: document.documentElement.scrollWidth > innerWidth,
             screen: [innerWidth, innerHeight], scrolled: scrollY }; }"""


@pytest.mark.parametrize("size", [(740, 360), (844, 390), (568, 320)])
def test_a_phone_held_sideways_shows_the_whole_board(
    phone: Any, base_url: str, hard: Any, size: tuple[int, int]
) -> None:
    """Held sideways, a phone got the phone layout's one column, which took the screen's width
    and not its height: on a 740x360 screen the board was 620 px tall, and the player never saw
    it whole. The board now sits beside the controls, whole under the top bar, with the digit
    pad on screen too; it stays whole while the controls scroll, and a hint or an explanation's
    longest step opens on screen beside it (whole, where the box is not taller than the room)."""
    width, height = size
    phone.set_viewport_size({"width": width, "height": height})
    phone.emulate_media(reduced_motion="reduce")
    open_puzzle(phone, base_url, hard[0])
    seen = phone.evaluate(ON_SCREEN)
    assert seen["board"], seen
    assert seen["pad"], seen
    assert not seen["sideways"], seen
    phone.tap("#btn-hint")
    phone.wait_for_selector("#hint-box:not([hidden])")
    seen = phone.evaluate(ON_SCREEN)
    assert seen["hint"], seen
    assert seen["board"], seen
    phone.tap("#hint-close")
    phone.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    seen = phone.evaluate(ON_SCREEN)
    assert seen["scrolled"] > 0, seen
    assert seen["board"], seen  # the controls scroll, the board stays
    open_explanation(phone)
    longest = state(
        phone, "s.steps.reduce((k, x, i, all) => x.text.length > all[k].text.length ? i : k, 0)"
    )
    phone.evaluate(f"window.sudokit.state.stepIndex = {longest - 1}")
    phone.tap("#hint-next")
    seen = phone.evaluate(ON_SCREEN)
    box = phone.evaluate(HINT_BOX_RECT)
    assert box["top"] >= box["bar"], box
    # Whole on screen, or (on 568x320, 264 px tall in 252 px of room) its top under the bar.
    assert box["bottom"] <= box["height"] or box["top"] <= box["bar"] + 8.5, box
    assert seen["board"], seen


@pytest.mark.parametrize("size", [(844, 390), (740, 360), (568, 320)])
def test_a_phone_held_sideways_shows_the_rules_and_the_whole_board(
    phone: Any, base_url: str, nine: Any, size: tuple[int, int]
) -> None:
    """Held sideways, a variant's rules under the board made the sticky board and its rules
    taller than the screen: the rules were below its foot, and scrolled to them (or to the
    page's end) the board's top was cut off under the top bar (by 69 px on 844x390). The
    rules now follow the digit pad, beside the board, which stays whole wherever the page is
    scrolled."""
    width, height = size
    phone.set_viewport_size({"width": width, "height": height})
    killer, _ = killer_of(nine[0], 3)
    open_puzzle(phone, base_url, killer)
    rules_seen = """() => { const r = document.getElementById('rules').getBoundingClientRect();
        const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
        return r.height > 0 && r.top >= bar - 0.5 && r.bottom <= innerHeight + 0.5; }"""
    # Scrolled down just far enough to read the rules (not at all where they show), then to
    # the page's end.
    phone.evaluate("document.getElementById('rules').scrollIntoView({block: 'nearest'})")
    assert phone.evaluate(rules_seen)
    seen = phone.evaluate(ON_SCREEN)
    assert seen["board"], seen
    assert not seen["sideways"], seen
    phone.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    seen = phone.evaluate(ON_SCREEN)
    assert seen["board"], seen


@pytest.fixture(scope="module")
def sixteen() -> sudokit.Grid:
    return sudokit.generate(size=16, seed=5).puzzle


@pytest.mark.parametrize("width", [390, 412, 430])
def test_the_top_bar_fits_a_phone_whatever_the_puzzle(
    phone: Any, base_url: str, nine: Any, sixteen: sudokit.Grid, width: int
) -> None:
    """The puzzle's name in the top bar gave way (cut short with an ellipsis) only on screens
    up to 380 px wide: on a 390 px phone "16×16" made the bar 5 px wider than the screen, and
    a killer at a difficulty ("9×9 Killer · expert") 86 px, 46 px on a 430 px phone, and the
    phone showed the whole app zoomed out to that width. The name gives way at every width
    now, wrapping between its words (it was cut to "9×9 Killer · e…"), and a tighter bar on
    phones leaves a short one whole."""
    phone.set_viewport_size({"width": width, "height": 844})
    killer, _ = killer_of(nine[0], 3)
    for puzzle, level in ((sixteen, None), (killer, "expert")):
        open_puzzle(phone, base_url, puzzle)
        if level:  # as a generated game at that level is named
            phone.evaluate(f"window.sudokit.state.game.meta.difficulty = '{level}'")
            phone.tap("#btn-notes")  # drawn again
            phone.wait_for_selector(f"#puzzle-label:has-text('{level}')")
        seen = phone.evaluate(
            """() => ({ page: document.documentElement.scrollWidth, screen: innerWidth,
                theme: document.getElementById('btn-theme').getBoundingClientRect().right,
                label: document.getElementById('puzzle-label').textContent,
                whole: document.getElementById('puzzle-label').scrollWidth
                    <= document.getElementById('puzzle-label').clientWidth })"""
        )
        assert seen["screen"] == width, seen  # not zoomed out
        assert seen["page"] <= width, seen
        assert seen["theme"] <= width, seen
        assert seen["whole"], seen  # neither "16×16" nor "9×9 Killer · expert" is cut short


@pytest.mark.parametrize("size", [(1280, 700), (390, 844), (844, 390)])
def test_the_focus_never_hides_under_the_top_bar(
    page: Any, base_url: str, nine: Any, size: tuple[int, int]
) -> None:
    """Going back up the page with Shift+Tab, the browser scrolled each control just into
    view, at the screen's top edge: under the sticky top bar, which hid it and its focus
    ring (the digit pad on a 1280x700 desktop, the actions held sideways). The page now
    keeps the top bar's height clear when it scrolls to a control."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    open_puzzle(page, base_url, nine[0])
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    page.focus("#opt-numbers")  # the last control
    hidden = []
    for _ in range(60):
        page.keyboard.press("Shift+Tab")
        at = page.evaluate(
            """() => { const e = document.activeElement, r = e.getBoundingClientRect();
                return { id: e.id || e.textContent.trim() || e.getAttribute('aria-label'),
                         top: r.top, bar: document.querySelector('.topbar')
                             .getBoundingClientRect().bottom,
                         inBar: !!e.closest('.topbar') }; }"""
        )
        if at["inBar"]:
            break
        if at["top"] < at["bar"] - 0.5:
            hidden.append(at)
    assert not hidden, hidden


def each_dialog(page: Any) -> Iterator[str]:
    """Open each of the app's dialogs in turn (its button clicked by script, wherever the
    layout puts it), giving its selector while it is open."""
    for button in ("new", "import", "export", "stats", "games"):
        page.evaluate(f"document.getElementById('btn-{button}').click()")
        page.wait_for_selector(f"#dlg-{button}[open]")
        yield f"#dlg-{button}"
        page.evaluate(f"document.getElementById('dlg-{button}').close()")


def test_the_clock_stops_while_a_dialog_is_open(phone: Any, base_url: str, four: Any) -> None:
    """The game's clock ran on behind every dialog (My games, Statistics, Export, a new game
    asked for and cancelled), where the board cannot be played, and the minutes spent there
    counted in the solving time and the best times. It stops while a dialog is open, as a
    paused game's does (the page's clock is DevTools', so no test time passes)."""
    phone.clock.install()
    open_puzzle(phone, base_url, four[0])
    # Paused: from here only run_for moves the page's time. Installed alone it also flows with
    # real time, and on a loaded machine a tick fell between one dialog's close and the next's
    # open (elapsed 3 -> 4 "behind" the export dialog).
    phone.clock.pause_at(phone.evaluate("Date.now()") + 1000)
    phone.clock.run_for(3000)
    before = state(phone, "s.game.elapsed")
    assert before >= 2
    for dialog in each_dialog(phone):
        phone.clock.run_for(5000)
        assert state(phone, "s.game.elapsed") == before, dialog
    phone.clock.run_for(3000)
    assert state(phone, "s.game.elapsed") >= before + 2  # and runs on once they are closed


def test_dialogs_reflow_at_320_px(page: Any, base_url: str, four: Any) -> None:
    """WCAG 1.4.10 (reflow): on a screen 320 px wide (a desktop zoomed to 400%) the new-game
    dialog's form was 68 px wider than the dialog, which scrolled sideways: the size and
    difficulty lists, "Sudoku-X (diagonals are units)" and the right column of variant
    switches were cut at its edge. Every dialog's content now fits its width."""
    page.set_viewport_size({"width": 320, "height": 568})
    open_puzzle(page, base_url, four[0])
    for dialog in each_dialog(page):
        fit = page.evaluate(
            """q => { const d = document.querySelector(q), edge = d.getBoundingClientRect().right;
                return { scroll: d.scrollWidth, width: d.clientWidth,
                         out: [...d.querySelectorAll('*')]
                             .filter(e => e.getBoundingClientRect().right > edge + 0.5)
                             .map(e => e.id || e.textContent.trim().slice(0, 30)) }; }""",
            dialog,
        )
        assert fit["scroll"] <= fit["width"], (dialog, fit)
        assert not fit["out"], (dialog, fit)


#: A notched phone's screen and safe-area insets, held sideways and upright (an iPhone's).
IPHONES = [
    (844, 390, {"top": 0, "right": 47, "bottom": 21, "left": 47}),
    (390, 844, {"top": 47, "right": 0, "bottom": 34, "left": 0}),
]


def notch(page: Any, width: int, height: int, insets: dict[str, int]) -> dict[str, int]:
    """Make *page*'s screen a notched phone's: *width* x *height* with the safe-area *insets*
    (px a side, set through DevTools, for as long as the tab lasts); the safe area's edges.
    Skips on a Chromium without Emulation.setSafeAreaInsetsOverride."""
    page.set_viewport_size({"width": width, "height": height})
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": insets})
    except Exception as exc:  # playwright's Error: a Chromium without this DevTools command
        pytest.skip(f"this Chromium cannot emulate safe areas: {exc}")
    return {
        "top": insets["top"],
        "left": insets["left"],
        "right": width - insets["right"],
        "bottom": height - insets["bottom"],
    }


#: Where the top bar's content, the board, the panel and a toast are, and the screen's size.
EDGES = """() => {
    const box = (q) => document.querySelector(q).getBoundingClientRect();
    const keys = ['.brand', '.top-actions', '.board-wrap', '.panel', '#toast'];
    const at = Object.fromEntries(keys.map((q) => {
        const r = box(q);
        return [q, {top: r.top, right: r.right, bottom: r.bottom, left: r.left}];
    }));
    return {...at, width: innerWidth, height: innerHeight};
}"""


@pytest.mark.parametrize(("width", "height", "insets"), IPHONES)
def test_a_notch_covers_nothing(
    page: Any, base_url: str, nine: Any, width: int, height: int, insets: dict[str, int]
) -> None:
    """index.html asks for the whole screen (viewport-fit=cover), but no padding allowed for
    the screen's safe areas: on a notched phone held sideways the notch covered the board's
    left edge and the top bar's logo, the home bar the toast's foot. Everything the player
    needs now keeps clear of them (the insets set as an iPhone's are, through DevTools)."""
    safe = notch(page, width, height, insets)
    open_puzzle(page, base_url, nine[0])
    page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.resolve(); }"
    )  # a toast that stays a while: "Link copied"
    page.click("#btn-share")
    page.wait_for_selector("#toast:has-text('Link copied')")
    at = page.evaluate(EDGES)
    for part in (".brand", ".top-actions", ".board-wrap", ".panel", "#toast"):
        box = at[part]
        assert box["left"] >= safe["left"], (part, box)
        assert box["right"] <= safe["right"], (part, box)
    for part in (".brand", ".top-actions"):
        assert at[part]["top"] >= safe["top"], (part, at[part])
    assert at["#toast"]["bottom"] <= safe["bottom"] - 8, at["#toast"]
    if width > height:  # sideways the board is sticky, as tall as the screen: all of it shows
        assert at[".board-wrap"]["bottom"] <= safe["bottom"], at[".board-wrap"]


@pytest.mark.parametrize(
    ("width", "height", "insets"),
    [*IPHONES, (568, 320, {"top": 0, "right": 44, "bottom": 21, "left": 44})],  # a small one
)
def test_dialogs_keep_clear_of_the_notch(
    page: Any, base_url: str, nine: Any, width: int, height: int, insets: dict[str, int]
) -> None:
    """The dialogs were centred in the whole screen, 94vw wide and as tall as the screen less
    19 px: held sideways, a notch covered the left of the new-game dialog on a 568 px screen
    and the home bar the foot of it on an 844 px one. Every dialog now keeps inside the safe
    area, however tall its content."""
    safe = notch(page, width, height, insets)
    open_puzzle(page, base_url, nine[0])
    for dialog in each_dialog(page):
        box = page.evaluate(
            f"(() => {{ const r = document.querySelector('{dialog}').getBoundingClientRect();"
            " return {top: r.top, right: r.right, bottom: r.bottom, left: r.left}; })()"
        )
        for side in ("top", "left"):
            assert box[side] >= safe[side], (dialog, side, box, safe)
        for side in ("right", "bottom"):
            assert box[side] <= safe[side], (dialog, side, box, safe)


def test_a_finger_dragged_across_the_board_selects_the_cells(
    phone: Any, base_url: str, nine: Any
) -> None:
    """On a touch screen a drag over the board scrolled the page (pointercancel: 159 px on a
    390x844 phone) and selected only the cell it started on, where SudokuPad selects every
    cell the finger crosses, so that a digit or a mark goes into all of them. A drag that
    starts on the board now selects as a mouse's does; one that starts off it still scrolls."""
    open_puzzle(phone, base_url, nine[0])
    assert phone.evaluate("scrollY") == 0
    touch_drag(
        phone,
        centre_of(phone, '#board rect[data-cell="6,4"]'),
        centre_of(phone, '#board rect[data-cell="2,4"]'),
    )
    assert state(phone, "[s.selected, [...s.multi].sort((a, b) => a - b)]") == [
        6 * 9 + 4,
        [2 * 9 + 4, 3 * 9 + 4, 4 * 9 + 4, 5 * 9 + 4],
    ]
    assert phone.evaluate("scrollY") == 0
    assert phone.locator("#board rect.selected").count() == 5
    # A candidate from the pad goes into every empty one of them.
    phone.tap("#btn-notes")
    phone.tap("#pad button[data-digit='5']")
    marks = state(phone, "s.game.marks")
    empty = [r * 9 + 4 for r in range(2, 7) if not nine[0][r * 9 + 4]]
    assert len(empty) > 1
    assert [marks[c] for c in empty] == [1 << 4] * len(empty)
    # A drag that starts below the board (on the actions) scrolls the page.
    touch_drag(phone, centre_of(phone, "#btn-stats"), (195, 100))
    phone.wait_for_function("scrollY > 0")


#: The controls a player taps on a phone: the digit pad, the toolbar, the colours, the actions,
#: the top bar, the settings (Undo, unavailable at the start, keeps its idle look when pressed).
TAPPED = [
    "#pad button",
    "#btn-erase",
    "#btn-notes",
    "#btn-hint",
    "#btn-games",
    "#btn-new",
    "#timer",
    "#colours .swatch",
    "#btn-theme",
    ".switch",
]


def test_a_tapped_control_shows_its_own_press_not_chromes_highlight(
    phone: Any, base_url: str, nine: Any
) -> None:
    """Chrome on a phone drew its tap highlight (a translucent blue box, rgba(51, 181, 229,
    0.4), square over the rounded buttons) on the digit pad, the toolbar and every other button;
    the board alone had it off. The pad and the toolbar had no pressed look of their own
    (:hover only). Now each control shows a press in its own colours, the highlight is off,
    and the keyboard's focus ring is unchanged."""
    open_puzzle(phone, base_url, nine[0])
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    look = """s => { const c = getComputedStyle(document.querySelector(s));
        return { tap: c.webkitTapHighlightColor, fill: c.backgroundColor, edge: c.borderColor,
                 move: c.transform, ring: c.outlineStyle + ' ' + c.outlineWidth }; }"""

    def forced(selector: str, pseudo: str) -> dict[str, str]:
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        cdp.send("CSS.forcePseudoState", {"nodeId": node, "forcedPseudoClasses": [pseudo]})
        try:
            return dict(phone.evaluate(look, selector))
        finally:
            cdp.send("CSS.forcePseudoState", {"nodeId": node, "forcedPseudoClasses": []})

    for selector in TAPPED:
        idle = phone.evaluate(look, selector)
        assert idle["tap"] == "rgba(0, 0, 0, 0)", (selector, idle)
        if selector != ".switch":  # a switch flips at once: that is its feedback
            pressed = forced(selector, "active")
            changed = [k for k in ("fill", "edge", "move") if pressed[k] != idle[k]]
            assert changed, (selector, idle, pressed)
        focused = forced("#pad button" if selector == ".switch" else selector, "focus-visible")
        assert focused["ring"] == "solid 3px", (selector, focused)
    cdp.detach()


MARK_INK = """([r, c]) => {
    // Every pencil mark of cell (r, c): its font size on screen and its ink's box (the glyph's
    // measured bounds around the text's anchor, which the board centres in its place).
    const svg = document.getElementById('board');
    const m = svg.getScreenCTM();
    const scale = m.a;
    const cell = document.getElementById(`cell-${r}-${c}`).getBoundingClientRect();
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const inCell = (t) => {
      const x = +t.getAttribute('x') * scale + m.e, y = +t.getAttribute('y') * scale + m.f;
      return x > cell.left && x < cell.right && y > cell.top && y < cell.bottom ? [x, y] : null;
    };
    return [...svg.querySelectorAll('text.mark')].filter(inCell).map((t) => {
      const [x, y] = inCell(t);
      const style = getComputedStyle(t);
      const px = +t.getAttribute('font-size') * scale;
      ctx.font = `${style.fontWeight} ${px}px ${style.fontFamily}`;
      const ink = ctx.measureText(t.textContent);
      return { px, left: x - ink.actualBoundingBoxLeft, right: x + ink.actualBoundingBoxRight,
               top: y - ink.actualBoundingBoxAscent, bottom: y + ink.actualBoundingBoxDescent,
               cell: [cell.left, cell.top, cell.right, cell.bottom] };
    });
}"""


@pytest.mark.parametrize(("size", "least"), [(9, 11.5), (6, 20.0), (4, 32.0)])
def test_pencil_marks_are_as_large_as_their_place_allows(
    phone: Any, base_url: str, size: int, least: float
) -> None:
    """Pencil marks were 9.2 px on a 390 px phone (13.85 units of a 60-unit cell in a 9x9, a
    6x6 and a 4x4 alike: 13.7 px in a 6x6's 59 px cell, 27.4 px in a 4x4's 88 px one), their
    digits 7 px high in a 13 px place, where the best apps write them larger. A mark now
    takes 0.7 of its place's height (0.85 of its width and 0.4 of a cell at most): 11.9,
    23.7 and 35.3 px there. All of a cell's marks stay apart and inside the cell."""
    made = sudokit.generate(size=size, seed=5).puzzle
    open_puzzle(phone, base_url, made)
    cell = next(i for i in range(size, size * size) if not made[i] and 0 < i % size < size - 1)
    r, c = divmod(cell, size)
    phone.tap(f'#board rect[data-cell="{r},{c}"]')
    phone.tap("#btn-notes")
    for d in range(size):
        phone.keyboard.press(SYMBOLS[d])
    marks = phone.evaluate(MARK_INK, [r, c])
    assert len(marks) == size
    assert min(m["px"] for m in marks) >= least, marks
    for k, a in enumerate(marks):
        left, top, right, bottom = a["cell"]
        assert left + 1 <= a["left"] < a["right"] <= right - 1, a
        assert top + 1 <= a["top"] < a["bottom"] <= bottom - 1, a
        for b in marks[k + 1 :]:
            apart = (
                b["left"] >= a["right"] + 1
                or a["left"] >= b["right"] + 1
                or b["top"] >= a["bottom"] + 1
                or a["top"] >= b["bottom"] + 1
            )
            assert apart, (a, b)


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_the_printed_page_shows_the_rules(
    phone: Any, base_url: str, nine: Any, size: tuple[int, int]
) -> None:
    """Printed from a phone held sideways, a variant's rules could be left out: that layout
    moves them beside the board, after the digit pad (main.js placeParts), into the controls'
    column, which the print view hid whole. Chrome's own printing lays the page out portrait
    and the app's layout listener puts them back under the board first; a print of the page
    as it stands (print media on the phone's screen here; Firefox prints a static copy of
    the page) had none. The print view now shows them under the board wherever they are."""
    width, height = size
    phone.set_viewport_size({"width": width, "height": height})
    killer, _ = killer_of(nine[0], 3)
    open_puzzle(phone, base_url, killer)
    phone.emulate_media(media="print")
    try:
        seen = phone.evaluate(
            """() => { const rules = document.getElementById('rules').getBoundingClientRect();
                const board = document.getElementById('board').getBoundingClientRect();
                const pad = document.getElementById('pad').getBoundingClientRect();
                return { height: rules.height, top: rules.top, boardBottom: board.bottom,
                         left: rules.left, right: rules.right, boardLeft: board.left,
                         boardRight: board.right, pad: pad.height,
                         text: document.getElementById('rules').innerText }; }"""
        )
    finally:
        phone.emulate_media(media="screen")
    assert "cage" in seen["text"].lower(), seen
    assert seen["height"] > 0, seen
    assert seen["top"] >= seen["boardBottom"], seen  # under the board
    assert seen["boardLeft"] - 1 <= seen["left"] < seen["right"] <= seen["boardRight"] + 1, seen
    assert seen["pad"] == 0, seen  # the rest of the controls stays off the paper


def test_a_tapped_control_does_not_stay_lit(phone: Any, base_url: str, nine: Any) -> None:
    """A phone keeps :hover on the last control tapped, and the controls' hover look is their
    pressed one: after a 5 was placed from the pad its 5 kept an accent edge and fill, as if
    chosen (digit-first input, which the app does not have), and the Hint tool after a hint.
    Hover looks now apply only where there is a mouse; a tapped control looks as before."""
    puzzle, solution = nine
    open_puzzle(phone, base_url, puzzle)
    look = """s => { const c = getComputedStyle(document.querySelector(s));
        return [c.backgroundColor, c.borderColor, c.color]; }"""
    # A tap's :active (the press's own look) lasts a moment after the finger lifts.
    let_go = "s => !document.querySelector(s).matches(':active')"
    idle = {s: phone.evaluate(look, s) for s in ("#pad button[data-digit='5']", "#btn-hint")}
    cell = next(i for i in range(81) if not puzzle[i] and solution[i] == 5)
    phone.tap(f'#board rect[data-cell="{cell // 9},{cell % 9}"]')
    phone.tap("#pad button[data-digit='5']")
    assert state(phone, f"s.game.values[{cell}]") == 5
    phone.wait_for_function(let_go, arg="#pad button[data-digit='5']")
    assert (
        phone.evaluate(look, "#pad button[data-digit='5']") == idle["#pad button[data-digit='5']"]
    )
    phone.tap("#btn-hint")
    phone.wait_for_selector("#hint-box:not([hidden])")
    phone.wait_for_function(let_go, arg="#btn-hint")
    assert phone.evaluate(look, "#btn-hint") == idle["#btn-hint"]
