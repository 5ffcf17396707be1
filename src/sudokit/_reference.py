"""The pure-Python reference solver (layer 2; standard library only).

Norvig-style constraint propagation on candidate bitmasks (bit ``d-1`` set when digit ``d``
is still possible) for any :class:`~sudokit.shape.Shape`, with minimum-remaining-values
search. Short enough to verify by reading; it is the oracle the C core is tested against.

Propagation repeats two rules until nothing changes:

* naked single: a cell with one candidate gets that digit, which leaves every peer (the
  peers include the variant's "different" pairs: anti-knight, anti-king, cage mates);
* hidden single: a digit with one place left in a unit goes there.

A shape with variant rules (``shape.constraints``) adds, in their primitive forms:

* allowed digits (parity): each cell starts with only those;
* relations (non-consecutive, kropki, XV, thermometer steps): a digit of cell b that no
  candidate of cell a supports leaves b;
* cage sums: only the digit sets of the cage's size and sum that still fit its cells survive
  (every cell has a candidate in the set, every digit of the set is some cell's candidate);
  each cell keeps the digits of those sets, and a digit in all of them with one place left in
  the cage goes there. Above 16x16 the sets are too many to list: each cell is bounded by the
  sum minus the most and minus the least the other cells can add instead;
* linear sums (arrows, little killers, region-sum and zipper lines; digits may repeat): each
  cell keeps the digits ``d`` for which ``coef * d`` fits between the total minus the most
  and minus the least the other terms can add; when those bounds span at most
  :data:`LINEAR_SPAN` (and the sum has at most :data:`LINEAR_SUPPORT_CELLS` terms), exactly
  the digits that some choice of the other terms' candidates completes to the total (the
  partial sums before and after each term as sets; terms taken as independent);
* groups (renban, between lines, quadruples, sandwiches, x-sums, skyscrapers): the fillings of
  the group's cells from their candidates (peers apart) that keep the group
  (:func:`~sudokit.rules.primitives.group_holds`) are listed, and each cell keeps the digits
  some of them use; a group with more than :data:`GROUP_NODES` fillings to try is left until
  its cells have fewer candidates (a full group is always tested).

Every rule empties a cell that breaks it, so a full grid that survives obeys them all.

A contradiction (a cell with no candidate, or a digit with no place in a unit) ends the
branch. Search picks an unsolved cell with the fewest candidates and tries each in
ascending order, on a copy of the state. Counting never stops before *limit* solutions or
the end of the tree, so ``count < limit`` proves there are exactly ``count`` solutions.

>>> from sudokit.shape import Shape
>>> count, sols, guesses, complete = search(Shape(2, 2), bytes(16), limit=1000, keep=0, budget=0)
>>> count, complete  # every 4x4 Sudoku grid
(288, True)
"""

from __future__ import annotations

from functools import lru_cache

from .constraints import cage_combinations
from .rules.primitives import group_holds
from .shape import Shape

__all__ = ["search"]

_State = tuple[list[int], list[int]]  # (masks, values)
_Move = tuple[int, int]  # (cell, digit)
#: A shape's rules: allowed masks (or None), relations (a, b, table), summed cages
#: (cells, total, digit sets or None when bounded by sums).
_Rules = tuple[
    tuple[int, ...] | None,
    tuple[tuple[int, int, tuple[int, ...]], ...],
    tuple[tuple[tuple[int, ...], int, tuple[int, ...] | None], ...],
    tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...],
    tuple[tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]], ...],
]

#: Most fillings a group propagation tries (beyond it the group waits for fewer candidates).
GROUP_NODES = 2000

#: Largest size whose cages propagate by digit sets (above: by sum bounds).
_SETS_MAX_N = 16


