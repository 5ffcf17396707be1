"""The public solving API: solve, count and prove uniqueness (layer 4).

Every call goes through the search engine :mod:`sudokit._backend` picked at import (the C core
when it is built, else the pure-Python reference). Two kinds of call, in pairs:

* "may fail": :func:`solve` and :func:`solve_many` return a :class:`SolveResult` whose
  :class:`Status` says what was found; they raise only for bad arguments (and :func:`solve`
  for text that does not parse).
* "must succeed": :func:`solution` returns the one solution or raises
  (:class:`~sudokit.errors.NoSolutionError`, :class:`~sudokit.errors.MultipleSolutionsError`,
  :class:`~sudokit.errors.InvalidPuzzleError`, :class:`~sudokit.errors.BudgetExceededError`).

Conflicting givens (the same digit twice in a unit) give status ``invalid``. :func:`solve` and
:func:`solve_many` look for them only where the search found no solution (a puzzle with a
solution cannot have any, and the engines stop at once on them); :func:`solution`,
:func:`solutions` and :func:`count_solutions` look before searching, to raise or count
nothing at once.

Puzzles are a :class:`~sudokit.grid.Grid` or cell text (parsed with :meth:`Grid.parse
<sudokit.grid.Grid.parse>`; ``shape=`` when the size alone does not say it, as for Sudoku-X
or jigsaw).

>>> r = solve("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> r.status, r.count, r.solution.is_solution(r.puzzle)
(<Status.UNIQUE: 'unique'>, 1, True)
>>> twelve = "...456789679813245548927136...594678857361492964782513...648957796135824485279361"
>>> count_solutions(twelve, limit=100)
12
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING

from . import _native
from ._backend import Engine, engine
from ._record import _Record
from .errors import (
    BudgetExceededError,
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
    SudokuError,
    quote,
)
from .grid import Grid, PuzzleLike, as_grid, default_shape
from .shape import Shape

if TYPE_CHECKING:
    import logging

__all__ = [
    "SolveResult",
    "Status",
    "count_solutions",
    "default_budget",
    "is_unique",
    "solution",
    "solutions",
    "solve",
    "solve_many",
]

#: Puzzles per engine batch call and worker thread in :func:`solve_many`.
CHUNK = 256
#: Default bound on the solutions :func:`solutions` yields.
SOLUTIONS_LIMIT = 1000
_CONFLICTS_SHOWN = 3
#: The default guess bound is this divided by the grid's cell count: a guess costs about
#: 0.4 us on the 9x9 fast path and up to ~10 us on a 64x64 grid, so 9x9 gets ~12 million
#: guesses (the most any puzzle of the benchmark sets needs is 605 on the fast path and
#: 2,586 on the generic one) and 64x64 ~244,000 (a few seconds at worst).
DEFAULT_GUESS_WORK = 10**9
#: Guesses the default bound adds per solution counted (counting n solutions takes about n
#: guesses), for limits up to :data:`DEFAULT_LIMIT_CAP`: larger counts give up.
DEFAULT_GUESSES_PER_SOLUTION = 2
DEFAULT_LIMIT_CAP = 10**6
#: The pure-Python reference makes a guess ~100x slower than the C core.
_REFERENCE_SLOWDOWN = 100
#: Largest limit or budget: both are 64-bit in the C core.
_MAX_BOUND = 2**63 - 1


class Status(StrEnum):
    """What a search found out about a puzzle."""

    UNIQUE = "unique"
    """Exactly one solution (proven)."""
    MULTIPLE = "multiple"
    """Two or more solutions."""
    SOLVED = "solved"
    """A solution found by a search at limit 1, which does not look for a second one."""
    NONE = "none"
    """No solution (proven)."""
    INVALID = "invalid"
    """Conflicting givens or text that does not parse; nothing was searched."""
    GAVE_UP = "gave-up"
    """The guess budget ran out before the answer was known."""


#: The slots of a :class:`SolveResult` in the order the C core's ``search_items`` sets them.
_FIELDS = ("_puzzle", "_solution", "_shape", "status", "count", "guesses", "complete", "error")


class SolveResult(_Record):
    """The outcome of solving one puzzle.

    ``puzzle`` is the parsed puzzle (``None`` only when text given to :func:`solve_many` did
    not parse). ``solution`` is the solution when ``status`` is ``unique`` or ``solved``; for
    ``multiple`` it is the first solution found (one of several), for ``gave-up`` the one
    found if any, else ``None``. ``count`` is the number of solutions found, exact up to the
    limit of the call when ``complete`` (so ``count == limit`` means "at least limit").
    ``guesses`` counts the search's branching decisions (a diagnostic: engines differ).
    ``complete`` is False when the guess budget ran out: then ``count`` is a lower bound
    (solutions found so far; ``multiple`` stays true from two on). ``error`` says why for
    ``invalid`` and for every unfinished search (``gave-up``, or ``multiple`` found before the
    budget ran out).

    A result of :func:`solve_many` holds the cells of its puzzle and solution and builds each
    :class:`~sudokit.grid.Grid` when it is first read (then keeps it), so streaming millions of
    results builds no grid nobody looks at; equality, hashing, ``repr`` and pickling see the
    grids, as if they had been there from the start.

    >>> r = solve("..34" "..1." "..4." ".3.1")
    >>> r.status, r.count, r.solution
    (<Status.MULTIPLE: 'multiple'>, 2, Grid.parse('1234341221434321'))
    """

    __slots__ = _FIELDS
    __match_args__ = ("puzzle", "status", "solution", "count", "guesses", "complete", "error")
    status: Status
    count: int
    guesses: int
    complete: bool
    error: str | None
    # A Grid, or its cells (bytes of shape `_shape`) until first read; see `_grid`.
    _puzzle: Grid | bytes | None
    _solution: Grid | bytes | None
    _shape: Shape | None

    def __init__(
        self,
        puzzle: Grid | None,
        status: Status,
        solution: Grid | None,
        count: int,
        guesses: int,
        complete: bool,
        error: str | None = None,
    ) -> None:
        self._fill(puzzle, solution, None, status, count, guesses, complete, error)

    def _fill(self, *values: object) -> None:
        """Set every slot, in :data:`_FIELDS` order (the one way fields are set)."""
        for name, value in zip(_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    @classmethod
    def _cells(
        cls,
        puzzle: Grid | bytes | None,
        solution: Grid | bytes | None,
        shape: Shape,
        status: Status,
        count: int,
        guesses: int,
        complete: bool,
        error: str | None = None,
    ) -> SolveResult:
        """A result whose puzzle and solution may still be cells of *shape* (built on read)."""
        result = object.__new__(cls)
        result._fill(puzzle, solution, shape, status, count, guesses, complete, error)
        return result

    def _grid(self, name: str) -> Grid | None:
        """The Grid in slot *name*, built from its cells on the first read and kept."""
        value: Grid | bytes | None = getattr(self, name)
        if isinstance(value, bytes):
            assert self._shape is not None
            value = Grid._trusted(value, self._shape)
            object.__setattr__(self, name, value)  # a cache: the value does not change
        return value

    @property
    def puzzle(self) -> Grid | None:
        """The puzzle as parsed (``None`` when its text did not parse)."""
        return self._grid("_puzzle")

    @property
    def solution(self) -> Grid | None:
        """The solution found (see the class docstring), or ``None``."""
        return self._grid("_solution")

    @property
    def is_unique(self) -> bool:
        """True when the puzzle has exactly one solution (status ``unique``)."""
        return self.status is Status.UNIQUE


def _check_bound(value: int, name: str, least: int, kind: str = "an int", note: str = "") -> int:
    """*value* when it is an int in *least*..2**63-1, else a TypeError or ValueError naming
    the argument *name* (*kind*: what it must be; *note*: said after its lower bound)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be {kind}, got {value!r}")
    if value < least:
        raise ValueError(f"{name} must be >= {least}{note}, got {value}")
    if value > _MAX_BOUND:
        raise ValueError(f"{name} must be at most 2**63 - 1, got {value}")
    return value


