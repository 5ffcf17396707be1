"""True candidates: every digit that some solution of a puzzle puts in each cell (layer 4).

What a setter checks while building a puzzle: a candidate is *true* when at least one solution
holds it, *false* when none does. :func:`true_candidates` finds them with the engine's search,
so every rule of the shape counts (boxes, diagonals, jigsaw regions, windows and every variant
rule in ``Shape.constraints``):

1. one search counts solutions up to 2, as :func:`solve <sudokit.solver.solve>` does; the
   digits of every solution it finds are true, and when it proves the solution unique (or
   that there is none) that is the whole answer;
2. else each candidate still open among the plain pencil marks
   (:meth:`Candidates.from_grid <sudokit.marks.Candidates.from_grid>`) is placed in its cell
   and searched for (limit 1): a solution found makes all its digits true, so most candidates
   are settled by a few searches when there are many solutions; a search that completes
   without one proves the candidate false.

The placements go to the engine in batches (:meth:`Engine.search_batch
<sudokit._backend.Engine.search_batch>`, the C core when it serves; one search alone goes
through :meth:`Engine.bind <sudokit._backend.Engine.bind>`). A batch grows while its searches
prove candidates false (few solutions: each false candidate needs a search of its own) and
shrinks to one search while they find solutions; then more open candidates are placed beside
the first one, as many as no placed peer rules out, up to twice as many after each search
that finds a solution and half as many after one that does not (which proves nothing about
the first, so it is searched again). A solution of such a search settles all of them at once.

Figures (C core, one thread, CPU time; ``benchmarks/bench_truecands.py``, against the plain
algorithm, one search per candidate no solution holds yet, in the same run): a unique 9x9
0.05-0.07 ms (one search; plain 0.8 ms), a unique killer 0.14 ms (plain 16-20 ms), a unique
16x16 2 ms (plain 280 ms), an empty 9x9 2.2 ms in 38 searches (plain 4 ms, 177 searches), an
empty 16x16 60 ms (plain 590 ms), an empty anti-knight 9x9 12 ms (plain 34 ms). Where a 9x9
has many solutions the searches cost less than their bookkeeping in Python, and it is the
slower one: 0.5-1.5 ms a puzzle, 0.5-0.7x plain's speed (a killer with few cages, 14-25 ms).

The whole call shares one bound: *budget* guesses (each search counts at least one, so the
bound also caps the number of searches). By default it is the bound one :func:`solve
<sudokit.solver.solve>` of the shape gets (:func:`default_budget
<sudokit.solver.default_budget>`), so the call never runs away. Each search gets a fair share
of what is left (what is left over the candidates still undecided); a search that runs out of
its share is tried again, with at least twice the share, once others have been settled. When
the bound runs out, the answer says so: ``complete`` is False and ``unknown`` holds the
candidates neither proven true nor false; ``masks`` holds only proven ones.

>>> r = true_candidates("..34" "..1." "..4." ".3.1")
>>> r.status, r.complete, r.digits(0), r.digits(1), r.digits(2)
(<Status.MULTIPLE: 'multiple'>, True, (1, 2), (1, 2), (3,))
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable
from functools import cache

from ._backend import Engine, engine
from ._record import _Record
from .grid import Grid, PuzzleLike, as_grid
from .marks import Candidates, digits_of
from .shape import Shape
from .solver import Status, conflict_error, search_bound

__all__ = ["MAX_BATCH", "TrueCandidates", "true_candidates"]

#: The most placements searched in one batch call.
MAX_BATCH = 1024
#: The first search counts solutions up to this, as :func:`~sudokit.solver.solve` does: a
#: puzzle with fewer is settled by that one search (all its solutions are known).
FIRST_LIMIT = 2
#: How far :meth:`_Settler.packed` looks down the queue for candidates to place: this many
#: entries a candidate it may add, plus a cell's worth.
PACK_SCAN = 4


class TrueCandidates(_Record):
    """The true candidates of a puzzle (:func:`true_candidates`).

    ``masks[i]`` is the bitmask (bit ``d - 1`` for digit ``d``) of the digits proven to appear
    in cell ``i`` in some solution; ``unknown[i]`` those neither proven true nor false (all 0
    when ``complete``). A digit in neither is false: no solution puts it there.

    ``status`` says what the searches learnt about the solutions: ``unique`` (complete, one
    digit a cell), ``multiple`` (two solutions found), ``solved`` (one found, the bound ran out
    before the others were settled), ``none`` (no solution: every mask is 0), ``gave-up``
    (the bound ran out before any solution was found: every plain candidate is unknown) or
    ``invalid`` (conflicting givens: nothing searched, every mask 0). ``solutions`` counts the
    distinct solutions found (a diagnostic, as ``searches`` and ``guesses`` are: they are left
    out of equality). ``error`` says why for ``invalid`` and when the bound ran out.

    >>> r = true_candidates("...4" "3..." "2..." "...1")
    >>> r.status, r.digits(0), r.is_true(0, 1), r.is_true(0, 2)
    (<Status.UNIQUE: 'unique'>, (1,), True, False)
    """

    __slots__ = __match_args__ = (
        "puzzle",
        "status",
        "masks",
        "unknown",
        "complete",
        "solutions",
        "searches",
        "guesses",
        "error",
    )
    _compared = ("puzzle", "status", "masks", "unknown", "complete")
    puzzle: Grid
    status: Status
    masks: tuple[int, ...]
    unknown: tuple[int, ...]
    complete: bool
    solutions: int
    searches: int
    guesses: int
    error: str | None

    def _check(self) -> None:
        cells = self.puzzle.shape.ncells
        if len(self.masks) != cells or len(self.unknown) != cells:
            raise ValueError(
                f"a {self.puzzle.shape.n}x{self.puzzle.shape.n} puzzle needs {cells} masks, "
                f"got {len(self.masks)} and {len(self.unknown)} unknown"
            )

    def digits(self, cell: int) -> tuple[int, ...]:
        """The true digits of *cell* (proven to appear there in some solution), ascending.

        >>> true_candidates("..34" "..1." "..4." ".3.1").digits(5)
        (4,)
        """
        return digits_of(self.masks[cell])

    def unknown_digits(self, cell: int) -> tuple[int, ...]:
        """The digits of *cell* neither proven true nor false (the bound ran out), ascending.

        >>> true_candidates("." * 16, budget=1).unknown_digits(0)  # no solution found yet
        (1, 2, 3, 4)
        """
        return digits_of(self.unknown[cell])

    def is_true(self, cell: int, digit: int) -> bool | None:
        """True when some solution puts *digit* in *cell*, False when none does, None when
        the bound ran out before it was settled.

        >>> r = true_candidates("..34" "..1." "..4." ".3.1")
        >>> r.is_true(0, 2), r.is_true(0, 3), true_candidates("." * 16, budget=1).is_true(0, 3)
        (True, False, None)
        """
        bit = 1 << (digit - 1)
        if self.masks[cell] & bit:
            return True
        return None if self.unknown[cell] & bit else False

    def to_candidates(self, *, unknown: bool = False) -> Candidates:
        """The true candidates as pencil marks (a cell with one reads as placed); with
        *unknown*, the undecided ones too: every digit not proven false.

        >>> r = true_candidates("..34" "..1." "..4." ".3.1")
        >>> r.to_candidates().digits(0), r.to_candidates().values[2]
        ((1, 2), 3)
        """
        masks = self.masks
        if unknown:
            masks = tuple(m | u for m, u in zip(masks, self.unknown, strict=True))
        return Candidates.from_masks(self.puzzle.shape, masks)

    def to_json(self) -> dict[str, object]:
        """The JSON shape: ``puzzle`` (its line), ``status``, ``complete``, ``cells`` (the
        true digits of every cell, row by row), ``unknown`` (``{"cell": [row, column],
        "digits": [...]}`` for each cell with undecided digits, rows and columns from 1),
        ``solutions``, ``searches`` and ``guesses``; ``error`` when there is one.

        >>> j = true_candidates("..34" "..1." "..4." ".3.1").to_json()
        >>> j["status"], j["complete"], j["cells"][:3], j["unknown"]
        ('multiple', True, [[1, 2], [1, 2], [3]], [])
        """
        n = self.puzzle.shape.n
        out: dict[str, object] = {
            "puzzle": str(self.puzzle),
            "status": str(self.status),
            "complete": self.complete,
            "cells": [list(digits_of(m)) for m in self.masks],
            "unknown": [
                {"cell": [i // n + 1, i % n + 1], "digits": list(digits_of(m))}
                for i, m in enumerate(self.unknown)
                if m
            ],
            "solutions": self.solutions,
            "searches": self.searches,
            "guesses": self.guesses,
        }
        if self.error is not None:
            out["error"] = self.error
        return out


def true_candidates(
    puzzle: PuzzleLike, *, budget: int | None = None, shape: Shape | None = None
) -> TrueCandidates:
    """Every candidate of *puzzle* that appears in at least one solution (see the module).

    :param puzzle: a Grid, cell text, a list of rows or a NumPy array (read with *shape* when
        given; :func:`~sudokit.grid.as_grid`).
    :param budget: guesses for the whole call, every search counting at least one (0 = no
        bound; None = :func:`~sudokit.solver.default_budget` of the shape). When it runs
        out, ``complete`` is False and ``unknown`` holds the candidates not settled.
    :returns: a :class:`TrueCandidates`; a puzzle without a solution gives status ``none``
        and every mask 0 (not an exception), conflicting givens status ``invalid``.
    :raises ~sudokit.errors.ParseError: when the puzzle is not one (text, rows, array).
    :raises ValueError: for a negative budget.

    >>> r = true_candidates("." * 16)            # an empty 4x4: every digit everywhere
    >>> r.status, r.complete, r.digits(0), r.unknown_digits(0)
    (<Status.MULTIPLE: 'multiple'>, True, (1, 2, 3, 4), ())
    >>> true_candidates("...." "..34" "...2" "3...").status  # no solution
    <Status.NONE: 'none'>
    >>> r = true_candidates("." * 16, budget=1)  # the bound runs out
    >>> r.status, r.complete, r.unknown_digits(0), r.error.endswith("64 candidates undecided")
    (<Status.GAVE_UP: 'gave-up'>, False, (1, 2, 3, 4), True)
    """
    grid = as_grid(puzzle, shape)
    return settle(engine(), grid, search_bound(budget, grid.shape, 2))


def settle(eng: Engine, grid: Grid, budget: int) -> TrueCandidates:
    """:func:`true_candidates` of *grid* on the engine *eng* with the bound *budget* already
    checked (0 = none): the engine is a parameter so that tests run it on both."""
    found = _Settler(eng, grid, budget).run()
    if found.solutions:  # conflicting givens have none: looked for only then, as solve does
        return found
    bad = conflict_error(grid)
    if bad is None:
        return found
    empty = (0,) * grid.shape.ncells
    return TrueCandidates(
        grid, Status.INVALID, empty, empty, True, 0, found.searches, found.guesses, str(bad)
    )


@cache
def _picks(n: int) -> tuple[bytes, ...]:
    """Per digit ``d`` of 0..*n*, the ``bytes.translate`` table that keeps ``d`` as 1 and
    makes every other byte 0."""
    return tuple(bytes(1 if v == d else 0 for v in range(256)) for d in range(n + 1))


#: A candidate: (cell, digit).
_Candidate = tuple[int, int]


class _Settler:
    """The working state of one :func:`true_candidates` call: the plain candidates, those
    proven true and false, what is left of the bound, and the searches made."""

    def __init__(self, eng: Engine, grid: Grid, budget: int) -> None:
        self.eng, self.grid, self.budget = eng, grid, budget
        self.bound = eng.bind(grid.shape)
        self.possible: tuple[int, ...] = ()  # the plain candidates (Candidates.from_grid)
        self.true = [0] * grid.shape.ncells
        # Per digit, the cells it is true in as one int of a byte a cell (bytes.translate and
        # int.from_bytes read a solution's cells of one digit at C speed: see mark).
        self.lanes = [0] * (grid.shape.n + 1)
        self.picks = _picks(grid.shape.n)
        self.false = [0] * grid.shape.ncells
        self.left = budget  # guesses left (unused when budget is 0: no bound)
        self.open = 0  # candidates neither true nor false (counted once a solution is known)
        self.solutions = self.searches = self.guesses = 0

    def run(self) -> TrueCandidates:
        """Search until every candidate is settled or the bound runs out."""
        grid = self.grid
        # One solution kept: the 9x9 fast path keeps at most one.
        count, first, guesses, complete = self.bound(grid.cells, FIRST_LIMIT, 1, self.budget)
        self.spend([guesses])
        if not first:
            return self.result(complete)
        self.mark(first)
        if complete and count < FIRST_LIMIT:  # the one solution: every other digit is false
            return self.result(True)
        self.possible = Candidates.from_grid(grid).masks
        self.open = sum((p & ~t).bit_count() for p, t in zip(self.possible, self.true, strict=True))
        self.placements()
        return self.result(self.open == 0)

    def placements(self) -> None:
        """Search the open candidates in cell and digit order (see the module): in batches
        of single placements while searches prove candidates false, one search at a time
        with more open candidates placed beside the first (:meth:`packed`) while searches
        find solutions. A search that gives up is tried again once the share doubles."""
        queue: deque[_Candidate] = deque()
        for i, mask in enumerate(self.possible):
            mask &= ~self.true[i]
            while mask:
                low = mask & -mask
                queue.append((i, low.bit_length()))
                mask ^= low
        waiting: list[_Candidate] = []  # gave up with the share in `tried`
        tried: dict[_Candidate, int] = {}
        size, extra, stalled = 1, 1, False
        true, false = self.true, self.false
        while self.open:
            share = self.share()
            if share < 0:
                return
            most = size if not share else min(size, max(1, self.left // share))
            batch: list[_Candidate] = []
            while queue and len(batch) < most:
                item = queue.popleft()
                if (true[item[0]] | false[item[0]]) >> (item[1] - 1) & 1:
                    continue  # settled meanwhile
                if share and share < 2 * tried.get(item, 0):
                    waiting.append(item)
                else:
                    batch.append(item)
            if not batch:  # the queue is empty: go over the waiting ones once more
                if stalled or not waiting:
                    return
                queue.extend(waiting)
                waiting.clear()
                stalled = True
                continue
            stalled = False
            if len(batch) == 1 and extra:
                puzzle, placed = self.packed(batch[0], queue, extra)
            else:
                puzzle, placed = b"", 0
            if placed > 1:
                _, found_one, guesses, _ = self.bound(puzzle, 1, 1, share)
                self.spend([guesses])
                if found_one:
                    self.mark(found_one)
                    extra = min(self.grid.shape.ncells, 2 * extra)
                else:  # the placements together fail: not a proof about the first one
                    extra //= 2
                    queue.appendleft(batch[0])
                continue
            found = self.search([self.placed(item) for item in batch], share)
            for item, (solution, complete) in zip(batch, found, strict=True):
                if solution is None and complete:
                    self.refute(item)
                elif solution is None:
                    tried[item] = share
                    waiting.append(item)
            solutions = [s for s, _ in found if s is not None]
            self.mark(solutions)
            size = min(MAX_BATCH, max(1, 2 * (len(batch) - len(solutions))))
            if solutions and size == 1:
                extra = max(extra, 1)

    def packed(self, first: _Candidate, queue: deque[_Candidate], extra: int) -> tuple[bytes, int]:
        """The puzzle with *first* placed and up to *extra* more open candidates of *queue*
        that no placed peer rules out, and the number placed."""
        shape = self.grid.shape
        peers = shape.peers
        cells = bytearray(self.grid.cells)
        ruled = [0] * shape.ncells  # digits a placed peer rules out, per cell

        def place(cell: int, digit: int) -> None:
            cells[cell] = digit
            bit = 1 << (digit - 1)
            for p in peers[cell]:
                ruled[p] |= bit

        place(*first)
        placed = 1
        true, false = self.true, self.false
        for cell, digit in itertools.islice(queue, PACK_SCAN * (extra + shape.n)):
            if placed > extra:
                break
            if cells[cell] or (ruled[cell] | true[cell] | false[cell]) >> (digit - 1) & 1:
                continue  # filled, ruled out by a placed peer, or settled
            place(cell, digit)
            placed += 1
        return bytes(cells), placed

    def is_open(self, item: _Candidate) -> bool:
        """Whether the candidate *item* is neither true nor false yet."""
        cell, digit = item
        return not (self.true[cell] | self.false[cell]) >> (digit - 1) & 1

    def placed(self, item: _Candidate) -> bytes:
        """The puzzle's cells with the candidate *item* placed."""
        cell, digit = item
        cells = self.grid.cells
        return cells[:cell] + bytes((digit,)) + cells[cell + 1 :]

    def share(self) -> int:
        """The guesses each search of the next batch may make: 0 (no bound), what is left
        over the open candidates but at least one guess a cell (a search that places every
        cell by a guess; fewer never finds anything), or -1 when nothing is left."""
        if not self.budget:
            return 0
        if self.left <= 0:
            return -1
        return min(self.left, max(self.left // max(1, self.open), self.grid.shape.ncells))

    def spend(self, guesses: Iterable[int]) -> None:
        """Count searches that made *guesses* (each costs the bound at least one)."""
        for g in guesses:
            self.searches += 1
            self.guesses += g
            self.left -= max(1, g)

    def search(self, puzzles: list[bytes], share: int) -> list[tuple[bytes | None, bool]]:
        """``(solution or None, complete)`` of a search of each of *puzzles* for one
        solution, with *share* guesses each (0 = no bound)."""
        if len(puzzles) == 1:  # the bound search: no batch to build
            count, solutions, guesses, complete = self.bound(puzzles[0], 1, 1, share)
            self.spend([guesses])
            return [(solutions[0] if count else None, complete)]
        shape = self.grid.shape
        ncells = shape.ncells
        out = self.eng.search_batch(shape, b"".join(puzzles), 1, share, 1)
        self.spend(out.guesses)
        return [
            (out.solutions[k * ncells : (k + 1) * ncells] if count else None, complete)
            for k, (count, complete) in enumerate(zip(out.counts, out.complete, strict=True))
        ]

    def refute(self, item: _Candidate) -> None:
        """Make the candidate *item* false (its search completed without a solution)."""
        cell, digit = item
        if self.is_open(item):
            self.false[cell] |= 1 << (digit - 1)
            self.open -= 1

    def mark(self, solutions: Iterable[bytes]) -> None:
        """Make every digit of each of *solutions* true (each distinct one counted once).

        Digit by digit: the cells of a solution that hold it, as one int of a byte a cell,
        less those already true; only the cells new to the digit are visited one by one, so
        a solution costs *n* whole-grid operations plus its new candidates."""
        true, lanes, ncells = self.true, self.lanes, self.grid.shape.ncells
        for solution in dict.fromkeys(solutions):
            self.solutions += 1
            for d in range(1, len(lanes)):
                new = int.from_bytes(solution.translate(self.picks[d]), "little") & ~lanes[d]
                if not new:
                    continue
                lanes[d] |= new
                bit = 1 << (d - 1)
                cells = new.to_bytes(ncells, "little")
                i = cells.find(1)
                while i >= 0:
                    true[i] |= bit
                    self.open -= 1
                    i = cells.find(1, i + 1)

    def result(self, complete: bool) -> TrueCandidates:
        """The record of what was found (*complete*: every candidate settled)."""
        grid, ncells = self.grid, self.grid.shape.ncells
        if self.solutions:
            masks = tuple(self.true)
            possible = self.possible or masks
            unknown = tuple(
                p & ~t & ~f for p, t, f in zip(possible, self.true, self.false, strict=True)
            )
        else:
            masks = (0,) * ncells
            unknown = masks if complete else Candidates.from_grid(grid).masks
        if self.solutions >= 2:
            status = Status.MULTIPLE
        elif self.solutions:
            status = Status.UNIQUE if complete else Status.SOLVED
        else:
            status = Status.NONE if complete else Status.GAVE_UP
        error = None
        if not complete:
            undecided = sum(m.bit_count() for m in unknown)
            error = (
                f"gave up after {self.guesses} guess{'es' * (self.guesses != 1)} in "
                f"{self.searches} "
                f"search{'es' * (self.searches != 1)} (budget {self.budget}) with "
                f"{undecided} candidate{'s' * (undecided != 1)} undecided"
            )
        return TrueCandidates(
            grid,
            status,
            masks,
            unknown,
            complete,
            self.solutions,
            self.searches,
            self.guesses,
            error,
        )
