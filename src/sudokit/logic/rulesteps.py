"""The steps of the rule kinds' sums and groups (layer 2).

The rule kinds of :mod:`sudokit.rules` compile to primitive forms
(:mod:`sudokit.rules.primitives`). Units and "different" pairs are the classic techniques'
(units and peers), relations the Neighbour Rule's (:mod:`.variants`, in each kind's words);
the linear sums and the groups are read here, each step naming the rule it comes from
(its words: :mod:`.rulewords`):

* **Rule Sum** (1.5): a linear sum (an arrow or a pill, a little killer, a double arrow, a
  zipper or region-sum line) bounds each of its cells by what the others can add: "the arrow
  from r1c2 adds up to the digit in its circle r1c1 (r1c2 + r1c3 = r1c1). r1c2 + r1c3 is at
  least 3 (they see each other, so their digits differ), so r1c1 is at least 3". Cells of a
  side that all see each other add up to at least the smallest digits they can hold, all
  different. As easy as a thermometer's bounds (1.3) or a cage whose sum alone says it
  (1.4), a little more work since several cells add up: just below the neighbour rules (1.6).
* **Rule Group** (2.0): a renban line, a between line or a quadruple: the candidates that no
  filling of its few cells from their candidates (cells that see each other apart) keeps are
  removed, and a cell every such filling gives one digit is placed ("the quadruple 12 at
  r1c1 needs 1 and 2 among its four cells; only r2c2 can take 2"). The same for the 3 to 8
  cells of a rule of related cells (a whispers, palindrome, slow thermometer, entropic,
  modular or nabner line, a clone, a minimum or maximum and its neighbours), where the
  Neighbour Rule reads only two at a time (an entropic line's three cells in a row, two of
  which can only be low or middle: the third is high). Reading a few cells' candidates
  together, as a direct hidden pair does (2.0).
* **Rule Sum Fillings** (2.2): the same for a linear sum, beyond its bounds: its cells that see
  each other differ, and holes in the candidates count. A cage combination read from the
  candidates is 2.1; digits that may repeat along a sum make it a little harder.
* **Outside Clue** (2.6): a sandwich, x-sum or skyscraper clue: the fillings of the whole row
  or column it is about. A house's candidates read together, as pointing (2.6) does.

Each step's eliminations are the candidates that no filling uses (:mod:`.fillings`: listed
within a bound, then each candidate tried on its own; one that cannot be decided within the
bound is kept), so every step is sound: the solution is a filling. The sums and the outside
clues are walked along their cells instead (:func:`.fillings.walked`: exact within its bound
of states, which a 9x9 row's clue stays far below; the listing then only words the step).
Values on the variant scale of :mod:`sudokit.rating` (its variant notes; docs/rating.md).
Without such rules they find nothing.

>>> import textwrap
>>> from sudokit.constraints import Constraints
>>> from sudokit.grid import Grid
>>> from sudokit.rules import Arrow
>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> shape = Shape(2, 2, constraints=Constraints(rules=[Arrow((0,), ((1, 4),))]))
>>> cg = CandidateGrid.from_grid(Grid.parse("...4" "...." "...." "....", shape))
>>> print(textwrap.fill(next(rule_sum(cg)).text, 92))
The arrow from r1c2 adds up to the digit in its circle r1c1 (r1c2 + r2c1 = r1c1). r1c1 is at
most 3 and r2c1 is at least 1, so r1c2 is at most 2; r1c1 is at most 3 and r1c2 is at least
1, so r2c1 is at most 2; r1c2 + r2c1 is at least 3 (they see each other, so their digits
differ), so r1c1 is at least 3: 1 and 2 are removed from r1c1; 3 is removed from r1c2; 3 and
4 are removed from r2c1.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import lru_cache, partial
from typing import Any, cast

from ..rules import Rule
from ..rules.primitives import Group, GroupKind, Linear, group_holds
from ..rules.sums import line_of
from ..shape import Shape
from ._names import cell_list, digit_list, digit_name, elim_cells, join_or, join_words
from .candidates import CandidateGrid, bits
from .fillings import NODES, Fillings, Pools, Reading, fillings, walked
from .rulewords import LOCAL_PAIR_KINDS, group_words, rule_words, step_name, sum_words, term
from .step import Step

__all__ = [
    "LINE_GROUP",
    "OUTSIDE_CLUE",
    "SUM_BOUNDS",
    "SUM_FILLINGS",
    "outside_clue",
    "rule_group",
    "rule_sum",
    "rule_sum_fillings",
]

SUM_BOUNDS = 1.5
LINE_GROUP = 2.0
SUM_FILLINGS = 2.2
OUTSIDE_CLUE = 2.6

#: The groups of the outside clues (the rest are the line groups).
_OUTSIDE = frozenset({GroupKind.SANDWICH, GroupKind.XSUM, GroupKind.SKYSCRAPER})
#: Step texts list at most this many fillings, runs or sets.
_LISTED = 4
#: What a step says when the fillings are too many to sum up.
_NO_FILLING = "No way to fill its cells from their candidates keeps it with these candidates"


# -- the forms of a shape's rules ----------------------------------------------------------------


@lru_cache(maxsize=64)
def _sums(shape: Shape) -> tuple[tuple[Rule, Linear], ...]:
    """Every linear sum of the shape's rule kinds, with the rule it comes from."""
    rules = () if shape.constraints is None else shape.constraints.rules
    return tuple((rule, linear) for rule in rules for linear in rule.compile(shape.n).linear)


