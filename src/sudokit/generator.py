"""Puzzle generation: random unique puzzles of every shape, symmetric, minimal, seeded (layer 6).

How a puzzle is made (:func:`generate`):

1. **Clue addition.** Starting from an empty grid, random digits are placed on random cells
   (orbit by orbit when a symmetry is asked for), each digit drawn from those its placed peers
   leave open. After every batch the search engine counts the solutions up to 2: none means
   the batch is undone (and the batch size halved; a single digit that fails is banned from
   its cell); two or more means keep going; exactly one ends the phase. The result is a
   random unique puzzle and its solution -- a random complete grid, not a relabelling of a
   fixed one.
2. **Clue removal.** The clues are visited orbit by orbit in random order; an orbit is
   removed when the puzzle stays unique without it (counted up to 2 again). Removing clues
   only ever adds solutions, so one pass leaves a puzzle from which no orbit can be removed;
   with ``symmetry="none"`` that is a *minimal* puzzle (no single clue can be removed).
3. **Targets.** A clue range is met by stopping the removal at a random count inside the
   range, or adding back clues of the solution when the puzzle is too sparse. Below what one
   removal pass reaches (about 21 clues on 9x9) swap moves walk on: trade a clue orbit for an
   empty one and remove again, keeping the result when it has no more clues. Otherwise a new
   attempt starts, until the search budget is spent (:class:`BudgetExceededError` then says
   what was reached). Plain 9x9 ranges ending at 23 clues or below go to
   :mod:`sudokit._lowclue` instead (exact counts down to 17, always minimal): a descent by
   clue-exchange moves from a random minimal puzzle for 20-23 clues, and for 17-19 clues
   a random isomorph of a packaged catalogue 17 (walked, then grown one clue at a time),
   with four times the default search budget. A pattern (a clue mask) is filled by running
   phase 1 on the mask's cells only; when the mask is full and still has several solutions,
   digit changes that never raise the solution count (counted exactly up to 50) walk it to
   uniqueness.
4. **Difficulty** (``difficulty=`` a level, ``rating=(lo, hi)``, ``require=`` techniques). Each
   candidate is judged by walking its rated path (:func:`sudokit.rate`, SE techniques easiest
   first) with only the techniques the window can use, so the verdict is exact but the
   expensive forcing chains above the window never run: an easy puzzle costs a singles pass,
   a too-hard one stops where the walk gets stuck. From there the generator climbs toward the
   window: it adds a clue of the solution (an orbit, under a symmetry) on a cell still empty
   where the walk got stuck, keeps the move while the puzzle is still too hard and undoes it
   when it lands below the window (up to four clues). Added clues keep the solution unique
   but the puzzle is then no longer minimal (``minimal=True`` forbids such moves). Windows
   ending at or below SE 7.5 are judged without any time limit, so the puzzle depends only on
   the seed; above that each walk gets 10 s. The cost is bounded by *ratings* walks.

Every decision depends only on solution *counts* and on the solution of a *unique* puzzle,
which both engines agree on (the parity contract in :mod:`sudokit._backend`). So the same
seed and version give the same puzzles with the C core or the pure-Python reference, on every
platform. The exceptions are the shapes whose searches get a guess bound (sizes above 9x9,
and jigsaws: see :func:`search_budget`): a search that hits it counts as a failure, engines
count guesses differently, and there phase 1 switches to the digits of the engine's first
solution after its first failed batch (so large grids never hit random contradictions their
bound cannot refute). A difficulty window above SE 7.5 also depends on the walks' time budget.

Randomness only comes from a :class:`random.Random` seeded by the caller (``seed=``) or passed
in (``rng=``); nothing touches the global random state. :func:`generate_many` derives one seed
per puzzle (:func:`derive_seed`), so shards and worker processes give the same puzzles.

Performance (9x9, C core): a minimal puzzle costs about 30 searches in phase 1 (17 that find
two solutions, at ~9 us each, 12 refuted by propagation at ~4 us, and the last one) and one
native :meth:`~sudokit._backend.Engine.reduce` call for phase 2 (about 39 searches). Phase 1's
C searches are ~60% of its time and the Python around them ~40%; the whole puzzle splits
roughly half phase 1, 30% phase 2, 20% seeding, shuffles and results. Phase 1's search count is
already the fewest among the batch policies tried (a sixth to a tenth of the cells, growing
back or not). Most searches that find two solutions could be skipped exactly (a unique
rectangle of the last solution found without a clue proves a second solution, ~8 of 17), but
finding rectangles in Python costs as much as the search it saves; a core search that reports
it would not change any puzzle.

>>> p = generate(size=4, seed=1)
>>> p.puzzle.clues >= 4, p.solution.is_solution(p.puzzle), p.minimal
(True, True, True)
>>> str(p.puzzle) == str(generate(size=4, seed=1).puzzle)
True
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import TYPE_CHECKING, TypeVar

from . import _backend, _lowclue
from .errors import BudgetExceededError, SudokuError, quote
from .grid import Grid
from .marks import bit_indices
from .shape import Shape

if TYPE_CHECKING:
    from .logic.registry import Technique

__all__ = [
    "SYMMETRIES",
    "GeneratedPuzzle",
    "PuzzleRun",
    "applicable_symmetries",
    "derive_seed",
    "generate",
    "generate_many",
    "is_minimal",
    "is_symmetric",
    "min_clues",
    "parse_pattern",
    "random_jigsaw",
    "search_budget",
]

log = logging.getLogger(__name__)
_T = TypeVar("_T")

#: The clue-pattern symmetries, in the order the CLI lists them.
SYMMETRIES = (
    "none",
    "rot180",
    "rot90",
    "mirror-h",
    "mirror-v",
    "diagonal",
    "anti-diagonal",
    "dihedral",
)

_Map = Callable[[int, int, int], tuple[int, int]]

# Position maps (row, col, n) -> (row, col). mirror-h reflects in the horizontal axis (row r
# <-> row n-1-r), mirror-v in the vertical axis (column c <-> column n-1-c).
_MAPS: dict[str, _Map] = {
    "rot90": lambda r, c, n: (c, n - 1 - r),
    "rot180": lambda r, c, n: (n - 1 - r, n - 1 - c),
    "rot270": lambda r, c, n: (n - 1 - c, r),
    "mirror-h": lambda r, c, n: (n - 1 - r, c),
    "mirror-v": lambda r, c, n: (r, n - 1 - c),
    "diagonal": lambda r, c, n: (c, r),
    "anti-diagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
}

# The non-identity elements of each symmetry group.
_GROUPS: dict[str, tuple[str, ...]] = {
    "none": (),
    "rot180": ("rot180",),
    "rot90": ("rot90", "rot180", "rot270"),
    "mirror-h": ("mirror-h",),
    "mirror-v": ("mirror-v",),
    "diagonal": ("diagonal",),
    "anti-diagonal": ("anti-diagonal",),
    "dihedral": tuple(_MAPS),
}

# Fewest clues a unique puzzle can have, where it is known (standard shapes only): 4x4 has 4,
# 6x6 (2x3 boxes) 8, 9x9 17 (McGuire, Tugemann and Civario 2012). Elsewhere n - 1 (at most
# one digit can be absent from the givens) is the bound used.
_KNOWN_MIN_CLUES = {(2, 2): 4, (2, 3): 8, (3, 2): 8, (3, 3): 17}


# -- symmetry ----------------------------------------------------------------------------------


def _permutation(shape: Shape, name: str) -> tuple[int, ...]:
    n = shape.n
    f = _MAPS[name]
    out = []
    for i in range(shape.ncells):
        r, c = f(*divmod(i, n), n)
        out.append(r * n + c)
    return tuple(out)


@lru_cache(maxsize=128)
def _symmetry_ok(shape: Shape, symmetry: str) -> bool:
    """True when every map of *symmetry* sends each unit of *shape* onto a unit."""
    units = {frozenset(u) for u in shape.units}
    for name in _GROUPS[symmetry]:
        perm = _permutation(shape, name)
        if any(frozenset(perm[i] for i in unit) not in units for unit in units):
            return False
    return True


def _unknown_symmetry(symmetry: str) -> SudokuError:
    return SudokuError(
        f"unknown symmetry {quote(symmetry)}, expected one of {', '.join(SYMMETRIES)}"
    )


def _check_symmetry(shape: Shape, symmetry: str) -> None:
    if symmetry not in _GROUPS:
        raise _unknown_symmetry(symmetry)
    if not _symmetry_ok(shape, symmetry):
        what = "region map" if shape.regions is not None else f"{shape.box_spec} boxes"
        fits = ", ".join(applicable_symmetries(shape))
        raise SudokuError(
            f"symmetry {symmetry!r} does not fit a {shape.n}x{shape.n} grid with {what} "
            f"(it does not map units onto units); symmetries that fit: {fits}"
        )


def applicable_symmetries(shape: Shape) -> tuple[str, ...]:
    """The symmetries that map the units of *shape* onto units (so they may shape a pattern).

    Rotating a 6x6 grid by 90 degrees turns its 2x3 boxes into 3x2 ones, so ``rot90`` does not
    fit it; a jigsaw allows only the symmetries of its region map.

    >>> applicable_symmetries(Shape(2, 3))
    ('none', 'rot180', 'mirror-h', 'mirror-v')
    >>> len(applicable_symmetries(Shape(3, 3)))
    8
    """
    return tuple(s for s in SYMMETRIES if _symmetry_ok(shape, s))


@lru_cache(maxsize=128)
def _orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cell orbits of *symmetry*, each sorted, in order of their first cell."""
    perms = [_permutation(shape, name) for name in _GROUPS[symmetry]]
    seen = [False] * shape.ncells
    orbits = []
    for i in range(shape.ncells):
        if seen[i]:
            continue
        orbit = sorted({i, *(p[i] for p in perms)})
        for j in orbit:
            seen[j] = True
        orbits.append(tuple(orbit))
    return tuple(orbits)


