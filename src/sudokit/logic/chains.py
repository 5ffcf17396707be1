"""Bidirectional cycles and forcing X/Y-chains as Sudoku Explainer 1.2.1 rates them (layer 2).

A *potential* is a candidate that is assumed true ("on") or false ("off"). Implications between
potentials are the two link kinds of SE's chaining:

* **on -> off** (weak links): a digit placed in a cell removes it from the cell's peers (X) and
  removes the cell's other digits (Y);
* **off -> on** (strong links): a digit removed from a unit where it had two places puts it in
  the other place (X, a conjugate pair); a digit removed from a bivalue cell leaves the other
  digit (Y).

SE's "Forcing Chains & Cycles" rule searches, from every candidate, breadth first, three times:
with X links only (single digit), with Y links only (only from bivalue cells, cycles only) and
with both. It reports

* **bidirectional cycles**: the search comes back to its start after >= 4 links; every candidate
  that sees an "on" node and an "off" node of its digit in the loop is removed (6.5 for X- or
  Y-cycles, 7.0 with both link kinds);
* **forcing chains**: assuming a candidate on proves it off (it is removed) or assuming it off
  proves it on (it is placed) -- 6.6 for X-chains, 7.0 with both link kinds.

Each value gets SE's length bonus on ``complexity - 2`` (the number of distinct potentials of the
chain, see :func:`sudokit.logic.step.chain_length_bonus`). Among all hints SE takes the lowest
rating, then the lowest complexity, then X before Y before XY, then discovery order; this module
reproduces that order, so :func:`forcing_chains_and_cycles` yields SE's choice first.

The search is exact but bounded: each mode looks only as deep as a chain that could still beat
the best hint found so far (reachability and breadth-first bounds skip starts that cannot).

Also here, for hints (not SE techniques, so not used for the SE rating): :func:`x_chains`,
:func:`xy_chains` and :func:`alternating_inference_chains` (AIC), the named patterns people
learn, with SE-comparable values just below the forcing chains they are equivalent to.

>>> from sudokit.shape import Shape
>>> marks = {0: 0b11, 4: 0b101, 8: 0b1001, 36: 0b10001, 40: 0b100001, 43: 0b1000001}
>>> cg = CandidateGrid.from_masks(Shape(3, 3), [0 if i in marks else 9 for i in range(81)],
...                               [marks.get(i, 0) for i in range(81)])
>>> step = next(iter(forcing_chains_and_cycles(cg)))
>>> step.technique, step.rating, step.eliminations   # 1 leaves r1c9 and r5c8
('Bidirectional X-Cycle', 6.5, ((8, 1), (43, 1)))
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from ..errors import BudgetExceededError
from ..shape import Shape
from ._names import digit_name, elim_text
from .candidates import CandidateGrid
from .candidates import peer_bits as _peer_bits
from .step import Step, chain_length_bonus

__all__ = [
    "Geometry",
    "alternating_inference_chains",
    "chain_budget",
    "check_budget",
    "earlier_rule_found",
    "forcing_chains_and_cycles",
    "geometry",
    "hint_path",
    "note_rule_found",
    "potential_name",
    "se_rating",
    "unary_all",
    "x_chains",
    "xy_chains",
]

# ---------------------------------------------------------------------------------------------
# Potentials, geometry, budget
#
# A candidate is ``c = cell * n + (digit - 1)``; a potential is ``p = 2 * c + on`` (on = 1 when
# the candidate is assumed true). ``p ^ 1`` is its conjugate. Sets of potentials are Python ints
# used as bit sets (bit p).


@dataclass(frozen=True, slots=True)
class Geometry:
    """Per-shape tables in SE's order: for each cell its units box first, then row, column,
    diagonals (SE walks regions as Block, Row, Column)."""

    shape: Shape
    n: int
    ncells: int
    units: tuple[tuple[int, ...], ...]
    unit_order: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=32)
def geometry(shape: Shape) -> Geometry:
    """The cached :class:`Geometry` of *shape*.

    >>> g = geometry(Shape(3, 3))
    >>> [g.units[u][0] for u in g.unit_order[40]]   # box 5, row 5, column 5 of r5c5
    [30, 36, 4]
    """
    n = shape.n
    order = []
    for cell in range(shape.ncells):
        us = shape.cell_units[cell]
        boxes = [u for u in us if 2 * n <= u < 3 * n]
        lines = [u for u in us if u < 2 * n]
        extra = [u for u in us if u >= 3 * n]
        order.append(tuple(boxes + lines + extra))
    return Geometry(shape, n, shape.ncells, shape.units, tuple(order), shape.peers)


_DEADLINE: ContextVar[float] = ContextVar("sudokit_chain_deadline", default=0.0)


@contextmanager
def chain_budget(seconds: float) -> Iterator[None]:
    """Bound the time chain searches may take inside the ``with`` block.

    When the budget runs out, the chain finders raise
    :class:`~sudokit.errors.BudgetExceededError`; a caller rating a puzzle then reports the
    rating reached so far as a lower bound. ``seconds <= 0`` means no bound.

    >>> with chain_budget(0.0):
    ...     check_budget()
    """
    token = _DEADLINE.set(time.monotonic() + seconds if seconds > 0 else 0.0)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_budget() -> None:
    """Raise :class:`~sudokit.errors.BudgetExceededError` when the :func:`chain_budget` is spent."""
    deadline = _DEADLINE.get()
    if deadline and time.monotonic() > deadline:
        raise BudgetExceededError("chain search budget exceeded")


def se_rating(base: float, complexity: int) -> float:
    """SE's difficulty of a chaining hint: *base* plus the length bonus on ``complexity - 2``.

    >>> se_rating(6.6, 6), se_rating(7.0, 7), se_rating(8.5, 40)
    (6.6, 7.1, 9.2)
    """
    return round(base + chain_length_bonus(complexity - 2), 1)


def potential_name(n: int, p: int) -> str:
    """``r1c2=5`` for an "on" potential, ``r1c2<>5`` for an "off" one (1-based).

    >>> potential_name(9, 2 * (10 * 9 + 4) + 1), potential_name(9, 2 * 4)
    ('r2c2=5', 'r1c1<>5')
    """
    c = p >> 1
    cell, d = divmod(c, n)
    r, col = divmod(cell, n)
    return f"r{r + 1}c{col + 1}{'=' if p & 1 else '<>'}{digit_name(n, d + 1)}"


# ---------------------------------------------------------------------------------------------
# Static links of one grid state


class _Links:
    """The on->off and off->on links of a fixed candidate state, per candidate, in SE's order."""

    __slots__ = ("off_on_x", "off_on_y", "on_off_x", "on_off_y")

    def __init__(self, geo: Geometry, masks: Sequence[int]) -> None:
        n = geo.n
        units = geo.units
        size = geo.ncells * n
        on_off_x: list[tuple[int, ...]] = [()] * size
        on_off_y: list[tuple[int, ...]] = [()] * size
        off_on_x: list[tuple[int, ...]] = [()] * size
        off_on_y: list[tuple[int, ...]] = [()] * size
        # positions of each digit in each unit
        pos: list[list[list[int]]] = []
        for unit_cells in units:
            row: list[list[int]] = [[] for _ in range(n)]
            for cell in unit_cells:
                m = masks[cell]
                while m:
                    low = m & -m
                    row[low.bit_length() - 1].append(cell)
                    m ^= low
            pos.append(row)
        for cell in range(geo.ncells):
            m = masks[cell]
            if not m:
                continue
            digits = [d for d in range(n) if m >> d & 1]
            bivalue = len(digits) == 2
            for d in digits:
                c = cell * n + d
                on_off_y[c] = tuple(2 * (cell * n + e) for e in digits if e != d)
                if bivalue:
                    e = digits[0] if digits[1] == d else digits[1]
                    off_on_y[c] = (2 * (cell * n + e) + 1,)
                seen: list[int] = []
                strong: list[int] = []
                for u in geo.unit_order[cell]:
                    cells = pos[u][d]
                    for other in cells:
                        if other != cell:
                            q = 2 * (other * n + d)
                            if q not in seen:
                                seen.append(q)
                    if len(cells) == 2:
                        other = cells[0] if cells[1] == cell else cells[1]
                        r = 2 * (other * n + d) + 1
                        if r not in strong:
                            strong.append(r)
                on_off_x[c] = tuple(seen)
                off_on_x[c] = tuple(strong)
        self.on_off_x = on_off_x
        self.on_off_y = on_off_y
        self.off_on_x = off_on_x
        self.off_on_y = off_on_y

    def tables(self, y: bool, x: bool) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """(on_off, off_on) per candidate for the enabled link kinds (on->off always has X)."""
        if y and x:
            on_off = [a + b for a, b in zip(self.on_off_y, self.on_off_x, strict=True)]
            off_on = [a + b for a, b in zip(self.off_on_y, self.off_on_x, strict=True)]
        elif y:
            on_off = [a + b for a, b in zip(self.on_off_y, self.on_off_x, strict=True)]
            off_on = self.off_on_y
        else:
            on_off = self.on_off_x
            off_on = self.off_on_x
        return on_off, off_on


