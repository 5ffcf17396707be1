"""Wings: XY-Wing, XYZ-Wing (SE 4.2 / 4.4) and W-Wing (not in SE; rated 4.4) (layer 2).

* XY-Wing: a *pivot* with candidates ``xy`` sees two *pincers* ``xz`` and ``yz``. Whatever the
  pivot is, one pincer is ``z``, so ``z`` goes from every cell that sees both pincers.
* XYZ-Wing: the pivot has ``xyz``; then one of the three is ``z``, so ``z`` goes from every cell
  that sees all three.
* W-Wing: two cells with the same two candidates ``xy`` that do not see each other, joined by a
  unit where ``x`` has only two places, one seen by each cell: one of the cells is ``y``, so
  ``y`` goes from every cell that sees both.

Work on every shape (they only use peers).

>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> masks = [0b111111111] * 81
>>> masks[0], masks[4], masks[36] = 0b011, 0b110, 0b101  # r1c1 {1,2}, r1c5 {2,3}, r5c1 {1,3}
>>> step = next(xy_wing(CandidateGrid.from_masks(Shape(3, 3), [0] * 81, masks)))
>>> step.eliminations
((40, 3),)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial

from . import _human
from ._names import cell_list, digit_list, digit_name, elim_text
from .candidates import CandidateGrid, bits
from .step import Step

__all__ = ["w_wing", "xy_wing", "xyz_wing"]


def _common_peers(cg: CandidateGrid, cells: tuple[int, ...]) -> set[int]:
    peers = cg.shape.peers
    common = set(peers[cells[0]])
    for c in cells[1:]:
        common.intersection_update(peers[c])
    return common


def _wing_elims(
    cg: CandidateGrid, pivot: int, a: int, b: int, z: int, xyz: bool
) -> tuple[tuple[int, int], ...]:
    """The *z* candidates seen by both pincers (and the pivot for an XYZ-Wing)."""
    masks = cg.masks
    zmask = 1 << (z - 1)
    targets = _common_peers(cg, (pivot, a, b) if xyz else (a, b)) - {pivot, a, b}
    return tuple((c, z) for c in sorted(targets) if masks[c] & zmask)


def _wing_hits(cg: CandidateGrid, xyz: bool) -> Iterator[tuple[int, int, int, int]]:
    """(pivot, a, b, z) of every XY-Wing (XYZ-Wing when *xyz*) that eliminates something."""
    masks = cg.masks
    peers = cg.shape.peers
    want = 3 if xyz else 2
    for pivot, pm in enumerate(masks):
        if pm.bit_count() != want:
            continue
        wings = [c for c in peers[pivot] if masks[c].bit_count() == 2 and masks[c] & pm]
        for i, a in enumerate(wings):
            am = masks[a]
            for b in wings[i + 1 :]:
                bm = masks[b]
                if xyz:
                    # pincers xz and yz: two different pairs inside xyz, sharing z
                    if am | bm != pm or am == bm:
                        continue
                    zmask = am & bm
                else:
                    ax, bx = am & pm, bm & pm
                    if ax.bit_count() != 1 or bx.bit_count() != 1 or ax == bx:
                        continue
                    zmask = am & ~pm
                    if zmask != bm & ~pm:
                        continue
                if zmask.bit_count() != 1:
                    continue
                z = zmask.bit_length()
                if _wing_elims(cg, pivot, a, b, z, xyz):
                    yield pivot, a, b, z


def _wing_step(cg: CandidateGrid, xyz: bool, hit: tuple[int, int, int, int]) -> Step:
    shape = cg.shape
    masks = cg.masks
    pivot, a, b, z = hit
    pm = masks[pivot]
    elims = _wing_elims(cg, pivot, a, b, z, xyz)
    pd = digit_list(shape, bits(pm))
    zn = digit_name(shape, z)
    if xyz:
        text = (
            f"XYZ-Wing: {shape.cell_name(pivot)} holds {pd} and sees "
            f"{shape.cell_name(a)} and {shape.cell_name(b)}; whichever digit the "
            f"pivot takes, one of the three cells is {zn}, so {zn} is removed from the "
            f"cells that see all three: {elim_text(shape, elims)}."
        )
    else:
        text = (
            f"XY-Wing: the pivot {shape.cell_name(pivot)} is "
            f"{digit_list(shape, bits(pm), 'or')}; either way one of the pincers "
            f"{shape.cell_name(a)} or "
            f"{shape.cell_name(b)} is {zn}, so {zn} is removed from the cells that see "
            f"both pincers: {elim_text(shape, elims)}."
        )
    name, rating = ("XYZ-Wing", 4.4) if xyz else ("XY-Wing", 4.2)
    return Step(
        name,
        rating,
        eliminations=elims,
        text=text,
        cells=(pivot, a, b),
        highlights=tuple((c, d) for c in (pivot, a, b) for d in bits(masks[c])),
        size=shape.n,
    )


def _wings(cg: CandidateGrid, xyz: bool) -> Iterator[Step]:
    table = _human.core(cg)
    if table is None:
        hits: Iterable[tuple[int, int, int, int]] = _wing_hits(cg, xyz)
    else:
        hits = table.find(_human.WINGS, xyz, cg.masks, ())
    return map(partial(_wing_step, cg, xyz), hits)


def xy_wing(cg: CandidateGrid) -> Iterator[Step]:
    """XY-Wings (SE 4.2)."""
    return _wings(cg, False)


def xyz_wing(cg: CandidateGrid) -> Iterator[Step]:
    """XYZ-Wings (SE 4.4)."""
    return _wings(cg, True)


def w_wing(cg: CandidateGrid) -> Iterator[Step]:
    """W-Wings (not in SE; rated 4.4)."""
    table = _human.core(cg)
    if table is None:
        hits: Iterable[tuple[int, ...]] = _w_wing_hits(cg)
    else:
        hits = _human.lazy_hits(table, _human.W_WINGS, 0, cg.masks)
    return map(partial(_w_wing_step, cg), hits)


def _w_wing_hits(cg: CandidateGrid) -> Iterator[tuple[int, ...]]:
    """The W-Wings that remove something: (a, b, x, y, unit, end, end): the pair cells *a* and
    *b* of digits x and y, the unit whose two places of x each see one of them (the first such
    unit). The C core's search (csrc/sk_human.c, sk_w_wings) gives the same hits in order."""
    shape = cg.shape
    masks = cg.masks
    peers = shape.peers
    pairs = [c for c, m in enumerate(masks) if m.bit_count() == 2]
    for i, a in enumerate(pairs):
        for b in pairs[i + 1 :]:
            if masks[a] != masks[b] or b in peers[a]:
                continue
            pa, pb = set(peers[a]), set(peers[b])
            for x in bits(masks[a]):
                y = (masks[a] & ~(1 << (x - 1))).bit_length()
                if not _w_wing_elims(cg, a, b, y):
                    continue
                for u in range(len(shape.units)):
                    ends = cg.cells_with(u, x)
                    if len(ends) != 2 or a in ends or b in ends:
                        continue
                    e1, e2 = ends
                    if (e1 in pa and e2 in pb) or (e1 in pb and e2 in pa):
                        yield (a, b, x, y, u, e1, e2)
                        break


