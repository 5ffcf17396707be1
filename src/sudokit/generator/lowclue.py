"""Sparse 9x9 puzzles, 17 to 23 clues: clue-exchange local search and a 17-clue seed catalogue.

A room of the generator package (:mod:`sudokit.generator.puzzle` calls :func:`attempt`
for plain 9x9 requests whose clue range ends at :data:`LOW_CLUES` or below). One removal pass
from a random grid ends at 21 clues or fewer only rarely, and no amount of random removal
finds 17-clue puzzles: there are exactly 49,158 of them up to isomorphism (McGuire,
Tugemann and Civario 2012). How each count is made:

* **20 to 23 clues: descent from a random minimal puzzle.** The start is the generator's
  random minimal puzzle (a random complete grid, 22-27 clues). A ``{-2,+1}`` move takes two
  clues out and puts one cell of the solution in so that the puzzle is unique again, then
  removes every clue it can (one native reduce pass): the puzzle loses at least one clue per
  move and stays minimal. When no move is found among the first pairs tried, a ``{-1,+1}``
  move (trade one clue for another, then reduce) changes the puzzle without adding clues;
  after too many of those the descent restarts from a new random grid. Past a move budget
  (:data:`DESCENT_MOVES`) the attempt falls back to the catalogue route below, so the time
  per puzzle stays bounded.
* **17 clues: the catalogue.** :data:`CATALOGUE` (package data ``data/seeds17.txt``) holds
  1004 of the 49,158 known 17-clue puzzles (every 49th line of Gordon Royle's public list).
  One is drawn, given a random isomorph (:func:`sudokit.transform.random_isomorph`: band,
  row, stack, column and digit permutations and a rotation or mirror), then walked by up to
  :data:`WALK_STEPS` ``{-1,+1}`` moves that keep 17 clues and uniqueness (about a third of
  the 17s have such a neighbour), so outputs are not all isomorphic to catalogue lines --
  but every 17-clue output is one of the known 17s, since those are all there are.
* **18 and 19 clues: catalogue-seeded growth.** From such a 17, ``{-1,+2}`` moves (one clue
  out, two cells of the solution in) are tried until the puzzle is unique *and* minimal,
  once for 18 clues and twice for 19. These puzzles share the solution grid (and all but a
  few clues) of a known 17. The descent reaches 19 clues too, but slowly (a median of about
  0.5 s and up to a few seconds in a 10-seed trial), so 18-19 are seeded.

Every output is minimal: a 17 has nothing to remove (no 16-clue puzzle exists), a descent
ends with a reduce pass, and a grown puzzle is kept only when a reduce pass removes nothing.
Every candidate is decided by counting solutions (limit 2). To make those counts rare, each walk
keeps a pool of *unavoidable sets* of its solution grid: when a candidate has a second
solution, the cells where that solution differs from the grid form a set that every unique
puzzle of the grid must hit, and later candidates that miss a known set are skipped without
a search (this is the counter-example-guided form of "enumerate the solutions of the reduced
puzzle and keep the cells where all of them differ"). Skipping only ever drops candidates a
search would refute, so the moves taken -- the first candidate in an order drawn from the
seeded rng that a count accepts -- and hence the puzzles depend only on the seed, not on the
engine (which solution a search finds first differs between engines; counts do not). Only the
number of searches spent may differ, which matters when a budget runs out. A clue that alone
hits a known set stays needed whatever else is removed, so reduce passes skip those too.

Cost (C core, CPU time per puzzle, ``benchmarks/bench_generate.py``): about 1.5 ms median at
22-23 clues, 7 ms at 21, 18 ms at 20 (where about half the descents fall back to a 17), 6-7
ms at 18-19 and 3 ms at 17; the slowest of 15 seeds per count stayed under 50 ms.

>>> from sudokit.shape import Shape
>>> applies(Shape(3, 3), "none", None, (17, 19)), applies(Shape(3, 3), "rot180", None, (20, 20))
(True, False)
>>> len(catalogue()), catalogue()[0].count(".")
(1004, 64)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Protocol

from ..grid import Grid
from ..marks import bit_indices
from ..shape import Shape
from ..transform import random_isomorph
from .search import shuffled

__all__ = [
    "CATALOGUE",
    "DESCENT_MOVES",
    "LOW_CLUES",
    "SEEDED_BELOW",
    "WALK_STEPS",
    "Counter",
    "applies",
    "attempt",
    "catalogue",
]

#: The highest clue count this module makes (requests whose range ends at or below it).
LOW_CLUES = 23
#: Counts below this one start from the catalogue (17-19 clues); from it up, a random grid.
SEEDED_BELOW = 20
#: The package data file of 17-clue seeds (relative to the ``sudokit`` package).
CATALOGUE = "data/seeds17.txt"
#: ``{-1,+1}`` steps that walk a catalogue 17 away from its catalogue line.
WALK_STEPS = 3
#: Moves (``{-2,+1}`` tries and ``{-1,+1}`` moves) one random descent may make before the
#: attempt takes the catalogue route.
DESCENT_MOVES = 40
#: Clue pairs one descent state tries for a ``{-2,+1}`` move before a ``{-1,+1}`` move.
_PAIRS = 3
#: ``{-1,+1}`` moves one descent makes before it restarts from a new random grid.
_PLATEAU_MOVES = 150

#: Clues a ``{-1,+2}`` move tries to take out before the seed is given up (bounds the tail).
_GROW_CLUES = 8
#: Unique but not minimal candidates one ``{-1,+2}`` move may check before giving up.
_GROW_CHECKS = 24
#: Unavoidable sets one walk remembers (the most recent ones).
_POOL = 400

_NCELLS = 81
_ALL = (1 << _NCELLS) - 1
# bytes.translate table: an empty cell (0) to "0", a digit to "1" (for cell bit masks).
_NONZERO = bytes([48] + [49] * 255)
_NINE = Shape(3, 3)


class Counter(Protocol):
    """What this module needs from the generator's solution counter (``_Counter``)."""

    searches: int

    def count(
        self, cells: bytes | bytearray, keep: int = 0, limit: int = 2
    ) -> tuple[int, bytes | None]:
        """(solutions up to *limit*, the first one found when *keep*)."""
        ...

    def minimize(self, puzzle: bytearray, cells: list[int]) -> bool:
        """Remove the clues of *cells*, in order, whose removal keeps *puzzle* unique."""
        ...


