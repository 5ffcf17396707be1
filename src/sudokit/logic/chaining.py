"""What every chaining rule shares: the potential encoding, per-shape tables, static links,
hint ranking, the time budget and SE's rule order (layer 2).

The chaining rules (:mod:`~sudokit.logic.cycles`, :mod:`~sudokit.logic.forcing`,
:mod:`~sudokit.logic.chains`) reason about *potentials*: a candidate assumed true ("on") or
false ("off"). The encoding, used as plain ints so that sets of potentials are bit sets:

* a candidate is ``c = cell * n + d`` (``d`` = digit - 1): :func:`candidate`;
* a potential is ``p = 2 * c + on``: :func:`on_potential`, :func:`off_potential`;
  ``p ^ 1`` is its conjugate, ``p & 1`` says whether it is "on", ``p >> 1`` is its candidate;
  :func:`cell_digit` reads the cell and the 0-based digit back;
* a set of potentials is an int with bit ``p`` set for each member (:data:`ON_MASK` selects
  the "on" ones), read with :func:`sudokit.logic._bits.bit_indices`.

The innermost loops of the chainers spell the arithmetic out (a function call per link costs
more than the link); everywhere else goes through these names.

>>> n = 9
>>> p = on_potential(n, 10, 4)            # r2c2 is 5
>>> potential_name(n, p), potential_name(n, p ^ 1), cell_digit(n, p)
('r2c2=5', 'r2c2<>5', (10, 4))
"""

from __future__ import annotations

import itertools
import time
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from functools import lru_cache

from .._record import _Record
from ..errors import BudgetExceededError
from ..shape import Shape
from ._bits import bit_indices
from ._names import digit_name
from .candidates import CandidateGrid
from .pairlinks import PairLinks, pair_links
from .step import Step, chain_length_bonus

__all__ = [
    "Effect",
    "Geometry",
    "Links",
    "RankedHint",
    "c_relations",
    "candidate",
    "cell_digit",
    "chain_budget",
    "check_budget",
    "conclusion_text",
    "earlier_rule_found",
    "geometry",
    "note_rule_found",
    "off_potential",
    "on_mask",
    "on_potential",
    "pair_label",
    "path_candidates",
    "path_cells",
    "path_links",
    "path_names",
    "potential_name",
    "se_rating",
]

# ---------------------------------------------------------------------------------------------
# The potential encoding


def candidate(n: int, cell: int, d: int) -> int:
    """The candidate number of 0-based digit *d* in *cell* on a grid of size *n*.

    >>> candidate(9, 1, 0), candidate(9, 80, 8)
    (9, 728)
    """
    return cell * n + d


def on_potential(n: int, cell: int, d: int) -> int:
    """The potential "*cell* holds 0-based digit *d*".

    >>> on_potential(9, 0, 0), on_potential(9, 0, 1)
    (1, 3)
    """
    return 2 * (cell * n + d) + 1


def off_potential(n: int, cell: int, d: int) -> int:
    """The potential "*cell* does not hold 0-based digit *d*" (the conjugate of the "on" one).

    >>> off_potential(9, 0, 1) == on_potential(9, 0, 1) ^ 1
    True
    """
    return 2 * (cell * n + d)


def cell_digit(n: int, p: int) -> tuple[int, int]:
    """The cell and the 0-based digit of potential *p*.

    >>> cell_digit(9, off_potential(9, 40, 6))
    (40, 6)
    """
    return divmod(p >> 1, n)


@lru_cache(maxsize=8)
def on_mask(ncandidates: int) -> int:
    """The bit set of the "on" potentials (the odd bits) of *ncandidates* candidates.

    >>> bin(on_mask(3))
    '0b101010'
    """
    return 2 * ((1 << (2 * ncandidates)) - 1) // 3


