"""Forcing chains from one cell or one unit, Nishio and dynamic forcing chains, as Sudoku
Explainer 1.2.1 finds and rates them (layer 2).

All of them follow the consequences of an assumption ("this candidate is true" or "... false")
through singles, breadth first, exactly in SE's order (pending "on" potentials first, then one
"off" potential at a time), and conclude when

* an assumption leads to a candidate being both true and false (a *contradiction*: the
  assumption is wrong);
* both assumptions about one candidate lead to the same conclusion (*double* forcing chains);
* every candidate of a cell, or every place of a digit in a unit, leads to the same conclusion
  (*cell* and *region* forcing chains).

The SE rules, tried in this order, each taking its easiest hint:

=====================  =====  =================================================================
rule                   base   what it uses
=====================  =====  =================================================================
Nishio                 7.5    one digit's links only, contradictions, with removals remembered
Multiple (cell/unit)   8.0    static X and Y links, cell and region forcing chains
Dynamic                8.5    as Multiple, plus contradictions and double chains; every removal
                              made along the chain is remembered ("dynamic")
Dynamic (+)            9.0    as Dynamic; when stuck, pointing/claiming, hidden and naked pairs
                              and X-Wings inside the chain add removals
Nested, level 2        9.5    as Dynamic (+); then SE's "Forcing Chains & Cycles" rule, run on
                              the candidates the chain has removed, adds removals
Nested, level 3        10.0   ... then also multiple forcing chains
Nested, level 4        10.5   ... dynamic forcing chains instead
Nested, level 5        11.0   ... then also dynamic forcing chains of level 2
=====================  =====  =================================================================

A nested chain counts only when it relies on a removal made by the outer chain (SE's "rule
parents": the candidates, removed by the outer chain, of the cells and units where the nested
chain's singles happen); each distinct nested chain's complexity adds to the hint's. The nested
rules are exposed as :data:`NESTED_RULES` / :func:`nested_forcing_chains` and are not in the
default registry: pure Python needs seconds to minutes per step at those levels.

Every rating adds SE's length bonus on the chain *complexity* (the number of distinct potentials
on all chains of the hint; see :func:`sudokit.logic.chains.se_rating`).

Sudoku Explainer stops at the first rule that finds something. The path loop takes the lowest
rating over all techniques, so each finder here remembers (per candidate state) which SE rule
found a step, and a later rule yields nothing on a state where an earlier rule already found one.
That reproduces SE's choice exactly when the path loop calls the rules easiest first.

Searches can be bounded with :func:`sudokit.logic.chains.chain_budget`.

On a shape whose variant rules relate two cells (:mod:`~sudokit.logic.pairlinks`), a dynamic
run with Y links (not Nishio) also follows each relation: an "on" potential removes the
related cell's candidates the relation rejects with it, and a removal removes the candidates
of a related cell left without any partner (their parents: the removals of those partners).
Multiple forcing chains read the relations' weak links from the static X+Y tables. The C
chainers follow them the same way (``Chainer.relate``, ``ChainMode(relations=)``,
csrc/sk_chain.c); the nested multiple / dynamic rules of csrc/sk_nest.c do not, so inside a
chain on such a shape those run here (on the C level-0 runs). Classic shapes are unchanged.

The level-0 runs (Nishio, multiple and dynamic forcing chains, and the start of every nested
run) are done in C when the core is built (``_core.Chainer``, csrc/sk_chain.c), up to 16x16:
the same potentials in the same order with the same ancestors and parents, read through
:class:`_RunMap` views. :class:`_Run` is their specification, the fallback
(``SUDOKIT_BACKEND=python``) and the continuation of nesting levels >= 1;
tests/test_chain_c_forcing.py holds the two equal. What a run of nesting level >= 1 applies
when it is stuck is C as well: the basic in-chain rules (``_core.InChain``), and the nested
forcing chains & cycles (:func:`~sudokit.logic.cycles.unary_all_c`) and multiple / dynamic
forcing chains (``Chainer.nested``), csrc/sk_nest.c and csrc/sk_chain.c; the Python here and in
:mod:`~sudokit.logic.inchain` is their specification and fallback (tests/test_nest_c.py).

>>> from sudokit.shape import Shape
>>> marks = {0: 0b11, 4: 0b101, 8: 0b1001, 36: 0b10001, 40: 0b100001, 43: 0b1000001}
>>> cg = CandidateGrid.from_masks(Shape(3, 3), [0 if i in marks else 9 for i in range(81)],
...                               [marks.get(i, 0) for i in range(81)])
>>> step = forcing_hints(cg, RANK_NISHIO)[0]
>>> step.technique, step.rating, step.eliminations   # 1 is removed from r1c9
('Nishio Forcing Chain', 7.6, ((8, 1),))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, KeysView, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from .. import _native
from ..shape import Shape
from ._bits import bit_indices
from ._names import digit_name
from .candidates import CandidateGrid
from .chaining import (
    Effect,
    Geometry,
    Links,
    c_relations,
    candidate,
    cell_digit,
    chain_budget,
    check_budget,
    conclusion_text,
    earlier_rule_found,
    geometry,
    note_rule_found,
    off_potential,
    on_potential,
    pair_label,
    path_links,
    potential_name,
    se_rating,
)
from .cycles import hint_path, unary_all, unary_all_c
from .inchain import BASIC_RULES, Found, c_rules
from .step import LENGTH_BONUS_THRESHOLDS, Step, deferred_text, named_finder

if TYPE_CHECKING:
    from .. import _core

__all__ = [
    "NESTED_FLOOR",
    "NESTED_RULES",
    "dynamic_forcing_chains",
    "dynamic_forcing_chains_plus",
    "forcing_hints",
    "multiple_forcing_chains",
    "nested_forcing_chains",
    "nishio_forcing_chains",
]

#: Largest size whose level-0 chains run in C (the C runs keep a bit set of all potentials per
#: reached potential: 1 KB each at 16x16, 64 KB at 64x64); larger grids chain in Python.
_C_MAX_N = 16

#: A state where every rule up to Dynamic (+) fails needs SE's nested forcing chains, which SE
#: rates 9.5 and up: a lower bound for the puzzle's rating when the nested rules are not run.
NESTED_FLOOR = 9.5

# SE rule ranks (the order Sudoku Explainer tries them); rank 0 is chains.forcing_chains_and_cycles.
RANK_NISHIO = 1
RANK_MULTIPLE = 2
RANK_DYNAMIC = 3
RANK_DYNAMIC_PLUS = 4
#: SE's nested dynamic forcing chains: level 2 (9.5, with forcing chains & cycles nested),
#: 3 (10.0, + multiple forcing chains), 4 (10.5, + dynamic forcing chains), 5 (11.0, + dynamic
#: forcing chains of level 2); rank = RANK_DYNAMIC + level.


# A chaining outcome: ancestor bit sets and parents per reached potential, and the
# contradiction found, if any: ((on potential, ancestors), (off potential, ancestors), parents
# of the newly derived one).
_Absurd = tuple[tuple[int, int], tuple[int, int], int, tuple[int, ...]]


# A nested chain inside a chain: (identity, complexity). SE counts each distinct nested chain
# of a hint once; two are the same when their chains are (see :class:`_FullChain`).
_Nest = tuple["_FullChain", int]
#: Removals made inside a chain: (the "off" potential, its parents, the nested chain if any).
_Removals = list[tuple[int, tuple[int, ...], _Nest | None]]
#: A nested hint's chains (potentials, each chain) and their "on" potentials with their causes.
_Chains = tuple[tuple[tuple[int, ...], ...], list[tuple[int, int]]]

# A derived "on" potential: (potential, its parents, why: -1 = last candidate of its cell, else
# the unit where it is the last place of its digit)
_Derived = tuple[int, tuple[int, ...], int]


_V = TypeVar("_V")
_H = TypeVar("_H")


class _RunMap(Mapping[int, _V]):
    """A read-only view of one C run's (:class:`_CRun`) ancestor sets or parents: the
    potentials in the order reached (*index*: potential -> slot) and a getter by slot, so
    that only the values a hint reads become Python objects."""

    __slots__ = ("_get", "_index", "_size")

    def __init__(
        self,
        index: dict[int, int],
        get: Callable[[int], _V],
        size: Callable[[int], int] | None = None,
    ) -> None:
        self._index = index
        self._get = get
        self._size = size

    def __getitem__(self, q: int) -> _V:
        return self._get(self._index[q])

    def keys(self) -> KeysView[int]:
        """The potentials, in the order reached (a dict's view: fast membership)."""
        return self._index.keys()

    def size(self, q: int) -> int:
        """The number of potentials in the ancestor set of *q* (an ancestor-set view)."""
        assert self._size is not None
        return self._size(self._index[q])

    def __contains__(self, q: object) -> bool:
        return q in self._index

    def __iter__(self) -> Iterator[int]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


class _FullChain:
    """The identity of a nested chain, as SE's ``FullChain`` sees it: the chain of each of its
    targets (the concluded potential as each branch reaches it), each the target and its
    ancestors breadth first (:func:`_bfs_chain`), potentials compared without their parents.
    Two chains that remove the same candidates are different when their chains are (SE counts
    both: a cell forcing chain whose branches meet one nested conclusion on different
    candidates), and one chain removing different candidates in two branches is the same.

    >>> a, b = _FullChain(((3, 2, 0),)), _FullChain(((3, 2, 0),))
    >>> a == b, a == _FullChain(((3, 0, 2),)), a.chains
    (True, False, ((3, 2, 0),))
    """

    __slots__ = ("_hash", "chains")

    def __init__(self, chains: tuple[tuple[int, ...], ...]) -> None:
        self.chains = chains
        self._hash = hash(chains)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _FullChain) and self.chains == other.chains

    def __hash__(self) -> int:
        return self._hash


