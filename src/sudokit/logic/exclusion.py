"""Aligned Pair and Triple Exclusion, as in SE 1.2.1 (6.2 and 7.5) (layer 2).

Take two (or three) *base* cells and the *excluder* cells that see all of them and have at most
two (three) candidates. Try every combination of candidates of the base cells: a combination is
impossible when two base cells that see each other get the same digit, or when it would take
every candidate of an excluder. A base candidate that appears in no possible combination is
removed. Works on every shape.

The finders yield exactly the steps of that plain reading (kept as the reference in
tests/test_logic_exclusion.py), much faster: cells are bit sets, a set of cells whose common
excluders cannot matter (none has all its candidates among the base cells, and no two base
cells are twins) is skipped, the digit of the last base cell is handled as one bit mask, and
the answer for given masks is memoized across candidate states.

The search itself runs in the C core when it is built (``_core.Exclusion``, csrc/sk_excl.c:
the same sets in the same order, incremental the same way); this module's :func:`_search` is
its specification and the fallback (``SUDOKIT_BACKEND=python``), held equal to it by
tests/test_exclusion_c.py. Only the steps found become Python objects.

>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> full = 0b111111111
>>> masks = [full] * 81
>>> masks[0], masks[1] = 0b011, 0b111                  # r1c1 {1,2}, r1c2 {1,2,3}
>>> masks[2], masks[3] = 0b011, 0b101                  # excluders r1c3 {1,2}, r1c4 {1,3}
>>> step = next(aligned_pair(CandidateGrid.from_masks(Shape(3, 3), [0] * 81, masks)))
>>> step.eliminations
((0, 1), (1, 1), (1, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from .. import _native
from ..shape import Shape
from ._bits import low_bits as _lows
from ._delta import Delta, Since, incremental
from ._names import cell_list, elim_text
from .candidates import CandidateGrid, bits, members
from .candidates import peer_bits as _peer_bits
from .step import Step

if TYPE_CHECKING:
    from .. import _core

__all__ = ["aligned_pair", "aligned_triple"]


def _candidates(cg: CandidateGrid, degree: int) -> dict[int, int]:
    """Base cells (>= 2 candidates, no peer with a single candidate, some excluder) and
    their excluders (peers with 2..degree candidates), as a bit set of cells."""
    masks = cg.masks
    peer_bits = _peer_bits(cg.shape)
    counts = [m.bit_count() for m in masks]
    singles = excluders = 0
    for cell, k in enumerate(counts):
        if k == 1:
            singles |= 1 << cell
        elif 2 <= k <= degree:
            excluders |= 1 << cell
    out: dict[int, int] = {}
    for cell, k in enumerate(counts):
        if k < 2:
            continue
        peers = peer_bits[cell]
        if not peers & singles:
            excl = peers & excluders
            if excl:
                out[cell] = excl
    return out


def _kill(prefix: int, ex_masks: Iterable[int], full: int) -> int:
    """The digit bits *x* for which some excluder mask is inside ``prefix | x`` (*full* when
    one already is inside *prefix*)."""
    kill = 0
    for em in ex_masks:
        rest = em & ~prefix
        if not rest:
            return full
        if not rest & (rest - 1):
            kill |= rest
    return kill


def _free(last: int, prefix: int, seen: int, ex_masks: Iterable[int], full: int) -> int:
    """The digits the last base cell (candidates *last*) may still take once the others took
    the digits *prefix*: not one that would cover an excluder (:func:`_kill`), nor one of
    *seen*, the digits of the other cells it sees."""
    return last & ~(_kill(prefix, ex_masks, full) | seen)


def _allowed(
    full: tuple[int, ...], sees: int, ex_masks: frozenset[int], every: int
) -> tuple[int, ...]:
    """For each base cell (candidate masks *full*), the digits used by some possible
    combination. *sees* has bit 0 (cells 0, 1), bit 1 (0, 2), bit 2 (1, 2) set when those base
    cells see each other; *every* is the mask of all digits.

    Instead of trying every combination, the digit of the last base cell is left free: for
    each choice of the others the digits it may still take form one bit mask.
    """
    if len(full) == 2:
        m0, m1 = full
        a0 = a1 = 0
        for b0 in _lows(m0):
            free = _free(m1, b0, b0 if sees else 0, ex_masks, every)
            if free:
                a0 |= b0
                a1 |= free
                if a0 == m0 and a1 == m1:
                    break
        return a0, a1
    m0, m1, m2 = full
    s01, s02, s12 = sees & 1, sees & 2, sees & 4
    a0 = a1 = a2 = 0
    for b0 in _lows(m0):
        for b1 in _lows(m1):
            if b0 == b1 and s01:
                continue
            seen = (b0 if s02 else 0) | (b1 if s12 else 0)
            free = _free(m2, b0 | b1, seen, ex_masks, every)
            if free:
                a0 |= b0
                a1 |= b1
                a2 |= free
                if a0 == m0 and a1 == m1 and a2 == m2:
                    return a0, a1, a2
    return a0, a1, a2


# (base masks, sees, excluder masks, all digits) -> allowed digits; successive candidate
# states of one puzzle share most of their base sets, so the answers are kept (bounded).
_MEMO: dict[tuple[tuple[int, ...], int, frozenset[int], int], tuple[int, ...]] = {}
_MEMO_MAX = 1 << 16


def _exclude(
    cg: CandidateGrid, cells: tuple[int, ...], excluders: list[int]
) -> tuple[tuple[int, int], ...]:
    """The candidates ``(cell, digit)`` of the base *cells* that no possible combination uses.

    A combination is impossible when two base cells that see each other get one digit, or
    when its digits cover every candidate of one of the *excluders*.
    """
    return _removed(cg.masks, _peer_bits(cg.shape), cg.all_mask, cells, excluders)


def _removed(
    masks: list[int],
    peer_bits: Sequence[int],
    every: int,
    cells: tuple[int, ...],
    excluders: list[int],
) -> tuple[tuple[int, int], ...]:
    """:func:`_exclude` with the grid's tables at hand (memoized)."""
    full = tuple(masks[c] for c in cells)
    if len(cells) == 2:
        sees = peer_bits[cells[0]] >> cells[1] & 1
    else:
        c0, c1, c2 = cells
        sees = (
            (peer_bits[c0] >> c1 & 1)
            | (peer_bits[c0] >> c2 & 1) << 1
            | (peer_bits[c1] >> c2 & 1) << 2
        )
    key = (full, sees, frozenset(masks[e] for e in excluders), every)
    allowed = _MEMO.get(key)
    if allowed is None:
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        allowed = _MEMO[key] = _allowed(*key)
    if allowed == full:
        return ()
    return tuple((c, d) for c, m, a in zip(cells, full, allowed, strict=True) for d in bits(m & ~a))