def check_limit(limit: int) -> None:
    """A TypeError or ValueError unless *limit* (solutions to count up to) is an int in
    1..2**63-1."""
    _check_bound(limit, "limit", 1)


def default_budget(shape: Shape, limit: int = 2) -> int:
    """The guess bound a search of *shape* counting up to *limit* solutions gets by default.

    It scales with the shape (:data:`DEFAULT_GUESS_WORK` / cells) so that a search that
    would thrash, such as a 64x64 with a hidden contradiction, gives up within seconds, while
    no real 9x9 puzzle comes near it; counting up to *limit* adds
    :data:`DEFAULT_GUESSES_PER_SOLUTION` guesses a solution (up to
    :data:`DEFAULT_LIMIT_CAP` solutions). It is smaller when the engine in use is the
    pure-Python reference. Pass ``budget=0`` for no bound at all.

    >>> nine = default_budget(Shape(3, 3))
    >>> default_budget(Shape(8, 8)) < nine < default_budget(Shape(3, 3), limit=10**4)
    True
    """
    check_limit(limit)
    return _default_bound(shape, limit)


def _default_bound(shape: Shape, limit: int) -> int:
    """:func:`default_budget` for a *limit* already checked."""
    base = DEFAULT_GUESS_WORK // shape.ncells
    if _native.core() is None:  # the pure-Python reference searches
        base //= _REFERENCE_SLOWDOWN
    return base + DEFAULT_GUESSES_PER_SOLUTION * min(limit, DEFAULT_LIMIT_CAP)