def _bfs_chain(
    target: int,
    parents: Mapping[int, Sequence[int]],
    new: int = -1,
    new_parents: Sequence[int] = (),
) -> tuple[int, ...]:
    """SE's ``getChain``: *target* and its ancestors, breadth first, each parent list in order
    (*parents*: per potential; *new*, not in it, has *new_parents*), each potential once.

    >>> _bfs_chain(5, {5: (3, 4), 3: (1,), 4: (1, 2)})
    (5, 3, 4, 1, 2)
    >>> _bfs_chain(6, {3: (1,)}, 6, (3,))
    (6, 3, 1)
    """
    out: list[int] = []
    done: set[int] = set()
    todo = [target]
    while todo:
        nxt: list[int] = []
        for p in todo:
            if p not in done:
                done.add(p)
                out.append(p)
                nxt += new_parents if p == new else parents.get(p, ())
        todo = nxt
    return tuple(out)


@dataclass(slots=True)
class _Outcome:
    # dicts from a Python run, views (_RunMap) from a C one
    anc: Mapping[int, int]
    parents: Mapping[int, tuple[int, ...]]
    absurd: _Absurd | None
    # "off" potentials concluded by a nested chain (levels >= 2), as a bit set and per potential
    nest_bits: int = 0
    nested: dict[int, _Nest] | None = None
    # why each "on" potential holds: -1 = last candidate of its cell, else the unit index
    # (recorded only for chainers that run nested inside another chain)
    causes: dict[int, int] | None = None


class _Chainer:
    """SE's ``doChaining`` on one candidate state, with a cache per starting potential.

    Tables built once per state: for each candidate the peers that hold its digit (SE's order)
    and, per unit and digit, the cells that hold it and their number. A dynamic run (see
    :class:`_Run`) copies the masks and the counts and updates both as candidates go off.

    A dynamic chain of nesting level >= 1 is the level-0 chain from the same start until that
    one stops (a contradiction, or nothing left to derive: where the nesting level first adds
    removals). So a nested chainer takes each run's beginning from the level-0 chainer of the
    same state (:func:`_level0_chainer`, shared by SE's rules tried one after the other on one
    state) and only continues it: the same outcomes, without chaining the common prefix again.
    """

    def __init__(
        self,
        geo: Geometry,
        masks: Sequence[int],
        *,
        y: bool,
        dynamic: bool,
        level: int,
        record: bool = False,
        explain: bool = False,
    ) -> None:
        self.geo = geo
        self.masks = list(masks)
        self.y = y
        self.dynamic = dynamic
        self.level = level
        self.record = record
        # a chainer made for a step's words (:func:`_rule_names`): Python runs from scratch,
        # naming the rule behind each removal its in-chain rules add
        self.explain = explain
        self.cache: dict[int, _Outcome] = {}
        self.runs = 0
        self.links: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] | None = None
        # a level-0 dynamic chainer: where each run without a contradiction stopped (the
        # candidates and counts then), for the nested chainers that continue it
        self.ends: dict[int, tuple[list[int], list[int]]] = {}
        self.stopped: dict[int, _core.ChainRun] = {}  # the same for the C runs, read on demand
        self.base: _Chainer | None = None
        # a dynamic run with the Y links follows the pair relations too (not Nishio's one digit)
        self.pair_y = dynamic and y and geo.pairs is not None
        if dynamic and level and not explain:
            prev = _prev_level(level) if not record else 0
            self.base = (
                _level0_chainer(geo, masks, y, record)
                if prev == 0
                else _level_chainer(geo, masks, y, prev)
            )
        self.peer_offs: list[tuple[tuple[int, int], ...]] = []
        self.unit_keys: list[tuple[tuple[int, int], ...]] = []
        self.places: list[tuple[int, ...]] = []
        self.counts: list[int] = []
        # the C core's chainer (csrc/sk_chain.c) does the level-0 runs when it is there,
        # given the pair relations of geo.pairs (Chainer.relate)
        core = _native.core() if self.base is None and geo.n <= _C_MAX_N and not explain else None
        self.c: _core.Chainer | None = None
        if core is not None:
            self.c = core.Chainer(geo.n, geo.units, geo.unit_order, self.masks, y, dynamic)
            if geo.pairs is not None:
                self.c.relate(c_relations(geo)[0])
        if self.base is not None:  # the same state: share its tables
            base = self.base
            base.tables()
            self.peer_offs, self.unit_keys = base.peer_offs, base.unit_keys
            self.places, self.counts = base.places, base.counts
        elif self.c is None:
            self.tables()

    def tables(self) -> None:
        """Build the tables of the Python runs (:class:`_Run`), once."""
        if self.counts:
            return
        geo = self.geo
        n = geo.n
        m = self.masks
        # per candidate: (peer, its "off" potential) for the peers holding the digit, SE's
        # order; (unit, unit * n + digit) for the units of the cell, SE's order
        self.peer_offs = [()] * (geo.ncells * n)
        self.unit_keys = [()] * (geo.ncells * n)
        for cell in range(geo.ncells):
            for d in bit_indices(m[cell]):
                bit = 1 << d
                c = candidate(n, cell, d)
                self.peer_offs[c] = tuple(
                    (o, off_potential(n, o, d)) for o in geo.peer_order[cell] if m[o] & bit
                )
                self.unit_keys[c] = tuple((u, u * n + d) for u in geo.unit_order[cell])
        nu = len(geo.units)
        self.places = [()] * (nu * n)
        self.counts = [0] * (nu * n)
        for u, cells in enumerate(geo.units):
            for d in range(n):
                bit = 1 << d
                where = tuple(c for c in cells if m[c] & bit)
                self.places[u * n + d] = where
                self.counts[u * n + d] = len(where)

    def static_links(self) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """(on_off, off_on) X+Y links of the chainer's fixed candidates, built once."""
        if self.links is None:
            self.links = Links(self.geo, self.masks).tables(True, True)
        return self.links

    def run(self, start: int) -> _Outcome:
        """The outcome of chaining from the potential *start* (cached)."""
        out = self.cache.get(start)
        if out is None:
            self.runs += 1
            if self.runs % 16 == 0:
                check_budget()
            out = self._resume(start) if self.base is not None else self._chain(start)
            self.cache[start] = out
        return out

    def _chain(self, start: int) -> _Outcome:
        """A run from *start*; a level-0 dynamic one notes where it stopped."""
        if self.c is not None:
            return self._c_chain(self.c, start)
        run = _Run(self, start)
        out = run.outcome()
        if self.dynamic and not self.level and out.absurd is None:
            self.ends[start] = (run.masks, run.counts)
        return out

    def _c_chain(self, c: _core.Chainer, start: int) -> _Outcome:
        """A level-0 run from *start* by the C core's chainer *c*: :meth:`_chain`, the same
        outcome."""
        r = c.run(start)
        out = _Outcome(
            _RunMap(r.index, r.anc_at, r.size_at),
            _RunMap(r.index, r.parents_at),
            r.absurd,
            causes=r.causes() if self.record and self.dynamic else None,
        )
        if self.dynamic and r.absurd is None:
            self.stopped[start] = r  # where it stopped: read by end_state when a level asks
        return out

    def end_state(self, start: int) -> tuple[list[int], list[int]]:
        """The candidates and counts where the dynamic run from *start* stopped (it found no
        contradiction)."""
        end = self.ends.get(start)
        if end is None:
            end = self.stopped[start].end()
            assert end is not None  # the C run stopped without a contradiction: it has an end
            self.ends[start] = end
        return end

    def _resume(self, start: int) -> _Outcome:
        """A nested run from *start*: the run of the base level (see :func:`_prev_level`),
        continued where it stopped."""
        assert self.base is not None
        first = self.base.run(start)
        if first.absurd is not None:
            return first  # never stuck before the contradiction: the nesting adds nothing
        masks, counts = self.base.end_state(start)
        run = _Run(self, start, (first, masks, counts))
        out = run.outcome()
        if out.absurd is None:
            self.ends[start] = (run.masks, run.counts)
        return out


