"""SE's "Forcing Chains & Cycles" rule: bidirectional cycles and forcing X/Y-chains, as Sudoku
Explainer 1.2.1 finds and rates them (layer 2).

Implications between potentials (see :mod:`sudokit.logic.chaining` for the encoding) are the
two link kinds of SE's chaining:

* **on -> off** (weak links): a digit placed in a cell removes it from the cell's peers (X) and
  removes the cell's other digits (Y);
* **off -> on** (strong links): a digit removed from a unit where it had two places puts it in
  the other place (X, a conjugate pair); a digit removed from a bivalue cell leaves the other
  digit (Y).

SE's rule searches, from every candidate, breadth first, three times: with X links only (single
digit), with Y links only (only from bivalue cells, cycles only) and with both. It reports

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

The searches of a mode run in C when the core is built (``_core.ChainMode``, csrc/sk_chain.c,
wrapped by :class:`_CMode`): the same steps in the same order, so the same hints. The Python
here (:class:`_Mode`) is their specification and the fallback (``SUDOKIT_BACKEND=python``);
tests/test_chain_c.py holds the two equal.

The named chains people learn (X-Chain, XY-Chain, AIC) are in :mod:`sudokit.logic.chains`.

>>> from sudokit.shape import Shape
>>> marks = {0: 0b11, 4: 0b101, 8: 0b1001, 36: 0b10001, 40: 0b100001, 43: 0b1000001}
>>> cg = CandidateGrid.from_masks(Shape(3, 3), [0 if i in marks else 9 for i in range(81)],
...                               [marks.get(i, 0) for i in range(81)])
>>> step = next(iter(forcing_chains_and_cycles(cg)))
>>> step.technique, step.rating, step.eliminations   # 1 leaves r1c9 and r5c8
('Bidirectional X-Cycle', 6.5, ((8, 1), (43, 1)))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from .. import _native
from ._bits import bit_indices, bit_set
from ._names import elim_text
from .candidates import CandidateGrid, peer_bits
from .chaining import (
    Effect,
    Geometry,
    Links,
    RankedHint,
    c_relations,
    cell_digit,
    check_budget,
    conclusion_text,
    geometry,
    note_rule_found,
    on_potential,
    path_names,
    path_step,
    se_rating,
)
from .step import LENGTH_BONUS_THRESHOLDS, Step

if TYPE_CHECKING:
    from .. import _core

__all__ = [
    "UnaryHint",
    "forcing_chains_and_cycles",
    "hint_path",
    "unary_all",
    "unary_all_c",
    "unary_hints",
]

# ---------------------------------------------------------------------------------------------
# Breadth-first searches over static links

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
    seen_by = peer_bits(geo.shape)
    loop = 0
    forward: dict[int, int] = {}
    backward: dict[int, int] = {}
    for p in bit_indices(loop_bits):
        cell, d = cell_digit(geo.n, p)
        loop |= 1 << cell
        side = forward if p & 1 else backward
        side[d] = side.get(d, 0) | seen_by[cell]
    out: list[tuple[int, int]] = []
    for d, fwd in forward.items():
        both = fwd & backward.get(d, 0) & ~loop
        out += [(cell, d + 1) for cell in bit_indices(both) if masks[cell] >> d & 1]
    return sorted(out)


# ---------------------------------------------------------------------------------------------
# The SE rule "Forcing Chains & Cycles"

#: SE's three search modes as (y, x) link kinds, in its order: X, Y, then both.
_MODES = ((False, True), (True, False), (True, True))
_SORT_KEY = {(False, True): 2, (True, False): 3, (True, True): 4}  # (y, x) -> SE sort key


class UnaryHint(RankedHint):
    """A hint of the rule: *kind* "cycle" or "forcing", found with the link kinds *y* / *x*;
    *node* is the search node that ends it (:func:`hint_path` reads the chain back)."""

    __slots__ = ("node", "x", "y")
    __match_args__ = ("rating", "complexity", "sort_key", "seq", "kind", "y", "x", "node")
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
    for targets in table:  # bit_set() inlined: this runs for every candidate of every state
        bits = 0
        for q in targets:
            bits |= 1 << q
        out.append(bits)
    return out


def _next_bits(potentials: int, table: list[int]) -> int:
    """The potentials one link away from the set *potentials* (bit sets; *table*: the links of
    each candidate as a bit set, :func:`_bit_table`)."""
    out = 0
    while potentials:  # bit_indices() inlined: the inner loop of the bounds
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
        # the "off" potentials whose conjugates src's "off" implies: they lead back to src
        pred = bit_set(q ^ 1 for q in bit_indices(off_bits[src >> 1]))
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

    def __init__(self, geo: Geometry, masks: Sequence[int], links: Links, y: bool, x: bool) -> None:
        self.geo, self.masks, self.y, self.x = geo, masks, y, x
        self.on_off, self.off_on = links.tables(y, x)
        self.sources: list[int] = []
        for cell in range(geo.ncells):
            m = masks[cell]
            if m & (m - 1) == 0:
                continue
            if not x and m.bit_count() != 2:
                continue  # Y-cycles only start from bivalue cells
            self.sources += [on_potential(geo.n, cell, d) for d in bit_indices(m)]
        starts = [q for p in self.sources for q in (p, p ^ 1)]
        self.reach, self.on_cycle = _reach(starts, self.on_off, self.off_on)
        self._bounds: dict[int, tuple[int, int, int]] = {}
        self._bits: tuple[list[int], list[int]] | None = None

    def bounds(self, src: int) -> tuple[int, int, int]:
        """(cycle, forcing from *src*, forcing from its conjugate) complexity bounds."""
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

    def hints(self, cap: int, seq0: int) -> list[UnaryHint]:
        """All hints of this mode with at most *cap* potentials, in SE's discovery order."""
        y, x = self.y, self.x
        base_cycle = 7.0 if (y and x) else 6.5
        base_chain = 7.0 if (y and x) else 6.6
        sk = _SORT_KEY[(y, x)]
        out: list[UnaryHint] = []
        for i, src in enumerate(self.sources):
            cyc, fon, foff = self.bounds(src)
            if min(cyc, fon, foff) > cap:
                continue
            check_budget()
            seq = seq0 + i * 100000
            if cyc <= cap:
                for node in _cycles(src, self.on_off, self.off_on, cap):
                    cx = node[2].bit_count()
                    out.append(
                        UnaryHint(se_rating(base_cycle, cx), cx, sk, seq, "cycle", y, x, node)
                    )
                    seq += 1
            for start, bound in ((src, fon), (src ^ 1, foff)):
                if bound <= cap:
                    t = _forcing(start, self.on_off, self.off_on, cap)
                    if t is not None:
                        cx = t[2].bit_count()
                        out.append(
                            UnaryHint(se_rating(base_chain, cx), cx, sk, seq, "forcing", y, x, t)
                        )
                        seq += 1
        return out

    def best(self, cap: int, seq0: int, memo: dict[int, Effect | None]) -> UnaryHint | None:
        """The hint of :meth:`hints` SE takes from this mode: the first by rating, complexity
        and discovery of those that change the grid (:func:`_worthy`; *memo* as there)."""
        hs = self.hints(cap, seq0)
        worthy = (h for h in hs if _worthy(self.geo, self.masks, h, memo) is not None)
        return min(worthy, key=RankedHint.order, default=None)


