"""SudokuPad's key habits, its colour mode and its centre-mark layout, played by keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from pageutil import open_puzzle, state

import sudokit

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def nine() -> tuple[sudokit.Grid, sudokit.Grid]:
    made = sudokit.generate(size=9, seed=2024, symmetry="rot180")
    return made.puzzle, sudokit.solution(made.puzzle)


def go_to(page: Any, cell: int, n: int = 9) -> None:
    """Select *cell* by keyboard alone: Escape twice, then arrows from r1c1."""
    page.focus("#board")
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowDown")  # nothing selected: r1c1
    r, c = divmod(cell, n)
    for _ in range(r):
        page.keyboard.press("ArrowDown")
    for _ in range(c):
        page.keyboard.press("ArrowRight")
    assert state(page, "s.selected") == cell


def test_modifier_digits_put_corner_centre_and_colour(page: Any, base_url: str, nine: Any) -> None:
    """Shift+digit a corner mark, Ctrl+digit a centre mark, Ctrl+Shift+digit a colour: each
    in its own layer, none placing a digit; each one undo step."""
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    cell = next(i for i in range(81) if not puzzle[i])
    go_to(page, cell)
    page.keyboard.press("Shift+Digit3")
    page.keyboard.press("Control+Digit5")
    page.keyboard.press("Control+Digit7")
    page.keyboard.press("Control+Shift+Digit8")
    got = state(
        page,
        f"[s.game.values[{cell}], s.game.corner[{cell}], s.game.marks[{cell}], "
        f"s.game.colours[{cell}], s.notes, s.colourMode]",
    )
    assert got == [0, 1 << 2, (1 << 4) | (1 << 6), 8, False, False]
    assert page.locator("#board rect.tint.t8").count() == 1
    page.keyboard.press("Control+z")
    assert state(page, f"s.game.colours[{cell}]") == 0
    assert state(page, f"s.game.marks[{cell}]") == (1 << 4) | (1 << 6)


def test_zxcv_switch_modes_and_delete_clears_the_modes_layer(
    page: Any, base_url: str, nine: Any
) -> None:
    puzzle, solution = nine
    open_puzzle(page, base_url, puzzle)
    cell = next(i for i in range(81) if not puzzle[i])
    go_to(page, cell)
    layers = (
        f"[s.game.values[{cell}], s.game.corner[{cell}], s.game.marks[{cell}],"
        f" s.game.colours[{cell}]]"
    )
    page.keyboard.press("x")
    assert page.text_content("#mode-label") == "Corner marks"
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.keyboard.press("c")
    assert page.text_content("#mode-label") == "Centre marks"
    page.keyboard.press("4")
    page.keyboard.press("v")
    assert page.text_content("#mode-label") == "Colours"
    page.keyboard.press("9")
    assert state(page, layers) == [0, 0b11, 1 << 3, 9]
    # Delete clears only what the mode puts: colour, then centre, then corner marks.
    page.keyboard.press("Delete")
    assert state(page, layers) == [0, 0b11, 1 << 3, 0]
    page.keyboard.press("c")
    page.keyboard.press("Backspace")
    assert state(page, layers) == [0, 0b11, 0, 0]
    page.keyboard.press("x")
    page.keyboard.press("Delete")
    assert state(page, layers) == [0, 0, 0, 0]
    page.keyboard.press("z")
    assert page.text_content("#mode-label") == "Digits"
    page.keyboard.press(str(solution[cell]))
    assert state(page, f"s.game.values[{cell}]") == solution[cell]
    page.keyboard.press("Delete")
    assert state(page, f"s.game.values[{cell}]") == 0


def test_space_keys_and_shift_space_leaves_notes_off(page: Any, base_url: str, nine: Any) -> None:
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    cell = next(i for i in range(81) if not puzzle[i])
    go_to(page, cell)
    page.keyboard.press("Shift+Space")
    assert state(page, "[s.notes, s.markKind]") == [False, "corner"]
    page.keyboard.press("Space")
    assert state(page, "[s.notes, s.markKind]") == [True, "corner"]
    page.keyboard.press("6")
    assert state(page, f"[s.game.values[{cell}], s.game.corner[{cell}]]") == [0, 1 << 5]
    page.keyboard.press("Space")
    assert state(page, "s.notes") is False


def test_ctrl_a_and_double_click_select(page: Any, base_url: str, nine: Any) -> None:
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    page.focus("#board")
    page.keyboard.press("Control+a")
    assert page.locator('#board rect.cell[aria-selected="true"]').count() == 81
    page.keyboard.press("Control+Shift+Digit2")
    assert state(page, "s.game.colours.filter((k) => k === 2).length") == 81
    page.keyboard.press("Control+z")
    given = next(i for i in range(81) if puzzle[i])
    d = puzzle[given]
    page.dblclick(f'#board rect[data-cell="{given // 9},{given % 9}"]')
    chosen = state(page, "[s.selected, ...s.multi].sort((a, b) => a - b)")
    assert chosen == [i for i in range(81) if puzzle[i] == d]


def test_shift_drag_adds_and_ctrl_drag_removes(page: Any, base_url: str, nine: Any) -> None:
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)

    # The cells' centres, read once: the board redraws its cells on every change, so a cell
    # looked up during a drag may be gone by the time its box is asked for.
    frame = page.locator("#board rect.cell").first.bounding_box()
    unit = frame["width"]

    def centre(r: int, c: int) -> tuple[float, float]:
        return frame["x"] + (c + 0.5) * unit, frame["y"] + (r + 0.5) * unit

    def drag(cells: list[tuple[int, int]], key: str | None) -> None:
        points = [centre(*rc) for rc in cells]
        if key:
            page.keyboard.down(key)
        page.mouse.move(*points[0])
        page.mouse.down()
        for point in points[1:]:
            page.mouse.move(*point, steps=4)
        page.mouse.up()
        if key:
            page.keyboard.up(key)

    def chosen() -> list[int]:
        return list(state(page, "[s.selected, ...s.multi].sort((a, b) => a - b)"))

    drag([(0, 0), (0, 1), (0, 2)], None)
    assert chosen() == [0, 1, 2]
    drag([(2, 0), (2, 1)], "Shift")
    assert chosen() == [0, 1, 2, 18, 19]
    drag([(0, 1), (0, 2)], "Control")
    assert chosen() == [0, 18, 19]


def test_colour_mode_contrast_and_saved(page: Any, base_url: str, nine: Any) -> None:
    """Each of the nine colours keeps 3:1 for the digits and marks over it, on every cell
    fill, in both themes (composited from the computed styles); a colour is saved with the
    game and comes back on reload."""
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    worst = {}
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        worst[theme] = page.evaluate(CONTRAST_JS)
        assert worst[theme] >= 3, (theme, worst)
    print("worst tint contrast", worst)
    cell = next(i for i in range(81) if not puzzle[i])
    go_to(page, cell)
    page.keyboard.press("v")
    for k in range(1, 10):
        page.keyboard.press(str(k))
        assert state(page, f"s.game.colours[{cell}]") == k
        assert page.locator(f"#board rect.tint.t{k}").count() == 1
    page.reload()
    page.wait_for_selector("#board rect.tint.t9")
    assert state(page, f"s.game.colours[{cell}]") == 9
    page.focus("#board")
    page.keyboard.press("Control+z")
    assert state(page, f"s.game.colours[{cell}]") == 8


CONTRAST_JS = """() => {
  const svg = document.getElementById('board');
  const probe = (tag, cls) => {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    e.setAttribute('class', cls);
    svg.append(e);
    const s = getComputedStyle(e);
    const out = [s.fill, +s.opacity];
    e.remove();
    return out;
  };
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const cells = ['cell', 'cell alt', 'cell peer', 'cell same', 'cell selected']
    .map((c) => rgb(probe('rect', c)[0]));
  const inks = ['digit given', 'digit user', 'mark', 'corner']
    .map((c) => rgb(probe('text', c)[0]));
  let worst = 99;
  for (let k = 1; k <= 9; k++) {
    const [fill, alpha] = probe('rect', `tint t${k}`);
    const t = rgb(fill);
    for (const bg of cells) {
      const mixed = t.map((v, i) => alpha * v + (1 - alpha) * bg[i]);
      for (const ink of inks) worst = Math.min(worst, ratio(mixed, ink));
    }
  }
  return Math.round(worst * 100) / 100;
}"""


def test_centre_marks_centred_and_shrinking(page: Any, base_url: str, nine: Any) -> None:
    """Centre marks sit centred in the cell (measured from the SVG) and get smaller as more
    are marked; corner marks stay in the corners."""
    puzzle, _ = nine
    open_puzzle(page, base_url, puzzle)
    cell = next(i for i in range(81) if not puzzle[i])
    r, c = divmod(cell, 9)
    go_to(page, cell)
    fonts = []
    for d in range(1, 10):
        page.keyboard.press(f"Control+Digit{d}")
        got = page.evaluate(MARKS_JS, [r, c])
        assert len(got["marks"]) == d
        xs = [m["x"] for m in got["marks"]]
        ys = [m["y"] for m in got["marks"]]
        cx, cy = got["centre"]
        # The marks' middle is the cell's centre (within half a unit of a 60-unit cell).
        assert abs((min(xs) + max(xs)) / 2 - cx) < 0.5, got
        assert abs((min(ys) + max(ys)) / 2 - cy) < 0.5, got
        fonts.append(got["marks"][0]["font"])
    assert fonts[0] > fonts[2] > fonts[8], fonts
    assert fonts == sorted(fonts, reverse=True), fonts
    # A corner mark goes to the top-left corner, away from the centre.
    page.keyboard.press("Shift+Digit1")
    got = page.evaluate(MARKS_JS, [r, c])
    (x, y) = got["corner"][0]
    cx, cy = got["centre"]
    assert x < cx - 15, got
    assert y < cy - 15, got


MARKS_JS = """([r, c]) => {
  const cell = document.getElementById(`cell-${r}-${c}`);
  const x0 = +cell.getAttribute('x'), y0 = +cell.getAttribute('y'), w = +cell.getAttribute('width');
  const inside = (t) => { const x = +t.getAttribute('x'), y = +t.getAttribute('y');
    return x > x0 && x < x0 + w && y > y0 && y < y0 + w; };
  const svg = document.getElementById('board');
  return {
    centre: [x0 + w / 2, y0 + w / 2],
    marks: [...svg.querySelectorAll('text.mark')].filter(inside).map((t) => ({
      x: +t.getAttribute('x'), y: +t.getAttribute('y') - 0.5,
      font: +t.getAttribute('font-size') })),
    corner: [...svg.querySelectorAll('text.corner')].filter(inside)
      .map((t) => [+t.getAttribute('x'), +t.getAttribute('y')]),
  };
}"""