# A search node: (potential, parent node or None, ancestor bit set including itself).
_Node = tuple[int, "_Node | None", int]


def _cycles(
    src: int, on_off: list[tuple[int, ...]], off_on: list[tuple[int, ...]], cap: int
) -> list[_Node]:
    """SE's cycle search from the "on" potential *src*: the "off" nodes that lead back to *src*
    after >= 4 links, in discovery order, for cycles of at most *cap* potentials."""
    root: _Node = (src, None, 1 << src)
    pending_on: list[_Node] = [root]
    visited_on = {src}
    found: list[_Node] = []
    depth = 1  # depth of the nodes in pending_on
    while pending_on and depth + 1 <= cap:
        pending_off: list[_Node] = []
        for node in pending_on:
            p, _, anc = node
            for q in on_off[p >> 1]:
                if not anc >> q & 1:
                    pending_off.append((q, node, anc | 1 << q))
        depth += 1  # depth of the off nodes; a cycle closing here has `depth` potentials
        pending_on = []
        for node in pending_off:
            for r in off_on[node[0] >> 1]:
                if r == src and depth >= 4:
                    found.append(node)
                if r not in visited_on:
                    visited_on.add(r)
                    pending_on.append((r, node, node[2] | 1 << r))
        depth += 1
    return found