def is_symmetric(grid: Grid, symmetry: str) -> bool:
    """True when the clue positions of *grid* are invariant under *symmetry* (digits ignored).

    >>> g = Grid.parse("1..." "...." "...." "...2")
    >>> is_symmetric(g, "rot180"), is_symmetric(g, "mirror-h")
    (True, False)
    """
    if symmetry not in _GROUPS:
        raise _unknown_symmetry(symmetry)
    cells = grid.cells
    for name in _GROUPS[symmetry]:
        perm = _permutation(grid.shape, name)
        if any((cells[i] == 0) != (cells[perm[i]] == 0) for i in range(len(cells))):
            return False
    return True


# -- engine helpers ----------------------------------------------------------------------------


def search_budget(shape: Shape) -> int:
    """The guess bound of one uniqueness search during generation (0 = unbounded).

    Boxed shapes up to 9x9 are unbounded, so generation there depends only on solution counts.
    Larger sizes, and jigsaws (some region maps make the search explode), bound each search;
    a search that runs out counts as a failed step (the clue batch is undone, or the clue is
    kept), which keeps every emitted puzzle unique. When minimality is
    not required, the removal pass above 9x9 uses a tighter bound (half the cell count), so
    clues whose removal is not proven quickly stay.

    >>> search_budget(Shape(3, 3, diagonals=True)), search_budget(Shape(4, 4)) > 0
    (0, True)
    """
    return 0 if shape.n <= 9 and shape.regions is None else 2000 + 20 * shape.ncells


def min_clues(shape: Shape) -> int:
    """A lower bound on the clues of a unique puzzle of *shape* (exact where it is known).

    >>> min_clues(Shape(3, 3)), min_clues(Shape(4, 4)), min_clues(Shape(3, 3, diagonals=True))
    (17, 15, 8)
    """
    if shape.is_standard:
        known = _KNOWN_MIN_CLUES.get((shape.box_rows, shape.box_cols))
        if known is not None:
            return known
    return max(shape.n - 1, 0)


_Found = tuple[int, tuple[bytes, ...], int, bool]
_Search = Callable[[bytes, int, int, int], _Found]


def _bind(engine: _backend.Engine, shape: Shape) -> _Search:
    """``search(cells, limit, keep, budget)`` of *engine* on *shape*, with the per-call shape
    lookups done once. Generation makes tens of thousands of small searches per second, so
    the C core is called directly with its cached geometry (same results as ``CEngine``)."""
    if engine.name == "c":
        return _c_search(shape, bool(getattr(engine, "_generic", False)))

    def search(cells: bytes, limit: int, keep: int, budget: int) -> _Found:
        found = engine.search(shape, cells, limit, keep, budget)
        return found.count, found.solutions, found.guesses, found.complete

    return search


@lru_cache(maxsize=64)
def _c_search(shape: Shape, generic: bool) -> _Search:
    from . import _cengine, _core

    # A partial of the builtin runs without a Python frame per call.
    return partial(_core.search, _cengine.geometry(shape, generic=generic))