class _Run:
    """One SE breadth-first chaining run from a potential: pending "on" potentials first, then
    one "off" potential at a time, until a potential is both on and off.

    A static run (fixed candidates) reads its links from the chainer's X+Y tables; a dynamic one
    derives them from a working copy of the candidates, removing each candidate that goes off
    (the removals it relied on join a link's parents), and when stuck at nesting level >= 1
    adds the removals of :func:`_advanced`. The innermost loops spell the potential encoding
    out (:mod:`sudokit.logic.chaining`): ``2 * (cell * n + d) + on``.
    """

    __slots__ = (
        "anc",
        "causes",
        "chainer",
        "counts",
        "masks",
        "nest_bits",
        "nested",
        "parents",
        "pend_off",
        "pend_on",
        "why",
    )

    def __init__(
        self,
        chainer: _Chainer,
        start: int,
        resume: tuple[_Outcome, list[int], list[int]] | None = None,
    ) -> None:
        """A run of *chainer* from *start*, or (*resume*) continuing a stopped level-0 run from
        it: its outcome and the candidates and counts where it stopped."""
        self.chainer = chainer
        dynamic = chainer.dynamic
        self.nested: dict[int, _Nest] | None = None
        self.nest_bits = 0
        self.pend_on: deque[int] = deque()
        self.pend_off: deque[int] = deque()
        self.causes: dict[int, int] | None
        # the words of the rule behind each removal of the in-chain rules (explaining only)
        self.why: dict[int, str] | None = {} if chainer.explain else None
        if resume is not None:
            first, masks, counts = resume
            self.masks, self.counts = list(masks), list(counts)
            self.anc, self.parents = dict(first.anc), dict(first.parents)
            self.causes = None if first.causes is None else dict(first.causes)
            self.nest_bits = first.nest_bits
            self.nested = None if first.nested is None else dict(first.nested)
            return
        self.masks = list(chainer.masks) if dynamic else chainer.masks
        self.counts = list(chainer.counts) if dynamic else chainer.counts
        self.anc = {start: 1 << start}
        self.parents = {start: ()}
        self.causes = {} if chainer.record and dynamic else None
        (self.pend_on if start & 1 else self.pend_off).append(start)

    def outcome(self) -> _Outcome:
        """Chain until a contradiction or until nothing is pending."""
        pend_on, pend_off = self.pend_on, self.pend_off
        level = self.chainer.level
        absurd: _Absurd | None = None
        if level and not pend_on and not pend_off:  # a resumed run: stuck where it stopped
            self._add_advanced()
        while absurd is None and (pend_on or pend_off):
            if pend_on:
                absurd = self._turn_off(pend_on.popleft())
            else:
                absurd = self._turn_on(pend_off.popleft())
            if absurd is None and level and not pend_on and not pend_off:
                self._add_advanced()
        return _Outcome(self.anc, self.parents, absurd, self.nest_bits, self.nested, self.causes)

    def _turn_off(self, p: int) -> _Absurd | None:
        """Add the "off" potentials the "on" potential *p* implies; the contradiction if one of
        them is already on."""
        anc, parents = self.anc, self.parents
        a = anc[p]
        for q in self._off_links(p):
            on = q | 1
            if on in anc:
                return ((on, anc[on]), (q, a | 1 << q), q, (p,))
            if q not in anc:
                anc[q] = a | 1 << q
                parents[q] = (p,)
                self.pend_off.append(q)
        return None

    def _turn_on(self, p: int) -> _Absurd | None:
        """Add the "on" potentials the "off" potential *p* implies (then, in a dynamic run on a
        shape with pair relations, the "off" potentials of the candidates that lose their last
        partner: :meth:`_unsupported`); the contradiction if one of them is already off (on)."""
        anc, parents = self.anc, self.parents
        absurd = self._turn_on_singles(p)
        if absurd is not None or not self.chainer.pair_y:
            return absurd
        for q, prs in self._unsupported(p):
            if q in anc:
                continue
            a = 1 << q
            for x in prs:
                a |= anc[x]
            on = q | 1
            if on in anc:
                return ((on, anc[on]), (q, a), q, prs)
            anc[q] = a
            parents[q] = prs
            self.pend_off.append(q)
        return None

    def _unsupported(self, p: int) -> list[tuple[int, tuple[int, ...]]]:
        """The candidates of the cells related to the cell of the "off" potential *p* (just
        removed) that no candidate left there allows (:mod:`.pairlinks`), as "off" potentials
        with their parents: *p*, then the other removed candidates that allowed them."""
        chainer = self.chainer
        geo = chainer.geo
        assert geo.pairs is not None
        n = geo.n
        masks = self.masks
        cell, d = divmod(p >> 1, n)
        left = masks[cell]
        start = chainer.masks[cell]
        out: list[tuple[int, tuple[int, ...]]] = []
        for b, ab, ba in geo.pairs.related[cell]:
            for e in bit_indices(masks[b] & ab[d]):
                partners = ba[e]
                if left & partners:
                    continue
                others = start & partners & ~(1 << d)
                prs = (p, *(2 * (cell * n + g) for g in bit_indices(others)))
                out.append((2 * (b * n + e), prs))
        return out

    def _turn_on_singles(self, p: int) -> _Absurd | None:
        """The "on" potentials of :meth:`_turn_on`: the singles."""
        anc, parents, causes = self.anc, self.parents, self.causes
        for r, prs, why in self._on_links(p):
            a = 1 << r
            for x in prs:
                a |= anc[x]
            off = r ^ 1
            if off in anc:
                if causes is not None:
                    causes.setdefault(r, why)
                return ((r, a), (off, anc[off]), r, prs)
            if r not in anc:
                anc[r] = a
                parents[r] = prs
                self.pend_on.append(r)
                if causes is not None:
                    causes[r] = why
        return None

    def _off_links(self, p: int) -> Sequence[int]:
        """The "off" potentials of the "on" potential *p*: the cell's other candidates (Y), then
        its digit in the peers holding it (X), SE's order."""
        chainer = self.chainer
        if not chainer.dynamic:
            return chainer.static_links()[0][p >> 1]
        n = chainer.geo.n
        masks = self.masks
        c = p >> 1
        cell, d = divmod(c, n)
        bit = 1 << d
        base = 2 * cell * n
        outs = [base + 2 * e for e in bit_indices(masks[cell] & ~bit)] if chainer.y else []
        outs += [q for o, q in chainer.peer_offs[c] if masks[o] & bit]
        if chainer.pair_y:  # the pair relations' weak links (:mod:`.pairlinks`)
            assert chainer.geo.pairs is not None
            for b, ab, _ in chainer.geo.pairs.related[cell]:
                for e in bit_indices(masks[b] & ~ab[d]):
                    q = 2 * (b * n + e)
                    if q not in outs:
                        outs.append(q)
        return outs

    def _on_links(self, p: int) -> list[_Derived]:
        """The "on" potentials the "off" potential *p* implies, with their parents and causes:
        the last candidate of its cell (Y), then the last place of its digit in each unit (X,
        SE's order). A dynamic run removes the candidate and counts the removals it relied on
        among the parents."""
        chainer = self.chainer
        if not chainer.dynamic:
            return [(r, (p,), -1) for r in chainer.static_links()[1][p >> 1]]
        n = chainer.geo.n
        masks = self.masks
        c = p >> 1
        cell, d = divmod(c, n)
        bit = 1 << d
        cm = masks[cell]
        ons: list[_Derived] = []
        if chainer.y and cm.bit_count() == 2:
            e = (cm & ~bit).bit_length() - 1
            gone = chainer.masks[cell] & ~cm
            prs = (p, *(2 * (cell * n + g) for g in bit_indices(gone)))
            ons.append((2 * (cell * n + e) + 1, prs, -1))
        counts, places = self.counts, chainer.places
        keys = chainer.unit_keys[c]
        for u, k in keys:
            if counts[k] != 2:
                continue
            where = places[k]
            for other in where:  # the other place still holding the digit
                if other != cell and masks[other] & bit:
                    break
            r = 2 * (other * n + d) + 1
            if ons and any(r == x for x, _, _ in ons):
                continue
            ons.append((r, (p, *(2 * (o * n + d) for o in where if not masks[o] & bit)), u))
        masks[cell] = cm & ~bit
        for _, k in keys:
            counts[k] -= 1
        return ons

    def _add_advanced(self) -> None:
        """When stuck: the removals of the in-chain rules (:func:`_advanced`) join the chain."""
        anc = self.anc
        names: list[str] | None = None if self.why is None else []
        found = _advanced(
            self.chainer.geo, self.chainer.masks, self.masks, self.chainer.level, names
        )
        for i, (q, prs, nest) in enumerate(found):
            if q in anc:
                continue
            if names is not None and self.why is not None:
                self.why[q] = names[i]
            a = 1 << q
            for x in prs:
                a |= anc[x]
            anc[q] = a
            self.parents[q] = prs
            self.pend_off.append(q)
            if nest is not None:
                if self.nested is None:
                    self.nested = {}
                self.nested[q] = nest
                self.nest_bits |= 1 << q