def _check_budget(budget: int) -> int:
    """*budget* when it is a valid explicit bound (an int in 0..2**63-1), else raise."""
    return _check_bound(budget, "budget", 0, "an int (0 = no bound) or None", " (0 = no bound)")


def search_bound(budget: int | None, shape: Shape, limit: int) -> int:
    """*budget* checked, or the default bound of *shape* and *limit* when it is None."""
    return default_budget(shape, limit) if budget is None else _check_budget(budget)


def conflict_error(grid: Grid) -> InvalidPuzzleError | None:
    """The error describing *grid*'s conflicting givens, or None when it has none."""
    found = grid.conflicts()
    if not found:
        return None
    name = grid.shape.cell_name
    parts = [
        c.unit  # a variant rule broken, already in words
        if not c.digit
        else f"{c.digit} twice in {c.unit} ({', '.join(name(i) for i in c.cells)})"
        if len(c.cells) == 2
        else f"{c.digit} {len(c.cells)} times in {c.unit} ({', '.join(name(i) for i in c.cells)})"
        for c in found
    ]
    cells = tuple(sorted({i for c in found for i in c.cells}))
    if len(parts) > _CONFLICTS_SHOWN:  # keep the message one readable line
        parts[_CONFLICTS_SHOWN:] = [f"and {len(parts) - _CONFLICTS_SHOWN} more"]
    return InvalidPuzzleError(f"conflicting givens: {'; '.join(parts)}", cells)


def _status(count: int, complete: bool, limit: int) -> Status:
    """The status of a search that found *count* solutions (the one place statuses are
    decided; the C core's ``search_items`` takes those of complete searches from here)."""
    if count >= 2:
        return Status.MULTIPLE
    if not complete:
        return Status.GAVE_UP
    if count == 1:
        return Status.UNIQUE if limit >= 2 else Status.SOLVED
    return Status.NONE


#: The records the C core's ``search_items`` builds for :func:`solve_many` (see
#: ``Engine.search_items``), indexed by ``limit >= 2``: the statuses of complete searches
#: depend on nothing else (:func:`_status`), so they are made once here, not per chunk.
_RECORD_SPECS = tuple(
    (SolveResult, _FIELDS, (None, _status(1, True, limit), _status(2, True, limit)))
    for limit in (1, 2)
)


def to_solve_result(
    puzzle: Grid,
    count: int,
    first: bytes | None,
    guesses: int,
    complete: bool,
    budget: int,
    limit: int,
) -> SolveResult:
    """Turn one search outcome into a SolveResult; conflicting givens, looked for only where
    nothing was found (a puzzle with a solution has none, and the engines stop at once on
    them, while the check in Python costs more than a whole 9x9 search), give ``invalid``."""
    if not count:
        bad = conflict_error(puzzle)
        if bad is not None:
            return _invalid(puzzle, bad)
    status = _status(count, complete, limit)
    error = None if complete else f"gave up after {guesses} guesses (budget {budget})"
    sol = first if first is not None and count else None
    return SolveResult._cells(puzzle, sol, puzzle.shape, status, count, guesses, complete, error)


def _invalid(puzzle: Grid | None, error: SudokuError) -> SolveResult:
    return SolveResult(puzzle, Status.INVALID, None, 0, 0, True, str(error))