def _forcing(
    src: int, on_off: list[tuple[int, ...]], off_on: list[tuple[int, ...]], cap: int
) -> _Node | None:
    """SE's forcing chain search from *src* (on or off): the first node that is the conjugate of
    *src* (the assumption refutes itself), if reached within *cap* potentials."""
    target = src ^ 1
    frontier: list[_Node] = [(src, None, 1 << src)]
    visited = {src}
    is_on = bool(src & 1)
    depth = 1  # potentials on the path to a frontier node
    while frontier and depth < cap:
        nxt: list[_Node] = []
        table = on_off if is_on else off_on
        for node in frontier:
            p, _, anc = node
            for q in table[p >> 1]:
                if q == target:
                    return (q, node, anc | 1 << q)
                if q not in visited:
                    visited.add(q)
                    nxt.append((q, node, anc | 1 << q))
        frontier = nxt
        is_on = not is_on
        depth += 1
    return None


def _path(node: _Node) -> list[int]:
    """Potentials from the root to *node*."""
    out: list[int] = []
    cur: _Node | None = node
    while cur is not None:
        out.append(cur[0])
        cur = cur[1]
    out.reverse()
    return out


def _cycle_eliminations(
    geo: Geometry, masks: Sequence[int], loop_bits: int
) -> list[tuple[int, int]]:
    """SE's cycle rule: candidates outside the loop cells that see an on node and an off node of
    their digit (*loop_bits*: the set of the loop's potentials, as a bit set)."""
    n = geo.n
    peer_bits = _peer_bits(geo.shape)
    loop = 0
    forward: dict[int, int] = {}
    backward: dict[int, int] = {}
    bits = loop_bits
    while bits:
        low = bits & -bits
        p = low.bit_length() - 1
        bits ^= low
        cell, d = divmod(p >> 1, n)
        loop |= 1 << cell
        side = forward if p & 1 else backward
        side[d] = side.get(d, 0) | peer_bits[cell]
    out: list[tuple[int, int]] = []
    for d, fwd in forward.items():
        both = fwd & backward.get(d, 0) & ~loop
        bit = 1 << d
        while both:
            low = both & -both
            cell = low.bit_length() - 1
            if masks[cell] & bit:
                out.append((cell, d + 1))
            both ^= low
    return sorted(out)


# ---------------------------------------------------------------------------------------------
# The SE rule "Forcing Chains & Cycles"

_SORT_KEY = {(False, True): 2, (True, False): 3, (True, True): 4}  # (y, x) -> SE sort key


@dataclass(frozen=True, slots=True)
class _RankedHint:
    """What SE orders the hints of a chaining rule by (:meth:`order`): rating, then complexity,
    then the kind of hint (*sort_key*), then discovery order (*seq*)."""

    rating: float
    complexity: int
    sort_key: int
    seq: int
    kind: str

    def order(self) -> tuple[float, int, int, int]:
        """The sort key: the easiest hint, then the simplest, first."""
        return (self.rating, self.complexity, self.sort_key, self.seq)


@dataclass(frozen=True, slots=True)
class _Hint(_RankedHint):
    # kind: "cycle" | "forcing"
    y: bool
    x: bool
    node: _Node


