"""``next_step`` is ``hint`` for a grid that has a next step, and an error for a solved one,
so that its type is ``Step`` (``hint``'s is ``Step | None``)."""

from __future__ import annotations

import typing

import pytest

import sudokit

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_next_step_is_the_hint() -> None:
    assert sudokit.next_step(PUZZLE) == sudokit.hint(PUZZLE)
    assert typing.get_type_hints(sudokit.next_step)["return"] is sudokit.Step


def test_next_step_of_a_solved_grid_is_an_error() -> None:
    solved = sudokit.solution(PUZZLE)
    assert sudokit.hint(solved) is None
    with pytest.raises(sudokit.AlreadySolvedError, match="already solved"):
        sudokit.next_step(solved)