def _twins(masks: list[int], peer_bits: Sequence[int], cells: tuple[int, ...]) -> bool:
    """True when two of three *cells* see each other and have the same two candidates: the
    only way the base cells alone (without excluders) can rule a candidate out."""
    if len(cells) < 3:
        return False
    for i, j in ((0, 1), (0, 2), (1, 2)):
        m = masks[cells[i]]
        if m == masks[cells[j]] and m.bit_count() == 2 and peer_bits[cells[i]] >> cells[j] & 1:
            return True
    return False


#: The last state each finder (by degree) found nothing on (see :mod:`._delta`).
_SINCE = {2: Since(), 3: Since()}


def _engine(shape: Shape) -> _core.Exclusion | None:
    """The C core's search on *shape* (``_core.Exclusion``, csrc/sk_excl.h), or None when
    the core does not serve (then the Python code, its specification, runs) or the shape has
    more than 64 digits."""
    return None if _native.core() is None or shape.n > 64 else _made(shape)


@lru_cache(maxsize=16)
def _made(shape: Shape) -> _core.Exclusion:
    """The C core's search on *shape*, made once per shape."""
    return _native.require().Exclusion(shape.n, shape.peers)


def _aligned(cg: CandidateGrid, degree: int) -> Iterator[Step]:
    """The steps of :func:`_search`, searching only around the cells changed since the last
    state where it found nothing. Exact when no cell has a single candidate (then a set of
    base cells is tried, and what it removes is decided, by the candidates of its cells and
    of the cells seeing them all alone); otherwise a full search. Done by the C core when
    there is one (:func:`_c_search`)."""
    engine = _engine(cg.shape)
    if engine is not None:
        return _c_search(engine, cg, degree)
    single = any(not m & (m - 1) for m in cg.masks if m)
    return incremental(_SINCE[degree], partial(_search, degree=degree), cg, not single)