def _reach(
    starts: list[int], on_off: list[tuple[int, ...]], off_on: list[tuple[int, ...]]
) -> tuple[dict[int, int], set[int]]:
    """Reachability of the implication graph from *starts*: potential -> bit set of the
    potentials it implies (itself included), and the potentials that can lie on a cycle of at
    least 4 links (their strongly connected component has at least 4 potentials).

    Tarjan's strongly connected components (iterative), then one pass over the condensation.
    Used only to skip searches that cannot find anything; it changes no result.
    """

    size = 2 * len(on_off)
    succs = [off_on[p >> 1] if not p & 1 else on_off[p >> 1] for p in range(size)]
    index = [-1] * size
    low = [0] * size
    comp_of = [-1] * size
    on_stack = [False] * size
    comp_reach: list[int] = []
    on_cycle: set[int] = set()
    stack: list[int] = []
    counter = 0
    for root in starts:
        if index[root] >= 0:
            continue
        work: list[tuple[int, int]] = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack[v] = True
            nxt = succs[v]
            descended = False
            while i < len(nxt):
                w = nxt[i]
                i += 1
                if index[w] < 0:
                    work.append((v, i))
                    work.append((w, 0))
                    descended = True
                    break
                if on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
            if descended:
                continue
            if low[v] == index[v]:
                members = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    members.append(w)
                    if w == v:
                        break
                cid = len(comp_reach)
                bits = 0
                for w in members:
                    comp_of[w] = cid
                    bits |= 1 << w
                targets = {comp_of[z] for w in members for z in succs[w]}
                targets.discard(cid)
                targets.discard(-1)
                for oc in targets:
                    bits |= comp_reach[oc]
                comp_reach.append(bits)
                if len(members) >= 4:  # a cycle of >= 4 links has >= 4 potentials
                    on_cycle.update(members)
            if work:
                parent = work[-1][0]
                if low[v] < low[parent]:
                    low[parent] = low[v]
    reach = {v: comp_reach[c] for v, c in enumerate(comp_of) if c >= 0}
    return reach, on_cycle


_INF = 1 << 30


def _bit_table(table: list[tuple[int, ...]]) -> list[int]:
    """Per candidate, its link targets as one bit set over potentials."""
    out = []
    for targets in table:
        bits = 0
        for q in targets:
            bits |= 1 << q
        out.append(bits)
    return out


def _next_bits(potentials: int, table: list[int]) -> int:
    """The potentials one link away from the set *potentials* (bit sets; *table*: the links of
    each candidate as a bit set, :func:`_bit_table`)."""
    out = 0
    while potentials:
        low = potentials & -potentials
        out |= table[(low.bit_length() - 1) >> 1]
        potentials ^= low
    return out


def _bounds(
    src: int,
    on_bits: list[int],
    off_bits: list[int],
    want_cycle: bool,
    want_on: bool,
    want_off: bool,
) -> tuple[int, int, int]:
    """Lower bounds on the complexity of the cycle through *src* (an "on" potential) and exact
    complexities of the forcing chains from *src* and from its conjugate (``_INF`` = none),
    by breadth-first search over bit sets without SE's ancestor filter (which can only make
    chains longer). *on_bits* / *off_bits* are the on->off / off->on links per candidate as
    bit sets (:func:`_bit_table`)."""
    cyc = fon = foff = _INF
    if want_cycle or want_on:
        pred = 0
        succ = off_bits[src >> 1]
        while succ:
            low = succ & -succ
            pred |= 1 << ((low.bit_length() - 1) ^ 1)
            succ ^= low
        target = 1 << (src ^ 1)
        seen_on = 1 << src
        frontier = 1 << src
        depth = 1
        while frontier and ((want_cycle and cyc == _INF) or (want_on and fon == _INF)):
            offs = _next_bits(frontier, on_bits)
            depth += 1
            if want_on and fon == _INF and offs & target:
                fon = depth
            if want_cycle and cyc == _INF and depth >= 4 and offs & pred:
                cyc = depth
            frontier = _next_bits(offs, off_bits) & ~seen_on
            seen_on |= frontier
            depth += 1
    if want_off:
        start = src ^ 1
        seen = 1 << start
        frontier = seen
        is_on = False
        depth = 1
        while frontier:
            nxt = _next_bits(frontier, on_bits if is_on else off_bits)
            depth += 1
            if nxt >> src & 1:
                foff = depth
                break
            frontier = nxt & ~seen
            seen |= frontier
            is_on = not is_on
    return cyc, fon, foff