def applies(
    shape: Shape, symmetry: str, mask: Sequence[int] | None, target: tuple[int, int] | None
) -> bool:
    """True when a request is this module's: plain 9x9, no symmetry or pattern, and a clue
    range ending at :data:`LOW_CLUES` or below."""
    return (
        target is not None
        and target[1] <= LOW_CLUES
        and symmetry == "none"
        and mask is None
        and shape == _NINE
    )


@lru_cache(maxsize=1)
def catalogue() -> tuple[str, ...]:
    """The 17-clue seed puzzles of :data:`CATALOGUE` (81-character lines, ``.`` for blanks)."""
    from importlib.resources import files

    text = files("sudokit").joinpath(CATALOGUE).read_text(encoding="ascii")
    return tuple(line for line in text.splitlines() if line and not line.startswith("#"))


def _cells_mask(cells: bytes | bytearray) -> int:
    """The filled cells as a bit mask (bit i for cell i)."""
    return int(bytes(cells).translate(_NONZERO)[::-1], 2)


class _Walk:
    """A unique puzzle, its solution, and the unavoidable sets of that solution found so far.

    ``sets`` holds cell masks: for each one, some other valid grid agrees with the solution
    outside it, so a puzzle without a clue in it has a second solution. ``mask`` and
    ``clues`` describe the puzzle as of the last :meth:`index`; the hit index (built when
    first needed, then kept up to date as sets are learnt) lists the known sets that one or
    two clues of that puzzle alone hit, keyed by those clues' bits: the only sets that taking
    one or two clues out can leave unhit.
    """

    __slots__ = ("_hits", "clues", "counter", "mask", "puzzle", "sets", "solution", "truth")

    def __init__(self, puzzle: bytearray, solution: bytes, counter: Counter) -> None:
        self.puzzle = puzzle
        self.solution = solution
        self.truth = int.from_bytes(solution, "little")
        self.counter = counter
        self.sets: dict[int, None] = {}  # an ordered set
        self._hits: dict[int, list[int]] | None = None
        self.mask = 0
        self.clues = 0
        self.index()

    def index(self) -> None:
        """Take the puzzle as it is now (after it changed) as the walk's state."""
        mask = _cells_mask(self.puzzle)
        if mask != self.mask:
            self.mask = mask
            self.clues = mask.bit_count()
            self._hits = None

    def back(self, before: bytes, hits: dict[int, list[int]] | None) -> None:
        """Undo a move: the puzzle *before* it, with the hit index it had (sets learnt since
        may be missing from it, which only costs searches)."""
        self.puzzle[:] = before
        self.mask = _cells_mask(before)
        self.clues = self.mask.bit_count()
        self._hits = hits

    def hits(self) -> dict[int, list[int]]:
        """The hit index of the current state (see the class)."""
        if self._hits is None:
            mask = self.mask
            hits: dict[int, list[int]] = {}
            for u in self.sets:
                h = u & mask
                if h.bit_count() <= 2:
                    got = hits.get(h)
                    if got is None:
                        hits[h] = [u]
                    else:
                        got.append(u)
            self._hits = hits
        return self._hits

    def missed(self, x: int) -> list[int]:
        """The known sets only the clue *x* hits."""
        return list(self.hits().get(1 << x, ()))

    def unhit(self, out: Sequence[int]) -> int:
        """The cells that hit every known set the puzzle without the clues *out* misses."""
        hits = self.hits()
        bits = [1 << i for i in out]
        if len(bits) == 2:
            bits.append(bits[0] | bits[1])
        cand = _ALL
        for key in bits:
            for u in hits.get(key, ()):
                cand &= u
        return cand

    def needed(self) -> int:
        """The clues of the current state known to be needed: each alone hits a known set.
        They stay needed when other clues go, so a reduce pass can skip them."""
        needed = 0
        for key in self.hits():
            if not key & (key - 1):
                needed |= key
        return needed

    def unique(self, cells: bytearray) -> tuple[bool, int]:
        """Count the solutions of *cells* (which the solution solves): ``(unique, new set)``.

        The new set is the cells where a second solution differs (all cells when none was
        seen); it joins the pool.
        """
        count, first = self.counter.count(cells, keep=1)
        if count == 1:
            return True, _ALL
        if first is None:
            return False, _ALL
        return False, self.learn(first)

    def learn(self, other: bytes) -> int:
        """Add the set where *other*, a solution of some sub-puzzle, differs from the
        solution; return it (all cells when they are equal)."""
        if other == self.solution:
            return _ALL
        diff = (int.from_bytes(other, "little") ^ self.truth).to_bytes(_NCELLS, "little")
        u = int(diff.translate(_NONZERO)[::-1], 2)
        sets = self.sets
        if u in sets:
            return u
        sets[u] = None
        if len(sets) > _POOL:  # forget the oldest set (the index may keep it: still true)
            del sets[next(iter(sets))]
        if self._hits is not None:
            h = u & self.mask
            if h.bit_count() <= 2:
                self._hits.setdefault(h, []).append(u)
        return u

    def one_in(self, cand: int, order: Sequence[int]) -> int | None:
        """The first cell of *order* in *cand* whose solution digit makes the puzzle unique.

        The puzzle (with some clues taken out) is changed only for the search; *cand* holds
        the cells not excluded by known sets (it shrinks as new sets are found).
        """
        puzzle, solution = self.puzzle, self.solution
        cand &= ~_cells_mask(puzzle)
        for y in order:
            if not cand >> y & 1:
                continue
            puzzle[y] = solution[y]
            ok, u = self.unique(puzzle)
            puzzle[y] = 0
            if ok:
                return y
            cand &= u
            if not cand:
                return None
        return None

    def minimal(self) -> bool:
        """True when no clue of the (unique) puzzle can be removed (it is left unchanged)."""
        mask = _cells_mask(self.puzzle)
        needed = 0
        for u in self.sets:
            h = u & mask
            if not h & (h - 1):
                needed |= h
        rest = bit_indices(mask & ~needed)
        if not rest:
            return True
        trial = bytearray(self.puzzle)
        self.counter.minimize(trial, rest)
        return trial == self.puzzle

    def reduce(self, rng: random.Random) -> None:
        """Remove every clue whose removal keeps the puzzle unique (random order)."""
        self.index()
        needed = self.needed()
        order = [i for i in shuffled(bit_indices(self.mask), rng) if not needed >> i & 1]
        if order:
            self.counter.minimize(self.puzzle, order)
            self.index()


