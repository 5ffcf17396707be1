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

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .._config import requested_backend
from ..shape import Shape

if TYPE_CHECKING:
    from .candidates import CandidateGrid

__all__ = [
    "DIRECT_HIDDEN",
    "DIRECT_LOCKS",
    "FISH",
    "FULL_HOUSE",
    "HIDDEN_SETS",
    "HIDDEN_SINGLES",
    "LOCKS",
    "NAKED_SETS",
    "NAKED_SINGLES",
    "WINGS",
    "core",
    "table_args",
]

FULL_HOUSE = 0  # (unit, cell, digit)
HIDDEN_SINGLES = 1  # k = boxes: (unit, cell, digit)
NAKED_SINGLES = 2  # (cell, digit)
LOCKS = 3  # k = pointing: (crossing, digit)
DIRECT_LOCKS = 4  # k = pointing: (crossing, digit, unit, cell)
NAKED_SETS = 5  # k = size: (unit, digits, *cells)
HIDDEN_SETS = 6  # k = size: (unit, digits, *cells)
DIRECT_HIDDEN = 7  # k = size: (unit, digits, digit, cell, *cells)
FISH = 8  # k = size: (digit, by_rows, base lines, cover lines)
WINGS = 9  # k = xyz: (pivot, a, b, z)


def core(cg: CandidateGrid) -> Any:
    """The C core's search table for the shape of *cg* (``_core.HumanShape``), or None when
    the finders must run their Python searches; looked up once per working grid (kept in
    ``cg.human``), so a change of ``SUDOKIT_BACKEND`` applies to grids made after it."""
    table = cg.human
    if table == 0:
        table = cg.human = None if requested_backend() == "python" else _table(cg.shape)
    return table


@lru_cache(maxsize=64)
def _table(shape: Shape) -> Any:
    try:
        from .. import _core
    except ImportError:
        return None
    cls = getattr(_core, "HumanShape", None)
    if cls is None or shape.n > _core.MAX_SIZE:
        return None
    return cls(*table_args(shape))


def table_args(shape: Shape) -> tuple[Any, ...]:
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
