"""Phase 1 of generation: random digits placed until the puzzle has exactly one solution."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from ..marks import bit_indices
from ..shape import Shape
from .search import _Counter, _OutOfBudget


def _native_fill(
    shape: Shape,
    order: Sequence[tuple[int, ...]],
    rng: random.Random,
    counter: _Counter,
    complete_orbits: bool,
) -> tuple[bytearray, bytes | None] | Literal[False] | None:
    """:func:`_fill` (not guided) in one engine call (:meth:`~sudokit._backend.Engine.fill`:
    native in the C core, the same draws from *rng* and the same puzzle), or False when the
    engine has none (the reference: then the loop of :func:`_fill` runs)."""
    cells = [i for orbit in order for i in orbit]
    ends: list[int] | None = None
    if complete_orbits:
        ends = []
        for orbit in order:
            ends.extend([len(ends) + len(orbit)] * len(orbit))
    cap = counter.budget - counter.searches if counter.budget > 0 else None
    got = counter.engine.fill(shape, cells, ends, rng.random, counter.guess_budget, cap)
    if got is None:
        return False
    puzzle, solution, searches, complete = got
    counter.searches += searches
    if not complete:
        raise _OutOfBudget
    return None if puzzle is None else (bytearray(puzzle), solution)


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
    start: bytes | None = None,
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

    With *start* (a solution of the empty grid, e.g. :func:`start_solution`), the fill is
    guided from the first batch on, by that solution.
    """
    if not guided:
        native = _native_fill(shape, order, rng, counter, complete_orbits)
        if native is not False:
            return native
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
    guide: bytes | None = start  # in guided mode, the solution whose digits are placed

    def pick(i: int) -> int:
        """A random digit (0-based) for cell *i* that no placed digit of its units and no
        refuted try rules out; -1 when none is left."""
        m = banned[i]
        for u in cell_units[i]:
            m |= used[u]
        m = full & ~m
        if not m:
            return -1
        options = table[m] if table is not None else bit_indices(m)
        return options[int(rand() * len(options))]

    while k < ncells:
        if step == 1 and guide is None:
            # One random digit (most of a 9x9 fill): the batch loop below without its lists.
            i = cells[k]
            units = cell_units[i]
            d = pick(i)
            if d < 0:
                return None
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
                d = pick(i)
                if d < 0:
                    break
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


#: Sizes above this one start their fill from :func:`start_solution` (see there).
START_ABOVE = 36


def start_solution(shape: Shape, rng: random.Random) -> bytes | None:
    """A random solution of the empty grid of a plain boxed *shape* larger than
    :data:`START_ABOVE`, built without search; None for other shapes.

    Above 36x36 the engine cannot count the solutions of a random partial grid within a
    generator's guess bound (even a 64x64 grid with one clue gave up after 83,920 guesses, and
    the empty 64x64 after 400,000), so a fill by random digits never gets going. The band
    pattern (row ``r`` is row 0 shifted by ``box_cols * (r % box_rows) + r // box_rows``),
    relabelled, its rows, columns, bands and stacks permuted at random (and transposed when
    the boxes are square), is a solution at once; the fill then places its digits (guided)
    until the puzzle is unique. Every puzzle of these sizes has a solution of that one family.

    >>> s = start_solution(Shape(7, 7), random.Random(1))
    >>> from ..grid import Grid
    >>> Grid(s, Shape(7, 7)).is_solution(), start_solution(Shape(6, 6), random.Random(1))
    (True, None)
    """
    plain = shape.regions is None and shape.constraints is None and not shape.windoku
    if shape.n <= START_ABOVE or not plain or shape.diagonals:
        return None
    from ..grid import Grid
    from ..transform import random_isomorph

    return bytes(random_isomorph(Grid(band_pattern(shape), shape), rng).cells)


def band_pattern(shape: Shape) -> bytes:
    """The band pattern solution of a boxed *shape*: row ``r`` is row 0 (1..n) shifted left by
    ``box_cols * (r % box_rows) + r // box_rows``.

    >>> from ..grid import Grid
    >>> band_pattern(Shape(2, 2))[:8], Grid(band_pattern(Shape(2, 3)), Shape(2, 3)).is_solution()
    (b'\\x01\\x02\\x03\\x04\\x03\\x04\\x01\\x02', True)
    """
    r, c, n = shape.box_rows, shape.box_cols, shape.n
    return bytes((c * (i % r) + i // r + j) % n + 1 for i in range(n) for j in range(n))