# -- moves ------------------------------------------------------------------------------------


def _swap(walk: _Walk, rng: random.Random, floor: int | None) -> bool:
    """A ``{-1,+1}`` move, then a reduce pass keeping at least *floor* clues (None: no
    reduce pass, for a 17 that cannot lose clues); True when a move was made."""
    puzzle = walk.puzzle
    order = shuffled(range(_NCELLS), rng)
    before, hits = bytes(puzzle), walk.hits()
    for x in shuffled(bit_indices(walk.mask), rng):
        cand = walk.unhit((x,)) & ~(1 << x)
        if not cand:
            continue
        value = puzzle[x]
        puzzle[x] = 0
        y = walk.one_in(cand, order)
        if y is None:
            puzzle[x] = value
            continue
        puzzle[y] = walk.solution[y]
        if floor is None:
            walk.index()
            return True
        walk.reduce(rng)
        if walk.clues >= floor:
            return True
        walk.back(before, hits)
    return False


def _drop(walk: _Walk, rng: random.Random, floor: int) -> bool:
    """A ``{-2,+1}`` move then a reduce pass, ending with *floor* clues or more.

    Tries the first :data:`_PAIRS` clue pairs (in a random order); True when a move was made,
    False when none of them has one.
    """
    puzzle, solution = walk.puzzle, walk.solution
    clues = shuffled(bit_indices(walk.mask), rng)
    order = shuffled(range(_NCELLS), rng)
    before, hits = bytes(puzzle), walk.hits()
    tried = 0
    for j in range(1, len(clues)):
        for i in range(j):
            tried += 1
            if tried > _PAIRS:
                return False
            a, b = clues[i], clues[j]
            cand = walk.unhit((a, b)) & ~(1 << a | 1 << b)  # P is minimal: a, b cannot help
            if not cand & ~walk.mask:
                continue
            puzzle[a] = puzzle[b] = 0
            y = walk.one_in(cand, order)
            if y is None:
                puzzle[a], puzzle[b] = before[a], before[b]
                continue
            puzzle[y] = solution[y]
            walk.reduce(rng)
            if walk.clues >= floor:
                return True
            walk.back(before, hits)
    return False