class _ModeLike(Protocol):
    """What the rule reads of a search mode: :class:`_Mode` (the specification) or
    :class:`_CMode` (the C core)."""

    y: bool
    x: bool
    sources: list[int]

    def bounds(self, src: int) -> tuple[int, int, int]: ...
    def hints(self, cap: int, seq0: int) -> list[UnaryHint]: ...
    def best(self, cap: int, seq0: int, memo: dict[int, Effect | None]) -> UnaryHint | None: ...


def _c_engine() -> type[_core.ChainMode] | None:
    """The C core's ``ChainMode`` (csrc/sk_chain.c), or None when the core does not serve."""
    core = _native.core()
    return None if core is None else core.ChainMode


def _c_mode(
    engine: type[_core.ChainMode], geo: Geometry, masks: Sequence[int], y: bool, x: bool
) -> _core.ChainMode:
    """The C core's search mode (*y*, *x*) on *masks*, given the pair relations and the peers
    outside the units of a shape that has them (:func:`~.chaining.c_relations`)."""
    if geo.pairs is None:
        return engine(geo.n, geo.units, geo.unit_order, masks, y, x)
    relations, peers = c_relations(geo)
    return engine(geo.n, geo.units, geo.unit_order, masks, y, x, relations=relations, peers=peers)


