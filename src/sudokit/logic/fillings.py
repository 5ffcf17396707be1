"""The fillings of a few cells from their candidates that keep a rule (layer 2).

A rule over a few cells (a renban line, a quadruple, an arrow, a sandwich's row) removes a
candidate exactly when no *filling* of its cells uses it: one candidate a cell, cells that see
each other holding different digits, and the rule kept. :func:`fillings` lists them
depth first and says which candidates some filling uses (the *support*); every other
candidate is proven to be in no filling, so removing it is sound.

The listing is bounded, so that a step never costs more than a few milliseconds:

1. every filling is listed while there are at most ``nodes`` digits to try (then the
   fillings themselves are known, for the step's words); the listing also stops as soon as
   every candidate is used by some filling (nothing can be removed);
2. beyond that bound, each candidate that no filling found so far uses is tried on its own
   (its cell fixed to it, the first filling found is enough), ``nodes`` digits each and
   ``total`` in all; a candidate whose try runs out of digits is kept (not proven).

``viable(digits, k)``, when given, is a necessary condition on the first ``k`` digits (the
others 0): a prefix it refuses extends to no filling that keeps the rule, so the listing
skips it. It only saves time; ``holds`` alone decides.

>>> f = fillings([0b111, 0b111], ((), (0,)), lambda d: d[0] + d[1] == 4)
>>> [bin(m) for m in f.support], f.found
(['0b101', '0b101'], ((1, 3), (3, 1)))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

__all__ = ["NODES", "TOTAL", "Fillings", "fillings"]

#: Digits one listing (and one try of a candidate) may place.
NODES = 4000
#: Digits all the tries of one call may place.
TOTAL = 40000

Holds = Callable[[Sequence[int]], bool]
Viable = Callable[[Sequence[int], int], bool]


class Fillings(NamedTuple):
    """What :func:`fillings` found: ``support`` (per cell, the candidates some filling uses;
    all of them when the listing stopped because nothing can be removed), ``found`` (every
    filling, when ``listed``; else empty) and ``listed``."""

    support: tuple[int, ...]
    found: tuple[tuple[int, ...], ...]
    listed: bool


class _OutOfNodes(Exception):
    """The listing placed more digits than it may."""


class _Walk:
    """One depth-first listing over fixed candidates (a class: the state of the recursion)."""

    __slots__ = ("apart", "digits", "found", "holds", "left", "masks", "nodes", "support",
                 "viable")  # fmt: skip

    def __init__(
        self,
        masks: Sequence[int],
        apart: Sequence[Sequence[int]],
        holds: Holds,
        viable: Viable | None,
        nodes: int,
    ) -> None:
        self.masks = masks
        self.apart = apart
        self.holds = holds
        self.viable = viable
        self.nodes = nodes
        self.digits = [0] * len(masks)
        self.found: list[tuple[int, ...]] = []
        self.support = [0] * len(masks)
        self.left = sum(m.bit_count() for m in masks)  # candidates no filling uses yet

    def run(self, i: int, first: bool) -> bool:
        """List the fillings from cell *i* on; True to stop (the first one when *first*, or
        every candidate used)."""
        digits = self.digits
        if i == len(digits):
            if not self.holds(digits):
                return False
            self.found.append(tuple(digits))
            support = self.support
            for j, d in enumerate(digits):
                bit = 1 << (d - 1)
                if not support[j] & bit:
                    support[j] |= bit
                    self.left -= 1
            return first or not self.left
        m = self.masks[i]
        for j in self.apart[i]:
            m &= ~(1 << (digits[j] - 1))
        viable = self.viable
        while m:
            self.nodes -= 1
            if self.nodes < 0:
                raise _OutOfNodes
            low = m & -m
            m ^= low
            digits[i] = low.bit_length()
            if (viable is None or viable(digits, i + 1)) and self.run(i + 1, first):
                digits[i] = 0
                return True
        digits[i] = 0
        return False


def fillings(
    masks: Sequence[int],
    apart: Sequence[Sequence[int]],
    holds: Holds,
    viable: Viable | None = None,
    *,
    nodes: int = NODES,
    total: int = TOTAL,
) -> Fillings:
    """The fillings of cells with candidate *masks* (a placed cell: its digit's bit) that keep
    *holds*, cell ``i`` holding a digit different from those of the earlier cells
    ``apart[i]``; see the module docstring for the bounds *nodes* and *total*."""
    walk = _Walk(masks, apart, holds, viable, nodes)
    try:
        stopped = walk.run(0, False)
    except _OutOfNodes:
        pass
    else:
        if stopped:  # every candidate is used: nothing to remove
            return Fillings(tuple(masks), (), False)
        return Fillings(tuple(walk.support), tuple(walk.found), True)
    support = walk.support
    budget = total
    for i, m in enumerate(masks):
        rest = m & ~support[i]
        while rest:
            low = rest & -rest
            rest ^= low
            if support[i] & low:
                continue  # a filling tried for another candidate uses it
            fixed = list(masks)
            fixed[i] = low
            one = _Walk(fixed, apart, holds, viable, min(nodes, budget))
            try:
                if one.run(0, True):
                    for j, d in enumerate(one.found[0]):
                        support[j] |= 1 << (d - 1)
            except _OutOfNodes:
                support[i] |= low  # not proven: kept
            budget -= min(nodes, budget) - max(one.nodes, 0)
            if budget <= 0:  # out of digits: the candidates not tried yet are kept
                kept = [
                    s if k < i else mk for k, (s, mk) in enumerate(zip(support, masks, strict=True))
                ]
                return Fillings(tuple(kept), (), False)
    return Fillings(tuple(support), (), False)