def _grow(walk: _Walk, rng: random.Random) -> bool:
    """A ``{-1,+2}`` move to a unique *minimal* puzzle with one clue more; True if made.

    For each clue x (the first :data:`_GROW_CLUES` in a random order) and each cell pair
    (y, z) in a random order: y is skipped when the puzzle without x and with y alone is
    unique (then any z would be redundant), and a pair is taken when the puzzle is unique
    and no clue can be removed. Gives up after :data:`_GROW_CHECKS` unique pairs that
    leave a removable clue.
    """
    puzzle, solution = walk.puzzle, walk.solution
    order = shuffled(range(_NCELLS), rng)
    checks = 0
    for x in shuffled(bit_indices(walk.mask), rng)[:_GROW_CLUES]:
        known = walk.missed(x)
        value = puzzle[x]
        puzzle[x] = 0
        free = _ALL & ~walk.mask & ~(1 << x)
        for k, y in enumerate(order):
            if not free >> y & 1:
                continue
            pending = free & ~(1 << y)
            for u in known:
                if not u >> y & 1:
                    pending &= u
            puzzle[y] = solution[y]
            if pending == free & ~(1 << y):  # y hits every known set: maybe alone
                alone, u = walk.unique(puzzle)
                if alone:
                    puzzle[y] = 0
                    continue
                known.append(u)
                pending &= u
            for z in order[k + 1 :]:
                if not pending >> z & 1:
                    continue
                puzzle[z] = solution[z]
                ok, u = walk.unique(puzzle)
                if ok:
                    if walk.minimal():
                        walk.index()
                        return True
                    puzzle[z] = 0
                    checks += 1
                    if checks == _GROW_CHECKS:
                        puzzle[y] = 0
                        puzzle[x] = value
                        return False
                else:
                    puzzle[z] = 0
                    known.append(u)
                    pending &= u
            puzzle[y] = 0
        puzzle[x] = value
    return False