@lru_cache(maxsize=64)
def _rules(shape: Shape) -> _Rules | None:
    """The variant rules of *shape* in the forms propagation uses, or None for a classic one."""
    rules, n = shape.constraints, shape.n
    if rules is None:
        return None
    cages = tuple(
        (
            cage.cells,
            cage.total,
            cage_combinations(len(cage.cells), cage.total, n) if n <= _SETS_MAX_N else None,
        )
        for cage in rules.cages
        if cage.total is not None
    )
    peers = shape.peers
    groups = tuple(
        (kind, cells, params, tuple(
            tuple(j for j in range(i) if cells[j] in peers[cells[i]]) for i in range(len(cells))
        ))
        for kind, cells, params in rules.groups(n)
    )  # fmt: skip
    return rules.allowed(n), rules.relations(n), cages, rules.linear(n), groups


def _restrict(state: _State, cell: int, keep: int, todo: list[_Move]) -> bool | None:
    """Keep only the candidates *keep* of *cell*: None on contradiction, else whether it
    changed; a cell left with one candidate is queued as a naked single."""
    masks, values = state
    m = masks[cell] & keep
    if m == masks[cell]:
        return False
    if not m:
        return None
    masks[cell] = m
    if not m & (m - 1) and not values[cell]:
        todo.append((cell, m.bit_length()))
    return True


def _digit_range(low: int, high: int) -> int:
    """The mask of the digits low..high (0 when empty)."""
    low = max(low, 1)
    return (1 << high) - (1 << (low - 1)) if high >= low else 0


def _cage(state: _State, cells: tuple[int, ...], total: int, sets: tuple[int, ...] | None,
          todo: list[_Move]) -> bool | None:  # fmt: skip
    """Propagate one summed cage (see the module docstring); None on contradiction."""
    masks = state[0]
    changed = False
    if sets is None:  # sum bounds
        for cell in cells:
            others = [masks[i] for i in cells if i != cell]
            least = sum((m & -m).bit_length() for m in others)
            most = sum(m.bit_length() for m in others)
            done = _restrict(state, cell, _digit_range(total - most, total - least), todo)
            if done is None:
                return None
            changed |= done
        return changed
    present = 0
    for cell in cells:
        present |= masks[cell]
    fit = [s for s in sets if not s & ~present and all(masks[i] & s for i in cells)]
    if not fit:
        return None
    union, common = 0, fit[0]
    for s in fit:
        union |= s
        common &= s
    for cell in cells:
        done = _restrict(state, cell, union, todo)
        if done is None:
            return None
        changed |= done
    while common:
        bit = common & -common
        common ^= bit
        places = [i for i in cells if masks[i] & bit]
        if not places:
            return None
        if len(places) == 1:
            done = _restrict(state, places[0], bit, todo)
            if done is None:
                return None
            changed |= done
    return changed


#: The widest span of a linear sum's bounds (and its most terms) that gets exact supports
#: (the C core's SK_LINEAR_SPAN_MAX and SK_LINEAR_SUPPORT_CELLS: two-word bit sets).
LINEAR_SPAN = 127
LINEAR_SUPPORT_CELLS = 64


def _linear_supports(masks: list[int], cells: tuple[int, ...], coefs: tuple[int, ...],
                     goal: int, least: list[int]) -> list[int]:  # fmt: skip
    """Each term's digits that complete to *goal* (the total above the least sum), from the
    sets of partial sums before and after it (bit s: the sum s above the least); a 0 mask
    is a contradiction."""
    before = [1]
    for cell, coef, low in zip(cells, coefs, least, strict=True):
        reach, m = 0, masks[cell]
        while m:
            bit = m & -m
            m ^= bit
            reach |= before[-1] << (coef * bit.bit_length() - low)
        before.append(reach)
    keep = [0] * len(cells)
    after = 1 << goal  # the sums the terms before i must make for the rest to complete
    for i in range(len(cells) - 1, -1, -1):
        m, prev = masks[cells[i]], 0
        while m:
            bit = m & -m
            m ^= bit
            v = coefs[i] * bit.bit_length() - least[i]
            if before[i] << v & after:
                keep[i] |= bit
            prev |= after >> v
        after = prev
    return keep