@lru_cache(maxsize=64)
def _groups(shape: Shape) -> tuple[tuple[Rule, Group], ...]:
    """Every group of the shape's rule kinds, with the rule it comes from."""
    rules = () if shape.constraints is None else shape.constraints.rules
    return tuple((rule, group) for rule in rules for group in rule.compile(shape.n).groups)


def _domain(cg: CandidateGrid, cell: int) -> int:
    value = cg.values[cell]
    return 1 << (value - 1) if value else cg.masks[cell]


def _apart(shape: Shape, cells: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """For each position of *cells*, the earlier positions whose cells it sees."""
    peers = shape.peers
    return tuple(
        tuple(j for j in range(i) if cells[j] in peers[cells[i]]) for i in range(len(cells))
    )


@lru_cache(maxsize=64)
def _sum_aparts(shape: Shape) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """:func:`_apart` of the cells of each sum of :func:`_sums`."""
    return tuple(_apart(shape, linear[0]) for _, linear in _sums(shape))


def _sees_all(shape: Shape, cells: Sequence[int]) -> bool:
    peers = shape.peers
    return all(b in peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :])


# -- words shared by the steps -------------------------------------------------------------------


def _equation(shape: Shape, linear: Linear) -> str:
    """``'r1c2 + r1c3 = r1c1'``: the sum's positive terms, then the others (or the total)."""
    cells, coefs, total = linear
    left = [term(shape, c, k) for c, k in zip(cells, coefs, strict=True) if k > 0]
    right = [term(shape, c, k) for c, k in zip(cells, coefs, strict=True) if k < 0]
    if not right:
        return f"{' + '.join(left)} = {total}"
    if total:
        right.append(str(total))
    return f"{' + '.join(left)} = {' + '.join(right)}"


