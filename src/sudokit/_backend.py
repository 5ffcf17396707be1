"""The search engine: the C core when it serves, else the pure-Python reference (layer 3).

Both engines implement :class:`Engine`. Whether the C core serves is :mod:`sudokit._native`'s
decision (``SUDOKIT_BACKEND``, the import, the build stamp), made once at import: there
``SUDOKIT_BACKEND=python`` forces the reference, ``SUDOKIT_BACKEND=c`` requires the C core
(an ImportError otherwise), and a core that is missing or stale, when nothing was forced,
gives a visible fallback: :data:`BACKEND` is ``"python"``, a warning is logged, and
``sudokit --version`` shows why.

Parity contract (tested against both engines): the same cells and limit give the same count;
when the count is 1 the solutions are identical; otherwise each returned solution is valid.
Guess counts are diagnostics, not parity.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import Any, NamedTuple, Protocol

from . import _native
from ._record import _Record
from .shape import Shape

__all__ = [
    "BACKEND",
    "AttemptOutcome",
    "BatchOutcome",
    "BoundSearch",
    "Engine",
    "FillOutcome",
    "ItemsOutcome",
    "RecordSpec",
    "SearchOutcome",
    "engine",
    "get_engine",
]


class SearchOutcome(NamedTuple):
    """What one search found.

    ``count`` is exact up to ``limit`` when ``complete``; when the budget ran out first
    (``complete`` is False) it is a lower bound. ``solutions`` holds up to ``keep`` solutions
    (cell bytes) in the order found. ``guesses`` counts branching decisions. A named tuple:
    one is built per search on the hot path, and tuples are the cheapest immutable value.
    """

    count: int  # type: ignore[assignment]  # shadows tuple.count by design: the field is the API
    solutions: tuple[bytes, ...]
    guesses: int
    complete: bool = True


class BatchOutcome(_Record):
    """Per-puzzle results of a batch search, in input order.

    ``solutions`` is one contiguous buffer of ``len(counts) * ncells`` bytes holding the first
    solution of each puzzle (all zeros where it has none).
    """

    __slots__ = ("complete", "counts", "guesses", "solutions")
    __match_args__ = ("counts", "solutions", "guesses", "complete")
    counts: tuple[int, ...]
    solutions: bytes
    guesses: tuple[int, ...]
    complete: tuple[bool, ...]

    def __init__(
        self,
        counts: Iterable[int],
        solutions: bytes,
        guesses: Iterable[int],
        complete: Iterable[bool],
    ) -> None:
        object.__setattr__(self, "counts", tuple(counts))
        object.__setattr__(self, "solutions", solutions)
        object.__setattr__(self, "guesses", tuple(guesses))
        object.__setattr__(self, "complete", tuple(complete))


#: What :meth:`Engine.fill` gives: ``(puzzle, solution, searches, complete)``.
FillOutcome = tuple[bytes | None, bytes | None, int, bool]
#: What :meth:`Engine.random_puzzle` gives: ``(puzzle, solution, order, searches, decided,
#: complete)``.
AttemptOutcome = tuple[bytes | None, bytes | None, list[int], int, bool, bool]

#: ``search(cells, limit, keep, budget) -> (count, solutions, guesses, complete)``: an engine's
#: search with the shape fixed (see :meth:`Engine.bind`). A plain tuple, not a
#: :class:`SearchOutcome`: bound searches are for hot loops (the generator makes tens of
#: thousands a second), where building a record per call would cost more than the search.
BoundSearch = Callable[[bytes, int, int, int], tuple[int, tuple[bytes, ...], int, bool]]


#: ``(cls, fields, by_count)``: the records :meth:`Engine.search_items` builds (see there).
RecordSpec = tuple[type, tuple[str, ...], tuple[object, ...]]
#: ``(results, rest, pending)`` of :meth:`Engine.search_items`.
ItemsOutcome = tuple[list[Any], list[tuple[int, Any, int, bytes | None, int, bool]], list[int]]


class Engine(Protocol):
    """The one search signature every engine implements.

    An engine subclasses it and gives :meth:`bind` and :meth:`search`. The bulk and generator
    calls have defaults here, in pure Python over :meth:`search`: they are the reference
    engine's and the specification that a native engine's replacements are tested against.
    The generator's calls (:meth:`reduce`, :meth:`fill`, :meth:`random_puzzle`) take their
    arguments by position only, as the C core's functions do.
    """

    name: str

    def bind(self, shape: Shape) -> BoundSearch:
        """:meth:`search` on *shape*, with the per-shape work (geometry lookups) done once.

        The result is a :data:`BoundSearch`; it gives the same results as :meth:`search`.
        """
        ...

    def search(
        self, shape: Shape, cells: bytes, limit: int, keep: int, budget: int
    ) -> SearchOutcome:
        """Count solutions of *cells* up to *limit* (>= 1), keeping the first *keep* of them.

        *budget* bounds the guesses (0 = unbounded). *cells* has ``shape.ncells`` values 0..n.
        """
        ...

    def search_batch(
        self, shape: Shape, puzzles: bytes, limit: int, budget: int, threads: int
    ) -> BatchOutcome:
        """Search every puzzle in *puzzles* (``k * shape.ncells`` bytes), keeping first solutions.

        *threads* is the number of worker threads (1 = this thread only; this default searches
        them one by one in this thread).
        """
        size = shape.ncells
        counts: list[int] = []
        guesses: list[int] = []
        complete: list[bool] = []
        out = bytearray()
        for start in range(0, len(puzzles), size):
            found = self.search(shape, puzzles[start : start + size], limit, 1, budget)
            counts.append(found.count)
            guesses.append(found.guesses)
            complete.append(found.complete)
            out += found.solutions[0] if found.solutions else bytes(size)
        return BatchOutcome(counts, bytes(out), guesses, complete)

    def search_items(
        self,
        shape: Shape,
        items: tuple[object, ...],
        limit: int,
        budget: int,
        threads: int,
        record: RecordSpec,
    ) -> ItemsOutcome:
        """Read, search and make results for the *items* the engine reads itself (bulk solving).

        An engine may take the items that are plain lines of *shape* (one symbol per cell,
        read exactly as ``Grid.parse`` reads them) and Grids of exactly that shape, search
        them as :meth:`search_batch` does, and return ``(results, rest, pending)``:
        ``results[i]`` is a record of ``record = (cls, fields, by_count)`` (``cls`` built
        without ``__init__``, its slots ``fields`` set to puzzle cells or Grid, first
        solution, shape, ``by_count[min(count, len - 1)]``, count, guesses, True, None)
        where the search completed with a solution, else None; ``rest`` holds ``(i, puzzle,
        count, first, guesses, complete)`` for the other items it searched; ``pending`` the
        indices of the items it did not take (the caller's). Taking none is valid, and this
        default takes none: reading and results are left to the caller.

        >>> _ReferenceEngine().search_items(Shape(2, 2), ("." * 16,), 2, 0, 1, (object, (), ()))
        ([None], [], [0])
        """
        return [None] * len(items), [], list(range(len(items)))

    def reduce(
        self,
        shape: Shape,
        cells: bytes,
        order: Sequence[int],
        group_ends: Sequence[int],
        budget: int,
        max_searches: int | None = None,
        /,
    ) -> tuple[bytes, int, bool, bool]:
        """The generator's clue-removal pass: ``(puzzle, searches, decided, complete)``.

        For each group ``order[group_ends[k-1]:group_ends[k]]`` in turn, clear its cells that
        hold a digit and keep them cleared when a search (limit 2, *budget* guesses) completes
        with exactly one solution, else restore them; a group without a digit costs no search.
        *decided* is False when a search gave up; *complete* is False when *max_searches*
        (None = no cap) stopped the pass before a group, leaving it and later ones untouched.
        """
        ends_ok = all(a <= b for a, b in pairwise(group_ends))
        if not ends_ok or (group_ends[-1] if group_ends else 0) != len(order):
            raise ValueError("group_ends must be non-decreasing and end at len(order)")
        if not all(0 <= i < shape.ncells for i in order):
            raise ValueError(f"order entries must be cell indices in 0..{shape.ncells - 1}")
        puzzle = bytearray(cells)
        searches, decided, start = 0, True, 0
        for end in group_ends:
            group = [i for i in dict.fromkeys(order[start:end]) if puzzle[i]]
            start = end
            if not group:
                continue
            if searches == max_searches:
                return bytes(puzzle), searches, decided, False
            saved = [puzzle[i] for i in group]
            for i in group:
                puzzle[i] = 0
            found = self.search(shape, bytes(puzzle), 2, 0, budget)
            searches += 1
            if found.count == 1 and found.complete:
                continue
            for i, v in zip(group, saved, strict=True):
                puzzle[i] = v
            decided = decided and found.complete
        return bytes(puzzle), searches, decided, True

    def fill(
        self,
        shape: Shape,
        order: Sequence[int],
        ends: Sequence[int] | None,
        draw: Callable[[], float],
        budget: int,
        max_searches: int | None = None,
        /,
    ) -> FillOutcome | None:
        """The generator's phase 1 in one call, or None when the engine has no native one.

        Random digits (each chosen by one ``draw()``) on the cells of *order* until the puzzle
        has exactly one solution, decision for decision as the unguided loop of
        :func:`sudokit.generator.fill._fill` (its specification: the generator runs that loop
        itself when this returns None). *ends*: None, or per position of *order* the position
        just after its orbit (the orbit reached last is completed from the solution).
        ``(puzzle, solution, searches, complete)``: *puzzle* None when a cell had no digit
        left, *solution* None unless unique, *complete* False when *max_searches* stopped it.
        This default has none.
        """
        return None

    def random_puzzle(
        self,
        shape: Shape,
        cells: Sequence[int],
        ends: Sequence[int],
        complete_orbits: bool,
        draw: Callable[[], float],
        budget: int,
        max_searches: int | None = None,
        /,
    ) -> AttemptOutcome | None:
        """One generation attempt in one call, or None when the engine has no native one.

        The orbits (orbit k is ``cells[ends[k-1]:ends[k]]``) in a random order (one ``draw()``
        each, as :func:`sudokit.generator.search.shuffled`), :meth:`fill` on their cells, the
        orbits holding digits shuffled again and :meth:`reduce` over them: what
        :mod:`sudokit.generator.puzzle` does itself when this returns None, draw for draw.
        ``(puzzle, solution, order, searches, decided, complete)``: *order* the orbit numbers
        in their shuffled order; the rest as :meth:`fill` and :meth:`reduce` give them.
        This default has none.
        """
        return None


class _ReferenceEngine(Engine):
    """The pure-Python reference solver behind the :class:`Engine` signature: its own
    :meth:`bind` and :meth:`search`, and the Python defaults of everything else."""

    name = "python"

    def bind(self, shape: Shape) -> BoundSearch:
        """:meth:`search` on *shape* as a :data:`BoundSearch`.

        >>> _ReferenceEngine().bind(Shape(2, 2))(bytes(16), 3, 0, 0)[0]
        3
        """
        from ._reference import search as run  # only for this engine: import sudokit skips it

        def search(
            cells: bytes, limit: int, keep: int, budget: int
        ) -> tuple[int, tuple[bytes, ...], int, bool]:
            count, sols, guesses, complete = run(shape, cells, limit, keep, budget)
            return count, tuple(sols), guesses, complete

        return search

    def search(
        self, shape: Shape, cells: bytes, limit: int, keep: int, budget: int
    ) -> SearchOutcome:
        count, sols, guesses, complete = self.bind(shape)(cells, limit, keep, budget)
        return SearchOutcome(count, sols, guesses, complete)


def _load() -> Engine:
    if _native.core() is None:
        return _ReferenceEngine()
    from ._cengine import CEngine

    return CEngine()


_ENGINE: Engine = _load()
#: ``"c"`` or ``"python"``: the engine this process uses.
BACKEND: str = _ENGINE.name


def engine() -> Engine:
    """The engine chosen at import."""
    return _ENGINE


def get_engine(name: str | None = None) -> Engine:
    """The engine called *name* (``"c"`` or ``"python"``), or the chosen one for ``None``.

    Tests use this to run one suite against both engines. ``"c"`` is the C core whenever it
    is built from these sources, whatever ``SUDOKIT_BACKEND`` asks; otherwise an ImportError
    says why not.
    """
    if name is None or name == _ENGINE.name:
        return _ENGINE
    if name == "python":
        return _ReferenceEngine()
    if name == "c":
        _native.require()  # ImportError: why the core is not built from these sources
        from ._cengine import CEngine

        return CEngine()
    raise ValueError(f"unknown engine {name!r}, expected 'c' or 'python'")
