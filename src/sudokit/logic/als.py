"""Almost Locked Sets: the ALS-XZ rule (layer 2).

An *almost locked set* (ALS) is a group of ``N`` unsolved cells of one unit whose candidates
together are ``N + 1`` digits (a single cell with two candidates is the smallest). If one of its
digits is removed, the rest are locked in the set.

ALS-XZ: two ALS ``A`` and ``B`` (no common cell) share a digit ``x`` such that every ``x`` of
``A`` sees every ``x`` of ``B`` (a *restricted common*): ``x`` can be in at most one of them, so
the other is locked and holds each of its other digits. For another common digit ``z``, one of
the two sets therefore holds ``z``, and every cell that sees all the ``z`` cells of both loses
``z``. Not in Sudoku Explainer; rated 5.5. Sets of up to :data:`MAX_SIZE` cells are searched.
Works on every shape.

>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> masks = [0b111111111] * 81
>>> masks[0], masks[4] = 0b011, 0b011    # A = r1c1 {1,2} and B = r1c5 {1,2}: x = 1, z = 2
>>> step = next(als_xz(CandidateGrid.from_masks(Shape(3, 3), [0] * 81, masks)))
>>> [c for c, _ in step.eliminations], {d for _, d in step.eliminations}
([1, 2, 3, 5, 6, 7, 8], {2})
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from functools import partial
from itertools import combinations

from ..shape import Shape
from . import _human
from ._delta import Delta, Since, incremental, only_removed
from ._names import cell_list, digit_list, digit_name, elim_text
from .candidates import CandidateGrid, bits, members, peer_bits
from .step import Step

__all__ = ["MAX_SIZE", "Als", "als_xz", "find_als"]

#: The largest almost locked sets searched (cells).
MAX_SIZE = 4


class Als:
    """An almost locked set: ``cells`` of ``unit`` with candidate mask ``digits``; ``where``
    maps each digit to the bit set of its cells, ``seen`` to the bit set of the cells that see
    all of them."""

    __slots__ = ("cellmask", "cells", "digits", "seen", "unit", "where")

    def __init__(
        self, unit: int, cells: tuple[int, ...], digits: int, masks: list[int], pm: tuple[int, ...]
    ) -> None:
        self.unit = unit
        self.cells = cells
        self.digits = digits
        self.cellmask = 0
        for c in cells:
            self.cellmask |= 1 << c
        self.where: dict[int, int] = {}
        self.seen: dict[int, int] = {}
        for d in bits(digits):
            bit = 1 << (d - 1)
            m = 0
            seen = -1
            for c in cells:
                if masks[c] & bit:
                    m |= 1 << c
                    seen &= pm[c]
            self.where[d] = m
            self.seen[d] = seen


def find_als(cg: CandidateGrid, max_size: int = MAX_SIZE) -> list[Als]:
    """Every ALS of up to *max_size* cells (each set of cells once)."""
    masks = cg.masks
    pm = peer_bits(cg.shape)
    seen: set[tuple[int, ...]] = set()
    out: list[Als] = []
    for u, unit in enumerate(cg.shape.units):
        empty = [c for c in unit if masks[c]]
        for size in range(1, min(max_size, len(empty) - 1) + 1):
            for combo in combinations(empty, size):
                m = 0
                for c in combo:
                    m |= masks[c]
                if m.bit_count() != size + 1 or combo in seen:
                    continue
                seen.add(combo)
                out.append(Als(u, combo, m, masks, pm))
    return out


def _holds(shape: Shape, a: Als) -> str:
    verb = "holds" if len(a.cells) == 1 else "hold"
    return f"{cell_list(shape, a.cells)} {verb} only {digit_list(shape, bits(a.digits))}"


#: The last state the Python search of ALS-XZ found nothing on (see :func:`_als_xz_search`).
_SINCE = Since()

#: A hit: (unit A, size A, A's 4 cells, unit B, size B, B's 4 cells, x, z); cells past a set's
#: size are 0. The C core's search (csrc/sk_human.c, sk_als_xz) gives the same hits in order.
Hit = tuple[int, ...]


def als_xz(cg: CandidateGrid) -> Iterator[Step]:
    """ALS-XZ eliminations (not in SE; rated 5.5), smaller sets first."""
    table = _human.core(cg)
    if table is not None and cg.shape.ncells <= _human.ALS_MAX_CELLS:
        return map(partial(_als_xz_step, cg), _human.lazy_hits(table, _human.ALS_XZ, 0, cg.masks))
    return incremental(_SINCE, _als_xz_search, cg)


def _als_xz_search(cg: CandidateGrid, delta: Delta | None) -> Iterator[Step]:
    """The steps of :func:`_als_xz_hits`, with *delta* (what changed since a state where it
    found nothing) when no cell gained a candidate since, else everything is searched."""
    changed = delta.cells if delta is not None and only_removed(cg, delta) else None
    return map(partial(_als_xz_step, cg), _als_xz_hits(cg, changed))


def _als_xz_hits(cg: CandidateGrid, changed: int | None = None) -> Iterator[Hit]:
    """The hits of every ALS-XZ that removes something; with *changed* (a cell bit set), only
    the pairs of sets holding a changed cell.

    That is exact when *changed* are the cells that lost candidates since a state where the
    search found nothing (and no cell gained one): a pair of two sets without a changed cell
    is a pair of the same sets there, its restricted commons are the same, and the cells that
    could lose a ``z`` are fewer, so it still removes nothing."""
    masks = cg.masks
    has: dict[int, int] = {}
    for c, m in enumerate(masks):
        while m:
            low = m & -m
            m ^= low
            d = low.bit_length()
            has[d] = has.get(d, 0) | (1 << c)
    sets = find_als(cg)
    sets.sort(key=lambda a: len(a.cells))
    fresh = [i for i, a in enumerate(sets) if changed is None or a.cellmask & changed]
    for i, a in enumerate(sets):
        if changed is None or a.cellmask & changed:
            partners = sets[i + 1 :]
        else:  # an unchanged set: only the changed sets after it
            partners = [sets[j] for j in fresh[bisect_right(fresh, i) :]]
        for b in partners:
            if a.cellmask & b.cellmask:
                continue
            common = a.digits & b.digits
            if common.bit_count() < 2:
                continue
            both = a.cellmask | b.cellmask
            for x in bits(common):
                # restricted common: every x of b sees every x of a
                if b.where[x] & ~a.seen[x]:
                    continue
                for z in bits(common & ~(1 << (x - 1))):
                    if has.get(z, 0) & ~both & a.seen[z] & b.seen[z]:
                        yield (*_fields(a), *_fields(b), x, z)


def _fields(a: Als) -> tuple[int, ...]:
    """(unit, size, 4 cells padded with 0) of *a*, as a hit holds it."""
    return (a.unit, len(a.cells), *a.cells, *(0,) * (MAX_SIZE - len(a.cells)))


def _als_xz_step(cg: CandidateGrid, hit: Hit) -> Step:
    """The step of one hit (its sets rebuilt from their cells)."""
    shape = cg.shape
    masks = cg.masks
    pm = peer_bits(shape)
    x, z = hit[12], hit[13]
    a, b = (
        Als(u, tuple(cells[:size]), _union(masks, cells[:size]), masks, pm)
        for u, size, *cells in (hit[:6], hit[6:12])
    )
    target = a.seen[z] & b.seen[z] & ~(a.cellmask | b.cellmask)
    elims = tuple((c, z) for c in members(target) if masks[c] >> (z - 1) & 1)
    xn, zn = digit_name(shape, x), digit_name(shape, z)
    text = (
        f"ALS-XZ: {_holds(shape, a)} and {_holds(shape, b)}: each set has one "
        f"digit more than cells. "
        f"Every {xn} of one sees every {xn} of the other, so {xn} is in at most "
        f"one of them and the other holds all its other digits; so {zn} is in one "
        f"of the two sets, and {elim_text(shape, elims)}."
    )
    return Step(
        "ALS-XZ",
        5.5,
        eliminations=elims,
        text=text,
        cells=(*a.cells, *b.cells),
        units=(a.unit, b.unit),
        highlights=tuple(
            (c, d) for c in (*a.cells, *b.cells) for d in (x, z) if masks[c] >> (d - 1) & 1
        ),
        size=shape.n,
    )


def _union(masks: list[int], cells: Iterable[int]) -> int:
    out = 0
    for c in cells:
        out |= masks[c]
    return out