# The level-0 dynamic chainers of the latest candidate states (one for the rules tried on the
# path's state, a few for the states nested rules run on), shared by the nesting levels.
_LEVEL0: dict[tuple[int, bool, bool, tuple[int, ...]], _Chainer] = {}
_LEVEL0_KEEP = {False: 1, True: 4}  # per value of "record" (True: inside a chain)


def _level0_chainer(geo: Geometry, masks: Sequence[int], y: bool, record: bool) -> _Chainer:
    """The level-0 dynamic chainer of the state (*geo*, *masks*), kept for the rules that run
    on the same state after it (see :class:`_Chainer`)."""
    key = (id(geo), y, record, tuple(masks))
    chainer = _LEVEL0.get(key)
    if chainer is None or chainer.geo is not geo:
        same = [k for k in list(_LEVEL0) if k[2] == record]
        for old in same[: max(0, len(same) - _LEVEL0_KEEP[record] + 1)]:
            _LEVEL0.pop(old, None)
        chainer = _Chainer(geo, masks, y=y, dynamic=True, level=0, record=record)
        _LEVEL0[key] = chainer
    return chainer


def _prev_level(level: int) -> int:
    """The nesting level whose runs a dynamic run of *level* >= 1 continues: where that level's
    in-chain rules find something, *level*'s find the same (level 1 adds the basic rules to
    level 0; 2 and 4 add a chaining rule after them; 3 runs level 2's first and multiple
    forcing chains only where it finds nothing; 5 and up run level 4's first), so a run of
    *level* is the run of the base level until that one stops, then continues (exact: the
    continuation applies *level*'s rules again where the base stopped).

    >>> [_prev_level(k) for k in range(1, 7)]
    [0, 1, 2, 1, 4, 4]
    """
    if level == 1:
        return 0
    if level in (2, 4):
        return 1
    return 2 if level == 3 else 4


# The dynamic chainers of nesting levels >= 1 of the latest candidate state on the path (per
# level), kept for the higher levels that continue their runs (see _prev_level). A chainer's
# cache holds a run per potential (megabytes at 9x9), so the dict is bounded: one chainer per
# level, all of one state (a new state drops the others), and at most _LEVELS_KEEP of them,
# the oldest dropped first. Dropping one only costs its runs again: it is a cache.
_LEVELS: dict[tuple[int, bool, int, tuple[int, ...]], _Chainer] = {}
_LEVELS_KEEP = 5  # SE's nesting levels 1..5


def _level_chainer(geo: Geometry, masks: Sequence[int], y: bool, level: int) -> _Chainer:
    """The dynamic chainer of nesting *level* >= 1 for the path's state (*geo*, *masks*)."""
    key = (id(geo), y, level, tuple(masks))
    chainer = _LEVELS.get(key)
    if chainer is None or chainer.geo is not geo:
        for old in [k for k in _LEVELS if k[2] == level or k[3] != key[3]]:
            del _LEVELS[old]
        chainer = _Chainer(geo, masks, y=y, dynamic=True, level=level)  # may add its bases
        _LEVELS[key] = chainer
        while len(_LEVELS) > _LEVELS_KEEP:  # the newest (key) is last: never dropped here
            del _LEVELS[next(iter(_LEVELS))]
    return chainer


#: Per geometry (by id, kept alive with it): the C core's basic in-chain rules (None: none);
#: at most _INCHAIN_KEEP geometries, the oldest dropped first (a run over many jigsaw shapes
#: would otherwise keep every geometry it met alive).
_INCHAIN: dict[int, tuple[Geometry, _core.InChain | None]] = {}
_INCHAIN_KEEP = 32  # as many as chaining.geometry caches


def _c_rules(geo: Geometry) -> _core.InChain | None:
    """The C core's ``InChain`` of *geo* (:func:`~sudokit.logic.inchain.c_rules`, made once per
    geometry), or None without the core."""
    core = _native.core()
    if core is None:
        return None
    got = _INCHAIN.get(id(geo))
    if got is None or got[0] is not geo:
        got = _INCHAIN[id(geo)] = (geo, c_rules(core, geo))
        while len(_INCHAIN) > _INCHAIN_KEEP:  # the newest is last: never dropped here
            del _INCHAIN[next(iter(_INCHAIN))]
    return got[1]


def _basic(
    geo: Geometry, save: Sequence[int], masks: Sequence[int], names: list[str] | None = None
) -> Found:
    """What the first of :data:`~sudokit.logic.inchain.BASIC_RULES` that finds anything finds
    (see :func:`_advanced`): by the C core's ``InChain`` (csrc/sk_nest.c, the same removals in
    the same order with the same parents) when it is there, else by the Python rules, which
    the words of a step ask for (*names*: the pattern behind each removal, appended)."""
    rules = _c_rules(geo)
    if rules is not None:
        found: Found = rules.find(save, masks)
        if names is None or not found:
            return found
        # the rule that found it: the last one from which the C rules find the same; its
        # words from its Python twin, when that finds the same too (it does: tests/logic)
        last = max(
            k for k in range(len(BASIC_RULES)) if k == 0 or rules.find(save, masks, k) == found
        )
        why: list[str] = []
        if BASIC_RULES[last](geo, save, masks, why) == found:
            names += why
            return found
    for rule in BASIC_RULES:
        found = rule(geo, save, masks, names)
        if found:
            return found
    return []


def _advanced(
    geo: Geometry,
    save: Sequence[int],
    masks: Sequence[int],
    level: int,
    names: list[str] | None = None,
) -> _Removals:
    """SE's rules inside a dynamic chain of nesting *level* >= 1 when it is stuck: the removals
    that pointing/claiming, then hidden pairs, naked pairs, X-Wings, then (level >= 2) nested
    chaining rules (the first of these that finds any) make possible on the current candidates
    *masks* because of removals made by the chain (relative to *save*). Each comes with its
    parents, the chain's removals the pattern relies on, and the nested chain it came from
    (*names*, when given: the words of the rule behind each, appended in the same order)."""
    found: _Removals = []
    for q, prs in _basic(geo, save, masks, names):
        found.append((q, prs, None))
    if found:
        return found
    if level >= 2:
        return _nested(geo, save, masks, level, names)
    return []


# ---------------------------------------------------------------------------------------------
# Chaining rules nested inside a chain (levels >= 2)


def _link_cause(geo: Geometry, masks: Sequence[int], a: int, b: int) -> int:
    """Why potential *b* follows from *a* on the candidates *masks* (static links): -1 when both
    are in one cell, else the first unit of *a*'s cell (box, row, column, ...) holding *b*'s cell
    -- for an "off" *a*, the first such unit where the digit has exactly two places."""
    ca = cell_digit(geo.n, a)[0]
    cb, d = cell_digit(geo.n, b)
    if ca == cb:
        return -1
    bit = 1 << d
    for u in geo.unit_order[ca]:
        cells = geo.units[u]
        if cb in cells and (a & 1 or sum(1 for c in cells if masks[c] & bit) == 2):
            return u
    return -1


def _rule_parents(
    geo: Geometry, save: Sequence[int], masks: Sequence[int], ons: Iterator[tuple[int, int]]
) -> tuple[int, ...]:
    """SE's "rule parents" of a nested chain: for each of its "on" potentials (with its cause:
    -1 = last candidate of the cell, else the unit where it is the last place), the candidates
    of that cell (or of its digit in that unit) the outer chain removed (*save* -> *masks*)."""
    n = geo.n
    out: dict[int, None] = {}
    for r, cause in ons:
        cell, d = cell_digit(n, r)
        if cause < 0:
            for e in bit_indices(save[cell] & ~masks[cell]):
                out[off_potential(n, cell, e)] = None
        else:
            bit = 1 << d
            for c in geo.units[cause]:
                if save[c] & bit and not masks[c] & bit:
                    out[off_potential(n, c, d)] = None
    return tuple(out)


