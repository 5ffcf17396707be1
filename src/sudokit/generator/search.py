"""The solution counter of one puzzle's generation: searches through the engine's bound
search (:meth:`sudokit._backend.Engine.bind`), with the search and rating-walk budgets.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from .. import _backend
from ..shape import Shape

__all__ = ["search_budget"]

_T = TypeVar("_T")


def search_budget(shape: Shape) -> int:
    """The guess bound of one uniqueness search during generation (0 = unbounded).

    Boxed shapes up to 9x9 are unbounded, so generation there depends only on solution counts.
    Larger sizes, jigsaws (some region maps make the search explode) and variant rules
    (windoku windows, anti-knight, ...: a random partial grid can take either engine millions
    of guesses to refute) bound each search;
    a search that runs out counts as a failed step (the clue batch is undone, or the clue is
    kept), which keeps every emitted puzzle unique. When minimality is
    not required, the removal pass above 9x9 uses a tighter bound (half the cell count), so
    clues whose removal is not proven quickly stay.

    >>> search_budget(Shape(3, 3, diagonals=True)), search_budget(Shape(4, 4)) > 0
    (0, True)
    """
    plain = shape.regions is None and shape.constraints is None and not shape.windoku
    return 0 if shape.n <= 9 and plain else 2000 + 20 * shape.ncells


class _Counter:
    """Counts solutions up to 2 and keeps the search budget of one puzzle."""

    __slots__ = (
        "_bound",
        "budget",
        "engine",
        "guess_budget",
        "levels",
        "reached",
        "searches",
        "shape",
        "walk_budget",
        "walks",
    )

    def __init__(
        self,
        engine: _backend.Engine,
        shape: Shape,
        budget: int,
        guess_budget: int,
        walk_budget: int = 0,
    ) -> None:
        self.engine = engine
        self.budget = budget or -1
        self.guess_budget = guess_budget
        self.searches = 0
        self.walks = 0  # rating walks spent (difficulty targets)
        self.walk_budget = walk_budget or -1
        self.reached: list[int] = []  # clue counts of failed attempts (for error messages)
        self.levels: dict[str, int] = {}  # levels of rated attempts (for error messages)
        self.use(shape)

    def rated(self, se: float | None) -> None:
        """Record one rating walk (its exact rating, or None when above the window)."""
        from ..rating import level_of

        key = "above the window" if se is None else level_of(se)
        self.levels[key] = self.levels.get(key, 0) + 1
        self.walks += 1
        if self.walks == self.walk_budget:
            raise _OutOfBudget

    def use(self, shape: Shape) -> None:
        """Count on *shape* from now on (a new random jigsaw map)."""
        self.shape = shape
        self._bound: _backend.BoundSearch | None = None

    @property
    def _search(self) -> _backend.BoundSearch:
        """The engine's search bound to the shape, bound at first use (a 9x9 attempt made in
        one engine call never searches through it)."""
        if self._bound is None:
            self._bound = self.engine.bind(self.shape)
        return self._bound

    def count(
        self, cells: bytes | bytearray, keep: int = 0, limit: int = 2
    ) -> tuple[int, bytes | None]:
        """(count up to *limit*, first solution when *keep*); -1 when the guess bound ran out."""
        if self.searches == self.budget:
            raise _OutOfBudget
        self.searches += 1
        count, solutions, _, complete = self._search(bytes(cells), limit, keep, self.guess_budget)
        if not complete:
            return -1, None
        return count, (solutions[0] if solutions else None)

    def two(self, cells: bytes | bytearray) -> tuple[int, tuple[bytes, ...]]:
        """(count up to 2, the solutions found); -1 and none when the guess bound ran out."""
        if self.searches == self.budget:
            raise _OutOfBudget
        self.searches += 1
        count, solutions, _, complete = self._search(bytes(cells), 2, 2, self.guess_budget)
        return (count, solutions) if complete else (-1, ())

    def rival(
        self, shape: Shape, puzzle: bytes | bytearray, solution: bytes
    ) -> tuple[int, bytes | None]:
        """Count *puzzle* on *shape* from now on, up to 2 (:meth:`two`): the count and a
        solution other than *solution* found (None when there is none)."""
        self.use(shape)
        count, found = self.two(puzzle)
        return count, next((s for s in found if s != solution), None)

    def minimize(self, puzzle: bytearray, cells: list[int]) -> bool:
        """Remove the clues of *cells*, in order, whose removal keeps *puzzle* unique."""
        from .reduce import reduce_cells

        return reduce_cells(puzzle, cells, self)


class _OutOfBudget(Exception):
    """Internal: the search budget of one puzzle is spent."""


class _Undecided(Exception):
    """Internal: a search ran out of its guess bound."""


def shuffled(items: Sequence[_T], rng: random.Random) -> list[_T]:
    """*items* in a random order (sorted by one ``rng.random()`` key each: faster than
    ``rng.shuffle`` and as reproducible)."""
    rand = rng.random
    keys = [rand() for _ in items]
    return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]
