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

A rule read cell by cell -- a sum, a sandwich, an x-sum or a skyscraper clue -- is walked
along its cells instead (:func:`walked`): each cell's digit moves a small state (the sum so
far, the tallest digit seen, ...) and the digits of the earlier cells that later cells must
differ from; the states reached are merged, and a candidate is kept exactly when a state
before it is reached from the start and the state after it reaches an accepting end. No
filling is listed, so a whole row's clue costs a few hundred states, not thousands of
fillings; past ``states`` states it gives up (None) and the listing answers.

Both take a *pool* (:class:`Pools` keeps one per rule): fillings found before for the same
rule, whatever the candidates were then. A filling of the pool that the candidates still
allow proves its candidates used at once; when the pool covers every candidate, nothing can
be removed and no listing or walk runs. New fillings found along the way join the pool. The
answer is the same with or without a pool (every candidate used: nothing removed, whichever
way it is shown); only the time changes, which matters on a path that reads the same rule
after each step, its candidates a little narrower each time.

``viable(digits, k)``, when given, is a necessary condition on the first ``k`` digits (the
others 0): a prefix it refuses extends to no filling that keeps the rule, so the listing
skips it. It only saves time; ``holds`` alone decides.

>>> f = fillings([0b111, 0b111], ((), (0,)), lambda d: d[0] + d[1] == 4)
>>> [bin(m) for m in f.support], f.found
(['0b101', '0b101'], ((1, 3), (3, 1)))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import lru_cache
from typing import Any, NamedTuple, cast

__all__ = [
    "COVER",
    "LISTED",
    "NODES",
    "POOL",
    "STATES",
    "TOTAL",
    "Fillings",
    "Pools",
    "Reading",
    "fillings",
    "walked",
]

#: Digits one listing (and one try of a candidate) may place.
NODES = 4000
#: Digits all the tries of one call may place.
TOTAL = 40000

#: States one walk along a rule's cells (:func:`walked`) may reach before it gives up.
STATES = 20000
#: Fillings a walk lists (for a step's words) when it removes something and there are no more.
LISTED = 1000

#: Fillings one rule's pool keeps (the newest), and rules :class:`Pools` keeps pools for.
POOL = 24
_RULES = 4096

Holds = Callable[[Sequence[int]], bool]
Pool = list[tuple[int, ...]]


class Pools:
    """The pools of fillings of the rules read lately, by a key naming the rule (its kind,
    clue and which of its cells see each other: what decides whether digits are a filling),
    the least recently read dropped past :data:`_RULES` rules.

    >>> pools = Pools()
    >>> pools.get("k").append((1, 2))
    >>> pools.get("k")
    [(1, 2)]
    """

    __slots__ = ("_by",)

    def __init__(self) -> None:
        self._by: dict[Hashable, Pool] = {}

    def get(self, key: Hashable) -> Pool:
        """The pool of *key* (new and empty the first time), kept to its :data:`POOL` newest."""
        pool = self._by.pop(key, None)
        if pool is None:
            pool = []
            if len(self._by) >= _RULES:
                del self._by[next(iter(self._by))]
        elif len(pool) > POOL:
            del pool[:-POOL]
        self._by[key] = pool
        return pool


def _seeded(masks: Sequence[int], pool: Pool | None) -> list[int]:
    """Per cell, the candidates of *masks* that the fillings of *pool* still allowed use."""
    support = [0] * len(masks)
    for digits in pool or ():
        if all(m >> (d - 1) & 1 for m, d in zip(masks, digits, strict=True)):
            for j, d in enumerate(digits):
                support[j] |= 1 << (d - 1)
    return support


Viable = Callable[[Sequence[int], int], bool]


class Fillings(NamedTuple):
    """What :func:`fillings` found: ``support`` (per cell, the candidates some filling uses;
    all of them when the listing stopped because nothing can be removed), ``found`` (every
    filling, when ``listed``; else empty) and ``listed``; ``counted``, how many fillings there
    are when a walk counted them (0: not counted)."""

    support: tuple[int, ...]
    found: tuple[tuple[int, ...], ...]
    listed: bool
    counted: int = 0


class _OutOfNodes(Exception):
    """The listing placed more digits than it may."""