class _Mode:
    """One SE search mode (X, Y or X+Y) on one candidate state: links, reachability and, per
    starting candidate, bounds on what the searches from it can find."""

    def __init__(
        self, geo: Geometry, masks: Sequence[int], links: _Links, y: bool, x: bool
    ) -> None:
        self.geo, self.masks, self.y, self.x = geo, masks, y, x
        self.on_off, self.off_on = links.tables(y, x)
        n = geo.n
        self.sources: list[int] = []
        for cell in range(geo.ncells):
            m = masks[cell]
            if m & (m - 1) == 0:
                continue
            if not x and m.bit_count() != 2:
                continue  # Y-cycles only start from bivalue cells
            self.sources += [2 * (cell * n + d) + 1 for d in range(n) if m >> d & 1]
        starts = [q for p in self.sources for q in (p, p ^ 1)]
        self.reach, self.on_cycle = _reach(starts, self.on_off, self.off_on)
        self._bounds: dict[int, tuple[int, int, int]] = {}
        self._bits: tuple[list[int], list[int]] | None = None

    def bounds(self, src: int) -> tuple[int, int, int]:
        b = self._bounds.get(src)
        if b is None:
            want_cycle = src in self.on_cycle
            want_on = self.x and bool(self.reach[src] >> (src ^ 1) & 1)
            want_off = self.x and bool(self.reach[src ^ 1] >> src & 1)
            if self._bits is None:
                self._bits = (_bit_table(self.on_off), _bit_table(self.off_on))
            b = _bounds(src, *self._bits, want_cycle, want_on, want_off)
            self._bounds[src] = b
        return b

    def min_bound(self) -> int:
        return min((min(self.bounds(s)) for s in self.sources), default=_INF)

    def hints(self, cap: int, seq0: int) -> list[_Hint]:
        """All hints of this mode with at most *cap* potentials, in SE's discovery order."""
        y, x = self.y, self.x
        base_cycle = 7.0 if (y and x) else 6.5
        base_chain = 7.0 if (y and x) else 6.6
        sk = _SORT_KEY[(y, x)]
        out: list[_Hint] = []
        for i, src in enumerate(self.sources):
            cyc, fon, foff = self.bounds(src)
            if min(cyc, fon, foff) > cap:
                continue
            check_budget()
            seq = seq0 + i * 100000
            if cyc <= cap:
                for node in _cycles(src, self.on_off, self.off_on, cap):
                    cx = node[2].bit_count()
                    out.append(_Hint(se_rating(base_cycle, cx), cx, sk, seq, "cycle", y, x, node))
                    seq += 1
            for start, bound in ((src, fon), (src ^ 1, foff)):
                if bound <= cap:
                    t = _forcing(start, self.on_off, self.off_on, cap)
                    if t is not None:
                        cx = t[2].bit_count()
                        out.append(
                            _Hint(se_rating(base_chain, cx), cx, sk, seq, "forcing", y, x, t)
                        )
                        seq += 1
        return out


def _max_complexity(base: float, rating: float, complexity: int) -> int:
    """The largest complexity of a *base* hint that still sorts before (rating, complexity)."""
    c = 3
    while se_rating(base, c + 1) < rating or (
        se_rating(base, c + 1) == rating and c + 1 < complexity
    ):
        c += 1
        if c > 4096:
            break
    return c


# (placements, eliminations) of a hint, as (cell, digit) pairs
_Effect = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def _worthy(
    geo: Geometry, masks: Sequence[int], h: _Hint, memo: dict[int, _Effect | None]
) -> _Effect | None:
    """(placements, eliminations) of a hint, None when it removes nothing. A cycle's effect
    depends only on its set of potentials: *memo* (one per candidate state) keeps it by that
    set, since SE finds each cycle from every one of its "on" nodes."""
    n = geo.n
    if h.kind == "forcing":
        p = h.node[0]
        cell, d = divmod(p >> 1, n)
        if p & 1:
            return ((cell, d + 1),), ()
        return (), ((cell, d + 1),)
    key = h.node[2]
    if key in memo:
        return memo[key]
    elims = _cycle_eliminations(geo, masks, key)
    eff: _Effect | None = ((), tuple(elims)) if elims else None
    memo[key] = eff
    return eff


def conclusion_text(shape: Shape, effect: _Effect) -> str:
    """What a chain concludes: its first placement, else its first elimination.

    >>> s = Shape(3, 3)
    >>> conclusion_text(s, (((10, 4),), ())), conclusion_text(s, ((), ((0, 7),)))
    ('r2c2 must be 4', '7 is removed from r1c1')
    """
    placements, elims = effect
    if placements:
        cell, d = placements[0]
        return f"{shape.cell_name(cell)} must be {digit_name(shape, d)}"
    cell, d = elims[0]
    return f"{digit_name(shape, d)} is removed from {shape.cell_name(cell)}"


def path_links(n: int, path: Sequence[int]) -> list[tuple[int, int, int, int, bool]]:
    """The drawing links (cell, digit, cell, digit, strong) between consecutive potentials of
    *path* on a grid of size *n*; a link from an "off" potential to an "on" one is strong.

    >>> path_links(9, [2 * 0 + 1, 2 * 9, 2 * (9 * 9) + 1])   # r1c1=1 -> r1c2<>1 -> r2c1=1
    [(0, 1, 1, 1, False), (1, 1, 9, 1, True)]
    """
    out = []
    for a, b in itertools.pairwise(path):
        ca, da = divmod(a >> 1, n)
        cb, db = divmod(b >> 1, n)
        out.append((ca, da + 1, cb, db + 1, not a & 1))
    return out


