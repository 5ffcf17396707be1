"""The commands that read puzzles, for the tests that run each of them on the same inputs."""

from __future__ import annotations

__all__ = ["COMMANDS", "EASY"]

#: A proper 9x9 puzzle (one solution, singles only: every command answers it at once).
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

#: command -> the arguments it needs besides its input (print writes a PDF).
COMMANDS: dict[str, list[str]] = {
    "solve": [],
    "count": [],
    "check": [],
    "convert": [],
    "candidates": [],
    "hint": [],
    "explain": [],
    "rate": [],
    "render": [],
    "print": ["-o", "book.pdf"],
}