def _removable(
    n: int,
    masks: Sequence[int],
    placements: Sequence[tuple[int, int]],
    elims: Sequence[tuple[int, int]],
) -> tuple[int, ...]:
    """The "off" potentials of a hint's removable candidates (a placement removes the others)."""
    out = [off_potential(n, c, d - 1) for c, d in elims]
    for c, d in placements:
        out += [off_potential(n, c, e) for e in bit_indices(masks[c] & ~(1 << (d - 1)))]
    return tuple(sorted(set(out)))


def _nested_unary(geo: Geometry, save: Sequence[int], masks: Sequence[int]) -> _Removals:
    """SE's "Forcing Chains & Cycles" run inside a chain on the chain's candidates *masks*."""
    n = geo.n
    out: _Removals = []
    found = unary_all_c(geo, masks)
    if found is not None:
        for kind, cx, removable, path in found:
            line = [*path, path[0]] if kind == 0 else list(path)
            chains, ons = _unary_chains(geo, masks, kind == 0, line)
            out += _nest_removals(geo, save, masks, removable, chains, ons, cx)
        return out
    hints = [(_removable(n, masks, p, e), h, h.complexity) for h, (p, e) in unary_all(geo, masks)]
    return _first_removals(
        geo,
        save,
        masks,
        hints,
        lambda h: _unary_chains(geo, masks, h.kind == "cycle", hint_path(h)),
    )


def _first_removals(
    geo: Geometry,
    save: Sequence[int],
    masks: Sequence[int],
    found: Iterable[tuple[tuple[int, ...], _H, int]],
    chains_of: Callable[[_H], _Chains],
) -> _Removals:
    """The removals of the nested hints *found* (each with its removable potentials and its
    complexity), in order; of the hints that remove the same potentials only the first counts,
    and only its chains (and their "on" potentials) are made, by *chains_of*."""
    out: _Removals = []
    seen: set[tuple[int, ...]] = set()
    for removable, hint, complexity in found:
        if removable and removable not in seen:
            seen.add(removable)
            chains, ons = chains_of(hint)
            out += _nest_removals(geo, save, masks, removable, chains, ons, complexity)
    return out


def _nest_removals(
    geo: Geometry,
    save: Sequence[int],
    masks: Sequence[int],
    removable: tuple[int, ...],
    chains: tuple[tuple[int, ...], ...],
    ons: list[tuple[int, int]],
    complexity: int,
) -> _Removals:
    """The *removable* potentials of a nested hint (its *chains*, their "on" potentials *ons*
    with their causes, its *complexity*), each with the chain's removals the hint relies on
    (its rule parents) and the nested chain it came from; none when it relies on none."""
    prs = _rule_parents(geo, save, masks, iter(ons))
    if not prs:
        return []
    nest: _Nest = (_FullChain(chains), complexity)
    return [(q, prs, nest) for q in removable]


def _unary_chains(geo: Geometry, masks: Sequence[int], cycle: bool, path: list[int]) -> _Chains:
    """The chains of a forcing chain or cycle along *path* (its potentials from the assumption;
    a cycle's last is its first again), as SE's hint holds them, and their "on" potentials with
    their causes in SE's order (each chain's, target first). A forcing chain has one chain, its
    target's; a cycle has two: the loop back from its end (SE's ``dstOn``) and the loop read
    forwards with every potential negated (``dstOff``, whose "on" potentials are the loop's
    "off" ones, with their causes)."""
    k = len(path)
    cause = [-2] + [_link_cause(geo, masks, path[i - 1], path[i]) for i in range(1, k)]
    back = [(path[i], cause[i]) for i in range(k - 1, 0, -1)]
    ons = [(p, c) for p, c in back if p & 1]
    if not cycle:
        return ((*(p for p, _ in back), path[0]),), ons
    ons += [(path[i] ^ 1, cause[i]) for i in range(1, k - 1) if not path[i] & 1]
    return (tuple(p for p, _ in back), tuple(p ^ 1 for p in path[:-1])), ons


def _hint_chains(geo: Geometry, masks: Sequence[int], h: _Hint) -> _Chains:
    """The chains of a forcing-chain hint *h* found on the candidates *masks* (SE's
    ``getChainsTargets``, each read back breadth first: the contradiction's "on" and "off"
    potential, else the target as each branch reaches it), and the "on" potentials on them with
    their causes, in SE's order (what SE's ``getRuleParents`` walks)."""
    chains: list[tuple[int, ...]] = []
    ons: list[tuple[int, int]] = []
    for p, out in h.chains:
        if h.kind == "contradiction":
            assert out.absurd is not None
            (on, _), (off, _), new, prs = out.absurd
            targets = [on, off]
        else:
            targets = [h.target]
            new, prs = -1, ()
        parents = out.parents
        for t in targets:
            chain = _bfs_chain(t, parents, new, prs)
            chains.append(chain)
            for r in chain:
                if not r & 1:
                    continue
                if r == p and not parents.get(r, ()):
                    # the assumption: a cell / region forcing chain's branch is its last candidate
                    if h.kind == "cell":
                        ons.append((r, -1))
                    elif h.kind == "region":
                        ons.append((r, h.source))
                elif out.causes is not None and r in out.causes:
                    ons.append((r, out.causes[r]))
                else:
                    rp = prs if r == new else parents.get(r, ())
                    if rp:
                        ons.append((r, _link_cause(geo, masks, rp[0], r)))
    return tuple(chains), ons


def _nested_rule(geo: Geometry, save: Sequence[int], masks: Sequence[int], rank: int) -> _Removals:
    """SE's multiple or dynamic forcing chains (*rank*) run inside a chain on its *masks*."""
    n = geo.n
    out: _Removals = []
    chainer = _c_chainer(geo, masks, rank, True)
    shape = None if chainer is None or geo.pairs is not None else _c_rules(geo)
    if chainer is not None and shape is not None:  # sk_nest.c: the units' links only
        # the C core does all of what follows (csrc/sk_nest.c, sk_nest_rule)
        keys = tuple(_SORT_KEYS[k] for k in _KINDS)
        for cx, removable, prs, chains in chainer[1].nested(
            rank >= RANK_MULTIPLE, keys, save, shape
        ):
            nest: _Nest = (_FullChain(chains), cx)
            out += [(q, prs, nest) for q in removable]
        return out
    hints = _collect(geo, masks, rank, record=True)
    hints.sort(key=_Hint.order)

    def removes(h: _Hint) -> tuple[int, ...]:
        if not h.target & 1:  # an "off" conclusion removes its own candidate
            return (h.target,)
        cell, d = cell_digit(n, h.target)
        return _removable(n, masks, [(cell, d + 1)], [])

    return _first_removals(
        geo,
        save,
        masks,
        [(removes(h), h, h.complexity) for h in hints],
        lambda h: _hint_chains(geo, masks, h),
    )


def _nested(
    geo: Geometry,
    save: Sequence[int],
    masks: Sequence[int],
    level: int,
    names: list[str] | None = None,
) -> _Removals:
    """The chaining rules SE nests at *level* (2: forcing chains & cycles; 3: also multiple
    forcing chains; 4: dynamic forcing chains; 5+: also dynamic forcing chains of level - 3),
    the first that finds anything (*names*: the rule's name per removal, appended)."""
    check_budget()
    if level < 4:
        found = _nested_unary(geo, save, masks)
        rule = "Forcing Chains & Cycles"
        if not found and level >= 3:
            found = _nested_rule(geo, save, masks, RANK_MULTIPLE)
            rule = "Multiple Forcing Chains"
    else:
        found = _nested_rule(geo, save, masks, RANK_DYNAMIC)
        rule = "Dynamic Forcing Chains"
        if not found and level >= 5:
            found = _nested_rule(geo, save, masks, RANK_DYNAMIC + level - 3)
            rule += _suffix(level - 3)
    if names is not None:
        names += [f"a nested {rule}"] * len(found)
    return found


# ---------------------------------------------------------------------------------------------
# Hints