def potential_name(n: int, p: int) -> str:
    """``r1c2=5`` for an "on" potential, ``r1c2<>5`` for an "off" one (1-based).

    >>> potential_name(9, 2 * (10 * 9 + 4) + 1), potential_name(9, 2 * 4)
    ('r2c2=5', 'r1c1<>5')
    """
    cell, d = cell_digit(n, p)
    r, col = divmod(cell, n)
    return f"r{r + 1}c{col + 1}{'=' if p & 1 else '<>'}{digit_name(n, d + 1)}"


def path_links(n: int, path: Sequence[int]) -> list[tuple[int, int, int, int, bool]]:
    """The drawing links (cell, digit, cell, digit, strong) between consecutive potentials of
    *path* on a grid of size *n*; a link from an "off" potential to an "on" one is strong.

    >>> path_links(9, [2 * 0 + 1, 2 * 9, 2 * (9 * 9) + 1])   # r1c1=1 -> r1c2<>1 -> r2c1=1
    [(0, 1, 1, 1, False), (1, 1, 9, 1, True)]
    """
    out = []
    for a, b in itertools.pairwise(path):
        ca, da = cell_digit(n, a)
        cb, db = cell_digit(n, b)
        out.append((ca, da + 1, cb, db + 1, not a & 1))
    return out


def path_cells(n: int, path: Sequence[int]) -> tuple[int, ...]:
    """The cells of the potentials of *path*, in order, each once.

    >>> path_cells(9, [1, 3, 2 * 9 + 1])
    (0, 1)
    """
    return tuple(dict.fromkeys(cell_digit(n, p)[0] for p in path))


