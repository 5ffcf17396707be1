"""The C core behind the :class:`~sudokit._backend.Engine` signature (layer 3 adapter).

:mod:`sudokit._core` is compiled from ``csrc/`` at install time. It knows nothing about
:class:`~sudokit.shape.Shape`: it takes the units as data in a ``Geometry`` object, built
here once per shape and cached. Standard 9x9 grids go to the specialised fast path inside
the core (when it is compiled in and at most one solution is kept); every other shape up to
64x64 goes to the generic path.

Importing this module raises :class:`ImportError` when the core is not built from these sources
(:func:`sudokit._native.require`: not built, not loadable, or stale); :mod:`sudokit._native`'s
decision keeps the engine choice in :mod:`sudokit._backend` from importing it then.

>>> from sudokit.shape import Shape
>>> found = CEngine().search(Shape(2, 2), bytes(16), limit=1000, keep=1, budget=0)
>>> found.count, found.complete, len(found.solutions[0])
(288, True, 16)

The generator's calls are the core's functions with the shape's geometry bound in. Here a
unique 4x4 grid loses clues in order, one cell a group (:meth:`CEngine.reduce`), then phase 1
(:meth:`CEngine.fill`) and a whole attempt (:meth:`CEngine.random_puzzle`) give puzzles whose
one solution is the one they report:

>>> import random
>>> c = CEngine()
>>> grid = c.search(Shape(2, 2), bytes(16), 1, 1, 0).solutions[0]
>>> puzzle, searches, decided, complete = c.reduce(Shape(2, 2), grid, range(16), range(1, 17), 0)
>>> searches, decided, complete, c.search(Shape(2, 2), puzzle, 2, 0, 0).count
(16, True, True, 1)
>>> puzzle, solution, searches, complete = c.fill(
...     Shape(2, 2), range(16), None, random.Random(1).random, 0
... )
>>> complete, c.search(Shape(2, 2), puzzle, 2, 1, 0).solutions == (solution,)
(True, True)
>>> got = c.random_puzzle(Shape(2, 2), range(16), range(1, 17), False, random.Random(1).random, 0)
>>> puzzle, solution, order, searches, decided, complete = got
>>> sorted(order) == list(range(16)), decided, complete
(True, True, True)
>>> c.search(Shape(2, 2), puzzle, 2, 1, 0).solutions == (solution,)
True
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Concatenate, ParamSpec, TypedDict, TypeVar

from . import _core, _native
from ._backend import BatchOutcome, BoundSearch, Engine, ItemsOutcome, RecordSpec, SearchOutcome
from .constraints import SearchForms
from .grid import Grid, digit_table
from .shape import SYMBOLS, Shape

_native.require()  # a stale build would miss names below, or take other arguments

__all__ = ["CEngine", "geometry"]


@lru_cache(maxsize=64)
def geometry(shape: Shape, *, generic: bool = False) -> _core.Geometry:
    """The core's geometry of *shape* (built once per shape and cached; thread-safe to share).

    ``generic=True`` keeps a standard 9x9 shape off the fast path (tests compare the paths).
    A shape's variant rules go to the core in their primitive forms (``Constraints``: pairs
    that differ, allowed digits, relations, cages), which keeps it off the fast path too.

    >>> g = geometry(Shape(3, 3))
    >>> g.n, g.ncells, g.nunits, g.standard9, g.rules
    (9, 81, 27, True, False)
    """
    rules = shape.constraints
    if rules is None:
        return _core.Geometry(shape.n, shape.units, generic=generic)
    forms = rules.search_forms(shape.n)  # computed once per rule set and size
    return _core.Geometry(
        shape.n,
        shape.units,
        generic=generic,
        different=forms["different"],
        allowed=forms["allowed"],
        relations=forms["relations"],
        cages=forms["cages"],
        **_sums_and_groups(forms),
    )


class _SumsAndGroups(TypedDict, total=False):
    """The core's ``linear=`` and ``groups=`` keywords, each present only when not empty."""

    linear: tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]  # primitives.Linear
    groups: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]  # primitives.Group