@dataclass(slots=True, eq=False)
class _Hint:
    """A hint of a forcing-chain rule as the search found it, ordered as SE orders hints
    (:meth:`order`, as :class:`RankedHint`). A search record, not a value: its branches'
    outcomes are the runs' own tables (shared with the chainer's cache), so it is not a
    frozen ``_Record``; nothing changes it after it is made."""

    rating: float
    complexity: int
    sort_key: int
    seq: int
    kind: str
    target: int  # the concluded potential (on: placed, off: removed)
    source: int  # the assumption (contradiction/double), the cell or the unit
    digit: int  # region: the digit; else 0
    chains: tuple[tuple[int, _Outcome], ...]  # (assumption, outcome) per branch

    def order(self) -> tuple[float, int, int, int]:
        """SE's sort key (:meth:`RankedHint.order`): the easiest hint, then the simplest."""
        return (self.rating, self.complexity, self.sort_key, self.seq)


def _base(rank: int) -> float:
    """SE's base rating of chaining rule *rank*: 7.5, 8.0, 8.5, then 9.0 + 0.5 per nesting level.

    >>> [_base(r) for r in range(RANK_NISHIO, RANK_DYNAMIC + 6)]
    [7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0]
    """
    if rank == RANK_NISHIO:
        return 7.5
    if rank == RANK_MULTIPLE:
        return 8.0
    return 8.5 + 0.5 * (rank - RANK_DYNAMIC)


def _suffix(level: int) -> str:
    """SE's name suffix of a dynamic forcing chain of nesting *level*.

    >>> _suffix(1), _suffix(2), _suffix(5)
    (' (+)', ' (+ Forcing Chains)', ' (+ Dynamic Forcing Chains (+ Forcing Chains))')
    """
    if level <= 0:
        return ""
    if level == 1:
        return " (+)"
    if level == 2:
        return " (+ Forcing Chains)"
    if level == 3:
        return " (+ Multiple Forcing Chains)"
    if level == 4:
        return " (+ Dynamic Forcing Chains)"
    return " (+ Dynamic Forcing Chains" + _suffix(level - 3) + ")"


def _nest_cx(branches: Sequence[tuple[_Outcome, int]]) -> int:
    """SE's nested complexity of a hint: the complexity of each distinct nested chain among the
    ancestors (*bits*) of the hint's targets in each branch."""
    total = 0
    seen: set[object] = set()
    for out, bits in branches:
        for q in bit_indices(out.nest_bits & bits):
            assert out.nested is not None
            key, cx = out.nested[q]
            if key not in seen:
                seen.add(key)
                total += cx
    return total


class _Hints:
    """The hints of one SE chaining rule on one candidate state, in discovery order, with SE's
    rating: the rule's *base* plus the length bonus on the hint's complexity (the potentials
    of its chains, plus, when *nesting*, each distinct nested chain's complexity)."""

    def __init__(self, base: float, nesting: bool) -> None:
        self.base = base
        self.nesting = nesting
        self.found: list[_Hint] = []

    def add(
        self,
        kind: str,
        target: int,
        source: int,
        chains: tuple[tuple[int, _Outcome], ...],
        cx: int,
        nests: Callable[[], Sequence[tuple[_Outcome, int]]],
        digit: int = 0,
    ) -> None:
        """Add a hint concluding *target*; *cx*: the sizes of its chains' ancestor sets (its
        complexity before nesting); *nests*: (branch outcome, ancestor set) whose nested
        chains add to it (asked for only when nesting)."""
        if self.nesting:
            cx += _nest_cx(nests())
        rating = se_rating(self.base, cx)
        sort_key = _SORT_KEYS[kind]
        self.found.append(
            _Hint(rating, cx, sort_key, len(self.found), kind, target, source, digit, chains)
        )

    def contradiction(self, src: int, out: _Outcome) -> None:
        """The assumption *src* led to a contradiction (*out*): its opposite holds."""
        if out.absurd is not None:
            (_, on_bits), (_, off_bits), _, _ = out.absurd
            self.add(
                "contradiction",
                src ^ 1,
                src,
                ((src, out),),
                on_bits.bit_count() + off_bits.bit_count(),
                lambda: ((out, on_bits | off_bits),),
            )

    def doubles(self, p_on: int, on_out: _Outcome, off_out: _Outcome) -> None:
        """What both *p_on* and its opposite imply ("on" conclusions first)."""
        on_anc, off_anc = on_out.anc, off_out.anc
        on_keys, off_keys = on_anc.keys(), off_anc.keys()
        pair = ((p_on, on_out), (p_on ^ 1, off_out))
        for want in (1, 0):
            for q in on_keys:
                if q & 1 == want and q in off_keys:
                    cx = _anc_size(on_anc, q) + _anc_size(off_anc, q)
                    self.add("double", q, p_on, pair, cx, _nests(pair, q))

    def common(
        self, kind: str, source: int, branches: tuple[tuple[int, _Outcome], ...], digit: int = 0
    ) -> None:
        """What every branch (a cell's candidates, a digit's places in a unit) implies, "on"
        conclusions first, in the first branch's order."""
        shared = list(branches[0][1].anc)
        for _, out in branches[1:]:
            keys = out.anc.keys()
            shared = [q for q in shared if q in keys]
        for q in [q for q in shared if q & 1] + [q for q in shared if not q & 1]:
            cx = sum(_anc_size(out.anc, q) for _, out in branches)
            self.add(kind, q, source, branches, cx, _nests(branches, q), digit)


def _anc_size(anc: Mapping[int, int], q: int) -> int:
    """The number of potentials in the ancestor set of *q* (counted in C for a C run)."""
    return anc.size(q) if type(anc) is _RunMap else anc[q].bit_count()


def _nests(
    branches: tuple[tuple[int, _Outcome], ...], q: int
) -> Callable[[], list[tuple[_Outcome, int]]]:
    """(branch outcome, ancestor set of *q* in it) per branch, when asked for."""
    return lambda: [(out, out.anc[q]) for _, out in branches]


#: SE's sort order of the hint kinds at equal rating and complexity.
_SORT_KEYS = {"double": 1, "cell": 5, "region": 6, "contradiction": 7}


def _rule_chainer(geo: Geometry, masks: Sequence[int], rank: int, record: bool) -> _Chainer:
    """The chainer of SE rule *rank* on the candidates *masks*: Nishio follows one digit's
    links, dynamic ones remember removals, nesting levels continue the runs of their base
    level on the same state (kept for the path's state unless *record*)."""
    if rank == RANK_DYNAMIC:
        return _level0_chainer(geo, masks, True, record)
    nishio = rank == RANK_NISHIO
    dynamic = rank >= RANK_DYNAMIC or nishio
    level = rank - RANK_DYNAMIC if rank > RANK_DYNAMIC else 0
    if level and not record:
        return _level_chainer(geo, masks, True, level)
    return _Chainer(geo, masks, y=not nishio, dynamic=dynamic, level=level, record=record)


#: The hint kinds as the C core numbers them (``Chainer.best``).
_KINDS = ("double", "cell", "region", "contradiction")


def _c_chainer(
    geo: Geometry, masks: Sequence[int], rank: int, record: bool
) -> tuple[_Chainer, _core.Chainer] | None:
    """The chainer of level-0 rule *rank* (:func:`_rule_chainer`) and the C core's that does
    its runs (Nishio, multiple, dynamic; grids up to 16x16), else None."""
    if rank > RANK_DYNAMIC or geo.n > _C_MAX_N:
        return None
    chainer = _rule_chainer(geo, masks, rank, record)
    return None if chainer.c is None else (chainer, chainer.c)


def _c_choice(geo: Geometry, masks: Sequence[int], rank: int) -> list[_Hint] | None:
    """SE's choice among the hints :func:`_collect` would find for level-0 rule *rank*
    (Nishio, multiple, dynamic), made by the C core (``Chainer.best``, csrc/sk_chain.c: the
    same runs, the same discovery order, the same intersections, only (rating, complexity,
    kind, discovery) kept per hint); only the chosen hint's branches are read back here.
    None when the C core does not do this rule on this grid."""
    chainers = _c_chainer(geo, masks, rank, False)
    if chainers is None:
        return None
    chainer, c = chainers
    check_budget()
    keys = tuple(_SORT_KEYS[k] for k in _KINDS)
    base = _base(rank)
    found = c.best(
        rank == RANK_NISHIO, rank >= RANK_MULTIPLE, round(base * 10), LENGTH_BONUS_THRESHOLDS, keys
    )
    return [] if found is None else [_c_hint(geo, chainer, base, found)]


