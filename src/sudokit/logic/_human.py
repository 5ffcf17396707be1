"""The C searches of the cheap human techniques, and how a finder picks them (layer 2).

The finders of singles, SE's direct techniques, intersections, naked and hidden subsets, basic
fish and XY/XYZ-Wings are split in two: a *search* that yields hits (the few integers naming
a step: a unit and a cell, a crossing and a digit, ...) in the order the finder yields its
steps, and a *builder* that makes the :class:`~sudokit.logic.step.Step` of one hit (its
eliminations, text and highlights). The Python searches are the readable specification and
the fallback; the C core's ``HumanShape.find`` (csrc/sk_human.c) runs the same searches on the
state's masks and hands back only the hits, so only the steps the path asks for become Python
objects. :func:`core` answers which one a finder uses: the core's table for the shape, or None
(no core, ``SUDOKIT_BACKEND=python``, or a grid beyond 64x64).

``find(kind, k, masks, values)``: *kind* one of the constants below, *k* the subset or fish
size, the lock kind (1 = pointing) or the box / XYZ flag; the hits of each kind are listed in
csrc/sk_human.h. tests/test_human_c.py holds the two searches equal, hit for hit.

>>> from sudokit.shape import Shape
>>> table = _table(Shape(2, 2))
>>> table is None or table.find(NAKED_SINGLES, 0, [1] + [0b1111] * 15, ()) == ((0, 1),)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .. import _native
from ..shape import Shape
from ._delta import Delta, Since, by_digits, incremental

if TYPE_CHECKING:
    from .. import _core
    from .candidates import CandidateGrid
    from .step import Step

__all__ = [
    "ALS_MAX_CELLS",
    "ALS_XZ",
    "ALT_CHAINS",
    "COLOURING",
    "DIRECT_HIDDEN",
    "DIRECT_LOCKS",
    "EMPTY_RECTANGLES",
    "FINNED_FISH",
    "FISH",
    "FULL_HOUSE",
    "HIDDEN_SETS",
    "HIDDEN_SINGLES",
    "LOCKS",
    "NAKED_SETS",
    "NAKED_SINGLES",
    "TWO_LINKS",
    "WINGS",
    "W_WINGS",
    "by_digits_or_core",
    "core",
    "lazy_hits",
    "steps",
    "table_args",
]

A = TypeVar("A", int, bool)

FULL_HOUSE: Final = 0  # (unit, cell, digit)
HIDDEN_SINGLES: Final = 1  # k = boxes: (unit, cell, digit)
NAKED_SINGLES: Final = 2  # (cell, digit)
LOCKS: Final = 3  # k = pointing: (crossing, digit)
DIRECT_LOCKS: Final = 4  # k = pointing: (crossing, digit, unit, cell)
NAKED_SETS: Final = 5  # k = size: (unit, digits, *cells)
HIDDEN_SETS: Final = 6  # k = size: (unit, digits, *cells)
DIRECT_HIDDEN: Final = 7  # k = size: (unit, digits, digit, cell, *cells)
FISH: Final = 8  # k = size: (digit, by_rows, base lines, cover lines)
WINGS: Final = 9  # k = xyz: (pivot, a, b, z)
ALS_XZ: Final = 10  # k = 0: (unit A, size A, 4 cells, unit B, size B, 4 cells, x, z)
FINNED_FISH: Final = 11  # k = size: (digit, by_rows, base lines, cover lines)
TWO_LINKS: Final = 12  # k = pattern (0 Skyscraper, 1 Kite, 2 Turbot): (digit, u1, a, b, u2, c, e)
EMPTY_RECTANGLES: Final = 13  # k = 0: (box, digit, row, column, end, end, link unit, target)
W_WINGS: Final = 14  # k = 0: (a, b, x, y, unit, end, end)
ALT_CHAINS: Final = 15  # k = 0 X-Chain, 1 XY-Chain, 2 AIC: (links, size, *path, 0 padding)
COLOURING: Final = 16  # k = 0: (digit, start, 0 / 1 wrap of colour A / B, 2 trap); (0, 0, 0)

#: The largest grid (cells) the core's ALS-XZ search takes (csrc/sk_human.h).
ALS_MAX_CELLS: Final = 256


def core(cg: CandidateGrid) -> _core.HumanShape | None:
    """The C core's search table for the shape of *cg* (``_core.HumanShape``), or None when
    the finders must run their Python searches (the core does not serve); looked up once per
    working grid (kept in ``cg.human``)."""
    table = cg.human
    if isinstance(table, int):
        table = cg.human = None if _native.core() is None else _table(cg.shape)
    return table


def steps(
    cg: CandidateGrid,
    kind: int,
    arg: A,
    step: Callable[[CandidateGrid, A, Any], Step],
    since: Since,
    search: Callable[[CandidateGrid, Delta | None, A], Iterator[Step]],
) -> Iterator[Step]:
    """``step(cg, arg, hit)`` for each hit of the core's search *kind* (with *arg*) where the
    core serves, else the Python ``search(cg, delta, arg)`` over what changed since *since*
    (:func:`~._delta.incremental`)."""
    table = core(cg)
    if table is not None:
        return map(partial(step, cg, arg), table.find(kind, arg, cg.masks, ()))
    return incremental(since, lambda cg, delta: search(cg, delta, arg), cg)


H = TypeVar("H")
#: One hit of a search: the few integers naming a step (csrc/sk_human.h lists each kind's).
Hit = tuple[int, ...]


def lazy_hits(table: _core.HumanShape, kind: int, arg: int, masks: list[int]) -> Iterator[Hit]:
    """The hits of ``table.find(kind, arg, masks, ())`` in order, the first one searched alone
    (the search stops there) and the rest only when asked for: the path takes a technique's
    first effective step when it is rated at the technique's base, as the steps of the costly
    searches of explanations (ALS-XZ, finned fish, the single-digit patterns, W-Wings) are,
    so most states need only the first hit. *masks* must not change in between."""
    first = table.find(kind, arg, masks, (), 1)
    if first:
        yield first[0]
        yield from table.find(kind, arg, masks, ())[1:]


def by_digits_or_core(
    kind: int,
    arg: int,
    step: Callable[[CandidateGrid, H], Step],
    hits: Callable[[CandidateGrid, Sequence[int]], Iterable[H]],
) -> Callable[[CandidateGrid], Iterator[Step]]:
    """A finder of ``step(cg, hit)`` for each hit of the core's search *kind* (with *arg*, every
    digit) where the core serves, else of the Python ``hits(cg, digits)`` over the digits whose
    places changed since it last found nothing (:func:`~._delta.by_digits`): the two give the
    same steps, as a digit's hits are decided by its places alone."""
    python = by_digits(lambda cg, digits: map(partial(step, cg), hits(cg, digits)))

    def finder(cg: CandidateGrid) -> Iterator[Step]:
        table = core(cg)
        if table is not None:
            return map(partial(step, cg), lazy_hits(table, kind, arg, cg.masks))
        return python(cg)

    return finder


@lru_cache(maxsize=64)
def _table(shape: Shape) -> _core.HumanShape | None:
    """The C core's search table for *shape* whether the core serves or not, or None when it
    is not built or the shape is too large for it."""
    built = _native.built()
    if built is None or shape.n > built.MAX_SIZE:
        return None
    return built.HumanShape(*table_args(shape))


_Lists = tuple[tuple[int, ...], ...]
_Pairs = tuple[tuple[int, int], ...]


def table_args(
    shape: Shape,
) -> tuple[int, _Lists, tuple[int, ...], tuple[int, ...], _Lists, _Lists, _Pairs, _Pairs]:
    """The arguments of ``_core.HumanShape`` for *shape* (its tables as the C search reads
    them)."""
    from .intersections import crossings, is_box

    ids = {kind: i for i, kind in enumerate(sorted(set(shape.unit_kinds)))}
    return (
        shape.n,
        shape.units,
        tuple(ids[kind] for kind in shape.unit_kinds),
        tuple(int(is_box(shape, u)) for u in range(len(shape.units))),
        shape.peers,
        shape.cell_units,
        tuple(c[:2] for c in crossings(shape, False)),
        tuple(c[:2] for c in crossings(shape, True)),
    )
