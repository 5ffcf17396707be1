"""Helpers shared by the browser tests: open a puzzle by its share link, read the app's state."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import sudokit

#: axe-core (``npm ci --prefix tests/browser``), for the accessibility audits.
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
#: The board's alphabet: digits, then letters for 10 and up.
SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def share_link(base_url: str, puzzle: sudokit.Grid, **extra: str) -> str:
    """The app's share link of *puzzle* (extra query fields such as ``x="1"`` added; a
    variant's rules as JSON in ``v``)."""
    fields = {"p": str(puzzle), "b": puzzle.shape.box_spec}
    if puzzle.shape.windoku or puzzle.shape.constraints is not None:
        from sudokit.web.validate import rules_json

        fields["v"] = json.dumps(rules_json(puzzle), separators=(",", ":"))
    return f"{base_url}/#{urlencode({**fields, **extra})}"


def open_puzzle(page: Any, base_url: str, puzzle: sudokit.Grid, **extra: str) -> None:
    """Open the app on a share link of *puzzle* and wait until it shows its givens."""
    page.goto(share_link(base_url, puzzle, **extra))
    page.wait_for_selector(f'#board[data-size="{puzzle.n}"] rect.cell')
    page.wait_for_function(
        "line => window.sudokit && window.sudokit.state.game"
        " && window.sudokit.state.game.puzzleLine === line",
        arg=str(puzzle),
    )
    assert page.locator("#board text.digit.given").count() == puzzle.clues


def advanced_to_eliminations() -> sudokit.Grid:
    """A hard puzzle advanced (by its own solving path) to where eliminations are next."""
    made = sudokit.generate(size=9, seed=0, difficulty="hard")
    cells = bytearray(made.puzzle.cells)
    for step in sudokit.explain(made.puzzle):
        if not step.placements:
            break
        for c, d in step.placements:
            cells[c] = d
    grid = sudokit.Grid(bytes(cells), made.puzzle.shape)
    assert sudokit.is_unique(grid)
    return grid


def new_game(page: Any, base_url: str, size: int, difficulty: str, *variants: str) -> None:
    """Open the app, ask the new-game dialog for a *size* puzzle at *difficulty* ("" = any)
    with the *variants* switched on, and press Generate."""
    page.goto(f"{base_url}/")
    page.wait_for_selector('#board[data-size="9"] rect.cell')
    page.click("#btn-new")
    page.select_option("#new-size", str(size))
    page.select_option("#new-difficulty", difficulty)
    for variant in variants:
        page.check(f'#new-variants input[data-variant="{variant}"]')
    page.click("#new-go")


def paste_import(page: Any, text: str) -> None:
    """Paste *text* into the import dialog and confirm it."""
    page.click("#btn-import")
    page.fill("#import-text", text)
    page.click("#import-go")


def show_hint(page: Any) -> None:
    """Ask for a hint and wait until the hint box shows it."""
    page.click("#btn-hint")
    page.wait_for_selector("#hint-box:not([hidden])")


def state(page: Any, expr: str) -> Any:
    """Evaluate *expr* with ``s`` bound to the app's state object."""
    return page.evaluate(f"(() => {{ const s = window.sudokit.state; return {expr}; }})()")


def open_explanation(page: Any) -> int:
    """Click "Explain steps", wait for the first step; the number of steps."""
    page.click("#btn-explain")
    page.wait_for_selector("#hint-pos:has-text('1 /')")
    return int(str(page.text_content("#hint-pos")).split("/")[1])