class _CMode:
    """:class:`_Mode` done by the C core (``_core.ChainMode``, csrc/sk_chain.c): the same
    links, sources, bounds and searches in the same order, so the same hints; only the
    hints' nodes are built in Python."""

    def __init__(
        self, engine: type[_core.ChainMode], geo: Geometry, masks: Sequence[int], y: bool, x: bool
    ):
        self.y, self.x = y, x
        self._c = _c_mode(engine, geo, masks, y, x)
        self.sources: list[int] = list(self._c.sources)
        self._bounds: dict[int, tuple[int, int, int]] = dict(
            zip(self.sources, self._c.bounds, strict=True)
        )
        # the base ratings of cycles and forcing chains in tenths, for the C choice
        self._tenths = _base_tenths(y, x)

    def bounds(self, src: int) -> tuple[int, int, int]:
        """(cycle, forcing from *src*, forcing from its conjugate) complexity bounds."""
        return self._bounds[src]

    def hints(self, cap: int, seq0: int) -> list[UnaryHint]:
        """All hints of this mode with at most *cap* potentials, in SE's discovery order."""
        check_budget()
        out: list[UnaryHint] = []
        last, seq = -1, 0
        for i, kind, path in self._c.hints(cap):
            if i != last:
                last, seq = i, seq0 + i * 100000
            out.append(self._hint(kind, seq, path))
            seq += 1
        return out

    def best(self, cap: int, seq0: int, memo: dict[int, Effect | None]) -> UnaryHint | None:
        """:meth:`_Mode.best`, chosen in C (csrc/sk_chain.c ``sk_chain_best``: the same order
        and the same test of a cycle's eliminations); only the chosen hint is built here."""
        check_budget()
        found = self._c.best(cap, *self._tenths, LENGTH_BONUS_THRESHOLDS)
        if found is None:
            return None
        i, kind, k, path = found
        return self._hint(kind, seq0 + i * 100000 + k, path)

    def _hint(self, kind: int, seq: int, path: Sequence[int]) -> UnaryHint:
        """The hint of a C record: *kind* 0 (cycle) or 1 (forcing), the search *path*."""
        y, x = self.y, self.x
        node: _Node | None = None
        anc = 0
        for p in path:
            anc |= 1 << p
            node = (p, node, anc)
        assert node is not None
        cx = anc.bit_count()
        base = (7.0 if (y and x) else 6.5, 7.0 if (y and x) else 6.6)[kind]
        names = ("cycle", "forcing")
        return UnaryHint(se_rating(base, cx), cx, _SORT_KEY[(y, x)], seq, names[kind], y, x, node)


def _base_tenths(y: bool, x: bool) -> tuple[int, int]:
    """The base ratings of a mode's cycles and forcing chains, in tenths (7.0 with both link
    kinds, else 6.5 and 6.6)."""
    return (70, 70) if (y and x) else (65, 66)


def unary_all_c(
    geo: Geometry, masks: Sequence[int]
) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] | None:
    """What a "Forcing Chains & Cycles" rule nested in a chain reads of :func:`unary_all`
    (``forcing._nested_unary``), from the C core (``_core.unary_all`` over the three modes'
    searches, csrc/sk_chain.c): the hints that change *masks*, in SE's order, only the first
    of each distinct set of removals, as (kind: 0 cycle / 1 forcing chain, complexity, the
    removals as "off" potentials ascending, the search path); None without the core."""
    core = _native.core()
    if core is None or geo.n > 64:
        return None
    a, b, c = (_c_mode(core.ChainMode, geo, masks, y, x) for y, x in _MODES)
    base10 = tuple(t for y, x in _MODES for t in _base_tenths(y, x))
    keys = tuple(_SORT_KEY[m] for m in _MODES)
    return core.unary_all((a, b, c), base10, keys, LENGTH_BONUS_THRESHOLDS, 4 * geo.ncells * geo.n)


def _new_mode(
    geo: Geometry, masks: Sequence[int], links: list[Links], y: bool, x: bool
) -> _ModeLike:
    """A search mode on the C core when it is there, else :class:`_Mode` (whose *links*, in a
    list of at most one, are built on first use and shared by the modes of one state)."""
    engine = _c_engine()
    if engine is not None and geo.n <= 64:
        return _CMode(engine, geo, masks, y, x)
    if not links:
        links.append(Links(geo, masks))
    return _Mode(geo, masks, links[0], y, x)


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


def _worthy(
    geo: Geometry, masks: Sequence[int], h: UnaryHint, memo: dict[int, Effect | None]
) -> Effect | None:
    """(placements, eliminations) of a hint, None when it removes nothing. A cycle's effect
    depends only on its set of potentials: *memo* (one per candidate state) keeps it by that
    set, since SE finds each cycle from every one of its "on" nodes."""
    if h.kind == "forcing":
        p = h.node[0]
        cell, d = cell_digit(geo.n, p)
        if p & 1:
            return ((cell, d + 1),), ()
        return (), ((cell, d + 1),)
    key = h.node[2]
    if key in memo:
        return memo[key]
    elims = _cycle_eliminations(geo, masks, key)
    eff: Effect | None = ((), tuple(elims)) if elims else None
    memo[key] = eff
    return eff


def _describe(geo: Geometry, h: UnaryHint, effect: Effect) -> Step:
    """The step of hint *h* with its *effect* (placements, eliminations) on the grid."""
    placements, elims = effect
    n = geo.n
    path = hint_path(h)
    names = path_names(geo, path)
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
    return path_step(name, h.rating, n, path, text, placements, elims)