def solve(
    puzzle: PuzzleLike, *, limit: int = 2, budget: int | None = None, shape: Shape | None = None
) -> SolveResult:
    """Solve *puzzle* and say whether its solution is unique.

    :param puzzle: a Grid, cell text, a list of rows or a NumPy array (read with *shape*
        when given; :func:`~sudokit.grid.as_grid`).
    :param limit: stop after this many solutions: 2 (the default) or more proves ``unique``;
        1 only finds a solution (status ``solved``), which is faster on hard puzzles.
    :param budget: give up after this many guesses (0 = no bound; None = the default bound
        of the shape, :func:`default_budget`); then the status is ``gave-up`` unless two
        solutions were already found, and ``error`` names the bound.
    :returns: a :class:`SolveResult`; conflicting givens give status ``invalid``.
    :raises ~sudokit.errors.ParseError: when the puzzle is not one (text, rows, array).
    :raises ValueError: for a limit below 1 or a negative budget.

    >>> solve("...4" "3..." "2..." "...1").solution
    Grid.parse('1234341221434321')
    >>> r = solve("1..1" + "." * 12)
    >>> r.status, r.error
    (<Status.INVALID: 'invalid'>, 'conflicting givens: 1 twice in row 1 (r1c1, r1c4)')
    >>> solve("...." "..34" "...2" "3...").status  # no digit repeats, yet no solution
    <Status.NONE: 'none'>
    >>> solve("." * 16, limit=1).status  # one solution found, a second not looked for
    <Status.SOLVED: 'solved'>
    """
    check_limit(limit)
    grid = as_grid(puzzle, shape)
    budget = search_bound(budget, grid.shape, limit)
    found = engine().search(grid.shape, grid.cells, limit, 1, budget)
    first = found.solutions[0] if found.solutions else None
    return to_solve_result(grid, found.count, first, found.guesses, found.complete, budget, limit)


def solution(puzzle: PuzzleLike, *, budget: int | None = None, shape: Shape | None = None) -> Grid:
    """The one solution of *puzzle*.

    :raises ~sudokit.errors.InvalidPuzzleError: conflicting givens (``.cells`` lists them).
    :raises ~sudokit.errors.NoSolutionError: when it has none.
    :raises ~sudokit.errors.MultipleSolutionsError: when it has more than one.
    :raises ~sudokit.errors.BudgetExceededError: when *budget* guesses (0 = no bound, None =
        :func:`default_budget`) did not settle it.
    :raises ~sudokit.errors.ParseError: when the puzzle is not one (text, rows, array).

    >>> str(solution("...4" "4..." "..1." ".3.."))
    '3124423124131342'
    >>> solution("..34" "..1." "..4." ".3.1")
    Traceback (most recent call last):
    ...
    sudokit.errors.MultipleSolutionsError: the puzzle has more than one solution: '..34..1...4..3.1'
    >>> try:
    ...     solution("1..1" + "." * 12)
    ... except InvalidPuzzleError as exc:
    ...     exc.cells
    (0, 3)
    """
    grid = as_grid(puzzle, shape)
    bad = conflict_error(grid)
    if bad is not None:
        raise bad
    result = solve(grid, budget=budget)
    if result.status is Status.UNIQUE:
        assert result.solution is not None
        return result.solution
    text = quote(str(grid))
    if result.status is Status.MULTIPLE:
        raise MultipleSolutionsError(f"the puzzle has more than one solution: {text}")
    if result.status is Status.NONE:
        raise NoSolutionError(f"the puzzle has no solution: {text}")
    raise BudgetExceededError(f"{result.error}: {text}")


def solutions(
    puzzle: PuzzleLike,
    *,
    limit: int = SOLUTIONS_LIMIT,
    budget: int | None = None,
    shape: Shape | None = None,
) -> Iterator[Grid]:
    """Yield the solutions of *puzzle*, at most *limit* of them, in the engine's search order.

    A puzzle with conflicting givens has no solutions. The search runs before the first
    solution is yielded.

    :raises ~sudokit.errors.BudgetExceededError: when *budget* guesses (0 = no bound, None =
        :func:`default_budget`) did not finish the search.
    :raises ~sudokit.errors.ParseError: when the puzzle is not one (text, rows, array).

    >>> [str(s) for s in solutions("..34" "..1." "..4." ".3.1")]
    ['1234341221434321', '2134341212434321']
    >>> len(list(solutions("." * 16, limit=5)))
    5
    """
    check_limit(limit)
    grid = as_grid(puzzle, shape)
    return _solutions(grid, limit, search_bound(budget, grid.shape, limit))