class _Walk:
    """One depth-first listing over fixed candidates (a class: the state of the recursion)."""

    __slots__ = ("apart", "digits", "found", "holds", "left", "masks", "new", "nodes",
                 "support", "viable")  # fmt: skip

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
        self.new: Pool = []  # the fillings that used a candidate no filling before used

    def run(self, i: int, first: bool) -> bool:
        """List the fillings from cell *i* on; True to stop (the first one when *first*, or
        every candidate used)."""
        digits = self.digits
        if i == len(digits):
            if not self.holds(digits):
                return False
            self.found.append(tuple(digits))
            support = self.support
            left = self.left
            for j, d in enumerate(digits):
                bit = 1 << (d - 1)
                if not support[j] & bit:
                    support[j] |= bit
                    self.left -= 1
            if self.left < left:
                self.new.append(self.found[-1])
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
    pool: Pool | None = None,
) -> Fillings:
    """The fillings of cells with candidate *masks* (a placed cell: its digit's bit) that keep
    *holds*, cell ``i`` holding a digit different from those of the earlier cells
    ``apart[i]``; see the module docstring for the bounds *nodes* and *total* and the
    *pool* (read, and the fillings found that used a new candidate added)."""
    if pool and _seeded(masks, pool) == list(masks):
        return Fillings(tuple(masks), (), False)
    walk = _Walk(masks, apart, holds, viable, nodes)
    try:
        stopped = walk.run(0, False)
    except _OutOfNodes:
        pass
    else:
        if pool is not None:
            pool.extend(walk.new)
        if stopped:  # every candidate is used: nothing to remove
            return Fillings(tuple(masks), (), False)
        return Fillings(tuple(walk.support), tuple(walk.found), True)
    support = walk.support
    if pool is not None:
        pool.extend(walk.new)
    budget = total
    for i, low in _unsupported(masks, support):
        fixed = list(masks)
        fixed[i] = low
        one = _Walk(fixed, apart, holds, viable, min(nodes, budget))
        try:
            if one.run(0, True):
                if pool is not None:
                    pool.append(one.found[0])
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


def _unsupported(masks: Sequence[int], support: list[int]) -> Iterator[tuple[int, int]]:
    """Each candidate ``(cell, bit)`` of *masks* that no filling found so far uses, cell by
    cell; *support* may grow between two (a filling tried for one candidate uses others)."""
    for i, m in enumerate(masks):
        rest = m & ~support[i]
        while rest:
            low = rest & -rest
            rest ^= low
            if not support[i] & low:
                yield i, low


Step = Callable[[Hashable, int, int], Hashable | None]
#: A rule read cell by cell (:func:`walked`): ``(start, step, accept)``.
Reading = tuple[Hashable, Step, Callable[[Hashable], bool]]
# a rule's state and the digits used: of each class (a tuple), or one set (an int, a house)
_Key = tuple[Hashable, Any]


def _classes(apart: Sequence[Sequence[int]]) -> list[list[frozenset[int]]]:
    """For each boundary ``i`` (before cell ``i``; ``len(apart) + 1`` of them), the classes
    of the earlier cells that some later cell must differ from: each class is the set of later
    cells they must differ from, and cells of one class matter only by their digits together."""
    size = len(apart)
    later: list[set[int]] = [set() for _ in range(size)]
    for k, js in enumerate(apart):
        for j in js:
            later[j].add(k)
    out = []
    for i in range(size + 1):
        sigs = {frozenset(k for k in later[j] if k >= i) for j in range(i)}
        out.append(sorted((s for s in sigs if s), key=sorted))
    return out


#: Digits one try of :func:`_covered` may place (a try that runs out: the walk decides).
COVER = 200


def _covered(
    masks: Sequence[int], apart: Sequence[Sequence[int]], reading: Reading, pool: Pool | None
) -> bool:
    """True when every candidate is shown to be used by some filling (of *pool*, then one
    quick depth-first try per candidate no filling found so far uses, :data:`COVER` digits
    each, the fillings found added to *pool*): then nothing can be removed, and the walk
    (some thousand states on a whole row) is not needed. A try that fails or runs out says
    nothing: False."""
    start, step, accept = reading
    size = len(masks)
    support = _seeded(masks, pool)
    later = [[k for k in range(i + 1, size) if i in apart[k]] for i in range(size)]
    digits = [0] * size
    left = list(masks)  # per cell, the candidates the digits placed before leave it
    nodes = 0

    def down(i: int, state: Hashable) -> bool:
        nonlocal nodes
        if i == size:
            return accept(state)
        m = left[i]
        while m:
            nodes -= 1
            if nodes < 0:
                return False
            low = m & -m
            m ^= low
            hit = [k for k in later[i] if left[k] & low]
            if any(left[k] == low for k in hit):
                continue  # a later cell would be left no candidate
            after = step(state, i, low.bit_length())
            if after is None:
                continue
            digits[i] = low.bit_length()
            for k in hit:
                left[k] ^= low
            done = down(i + 1, after)
            for k in hit:
                left[k] |= low
            if done:
                return True
        return False

    for i, low in _unsupported(masks, support):
        nodes = COVER
        left[i] = low
        found = down(0, start)
        left[i] = masks[i]
        if not found:
            return False
        if pool is not None:
            pool.append(tuple(digits))
        for j, d in enumerate(digits):
            support[j] |= 1 << (d - 1)
    return True


