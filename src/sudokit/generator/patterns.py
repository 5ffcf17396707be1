"""Clue patterns: reading a clue mask, and repairing the digits of a filled pattern until it
has one solution."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..grid import Grid
from ..shape import Shape
from .search import _Counter

__all__ = ["parse_pattern"]

_MARKS = str.maketrans(dict.fromkeys("xX#oO@", "1"))


def parse_pattern(text: str, shape: Shape | None = None) -> tuple[int, ...]:
    """The clue positions of a pattern: cell text where a digit or one of ``x X # o O @``
    marks a clue and a blank (``. 0 - _ *``) marks an empty cell.

    Any layout :meth:`Grid.parse` reads works (a line, a picture with separators). Returns the
    marked cell indices in order.

    >>> parse_pattern("x..x" "...." "...." "x..x")
    (0, 3, 12, 15)
    """
    grid = Grid.parse(text.translate(_MARKS), shape)
    return tuple(i for i, v in enumerate(grid.cells) if v)


#: Solutions counted (exactly, so both engines agree) while repairing a pattern's digits.
_REPAIR_LIMIT = 50
#: Digit changes one attempt may spend repairing a pattern's digits.
_REPAIR_MOVES = 300


def _repair(
    shape: Shape, puzzle: bytearray, mask: Sequence[int], rng: random.Random, counter: _Counter
) -> bytes | None:
    """Change the digits of a filled pattern until it has one solution; return it, or None.

    A move gives one clue another digit its peers allow; it is kept when the puzzle still has
    a solution and no more solutions than before (counted up to :data:`_REPAIR_LIMIT`), so the
    walk drifts toward uniqueness. Far more patterns get filled this way than by drawing new
    digits from scratch.
    """
    peers = shape.peers
    n = shape.n
    count, solution = counter.count(puzzle, keep=1, limit=_REPAIR_LIMIT)
    for _ in range(_REPAIR_MOVES):
        if count == 1:
            return solution
        i = mask[int(rng.random() * len(mask))]
        used = {puzzle[j] for j in peers[i]}
        options = [d for d in range(1, n + 1) if d not in used and d != puzzle[i]]
        if not options:
            continue
        old = puzzle[i]
        puzzle[i] = options[int(rng.random() * len(options))]
        found, first = counter.count(puzzle, keep=1, limit=_REPAIR_LIMIT)
        if found < 1 or found > count:
            puzzle[i] = old
            continue
        count, solution = found, first
    return solution if count == 1 else None