def path_candidates(n: int, path: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The (cell, digit) candidates of the potentials of *path*, in order, each once.

    >>> path_candidates(9, [1, 0, 3])
    ((0, 1), (0, 2))
    """
    return tuple(dict.fromkeys((cell, d + 1) for cell, d in (cell_digit(n, p) for p in path)))


def path_step(
    name: str,
    rating: float,
    n: int,
    path: Sequence[int],
    text: str,
    placements: tuple[tuple[int, int], ...] = (),
    eliminations: tuple[tuple[int, int], ...] = (),
) -> Step:
    """The step of a hint that one chain *path* on a grid of size *n* justifies, drawn as that
    path: its cells, its candidates and the links between them.

    >>> path_step("X-Chain", 6.5, 9, [1, 2 * 9], "", eliminations=((2, 1),)).links
    ((0, 1, 1, 1, False),)
    """
    return Step(
        name,
        rating,
        placements=placements,
        eliminations=eliminations,
        text=text,
        cells=path_cells(n, path),
        highlights=path_candidates(n, path),
        links=tuple(path_links(n, path)),
        size=n,
    )


def pair_label(geo: Geometry, p: int, q: int) -> str | None:
    """The words of the pair rule behind the link from potential *p* to *q* when a pair
    relation made it (:mod:`.pairlinks`): *p* and *q* in two related cells, and not one digit
    in cells that share a unit (then the unit made it): an "on" *p* removing *q* (a weak
    link), an "off" *p* removing *q* (the loss of support) or forcing it (a strong link); else
    None. Always None on a shape without pair relations.

    >>> from sudokit.constraints import Constraints
    >>> g = geometry(Shape(2, 2, constraints=Constraints(white=[(0, 1)])))
    >>> pair_label(g, on_potential(4, 0, 0), off_potential(4, 1, 2))   # r1c1=1 -> r1c2<>3
    'white dot'
    >>> pair_label(g, on_potential(4, 0, 0), off_potential(4, 1, 0)) is None   # the row
    True
    """
    pairs = geo.pairs
    if pairs is None or (q & 1 and p & 1):
        return None
    n = geo.n
    ca, da = divmod(p >> 1, n)
    cb, db = divmod(q >> 1, n)
    if ca == cb or not any(b == cb for b, _, _ in pairs.related[ca]):
        return None
    if (p & 1 or q & 1) and da == db and cb in geo.peer_order[ca]:
        return None
    return pairs.label(ca, cb)


def path_names(geo: Geometry, path: Sequence[int]) -> list[str]:
    """The names of the potentials of *path*, each link a pair relation made followed by the
    rule's words (``r1c2<>4 (white dot)``, see :func:`pair_label`)."""
    n = geo.n
    out = []
    for i, q in enumerate(path):
        word = potential_name(n, q)
        if i and geo.pairs is not None:
            label = pair_label(geo, path[i - 1], q)
            if label is not None:
                word += f" ({label})"
        out.append(word)
    return out


# (placements, eliminations) of a hint, as (cell, digit) pairs (1-based digits)
Effect = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def conclusion_text(shape: Shape, effect: Effect) -> str:
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


# ---------------------------------------------------------------------------------------------
# Per-shape tables


class Geometry(_Record):
    """Per-shape tables in SE's order: for each cell its units box first, then row, column,
    the extra units (SE walks regions as Block, Row, Column), and its peers in that order;
    ``pairs``: the variant rules' pair relations as links (:mod:`.pairlinks`), None without
    any (then every chain runs as SE's)."""

    __slots__ = ("n", "ncells", "pairs", "peer_order", "peers", "shape", "unit_order", "units")
    __match_args__ = (
        "shape",
        "n",
        "ncells",
        "units",
        "unit_order",
        "peers",
        "peer_order",
        "pairs",
    )
    shape: Shape
    n: int
    ncells: int
    units: tuple[tuple[int, ...], ...]
    unit_order: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    peer_order: tuple[tuple[int, ...], ...]
    pairs: PairLinks | None

    def __init__(
        self,
        shape: Shape,
        n: int,
        ncells: int,
        units: tuple[tuple[int, ...], ...],
        unit_order: tuple[tuple[int, ...], ...],
        peers: tuple[tuple[int, ...], ...],
        peer_order: tuple[tuple[int, ...], ...],
        pairs: PairLinks | None = None,
    ) -> None:
        self._set(shape, n, ncells, units, unit_order, peers, peer_order, pairs)


@lru_cache(maxsize=32)
def geometry(shape: Shape) -> Geometry:
    """The cached :class:`Geometry` of *shape* (the one per-shape table of the chaining rules).

    >>> g = geometry(Shape(3, 3))
    >>> [g.units[u][0] for u in g.unit_order[40]]   # box 5, row 5, column 5 of r5c5
    [30, 36, 4]
    >>> g.peer_order[0][:4]                          # r1c1: its box first
    (1, 2, 9, 10)
    """
    boxes, rows, columns = shape.box_units, shape.row_units, shape.column_units
    order = []
    peer_order = []
    for cell in range(shape.ncells):
        us = shape.cell_units[cell]
        unit_order = (
            [u for u in us if u in boxes]
            + [u for u in us if u in rows or u in columns]
            + [u for u in us if u in shape.extra_units]
        )
        order.append(tuple(unit_order))
        seen = dict.fromkeys(c for u in unit_order for c in shape.units[u] if c != cell)
        peer_order.append(tuple(seen))
    return Geometry(
        shape,
        shape.n,
        shape.ncells,
        shape.units,
        tuple(order),
        shape.peers,
        tuple(peer_order),
        pair_links(shape),
    )


#: Per geometry with pair relations (by id, kept alive with it): :func:`c_relations`; as many
#: as :func:`geometry` caches.
_C_RELATIONS: dict[int, tuple[Geometry, tuple[bytes, tuple[tuple[int, ...], ...]]]] = {}


def c_relations(geo: Geometry) -> tuple[bytes, tuple[tuple[int, ...], ...]]:
    """What the C chainers take of a geometry with pair relations, made once per geometry:
    the relations (:attr:`PairLinks.related <.pairlinks.PairLinks>`) as int64 records
    (a, b, ab..., ba...), a ascending (``Chainer.relate``, ``ChainMode(relations=)``), and
    per cell its peers that share no unit with it (``ChainMode(peers=)``: the different
    pairs of :attr:`Shape.peers <sudokit.shape.Shape.peers>`, which a cycle's eliminations
    see)."""
    got = _C_RELATIONS.get(id(geo))
    if got is None or got[0] is not geo:
        assert geo.pairs is not None
        flat = [
            x
            for a, related in enumerate(geo.pairs.related)
            for b, ab, ba in related
            for x in (a, b, *ab, *ba)
        ]
        units = [set(us) for us in geo.shape.cell_units]
        outside = tuple(
            tuple(o for o in geo.peers[cell] if not units[cell] & units[o])
            for cell in range(geo.ncells)
        )
        got = _C_RELATIONS[id(geo)] = (geo, (array("q", flat).tobytes(), outside))
        while len(_C_RELATIONS) > 32:  # the newest is last: never dropped here
            del _C_RELATIONS[next(iter(_C_RELATIONS))]
    return got[1]


class Links:
    """The on->off and off->on links of a fixed candidate state, per candidate, in SE's order.

    ``on_off_x[c]``: the "off" potentials of candidate *c*'s digit in the peers holding it;
    ``on_off_y[c]``: the other candidates of its cell, off; ``off_on_x[c]``: the other place of
    the digit in each unit where it has two; ``off_on_y[c]``: the other candidate of a bivalue
    cell; ``on_off_r[c]`` (None without pair relations, :mod:`.pairlinks`): the candidates of
    the related cells that the relation rejects with *c*, off (those not already X links);
    ``off_on_r[c]``: the candidates *y* of a related cell that every other candidate of *c*'s
    cell forces (each allows, of that cell's candidates, *y* alone: *c* or *y* holds), on
    (those not already X links); both joined to the X+Y tables only.
    """

    __slots__ = ("off_on_r", "off_on_x", "off_on_y", "on_off_r", "on_off_x", "on_off_y")

    def __init__(self, geo: Geometry, masks: Sequence[int]) -> None:
        n = geo.n
        size = geo.ncells * n
        self.on_off_x: list[tuple[int, ...]] = [()] * size
        self.on_off_y: list[tuple[int, ...]] = [()] * size
        self.off_on_x: list[tuple[int, ...]] = [()] * size
        self.off_on_y: list[tuple[int, ...]] = [()] * size
        # the places of each digit in each unit, in unit order
        places: list[list[list[int]]] = []
        for cells in geo.units:
            row: list[list[int]] = [[] for _ in range(n)]
            for cell in cells:
                for d in bit_indices(masks[cell]):
                    row[d].append(cell)
            places.append(row)
        for cell in range(geo.ncells):
            ds = bit_indices(masks[cell])
            offs = [off_potential(n, cell, d) for d in ds]
            for i, d in enumerate(ds):
                c = candidate(n, cell, d)
                self.on_off_y[c] = tuple(offs[:i] + offs[i + 1 :])
                if len(ds) == 2:
                    self.off_on_y[c] = (offs[1 - i] | 1,)
                self.on_off_x[c], self.off_on_x[c] = self._x_links(geo, places, cell, d)
        self.on_off_r: list[tuple[int, ...]] | None = None
        self.off_on_r: list[tuple[int, ...]] | None = None
        if geo.pairs is not None:
            self.on_off_r = self._r_table(geo, masks, self.on_off_x, False)
            self.off_on_r = self._r_table(geo, masks, self.off_on_x, True)

    @staticmethod
    def _x_links(
        geo: Geometry, places: list[list[list[int]]], cell: int, d: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(on->off, off->on) X links of digit *d* in *cell*, units in SE's order (the inner
        loop of every chaining rule's set-up: the encoding is spelled out)."""
        n = geo.n
        weak: list[int] = []
        strong: list[int] = []
        for u in geo.unit_order[cell]:
            where = places[u][d]
            for other in where:
                if other != cell:
                    q = 2 * (other * n + d)
                    if q not in weak:
                        weak.append(q)
            if len(where) == 2:
                r = 2 * ((where[0] + where[1] - cell) * n + d) + 1
                if r not in strong:
                    strong.append(r)
        return tuple(weak), tuple(strong)

    @staticmethod
    def _r_table(
        geo: Geometry, masks: Sequence[int], known: list[tuple[int, ...]], strong: bool
    ) -> list[tuple[int, ...]]:
        """The links of the pair relations per candidate, but those in *known* (see the class):
        on->off (a digit of a cell removes what each relation rejects in the related cell) or,
        *strong*, off->on (without the digit a related cell keeps one digit)."""
        assert geo.pairs is not None
        n = geo.n
        out: list[tuple[int, ...]] = [()] * (geo.ncells * n)
        for cell, related in enumerate(geo.pairs.related):
            m = masks[cell]
            if not related or (m & (m - 1) == 0 if strong else not m):
                continue
            for d in bit_indices(m):
                c = cell * n + d
                found: list[int] = []
                for b, ab, _ in related:
                    there = masks[b]
                    links = _r_on(ab, m & ~(1 << d), there) if strong else _r_offs(ab[d], there)
                    for rel in links:
                        q = 2 * b * n + rel
                        if q not in known[c] and q not in found:
                            found.append(q)
                out[c] = tuple(found)
        return out

    def tables(self, y: bool, x: bool) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """(on_off, off_on) per candidate for the enabled link kinds (on->off always has X;
        X+Y also has the pair relations' links)."""
        if y and x and self.on_off_r is not None and self.off_on_r is not None:
            on_off = [
                a + b + r
                for a, b, r in zip(self.on_off_y, self.on_off_x, self.on_off_r, strict=True)
            ]
            off_on = [
                a + b + r
                for a, b, r in zip(self.off_on_y, self.off_on_x, self.off_on_r, strict=True)
            ]
            return on_off, off_on
        if y:
            on_off = [a + b for a, b in zip(self.on_off_y, self.on_off_x, strict=True)]
            if not x:
                return on_off, self.off_on_y
            return on_off, [a + b for a, b in zip(self.off_on_y, self.off_on_x, strict=True)]
        return self.on_off_x, self.off_on_x


# ---------------------------------------------------------------------------------------------
# Ranking, rating, budget


def se_rating(base: float, complexity: int) -> float:
    """SE's difficulty of a chaining hint: *base* plus the length bonus on ``complexity - 2``.

    >>> se_rating(6.6, 6), se_rating(7.0, 7), se_rating(8.5, 40)
    (6.6, 7.1, 9.2)
    """
    return round(base + chain_length_bonus(complexity - 2), 1)


class RankedHint(_Record):
    """What SE orders the hints of a chaining rule by (:meth:`order`): rating, then complexity,
    then the kind of hint (*sort_key*), then discovery order (*seq*)."""

    __slots__ = ("complexity", "kind", "rating", "seq", "sort_key")
    __match_args__ = ("rating", "complexity", "sort_key", "seq", "kind")
    rating: float
    complexity: int
    sort_key: int
    seq: int
    kind: str

    def order(self) -> tuple[float, int, int, int]:
        """The sort key: the easiest hint, then the simplest, first."""
        return (self.rating, self.complexity, self.sort_key, self.seq)


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


def _r_offs(allows: int, there: int) -> list[int]:
    """The "off" potentials (relative to the related cell's first) of the digits *there* that
    the relation's mask *allows* rejects."""
    return [2 * e for e in bit_indices(there & ~allows)]


def _r_on(table: Sequence[int], rest: int, there: int) -> list[int]:
    """The "on" potential (relative to the related cell's first) of the one digit *there*
    that the digits *rest* of the cell still allow, if only one is left."""
    allowed = 0
    for g in bit_indices(rest):
        allowed |= table[g] & there
    if allowed and allowed & (allowed - 1) == 0:
        return [2 * (allowed.bit_length() - 1) + 1]
    return []