def walked(
    masks: Sequence[int],
    apart: Sequence[Sequence[int]],
    reading: Reading,
    *,
    states: int = STATES,
    pool: Pool | None = None,
) -> Fillings | None:
    """The fillings of cells with candidate *masks* (cell ``i`` differing from the earlier
    cells ``apart[i]``) that a rule read cell by cell keeps: *reading* is ``(start, step,
    accept)``; from the state *start*,
    ``step(state, i, digit)`` is the state after cell ``i`` holds *digit* (None: no filling
    goes on from there) and ``accept(state)`` says whether the state after the last cell keeps
    the rule. None when more than *states* states are reached.

    The fillings are listed (``listed``) when some candidate is removed and there are at most
    :data:`LISTED` of them, as :func:`fillings` lists them. With a *pool*, one filling
    through each candidate kept is added to it.

    >>> f = walked([0b111, 0b111], ((), (0,)), (0, lambda s, i, d: s + d, lambda s: s == 4))
    >>> [bin(m) for m in f.support], f.found
    (['0b101', '0b101'], ((1, 3), (3, 1)))
    """
    size = len(masks)
    start, step, accept = reading
    if _covered(masks, apart, reading, pool):
        return Fillings(tuple(masks), (), False)
    if all(len(js) == i for i, js in enumerate(apart)):  # every cell sees the others
        forward = _forward(_house_expand(masks, step), size, (start, 0), states)
    else:
        first = (start, (0,) * len(_classes(apart)[0]))
        forward = _forward(_classes_expand(masks, apart, step), size, first, states)
    if forward is None:
        return None
    layers, parents, frontier = forward
    count: dict[_Key, int] = {key: 1 for key in frontier if accept(key[0])}
    counts = [count]  # per boundary, from the last: the fillings on from each state
    support = [0] * size
    for i in range(size - 1, -1, -1):
        here: dict[_Key, int] = {}
        for key, out in layers[i].items():
            ways = 0
            for d, child in out:
                c = count.get(child, 0)
                if c:
                    ways += c
                    support[i] |= 1 << (d - 1)
            if ways:
                here[key] = ways
        count = here
        counts.append(count)
    total = sum(count.values())
    counts.reverse()
    if pool is not None:
        pool.extend(_traced(layers, parents, counts))
    if tuple(support) == tuple(masks) or not total or total > LISTED:
        return Fillings(tuple(support), (), False, total)
    found: list[tuple[int, ...]] = []
    digits: list[int] = []

    def down(i: int, key: _Key) -> None:
        if i == size:
            found.append(tuple(digits))
            return
        for d, child in layers[i][key]:
            if child in counts[i + 1]:
                digits.append(d)
                down(i + 1, child)
                digits.pop()

    for key in counts[0]:
        down(0, key)
    return Fillings(tuple(support), tuple(found), True, total)


_Layers = list[dict[_Key, list[tuple[int, _Key]]]]
_Parents = list[dict[_Key, _Key | None]]
_Forward = tuple[_Layers, _Parents, dict[_Key, _Key | None]]
_Layer = dict[_Key, list[tuple[int, _Key]]]
#: One cell of a walk: ``expand(i, frontier)`` is cell *i*'s layer (each state before it:
#: its digits and the states after) and the states after it, each from one state before.
_Expand = Callable[[int, dict[_Key, _Key | None]], tuple[_Layer, dict[_Key, _Key | None]]]


def _forward(expand: _Expand, size: int, first: _Key, states: int) -> _Forward | None:
    """The forward half of :func:`walked` from the state *first*: per cell, its layer; per
    boundary, each state reached, from one state before it; the last states. None past
    *states* states."""
    layers: _Layers = []
    frontier: dict[_Key, _Key | None] = {first: None}
    parents = [frontier]
    reached = 1
    for i in range(size):
        layer, frontier = expand(i, frontier)
        layers.append(layer)
        parents.append(frontier)
        reached += len(frontier)
        if reached > states:
            return None
    return layers, parents, frontier