def _w_wing_elims(cg: CandidateGrid, a: int, b: int, y: int) -> tuple[tuple[int, int], ...]:
    """The *y* of the cells that see both *a* and *b*."""
    peers = cg.shape.peers
    masks = cg.masks
    ybit = 1 << (y - 1)
    targets = set(peers[a]).intersection(peers[b])
    return tuple((c, y) for c in sorted(targets) if masks[c] & ybit)


def _w_wing_step(cg: CandidateGrid, hit: tuple[int, ...]) -> Step:
    """The step of one W-Wing hit."""
    shape = cg.shape
    a, b, x, y, u, e1, e2 = hit
    elims = _w_wing_elims(cg, a, b, y)
    xn, yn = digit_name(shape, x), digit_name(shape, y)
    text = (
        f"W-Wing: {shape.cell_name(a)} and {shape.cell_name(b)} both hold only "
        f"{digit_list(shape, (x, y))}. In {shape.unit_name(u)} the {xn} must go in "
        f"{cell_list(shape, (e1, e2), 'or')}, and each of these sees one of the two "
        f"cells, so they cannot both be {xn}: one of them is {yn}. So "
        f"{elim_text(shape, elims)}."
    )
    return Step(
        "W-Wing",
        4.4,
        eliminations=elims,
        text=text,
        cells=(a, b, e1, e2),
        units=(u,),
        highlights=((a, x), (a, y), (b, x), (b, y), (e1, x), (e2, x)),
        size=shape.n,
    )
