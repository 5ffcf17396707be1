"""Screenshots of every kind of rule the web app draws, at 1366x900 and 390x844, to look at.

    PYTHONPATH=src:tests python benchmarks/shots_kinds.py OUT_DIR [KIND...]

Serves the app on a loopback port, opens each puzzle by its share link in Debian's Chromium
(/usr/bin/chromium) and writes OUT_DIR/<kind>-1366x900.png (the page as a desktop shows it)
and OUT_DIR/<kind>-390x844.png (a phone's first screen). The puzzles: a classic 9x9 (a fixed
seed, unique by its givens) with rules of each kind of ``sudokit.rules`` drawn from its
solution (tests/support/rulepuzzles.py; a global rule that solution breaks: the largest
puzzle of tests/data/variants/rule_puzzles.jsonl), so every one is unique and its solution keeps the
rules; the board's own variants (killer, thermo, kropki, ...) generated with their flag. Not a
test: a person looks at the pictures (overlaps, clues cut off, lines under digits).
"""

from __future__ import annotations

import random
import socket
import sys
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

import sudokit
from browser.pageutil import open_puzzle, paste_import
from sudokit.rules import KINDS
from sudokit.web import create_app
from support import rulepuzzles

#: The board's own variants: generate()'s flags.
BOARD_KINDS = (
    "killer", "thermo", "kropki", "xv", "parity", "windoku", "antiknight", "antiking",
    "nonconsecutive", "jigsaw", "diagonals",
)  # fmt: skip
GLOBAL = frozenset(
    {"diagonal", "disjointgroups", "taxicab", "diagonalnonconsecutive", "knightmare",
     "selftaxicab"}
)  # fmt: skip
SIZES = {"1366x900": (1366, 900), "390x844": (390, 844)}


def puzzles(kinds: list[str]) -> dict[str, sudokit.Grid]:
    """One 9x9 puzzle of each of *kinds*."""
    made = sudokit.generate(size=9, seed=2024, symmetry="rot180").puzzle
    solution = sudokit.solution(made)
    out: dict[str, sudokit.Grid] = {}
    for kind in kinds:
        if kind == "classic":
            out[kind] = made
        elif kind in BOARD_KINDS:
            out[kind] = sudokit.generate(size=9, seed=3, **{kind: True}).puzzle  # type: ignore[misc]
        else:
            rng = random.Random(kind)
            if kind in GLOBAL:
                rules = [rulepuzzles.global_rule(kind, made.shape, rng)]
                if any(r.broken(solution.cells, 9) for r in rules):
                    # this solution cannot keep it: the fixture's largest puzzle of the kind
                    found = [g for k, g, _ in rulepuzzles.read() if k == kind]
                    out[kind] = max(found, key=lambda g: g.n)
                    continue
            else:
                rules = rulepuzzles.draw(kind, solution.cells, made.shape, rng, 6)
            if not rules:
                continue
            shape = made.shape.with_constraints(sudokit.Constraints(rules=rules))
            out[kind] = sudokit.Grid(made.cells, shape)
    return out


def main(argv: list[str]) -> None:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    kinds = argv[1:] or ["classic", *BOARD_KINDS, *KINDS]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        for kind, puzzle in puzzles(kinds).items():
            for label, (width, height) in SIZES.items():
                phone = width < 500
                context = browser.new_context(
                    viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone
                )
                page = context.new_page()
                if puzzle.shape.regions is not None or puzzle.shape.diagonals:
                    # a share link of the tests' helper carries neither: import its JSON
                    page.goto(f"{base}/")
                    page.wait_for_selector("#board rect.cell")
                    paste_import(page, sudokit.formats.dumps(puzzle, "json"))
                    page.wait_for_selector("#dlg-import:not([open])", state="attached")
                    page.wait_for_selector("#board text.digit.given")
                else:
                    open_puzzle(page, base, puzzle)
                page.wait_for_timeout(300)  # the server's rules layer
                page.screenshot(path=str(out / f"{kind}-{label}.png"))
                context.close()
            print(kind, flush=True)
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main(sys.argv[1:])
