"""Clue-pattern symmetries: their names, the cell orbits they make, and which shapes they fit.

A symmetry is a group of rotations and mirrors of the grid (their cell permutations come from
:func:`sudokit.transform.cell_map`); a clue pattern has it when each map sends clues onto
clues. One word, one meaning: ``mirror-lr`` reflects left-right (columns reversed, what
:func:`sudokit.transform.mirror` calls ``"horizontal"``) and ``mirror-tb`` top-bottom (rows
reversed, ``"vertical"`` there). The older spellings ``mirror-h`` (= ``mirror-tb``: the
mirror in the horizontal *axis*) and ``mirror-v`` (= ``mirror-lr``) are still accepted
(:data:`SYMMETRY_ALIASES`) and give the same puzzles.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, get_args

from ..errors import SudokuError, quote
from ..grid import Grid
from ..shape import Shape
from ..transform import GEOMETRIC, cell_map

__all__ = [
    "SYMMETRIES",
    "SYMMETRY_ALIASES",
    "SymmetryAlias",
    "SymmetryName",
    "applicable_symmetries",
    "canonical_symmetry",
    "check_symmetry",
    "is_symmetric",
    "orbit_index",
    "orbits",
]

#: The name of a clue-pattern symmetry (the one list: :data:`SYMMETRIES` and the web API's
#: request type are made from it).
SymmetryName = Literal[
    "none",
    "rot180",
    "rot90",
    "mirror-tb",
    "mirror-lr",
    "diagonal",
    "anti-diagonal",
    "dihedral",
]
#: Older names still accepted (:data:`SYMMETRY_ALIASES`).
SymmetryAlias = Literal["mirror-h", "mirror-v"]

#: The clue-pattern symmetries, in the order the CLI lists them.
SYMMETRIES: tuple[SymmetryName, ...] = get_args(SymmetryName)

#: Older names still accepted: ``mirror-h`` reflected in the horizontal axis (top-bottom) and
#: ``mirror-v`` in the vertical one (left-right), the opposite of what "horizontal" means in
#: :func:`sudokit.transform.mirror`; they are read as the names they stand for.
SYMMETRY_ALIASES: dict[str, str] = {
    "mirror-h": "mirror-tb",
    "mirror-v": "mirror-lr",
}

# The non-identity maps of each symmetry group, by their names in sudokit.transform.
_GROUPS: dict[str, tuple[str, ...]] = {
    "none": (),
    "rot180": ("rot180",),
    "rot90": ("rot90", "rot180", "rot270"),
    "mirror-tb": ("vertical",),
    "mirror-lr": ("horizontal",),
    "diagonal": ("diagonal",),
    "anti-diagonal": ("anti-diagonal",),
    "dihedral": GEOMETRIC,
}


def canonical_symmetry(symmetry: str) -> str:
    """The name of *symmetry* in :data:`SYMMETRIES` (an alias is replaced by what it stands for).

    >>> canonical_symmetry("mirror-h"), canonical_symmetry("rot90")
    ('mirror-tb', 'rot90')
    """
    name = SYMMETRY_ALIASES.get(symmetry, symmetry)
    if name not in _GROUPS:
        raise SudokuError(
            f"unknown symmetry {quote(symmetry)}, expected one of {', '.join(SYMMETRIES)}"
        )
    return name


def _maps(n: int, symmetry: str) -> list[tuple[int, ...]]:
    """The cell permutations of the non-identity maps of *symmetry* on an ``n x n`` grid."""
    return [cell_map(n, name) for name in _GROUPS[symmetry]]


@lru_cache(maxsize=128)
def _symmetry_ok(shape: Shape, symmetry: str) -> bool:
    """True when every map of *symmetry* sends each unit of *shape* onto a unit."""
    units = {frozenset(u) for u in shape.units}
    for perm in _maps(shape.n, symmetry):
        if any(frozenset(perm[i] for i in unit) not in units for unit in units):
            return False
    return True


def check_symmetry(shape: Shape, symmetry: str) -> str:
    """The canonical name of *symmetry*, after checking that it fits *shape*.

    :raises SudokuError: for an unknown name, or a symmetry that does not map the units of
        *shape* onto units (naming those that do).
    """
    name = canonical_symmetry(symmetry)
    if not _symmetry_ok(shape, name):
        what = "region map" if shape.regions is not None else f"{shape.box_spec} boxes"
        fits = ", ".join(applicable_symmetries(shape))
        raise SudokuError(
            f"symmetry {symmetry!r} does not fit a {shape.n}x{shape.n} grid with {what} "
            f"(it does not map units onto units); symmetries that fit: {fits}"
        )
    return name


def applicable_symmetries(shape: Shape) -> tuple[str, ...]:
    """The symmetries that map the units of *shape* onto units (so they may shape a pattern).

    Rotating a 6x6 grid by 90 degrees turns its 2x3 boxes into 3x2 ones, so ``rot90`` does not
    fit it; a jigsaw allows only the symmetries of its region map.

    >>> applicable_symmetries(Shape(2, 3))
    ('none', 'rot180', 'mirror-tb', 'mirror-lr')
    >>> len(applicable_symmetries(Shape(3, 3)))
    8
    """
    return tuple(s for s in SYMMETRIES if _symmetry_ok(shape, s))


@lru_cache(maxsize=128)
def orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cell orbits of *symmetry* (a canonical name), each sorted, in order of their first
    cell."""
    perms = _maps(shape.n, symmetry)
    seen = [False] * shape.ncells
    out = []
    for i in range(shape.ncells):
        if seen[i]:
            continue
        orbit = sorted({i, *(p[i] for p in perms)})
        for j in orbit:
            seen[j] = True
        out.append(tuple(orbit))
    return tuple(out)


@lru_cache(maxsize=64)
def orbit_index(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """For every cell, the cells of its symmetry orbit."""
    index: list[tuple[int, ...]] = [()] * shape.ncells
    for orbit in orbits(shape, symmetry):
        for i in orbit:
            index[i] = orbit
    return tuple(index)


def is_symmetric(grid: Grid, symmetry: str) -> bool:
    """True when the clue positions of *grid* are invariant under *symmetry* (digits ignored).

    >>> g = Grid.parse("1..." "...." "...." "...2")
    >>> is_symmetric(g, "rot180"), is_symmetric(g, "mirror-tb"), is_symmetric(g, "mirror-h")
    (True, False, False)
    """
    cells = grid.cells
    for perm in _maps(grid.shape.n, canonical_symmetry(symmetry)):
        if any((cells[i] == 0) != (cells[perm[i]] == 0) for i in range(len(cells))):
            return False
    return True
