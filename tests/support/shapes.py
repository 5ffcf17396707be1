"""The shapes the C parity tests run on beside plain 9x9, by test id, and :func:`by_shape`,
which parametrizes a test over some of them with a count (of states, of puzzles) each.

>>> [p.id for p in by_shape({"4x4": 30, "16x16": 2})]
['4x4', '16x16']
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from _pytest.mark import ParameterSet

from sudokit.constraints import Constraints
from sudokit.shape import Shape

#: The regions of the jigsaw puzzles of tests/data/corpus.txt.
JIGSAW = "AAABBBCCCAAABBCCCCAAABBBBFCDDDDDEFFCDDEEEEFFFDDEEHEFIFGGGEHIIIFGGGGHHIIIGGHHHHHII"

SHAPES: dict[str, Shape] = {
    "4x4": Shape(2, 2),
    "6x6": Shape(2, 3),
    "diagonals": Shape(3, 3, diagonals=True),
    "windoku": Shape(3, 3, windoku=True),
    "jigsaw": Shape.jigsaw(JIGSAW),
    "antiknight": Shape(3, 3, constraints=Constraints(antiknight=True)),
    "16x16": Shape(4, 4),
    "25x25": Shape(5, 5),
}


def by_shape(counts: Mapping[str, int]) -> list[ParameterSet]:
    """The ``(shape, count)`` parameters of a test, one per entry of *counts* (a shape's id
    in :data:`SHAPES` and its count), each with that id."""
    return [pytest.param(SHAPES[name], count, id=name) for name, count in counts.items()]