class _Counter:
    """Counts solutions up to 2 and keeps the search budget of one puzzle."""

    __slots__ = (
        "_search",
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
        from .rating import level_of

        key = "above the window" if se is None else level_of(se)
        self.levels[key] = self.levels.get(key, 0) + 1
        self.walks += 1
        if self.walks == self.walk_budget:
            raise _OutOfBudget

    def use(self, shape: Shape) -> None:
        """Count on *shape* from now on (a new random jigsaw map)."""
        self.shape = shape
        self._search = _bind(self.engine, shape)

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

    def minimize(self, puzzle: bytearray, cells: list[int]) -> bool:
        """Remove the clues of *cells*, in order, whose removal keeps *puzzle* unique."""
        return _reduce_cells(puzzle, cells, self)


class _OutOfBudget(Exception):
    """Internal: the search budget of one puzzle is spent."""


# -- phase 1: clue addition ------------------------------------------------------------------


@lru_cache(maxsize=16)
def _digit_table(n: int) -> tuple[tuple[int, ...], ...]:
    """For every mask of *n* bits, the indices of its set bits (sizes up to 12)."""
    return tuple(tuple(d for d in range(n) if m >> d & 1) for m in range(1 << n))


def _fill(
    shape: Shape,
    order: Sequence[tuple[int, ...]],
    rng: random.Random,
    counter: _Counter,
    *,
    complete_orbits: bool,
    guided: bool = False,
) -> tuple[bytearray, bytes | None] | None:
    """Place random digits on the cells of *order* (orbits, in order) until the puzzle is unique.

    Returns ``(puzzle, solution)``; ``(puzzle, None)`` when every cell got a digit and the
    puzzle still has several solutions; ``None`` when a cell had no digit left. With
    *complete_orbits* the orbit in which uniqueness was reached is completed from the
    solution, so the clue positions stay symmetric.

    With *guided*, the first batch that fails switches from random digits to the digits of
    the last solution found (which never fail). That avoids the random contradictions that
    large sizes cannot refute within their guess bound, at the price of depending on which
    solution the engine finds first (so it is used only where a guess bound applies anyway).
    """
    n = shape.n
    full = (1 << n) - 1
    table = _digit_table(n) if n <= 12 else None
    rand = rng.random
    search = counter._search
    guess_budget = counter.guess_budget
    budget = counter.budget
    cell_units = shape.cell_units
    puzzle = bytearray(shape.ncells)
    used = [0] * len(shape.units)  # digits placed in each unit, as bit masks (bit d-1 for d)
    banned = [0] * shape.ncells  # digits proven impossible in a cell, given the placed ones
    cells: list[int] = [i for orbit in order for i in orbit]
    ncells = len(cells)
    ends: list[int] = []  # for each position in cells, the position just after its orbit
    if complete_orbits:
        for orbit in order:
            ends.extend([len(ends) + len(orbit)] * len(orbit))
    # Batch sizes (tuned on 9x9, 16x16 and 25x25, counting searches): guided fills start
    # smaller and double, since their batches never fail; random ones start with a fifth of
    # the grid (almost always consistent) and go on in tenths.
    step = max(1, shape.ncells // 9 if guided else shape.ncells // 5)
    cap = max(1, shape.ncells // 4 if guided else shape.ncells // 10)
    grow = 2 if guided else 1
    k = 0  # cells[:k] hold digits, and that puzzle has a solution
    solution: bytes | None
    last: bytes | None = None  # the solution found by the last successful count
    guide: bytes | None = None  # in guided mode, the solution whose digits are placed
    while k < ncells:
        if step == 1 and guide is None:
            # One random digit (most of a 9x9 fill): the batch loop below without its lists.
            i = cells[k]
            units = cell_units[i]
            m = banned[i]
            for u in units:
                m |= used[u]
            m = full & ~m
            if not m:
                return None
            options = table[m] if table is not None else bit_indices(m)
            d = options[int(rand() * len(options))]
            puzzle[i] = d + 1
            if counter.searches == budget:
                raise _OutOfBudget
            counter.searches += 1
            count, found, _, complete = search(bytes(puzzle), 2, 1, guess_budget)
            if complete and count >= 1:
                bit = 1 << d
                for u in units:
                    used[u] |= bit
                k += 1
                step = min(grow, cap)
                if count == 1:
                    solution = found[0]
                    if complete_orbits:
                        for j in range(k, ends[k - 1]):
                            puzzle[cells[j]] = solution[cells[j]]
                    return puzzle, solution
                last = found[0]
                continue
            if guided and last is not None:
                guide = last
            puzzle[i] = 0
            banned[i] |= 1 << d
            continue
        batch = cells[k : k + step]
        placed: list[int] = []
        if guide is not None:
            for i in batch:
                puzzle[i] = guide[i]
            placed = batch
        else:
            for i in batch:
                units = cell_units[i]
                m = banned[i]
                for u in units:
                    m |= used[u]
                m = full & ~m
                if not m:
                    break
                options = table[m] if table is not None else bit_indices(m)
                d = options[int(rand() * len(options))]
                puzzle[i] = d + 1
                bit = 1 << d
                for u in units:
                    used[u] |= bit
                placed.append(i)
        dead = len(placed) < len(batch)
        count, solution = 0, None
        if not dead:
            if counter.searches == budget:
                raise _OutOfBudget
            counter.searches += 1
            count, found, _, complete = search(bytes(puzzle), 2, 1, guess_budget)
            if not complete:
                count = -1
            elif found:
                solution = found[0]
        if guide is not None and count < 1:
            count, solution = 2, guide  # the guide solves it: only uniqueness is undecided
        if count >= 1:
            k += len(placed)
            if count == 1:
                assert solution is not None
                if complete_orbits:
                    for j in range(k, ends[k - 1]):
                        puzzle[cells[j]] = solution[cells[j]]
                return puzzle, solution
            step = min(step * grow, cap)
            last = solution
            continue
        if guided and last is not None:
            guide = last
        # No solution, or undecided within the guess bound: undo the batch.
        bit = 0
        for i in placed:
            bit = 1 << (puzzle[i] - 1)
            puzzle[i] = 0
            for u in cell_units[i]:
                used[u] &= ~bit
        if step > 1:
            step = max(1, step // 2)
        elif dead:
            return None
        else:
            banned[placed[0]] |= bit
    return puzzle, None


# -- phase 2: clue removal ---------------------------------------------------------------------


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
        return _reduce_cells(puzzle, [o[0] for o in orbits], counter)
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


def _reduce_cells(puzzle: bytearray, cells: list[int], counter: _Counter) -> bool:
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


class _Undecided(Exception):
    """Internal: a search ran out of its guess bound."""


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


# -- patterns and region maps ------------------------------------------------------------------

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


def _neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        out.append(
            tuple(
                rr * n + cc
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < n and 0 <= cc < n
            )
        )
    return tuple(out)


def _connected(regions: Sequence[int], label: int, neighbours: tuple[tuple[int, ...], ...]) -> bool:
    members = [i for i, x in enumerate(regions) if x == label]
    seen = {members[0]}
    todo = [members[0]]
    while todo:
        i = todo.pop()
        for j in neighbours[i]:
            if j not in seen and regions[j] == label:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(members)


def _invariant(regions: Sequence[int], perm: Sequence[int]) -> bool:
    """True when *perm* maps every region of *regions* onto one region."""
    image: dict[int, int] = {}
    return all(
        image.setdefault(x, regions[perm[i]]) == regions[perm[i]] for i, x in enumerate(regions)
    )


def random_jigsaw(
    n: int,
    rng: random.Random,
    *,
    symmetry: str = "none",
    diagonals: bool = False,
    swaps: int | None = None,
) -> Shape:
    """A random jigsaw shape of size *n*: *n* connected regions of *n* cells each.

    Starts from the boxes of ``Shape.from_size(n)`` and trades cells between side-by-side
    regions (with their images under *symmetry*, so the region map keeps that symmetry),
    keeping every region connected. Whether the map admits a solution is checked
    by the generator, not here.

    >>> s = random_jigsaw(6, random.Random(3), symmetry="rot180")
    >>> s.variant, s.n, "rot180" in applicable_symmetries(s), s.regions != Shape(2, 3).box_of
    ('jigsaw', 6, True, True)
    """
    base = Shape.from_size(n, diagonals=diagonals)
    _check_symmetry(base, symmetry)
    neighbours = _neighbours(n)
    perms = [_permutation(base, name) for name in _GROUPS[symmetry]]
    regions = list(base.box_of)
    # Symmetric moves are rejected more often (their images collide), so they get more tries.
    for _ in range(4 * n * n * (1 + len(perms)) if swaps is None else swaps):
        # Move a cell a from its region A into a side-by-side region B, and a cell c of B that
        # touches A (and is not a) into A: sizes stay n; connectivity is checked below.
        a = rng.randrange(n * n)
        nb = neighbours[a]
        b = nb[rng.randrange(len(nb))]
        ra, rb = regions[a], regions[b]
        if ra == rb:
            continue
        touching = [
            c
            for c in range(n * n)
            if regions[c] == rb and any(regions[x] == ra and x != a for x in neighbours[c])
        ]
        if not touching:
            continue
        c = touching[rng.randrange(len(touching))]
        # Each map sends region X to the region of the image of any of its cells.
        changes = {a: rb, c: ra}
        ok = True
        for p in perms:
            for cell, label in ((a, rb), (c, ra)):
                image_label = regions[p[regions.index(label)]]
                if changes.setdefault(p[cell], image_label) != image_label:
                    ok = False
        if not ok:
            continue
        trial = regions.copy()
        for cell, label in changes.items():
            trial[cell] = label
        labels = set(changes.values()) | {regions[x] for x in changes}
        if any(trial.count(x) != n for x in labels):
            continue
        if not all(_connected(trial, x, neighbours) for x in labels):
            continue
        if not all(_invariant(trial, p) for p in perms):
            continue
        regions = trial
    return Shape(base.box_rows, base.box_cols, diagonals=diagonals, regions=regions)


# -- the public generator ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GeneratedPuzzle:
    """A generated puzzle, its unique solution, and how it was made.

    ``seed`` regenerates it (with the same options and version) when it was generated from a
    seed (``None`` when a caller's ``rng`` was used). ``minimal`` is True when no single clue
    can be removed -- proven during generation, not assumed. ``searches`` counts the engine
    searches spent (a diagnostic, not part of equality). ``se`` is the puzzle's SE rating (as
    :func:`sudokit.rate` gives it) when a difficulty target made the generator compute it.
    """

    puzzle: Grid
    solution: Grid
    seed: int | None
    symmetry: str
    minimal: bool
    searches: int = field(default=0, compare=False)
    se: float | None = field(default=None, compare=False)

    @property
    def clues(self) -> int:
        """How many clues the puzzle has."""
        return self.puzzle.clues

    @property
    def shape(self) -> Shape:
        """The shape of the puzzle (for a random jigsaw, its region map)."""
        return self.puzzle.shape


def derive_seed(seed: int, index: int) -> int:
    """The seed of puzzle *index* of a run seeded with *seed* (64 bits, platform independent).

    :func:`generate_many` uses it, so any puzzle of a run -- and any shard of it -- can be
    regenerated on its own.

    >>> derive_seed(7, 0) == derive_seed(7, 0) != derive_seed(7, 1)
    True
    """
    digest = hashlib.sha256(f"sudokit.generate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class _Plan:
    """Validated generation options (picklable, for worker processes)."""

    shape: Shape  # for a random jigsaw: the base shape (size, diagonals)
    random_jigsaw: bool
    symmetry: str
    target: tuple[int, int] | None
    minimal: bool
    mask: tuple[int, ...] | None
    budget: int
    backend: str | None
    goal: _Target | None = None  # a difficulty target
    minimal_required: bool = False  # minimal asked for explicitly (no clues may be added)
    ratings: int = 0  # rating walks per puzzle (with a difficulty target)


@dataclass(frozen=True, slots=True)
class _Target:
    """A validated difficulty target (picklable): the SE window and the required techniques.

    ``require`` holds, for each requirement, the technique names that satisfy it (one name for
    a technique, every SE technique of a family for a family). ``cap`` is the highest base
    rating the judging walk uses (see :func:`_judge`).
    """

    label: str
    lo: float
    hi: float
    require: tuple[tuple[str, ...], ...] = ()
    cap: float = 0.0


#: Rating walks one puzzle may spend when its window ends at or below :data:`_DETERMINISTIC`.
_RATINGS = 1000
#: ... and when it reaches above (those walks run the expensive forcing chains).
_RATINGS_SLOW = 300
#: Windows ending at or below this SE rating are judged without any time budget (so the result
#: depends only on the seed); above it each walk gets :data:`_WALK_SECONDS`.
_DETERMINISTIC = 7.5
_WALK_SECONDS = 10.0
#: Clues one stuck candidate may get added while it is walked toward the window.
_CLIMB_MOVES = 4


def _technique_table() -> tuple[dict[str, tuple[str, float, bool]], dict[str, list[str]]]:
    """``({lower name: (name, base rating, se)}, {family: [SE technique names]})``."""
    from .logic.registry import TECHNIQUES

    names = {t.name.lower(): (t.name, t.rating, t.se) for t in TECHNIQUES}
    families: dict[str, list[str]] = {}
    for t in TECHNIQUES:
        if t.se:
            families.setdefault(t.family, []).append(t.name)
    return names, families


def _word_end(rest: str) -> bool:
    """True when *rest* (what follows a prefix) starts at a word end, allowing a plural s."""
    if rest[:1] == "s":
        rest = rest[1:]
    return not rest[:1].isalnum()


def _requirement(wanted: str) -> tuple[tuple[str, ...], float, float]:
    """``(technique names, lowest base rating, highest base rating)`` of one ``require`` entry:
    a technique of the registry, a family, or the first words of technique names ("Hidden
    Single", "Forcing Chain", "Unique Rectangle"), all case-insensitive."""
    names, families = _technique_table()
    key = " ".join(wanted.split()).lower()
    prefixed = [
        name
        for low, (name, _, se) in names.items()
        if se and low.startswith(key) and _word_end(low[len(key) :])
    ]
    if key not in names and key not in families and prefixed:
        bases = [names[m.lower()][1] for m in prefixed]
        return tuple(prefixed), min(bases), max(bases)
    if key in names:
        name, base, se = names[key]
        if not se:
            raise SudokuError(
                f"{quote(name)} is not one of Sudoku Explainer's techniques, so it never appears "
                f"on the rated path; require an SE technique or a family "
                f"({', '.join(families)})"
            )
        return (name,), base, base
    if key in families:
        members = families[key]
        bases = [names[m.lower()][1] for m in members]
        return tuple(members), min(bases), max(bases)
    raise SudokuError(
        f"unknown technique {quote(wanted)}: expected a technique of the rating (such as "
        f"'X-Wing', 'XY-Wing', 'Naked Pair') or a family ({', '.join(families)})"
    )


def _target(
    difficulty: str | tuple[float, float] | None,
    rating: tuple[float, float] | None,
    require: str | Sequence[str] | None,
) -> _Target | None:
    """The SE window a level name, an ``(lo, hi)`` range and required techniques allow."""
    from .rating import LEVELS, SEARCH_RATING

    if difficulty is None and rating is None and not require:
        return None
    lo, hi = 0.0, SEARCH_RATING
    labels: list[str] = []
    windows: list[tuple[float, float]] = []
    if isinstance(difficulty, str):
        below = 0.0
        for name, bound in LEVELS:
            if name == difficulty.strip().lower():
                windows.append((below, min(bound, SEARCH_RATING)))
                labels.append(name)
                break
            below = bound + 1e-9
        else:
            known = ", ".join(name for name, _ in LEVELS)
            raise SudokuError(f"unknown difficulty {quote(difficulty)}, expected one of {known}")
    elif difficulty is not None:
        rating = _intersect_rating(rating, difficulty)
    if rating is not None:
        a, b = float(rating[0]), float(rating[1])
        if not 0 <= a <= b:
            raise SudokuError(f"rating range {a}-{b} is empty or negative")
        if a > SEARCH_RATING:
            raise SudokuError(
                f"no puzzle rates above {SEARCH_RATING} (the rating of a step proven by search, "
                f"the last resort of every path); asked for {a}-{b}"
            )
        windows.append((a, b))
        labels.append(f"SE {a}-{b}")
    for a, b in windows:
        lo, hi = max(lo, a), min(hi, b)
    if lo > hi:
        raise SudokuError(f"the difficulty {' and '.join(labels)} do not overlap")
    if hi < 1.0:
        raise SudokuError(f"every step rates at least 1.0; asked for at most {hi}")
    needs: list[tuple[str, ...]] = []
    wanted = [require] if isinstance(require, str) else list(require or ())
    cap = hi if windows else 0.0
    for w in wanted:
        names, least, most = _requirement(w)
        if least > hi:
            raise SudokuError(
                f"{quote(w)} rates at least {least}, above the wanted difficulty "
                f"{' and '.join(labels)}"
            )
        needs.append(names)
        labels.append(f"needing {w}")
        if not windows:
            cap = max(cap, most)
    return _Target(", ".join(labels), lo, hi, tuple(needs), cap)


def _intersect_rating(
    rating: tuple[float, float] | None, other: tuple[float, float]
) -> tuple[float, float]:
    if rating is None:
        return other
    return max(rating[0], other[0]), min(rating[1], other[1])


@lru_cache(maxsize=32)
def _walk_techniques(cap: float) -> tuple[Technique, ...]:
    """The SE techniques of base rating up to *cap*, easiest first, each relabelled with its
    own name as its family: the walk is unchanged, and ``Path.families`` then names the
    technique behind every step (step names such as "Forcing Chain" differ from them)."""
    from dataclasses import replace

    from .logic.path import default_techniques

    return tuple(
        replace(t, family=t.name)
        for t in default_techniques(se_only=True)
        if t.rating <= cap + 1e-9
    )


@dataclass(slots=True)
class _Verdict:
    """How a candidate compares with the target: ``fits``; ``easy`` (rated below the window
    or missing a required technique with a path that ends solved); otherwise too hard, with
    ``stuck`` the empty cells where the walk ended. ``se`` is the exact SE rating when known."""

    fits: bool
    easy: bool
    se: float | None
    stuck: list[int]


def _judge(target: _Target, cells: bytes, shape: Shape) -> _Verdict:
    """Compare the unique puzzle *cells* with *target*, walking the rated path only as far as
    the target needs.

    The rated path (:func:`sudokit.rate`) tries the SE techniques easiest first, and the first
    that finds a step supplies it. Walking with only the techniques of base rating up to the
    window's top ``hi`` therefore takes exactly the same steps for as long as one of them
    applies. If that walk solves the puzzle, its hardest step *is* the puzzle's rating; if it
    gets stuck, or takes a step above ``hi``, the rating is above ``hi``. So the verdict is
    exact, and the forcing chains beyond the window -- most of the rating time of hard
    puzzles -- are never run. When the window reaches the search step's rating (11.0), a
    walk stuck with every SE technique means exactly that rating.
    """
    from .logic.candidates import CandidateGrid
    from .logic.path import solve_path
    from .rating import SEARCH_RATING

    cg = CandidateGrid.from_grid(Grid(cells, shape))
    seconds = 0.0 if target.cap <= _DETERMINISTIC else _WALK_SECONDS
    path = solve_path(cg, _walk_techniques(target.cap), unique=True, budget_s=seconds)
    se: float | None = round(path.rating, 1)
    if not path.solved:
        all_se = _walk_techniques(target.cap) == _walk_techniques(SEARCH_RATING)
        se = SEARCH_RATING if path.complete and all_se else None
    used = set(path.families)  # technique names (see _walk_techniques)
    has_all = all(used.intersection(names) for names in target.require)
    if path.solved or se is not None:
        assert se is not None
        # A level's lower end sits just above the level below (2.3 + 1e-9 for medium).
        fits = target.lo <= se <= target.hi + 1e-9 and has_all
        easy = se < target.lo or (not has_all and se <= target.hi + 1e-9)
        stuck = [] if fits or easy else [i for i, v in enumerate(cells) if not v]
        return _Verdict(fits, easy, se, stuck)
    if not path.complete:
        return _Verdict(False, False, None, [])  # out of time: not worth climbing
    # Stuck above the window; with only requirements (no window) that is fine when they are met.
    stuck = [i for i, v in enumerate(cg.values) if not v]
    return _Verdict(has_all and target.hi >= SEARCH_RATING, False, None, stuck)


def _toward_target(
    plan: _Plan,
    target: _Target,
    found: tuple[bytearray, bytes, bool],
    shape: Shape,
    rng: random.Random,
    counter: _Counter,
) -> tuple[bytearray, bool, float | None] | None:
    """Judge a candidate and climb toward the window: ``(puzzle, still minimal, se)`` or None.

    A candidate rated too hard is stuck somewhere on its path. Adding one clue of the solution
    (an orbit, under a symmetry) among the cells still empty there makes the path go on; the
    new puzzle is judged again. A move that lands below the window is undone and another
    cell tried; one that stays too hard is kept and climbed on, up to :data:`_CLIMB_MOVES`
    times. Clues are only ever added, so the puzzle stays unique (no search needed), but it
    is no longer minimal. Candidates rated too easy are dropped: removing clues from a
    minimal puzzle is impossible, and swap moves cost more than a fresh candidate.
    """
    puzzle, solution, proven = found
    verdict = _judge(target, bytes(puzzle), shape)
    counter.rated(verdict.se)
    if verdict.fits:
        return puzzle, proven, verdict.se
    climb = not plan.minimal_required and plan.mask is None
    if verdict.easy or not verdict.stuck or not climb:
        return None
    orbit_of = _orbit_index(shape, plan.symmetry)
    most = plan.target[1] if plan.target is not None else shape.ncells
    clues = len(puzzle) - puzzle.count(0)
    tried: set[int] = set()
    stuck = verdict.stuck
    for _ in range(_CLIMB_MOVES):
        options = [i for i in stuck if i not in tried]
        if not options:
            return None
        cell = options[int(rng.random() * len(options))]
        orbit = [i for i in orbit_of[cell] if not puzzle[i]]
        tried.update(orbit)
        if clues + len(orbit) > most:
            return None
        trial = bytearray(puzzle)
        for i in orbit:
            trial[i] = solution[i]
        verdict = _judge(target, bytes(trial), shape)
        counter.rated(verdict.se)
        if verdict.fits:
            return trial, False, verdict.se
        if verdict.easy or not verdict.stuck:
            continue
        puzzle, clues, stuck = trial, clues + len(orbit), verdict.stuck
        tried.clear()
    return None


@lru_cache(maxsize=64)
def _orbit_index(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """For every cell, the cells of its symmetry orbit."""
    index: list[tuple[int, ...]] = [()] * shape.ncells
    for orbit in _orbits(shape, symmetry):
        for i in orbit:
            index[i] = orbit
    return tuple(index)


def _plan(
    size: int | None,
    shape: Shape | None,
    *,
    symmetry: str,
    clues: int | tuple[int, int] | None,
    minimal: bool | None,
    pattern: Grid | str | Sequence[int] | None,
    jigsaw: bool,
    diagonals: bool,
    difficulty: str | tuple[float, float] | None,
    rating: tuple[float, float] | None = None,
    require: str | Sequence[str] | None = None,
    ratings: int | None = None,
    budget: int | None,
    backend: str | None,
) -> _Plan:
    goal = _target(difficulty, rating, require)
    if shape is None and size is None:  # a pattern tells the size
        if isinstance(pattern, Grid):
            shape = pattern.shape
        elif isinstance(pattern, str):
            shape = Grid.parse(pattern.translate(_MARKS)).shape
    if shape is None:
        if size is None:
            size = 9
        if not isinstance(size, int) or not 1 <= size <= 64:
            raise SudokuError(f"size must be an integer in 1..64, got {quote(size)}")
        shape = Shape.from_size(size, diagonals=diagonals)
    else:
        if size is not None and size != shape.n:
            raise SudokuError(f"size {size} does not match the shape's size {shape.n}")
        if diagonals and not shape.diagonals:
            shape = Shape(shape.box_rows, shape.box_cols, diagonals=True, regions=shape.regions)
    if jigsaw and shape.regions is not None:
        raise SudokuError("a random jigsaw was asked for, but the shape already has a region map")
    if shape.n < 2:
        raise SudokuError("puzzles need a size of at least 2")
    _check_symmetry(shape, symmetry)
    mask: tuple[int, ...] | None = None
    if pattern is not None:
        if symmetry != "none":
            raise SudokuError(
                "a pattern fixes the clue positions: it cannot be combined with a symmetry"
            )
        if clues is not None:
            raise SudokuError(
                "a pattern fixes the clue count: it cannot be combined with a clue range"
            )
        if isinstance(pattern, str):
            mask = parse_pattern(pattern, shape)
        elif isinstance(pattern, Grid):
            if pattern.shape.n != shape.n:
                raise SudokuError(
                    f"the pattern is {pattern.n}x{pattern.n}, the puzzle {shape.n}x{shape.n}"
                )
            mask = tuple(i for i, v in enumerate(pattern.cells) if v)
        else:
            mask = tuple(sorted(set(pattern)))
            if mask and not 0 <= mask[0] <= mask[-1] < shape.ncells:
                raise SudokuError(f"pattern cells must be in 0..{shape.ncells - 1}")
        if len(mask) < min_clues(shape):
            raise SudokuError(
                f"the pattern has {len(mask)} clue positions; a unique {shape.n}x{shape.n} "
                f"puzzle needs at least {min_clues(shape)}"
            )
    target = _clue_range(clues, shape)
    minimal_required = minimal is True
    if minimal is None:
        minimal = shape.n <= 9 and mask is None and target is None and symmetry == "none"
        # 9x9 stays minimal with a difficulty target too (no clues added to climb); smaller
        # grids have too few minimal puzzles of a given level, so they may climb.
        minimal_required = minimal and shape.n == 9
    if budget is None:
        # Filling a sparse pattern takes many attempts of a few searches each; a difficulty
        # target is bounded by its rating walks instead.
        budget = (2000 + 40 * shape.ncells) * (20 if mask is not None else 1)
        if _lowclue.applies(shape, symmetry, mask, target):
            budget *= 4  # sparse 9x9 targets: descents of a few thousand searches
        if goal is not None:
            budget *= 100
    if budget < 1:
        raise SudokuError(f"budget must be >= 1 search, got {budget}")
    if ratings is None:
        ratings = _RATINGS if goal is None or goal.cap <= _DETERMINISTIC else _RATINGS_SLOW
    if ratings < 1:
        raise SudokuError(f"ratings must be >= 1 rating walk, got {ratings}")
    if backend is not None:
        _backend.get_engine(backend)  # fail early on an unknown or unavailable engine
    return _Plan(
        shape,
        jigsaw,
        symmetry,
        target,
        minimal,
        mask,
        budget,
        backend,
        goal,
        minimal_required,
        ratings,
    )


def _clue_range(clues: int | tuple[int, int] | None, shape: Shape) -> tuple[int, int] | None:
    if clues is None:
        return None
    if isinstance(clues, int):
        lo = hi = clues
    else:
        lo, hi = clues
    if lo > hi:
        raise SudokuError(f"clue range {lo}-{hi} is empty (the lower end is above the upper)")
    if lo < 0 or hi > shape.ncells:
        raise SudokuError(
            f"clue range {lo}-{hi} is outside 0-{shape.ncells} for {shape.n}x{shape.n}"
        )
    floor = min_clues(shape)
    if hi < floor:
        raise SudokuError(
            f"no unique {shape.n}x{shape.n} {shape.variant} puzzle has fewer than {floor} clues; "
            f"asked for {lo}-{hi}"
        )
    return max(lo, floor), hi


def _shuffled(items: Sequence[_T], rng: random.Random) -> list[_T]:
    """*items* in a random order (sorted by one ``rng.random()`` key each: faster than
    ``rng.shuffle`` and as reproducible)."""
    rand = rng.random
    keys = [rand() for _ in items]
    return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]


def _attempt(
    plan: _Plan, shape: Shape, rng: random.Random, counter: _Counter
) -> tuple[bytearray, bytes, bool] | None:
    """One try at a puzzle: ``(puzzle, solution, proven minimal)``, or None when it failed."""
    if _lowclue.applies(shape, plan.symmetry, plan.mask, plan.target):
        assert plan.target is not None
        start = partial(_random_minimal, shape, rng, counter)
        sparse = _lowclue.attempt(plan.target, rng, counter, start)
        return None if sparse is None else (sparse[0], sparse[1], True)
    guided = search_budget(shape) > 0
    if plan.mask is not None:
        cells = _shuffled(plan.mask, rng)
        got = _fill(
            shape, [(i,) for i in cells], rng, counter, complete_orbits=False, guided=guided
        )
        if got is None:
            return None
        puzzle, found = got
        solution = found if found is not None else _repair(shape, puzzle, cells, rng, counter)
        if solution is None:
            return None
        for i in cells:
            puzzle[i] = solution[i]
        if plan.minimal and _removable_clue(puzzle, counter) is not None:
            return None
        return puzzle, solution, plan.minimal
    all_orbits = _shuffled(_orbits(shape, plan.symmetry), rng)
    got = _fill(
        shape, all_orbits, rng, counter, complete_orbits=plan.symmetry != "none", guided=guided
    )
    if got is None or got[1] is None:
        return None
    puzzle, solution = got[0], got[1]
    present = _shuffled([o for o in all_orbits if puzzle[o[0]]], rng)
    if guided and not plan.minimal:
        # Above 9x9 a non-minimal puzzle keeps the clues whose removal is not proven quickly.
        counter.guess_budget = shape.ncells // 2
    if plan.target is None or plan.minimal:
        decided = _reduce(puzzle, present, counter)
        clues = len(puzzle) - puzzle.count(0)
        if plan.target is not None and clues > plan.target[1] and decided:
            clues = _descend(puzzle, solution, all_orbits, counter, rng, plan.target[1])
        if plan.target is not None and not plan.target[0] <= clues <= plan.target[1]:
            counter.reached.append(clues)
            return None
        proven = decided and plan.symmetry == "none"
        if plan.minimal and not proven:
            if not decided or _removable_clue(puzzle, counter) is not None:
                return None
            proven = True
        return puzzle, solution, proven
    lo, hi = plan.target
    goal = lo + rng.randrange(hi - lo + 1)
    decided = _reduce(puzzle, present, counter, floor=lo, stop=goal)
    clues = len(puzzle) - puzzle.count(0)
    if clues > hi and decided:
        clues = _descend(puzzle, solution, all_orbits, counter, rng, hi)
    if clues < goal:  # sparser than asked: give back clues of the solution
        empty = _shuffled([o for o in all_orbits if not puzzle[o[0]]], rng)
        for orbit in empty:
            if clues >= goal:
                break
            if clues + len(orbit) <= hi:
                for i in orbit:
                    puzzle[i] = solution[i]
                clues += len(orbit)
        decided = False
    if not lo <= clues <= hi:
        counter.reached.append(clues)
        return None
    return puzzle, solution, decided and plan.symmetry == "none"


def _random_minimal(
    shape: Shape, rng: random.Random, counter: _Counter
) -> tuple[bytearray, bytes] | None:
    """A random minimal puzzle and its solution (phases 1 and 2), or None; the start of
    :mod:`sudokit._lowclue`'s descents."""
    orbits = _shuffled(_orbits(shape, "none"), rng)
    got = _fill(shape, orbits, rng, counter, complete_orbits=False)
    if got is None or got[1] is None:
        return None
    puzzle, solution = got[0], got[1]
    if not _reduce(puzzle, _shuffled([o for o in orbits if puzzle[o[0]]], rng), counter):
        return None
    return puzzle, solution


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
        if not _reduce(trial, _shuffled([o for o in orbits if trial[o[0]]], rng), counter):
            continue
        count = len(trial) - trial.count(0)
        if count <= clues:
            puzzle[:] = trial
            clues = count
    return clues


def _solvable_map(shape: Shape, counter: _Counter) -> bool:
    """True when the empty grid of *shape* (a jigsaw map) is found to have solutions quickly;
    maps that are not (no solution, or a search that explodes) are not worth a puzzle."""
    saved = counter.guess_budget
    counter.guess_budget = 50 * shape.ncells  # a good map yields two solutions at once
    try:
        count, _ = counter.count(bytes(shape.ncells))
    finally:
        counter.guess_budget = saved
    return count >= 1


def _run(plan: _Plan, seed: int | None, rng: random.Random) -> GeneratedPuzzle:
    engine = _backend.get_engine(plan.backend)
    shape = plan.shape
    counter = _Counter(engine, shape, plan.budget, search_budget(shape), plan.ratings)
    attempts = 0
    try:
        while True:
            if plan.random_jigsaw:
                shape = random_jigsaw(
                    shape.n, rng, symmetry=plan.symmetry, diagonals=shape.diagonals
                )
                counter.use(shape)
                if not _solvable_map(shape, counter):
                    continue
            elif attempts == 0 and shape.regions is not None and not _solvable_map(shape, counter):
                raise SudokuError("the region map admits no solution (or none was found quickly)")
            attempts += 1
            counter.guess_budget = search_budget(shape)
            try:
                got = _attempt(plan, shape, rng, counter)
            except _Undecided:
                got = None
            if got is None:
                continue
            puzzle, solution, proven = got
            se = None
            if plan.goal is not None:
                climbed = _toward_target(plan, plan.goal, got, shape, rng, counter)
                if climbed is None:
                    continue
                puzzle, proven, se = climbed
            log.debug(
                "generated after %d attempts, %d searches, %d ratings",
                attempts,
                counter.searches,
                counter.walks,
            )
            return GeneratedPuzzle(
                Grid(bytes(puzzle), shape),
                Grid(solution, shape),
                seed,
                plan.symmetry,
                proven,
                counter.searches,
                se,
            )
    except _OutOfBudget:
        raise BudgetExceededError(
            _budget_message(plan, attempts, counter.reached, counter.levels, counter.walks)
        ) from None


def _budget_message(
    plan: _Plan, attempts: int, reached: list[int], levels: dict[str, int], walks: int = 0
) -> str:
    n = plan.shape.n
    wanted = []
    advice = []
    if plan.mask is not None:
        wanted.append(f"a unique filling of its {len(plan.mask)}-clue pattern")
        advice.append("use a pattern with more clues")
    if plan.target is not None:
        lo, hi = plan.target
        wanted.append(f"{lo}-{hi} clues" if lo != hi else f"{lo} clues")
        advice.append("widen the clue range")
    if plan.minimal and (plan.goal is None or plan.minimal_required):
        wanted.append("no removable clue (minimal)")
        advice.append("drop the minimality requirement")
    if plan.symmetry != "none":
        wanted.append(f"{plan.symmetry} symmetry")
    if plan.goal is not None:
        wanted.append(f"difficulty {plan.goal.label}")
        advice.append("widen the rating window")
    what = ", ".join(wanted) or "a unique solution"
    seen = f", which ended with {min(reached)}-{max(reached)} clues" if reached else ""
    if levels:
        seen += ", rated " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items()))
    spent = f"{plan.budget} searches"
    if plan.goal is not None:
        spent = f"{plan.ratings} rating walks or {spent}"
    note = ""
    if plan.minimal and plan.symmetry != "none":
        note = " (puzzles both symmetric and minimal are rare)"
    return (
        f"could not generate a {n}x{n} puzzle with {what} within the budget of {spent} "
        f"({attempts} attempts{seen}){note}; {', '.join([*advice, 'or raise the budget'])}"
    )


def generate(
    size: int | None = None,
    *,
    shape: Shape | None = None,
    symmetry: str = "none",
    clues: int | tuple[int, int] | None = None,
    minimal: bool | None = None,
    pattern: Grid | str | Sequence[int] | None = None,
    jigsaw: bool = False,
    diagonals: bool = False,
    seed: int | None = None,
    difficulty: str | tuple[float, float] | None = None,
    rating: tuple[float, float] | None = None,
    require: str | Sequence[str] | None = None,
    rng: random.Random | None = None,
    budget: int | None = None,
    ratings: int | None = None,
    backend: str | None = None,
) -> GeneratedPuzzle:
    """Generate one puzzle with exactly one solution.

    :param size: the grid size (default 9) with the most square boxes; or pass *shape*
        (rectangular boxes, Sudoku-X, a jigsaw region map).
    :param symmetry: clue-position symmetry, one of :data:`SYMMETRIES`; it must map the shape's
        units onto units (see :func:`applicable_symmetries`).
    :param clues: a clue count or an inclusive ``(lo, hi)`` range, reached best effort.
        Plain 9x9 ranges ending at 23 clues or below (17 at the least) are reached exactly
        (a count drawn from the range) with minimal puzzles; 17-19 clues are seeded from a
        catalogue of known 17-clue puzzles (see :mod:`sudokit._lowclue`).
    :param minimal: require that no single clue can be removed. ``None`` (the default) means
        True for sizes up to 9 without a clue range, pattern or symmetry. Otherwise clues are
        still removed orbit by orbit while the puzzle stays unique (so a symmetric puzzle has
        no removable orbit: puzzles both symmetric and minimal are rare), but above 9x9 each
        uniqueness search has a guess bound (:func:`search_budget`) and clues it cannot
        decide stay. Sizes above 9x9 are therefore near-minimal, not proven minimal.
        With a difficulty target 9x9 puzzles stay minimal by default; elsewhere (smaller
        sizes, a symmetry, a clue range) clues may be added to a candidate to bring it into
        the window (the result's ``minimal`` then says False).
    :param pattern: clue positions to fill (a pattern text, a Grid whose non-empty cells
        mark them, or cell indices); the digits are chosen so the puzzle is unique.
    :param jigsaw: use a fresh random region map (:func:`random_jigsaw`) of the given size.
    :param diagonals: add the two diagonals as units (Sudoku-X).
    :param seed: makes the puzzle reproducible; drawn from the OS when omitted (and
        recorded in the result). *rng* instead hands in a generator to draw from.
    :param difficulty: a level of :data:`sudokit.rating.LEVELS` (``"hard"``: SE 4.0-6.0), or
        an inclusive range of SE ratings ``(lo, hi)`` like *rating*.
    :param rating: an inclusive range of SE ratings ``(lo, hi)``, as :func:`sudokit.rate`
        computes them (with *difficulty* too, the puzzle must meet both). The result's ``se``
        is the puzzle's rating (None when only *require* was given and the path goes on above
        the required techniques).
    :param require: a technique name (``"X-Wing"``, ``"Forcing Chains & Cycles"``), the first
        words of technique names (``"Unique Rectangle"``, ``"Hidden Single"``) or a family
        (``"wings"``), or a list of them: each must appear on the rated easiest-first path.
        Only Sudoku Explainer's techniques (those the rating uses) can be required.
    :param budget: the most engine searches to spend (default ``2000 + 40 * cells``, twenty
        times that for a pattern, a hundred times with a difficulty target).
    :param ratings: with a difficulty target, the most rating walks to spend (default 1000;
        300 for windows above SE 7.5, whose walks run forcing chains).
    :param backend: the search engine, ``"c"`` or ``"python"`` (default: the chosen one).
    :raises SudokuError: for options that cannot go together (a symmetry the shape lacks, a
        clue range below what any unique puzzle has, a pattern with a symmetry, ...).
    :raises BudgetExceededError: when the targets were not met within *budget*.

    >>> p = generate(size=6, symmetry="rot180", seed=11)
    >>> p.puzzle.shape, p.solution.is_solution(p.puzzle), is_symmetric(p.puzzle, "rot180")
    (Shape(2, 3), True, True)
    >>> try:
    ...     generate(size=6, symmetry="rot90")
    ... except SudokuError as exc:
    ...     print(str(exc).replace("; ", "\\n"))
    symmetry 'rot90' does not fit a 6x6 grid with 2x3 boxes (it does not map units onto units)
    symmetries that fit: none, rot180, mirror-h, mirror-v
    >>> from sudokit import rate
    >>> p = generate(seed=5, difficulty="hard", require="XY-Wing")
    >>> 4.0 <= p.se <= 6.0, rate(p.puzzle).se == p.se, "XY-Wing" in rate(p.puzzle).techniques
    (True, True, True)
    >>> try:
    ...     generate(rating=(12.0, 13.0))
    ... except SudokuError as exc:
    ...     print(str(exc).split(" (")[0])
    no puzzle rates above 11.0
    """
    plan = _plan(
        size,
        shape,
        symmetry=symmetry,
        clues=clues,
        minimal=minimal,
        pattern=pattern,
        jigsaw=jigsaw,
        diagonals=diagonals,
        difficulty=difficulty,
        rating=rating,
        require=require,
        ratings=ratings,
        budget=budget,
        backend=backend,
    )
    if rng is None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        rng = random.Random(seed)
    return _run(plan, seed, rng)


def _shard_range(count: int, shard: tuple[int, int] | None) -> range:
    if shard is None:
        return range(count)
    i, k = shard
    if not 1 <= i <= k:
        raise SudokuError(f"shard must be i/k with 1 <= i <= k, got {i}/{k}")
    return range(count * (i - 1) // k, count * i // k)


def _as_list(puzzles: list[GeneratedPuzzle], offset: int) -> list[GeneratedPuzzle]:
    """The chunk renderer that keeps the puzzles themselves (iterating a run)."""
    return puzzles


def _generate_chunk(
    plan: _Plan,
    seed: int,
    indices: range,
    offset: int,
    render: Callable[[list[GeneratedPuzzle], int], _T],
) -> tuple[_T, float]:
    """Worker body: ``render`` of the puzzles *indices* of the run seeded with *seed* (the
    chunk's first puzzle being number *offset* of the run), and the CPU seconds that took
    (which sizes the next chunks)."""
    import time

    start = time.process_time()
    puzzles = []
    for index in indices:
        s = derive_seed(seed, index)
        puzzles.append(_run(plan, s, random.Random(s)))
    return render(puzzles, offset), time.process_time() - start


class _ChunkSizer:
    """Puzzles per chunk: about :attr:`TARGET` CPU seconds of work each, so the progress of a
    run of slow puzzles stays visible and a run of fast ones pays little per chunk, and
    smaller towards the end of the run, so no worker is left with a long last chunk."""

    TARGET = 0.1
    MOST = 1000

    def __init__(self, total: int, workers: int) -> None:
        self.left = total
        self.workers = workers
        self.puzzles = 0
        self.seconds = 0.0

    def take(self) -> int:
        """The size of the next chunk (and count it as handed out)."""
        size = 1
        if self.puzzles:
            size = int(self.TARGET / max(self.seconds / self.puzzles, 1e-6))
        size = min(max(1, min(size, self.MOST, self.left // (2 * self.workers))), self.left)
        self.left -= size
        return size

    def done(self, puzzles: int, seconds: float) -> None:
        """Record a finished chunk."""
        self.puzzles += puzzles
        self.seconds += seconds


def _check_pickles(fn: object) -> None:
    """Refuse *fn* for worker processes unless it pickles (a process pool would hang)."""
    import pickle

    try:
        pickle.dumps(fn)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise TypeError(f"{fn!r} must pickle to run in worker processes ({exc})") from None


class PuzzleRun(Iterator[GeneratedPuzzle]):
    """The puzzles of a :func:`generate_many` run: iterate over it for the puzzles in order,
    or call :meth:`chunks` (instead) to have each chunk of puzzles turned into something
    smaller -- the text that will be written -- in the worker processes.

    >>> run = generate_many(3, size=4, seed=2)
    >>> [p.seed for p in run] == [derive_seed(2, j) for j in range(3)]
    True
    """

    def __init__(self, plan: _Plan, seed: int, indices: range, jobs: int) -> None:
        self._plan, self._seed, self._indices, self._jobs = plan, seed, indices, jobs
        self._puzzles: Iterator[GeneratedPuzzle] | None = None

    def __len__(self) -> int:
        return len(self._indices)

    def __getitem__(self, part: slice) -> PuzzleRun:
        """The puzzles *part* of the run (a slice), as a run of their own: the same puzzles,
        the options checked once.

        >>> run = generate_many(6, size=4, seed=3)
        >>> [p.seed for p in run[4:]] == [derive_seed(3, 4), derive_seed(3, 5)]
        True
        """
        return PuzzleRun(self._plan, self._seed, self._indices[part], self._jobs)

    def __next__(self) -> GeneratedPuzzle:
        if self._puzzles is None:
            self._puzzles = (p for chunk in self.chunks(_as_list) for p in chunk)
        return next(self._puzzles)

    def chunks(self, render: Callable[[list[GeneratedPuzzle], int], _T]) -> Iterator[_T]:
        """``render(puzzles, offset)`` for consecutive chunks of the run, in order; *offset*
        counts the puzzles of the run before the chunk (0 for the first chunk), which is what
        a :class:`~sudokit.formats.Writer` needs to continue a file (``follows=(offset, None)``).

        With several jobs *render* runs in the worker processes, so it must pickle (a
        module-level function, or a :func:`functools.partial` of one); the caller then
        receives only what it returns -- one string per chunk costs the caller next to
        nothing, which is what lets two workers go twice as fast as one. Chunks hold about
        0.1 s of work (see :class:`_ChunkSizer`); how the run is cut never changes a puzzle.

        >>> run = generate_many(5, size=4, seed=2)
        >>> texts = list(run.chunks(lambda ps, _: "".join(f"{p.puzzle}\\n" for p in ps)))
        >>> "".join(texts) == "".join(f"{p.puzzle}\\n" for p in generate_many(5, size=4, seed=2))
        True
        """
        plan, seed, indices, jobs = self._plan, self._seed, self._indices, self._jobs
        sizer = _ChunkSizer(len(indices), jobs)
        pos = 0
        if jobs <= 1 or len(indices) <= 1:
            while pos < len(indices):
                part = indices[pos : pos + sizer.take()]
                out, seconds = _generate_chunk(plan, seed, part, pos, render)
                sizer.done(len(part), seconds)
                pos += len(part)
                yield out
            return
        from concurrent.futures import Future, ProcessPoolExecutor

        _check_pickles(render)
        pool = ProcessPoolExecutor(max_workers=jobs)
        try:
            pending: list[tuple[int, Future[tuple[_T, float]]]] = []
            while pos < len(indices) or pending:
                while pos < len(indices) and len(pending) < 3 * jobs:
                    part = indices[pos : pos + sizer.take()]
                    future = pool.submit(_generate_chunk, plan, seed, part, pos, render)
                    pending.append((len(part), future))
                    pos += len(part)
                size, future = pending.pop(0)
                out, seconds = future.result()
                sizer.done(size, seconds)
                yield out
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def generate_many(
    count: int,
    *,
    seed: int | None = None,
    shard: tuple[int, int] | None = None,
    jobs: int = 1,
    size: int | None = None,
    shape: Shape | None = None,
    symmetry: str = "none",
    clues: int | tuple[int, int] | None = None,
    minimal: bool | None = None,
    pattern: Grid | str | Sequence[int] | None = None,
    jigsaw: bool = False,
    diagonals: bool = False,
    difficulty: str | tuple[float, float] | None = None,
    rating: tuple[float, float] | None = None,
    require: str | Sequence[str] | None = None,
    budget: int | None = None,
    ratings: int | None = None,
    backend: str | None = None,
) -> PuzzleRun:
    """Generate *count* puzzles, reproducibly from one *seed*, in order.

    Puzzle ``j`` is ``generate(seed=derive_seed(seed, j), ...)``, so the output does not depend
    on *jobs* (worker processes; 0 = one per core) or on sharding: ``shard=(i, k)`` (1-based)
    yields only the ``i``-th of ``k`` contiguous slices, and the ``k`` shards in order are the
    whole run. The other options are those of :func:`generate`; all are checked before any
    work starts. The result is an iterator of :class:`GeneratedPuzzle`; its
    :meth:`PuzzleRun.chunks` renders chunks of them in the workers instead.

    >>> run = [str(p.puzzle) for p in generate_many(4, size=4, seed=5)]
    >>> run[2:] == [str(p.puzzle) for p in generate_many(4, size=4, seed=5, shard=(2, 2))]
    True
    """
    plan = _plan(
        size,
        shape,
        symmetry=symmetry,
        clues=clues,
        minimal=minimal,
        pattern=pattern,
        jigsaw=jigsaw,
        diagonals=diagonals,
        difficulty=difficulty,
        rating=rating,
        require=require,
        ratings=ratings,
        budget=budget,
        backend=backend,
    )
    if count < 0:
        raise SudokuError(f"count must be >= 0, got {count}")
    if jobs < 0:
        raise SudokuError(f"jobs must be >= 0, got {jobs}")
    indices = _shard_range(count, shard)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    return PuzzleRun(plan, seed, indices, jobs or os.cpu_count() or 1)