def _c_hint(
    geo: Geometry, chainer: _Chainer, base: float, found: tuple[int, int, int, int, int, int]
) -> _Hint:
    """The hint the C core reported as (kind, target, source, digit, complexity, discovery
    index), its branches read back through the chainer's runs."""
    masks = chainer.masks
    code, target, source, digit, cx, seq = found
    kind = _KINDS[code]
    n = geo.n
    if kind == "contradiction":
        starts = [source]
    elif kind == "double":
        starts = [source, source ^ 1]
    elif kind == "cell":
        starts = [on_potential(n, source, d) for d in bit_indices(masks[source])]
    else:
        bit = 1 << (digit - 1)
        places = [c for c in geo.units[source] if masks[c] & bit]
        starts = [on_potential(n, c, digit - 1) for c in places]
    chains = tuple((p, chainer.run(p)) for p in starts)
    rating = se_rating(base, cx)
    return _Hint(rating, cx, _SORT_KEYS[kind], seq, kind, target, source, digit, chains)


def _collect(
    geo: Geometry, masks: Sequence[int], rank: int, *, record: bool = False
) -> list[_Hint]:
    """Every hint of SE rule *rank* on the candidates *masks*, in SE's discovery order
    (*record*: keep why each "on" potential holds, for a rule run nested in a chain).

    SE's order: cell by cell, digit by digit, the contradictions of assuming the candidate on
    and off and the double chains (dynamic rules), the region chains of its digit in the units
    where it is the first place (not Nishio), then the cell chains of the cell."""
    n = geo.n
    nishio = rank == RANK_NISHIO
    dynamic = rank >= RANK_DYNAMIC or nishio
    multiple = rank >= RANK_MULTIPLE
    level = rank - RANK_DYNAMIC if rank > RANK_DYNAMIC else 0
    chainer = _rule_chainer(geo, masks, rank, record)
    hints = _Hints(_base(rank), level >= 2)
    for cell in range(geo.ncells):
        card = masks[cell].bit_count()
        if not (card > 2 or (card > 1 and dynamic)):
            continue
        value_on: list[tuple[int, _Outcome]] = []
        for d in bit_indices(masks[cell]):
            p_on = on_potential(n, cell, d)
            on_out = chainer.run(p_on)
            if dynamic:
                off_out = chainer.run(p_on ^ 1)
                hints.contradiction(p_on, on_out)
                hints.contradiction(p_on ^ 1, off_out)
                if card >= 3 and not nishio:
                    hints.doubles(p_on, on_out, off_out)
            if not nishio:
                _regions(geo, chainer, hints, cell, d, on_out, multiple)
            value_on.append((p_on, on_out))
        if not nishio and (card == 2 or multiple):
            hints.common("cell", cell, tuple(value_on))
    return hints.found


def _regions(
    geo: Geometry,
    chainer: _Chainer,
    hints: _Hints,
    cell: int,
    d: int,
    on_out: _Outcome,
    multiple: bool,
) -> None:
    """SE's region forcing chains for digit *d* in the units of *cell* (when *cell* is the
    first place of the digit in the unit; *on_out*: the outcome of *cell* holding *d*)."""
    bit = 1 << d
    masks = chainer.masks
    for u in geo.unit_order[cell]:
        where = [c for c in geo.units[u] if masks[c] & bit]
        if not (len(where) == 2 or (multiple and len(where) > 2)) or where[0] != cell:
            continue
        branches = [(on_potential(geo.n, other, d), on_out) for other in where[:1]]
        branches += [(p, chainer.run(p)) for p in (on_potential(geo.n, o, d) for o in where[1:])]
        hints.common("region", u, tuple(branches), d + 1)


def _effect(cg: CandidateGrid, n: int, h: _Hint) -> Effect | None:
    """(placements, eliminations) of a hint on the current grid; None when it changes nothing."""
    cell, d = cell_digit(n, h.target)
    if h.target & 1:
        if cg.masks[cell] & ~(1 << d) == 0:
            return None
        return ((cell, d + 1),), ()
    if not cg.masks[cell] >> d & 1:
        return None
    return (), ((cell, d + 1),)


def _main_line(out: _Outcome, target: int) -> list[int]:
    """The potentials from the assumption to *target*, following first parents."""
    seq: list[int] = []
    cur: int | None = target
    while cur is not None and len(seq) < 4096:
        seq.append(cur)
        prs = out.parents.get(cur, ())
        cur = prs[0] if prs else None
    seq.reverse()
    return seq


# One line of a step's words: the potentials a conclusion rests on, each after all of its
# parents, as (potential, its parents) pairs (see :func:`_written`).
_Line = tuple[tuple[int, tuple[int, ...]], ...]


def _written(
    parents: Mapping[int, tuple[int, ...]],
    target: int,
    new: int = -1,
    new_parents: tuple[int, ...] = (),
) -> _Line:
    """Every potential *target* rests on (its parents, theirs, ...: *new*, not in *parents*,
    has *new_parents*), each once and after all of its parents, with its parents: the order a
    text writes them in. A potential's other parents come before its first one, so that the
    first one is written just before it and the line of first parents reads straight on.

    >>> _written({1: (), 2: (1,), 3: (1,), 4: (2, 3)}, 4)
    ((1, ()), (3, (1,)), (2, (1,)), (4, (2, 3)))
    """
    out: list[tuple[int, tuple[int, ...]]] = []
    seen: set[int] = set()
    stack: list[tuple[int, bool]] = [(target, False)]
    while stack:
        q, done = stack.pop()
        prs = new_parents if q == new else parents[q]
        if done:
            out.append((q, prs))
            continue
        if q in seen:
            continue
        seen.add(q)
        stack.append((q, True))
        if prs:
            stack.append((prs[0], False))
            stack += [(x, False) for x in reversed(prs[1:]) if x not in seen]
    return tuple(out)


def _made_in_chain(q: int, prs: tuple[int, ...]) -> bool:
    """True when the removal *q* (with parents *prs*) was made by a rule inside the chain
    ("(+)": an in-chain rule or a nested chain, whose parents are the chain's removals), not by
    a link (an "off" potential follows from an "on" one)."""
    return not q & 1 and bool(prs) and not prs[0] & 1


def _line_text(
    n: int, line: _Line, why: Mapping[int, str] | None, geo: Geometry | None = None
) -> str:
    """The words of *line*: runs of links ``a -> b -> c``, a run broken (``;``) where a
    potential's first parent is not the one written before it; a link with several parents
    names the others (``(with ...)``), a removal made inside the chain the rule that made it
    (``[...]``, from *why*: its words per potential, None when unknown), a link a pair relation
    of *geo* made the rule's words (``r1c2<>4 (white dot)``, :func:`_pair_words`).

    >>> on, off = on_potential, off_potential
    >>> parents = {on(9, 63, 0): (), off(9, 73, 0): (on(9, 63, 0),), off(9, 74, 0): (on(9, 63, 0),),
    ...            on(9, 78, 0): (off(9, 74, 0), off(9, 73, 0)), off(9, 6, 0): (on(9, 78, 0),)}
    >>> _line_text(9, _written(parents, off(9, 6, 0)), None)
    'r8c1=1 -> r9c2<>1; r8c1=1 -> r9c3<>1 -> r9c7=1 (with r9c2<>1) -> r1c7<>1'
    """
    runs: list[list[str]] = []
    prev = -1
    for q, prs in line:
        if not prs:
            runs.append([potential_name(n, q)])
            prev = q
            continue
        word = potential_name(n, q)
        rule = None if why is None else why.get(q)
        label = _pair_words(geo, q, prs) if geo is not None and rule is None else None
        if label is not None:
            word += f" ({label})"
        if len(prs) > 1:
            word += " (with " + ", ".join(potential_name(n, x) for x in prs[1:]) + ")"
        if _made_in_chain(q, prs) and label is None:
            word += f" [{rule or 'a rule inside the chain'}]"
        if prs[0] == prev and runs:
            runs[-1].append(word)
        else:
            runs.append([potential_name(n, prs[0]), word])
        prev = q
    return "; ".join(" -> ".join(run) for run in runs)


def _pair_words(geo: Geometry, q: int, prs: tuple[int, ...]) -> str | None:
    """The words of the pair rule that made potential *q* from its parents *prs* (None when
    none did): an "on" parent's weak link, an "off" parent's strong link (static tables), or
    the loss of support (every parent an "off" potential of one related cell, each a partner
    of *q*: what :meth:`_Run._unsupported` derives)."""
    if geo.pairs is None or not prs:
        return None
    label = pair_label(geo, prs[0], q)
    if label is None or prs[0] & 1 or q & 1:  # a weak or a strong link
        return label
    n = geo.n
    cb, e = cell_digit(n, q)
    ca = cell_digit(n, prs[0])[0]
    ba = next(t for b, t, _ in geo.pairs.related[cb] if b == ca)
    for x in prs:
        cx, g = cell_digit(n, x)
        if x & 1 or cx != ca or not ba[e] >> g & 1:
            return None
    return label