def _sums_and_groups(forms: SearchForms) -> _SumsAndGroups:
    """The linear sums and groups of *forms*, as the core's keywords (left out when none, so
    that a shape without them builds on any core)."""
    found: _SumsAndGroups = {}
    if linear := forms["linear"]:
        found["linear"] = linear
    if groups := forms["groups"]:
        found["groups"] = groups
    return found


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _on_geometry(
    native: Callable[Concatenate[_core.Geometry, _P], _R],
) -> Callable[Concatenate[CEngine, Shape, _P], _R]:
    """A :class:`CEngine` method that calls the core's *native* function with the shape's
    geometry in the shape's place (the core checks the other arguments itself)."""

    def method(self: CEngine, shape: Shape, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return native(self._geometry(shape), *args, **kwargs)

    method.__name__ = method.__qualname__ = native.__name__
    method.__doc__ = native.__doc__
    return method


class CEngine(Engine):
    """The C search core: :meth:`search` for one puzzle, :meth:`search_batch` for many.

    Arguments are checked by the core itself (lengths, values, limits), which raises
    :class:`ValueError` or :class:`TypeError` with a message naming the argument.
    """

    name = "c"

    def __init__(self, *, generic: bool = False) -> None:
        self._generic = generic
        # The last (shape, geometry) pair, one tuple so that threads always see a matching
        # pair: most callers pass the same Shape object again, and an identity test is much
        # cheaper than hashing a Shape for the cache.
        self._last: tuple[Shape | None, _core.Geometry | None] = (None, None)

    def _geometry(self, shape: Shape) -> _core.Geometry:
        last_shape, last_geo = self._last
        if last_shape is shape and last_geo is not None:
            return last_geo
        geo = geometry(shape, generic=self._generic)
        self._last = (shape, geo)
        return geo

    def bind(self, shape: Shape) -> BoundSearch:
        """:meth:`search` on *shape* as a :data:`~sudokit._backend.BoundSearch`: the core's
        search with the shape's cached geometry bound in (a partial of the builtin, so a call
        costs no Python frame).

        >>> CEngine().bind(Shape(2, 2))(bytes(16), 3, 0, 0)[0]
        3
        """
        return partial(_core.search, geometry(shape, generic=self._generic))

    def search(
        self, shape: Shape, cells: bytes, limit: int, keep: int, budget: int
    ) -> SearchOutcome:
        """Count solutions of *cells* up to *limit*, keeping the first *keep*; see ``Engine``.

        >>> from sudokit.grid import Grid
        >>> g = Grid.parse(
        ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ... )
        >>> found = CEngine().search(g.shape, g.cells, limit=2, keep=1, budget=0)
        >>> found.count, Grid(found.solutions[0], g.shape).is_solution(g)
        (1, True)
        """
        geo = self._geometry(shape)
        count, solutions, guesses, complete = _core.search(geo, cells, limit, keep, budget)
        return SearchOutcome(count, solutions, guesses, complete)

    def search_batch(
        self, shape: Shape, puzzles: bytes, limit: int, budget: int, threads: int
    ) -> BatchOutcome:
        """Search the ``len(puzzles) // shape.ncells`` puzzles of one contiguous buffer.

        *threads* native threads share the batch (0 = one per online CPU); the GIL is
        released meanwhile.

        >>> found = CEngine().search_batch(Shape(2, 2), bytes(32), limit=2, budget=0, threads=2)
        >>> found.counts, found.complete
        ((2, 2), (True, True))
        """
        geo = self._geometry(shape)
        counts, solutions, guesses, complete = _core.search_batch(
            geo, puzzles, limit, budget, threads
        )
        return BatchOutcome(counts, solutions, guesses, complete)

    def search_items(
        self,
        shape: Shape,
        items: tuple[object, ...],
        limit: int,
        budget: int,
        threads: int,
        record: RecordSpec,
    ) -> ItemsOutcome:
        """One chunk of bulk solving in one native call (see ``Engine.search_items``): the
        core reads plain lines with the line reader's own table and Grids of *shape*.

        >>> from sudokit.solver import _FIELDS, SolveResult, Status
        >>> spec = (SolveResult, _FIELDS, (None, Status.UNIQUE, Status.MULTIPLE))
        >>> items = ("1" + "." * 15, "12", "11" + "." * 14)  # a line, not a line, a conflict
        >>> found, rest, pending = CEngine().search_items(Shape(2, 2), items, 2, 0, 1, spec)
        >>> found[0].status, found[0].count, found[1:], [r[0] for r in rest], pending
        (<Status.MULTIPLE: 'multiple'>, 2, [None, None], [2], [1])
        """
        table = digit_table(shape.n) if shape.n <= len(SYMBOLS) else None
        geo = self._geometry(shape)
        return _core.search_items(geo, shape, items, table, Grid, limit, budget, threads, record)

    #: The clue-removal pass in one native call, the GIL released; see ``Engine.reduce``.
    reduce = _on_geometry(_core.reduce)
    #: Phase 1 of generation in one native call (``sk_fill``, csrc/sk_gen.h); see
    #: ``Engine.fill``. The GIL stays held: *draw* is called for every digit drawn.
    fill = _on_geometry(_core.fill)
    #: One generation attempt in one native call (``sk_random_puzzle``, csrc/sk_gen.h); see
    #: ``Engine.random_puzzle``. The GIL stays held: *draw* is Python.
    random_puzzle = _on_geometry(_core.random_puzzle)