def _solutions(grid: Grid, limit: int, budget: int) -> Iterator[Grid]:
    if grid.conflicts():
        return
    found = engine().search(grid.shape, grid.cells, limit, limit, budget)
    if not found.complete:
        raise BudgetExceededError(
            f"gave up after {found.guesses} guesses (budget {budget}): {quote(str(grid))}"
        )
    for cells in found.solutions:
        yield Grid._trusted(cells, grid.shape)


def count_solutions(
    puzzle: PuzzleLike, limit: int = 2, *, budget: int | None = None, shape: Shape | None = None
) -> int:
    """The number of solutions of *puzzle*, counted exactly up to *limit*.

    A result below *limit* is exact; *limit* itself means "at least *limit*". Conflicting
    givens count 0.

    :raises ~sudokit.errors.BudgetExceededError: when *budget* guesses (0 = no bound, None =
        :func:`default_budget`) did not finish.

    >>> count_solutions("." * 16, limit=1000)
    288
    >>> count_solutions("." * 16)
    2
    """
    check_limit(limit)
    grid = as_grid(puzzle, shape)
    budget = search_bound(budget, grid.shape, limit)
    if grid.conflicts():
        return 0
    found = engine().search(grid.shape, grid.cells, limit, 0, budget)
    if not found.complete:
        raise BudgetExceededError(
            f"gave up after {found.guesses} guesses (budget {budget}): {quote(str(grid))}"
        )
    return found.count


def is_unique(puzzle: PuzzleLike, *, budget: int | None = None, shape: Shape | None = None) -> bool:
    """True when *puzzle* has exactly one solution.

    :raises ~sudokit.errors.BudgetExceededError: when *budget* guesses did not settle it.

    >>> is_unique("...4" "4..." "..1." ".3.."), is_unique("." * 16)
    (True, False)
    """
    return count_solutions(puzzle, 2, budget=budget, shape=shape) == 1


def solve_many(
    puzzles: Iterable[PuzzleLike],
    *,
    limit: int = 2,
    budget: int | None = None,
    jobs: int = 1,
    shape: Shape | None = None,
) -> Iterator[SolveResult]:
    """Solve many puzzles, yielding one :class:`SolveResult` per input in input order.

    Input is consumed lazily and solved in chunks through the engine's batch call, so a
    file of millions of lines streams in bounded memory. Text that does not parse, and
    puzzles with conflicting givens, give a result with status ``invalid`` and ``error`` set
    instead of raising, so one bad line does not stop a run. Grids of different shapes may
    be mixed.

    On the C engine a chunk's plain lines (one symbol per cell) and Grids are read, searched
    and turned into results in one native call, and each result builds its puzzle and
    solution Grids only when they are read: the Python cost is a fraction of a microsecond
    a puzzle. Other text goes through :meth:`Grid.parse <sudokit.grid.Grid.parse>`, with
    the same results.

    :param puzzles: Grids, cell text (a line of a file; surrounding whitespace is ignored),
        lists of rows or NumPy arrays.
    :param limit: count solutions up to this: 2 (the default) or more proves ``unique``; 1
        only finds a solution (status ``solved``).
    :param budget: guesses per puzzle before giving up (0 = no bound; None = the default
        bound of each puzzle's shape, :func:`default_budget`).
    :param jobs: worker threads of the engine (0 = every core). The C engine releases the GIL
        and uses them; the pure-Python reference ignores the setting.
    :param shape: the shape of text puzzles (inferred from the cell count when None); Grids
        keep their own.

    >>> lines = ["...43...2......1", "11..............", "bad", "..34..1...4..3.1"]
    >>> [(r.status.value, r.count) for r in solve_many(lines)]
    [('unique', 1), ('invalid', 0), ('invalid', 0), ('multiple', 2)]
    >>> [r.status.value for r in solve_many(lines, limit=1)]
    ['solved', 'invalid', 'invalid', 'solved']
    """
    check_limit(limit)
    if budget is not None:
        _check_budget(budget)  # now, not at the first chunk
    if jobs < 0:
        raise ValueError(f"jobs must be >= 0 (0 = every core), got {jobs}")
    threads = (os.cpu_count() or 1) if jobs == 0 else jobs
    chunks = _solve_chunks(engine(), limit, budget, threads, shape, iter(puzzles), CHUNK * threads)
    return itertools.chain.from_iterable(chunks)