def _rule_names(
    geo: Geometry, masks: tuple[int, ...], level: int, start: int, lines: Sequence[_Line]
) -> dict[int, str] | None:
    """The words of the rule behind each removal made inside the chain from *start* (SE's
    dynamic chain of nesting *level* >= 1 on the candidates *masks*), found by running that
    chain again in Python, naming its rules; None unless that run reaches every potential of
    *lines* with the same parents (it does: the runs are the same, tests/logic holds it)."""
    chainer = _Chainer(geo, masks, y=True, dynamic=True, level=level, explain=True)
    run = _Run(chainer, start)
    with chain_budget(0.0):  # words are not bounded by a search's budget, spent or not
        out = run.outcome()
    parents = out.parents
    for line in lines:
        for q, prs in line:
            if _made_in_chain(q, prs) and parents.get(q) != prs:
                return None
    return run.why


def _links(n: int, h: _Hint) -> tuple[tuple[int, int, int, int, bool], ...]:
    """Drawing links of the main line of every branch (off -> on links are strong)."""
    lines: list[list[int]] = []
    if h.kind == "contradiction":
        out = h.chains[0][1]
        assert out.absurd is not None
        (on, _), (off, _), new, prs = out.absurd
        lines = [_main_line(out, off if new == on else on), [*_main_line(out, prs[0]), new]]
    else:
        lines = [_main_line(out, h.target) for _, out in h.chains]
    links: dict[tuple[int, int, int, int, bool], None] = {}
    for line in lines:
        links.update(dict.fromkeys(path_links(n, line)))
    return tuple(links)


def _describe(cg: CandidateGrid, rank: int, h: _Hint, effect: Effect) -> Step:
    """The step of hint *h* of SE rule *rank* with its *effect* (placements, eliminations)."""
    placements, elims = effect
    shape = cg.shape
    n = shape.n
    prefix = "Dynamic " if rank >= RANK_DYNAMIC else ""
    conclusion = conclusion_text(shape, effect)
    if rank == RANK_NISHIO:
        name = "Nishio Forcing Chain"
    elif h.kind == "contradiction":
        name = prefix + "Contradiction Forcing Chain"
    elif h.kind == "double":
        name = prefix + "Double Forcing Chain"
    elif h.kind == "cell":
        name = prefix + "Cell Forcing Chains"
    else:
        name = prefix + "Region Forcing Chains"
    name += _suffix(rank - RANK_DYNAMIC)
    branches: list[tuple[int, tuple[_Line, ...]]] = []
    if h.kind == "contradiction":
        p, out = h.chains[0]
        assert out.absurd is not None
        (on, _), (off, _), new, prs = out.absurd
        stored = off if new == on else on
        lines = (_written(out.parents, stored), _written(out.parents, new, new, prs))
        branches.append((p, lines))
        intro = (
            f"{name}: assuming {potential_name(n, h.source)} leads to a contradiction, "
            f"so {conclusion}. Then {potential_name(n, on)} would be both true and false:"
        )
    else:
        for p, out in h.chains:
            branches.append((p, (_written(out.parents, h.target),)))
        if h.kind == "double":
            what = f"both {potential_name(n, h.source)} and its opposite lead to"
        elif h.kind == "cell":
            what = f"every candidate of {shape.cell_name(h.source)} leads to"
        else:
            place = f"{digit_name(shape, h.digit)} in {shape.unit_name(h.source)}"
            what = f"every place of {place} leads to"
        intro = f"{name}: {what} {potential_name(n, h.target)}, so {conclusion}."
    level = rank - RANK_DYNAMIC
    masks = tuple(cg.masks) if level >= 1 else ()
    text = deferred_text(_chains_text, shape, level, masks, h.kind, intro, tuple(branches))
    assumptions = [cell_digit(n, p) for p, _ in h.chains]
    cells = tuple(dict.fromkeys(c for c, _ in assumptions))
    return Step(
        name,
        h.rating,
        placements=placements,
        eliminations=elims,
        text=text,
        cells=cells + tuple(c for c, _ in placements + elims if c not in cells),
        highlights=tuple((c, d + 1) for c, d in assumptions),
        links=_links(n, h),
        size=n,
    )


def _chains_text(
    shape: Shape,
    level: int,
    masks: tuple[int, ...],
    kind: str,
    intro: str,
    branches: tuple[tuple[int, tuple[_Line, ...]], ...],
) -> str:
    """The words of a forcing-chain step: *intro*, then each branch (an assumption and the
    lines of what it implies; a contradiction's one assumption has two) on a line of its own.
    The removals made inside a chain (nesting *level* >= 1, on the candidates *masks*) name
    their rules, found by running the branch again (:func:`_rule_names`)."""
    n = shape.n
    geo = geometry(shape)
    out = [intro]
    for p, lines in branches:
        why = None
        if level >= 1 and any(_made_in_chain(q, prs) for line in lines for q, prs in line):
            why = _rule_names(geo, masks, level, p, lines)
        for line in lines:
            body = _line_text(n, line, why, geo)
            out.append(
                f"{body}." if kind == "contradiction" else f"If {potential_name(n, p)}: {body}."
            )
    return "\n".join(out)


def forcing_hints(cg: CandidateGrid, rank: int, *, exhaustive: bool = False) -> list[Step]:
    """The hints of SE rule *rank* (``RANK_NISHIO`` .. ``RANK_DYNAMIC_PLUS``) on *cg*, easiest
    first (SE's order: rating, complexity, kind, discovery); only SE's choice unless
    *exhaustive*. Hints with the same effect are listed once."""
    geo = geometry(cg.shape)
    choice = None if exhaustive else _c_choice(geo, cg.masks, rank)
    hints = _collect(geo, cg.masks, rank) if choice is None else choice
    hints.sort(key=_Hint.order)
    n = cg.shape.n
    out: list[Step] = []
    seen: set[object] = set()
    for h in hints:
        eff = _effect(cg, n, h)
        if eff is None or eff in seen:
            continue
        seen.add(eff)
        out.append(_describe(cg, rank, h, eff))
        if not exhaustive:
            break
    return out


def _finder(cg: CandidateGrid, rank: int) -> Iterator[Step]:
    if earlier_rule_found(cg, rank):
        return
    steps = forcing_hints(cg, rank)
    if steps:
        note_rule_found(cg, rank)
    yield from steps


def nishio_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for SE's Nishio forcing chains (7.5 + length bonus): assuming a candidate true
    (or false) and following only its digit's links, with removals remembered, leads to a
    contradiction."""
    return _finder(cg, RANK_NISHIO)


def multiple_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for SE's multiple forcing chains (8.0 + length bonus): every candidate of a cell
    (with >= 3 candidates) or every place of a digit in a unit implies the same conclusion."""
    return _finder(cg, RANK_MULTIPLE)


def dynamic_forcing_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for SE's dynamic forcing chains (8.5 + length bonus): contradiction, double, cell
    and region forcing chains where removals made along a chain are remembered."""
    return _finder(cg, RANK_DYNAMIC)


def dynamic_forcing_chains_plus(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for SE's dynamic forcing chains (+) (9.0 + length bonus): dynamic chains that,
    when stuck, also use pointing/claiming, pairs and X-Wings inside the chain."""
    return _finder(cg, RANK_DYNAMIC_PLUS)


def nested_forcing_chains(level: int) -> Callable[[CandidateGrid], Iterator[Step]]:
    """Finder for SE's dynamic forcing chains of nesting *level* (2..5: 9.5, 10.0, 10.5, 11.0
    + length bonus): when a dynamic chain is stuck it also applies, on the candidates the chain
    has removed so far, the basic rules of "(+)" and then whole chaining rules -- forcing chains
    and cycles (level 2), multiple forcing chains (3), dynamic forcing chains (4), dynamic
    forcing chains of level ``level - 3`` (5 and up). The nested chains' complexity adds to the
    hint's. Very slow in pure Python: bound it with :func:`~sudokit.logic.chains.chain_budget`.

    >>> nested_forcing_chains(2).__name__
    'dynamic_forcing_chains_nested_2'
    """
    if level < 2:
        raise ValueError("nesting levels start at 2")
    return named_finder(
        f"dynamic_forcing_chains_nested_{level}", None, _finder, RANK_DYNAMIC + level
    )


#: SE's nested forcing chains as (technique name, base rating, finder), easiest first. They are
#: not in the default registry: pure Python needs seconds to minutes per step at these levels.
NESTED_RULES: tuple[tuple[str, float, Callable[[CandidateGrid], Iterator[Step]]], ...] = tuple(
    (
        f"Dynamic Forcing Chains{_suffix(level)}",
        _base(RANK_DYNAMIC + level),
        nested_forcing_chains(level),
    )
    for level in (2, 3, 4, 5)
)
