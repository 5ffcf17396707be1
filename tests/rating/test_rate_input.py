"""What ``rate`` (and every function that takes a puzzle) says when given the record of a
generated puzzle instead of the puzzle: a TypeError naming what to pass."""

from __future__ import annotations

import pytest

import sudokit


def test_rate_of_a_generated_puzzle_names_its_puzzle() -> None:
    made = sudokit.generate(size=4, seed=1)
    with pytest.raises(TypeError, match=r"got GeneratedPuzzle: pass its \.puzzle \(a Grid\)"):
        sudokit.rate(made)
    assert sudokit.rate(made.puzzle).level == "easy"  # what the message says works