def _mode_best(
    geo: Geometry,
    mode: _ModeLike,
    seq0: int,
    beat: UnaryHint | None,
    memo: dict[int, Effect | None],
) -> UnaryHint | None:
    """The hint SE takes from *mode* (:meth:`_Mode.best`) if it can sort before *beat* (any
    when *beat* is None), searching no deeper than needed."""
    base = 7.0 if (mode.x and mode.y) else 6.5  # the lowest base of the mode's hints
    unlimited = 4 * geo.ncells * geo.n
    if beat is not None:
        cap = _max_complexity(base, beat.rating, beat.complexity)
        return mode.best(cap, seq0, memo) if cap >= 4 else None
    bounds = sorted({b for src in mode.sources for b in mode.bounds(src) if b < _INF})
    if not bounds:
        return None
    cap = bounds[0]
    while True:
        best = mode.best(cap, seq0, memo)
        if best is not None:
            final = _max_complexity(base, best.rating, best.complexity)
            return mode.best(final, seq0, memo) if final > cap else best
        if cap >= unlimited:
            return None
        larger = [b for b in bounds if b > cap]
        # cycle bounds are only lower bounds: past the last bound, search without a cap
        cap = max(larger[0], cap + cap // 2) if larger else unlimited


def unary_hints(cg: CandidateGrid, *, exhaustive: bool = False) -> list[tuple[UnaryHint, Step]]:
    """SE's "Forcing Chains & Cycles" hints on *cg*, best first, each with its :class:`Step`.

    Unless *exhaustive*, only SE's choice is returned: each search mode (X, Y, X+Y) looks only
    as deep as a hint that could still sort before the best one found so far.
    """
    geo = geometry(cg.shape)
    masks = cg.masks
    links: list[Links] = []
    unlimited = 4 * geo.ncells * geo.n
    big = 10**9
    memo: dict[int, Effect | None] = {}
    hints: list[UnaryHint] = []
    best: UnaryHint | None = None
    for i, (y, x) in enumerate(_MODES):
        if not exhaustive and best is not None and best.rating < (7.0 if (y and x) else 6.5):
            continue
        mode = _new_mode(geo, masks, links, y, x)
        if exhaustive:
            hints += mode.hints(unlimited, i * big)
            continue
        # SE's choice is the first worthy hint of all modes: each mode's own first one
        found = _mode_best(geo, mode, i * big, best, memo)
        if found is not None and (best is None or found.order() < best.order()):
            best = found
    if best is not None:
        hints = [best]
    hints.sort(key=RankedHint.order)
    results: list[tuple[UnaryHint, Step]] = []
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


def unary_all(geo: Geometry, masks: Sequence[int]) -> list[tuple[UnaryHint, Effect]]:
    """Every "Forcing Chains & Cycles" hint on the candidates *masks* that changes something,
    in SE's order (rating, complexity, kind, discovery), equal effects not merged: what SE's
    rule reports when it runs nested inside a dynamic forcing chain (see
    :mod:`sudokit.logic.forcing`).

    >>> from sudokit.shape import Shape
    >>> marks = {0: 0b11, 4: 0b101, 8: 0b1001, 36: 0b10001, 40: 0b100001, 43: 0b1000001}
    >>> found = unary_all(geometry(Shape(3, 3)), [marks.get(i, 0) for i in range(81)])
    >>> [(h.kind, h.rating) for h, _ in found][3:6], found[0][1]
    ([('cycle', 6.5), ('forcing', 6.6), ('forcing', 6.6)], ((), ((8, 1), (43, 1))))
    """
    links: list[Links] = []
    unlimited = 4 * geo.ncells * geo.n
    memo: dict[int, Effect | None] = {}
    hints: list[UnaryHint] = []
    for i, (y, x) in enumerate(_MODES):
        hints += _new_mode(geo, masks, links, y, x).hints(unlimited, i * 10**9)
    hints.sort(key=RankedHint.order)
    out: list[tuple[UnaryHint, Effect]] = []
    for h in hints:
        eff = _worthy(geo, masks, h, memo)
        if eff is not None:
            out.append((h, eff))
    return out


def hint_path(h: UnaryHint) -> list[int]:
    """The potentials of a unary hint from its assumption to its end (a cycle closes back on its
    start, which is repeated at the end).

    >>> from sudokit.shape import Shape
    >>> from sudokit.logic.chaining import potential_name
    >>> marks = {0: 0b11, 4: 0b101, 8: 0b1001, 36: 0b10001, 40: 0b100001, 43: 0b1000001}
    >>> h, _ = unary_all(geometry(Shape(3, 3)), [marks.get(i, 0) for i in range(81)])[0]
    >>> [potential_name(9, p) for p in hint_path(h)]
    ['r1c1=1', 'r1c5<>1', 'r5c5=1', 'r5c1<>1', 'r1c1=1']
    """
    path = _path(h.node)
    if h.kind == "cycle":
        path.append(path[0])
    return path


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
