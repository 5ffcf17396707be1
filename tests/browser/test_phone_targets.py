"""Touch targets on a phone (WCAG 2.5.5 and 2.5.8), the puzzle's name in the top bar, and
16x16 candidates, at 320x640 and 390x844.

Every visible control (buttons, inputs, selects, links, [role=button], the colour swatches,
the digit pad), on the main screen, with the hint box open and in each dialog, is at least
44x44 CSS px, or, where the row has no room for that (ALLOWED, with the reason), at least 24x24.
Before: 34 controls on the main screen were under 44 px (the swatches 30x30, the pad's keys
29x37 at 320 px, the actions 33 px tall, the switches 20), and the name was cut to "9×9 · e…".
"""

from __future__ import annotations

from typing import Any

import pytest
from pageutil import killer_of, open_puzzle

import sudokit

pytestmark = pytest.mark.browser

#: Controls allowed under 44 px wide (never under 24, and 44 tall all the same), and why. The
#: board's cells are not in the count: a 9x9's cell is 33 px on a 320 px phone, the size of
#: the grid the player sees, and a drag over them selects as in SudokuPad.
ALLOWED = {
    # Seven tools in one row: 7 x 44 px and the gaps are wider than the 300 px a 320 px screen
    # leaves (37.7 px each there); at 390 px they are 47.7 wide. Split in two rows, the pad
    # would fall under the bottom of a 640 px tall screen.
    ".toolbar .tool": "seven tools in one row",
    # The nine digits in one row, as in every Sudoku app (28.9 px each at 320, 36.7 at 390):
    # nine keys of 44 px need 420 px. In two rows the pad would be under the fold.
    "#pad button": "nine digits in one row",
}

#: What the test measures: every visible control in *root*, a switch's checkbox by its label
#: (the label is what takes the tap), with the first ALLOWED selector it matches.
TARGETS_JS = """([root, allowed]) => {
  const sel = 'button, input, select, textarea, a[href], [role=button], .swatch, #pad button';
  const out = [];
  for (const el of document.querySelector(root).querySelectorAll(sel)) {
    if (el.closest('#board, [hidden]')) continue;
    const target = el.matches('input[type=checkbox]') && el.closest('label') || el;
    const r = target.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden') continue;
    out.push({ what: el.id || el.dataset.digit && `digit ${el.dataset.digit}` || el.className
                 || el.tagName, text: (el.textContent || el.value || '').trim().slice(0, 20),
               w: r.width, h: r.height, allowed: allowed.find((a) => el.matches(a)) || null });
  }
  return out;
}"""

#: The puzzle's name in the top bar: whole (no word cut) and how many lines it takes.
CHIP_JS = """() => { const e = document.getElementById('puzzle-label');
  return { text: e.textContent, whole: e.scrollWidth <= e.clientWidth
             && e.scrollHeight <= e.clientHeight, height: e.clientHeight,
           page: document.documentElement.scrollWidth }; }"""

#: Dialogs and the button that opens each.
DIALOGS = {
    "dlg-new": "#btn-new",
    "dlg-games": "#btn-games",
    "dlg-stats": "#btn-stats",
    "dlg-import": "#btn-import",
    "dlg-export": "#btn-export",
    "dlg-print": "#btn-print",
}


def small_targets(page: Any, root: str) -> list[str]:
    """The controls in *root* that break the rule: under 44x44 and not allowed, or under 24."""
    bad = []
    for t in page.evaluate(TARGETS_JS, [root, list(ALLOWED)]):
        least = 24 if t["allowed"] else 44  # wide; every one is 44 tall
        if t["w"] < least - 0.01 or t["h"] < 44 - 0.01:
            bad.append(f"{t['what']} {t['text']!r}: {t['w']:.1f}x{t['h']:.1f}")
    return bad


def test_every_control_is_a_44_px_target_on_a_phone(phone: Any, base_url: str) -> None:
    made = sudokit.generate(size=9, seed=2024, symmetry="rot180")
    killer, _ = killer_of(made.puzzle, 3)
    phone.goto(f"{base_url}/favicon.svg")
    phone.evaluate("localStorage.clear()")
    open_puzzle(phone, base_url, killer)
    # named as a generated game at a level is: "9×9 Killer · expert", the longest name
    phone.evaluate("window.sudokit.state.game.meta.difficulty = 'expert'")
    phone.tap("#btn-notes")  # drawn again, with that name
    phone.tap("#btn-notes")
    phone.wait_for_selector("#puzzle-label:has-text('expert')")
    bad: dict[str, list[str]] = {}
    for width, height in ((320, 640), (390, 844)):
        phone.set_viewport_size({"width": width, "height": height})
        phone.wait_for_function(f"innerWidth === {width}")
        chip = phone.evaluate(CHIP_JS)
        assert chip["page"] == width, chip  # nothing wider than the screen
        assert chip["whole"], chip  # wrapped between its words, never cut
        assert chip["height"] <= 3 * 16, chip  # at most three lines
        bad[f"main {width}"] = small_targets(phone, "body")
        phone.tap("#btn-hint")
        phone.wait_for_selector("#hint-box:not([hidden])")
        phone.tap("#hint-more")  # every button of the hint box shown
        bad[f"hint {width}"] = small_targets(phone, "#hint-box")
        phone.tap("#hint-close")
        for dialog, opener in DIALOGS.items():
            phone.locator(opener).scroll_into_view_if_needed()
            phone.tap(opener)
            phone.wait_for_selector(f"#{dialog}[open]")
            bad[f"{dialog} {width}"] = small_targets(phone, f"#{dialog}")
            phone.keyboard.press("Escape")
            phone.wait_for_selector(f"#{dialog}:not([open])", state="attached")
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, bad


def test_sixteen_candidates_as_large_as_their_places(phone: Any, base_url: str) -> None:
    """A 16x16's full candidate list on a 390 px phone: each mark was 5.1 px (its ink 0.7 of
    its place's height, 3.7 px); now 0.88 of it, as large as 16 places in a 23 px cell allow."""
    made = sudokit.generate(size=16, seed=5)
    open_puzzle(phone, base_url, made.puzzle)
    phone.tap("#btn-auto")
    got = phone.evaluate(
        """() => { const svg = document.getElementById('board');
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          const cell = document.querySelector('#board rect.cell').getBoundingClientRect();
          const fonts = [...svg.querySelectorAll('text.mark')].map(
            (t) => +t.getAttribute('font-size') * scale);
          return { n: fonts.length, least: Math.min(...fonts), cell: cell.height }; }"""
    )
    assert got["n"] > 100, got
    assert got["least"] >= 6, got
    # its ink (0.73 of the font) stays inside its quarter of the cell
    assert 0.73 * got["least"] <= got["cell"] / 4, got
