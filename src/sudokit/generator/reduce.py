"""Phase 2 of generation: clue removal while the puzzle stays unique, minimality checks, and
the swap moves that walk below what one removal pass reaches."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .. import _backend
from ..grid import Grid
from .search import _Counter, _OutOfBudget, _Undecided, shuffled

__all__ = ["is_minimal"]


def _reduce(
    puzzle: bytearray,
    orbits: Sequence[tuple[int, ...]],
    counter: _Counter,
    *,
    floor: int = 0,
    stop: int | None = None,
) -> bool:
    """Remove each orbit of *orbits* (in order) whose removal keeps the puzzle unique.

    Never goes below *floor* clues; ends as soon as there are at most *stop* clues. Returns
    True when every orbit was decided (no orbit kept for the floor, a guess bound or *stop*),
    i.e. when no orbit of the result can be removed.
    """
    clues = len(puzzle) - puzzle.count(0)
    decided = True
    if stop is None and floor == 0 and max(map(len, orbits), default=1) == 1:
        return reduce_cells(puzzle, [o[0] for o in orbits], counter)
    for orbit in orbits:
        if stop is not None and clues <= stop:
            return False
        present = [i for i in orbit if puzzle[i]]
        if not present:
            continue
        if clues - len(present) < floor:
            decided = False
            continue
        saved = [puzzle[i] for i in present]
        for i in present:
            puzzle[i] = 0
        count, _ = counter.count(puzzle)
        if count == 1:
            clues -= len(present)
            continue
        for i, v in zip(present, saved, strict=True):
            puzzle[i] = v
        if count < 0:
            decided = False
    return decided


def reduce_cells(puzzle: bytearray, cells: list[int], counter: _Counter) -> bool:
    """:func:`_reduce` for single cells without floor or stop (the hot path of 9x9): the whole
    pass is one :meth:`~sudokit._backend.Engine.reduce` call (native in the C core)."""
    cap = counter.budget - counter.searches if counter.budget > 0 else None
    reduced, searches, decided, complete = counter.engine.reduce(
        counter.shape, bytes(puzzle), cells, range(1, len(cells) + 1), counter.guess_budget, cap
    )
    counter.searches += searches
    puzzle[:] = reduced
    if not complete:
        raise _OutOfBudget
    return decided


def _removable_clue(puzzle: bytes | bytearray, counter: _Counter) -> int | None:
    """A clue whose removal keeps *puzzle* unique, or None (then the puzzle is minimal).

    Raises :class:`_Undecided` when a search ran out of its guess bound.
    """
    work = bytearray(puzzle)
    for i, v in enumerate(puzzle):
        if not v:
            continue
        work[i] = 0
        count, _ = counter.count(work)
        work[i] = v
        if count == 1:
            return i
        if count < 0:
            raise _Undecided
    return None


def is_minimal(grid: Grid, *, backend: str | None = None) -> bool:
    """True when *grid* has exactly one solution and no single clue can be removed.

    Counts solutions up to 2 with the chosen engine (``"c"``, ``"python"``, or the default) for
    the puzzle and for each puzzle with one clue removed; unbounded, so slow for large sizes.

    >>> is_minimal(Grid.parse("1..." "..3." ".4.." "...2"))
    True
    >>> is_minimal(Grid.parse("12.." "..3." ".4.." "...2"))  # the 2 is implied
    False
    """
    counter = _Counter(_backend.get_engine(backend), grid.shape, 0, 0)
    if counter.count(grid.cells)[0] != 1:
        return False
    return _removable_clue(grid.cells, counter) is None


#: Swap moves one attempt may spend walking down toward a clue target.
_DESCENT_MOVES = 300


def _descend(
    puzzle: bytearray,
    solution: bytes,
    orbits: Sequence[tuple[int, ...]],
    counter: _Counter,
    rng: random.Random,
    most: int,
) -> int:
    """Walk from a puzzle no orbit can leave toward one with at most *most* clues.

    A move swaps a random clue orbit for a random empty one (digits from the solution), and
    when that is still unique removes every orbit it can again; the result replaces the puzzle
    when it has no more clues. Local moves like this reach the sparse puzzles (21 or fewer
    clues on 9x9) that a single removal pass almost never ends in. Returns the clue count.
    """
    clues = len(puzzle) - puzzle.count(0)
    for _ in range(_DESCENT_MOVES):
        if clues <= most:
            break
        present = [o for o in orbits if puzzle[o[0]]]
        absent = [o for o in orbits if not puzzle[o[0]]]
        out = present[int(rng.random() * len(present))]
        into = absent[int(rng.random() * len(absent))]
        trial = bytearray(puzzle)
        for i in out:
            trial[i] = 0
        for i in into:
            trial[i] = solution[i]
        if counter.count(trial)[0] != 1:
            continue
        if not _reduce(trial, shuffled([o for o in orbits if trial[o[0]]], rng), counter):
            continue
        count = len(trial) - trial.count(0)
        if count <= clues:
            puzzle[:] = trial
            clues = count
    return clues