def _solve_chunks(
    eng: Engine,
    limit: int,
    budget: int | None,
    threads: int,
    shape: Shape | None,
    items: Iterator[PuzzleLike],
    size: int,
) -> Iterator[list[SolveResult]]:
    """The results of *items*, read lazily in tuples of *size* (the last one shorter), one
    list a chunk (:func:`solve_many` chains them: cheaper per result than ``yield from``)."""
    while chunk := tuple(itertools.islice(items, size)):
        yield _solve_chunk(eng, limit, budget, threads, shape, chunk)


def _chunk_shape(chunk: tuple[PuzzleLike, ...], shape: Shape | None) -> Shape | None:
    """The shape the engine reads a chunk in: *shape* when given, else that of its first
    Grid, or the default shape of the cell count of its first line that has one."""
    if shape is not None:
        return shape
    for item in chunk:
        if type(item) is Grid:
            return item.shape
        if type(item) is str and (found := default_shape(len(item.strip()))) is not None:
            return found  # the cached Shape: the engine finds its geometry by identity
    return None


def _solve_chunk(
    eng: Engine,
    limit: int,
    budget: int | None,
    threads: int,
    shape: Shape | None,
    chunk: tuple[PuzzleLike, ...],
) -> list[SolveResult]:
    """Solve one chunk: the engine takes the items it reads itself (plain lines and Grids of
    the chunk's shape), the rest are parsed here and searched by shape."""
    fast = _chunk_shape(chunk, shape)
    if fast is None:
        return _solve_parsed(eng, chunk, limit, budget, threads, shape)
    bound = _default_bound(fast, limit) if budget is None else budget
    record = _RECORD_SPECS[limit >= 2]
    found, rest, pending = eng.search_items(fast, chunk, limit, bound, threads, record)
    results: list[SolveResult | None] = found  # SolveResult records, or None
    for k, puzzle, count, first, guesses, complete in rest:
        grid = puzzle if isinstance(puzzle, Grid) else Grid._trusted(puzzle, fast)
        results[k] = to_solve_result(grid, count, first, guesses, complete, bound, limit)
    if pending:
        others = _solve_parsed(eng, [chunk[k] for k in pending], limit, budget, threads, shape)
        for k, result in zip(pending, others, strict=True):
            results[k] = result
    if "logging" in sys.modules:  # else nobody can be listening: skip the slow import
        _logger().debug("solved a chunk of %d puzzles", len(chunk))
    return results  # type: ignore[return-value]  # every None was replaced above


@cache
def _logger() -> logging.Logger:
    """This module's logger, looked up once (``logging.getLogger`` takes a lock: per chunk it
    cost more than the rest of a one-line :func:`solve_many` call's Python)."""
    import logging

    return logging.getLogger(__name__)


def _solve_parsed(
    eng: Engine,
    items: Sequence[PuzzleLike],
    limit: int,
    budget: int | None,
    threads: int,
    shape: Shape | None,
) -> list[SolveResult]:
    """Solve *items* the general way: text that does not parse becomes a result at once, the
    rest goes to the engine's batch call by shape."""
    results: list[SolveResult | None] = [None] * len(items)
    pending: dict[Shape, list[tuple[int, Grid]]] = {}
    for k, item in enumerate(items):
        if isinstance(item, Grid):  # a Grid keeps its own shape
            grid = item
        else:
            try:
                grid = as_grid(item.strip() if isinstance(item, str) else item, shape)
            except SudokuError as exc:  # text, rows or an array that is not a puzzle
                results[k] = _invalid(None, exc)
                continue
            except TypeError as exc:  # not a puzzle at all (None, bytes, a number)
                results[k] = SolveResult(None, Status.INVALID, None, 0, 0, True, str(exc))
                continue
        pending.setdefault(grid.shape, []).append((k, grid))
    for group_shape, group in pending.items():
        ncells = group_shape.ncells
        buffer = b"".join(grid.cells for _, grid in group)
        bound = _default_bound(group_shape, limit) if budget is None else budget
        out = eng.search_batch(group_shape, buffer, limit, bound, threads)
        for j, (k, grid) in enumerate(group):
            first = out.solutions[j * ncells : (j + 1) * ncells]
            count, guesses, complete = out.counts[j], out.guesses[j], out.complete[j]
            results[k] = to_solve_result(grid, count, first, guesses, complete, bound, limit)
    return [r for r in results if r is not None]
