"""Random jigsaw region maps (connected regions, optionally symmetric) for generation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ..shape import Shape, is_connected
from .search import _Counter
from .symmetry import _maps, check_symmetry

__all__ = ["random_jigsaw"]


@lru_cache(maxsize=32)
def _neighbours(n: int, king: bool = False) -> tuple[tuple[int, ...], ...]:
    """For every cell of an ``n x n`` grid, its side-by-side neighbours (with *king*, the
    diagonal ones too)."""
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if king:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    out = []
    for i in range(n * n):
        r, c = divmod(i, n)
        out.append(
            tuple((r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n)
        )
    return tuple(out)


def _invariant(regions: Sequence[int], perm: Sequence[int]) -> bool:
    """True when *perm* maps every region of *regions* onto one region."""
    image: dict[int, int] = {}
    return all(
        image.setdefault(x, regions[perm[i]]) == regions[perm[i]] for i, x in enumerate(regions)
    )


def random_jigsaw(
    n: int,
    rng: random.Random,
    *,
    symmetry: str = "none",
    diagonals: bool = False,
    swaps: int | None = None,
) -> Shape:
    """A random jigsaw shape of size *n*: *n* connected regions of *n* cells each.

    Starts from the boxes of ``Shape.from_size(n)`` and trades cells between side-by-side
    regions (with their images under *symmetry*, so the region map keeps that symmetry),
    keeping every region connected. Whether the map admits a solution is checked
    by the generator, not here.

    >>> s = random_jigsaw(6, random.Random(3), symmetry="rot180")
    >>> from .symmetry import applicable_symmetries
    >>> s.variant, s.n, "rot180" in applicable_symmetries(s), s.regions != Shape(2, 3).box_of
    ('jigsaw', 6, True, True)
    """
    base = Shape.from_size(n, diagonals=diagonals)
    perms = _maps(n, check_symmetry(base, symmetry))
    neighbours = _neighbours(n)
    regions = list(base.box_of)
    # Symmetric moves are rejected more often (their images collide), so they get more tries.
    for _ in range(4 * n * n * (1 + len(perms)) if swaps is None else swaps):
        # Move a cell a from its region A into a side-by-side region B, and a cell c of B that
        # touches A (and is not a) into A: sizes stay n; connectivity is checked below.
        a = rng.randrange(n * n)
        nb = neighbours[a]
        b = nb[rng.randrange(len(nb))]
        ra, rb = regions[a], regions[b]
        if ra == rb:
            continue
        touching = [
            c
            for c in range(n * n)
            if regions[c] == rb and any(regions[x] == ra and x != a for x in neighbours[c])
        ]
        if not touching:
            continue
        c = touching[rng.randrange(len(touching))]
        # Each map sends region X to the region of the image of any of its cells.
        changes = {a: rb, c: ra}
        ok = True
        for p in perms:
            for cell, label in ((a, rb), (c, ra)):
                image_label = regions[p[regions.index(label)]]
                if changes.setdefault(p[cell], image_label) != image_label:
                    ok = False
        if not ok:
            continue
        trial = regions.copy()
        for cell, label in changes.items():
            trial[cell] = label
        labels = set(changes.values()) | {regions[x] for x in changes}
        if any(trial.count(x) != n for x in labels):
            continue
        if not all(is_connected([i for i, y in enumerate(trial) if y == x], n) for x in labels):
            continue
        if not all(_invariant(trial, p) for p in perms):
            continue
        regions = trial
    return Shape(base.box_rows, base.box_cols, diagonals=diagonals, regions=regions)


def _solvable_map(shape: Shape, counter: _Counter) -> bool:
    """True when the empty grid of *shape* (a jigsaw map) is found to have solutions quickly;
    maps that are not (no solution, or a search that explodes) are not worth a puzzle."""
    return _empty_count(shape, counter) >= 1


def _empty_count(shape: Shape, counter: _Counter) -> int:
    """Solutions of the empty grid of *shape* up to 2, with a small guess bound (-1 when the
    bound ran out)."""
    saved = counter.guess_budget
    counter.guess_budget = 50 * shape.ncells  # a good map yields two solutions at once
    try:
        count, _ = counter.count(bytes(shape.ncells))
    finally:
        counter.guess_budget = saved
    return count