def _describe(geo: Geometry, h: _Hint, effect: _Effect) -> Step:
    """The step of hint *h* with its *effect* (placements, eliminations) on the grid."""
    placements, elims = effect
    n = geo.n
    path = _path(h.node)
    if h.kind == "cycle":
        path = [*path, path[0]]
    names = [potential_name(n, p) for p in path]
    cells = tuple(dict.fromkeys((p >> 1) // n for p in path))
    highlights = tuple(dict.fromkeys(((p >> 1) // n, (p >> 1) % n + 1) for p in path))
    chain_text = " -> ".join(names)
    if h.kind == "cycle":
        if h.x and h.y:
            name = "Bidirectional Cycle"
        elif h.y:
            name = "Bidirectional Y-Cycle"
        else:
            name = "Bidirectional X-Cycle"
        shape_text = elim_text(geo.shape, elims)
        text = (
            f"{name}: the loop {chain_text} works in both directions, so either all its '=' "
            f"candidates are true or all its '<>' ones are; a candidate that sees one of each "
            f"with its digit is false: {shape_text}."
        )
    else:
        name = "Forcing Chain" if (h.x and h.y) else "Forcing X-Chain"
        consequences = " -> ".join(names[1:])
        text = (
            f"{name}: if {names[0]}, then {consequences}, which contradicts the assumption, "
            f"so {conclusion_text(geo.shape, effect)}."
        )
    return Step(
        name,
        h.rating,
        placements=placements,
        eliminations=elims,
        text=text,
        cells=cells,
        highlights=highlights,
        links=tuple(path_links(n, path)),
        size=n,
    )


def _mode_hints(
    geo: Geometry,
    masks: Sequence[int],
    mode: _Mode,
    seq0: int,
    beat: _Hint | None,
    memo: dict[int, _Effect | None],
) -> list[_Hint]:
    """The hints of *mode* that can sort before *beat* (all of them that can be the best one
    when *beat* is None), searching no deeper than needed."""
    base = 7.0 if (mode.x and mode.y) else 6.5  # the lowest base of the mode's hints
    unlimited = 4 * geo.ncells * geo.n
    if beat is not None:
        cap = _max_complexity(base, beat.rating, beat.complexity)
        return mode.hints(cap, seq0) if cap >= 4 else []
    bounds = sorted({b for src in mode.sources for b in mode.bounds(src) if b < _INF})
    if not bounds:
        return []
    cap = bounds[0]
    while True:
        found = mode.hints(cap, seq0)
        best = next(
            (
                h
                for h in sorted(found, key=_RankedHint.order)
                if _worthy(geo, masks, h, memo) is not None
            ),
            None,
        )
        if best is not None:
            final = _max_complexity(base, best.rating, best.complexity)
            return mode.hints(final, seq0) if final > cap else found
        if cap >= unlimited:
            return found
        larger = [b for b in bounds if b > cap]
        # cycle bounds are only lower bounds: past the last bound, search without a cap
        cap = max(larger[0], cap + cap // 2) if larger else unlimited


def unary_hints(cg: CandidateGrid, *, exhaustive: bool = False) -> list[tuple[_Hint, Step]]:
    """SE's "Forcing Chains & Cycles" hints on *cg*, best first, each with its :class:`Step`.

    Unless *exhaustive*, only SE's choice is returned: each search mode (X, Y, X+Y) looks only
    as deep as a hint that could still sort before the best one found so far.
    """
    geo = geometry(cg.shape)
    masks = cg.masks
    links = _Links(geo, masks)
    unlimited = 4 * geo.ncells * geo.n
    big = 10**9
    memo: dict[int, _Effect | None] = {}
    hints: list[_Hint] = []
    best: _Hint | None = None
    for i, (y, x) in enumerate(((False, True), (True, False), (True, True))):
        mode = _Mode(geo, masks, links, y, x)
        if exhaustive:
            found = mode.hints(unlimited, i * big)
        else:
            if best is not None and best.rating < (7.0 if (y and x) else 6.5):
                continue
            found = _mode_hints(geo, masks, mode, i * big, best, memo)
        hints += found
        for h in sorted(found, key=_RankedHint.order):
            if _worthy(geo, masks, h, memo) is not None:
                if best is None or h.order() < best.order():
                    best = h
                break
    hints.sort(key=_RankedHint.order)
    results: list[tuple[_Hint, Step]] = []
    seen: set[tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = set()
    for h in hints:
        r = _worthy(geo, masks, h, memo)
        if r is None or r in seen:
            continue
        seen.add(r)
        results.append((h, _describe(geo, h, r)))
        if not exhaustive:
            break
    return results


def unary_all(geo: Geometry, masks: Sequence[int]) -> list[tuple[_Hint, _Effect]]:
    """Every "Forcing Chains & Cycles" hint on the candidates *masks* that changes something,
    in SE's order (rating, complexity, kind, discovery), equal effects not merged: what SE's
    rule reports when it runs nested inside a dynamic forcing chain (see
    :mod:`sudokit.logic.forcing`).

    >>> marks = {0: 0b11, 4: 0b101, 8: 0b1001, 36: 0b10001, 40: 0b100001, 43: 0b1000001}
    >>> found = unary_all(geometry(Shape(3, 3)), [marks.get(i, 0) for i in range(81)])
    >>> [(h.kind, h.rating) for h, _ in found][3:6], found[0][1]
    ([('cycle', 6.5), ('forcing', 6.6), ('forcing', 6.6)], ((), ((8, 1), (43, 1))))
    """
    links = _Links(geo, masks)
    unlimited = 4 * geo.ncells * geo.n
    memo: dict[int, _Effect | None] = {}
    hints: list[_Hint] = []
    for i, (y, x) in enumerate(((False, True), (True, False), (True, True))):
        hints += _Mode(geo, masks, links, y, x).hints(unlimited, i * 10**9)
    hints.sort(key=_RankedHint.order)
    out: list[tuple[_Hint, _Effect]] = []
    for h in hints:
        eff = _worthy(geo, masks, h, memo)
        if eff is not None:
            out.append((h, eff))
    return out


def hint_path(h: _Hint) -> list[int]:
    """The potentials of a unary hint from its assumption to its end (a cycle closes back on its
    start, which is repeated at the end).

    >>> marks = {0: 0b11, 4: 0b101, 8: 0b1001, 36: 0b10001, 40: 0b100001, 43: 0b1000001}
    >>> h, _ = unary_all(geometry(Shape(3, 3)), [marks.get(i, 0) for i in range(81)])[0]
    >>> [potential_name(9, p) for p in hint_path(h)]
    ['r1c1=1', 'r1c5<>1', 'r5c5=1', 'r5c1<>1', 'r1c1=1']
    """
    path = _path(h.node)
    if h.kind == "cycle":
        path.append(path[0])
    return path


# ---------------------------------------------------------------------------------------------
# SE tries its chaining rules in a fixed order and stops at the first that finds a hint. The
# path loop takes the lowest rating over all techniques instead, so each SE chaining rule notes
# (per candidate state) that it found a step, and later rules stay silent on that state.

_FOUND: dict[tuple[int, ...], int] = {}
_FOUND_MAX = 256


def _state_key(cg: CandidateGrid) -> tuple[int, ...]:
    return (id(cg.shape), *cg.values, *cg.masks)


def note_rule_found(cg: CandidateGrid, rank: int) -> None:
    """Record that SE chaining rule *rank* (0 = forcing chains & cycles, 1 = Nishio, 2 =
    multiple, 3 = dynamic, 4 = dynamic +) found a step on the current state of *cg*."""
    key = _state_key(cg)
    if len(_FOUND) >= _FOUND_MAX:
        # oldest first; tolerate another thread trimming at the same time
        with suppress(RuntimeError, StopIteration):
            _FOUND.pop(next(iter(_FOUND)), None)
    _FOUND[key] = min(rank, _FOUND.get(key, rank))


def earlier_rule_found(cg: CandidateGrid, rank: int) -> bool:
    """True when an SE chaining rule tried before *rank* found a step on this state of *cg*.

    >>> from sudokit.grid import Grid
    >>> cg = CandidateGrid.from_grid(Grid.parse("1..." "..1." ".1.." "...1"))
    >>> note_rule_found(cg, 0); earlier_rule_found(cg, 1), earlier_rule_found(cg, 0)
    (True, False)
    """
    found = _FOUND.get(_state_key(cg))
    return found is not None and found < rank


def forcing_chains_and_cycles(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for SE's "Forcing Chains & Cycles" rule: yields SE's choice (the easiest hint).

    Bidirectional X-/Y-cycles rate 6.5, forcing X-chains 6.6, cycles and forcing chains with
    both link kinds 7.0, each plus the length bonus.
    """
    found = unary_hints(cg)
    if found:
        note_rule_found(cg, 0)
    for _, step in found:
        yield step


# ---------------------------------------------------------------------------------------------
# Named chains people learn: X-Chain, XY-Chain and AIC (not SE techniques; hints prefer them)
#
# An alternating inference chain starts with a strong link out of "A is false" and alternates
# weak and strong links up to "B is true": so A or B is true. Then a candidate of A's digit that
# sees both ends goes (same digit); the other candidates of the cell go (same cell); or, for
# different digits in peer cells, each end's digit leaves the other end's cell.

_ALT_KINDS = {
    # name: (base rating, strong link kinds (y, x), weak link kinds (y, x), minimum strong links)
    "X-Chain": (6.5, (False, True), (False, True), 3),
    "XY-Chain": (6.5, (True, False), (False, True), 3),
    "AIC": (6.9, (True, True), (True, True), 3),
}


def _alt_eliminations(
    geo: Geometry, masks: Sequence[int], a: int, b: int
) -> tuple[tuple[int, int], ...]:
    n = geo.n
    ca, da = divmod(a >> 1, n)
    cb, db = divmod(b >> 1, n)
    out: list[tuple[int, int]] = []
    if ca == cb:
        if da != db:
            out = [(ca, e + 1) for e in range(n) if masks[ca] >> e & 1 and e not in (da, db)]
    elif da == db:
        seen_b = set(geo.peers[cb])
        out = [(c, da + 1) for c in geo.peers[ca] if c in seen_b and masks[c] >> da & 1]
    elif cb in geo.peers[ca]:
        if masks[cb] >> da & 1:
            out.append((cb, da + 1))
        if masks[ca] >> db & 1:
            out.append((ca, db + 1))
    return tuple(sorted(out))


def _alt_chain_steps(cg: CandidateGrid, name: str) -> Iterator[Step]:
    """Shortest alternating chains of one kind, one per set of eliminations, shortest first."""
    geo = geometry(cg.shape)
    n = geo.n
    masks = cg.masks
    links = _Links(geo, masks)
    base, (sy, sx), (wy, wx), min_strong = _ALT_KINDS[name]
    strong = [
        (links.off_on_y[c] if sy else ()) + (links.off_on_x[c] if sx else ())
        for c in range(geo.ncells * n)
    ]
    weak = [
        (links.on_off_y[c] if wy else ()) + (links.on_off_x[c] if wx else ())
        for c in range(geo.ncells * n)
    ]
    found: dict[tuple[tuple[int, int], ...], tuple[int, list[int]]] = {}
    for cell in range(geo.ncells):
        m = masks[cell]
        if m & (m - 1) == 0:
            continue
        check_budget()
        for d in range(n):
            if not m >> d & 1:
                continue
            start = 2 * (cell * n + d)  # "A is false"
            parent: dict[int, int] = {start: -1}
            frontier = [start]
            strong_links = 0
            while frontier and strong_links < 2 * geo.ncells:
                ons: list[int] = []
                for p in frontier:
                    for r in strong[p >> 1]:
                        if r not in parent and r ^ 1 not in parent:
                            parent[r] = p
                            ons.append(r)
                strong_links += 1
                if strong_links >= min_strong:
                    for r in ons:
                        if name != "AIC" and (r >> 1) % n != d:
                            continue
                        elims = _alt_eliminations(geo, masks, start, r)
                        if elims and (elims not in found or found[elims][0] > 2 * strong_links):
                            path = [r]
                            while parent[path[-1]] != -1:
                                path.append(parent[path[-1]])
                            found[elims] = (2 * strong_links, path[::-1])
                offs: list[int] = []
                for p in ons:
                    for q in weak[p >> 1]:
                        if q not in parent and q ^ 1 not in parent:
                            parent[q] = p
                            offs.append(q)
                frontier = offs
    shape = cg.shape
    for elims, (length, path) in sorted(found.items(), key=lambda kv: (kv[1][0], kv[0])):
        rating = round(base + chain_length_bonus(length - 2), 1)
        names = [potential_name(n, p) for p in path]
        chain_links = tuple(
            ((a >> 1) // n, (a >> 1) % n + 1, (b >> 1) // n, (b >> 1) % n + 1, not a & 1)
            for a, b in itertools.pairwise(path)
        )
        a_name = potential_name(n, path[0] | 1)
        b_name = potential_name(n, path[-1])
        text = (
            f"{name}: {' -> '.join(names)}. If {a_name} is false then {b_name} is true, so at "
            f"least one of them holds; therefore {elim_text(shape, elims)}."
        )
        yield Step(
            name,
            rating,
            eliminations=elims,
            text=text,
            cells=tuple(dict.fromkeys((p >> 1) // n for p in path)),
            highlights=tuple(dict.fromkeys(((p >> 1) // n, (p >> 1) % n + 1) for p in path)),
            links=chain_links,
            size=n,
        )


def x_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for X-Chains (not an SE technique; 6.5 + length bonus): strong and weak links of
    one digit alternate from A to B (at least three strong links), so the digit is in A or B;
    it leaves every cell that sees both."""
    return _alt_chain_steps(cg, "X-Chain")


def xy_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for XY-Chains (not an SE technique; 6.5 + length bonus): a chain of bivalue cells
    linked by shared digits whose two ends hold the same digit, which leaves the cells that see
    both ends."""
    return _alt_chain_steps(cg, "XY-Chain")


def alternating_inference_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for AICs (not an SE technique; 6.9 + length bonus): strong and weak links of any
    kind alternate from "A is false" to "B is true"."""
    return _alt_chain_steps(cg, "AIC")