# -- the two routes ---------------------------------------------------------------------------


def _seeded(goal: int, rng: random.Random, counter: Counter) -> _Walk | None:
    """A catalogue 17 in a random isomorph, walked, then grown to *goal* clues (or None)."""
    lines = catalogue()
    grid = random_isomorph(Grid.parse(lines[rng.randrange(len(lines))]), rng)
    puzzle = bytearray(grid.cells)
    count, solution = counter.count(puzzle, keep=1)
    if count != 1 or solution is None:  # the catalogue is checked by the tests
        raise AssertionError(f"catalogue puzzle {grid} is not unique")
    walk = _Walk(puzzle, solution, counter)
    for _ in range(WALK_STEPS):
        if not _swap(walk, rng, None):
            break
    while walk.clues < goal:
        if not _grow(walk, rng):
            return None
    return walk


def _descend(
    goal: int,
    rng: random.Random,
    counter: Counter,
    start: Callable[[], tuple[bytearray, bytes] | None],
) -> _Walk | None:
    """Random minimal puzzles walked down to *goal* clues, within :data:`DESCENT_MOVES` moves.

    The cap counts moves tried, not searches, so whether the descent succeeds depends only
    on the seed (searches saved by known unavoidable sets differ between engines).
    """
    moves = 0
    while moves < DESCENT_MOVES:
        got = start()
        if got is None:
            moves += 1
            continue
        walk = _Walk(got[0], got[1], counter)
        plateau = 0
        while walk.clues > goal and moves < DESCENT_MOVES:
            moves += 1
            if _drop(walk, rng, goal):
                continue
            plateau += 1
            if plateau > _PLATEAU_MOVES or not _swap(walk, rng, goal):
                break
        if walk.clues == goal:
            return walk
        moves += 1  # a restart costs a move too
    return None


def attempt(
    target: tuple[int, int],
    rng: random.Random,
    counter: Counter,
    start: Callable[[], tuple[bytearray, bytes] | None],
) -> tuple[bytearray, bytes] | None:
    """One try at a unique minimal 9x9 puzzle with a clue count in *target*.

    The count is drawn uniformly from *target*; *start* makes a random minimal puzzle and
    its solution (or None). Returns ``(puzzle, solution)``, or None when this try failed.
    """
    lo, hi = target
    goal = lo + rng.randrange(hi - lo + 1)
    walk = None
    if goal >= SEEDED_BELOW:
        walk = _descend(goal, rng, counter, start)
    if walk is None:
        walk = _seeded(goal, rng, counter)
    if walk is None or walk.clues != goal:
        return None
    return walk.puzzle, walk.solution
