"""Helpers shared by the browser tests: open a puzzle by its share link, read the app's state."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import sudokit

#: The board's alphabet: digits, then letters for 10 and up.
SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def share_link(base_url: str, puzzle: sudokit.Grid, **extra: str) -> str:
    """The app's share link of *puzzle* (extra query fields such as ``x="1"`` added)."""
    return f"{base_url}/#{urlencode({'p': str(puzzle), 'b': puzzle.shape.box_spec, **extra})}"


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


def state(page: Any, expr: str) -> Any:
    """Evaluate *expr* with ``s`` bound to the app's state object."""
    return page.evaluate(f"(() => {{ const s = window.sudokit.state; return {expr}; }})()")


def open_explanation(page: Any) -> int:
    """Click "Explain steps", wait for the first step; the number of steps."""
    page.click("#btn-explain")
    page.wait_for_selector("#hint-pos:has-text('1 /')")
    return int(str(page.text_content("#hint-pos")).split("/")[1])