def killer_of(made: sudokit.Grid, seed: int) -> tuple[sudokit.Grid, sudokit.Grid]:
    """A killer puzzle built on the classic puzzle *made* (unique by its givens alone, so
    unique under any rules its solution keeps) and its solution: the grid is cut at random
    (seeded) into connected cages of 2 to 4 cells with distinct digits, each cage's sum taken
    from the solution."""
    solution = sudokit.solution(made)
    n = made.n
    rng = random.Random(seed)
    owner = [-1] * made.shape.ncells
    cages: list[list[int]] = []
    order = list(range(made.shape.ncells))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        cells = [start]
        owner[start] = len(cages)
        size = rng.choice((2, 2, 3, 3, 4))
        while len(cells) < size:
            digits = {solution[c] for c in cells}
            near = sorted(
                {
                    x
                    for c in cells
                    for x in (c - n, c + n, c - 1 if c % n else -1, c + 1 if (c + 1) % n else -1)
                    if 0 <= x < made.shape.ncells and owner[x] < 0 and solution[x] not in digits
                }
            )
            if not near:
                break
            pick = rng.choice(near)
            owner[pick] = len(cages)
            cells.append(pick)
        cages.append(cells)
    constraints = sudokit.Constraints(
        cages=[sudokit.Cage(c, sum(solution[i] for i in c)) for c in cages]
    )
    shape = made.shape.with_constraints(constraints)
    killer = sudokit.Grid(made.cells, shape)
    answer = sudokit.Grid(solution.cells, shape)
    assert answer.is_solution(killer), "the solution must keep every rule"
    return killer, answer


def touch_drag(
    page: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 12
) -> None:
    """A finger pressed at *start*, moved to *end* in *steps* of 16 ms, held still there for
    0.1 s and lifted (page pixels), sent through DevTools' input pipeline, where the browser
    pans the page as a phone would. The events carry those times: sent all at once, the drag
    ended in a fling, and a tap the test sent next stopped the fling and gave no click."""
    cdp = page.context.new_cdp_session(page)
    t = time.time()
    try:
        (x0, y0), (x1, y1) = start, end

        def touch(kind: str, at: float, k: int | None) -> None:
            points = (
                []
                if k is None
                else [{"x": x0 + (x1 - x0) * k / steps, "y": y0 + (y1 - y0) * k / steps}]
            )
            cdp.send(
                "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": at}
            )

        touch("touchStart", t, 0)
        for k in range(1, steps + 1):
            touch("touchMove", t + 0.016 * k, k)
        touch("touchMove", t + 0.016 * steps + 0.1, steps)
        touch("touchEnd", t + 0.016 * steps + 0.12, None)
    finally:
        cdp.detach()


def centre_of(page: Any, selector: str) -> tuple[float, float]:
    """The centre of the first element *selector* finds, in page pixels."""
    box = page.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def audit(page: Any) -> list[str]:
    """axe-core's serious and critical WCAG 2.1 A/AA violations on the page as it is."""
    if not page.evaluate("!!window.axe"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """() => axe.run(document, {runOnly: {type: 'tag',
               values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
             .then(r => r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
             .map(v => v.id + ': '
                  + v.nodes.map(n => n.target.join(' ')).slice(0, 4).join(', ')))"""
    )
    return list(found)


def unit_keeping_swap(solution: sudokit.Grid, cages: tuple[sudokit.Cage, ...]) -> bytes | None:
    """*solution* with a rectangle of two digits swapped (every row, column and box keeps its
    digits) so that the sum of one of *cages* changes; None when there is no such rectangle."""
    n, shape, cells = solution.n, solution.shape, solution.cells
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            if r1 // shape.box_rows != r2 // shape.box_rows:
                continue
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    a, b = r1 * n + c1, r1 * n + c2
                    d, e = r2 * n + c1, r2 * n + c2
                    if cells[a] != cells[e] or cells[b] != cells[d]:
                        continue
                    out = bytearray(cells)
                    out[a], out[b], out[d], out[e] = cells[b], cells[a], cells[e], cells[d]
                    if any(sum(out[i] for i in c.cells) != c.total for c in cages):
                        return bytes(out)
    return None


def play_by_keyboard(page: Any, puzzle: sudokit.Grid, solution: sudokit.Grid) -> None:
    """Type the solution into every open cell, moving with the arrow keys (boustrophedon)."""
    n = puzzle.n
    page.focus("#board")
    page.evaluate("window.sudokit.state.selected = null")
    page.keyboard.press("ArrowDown")  # with no cell selected, the first arrow selects r1c1
    for r in range(n):
        cols = range(n) if r % 2 == 0 else range(n - 1, -1, -1)
        for k, c in enumerate(cols):
            cell = r * n + c
            if not puzzle[cell]:
                page.keyboard.press(SYMBOLS[solution[cell] - 1])
            if k < n - 1:
                page.keyboard.press("ArrowRight" if r % 2 == 0 else "ArrowLeft")
        page.keyboard.press("ArrowDown")