def _linear(state: _State, cells: tuple[int, ...], coefs: tuple[int, ...], total: int,
            todo: list[_Move]) -> bool | None:  # fmt: skip
    """Propagate one linear sum by bounds (see the module docstring); None on contradiction."""
    masks = state[0]
    terms = []
    for cell, coef in zip(cells, coefs, strict=True):
        m = masks[cell]
        least, most = coef * (m & -m).bit_length(), coef * m.bit_length()
        terms.append((least, most) if coef > 0 else (most, least))
    low = sum(t[0] for t in terms)
    high = sum(t[1] for t in terms)
    if not low <= total <= high:
        return None
    changed = False
    if high - low <= LINEAR_SPAN and len(cells) <= LINEAR_SUPPORT_CELLS:
        keeps = _linear_supports(masks, cells, coefs, total - low, [t[0] for t in terms])
        for cell, keep in zip(cells, keeps, strict=True):
            done = _restrict(state, cell, keep, todo) if keep else None
            if done is None:
                return None
            changed |= done
        return changed
    for cell, coef, (least, most) in zip(cells, coefs, terms, strict=True):
        lo, hi = total - (high - most), total - (low - least)  # what coef * d may be
        m, keep = masks[cell], 0
        while m:
            bit = m & -m
            m ^= bit
            if lo <= coef * bit.bit_length() <= hi:
                keep |= bit
        done = _restrict(state, cell, keep, todo)
        if done is None:
            return None
        changed |= done
    return changed


class _TooMany(Exception):
    """A group has more fillings to try than GROUP_NODES."""


def _group(state: _State, group: tuple[int, tuple[int, ...], tuple[int, ...],
           tuple[tuple[int, ...], ...]], n: int, todo: list[_Move]) -> bool | None:  # fmt: skip
    """Propagate one group by listing its fillings (see the module docstring); None on
    contradiction."""
    kind, cells, params, before = group
    masks = state[0]
    size = len(cells)
    digits = [0] * size
    support = [0] * size
    nodes = 0

    def fill(i: int) -> None:
        nonlocal nodes
        if i == size:
            if group_holds(kind, digits, params, n):
                for j in range(size):
                    support[j] |= 1 << (digits[j] - 1)
            return
        m = masks[cells[i]]
        for j in before[i]:  # an earlier cell of the group that is a peer
            m &= ~(1 << (digits[j] - 1))
        while m:
            nodes += 1
            if nodes > GROUP_NODES:
                raise _TooMany
            bit = m & -m
            m ^= bit
            digits[i] = bit.bit_length()
            fill(i + 1)

    try:
        fill(0)
    except _TooMany:
        return False
    changed = False
    for cell, keep in zip(cells, support, strict=True):
        done = _restrict(state, cell, keep, todo)
        if done is None:
            return None
        changed |= done
    return changed


def _apply_rules(rules: _Rules, n: int, state: _State, todo: list[_Move]) -> bool:
    """Relations and cages until nothing changes or a single is queued; False on
    contradiction."""
    masks = state[0]
    _, relations, cages, linears, groups = rules
    changed = True
    while changed and not todo:
        changed = False
        for a, b, table in relations:
            support, m = 0, masks[a]
            while m:
                bit = m & -m
                m ^= bit
                support |= table[bit.bit_length() - 1]
            done = _restrict(state, b, support, todo)
            if done is None:
                return False
            changed |= done
        for cells, total, sets in cages:
            done = _cage(state, cells, total, sets, todo)
            if done is None:
                return False
            changed |= done
        for cells, coefs, total in linears:
            done = _linear(state, cells, coefs, total, todo)
            if done is None:
                return False
            changed |= done
        for group in groups:
            done = _group(state, group, n, todo)
            if done is None:
                return False
            changed |= done
    return True