def _results(
    cg: CandidateGrid, cells: Sequence[int], support: Sequence[int]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Placements (a cell every filling gives one digit) and eliminations (the candidates no
    filling uses, in the other cells)."""
    masks = cg.masks
    placements: list[tuple[int, int]] = []
    elims: list[tuple[int, int]] = []
    for c, keep in zip(cells, support, strict=True):
        gone = masks[c] & ~keep
        if not gone or cg.values[c]:
            continue
        left = masks[c] & keep
        if left and not left & (left - 1):
            placements.append((c, left.bit_length()))
        else:
            elims.extend((c, d) for d in bits(gone))
    return placements, elims


def _conclusion(
    shape: Shape, placements: Sequence[tuple[int, int]], elims: Sequence[tuple[int, int]]
) -> str:
    """``'3 is removed from r1c1; r2c2 is 2'``."""
    parts = [elim_cells(shape, elims)] if elims else []
    placed = [f"{shape.cell_name(c)} is {digit_name(shape, d)}" for c, d in placements]
    if placed:
        parts.append(f"so {join_words(placed)}" if parts else join_words(placed))
    return "; ".join(parts)


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


# -- bounds of the linear sums -------------------------------------------------------------------


class _Side:
    """The bounds of some terms of a sum: ``low``/``high`` of ``sum(|coef| * digit)``;
    ``distinct`` says which bound comes from the cells all seeing each other."""

    __slots__ = ("distinct_high", "distinct_low", "high", "low", "words")

    def __init__(self, shape: Shape, terms: Sequence[tuple[int, int, int]]) -> None:
        """*terms*: ``(cell, |coef|, candidates)``."""
        self.low = sum(k * (m & -m).bit_length() for _, k, m in terms)
        self.high = sum(k * m.bit_length() for _, k, m in terms)
        self.distinct_low = self.distinct_high = False
        self.words = " + ".join(term(shape, c, k) for c, k, _ in terms)
        count = len(terms)
        if count < 2 or len({k for _, k, _ in terms}) != 1:
            return
        if not _sees_all(shape, [c for c, _, _ in terms]):
            return
        k = terms[0][1]
        union = 0
        for _, _, m in terms:
            union |= m
        digits = bits(union)
        if len(digits) < count:
            return  # a contradiction: left for the path
        low, high = k * sum(digits[:count]), k * sum(digits[-count:])
        if low > self.low:
            self.low, self.distinct_low = low, True
        if high < self.high:
            self.high, self.distinct_high = high, True

    def about(self, lower: bool, upper: bool) -> str:
        """``'r1c2 + r1c3 is at least 3'`` with the bounds asked for."""
        if self.low == self.high:
            said = f"is {self.low}"
        elif lower and upper:
            said = f"is between {self.low} and {self.high}"
        elif lower:
            said = f"is at least {self.low}"
        else:
            said = f"is at most {self.high}"
        if (lower and self.distinct_low) or (upper and self.distinct_high):
            said += " (they see each other, so their digits differ)"
        return f"{self.words} {said}"


def _bound_clause(
    shape: Shape,
    cell: int,
    k: int,
    other: _Side | None,
    rest: _Side | None,
    low: int,
    high: int,
    cut_low: bool,
    cut_high: bool,
) -> str:
    """Why *cell* (coefficient *k*) lies within ``low..high`` (of ``k * digit``)."""
    reasons = []
    if other is not None:
        reasons.append(other.about(cut_low, cut_high))
    if rest is not None:
        reasons.append(rest.about(cut_high, cut_low))
    name = shape.cell_name(cell)
    dlo, dhi = -(-low // k), high // k
    if cut_low and cut_high:
        bound = f"is {dlo}" if dlo == dhi else f"is between {dlo} and {dhi}"
        value = f"is between {low} and {high}"
    elif cut_low:
        bound, value = f"is at least {dlo}", f"is at least {low}"
    else:
        bound, value = f"is at most {dhi}", f"is at most {high}"
    said = f"{name} {bound}" if k == 1 else f"{k} × {name} {value}, and {name} {bound}"
    return f"{' and '.join(reasons)}, so {said}" if reasons else said


def rule_sum(cg: CandidateGrid) -> Iterator[Step]:
    """Bounds along each linear sum of the rule kinds (1.5)."""
    shape = cg.shape
    masks = cg.masks
    for rule, linear in _sums(shape):
        cells, coefs, total = linear
        doms = [_domain(cg, c) for c in cells]
        if not all(doms):
            continue
        elims: list[tuple[int, int]] = []
        clauses: list[str] = []
        for i, c in enumerate(cells):
            if cg.values[c]:
                continue
            k, positive = abs(coefs[i]), coefs[i] > 0
            same = [j for j in range(len(cells)) if j != i and (coefs[j] > 0) == positive]
            others = [j for j in range(len(cells)) if (coefs[j] > 0) != positive]
            other = _Side(shape, [(cells[j], abs(coefs[j]), doms[j]) for j in others])
            rest = _Side(shape, [(cells[j], abs(coefs[j]), doms[j]) for j in same])
            if positive:  # k * d = total + other - rest
                low, high = total + other.low - rest.high, total + other.high - rest.low
            else:  # k * d = other - total - rest
                low, high = other.low - total - rest.high, other.high - total - rest.low
            gone = [d for d in bits(masks[c]) if not low <= k * d <= high]
            if not gone:
                continue
            elims.extend((c, d) for d in gone)
            clauses.append(
                _bound_clause(
                    shape,
                    c,
                    k,
                    other if others else None,
                    rest if same else None,
                    low,
                    high,
                    any(k * d < low for d in gone),
                    any(k * d > high for d in gone),
                )
            )
        if not elims:
            continue
        yield Step(
            step_name(rule),
            SUM_BOUNDS,
            eliminations=tuple(elims),
            text=(
                f"{sum_words(rule, linear, shape)} ({_equation(shape, linear)}). "
                f"{'; '.join(clauses)}: {elim_cells(shape, elims)}."
            ),
            cells=tuple(cells),
            size=shape.n,
        )


# -- fillings of the linear sums -----------------------------------------------------------------


def _suffix_bounds(doms: Sequence[int], coefs: Sequence[int]) -> tuple[list[int], list[int]]:
    """The least and the most that the terms from each position on can add."""
    size = len(doms)
    low = [0] * (size + 1)
    high = [0] * (size + 1)
    for i in range(size - 1, -1, -1):
        k, m = coefs[i], doms[i]
        a, b = k * (m & -m).bit_length(), k * m.bit_length()
        low[i] = low[i + 1] + min(a, b)
        high[i] = high[i + 1] + max(a, b)
    return low, high


def _sum_viable(
    doms: Sequence[int], coefs: Sequence[int], total: int
) -> Callable[[Sequence[int], int], bool]:
    """A prefix of a sum's digits that the other terms' bounds can still complete."""
    low, high = _suffix_bounds(doms, coefs)

    def viable(digits: Sequence[int], count: int) -> bool:
        left = total - sum(k * d for k, d in zip(coefs[:count], digits[:count], strict=True))
        return low[count] <= left <= high[count]

    return viable


def _filling_text(shape: Shape, linear: Linear, found: Sequence[Sequence[int]]) -> str:
    """``'1 + 2 = 3'`` for each filling (the equation's terms in its order)."""
    _, coefs, total = linear
    out = []
    for digits in found:
        left = [digit_name(shape, d) for d, k in zip(digits, coefs, strict=True) if k > 0]
        right_terms = [(d, -k) for d, k in zip(digits, coefs, strict=True) if k < 0]
        if not right_terms:
            right = str(total)
        elif all(k == 1 for _, k in right_terms):
            right = " + ".join(digit_name(shape, d) for d, _ in right_terms)
        else:
            right = str(sum(k * d for d, k in right_terms) + total)
        out.append(f"{' + '.join(left)} = {right}")
    return join_words(out)


def _seeing(shape: Shape, cells: Sequence[int]) -> str:
    """Which of *cells* see each other, as a sentence (empty when none do)."""
    peers = shape.peers
    pairs = [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :] if b in peers[a]]
    if not pairs:
        return ""
    if len(cells) > 2 and len(pairs) == len(cells) * (len(cells) - 1) // 2:
        return "Its cells all see each other, so their digits differ. "
    if len(pairs) > 3:
        return "Its cells that see each other hold different digits. "
    said = join_words([f"{shape.cell_name(a)} and {shape.cell_name(b)}" for a, b in pairs])
    verb = "see each other" if len(pairs) == 1 else "see each other (each pair)"
    return f"{_sentence(said)} {verb}, so their digits differ. "


#: The fillings found lately for each rule read (:class:`~.fillings.Pools`), keyed by what
#: decides whether digits are a filling: a sum's terms and total, or a group's kind, clue and
#: size, and which cells see each other.
_POOLS = Pools()


@lru_cache(maxsize=8192)
def _sum_fillings(
    doms: tuple[int, ...],
    apart: tuple[tuple[int, ...], ...],
    coefs: tuple[int, ...],
    total: int,
) -> Fillings:
    def holds(digits: Sequence[int]) -> bool:
        return sum(k * d for k, d in zip(coefs, digits, strict=True)) == total

    pool = _POOLS.get((coefs, total, apart))
    listing = partial(fillings, doms, apart, holds, _sum_viable(doms, coefs, total), pool=pool)
    return _worded(_sum_walk(doms, apart, coefs, total, pool), doms, listing)


def _worded(walk: Fillings | None, doms: Sequence[int], listing: partial[Fillings]) -> Fillings:
    """The walk's fillings (the listing's when the walk gave up) with the listing's fillings
    for the words when the walk removes something but listed none (too many): the listing is
    bounded, so it may list them where the walk does not (for the words it tries no candidate
    on its own: ``total=0``), unless the walk counted more fillings than the listing may
    place digits (it would run out). When the walk gave up, the listing answers."""
    if walk is None:
        return listing()
    if walk.listed or walk.support == tuple(doms) or not all(walk.support):
        return walk
    if walk.counted > listing.keywords.get("nodes", NODES):
        return walk  # each filling places a digit of its own: the listing cannot end
    listed = listing(total=0)
    return walk._replace(found=listed.found, listed=True) if listed.listed else walk


def _sum_walk(
    doms: Sequence[int],
    apart: Sequence[Sequence[int]],
    coefs: Sequence[int],
    total: int,
    pool: list[tuple[int, ...]] | None = None,
) -> Fillings | None:
    """The fillings of a linear sum walked term by term (the state: the sum so far, kept
    within what the terms after it can still add), or None past the walk's bound."""
    low, high = _suffix_bounds(doms, coefs)

    def step(state: Any, i: int, d: int) -> Hashable | None:  # Any: no cast, a hot loop
        t: int = state + coefs[i] * d
        return t if low[i + 1] <= total - t <= high[i + 1] else None

    return walked(doms, apart, (0, step, lambda state: state == total), pool=pool)


def rule_sum_fillings(cg: CandidateGrid) -> Iterator[Step]:
    """The candidates no filling of a linear sum's cells adds up with (2.2)."""
    shape = cg.shape
    for (rule, linear), apart in zip(_sums(shape), _sum_aparts(shape), strict=True):
        cells, coefs, total = linear
        doms = tuple(_domain(cg, c) for c in cells)
        if not all(doms):
            continue
        found = _sum_fillings(doms, apart, coefs, total)
        if not all(found.support):
            continue  # no filling at all: a contradiction, left for the path
        placements, elims = _results(cg, cells, found.support)
        if not placements and not elims:
            continue
        if found.listed and len(found.found) <= _LISTED:
            one = len(found.found) == 1
            ways = _filling_text(shape, linear, found.found)
            summary = (
                f"The only {'filling' if one else 'fillings'} from the candidates"
                f" {'is' if one else 'are'} {ways}"
            )
        else:
            summary = _NO_FILLING
        yield Step(
            step_name(rule),
            SUM_FILLINGS,
            placements=tuple(placements),
            eliminations=tuple(elims),
            text=(
                f"{sum_words(rule, linear, shape)} ({_equation(shape, linear)}). "
                f"{_seeing(shape, cells)}{summary}: {_conclusion(shape, placements, elims)}."
            ),
            cells=tuple(cells),
            highlights=tuple(placements),
            size=shape.n,
        )


# -- groups --------------------------------------------------------------------------------------


def _order(kind: int, size: int) -> tuple[int, ...]:
    """The order the cells of a group are filled in: a between line's ends first."""
    if kind == GroupKind.BETWEEN and size > 2:
        return (0, size - 1, *range(1, size - 1))
    return tuple(range(size))


def _group_viable(
    kind: int, params: tuple[int, ...], size: int, n: int
) -> Callable[[Sequence[int], int], bool] | None:
    """A necessary condition on a prefix of a group's digits (in :func:`_order`), or None."""
    if kind == GroupKind.RENBAN:

        def run(digits: Sequence[int], count: int) -> bool:
            part = digits[:count]
            return max(part) - min(part) < size

        return run
    if kind == GroupKind.BETWEEN:

        def between(digits: Sequence[int], count: int) -> bool:
            if count < 2:
                return True
            low, high = sorted(digits[:2])
            if count == 2:
                return high - low > 1
            return low < digits[count - 1] < high

        return between
    if kind == GroupKind.SANDWICH:
        total = params[0]

        def sandwich(digits: Sequence[int], count: int) -> bool:
            part = list(digits[:count])
            ones, tops = part.count(1), part.count(n)
            if ones + tops == 2:  # both ends (or one end twice): the sum between them
                if ones == 1:
                    a, b = part.index(1), part.index(n)
                else:
                    end = 1 if ones else n
                    a = part.index(end)
                    b = part.index(end, a + 1)
                return sum(part[min(a, b) + 1 : max(a, b)]) == total
            if ones + tops == 1:
                return sum(part[part.index(1 if ones else n) + 1 :]) <= total
            return True

        return sandwich
    if kind == GroupKind.XSUM:
        total = params[0]

        def xsum(digits: Sequence[int], count: int) -> bool:
            x = digits[0]
            if x > size:
                return False
            part = sum(digits[: min(count, x)])
            return part == total if count >= x else part < total

        return xsum
    if kind == GroupKind.SKYSCRAPER:
        total = params[0]

        def skyscraper(digits: Sequence[int], count: int) -> bool:
            # the line is a row or column: the digits not used yet all come later, the n too
            seen = top = used = 0
            for d in digits[:count]:
                used |= 1 << (d - 1)
                if d > top:
                    seen, top = seen + 1, d
            if top == n:
                return seen == total
            higher = ((1 << n) - (1 << top)) & ~used  # digits above top still to come
            return seen + 1 <= total <= seen + min(higher.bit_count(), size - count)

        return skyscraper
    if kind == GroupKind.SUM_IN:
        most = max(params)
        return lambda digits, count: sum(digits[:count]) <= most
    return None


@lru_cache(maxsize=8192)
def _group_fillings(
    kind: int,
    params: tuple[int, ...],
    n: int,
    doms: tuple[int, ...],
    apart: tuple[tuple[int, ...], ...],
) -> Fillings:
    """The fillings of a group (its cells in :func:`_order`: *doms* and *apart* are in that
    order, and so are the fillings found)."""
    order = _order(kind, len(doms))
    back = [order.index(i) for i in range(len(order))]

    def holds(digits: Sequence[int]) -> bool:
        return group_holds(kind, [digits[j] for j in back], params, n)

    viable = _group_viable(kind, params, len(doms), n)
    rule = _outside_walk(kind, params, n, len(doms))
    pool = _POOLS.get((kind, params, n, apart))
    if rule is None:
        return fillings(doms, apart, holds, viable, pool=pool)
    # the walk decides; the listing words the step
    listing = partial(fillings, doms, apart, holds, viable, pool=pool)
    return _worded(walked(doms, apart, rule, pool=pool), doms, listing)


#: The state of a clue outside the grid once its cells after it no longer matter.
_DONE = (-1, 0)


def _outside_walk(kind: int, params: tuple[int, ...], n: int, size: int) -> Reading | None:
    """An outside clue read cell by cell (:func:`~.fillings.walked`): ``(start, step,
    accept)``; None for the other groups.

    * sandwich: the first end (1 or n) seen, or 0, and the sum since; :data:`_DONE` at the
      other end when the sum is the clue's;
    * x-sum: x (the first digit) and the sum of the first x digits so far;
    * skyscraper: how many cells were higher than every cell before them, and the highest.
    """
    total = params[0] if params else 0
    if kind == GroupKind.SANDWICH:

        def sandwich(state: Any, i: int, d: int) -> Hashable | None:  # Any: no cast
            end, s = state
            if end < 0:
                return state  # type: ignore[no-any-return]
            if not end:
                return (d, 0) if d in (1, n) else state
            if d == n + 1 - end:  # the other end
                return _DONE if s == total else None
            s += d
            return (end, s) if s <= total else None

        return (0, 0), sandwich, lambda state: state == _DONE
    if kind == GroupKind.XSUM:

        def xsum(state: Any, i: int, d: int) -> Hashable | None:  # Any: no cast
            x, s = state
            if x < 0:
                return state  # type: ignore[no-any-return]
            if not i:
                if d > size:
                    return None
                x = d
            s += d
            if i + 1 == x:
                return _DONE if s == total else None
            return (x, s) if s + x - i - 1 <= total else None

        return (0, 0), xsum, lambda state: state == _DONE
    if kind == GroupKind.SKYSCRAPER:

        def skyscraper(state: Any, i: int, d: int) -> Hashable | None:  # Any: no cast
            seen, top = state
            if d > top:
                seen, top = seen + 1, d
            return (seen, top) if seen <= total else None

        return (0, 0), skyscraper, lambda state: cast(tuple[int, int], state)[0] == total
    return None


def _group_summary(cg: CandidateGrid, group: Group, found: Sequence[Sequence[int]]) -> str:
    """What the fillings of a group have in common, in words ("" when nothing short)."""
    shape = cg.shape
    kind, cells, params = group
    n = shape.n
    if kind == GroupKind.QUADRUPLE:
        alone = []
        for d in sorted(set(params)):
            places = [c for c in cells if cg.values[c] == d or cg.has(c, d)]
            if len(places) == params.count(d) and any(not cg.values[c] for c in places):
                alone.append(f"only {cell_list(shape, places)} can take {digit_name(shape, d)}")
        if alone:
            return f"Among them, {join_words(alone)}"
    if not found:
        return ""
    if kind == GroupKind.RENBAN:
        runs = sorted({(min(f), max(f)) for f in found})
        if len(runs) <= _LISTED:
            said = join_or(
                ["-".join(digit_name(shape, d) for d in range(lo, hi + 1)) for lo, hi in runs]
            )
            return f"With their candidates, its digits can only be {said}"
    elif kind == GroupKind.BETWEEN:
        ends = sorted({(min(f[0], f[-1]), max(f[0], f[-1])) for f in found})
        if len(ends) <= _LISTED:
            said = join_or([f"{digit_name(shape, a)} and {digit_name(shape, b)}" for a, b in ends])
            return f"With their candidates, its ends can only hold {said}"
    elif kind == GroupKind.SANDWICH:
        sets = set()
        for f in found:
            i, j = sorted((list(f).index(1), list(f).index(n)))
            sets.add(tuple(sorted(f[i + 1 : j])))
        if len(sets) <= _LISTED:
            said = join_or(
                [
                    "+".join(digit_name(shape, d) for d in s)
                    if s
                    else f"nothing (the 1 and the {digit_name(shape, n)} side by side)"
                    for s in sorted(sets)
                ]
            )
            return (
                f"With the candidates of {line_of(cells, n)}, the digits between can only be {said}"
            )
    elif kind == GroupKind.XSUM:
        xs = sorted({f[0] for f in found})
        return (
            f"With the candidates of {line_of(cells, n)}, X (in {shape.cell_name(cells[0])})"
            f" can only be {digit_list(shape, xs, 'or')}"
        )
    elif kind == GroupKind.SKYSCRAPER:
        tops = sorted({cells[list(f).index(n)] for f in found})
        return (
            f"With the candidates of {line_of(cells, n)}, the {digit_name(shape, n)} can"
            f" only be in {join_or([shape.cell_name(c) for c in tops])}"
        )
    return ""


@lru_cache(maxsize=64)
def _ordered_groups(
    shape: Shape, outside: bool
) -> tuple[tuple[Rule, Group, tuple[int, ...], tuple[tuple[int, ...], ...]], ...]:
    """The groups of :func:`_groups` of clues outside the grid (*outside*) or not, each with
    its cells in :func:`_order` and which of them see each other (:func:`_apart`)."""
    out = []
    for rule, group in _groups(shape):
        kind, cells, _ = group
        if (kind in _OUTSIDE) == outside:
            ordered = tuple(cells[i] for i in _order(kind, len(cells)))
            out.append((rule, group, ordered, _apart(shape, ordered)))
    return tuple(out)


def _group_steps(cg: CandidateGrid, outside: bool) -> Iterator[Step]:
    shape = cg.shape
    n = shape.n
    for rule, group, ordered, apart in _ordered_groups(shape, outside):
        kind, cells, params = group
        doms = tuple(_domain(cg, c) for c in ordered)
        if not all(doms):
            continue
        found = _group_fillings(kind, tuple(params), n, doms, apart)
        if not all(found.support):
            continue  # no filling at all: a contradiction, left for the path
        placements, elims = _results(cg, ordered, found.support)
        if not placements and not elims:
            continue
        listed = found.found if found.listed else ()
        order = _order(kind, len(cells))
        back = [order.index(i) for i in range(len(order))]
        in_order = [tuple(f[j] for j in back) for f in listed]
        summary = _group_summary(cg, group, in_order)
        if not summary:
            summary = _NO_FILLING
        yield Step(
            step_name(rule),
            OUTSIDE_CLUE if outside else LINE_GROUP,
            placements=tuple(placements),
            eliminations=tuple(elims),
            text=(
                f"{group_words(rule, shape)}. {summary}: {_conclusion(shape, placements, elims)}."
            ),
            cells=tuple(cells),
            highlights=tuple(placements),
            size=n,
        )


# -- a few related cells read together -----------------------------------------------------------

#: Rules of related cells are read together when they have this many cells at most (and more
#: than two: two cells are the Neighbour Rule's).
_RELATED_CELLS = 8


@lru_cache(maxsize=64)
def _related(
    shape: Shape,
) -> tuple[tuple[Rule, tuple[int, ...], tuple[tuple[int, ...], ...]], ...]:
    """The rules of a few related cells (:data:`~.rulewords.LOCAL_PAIR_KINDS`), with their
    cells in order and which of them see each other (:func:`_apart`)."""
    rules = () if shape.constraints is None else shape.constraints.rules
    out = []
    for rule in rules:
        if rule.kind not in LOCAL_PAIR_KINDS:
            continue
        cells: list[int] = []
        for a, b, _ in rule.compile(shape.n).relations:
            cells.extend(c for c in (a, b) if c not in cells)
        if 2 < len(cells) <= _RELATED_CELLS:
            out.append((rule, tuple(cells), _apart(shape, cells)))
    return tuple(out)


@lru_cache(maxsize=256)
def _checks(
    rule: Rule, cells: tuple[int, ...], n: int
) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """For each position of *cells*, its relations with the earlier positions: ``(j, table)``,
    the table read from cell *j* to this one."""
    at = {c: i for i, c in enumerate(cells)}
    out: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in cells]
    for a, b, table in rule.compile(n).relations:
        i, j = at[a], at[b]
        if i < j:
            out[j].append((i, table))
        else:
            out[i].append((j, _transposed(table, n)))
    return tuple(tuple(x) for x in out)