def _c_search(engine: _core.Exclusion, cg: CandidateGrid, degree: int) -> Iterator[Step]:
    """The steps of :func:`_aligned` found by the C core *engine*: the same incremental
    search (the core compares the state with the remembered one itself, and tells whether
    the state may be remembered: no cell with a single candidate), one step a call."""
    since = _SINCE[degree]
    before = since.remembered(cg)
    got = engine.find(cg.masks, degree, before, 0)
    if got is True:
        since.found_nothing(cg)
    while got.__class__ is tuple:
        cursor, cells, excluders, elims = got
        yield _exclusion_step(cg, cells, excluders, elims)
        got = engine.find(cg.masks, degree, before, cursor)


def _search(cg: CandidateGrid, delta: Delta | None, degree: int) -> Iterator[Step]:
    """Aligned exclusion steps of *degree* in SE's order; when *delta* is given, only of the
    sets of base cells holding a changed cell or all seeing a changed cell that is (or was) a
    would-be excluder (2 to *degree* candidates): nothing else decides what a set removes."""
    shape = cg.shape
    cands = _candidates(cg, degree)
    if len(cands) < degree:
        return
    order = sorted(cands)
    masks = cg.masks
    peer_bits = _peer_bits(shape)
    every = cg.all_mask
    base = 0
    for c in order:
        base |= 1 << c
    # Only an excluder whose candidates all belong to the base cells can rule a combination
    # out; ``outside[u]`` holds the would-be excluders with a candidate outside the mask u.
    with_digit = [0] * shape.n
    for c, m in enumerate(masks):
        if 2 <= m.bit_count() <= degree:
            for d in bits(m):
                with_digit[d - 1] |= 1 << c
    outside: dict[int, int] = {}
    thirds = _Thirds(masks, peer_bits, base) if degree == 3 else None
    changed = excluding = 0
    if delta is not None:
        changed = delta.cells
        before = delta.before
        rest = changed
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            if 2 <= masks[c].bit_count() <= degree or 2 <= before[c].bit_count() <= degree:
                excluding |= low
    # The reference walks the pairs of base cells in order and, for three cells, adds each
    # base cell among the excluders of the pair, trying a set of cells once: at its first
    # pair (in that order) whose excluders contain the third cell. Excluders are peers, never
    # the cell itself, so the common excluders never include a base cell of the set.
    for i, a in enumerate(order):
        ex_a = cands[a]
        later = order[i + 1 :]
        if degree == 2 and delta is not None and not changed >> a & 1:
            # a pair (a, b) is tried when b changed or a changed excluder sees both
            near = changed
            via = peer_bits[a] & excluding
            while via:
                low = via & -via
                via ^= low
                near |= peer_bits[low.bit_length() - 1]
            later = [b for b in later if near >> b & 1]
        for b in later:
            ex_b = cands[b]
            both = ex_a & ex_b
            if both.bit_count() < 2:
                continue
            # the third cells that make a set touching a changed cell (-1: any)
            near = -1
            if delta is not None and not changed >> a & 1 and not changed >> b & 1:
                via = peer_bits[a] & peer_bits[b] & excluding  # changed excluders of a and b
                if degree == 2 and not via:
                    continue
                near = changed
                while via:
                    low = via & -via
                    via ^= low
                    near |= peer_bits[low.bit_length() - 1]
            sets: list[tuple[tuple[int, ...], int]]
            if degree == 2:
                sets = [((a, b), both)]
            else:
                sets = []
                twin = (ex_a | ex_b) & base & ~(1 << a | 1 << b) & near
                if thirds is not None and twin:
                    twin &= thirds.worth_trying(a, b, both)
                while twin:
                    low = twin & -twin
                    twin ^= low
                    c = low.bit_length() - 1
                    ex_c = cands[c]
                    common = both & ex_c
                    if common.bit_count() < 2:
                        continue
                    if c > b:
                        sets.append(((a, b, c), common))
                    elif c > a:  # tried at (a, c) when b is among their excluders
                        if not (ex_a | ex_c) >> b & 1:
                            sets.append(((a, c, b), common))
                    elif not (ex_c | ex_a) >> b & 1 and not (ex_c | ex_b) >> a & 1:
                        sets.append(((c, a, b), common))
            for cells, common in sets:
                union = 0
                for c in cells:
                    union |= masks[c]
                out = outside.get(union)
                if out is None:
                    out = 0
                    for d in bits(every & ~union):
                        out |= with_digit[d - 1]
                    outside[union] = out
                useful = common & ~out
                if not useful and not _twins(masks, peer_bits, cells):
                    continue
                elims = _removed(masks, peer_bits, every, cells, members(useful))
                if not elims:
                    continue
                yield _exclusion_step(cg, cells, members(common), elims)