def _classes_expand(masks: Sequence[int], apart: Sequence[Sequence[int]], step: Step) -> _Expand:
    """The cells of a walk whose state keeps the digits of each class of earlier cells
    (:func:`_classes`)."""
    size = len(masks)
    classes = _classes(apart)
    moves: list[
        tuple[tuple[int, ...], tuple[int, ...], int, int]
    ] = []  # per cell: (old classes it must differ from, old class -> new, own new class)
    for i in range(size):
        old, new = classes[i], classes[i + 1]
        at = {sig: k for k, sig in enumerate(new)}
        moved = tuple(at.get(sig - {i}, -1) for sig in old)
        seen = tuple(k for k, sig in enumerate(old) if i in sig)
        mine = at.get(frozenset(k for k in range(i + 1, size) if i in apart[k]), -1)
        moves.append((seen, moved, mine, len(new)))

    def expand(i: int, frontier: dict[_Key, _Key | None]) -> tuple[_Layer, dict[_Key, _Key | None]]:
        seen, moved, mine, width = moves[i]
        layer: _Layer = {}
        nxt: dict[_Key, _Key | None] = {}
        for key in frontier:
            state, used = key
            m = masks[i]
            for k in seen:
                m &= ~used[k]
            carried = [0] * width
            for k, to in enumerate(moved):
                if to >= 0:
                    carried[to] |= used[k]
            kept = tuple(carried)
            out = []
            while m:
                low = m & -m
                m ^= low
                d = low.bit_length()
                after = step(state, i, d)
                if after is None:
                    continue
                if mine >= 0:
                    carried[mine] = kept[mine] | low
                    child = (after, tuple(carried))
                else:
                    child = (after, kept)
                out.append((d, child))
                nxt[child] = key
            layer[key] = out
        return layer, nxt

    return expand


@lru_cache(maxsize=1 << 12)
def _bit_digits(mask: int) -> tuple[tuple[int, int], ...]:
    """Each candidate of *mask* as ``(bit, digit)``, lowest first."""
    return tuple((1 << d, d + 1) for d in range(mask.bit_length()) if mask >> d & 1)


def _house_expand(masks: Sequence[int], step: Step) -> _Expand:
    """:func:`_classes_expand` when every cell sees every other (a row or a column): the
    digits of the cells before are one set, a state ``(rule's state, digits used)`` (0 after
    the last cell, which :func:`_classes` forgets there: the same states, so the same bound)."""
    last = len(masks) - 1

    def expand(i: int, frontier: dict[_Key, _Key | None]) -> tuple[_Layer, dict[_Key, _Key | None]]:
        mask = masks[i]
        layer: _Layer = {}
        nxt: dict[_Key, _Key | None] = {}
        for key in frontier:
            state, used = key
            out = []
            for low, d in _bit_digits(mask & ~used):
                after = step(state, i, d)
                if after is not None:
                    child = (after, used | low if i < last else 0)
                    out.append((d, child))
                    nxt[child] = key
            layer[key] = out
        return layer, nxt

    return expand


def _traced(
    layers: Sequence[dict[_Key, list[tuple[int, _Key]]]],
    parents: Sequence[dict[_Key, _Key | None]],
    counts: Sequence[dict[_Key, int]],
) -> Pool:
    """Fillings of a finished walk, one through each candidate some filling uses (fewer when
    one filling goes through several): back to the start along *parents* from the state
    before the candidate, on to an accepting end along states that reach one (*counts*)."""
    size = len(layers)
    used = [0] * size
    out: Pool = []
    for i in range(size):
        ahead = counts[i + 1]
        for key in counts[i]:
            for d, child in layers[i][key]:
                if used[i] >> (d - 1) & 1 or child not in ahead:
                    continue
                digits = [0] * size
                digits[i] = d
                at = key
                for b in range(i, 0, -1):  # back: the digit of cell b - 1 into *at*
                    before = cast(_Key, parents[b][at])
                    digits[b - 1] = next(e for e, c in layers[b - 1][before] if c == at)
                    at = before
                at = child
                for b in range(i + 1, size):  # on: any step that still reaches an end
                    digits[b], at = next(e for e in layers[b][at] if e[1] in counts[b + 1])
                for j, e in enumerate(digits):
                    used[j] |= 1 << (e - 1)
                out.append(tuple(digits))
    return out