def _transposed(table: tuple[int, ...], n: int) -> tuple[int, ...]:
    return tuple(sum(1 << x for x in range(n) if table[x] >> y & 1) for y in range(n))


@lru_cache(maxsize=8192)
def _related_fillings(
    rule: Rule,
    cells: tuple[int, ...],
    n: int,
    doms: tuple[int, ...],
    apart: tuple[tuple[int, ...], ...],
) -> Fillings:
    checks = _checks(rule, cells, n)

    def viable(digits: Sequence[int], count: int) -> bool:
        d = digits[count - 1]
        return all(table[digits[j] - 1] >> (d - 1) & 1 for j, table in checks[count - 1])

    pool = _POOLS.get((rule, cells, n, apart))
    return fillings(doms, apart, lambda digits: True, viable, pool=pool)


def _related_steps(cg: CandidateGrid) -> Iterator[Step]:
    shape = cg.shape
    for rule, cells, apart in _related(shape):
        doms = tuple(_domain(cg, c) for c in cells)
        if not all(doms):
            continue
        found = _related_fillings(rule, cells, shape.n, doms, apart)
        if not all(found.support):
            continue  # no filling at all: a contradiction, left for the path
        placements, elims = _results(cg, cells, found.support)
        if not placements and not elims:
            continue
        yield Step(
            step_name(rule),
            LINE_GROUP,
            placements=tuple(placements),
            eliminations=tuple(elims),
            text=(
                f"{rule_words(rule, shape)}. {_seeing(shape, cells)}{_NO_FILLING}:"
                f" {_conclusion(shape, placements, elims)}."
            ),
            cells=cells,
            highlights=tuple(placements),
            size=shape.n,
        )


def rule_group(cg: CandidateGrid) -> Iterator[Step]:
    """The candidates no filling of a renban line, between line or quadruple keeps, nor of
    the few cells of a line or mark of related cells (whispers, palindromes, clones, ...)
    (2.0)."""
    yield from _group_steps(cg, False)
    yield from _related_steps(cg)


def outside_clue(cg: CandidateGrid) -> Iterator[Step]:
    """The candidates no filling of a sandwich, x-sum or skyscraper clue's line keeps (2.6)."""
    return _group_steps(cg, True)