def _place(shape: Shape, state: _State, todo: list[_Move]) -> bool:
    """Place every (cell, digit) in *todo* and all their consequences; False on contradiction."""
    if not _singles(shape, state, todo):
        return False
    rules = _rules(shape)
    while rules is not None:
        if not _apply_rules(rules, shape.n, state, todo):
            return False
        if not todo:
            return True
        if not _singles(shape, state, todo):
            return False
    return True


def _singles(shape: Shape, state: _State, todo: list[_Move]) -> bool:
    """Naked and hidden singles from the placements in *todo*; False on contradiction."""
    masks, values = state
    peers, units, full = shape.peers, shape.units, (1 << shape.n) - 1
    while todo:
        while todo:
            cell, digit = todo.pop()
            if values[cell] == digit:
                continue
            bit = 1 << (digit - 1)
            if values[cell] or not masks[cell] & bit:
                return False
            values[cell] = digit
            masks[cell] = bit
            for p in peers[cell]:
                m = masks[p]
                if m & bit:
                    if values[p]:
                        return False
                    m &= ~bit
                    if not m:
                        return False
                    masks[p] = m
                    if not m & (m - 1):
                        todo.append((p, m.bit_length()))
        # Hidden singles and missing digits, one pass over the units.
        for unit in units:
            once = twice = placed = 0
            for i in unit:
                if values[i]:
                    placed |= masks[i]
                else:
                    m = masks[i]
                    twice |= once & m
                    once |= m
            if (once | placed) != full:
                return False
            single = once & ~twice & ~placed
            while single:
                bit = single & -single
                single ^= bit
                cell = next(i for i in unit if not values[i] and masks[i] & bit)
                todo.append((cell, bit.bit_length()))
    return True


def _start(shape: Shape, cells: bytes) -> _State | None:
    """The propagated state of the givens, or None when they contradict."""
    full = (1 << shape.n) - 1
    state = ([full] * shape.ncells, [0] * shape.ncells)
    givens = [(i, v) for i, v in enumerate(cells) if v]
    rules = _rules(shape)
    if rules is not None and rules[0] is not None:  # allowed digits (parity)
        for i, allowed in enumerate(rules[0]):
            if _restrict(state, i, allowed, givens) is None:
                return None
    # Conflicting givens are caught here: the second copy of a digit finds it eliminated.
    if not _place(shape, state, givens):
        return None
    return state


def search(
    shape: Shape, cells: bytes, limit: int, keep: int, budget: int
) -> tuple[int, list[bytes], int, bool]:
    """Count the solutions of *cells* up to *limit*, keeping the first *keep* of them.

    Returns ``(count, solutions, guesses, complete)``: ``guesses`` counts the digits tried at
    branching cells; ``complete`` is False when more than *budget* guesses (0 = no bound)
    were needed, and then ``count`` is only a lower bound.
    """
    if len(cells) != shape.ncells or any(v > shape.n for v in cells):
        raise ValueError(f"expected {shape.ncells} cell values in 0..{shape.n}")
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    if budget < 0:
        raise ValueError(f"budget must be >= 0 (0 = unbounded), got {budget}")
    found: list[bytes] = []
    count = guesses = 0
    root = _start(shape, cells)
    stack: list[_State] = [] if root is None else [root]
    while stack:
        masks, values = stack.pop()
        open_cells = [i for i, v in enumerate(values) if not v]
        if not open_cells:
            count += 1
            if len(found) < keep:
                found.append(bytes(values))
            if count >= limit:
                break
            continue
        cell = min(open_cells, key=lambda i: masks[i].bit_count())
        m = masks[cell]
        digits = [d for d in range(1, shape.n + 1) if m >> (d - 1) & 1]
        # Push in reverse so the smallest digit is explored first (a stable search order).
        for digit in reversed(digits):
            guesses += 1
            child = (masks.copy(), values.copy())
            if _place(shape, child, [(cell, digit)]):
                stack.append(child)
        if budget and guesses > budget and stack:
            return count, found, guesses, False
    return count, found, guesses, True