class _Thirds:
    """For Aligned Triple Exclusion: which third base cells can make a pair's triple worth
    the combination search (a pre-check, exact: it keeps every third cell that passes the
    finder's own test "some common excluder has all its candidates among the base cells, or
    two base cells are twins", and drops most others with a few bit operations a pair).

    *masks* are the candidate masks, *peer_bits* the peers of each cell as a cell bit set,
    *base* the base cells (a cell bit set).
    """

    __slots__ = ("_has", "_masks", "_peer_bits", "_twins")

    def __init__(self, masks: list[int], peer_bits: Sequence[int], base: int) -> None:
        self._masks = masks
        self._peer_bits = peer_bits
        # _has[m]: the base cells whose candidates include every digit of the mask m
        has: dict[int, int] = {0: base}
        # _twins[m]: the base cells whose candidates are exactly the two digits of m
        twins: dict[int, int] = {}
        cells = base
        while cells:
            low = cells & -cells
            cells ^= low
            m = masks[low.bit_length() - 1]
            if m.bit_count() == 2:
                twins[m] = twins.get(m, 0) | low
        self._has = has
        self._twins = twins

    def _with_all(self, digits: int) -> int:
        """The base cells holding every digit of the mask *digits* (memoized per state)."""
        got = self._has.get(digits)
        if got is None:
            low = digits & -digits
            rest = self._with_all(digits ^ low)
            out = 0
            while rest:
                cl = rest & -rest
                rest ^= cl
                if self._masks[cl.bit_length() - 1] & low:
                    out |= cl
            got = self._has[digits] = out
        return got

    def worth_trying(self, a: int, b: int, both: int) -> int:
        """The third cells *c* (a cell bit set) for which the triple ``a, b, c`` (common
        excluders of a and b: *both*) may pass: some excluder ``e`` in *both* sees *c* and
        has every candidate in ``a | b | c``, or two of the three cells are twins (see
        each other, same two candidates)."""
        masks = self._masks
        peer_bits = self._peer_bits
        ma, mb = masks[a], masks[b]
        pair = ma | mb
        out = 0
        rest = both
        while rest:
            low = rest & -rest
            rest ^= low
            e = low.bit_length() - 1
            out |= peer_bits[e] & self._with_all(masks[e] & ~pair)
        twins = self._twins
        if ma.bit_count() == 2:
            if ma == mb and peer_bits[a] >> b & 1:
                return -1
            out |= twins.get(ma, 0) & peer_bits[a]
        if mb.bit_count() == 2:
            out |= twins.get(mb, 0) & peer_bits[b]
        return out


def _exclusion_step(
    cg: CandidateGrid,
    cells: tuple[int, ...],
    excluders: Sequence[int],
    elims: tuple[tuple[int, int], ...],
) -> Step:
    """The Aligned Pair (two base *cells*) or Triple (three) Exclusion step removing *elims*,
    with the *excluders* that see every base cell."""
    shape = cg.shape
    name, rating = (
        ("Aligned Pair Exclusion", 6.2) if len(cells) == 2 else ("Aligned Triple Exclusion", 7.5)
    )
    text = (
        f"{name}: try every combination of candidates of {cell_list(shape, cells)}. "
        f"Each combination that would leave one of {cell_list(shape, excluders, 'or')} "
        f"(which see all of them) with no candidate, or put one digit twice in a unit, "
        f"is impossible. What is left never uses these candidates, so "
        f"{elim_text(shape, elims)}."
    )
    return Step(
        name,
        rating,
        eliminations=elims,
        text=text,
        cells=(*cells, *excluders),
        highlights=tuple((c, d) for c in excluders for d in bits(cg.masks[c])),
        size=shape.n,
    )


def aligned_pair(cg: CandidateGrid) -> Iterator[Step]:
    """Aligned Pair Exclusion (SE 6.2)."""
    return _aligned(cg, 2)


def aligned_triple(cg: CandidateGrid) -> Iterator[Step]:
    """Aligned Triple Exclusion (SE 7.5)."""
    return _aligned(cg, 3)
