"""Killer techniques: cage combinations, the rule of 45, hidden cages, cage/house interactions
(layer 2).

A killer cage (:class:`~sudokit.constraints.Cage`) holds distinct digits adding up to its sum.
Distinctness is already in the candidates (cage mates are peers, see
:attr:`~sudokit.shape.Shape.peers`); these techniques use the sums, as a learner meets them:

* **Cage Combination** (1.4 when the sum alone says it, e.g. "the 2-cell cage of 3 can only be
  1+2", "the 2-cell cage of 14 can only be 5+9 or 6+8"; 2.1 when the candidates must be read to
  rule sets or places out): the digits no possible set, placed in a possible order, puts in a
  cell are removed from it. A cage's lone open cell is placed (1.4).
* **Rule of 45** (1.8, +0.2 for each further house): a house adds up to 45 on 9x9
  (``n(n+1)/2`` in general), and so do two boxes side by side (90) or 2 to 5 neighbouring rows
  or columns (90 to 225). Take away the cages wholly inside it and the cells left over (the
  *innies*) add up to the rest; or take the cages that reach into it and the cells they have
  outside it (the *outies*) add up to the excess. One cell left: its digit is known.
* **Hidden Cage** (2.5, +0.2 a house): several innies or outies that must all differ (peers of
  one another, e.g. the rest of one row) form a virtual cage with a known sum: handled as a
  cage combination.
* **Rule of 45 (sum)** (2.7, +0.2 a house): several innies or outies that need not differ: a
  candidate that no choice of the others' candidates completes to the sum is removed.
* **Cage Pointing** (2.4): a digit every possible set of a cage contains, with all its places
  in the cage seen by some cells outside it (most often: all in one row, column or box), is
  removed from those cells.
* **Cage Clash** (3.0): the cages wholly inside one house must hold different digits, so a set
  of one cage that leaves no set of another (or that takes a digit the rest of the house
  needs) is dropped, with the candidates only it allowed.
* **Cage Claiming** (2.9): when every place for a digit in a house lies in one cage, the cage
  holds that digit there: it is removed from the cage's other cells, and the cage's sets
  without it are dropped.
* **Rule of 45 (difference)** (2.8, +0.2 a house): count a house set with some of the cages
  reaching out of it taken whole: its innies less the outies of those cages make a known
  number (``r1c9 - r2c1 = -4``); read over up to :data:`MAX_DIFF_CELLS` open cells.
* **Cage Interaction** (3.1): two cages some cells of which see each other: only the pairs of
  fillings that keep those cells apart remain, so a candidate no such pair uses goes, and so
  does a digit from an outside cell that every such pair puts in a cell it sees (two cages of
  one house that hold two digits between them: a killer pair).

The ratings are on the SE-comparable scale of :mod:`sudokit.rating` (see its variant notes):
placed so that a cage whose sum has one split is as easy as a hidden single and the rule of 45
on a single cell comes before a naked single, while sums over several cells come with the
intersections. Every technique is sound on every shape with cages (jigsaw, X, windoku, 4x4 to
16x16); without cages they find nothing. Sets are searched only for cages of up to
:data:`MAX_SET_CELLS` open cells (bigger ones are bounded by their sum alone), so a step never
costs more than a few milliseconds.

>>> from sudokit.constraints import Cage, Constraints
>>> from sudokit.grid import Grid
>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> shape = Shape(2, 2, constraints=Constraints(cages=[Cage((0, 1), 3)]))
>>> step = next(cage_combination(CandidateGrid.from_grid(Grid.empty(shape))))
>>> step.text
'The 2-cell cage of 3 (r1c1 and r1c2) can only be 1+2, so 3 and 4 are removed from r1c1 and r1c2.'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from ..constraints import Cage, cage_combinations
from ..shape import Shape
from ._names import cell_list, digit_name, elim_cells, elim_words, join_or, join_words
from .candidates import CandidateGrid, bits
from .fillings import fillings
from .step import Step

__all__ = [
    "MAX_SET_CELLS",
    "cage_at",
    "cage_claiming",
    "cage_clash",
    "cage_combination",
    "cage_interaction",
    "cage_pointing",
    "cages_of",
    "combination_clause",
    "hidden_cage",
    "pointing_clause",
    "rule_of_45",
    "rule_of_45_difference",
    "rule_of_45_sum",
]

#: Digit sets are searched for cages (real or hidden) of at most this many open cells.
MAX_SET_CELLS = 9
#: Step texts list at most this many digit sets.
MAX_SETS_LISTED = 6
#: Hidden cages (virtual cages of the rule of 45) are searched up to this many cells.
MAX_HIDDEN_CELLS = 6

COMBINATION_ONE = 1.4
COMBINATION = 2.1
RULE45_CELL = 1.8
HIDDEN_CAGE = 2.5
RULE45_SUM = 2.7
CAGE_POINTING = 2.4
CAGE_CLAIMING = 2.9
CAGE_CLASH = 3.0
RULE45_DIFFERENCE = 2.8
CAGE_INTERACTION = 3.1
EXTRA_HOUSE = 0.2


# -- geometry ------------------------------------------------------------------------------------


def cages_of(shape: Shape) -> tuple[Cage, ...]:
    """The killer cages of *shape* (empty without constraints)."""
    rules = shape.constraints
    return () if rules is None else rules.cages


@lru_cache(maxsize=64)
def _cage_index(shape: Shape) -> tuple[int, ...]:
    """For every cell, the index of its cage in :func:`cages_of` (-1 for no cage)."""
    owner = [-1] * shape.ncells
    for k, cage in enumerate(cages_of(shape)):
        for c in cage.cells:
            owner[c] = k
    return tuple(owner)


class _House(NamedTuple):
    """A set of whole houses for the rule of 45, with what its cages leave over."""

    name: str  # "row 3", "rows 1-3"
    houses: int  # how many houses
    cells: frozenset[int]
    innies: tuple[int, ...]  # cells not in a cage wholly inside (empty when a sum is missing)
    innie_sum: int
    inner: int  # the sum of the cages wholly inside
    outies: tuple[int, ...]  # cells outside of the cages reaching in (empty when impossible)
    outie_sum: int
    reaching: int  # the sum of the cages reaching in


def _house(shape: Shape, name: str, count: int, cells: frozenset[int]) -> _House | None:
    cages = cages_of(shape)
    owner = _cage_index(shape)
    total = count * shape.n * (shape.n + 1) // 2
    touching = sorted({owner[c] for c in cells if owner[c] >= 0})
    inside = [k for k in touching if all(c in cells for c in cages[k].cells)]
    innies: tuple[int, ...] = ()
    inner = 0
    if all(cages[k].total is not None for k in inside):
        inner = sum(cages[k].total or 0 for k in inside)
        covered = {c for k in inside for c in cages[k].cells}
        innies = tuple(sorted(cells - covered))
    outies: tuple[int, ...] = ()
    reaching = 0
    if all(owner[c] >= 0 for c in cells) and all(cages[k].total is not None for k in touching):
        reaching = sum(cages[k].total or 0 for k in touching)
        outies = tuple(sorted({c for k in touching for c in cages[k].cells} - cells))
    if not innies and not outies:
        return None
    return _House(
        name, count, cells, innies, total - inner, inner, outies, reaching - total, reaching
    )


def _beside(a: int, b: int, n: int) -> bool:
    """True when cells *a* and *b* of an n x n grid are orthogonal neighbours."""
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


@lru_cache(maxsize=64)
def _house_sets(shape: Shape) -> tuple[tuple[str, int, frozenset[int]], ...]:
    """The sets of whole houses the rule of 45 reads, fewest houses first, as (name, number of
    houses, cells): every unit, 2 to ``max(box side, (n + 1) // 2)`` neighbouring rows or
    columns, and every two boxes (or regions) side by side."""
    if not cages_of(shape):
        return ()
    n = shape.n
    out: list[tuple[str, int, frozenset[int]]] = []
    for u, unit in enumerate(shape.units):
        out.append((shape.unit_name(u), 1, frozenset(unit)))
    boxes = [(u, frozenset(shape.units[u])) for u in shape.box_units]
    for i, (u, a) in enumerate(boxes):
        for v, b in boxes[i + 1 :]:
            if any(_beside(c, x, n) for c in a for x in b):
                out.append((f"{shape.unit_name(u)} and {shape.unit_name(v)}", 2, a | b))
    lines = (("rows", shape.row_units), ("columns", shape.column_units))
    for count in range(2, max(shape.box_rows, shape.box_cols, (n + 1) // 2) + 1):
        for word, units in lines:
            for first in range(n - count + 1):
                cells = frozenset(c for k in range(count) for c in shape.units[units[first + k]])
                out.append((f"{word} {first + 1}-{first + count}", count, cells))
    return tuple(out)


@lru_cache(maxsize=64)
def _houses(shape: Shape) -> tuple[_House, ...]:
    """The sets of :func:`_house_sets` with their innies and outies (those that have some)."""
    out = [_house(shape, name, count, cells) for name, count, cells in _house_sets(shape)]
    return tuple(h for h in out if h is not None)


# -- digit sets ----------------------------------------------------------------------------------


def _set_support(masks: Sequence[int], combos: Sequence[int]) -> tuple[list[int], list[int]]:
    """Which *combos* (digit-set masks of ``len(masks)`` digits) the cells with candidate
    *masks* can hold, one distinct digit each, and which candidates of each cell some such
    placement uses. Returns ``(possible combos, support mask per cell)`` (new lists; the work
    is cached, since a path asks again for every cage whose candidates did not change)."""
    possible, support = _set_support_cached(tuple(masks), tuple(combos))
    return list(possible), list(support)


@lru_cache(maxsize=8192)
def _set_support_cached(
    masks: tuple[int, ...], combos: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    k = len(masks)
    support = [0] * k
    possible = []
    for combo in combos:
        cm = [m & combo for m in masks]
        if not all(cm):
            continue
        if all(m == combo for m in cm):  # every cell may hold every digit of the set
            possible.append(combo)
            support = [s | combo for s in support]
            continue
        layers: list[set[int]] = [{0}]
        for m in cm:
            nxt = set()
            for used in layers[-1]:
                free = m & ~used
                while free:
                    low = free & -free
                    free ^= low
                    nxt.add(used | low)
            if not nxt:
                break
            layers.append(nxt)
        if len(layers) <= k:
            continue
        possible.append(combo)
        good = {combo}
        for i in range(k - 1, -1, -1):
            back = set()
            for used in layers[i]:
                free = cm[i] & ~used
                while free:
                    low = free & -free
                    free ^= low
                    if used | low in good:
                        support[i] |= low
                        back.add(used)
            good = back
    return tuple(possible), tuple(support)


def _sum_support(masks: Sequence[int], total: int) -> list[int]:
    """The candidates of each cell that some choice of the other cells' candidates (repeats
    allowed) completes to *total*. Sums are sets of bits (bit ``s`` = sum ``s`` reachable)."""
    return list(_sum_support_cached(tuple(masks), total))


def _sums(mask: int, base: int) -> int:
    """The sums ``s + d`` for every sum ``s`` in *base* and digit ``d`` in *mask*."""
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= base << low.bit_length()
    return out


@lru_cache(maxsize=4096)
def _sum_support_cached(masks: tuple[int, ...], total: int) -> tuple[int, ...]:
    k = len(masks)
    before = [1]  # before[i]: sums of cells 0..i-1
    for m in masks:
        before.append(_sums(m, before[-1]))
    after = [1] * (k + 1)  # after[i]: sums of cells i..k-1
    for i in range(k - 1, -1, -1):
        after[i] = _sums(masks[i], after[i + 1])
    support = []
    for i, m in enumerate(masks):
        others = 0  # sums of every cell but i
        rest = after[i + 1]
        while rest:
            low = rest & -rest
            rest ^= low
            others |= before[i] << (low.bit_length() - 1)
        keep = 0
        for d in bits(m):
            need = total - d
            if need >= 0 and others >> need & 1:
                keep |= 1 << (d - 1)
        support.append(keep)
    return tuple(support)


def _set_text(shape: Shape, combos: Sequence[int]) -> str:
    """``1+2+4 or 1+3+5``; ``one of 14 sets (1+2+9, 1+3+8, 1+4+7, ...)`` beyond
    :data:`MAX_SETS_LISTED`."""
    ordered = sorted(bits(m) for m in combos)
    words = ["+".join(digit_name(shape, d) for d in ds) for ds in ordered]
    if len(words) > MAX_SETS_LISTED:
        return f"one of {len(words)} sets ({', '.join(words[:3])}, ...)"
    return join_or(words)


def _open_part(
    cg: CandidateGrid, cells: Sequence[int], total: int
) -> tuple[list[int], int, list[int]]:
    """The open cells of *cells*, what they must add up to, and the placed cells."""
    values = cg.values
    placed = [c for c in cells if values[c]]
    return [c for c in cells if not values[c]], total - sum(values[c] for c in placed), placed


def _eliminations(
    cg: CandidateGrid, cells: Sequence[int], support: Sequence[int]
) -> list[tuple[int, int]]:
    masks = cg.masks
    return [(c, d) for c, s in zip(cells, support, strict=True) for d in bits(masks[c] & ~s)]


def _cage_words(shape: Shape, cage: Cage) -> str:
    """``the 3-cell cage of 7 (r1c1, r1c2 and r2c1)``."""
    size = len(cage.cells)
    return f"the {size}-cell cage of {cage.total} ({cell_list(shape, cage.cells)})"


def _placed_words(cg: CandidateGrid, placed: Sequence[int]) -> str:
    shape = cg.shape
    return join_or(
        [f"{digit_name(shape, cg.values[c])} in {shape.cell_name(c)}" for c in placed]
    ).replace(" or ", " and ")


# -- cage combinations ---------------------------------------------------------------------------


def cage_combination(cg: CandidateGrid) -> Iterator[Step]:
    """Eliminations from the digit sets a cage can still hold (1.4 when the sum alone says so,
    2.1 when the candidates are read too)."""
    shape = cg.shape
    n = shape.n
    for cage, cells, combos, support, by_sum in _summed_cages(cg):
        elims = _eliminations(cg, cells, support)
        if not elims:
            continue
        total = (cage.total or 0) - sum(cg.values[c] for c in cage.cells)
        placed = [c for c in cage.cells if cg.values[c]]
        words = _cage_words(shape, cage)
        if len(cells) == 1 and len(by_sum) == 1:
            cell, d = cells[0], by_sum[0].bit_length()
            dn = digit_name(shape, d)
            if placed:
                why = f"{shape.cell_name(cell)} is the last open cell of {words} and the others"
                why += f" hold {_placed_words(cg, placed)}, so it takes the rest, {dn}"
            else:
                why = f"{shape.cell_name(cell)} is alone in its cage of {cage.total}, so it is {dn}"
            yield Step(
                "Cage Combination",
                COMBINATION_ONE,
                placements=((cell, d),),
                text=f"{why}.",
                cells=tuple(cage.cells),
                highlights=((cell, d),),
                size=n,
            )
            continue
        if placed:
            text = (
                f"{words[0].upper()}{words[1:]} already holds {_placed_words(cg, placed)}, so "
                f"{cell_list(shape, cells)} add up to {total}"
            )
            text += f" and can only be {_set_text(shape, combos)}" if len(combos) <= 4 else ""
        else:
            text = f"{words[0].upper()}{words[1:]} can only be {_set_text(shape, combos)}"
        if len(by_sum) > len(combos):
            text += " (the other sets do not fit the candidates left)"
        union = 0
        for m in combos:
            union |= m
        read = len(by_sum) > len(combos) or any(
            cg.masks[c] & union & ~sup for c, sup in zip(cells, support, strict=True)
        )
        rating = COMBINATION if read else COMBINATION_ONE
        yield Step(
            "Cage Combination",
            rating,
            eliminations=tuple(elims),
            text=f"{text}, so {elim_words(shape, elims)}.",
            cells=tuple(cage.cells),
            highlights=tuple((c, d) for c in cells for d in bits(cg.masks[c])),
            size=n,
        )


def cage_at(shape: Shape, cells: Sequence[int]) -> int:
    """The index in :func:`cages_of` of the cage whose cells are *cells* (a cage step's
    ``cells``), or -1."""
    return _cage_at(shape).get(tuple(cells), -1)


@lru_cache(maxsize=64)
def _cage_at(shape: Shape) -> dict[tuple[int, ...], int]:
    return {tuple(cage.cells): k for k, cage in enumerate(cages_of(shape))}


def combination_clause(
    cg: CandidateGrid, step: Step, last: tuple[int, ...] | None
) -> tuple[str, tuple[int, ...] | None]:
    """A Cage Combination *step* in few words, on the state *cg* before it, for a walkthrough
    that lists several: ``the 2-cell cage of 3 at r1c1 is 1+2``, its sets named only when they
    differ from *last* (the ones stated before for that cage; None: never stated), and only the
    eliminations the sets do not say by themselves. Returns the words and the sets stated."""
    shape = cg.shape
    k = cage_at(shape, step.cells)
    if k < 0:  # not a cage's step: its own words
        return step.text.rstrip("."), last
    cage = cages_of(shape)[k]
    if step.placements:
        cell, d = step.placements[0]
        how = "alone in its cage" if len(cage.cells) == 1 else "the last cell of its cage"
        return f"{shape.cell_name(cell)}={digit_name(shape, d)} ({how} of {cage.total})", last
    cells, combos, _, _ = _possible_sets(cg, cage)
    anchor = shape.cell_name(min(cage.cells))
    words = f"the {len(cage.cells)}-cell cage of {cage.total} at {anchor}"
    if len(cells) < len(cage.cells):
        left = (cage.total or 0) - sum(cg.values[c] for c in cage.cells)
        words = f"the rest of {words} ({cell_list(shape, cells)}, {left} left)"
    stated = tuple(combos)
    sets = _set_text(shape, combos)
    union = 0
    for m in combos:
        union |= m
    extra = [(c, d) for c, d in step.eliminations if union >> (d - 1) & 1]
    if stated == last:
        return (
            f"{words} is still {sets}, and {elim_words(shape, extra)} (no set fits there)",
            stated,
        )
    verb = "is" if len(combos) == 1 else "can only be"
    if last is not None:
        verb = "is now" if len(combos) == 1 else "can now only be"
    clause = f"{words} {verb} {sets}"
    if extra:
        clause += f", and {elim_cells(shape, extra)} (no set fits there)"
    return clause, stated


def pointing_clause(cg: CandidateGrid, step: Step) -> str:
    """A Cage Pointing *step* in few words, for a walkthrough that lists several (the cage's
    sets were stated by its combinations): ``the 7 of the 2-cell cage of 16 at r2c1 goes in
    r2c1 or r2c2, so it is removed from r1c3 and r3c1``."""
    shape = cg.shape
    k = cage_at(shape, step.cells)
    if k < 0 or not step.eliminations:
        return step.text.rstrip(".")
    cage = cages_of(shape)[k]
    d = step.eliminations[0][1]
    spots = [c for c, _ in step.highlights]
    targets = [c for c, _ in step.eliminations]
    return (
        f"the {digit_name(shape, d)} of the {len(cage.cells)}-cell cage of {cage.total} at "
        f"{shape.cell_name(min(cage.cells))} goes in {join_or([shape.cell_name(c) for c in spots])}"
        f", so it is removed from {cell_list(shape, targets)}"
    )


# -- the rule of 45 ------------------------------------------------------------------------------


class _Group(NamedTuple):
    """Innies or outies of a house set: the open cells, their sum, and the reasoning."""

    house: _House
    cells: list[int]
    total: int
    reason: str


def _groups(cg: CandidateGrid) -> Iterator[_Group]:
    """Every innie and outie group of the houses, reduced to its open cells, each group once."""
    shape = cg.shape
    seen: set[tuple[tuple[int, ...], int]] = set()
    half = shape.n * (shape.n + 1) // 2
    for house in _houses(shape):
        whole = house.houses * half
        verb = "adds" if house.houses == 1 else "add"
        parts = []
        if house.innies:
            parts.append((house.innies, house.innie_sum, (
                f"{house.name} {verb} up to {whole} and the cages wholly inside "
                f"{'it' if house.houses == 1 else 'them'} add up to {house.inner}, so the cells "
                f"left in {house.name} ({cell_list(shape, house.innies)}) add up to "
                f"{house.innie_sum}"
            )))  # fmt: skip
        if house.outies:
            parts.append((house.outies, house.outie_sum, (
                f"the cages reaching into {house.name} add up to {house.reaching}, "
                f"{house.outie_sum} more than the {whole} of {house.name}, so their cells "
                f"outside it ({cell_list(shape, house.outies)}) add up to {house.outie_sum}"
            )))  # fmt: skip
        for group, total, reason in parts:
            cells, rest, placed = _open_part(cg, group, total)
            key = (tuple(cells), rest)
            if not cells or key in seen:
                continue
            seen.add(key)
            if placed:
                reason += f"; with {_placed_words(cg, placed)} placed, "
                reason += f"{cell_list(shape, cells)} add up to {rest}"
            yield _Group(house, cells, rest, reason)


def _sentence(words: str) -> str:
    """*words* (the rule of 45's reasoning, lowercase) as the start of a sentence."""
    return words[:1].upper() + words[1:]


def _rating(base: float, house: _House) -> float:
    return round(base + EXTRA_HOUSE * (house.houses - 1), 1)


def rule_of_45(cg: CandidateGrid) -> Iterator[Step]:
    """A single innie or outie: its digit is what the house's sum leaves (1.8, +0.2 a house)."""
    shape = cg.shape
    for g in _groups(cg):
        if len(g.cells) != 1:
            continue
        cell = g.cells[0]
        if not 1 <= g.total <= shape.n or not cg.has(cell, g.total):
            continue
        dn = digit_name(shape, g.total)
        yield Step(
            "Rule of 45",
            _rating(RULE45_CELL, g.house),
            placements=((cell, g.total),),
            text=f"{_sentence(g.reason)}, so {shape.cell_name(cell)} is {dn}.",
            cells=tuple(sorted(g.house.cells)),
            highlights=((cell, g.total),),
            size=shape.n,
        )


def _mutual_peers(shape: Shape, cells: Sequence[int]) -> bool:
    peers = shape.peers
    return all(b in peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :])


def _group_steps(cg: CandidateGrid, hidden: bool) -> Iterator[Step]:
    """Eliminations in innie/outie groups of 2+ cells: as hidden cages (cells that all differ,
    up to :data:`MAX_HIDDEN_CELLS`) when *hidden*, else by their sum alone (the other groups)."""
    shape = cg.shape
    masks = cg.masks
    for g in _groups(cg):
        if len(g.cells) < 2:
            continue
        distinct = len(g.cells) <= MAX_HIDDEN_CELLS and _mutual_peers(shape, g.cells)
        if distinct != hidden:
            continue
        cell_masks = [masks[c] for c in g.cells]
        if hidden:
            by_sum = cage_combinations(len(g.cells), g.total, shape.n)
            combos, support = _set_support(cell_masks, by_sum)
            name, rating = "Hidden Cage", _rating(HIDDEN_CAGE, g.house)
            why = (
                "They must all differ, so they form a hidden cage that can only be "
                f"{_set_text(shape, combos)}:"
            )
        else:
            support = _sum_support(cell_masks, g.total)
            name, rating = "Rule of 45", _rating(RULE45_SUM, g.house)
            why = "No choice of the other cells' candidates completes that sum with these, so"
        elims = _eliminations(cg, g.cells, support)
        if not elims or not any(support):
            continue
        yield Step(
            name,
            rating,
            eliminations=tuple(elims),
            text=f"{_sentence(g.reason)}. {why} {elim_words(shape, elims)}.",
            cells=tuple(g.cells),
            highlights=tuple((c, d) for c in g.cells for d in bits(masks[c])),
            size=shape.n,
        )


def hidden_cage(cg: CandidateGrid) -> Iterator[Step]:
    """Innies or outies that must all differ form a virtual cage (2.5, +0.2 a house)."""
    return _group_steps(cg, True)


def rule_of_45_sum(cg: CandidateGrid) -> Iterator[Step]:
    """Innies or outies with a known sum that need not differ: candidates the sum rules out
    (2.7, +0.2 a house)."""
    return _group_steps(cg, False)


# -- innies minus outies -------------------------------------------------------------------------


class _Split(NamedTuple):
    """A house set whose cages all have sums, with the cages that reach out of it."""

    house: tuple[str, int, frozenset[int]]  # as _house_sets gives it
    inner: int  # the sum of the cages wholly inside
    loose: tuple[int, ...]  # cells of the house in no cage (always innies)
    partial: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]  # (cage, inside, outside)


@lru_cache(maxsize=64)
def _splits(shape: Shape) -> tuple[_Split, ...]:
    """The house sets of :func:`_house_sets` with two or more ways to be counted: at least two
    cages reaching out of them, or one and some cells in no cage."""
    cages = cages_of(shape)
    owner = _cage_index(shape)
    out = []
    for house in _house_sets(shape):
        cells = house[2]
        touching = sorted({owner[c] for c in cells if owner[c] >= 0})
        if any(cages[k].total is None for k in touching):
            continue
        partial = []
        inner = 0
        for k in touching:
            inside = tuple(c for c in cages[k].cells if c in cells)
            if len(inside) == len(cages[k].cells):
                inner += cages[k].total or 0
            else:
                outside = tuple(c for c in cages[k].cells if c not in cells)
                partial.append((k, inside, outside))
        loose = tuple(sorted(c for c in cells if owner[c] < 0))
        if len(partial) + bool(loose) >= 2:
            out.append(_Split(house, inner, loose, tuple(partial)))
    return tuple(out)


#: Innie-outie differences are read over at most this many open cells (both sides together).
MAX_DIFF_CELLS = 3


class _Difference(NamedTuple):
    """Open innies less open outies of a house set make *total*."""

    house: tuple[str, int, frozenset[int]]
    plus: tuple[int, ...]
    minus: tuple[int, ...]
    total: int
    inner: int
    whole: tuple[int, ...]  # the cages counted whole (the outies' cages)


def _differences(cg: CandidateGrid) -> Iterator[_Difference]:
    """Every way of counting a house set by innies (cells inside it) and outies (cells of whole
    cages outside it) with both kinds among at most :data:`MAX_DIFF_CELLS` open cells."""
    shape = cg.shape
    values = cg.values
    cages = cages_of(shape)
    half = shape.n * (shape.n + 1) // 2
    seen: set[tuple[tuple[int, ...], tuple[int, ...], int]] = set()
    for sp in _splits(shape):
        base = sp.house[1] * half - sp.inner
        loose = [c for c in sp.loose if not values[c]]
        base -= sum(values[c] for c in sp.loose)
        # per reaching cage: (open inside, placed sum inside, open outside, total - placed out)
        options: list[_Option] = []
        for k, inside, outside in sp.partial:
            total = cages[k].total or 0
            options.append((
                k,
                [c for c in inside if not values[c]],
                sum(values[c] for c in inside),
                [c for c in outside if not values[c]],
                total - sum(values[c] for c in outside),
            ))  # fmt: skip

        for plus, minus, rest, whole in _countings(options, 0, loose, [], base, []):
            key = (tuple(sorted(plus)), tuple(sorted(minus)), rest)
            if plus and minus and key not in seen:
                seen.add(key)
                yield _Difference(sp.house, *key, sp.inner, tuple(whole))


_Option = tuple[int, list[int], int, list[int], int]


def _countings(
    options: Sequence[_Option],
    i: int,
    plus: list[int],
    minus: list[int],
    rest: int,
    whole: list[int],
) -> Iterator[tuple[list[int], list[int], int, list[int]]]:
    """The ways to count the reaching cages ``options[i:]`` (each by its cells inside, or whole
    less its open cells outside) within :data:`MAX_DIFF_CELLS` open cells: (innies, outies,
    what innies less outies make, the cages counted whole)."""
    if len(plus) + len(minus) > MAX_DIFF_CELLS:
        return
    if i == len(options):
        yield plus, minus, rest, whole
        return
    k, in_open, in_sum, out_open, out_rest = options[i]
    yield from _countings(options, i + 1, plus + in_open, minus, rest - in_sum, whole)
    if in_open:  # counted whole: its outside cells come in as outies
        yield from _countings(options, i + 1, plus, minus + out_open, rest - out_rest, [*whole, k])


def _difference_support(
    cg: CandidateGrid, plus: Sequence[int], minus: Sequence[int], total: int
) -> tuple[int, ...]:
    """The candidates of each cell of *plus* + *minus* that some choice of the others' (cells
    that see each other differ) completes to ``sum(plus) - sum(minus) == total``: the
    support of :func:`~.fillings.fillings`, complete here (at most :data:`MAX_DIFF_CELLS`
    cells, far inside its bound)."""
    cells = [*plus, *minus]
    signs = [1] * len(plus) + [-1] * len(minus)
    peers = cg.shape.peers
    apart = [[j for j in range(i) if cells[j] in peers[c]] for i, c in enumerate(cells)]

    def holds(digits: Sequence[int]) -> bool:
        return sum(k * d for k, d in zip(signs, digits, strict=True)) == total

    return fillings([cg.masks[c] for c in cells], apart, holds).support


def rule_of_45_difference(cg: CandidateGrid) -> Iterator[Step]:
    """Innies less outies of a house set make a known number (the cages reaching out of it
    counted whole, their outside cells taken away): candidates no choice of the other cells
    completes to it are removed (2.8, +0.2 a house)."""
    shape = cg.shape
    masks = cg.masks
    cages = cages_of(shape)
    half = shape.n * (shape.n + 1) // 2
    for diff in _differences(cg):
        cells = [*diff.plus, *diff.minus]
        support = _difference_support(cg, diff.plus, diff.minus, diff.total)
        elims = _eliminations(cg, cells, support)
        if not elims or not all(support):
            continue
        name, count, house_cells = diff.house
        whole = [cages[k] for k in diff.whole]
        verb = "adds" if count == 1 else "add"
        counted = sum(c.total or 0 for c in whole)
        cage_words = join_words([_cage_words(shape, c) for c in whole])
        plus = " + ".join(shape.cell_name(c) for c in diff.plus)
        minus = " - ".join(shape.cell_name(c) for c in diff.minus)
        text = (
            f"{_sentence(name)} {verb} up to {count * half}"
            + (f", the cages wholly inside add up to {diff.inner}" if diff.inner else "")
            + f" and {cage_words} reaching out of it add{'s' if len(whole) == 1 else ''} up to "
            f"{counted}: so the innies less the outies make {plus} - {minus} = {diff.total}"
            + (
                ""
                if diff.total == count * half - diff.inner - counted
                else ", with the placed digits counted"
            )
            + f", and {elim_cells(shape, elims)}."
        )
        yield Step(
            "Rule of 45 (difference)",
            round(RULE45_DIFFERENCE + EXTRA_HOUSE * (count - 1), 1),
            eliminations=tuple(elims),
            text=text,
            cells=tuple(sorted(house_cells)),
            highlights=tuple((c, d) for c in cells for d in bits(masks[c])),
            size=shape.n,
        )


# -- two cages that meet ------------------------------------------------------------------------

#: Two cages are read together only when the pairs of their fillings are at most this many.
MAX_PAIR_FILLINGS = 4096


@lru_cache(maxsize=8192)
def _fillings(masks: tuple[int, ...], total: int) -> tuple[tuple[int, ...], ...]:
    """Every way to give the cells with candidate *masks* distinct digits adding up to
    *total*, as digit tuples (a cage's cells all see one another)."""
    out: list[tuple[int, ...]] = []
    pick: list[int] = []

    def walk(i: int, left: int, used: int) -> None:
        if i == len(masks):
            if left == 0:
                out.append(tuple(pick))
            return
        for d in bits(masks[i] & ~used):
            if d > left:
                break
            pick.append(d)
            walk(i + 1, left - d, used | 1 << (d - 1))
            pick.pop()

    walk(0, total, 0)
    return tuple(out)


@lru_cache(maxsize=64)
def _meeting_cages(shape: Shape) -> tuple[tuple[int, int], ...]:
    """Pairs of summed cages some cell of which sees some cell of the other, the pairs with
    the most such cells first."""
    cages = cages_of(shape)
    peers = shape.peers
    out = []
    for i, a in enumerate(cages):
        if a.total is None:
            continue
        for j in range(i + 1, len(cages)):
            b = cages[j]
            if b.total is None:
                continue
            links = sum(1 for x in a.cells for y in b.cells if y in peers[x])
            if links:
                out.append((-links / (len(a.cells) * len(b.cells)), i, j))
    return tuple((i, j) for _, i, j in sorted(out))


def _filling_words(shape: Shape, cells: Sequence[int], digits: Sequence[int]) -> str:
    """``r1c1=5, r1c2=2``."""
    return ", ".join(
        f"{shape.cell_name(c)}={digit_name(shape, d)}" for c, d in zip(cells, digits, strict=True)
    )


def cage_interaction(cg: CandidateGrid) -> Iterator[Step]:
    """Two cages whose cells see one another: only the pairs of fillings that keep those cells
    different remain; a candidate of theirs no such pair uses, and a digit every such pair puts
    in a cell that an outside cell sees, are removed (3.1). Two cages in one house that must
    hold a digit between them (a killer pair) are the commonest case."""
    shape = cg.shape
    masks = cg.masks
    peers = shape.peers
    cages = cages_of(shape)
    for i, j in _meeting_cages(shape):
        a_cells, a_total, _ = _open_part(cg, cages[i].cells, cages[i].total or 0)
        b_cells, b_total, _ = _open_part(cg, cages[j].cells, cages[j].total or 0)
        if not a_cells or not b_cells:
            continue
        seeing = [
            (x, y) for x, a in enumerate(a_cells) for y, b in enumerate(b_cells) if b in peers[a]
        ]
        if not seeing:
            continue
        a_fill = _fillings(tuple(masks[c] for c in a_cells), a_total)
        b_fill = _fillings(tuple(masks[c] for c in b_cells), b_total)
        if not a_fill or not b_fill or len(a_fill) * len(b_fill) > MAX_PAIR_FILLINGS:
            continue
        kept = [
            (fa, fb) for fa in a_fill for fb in b_fill if all(fa[x] != fb[y] for x, y in seeing)
        ]
        if not kept or len(kept) == len(a_fill) * len(b_fill):
            continue
        cells = [*a_cells, *b_cells]
        support = [0] * len(cells)
        for fa, fb in kept:
            for k, d in enumerate((*fa, *fb)):
                support[k] |= 1 << (d - 1)
        elims = set(_eliminations(cg, cells, support))
        inside = set(cells)
        outside = sorted({p for c in cells for p in peers[c]} - inside)
        outside = [p for p in outside if masks[p]]
        for p in outside:
            seen = [k for k, c in enumerate(cells) if c in peers[p]]
            common = masks[p]
            for fa, fb in kept:
                both = (*fa, *fb)
                hit = 0
                for k in seen:
                    hit |= 1 << (both[k] - 1)
                common &= hit
                if not common:
                    break
            elims.update((p, d) for d in bits(common))
        if not elims:
            continue
        ordered = sorted(elims)
        words_a = _cage_words(shape, cages[i])
        words_b = _cage_words(shape, cages[j])
        total = len(a_fill) * len(b_fill)
        if len(kept) <= 2:
            ways = " or ".join(
                f"{_filling_words(shape, a_cells, fa)} with {_filling_words(shape, b_cells, fb)}"
                for fa, fb in kept
            )
            fits = f"only {ways} keep{'s' if len(kept) == 1 else ''} them different"
        else:
            fits = f"only {len(kept)} of the {total} ways to fill the two keep them different"
        yield Step(
            "Cage Interaction",
            CAGE_INTERACTION,
            eliminations=tuple(ordered),
            text=(
                f"{_sentence(words_a)} and {words_b} have cells that see each other: {fits}, "
                f"so {elim_cells(shape, ordered)}."
            ),
            cells=tuple(sorted(inside)),
            highlights=tuple((c, d) for c in cells for d in bits(masks[c])),
            size=shape.n,
        )


# -- cages and houses ----------------------------------------------------------------------------


def _possible_sets(
    cg: CandidateGrid, cage: Cage
) -> tuple[list[int], list[int], list[int], list[int]]:
    """The open cells of a summed cage, the digit sets they can hold, each cell's support, and
    the sets the remaining sum allows before the candidates are read."""
    cells, total, placed = _open_part(cg, cage.cells, cage.total or 0)
    if not cells or len(cells) > MAX_SET_CELLS:
        return cells, [], [], []
    used = 0
    for c in placed:
        used |= 1 << (cg.values[c] - 1)
    by_sum = [m for m in cage_combinations(len(cells), total, cg.shape.n) if not m & used]
    combos, support = _set_support([cg.masks[c] for c in cells], by_sum)
    return cells, combos, support, by_sum


def _summed_cages(
    cg: CandidateGrid,
) -> Iterator[tuple[Cage, list[int], list[int], list[int], list[int]]]:
    """Every cage with a sum that can still hold some digit set: the cage, its open cells, the
    sets, each cell's support and the sets the sum allows (see :func:`_possible_sets`)."""
    for cage in cages_of(cg.shape):
        if cage.total is not None:
            cells, combos, support, by_sum = _possible_sets(cg, cage)
            if combos:
                yield cage, cells, combos, support, by_sum


def cage_pointing(cg: CandidateGrid) -> Iterator[Step]:
    """A digit every possible set of a cage holds goes from the cells that see all its places
    in the cage (2.4)."""
    shape = cg.shape
    masks = cg.masks
    peers = shape.peers
    for cage, cells, combos, _, _ in _summed_cages(cg):
        required = combos[0]
        for m in combos[1:]:
            required &= m
        inside = set(cage.cells)
        for d in bits(required):
            bit = 1 << (d - 1)
            spots = [c for c in cells if masks[c] & bit]
            if not spots:
                continue
            seen = set(peers[spots[0]])
            for c in spots[1:]:
                seen.intersection_update(peers[c])
            targets = sorted(c for c in seen - inside if masks[c] & bit)
            if not targets:
                continue
            dn = digit_name(shape, d)
            units = set(shape.cell_units[spots[0]])
            for c in spots[1:]:
                units.intersection_update(shape.cell_units[c])
            houses = [u for u in sorted(units) if not set(shape.units[u]) <= inside]
            covered = {c for u in houses for c in shape.units[u]}
            sets = _set_text(shape, combos)
            every = "its only set" if len(combos) == 1 else "every set it can hold"
            if houses and covered.issuperset(targets):
                names = join_words([shape.unit_name(u) for u in houses])
                both = "both " if len(spots) == 2 else ("all " if len(spots) > 2 else "")
                ending = f", {both}in {names}, so {dn} is removed from the rest of {names}"
            else:
                ending = f"; so {dn} is removed from the cells that see all of them"
            yield Step(
                "Cage Pointing",
                CAGE_POINTING,
                eliminations=tuple((c, d) for c in targets),
                text=(
                    f"{_cage_words(shape, cage)[0].upper()}{_cage_words(shape, cage)[1:]} must "
                    f"hold a {dn} ({every}: {sets}), and in the cage the {dn} can only go in "
                    f"{join_or([shape.cell_name(c) for c in spots])}{ending} "
                    f"({cell_list(shape, targets)})."
                ),
                cells=tuple(cage.cells),
                highlights=tuple((c, d) for c in spots),
                size=shape.n,
            )


def cage_claiming(cg: CandidateGrid) -> Iterator[Step]:
    """A digit whose places in a house all lie in one cage is that cage's: it goes from the
    cage's other cells and the cage's sets without it are dropped (2.9)."""
    shape = cg.shape
    masks = cg.masks
    owner = _cage_index(shape)
    cages = cages_of(shape)
    if not cages:
        return
    for u, unit in enumerate(shape.units):
        placed = cg.unit_placed(u)
        for d in range(1, shape.n + 1):
            bit = 1 << (d - 1)
            if placed & bit:
                continue
            spots = [c for c in unit if masks[c] & bit]
            if len(spots) < 2 or owner[spots[0]] < 0:
                continue
            k = owner[spots[0]]
            if any(owner[c] != k for c in spots[1:]):
                continue
            cage = cages[k]
            if any(cg.values[c] == d for c in cage.cells):
                continue
            elims = {(c, d) for c in cage.cells if c not in spots and masks[c] & bit}
            sets_text = ""
            if cage.total is not None:
                cells, combos, _, _ = _possible_sets(cg, cage)
                with_d = [m for m in combos if m & bit]
                if with_d and len(with_d) < len(combos):
                    _, support = _set_support([masks[c] for c in cells], with_d)
                    elims.update(_eliminations(cg, cells, support))
                    sets_text = f" It can then only be {_set_text(shape, with_d)}."
            if not elims:
                continue
            dn = digit_name(shape, d)
            ordered = sorted(elims)
            yield Step(
                "Cage Claiming",
                CAGE_CLAIMING,
                eliminations=tuple(ordered),
                text=(
                    f"In {shape.unit_name(u)} the {dn} can only go in "
                    f"{join_or([shape.cell_name(c) for c in spots])}, all in "
                    f"{_cage_words(shape, cage) if cage.total is not None else 'one cage'}: "
                    f"so the cage's {dn} is there.{sets_text} So {elim_words(shape, ordered)}."
                ),
                cells=tuple(cage.cells),
                units=(u,),
                highlights=tuple((c, d) for c in spots),
                size=shape.n,
            )


# -- cages sharing a house -----------------------------------------------------------------------


@lru_cache(maxsize=64)
def _inside_cages(shape: Shape) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Per unit with at least two summed cages wholly inside it: (unit, cage indices)."""
    cages = cages_of(shape)
    out = []
    for u, unit in enumerate(shape.units):
        cells = set(unit)
        inside = tuple(
            k for k, cage in enumerate(cages) if cage.total is not None and set(cage.cells) <= cells
        )
        if len(inside) >= 2:
            out.append((u, inside))
    return tuple(out)


def _clash_free(sets: Sequence[Sequence[int]], rest: int, need: int) -> list[set[int]]:
    """For cages with possible *sets* (masks) in one house: which sets take part in a choice of
    one set per cage, pairwise disjoint, such that the digits left for the house's other cells
    (*need* minus the chosen ones) all have a place among them (*rest*: their candidates)."""
    keep: list[set[int]] = [set() for _ in sets]
    chosen: list[int] = []

    def walk(k: int, used: int) -> bool:
        if k == len(sets):
            if (need & ~used) & ~rest:
                return False
            for i, m in enumerate(chosen):
                keep[i].add(m)
            return True
        ok = False
        for m in sets[k]:
            if not m & used:
                chosen.append(m)
                if walk(k + 1, used | m):
                    ok = True
                chosen.pop()
        return ok

    walk(0, 0)
    return keep


def cage_clash(cg: CandidateGrid) -> Iterator[Step]:
    """Sets of cages inside one house that clash with the others' are dropped (3.0)."""
    shape = cg.shape
    masks = cg.masks
    cages = cages_of(shape)
    for u, inside in _inside_cages(shape):
        info = [_possible_sets(cg, cages[k]) for k in inside]
        if any(not combos for cells, combos, _, _ in info if cells):
            continue
        live = [(k, i) for k, i in zip(inside, info, strict=True) if i[0]]
        if len(live) < 2:
            continue
        in_cages = {c for k in inside for c in cages[k].cells}
        rest = 0
        for c in shape.units[u]:
            if c not in in_cages:
                rest |= masks[c]
        need = cg.all_mask & ~cg.unit_placed(u)
        for k in inside:
            for c in cages[k].cells:
                if cg.values[c]:
                    need &= ~(1 << (cg.values[c] - 1))
        keep = _clash_free([i[1] for _, i in live], rest, need)
        for (k, (cells, combos, _, _)), kept in zip(live, keep, strict=True):
            if not kept or len(kept) == len(combos):
                continue
            sets = [m for m in combos if m in kept]
            _, narrow = _set_support([masks[c] for c in cells], sets)
            elims = _eliminations(cg, cells, narrow)
            if not elims:
                continue
            dropped = [m for m in combos if m not in kept]
            others = [cages[j] for j, _ in live if j != k]
            yield Step(
                "Cage Clash",
                CAGE_CLASH,
                eliminations=tuple(elims),
                text=(
                    f"{_cage_words(shape, cages[k])[0].upper()}{_cage_words(shape, cages[k])[1:]}"
                    f" and {join_words([_cage_words(shape, o) for o in others])} all lie in "
                    f"{shape.unit_name(u)}, so they hold different digits: "
                    f"{_set_text(shape, dropped)} would leave the others no set (or the rest of "
                    f"{shape.unit_name(u)} no place for its digits), so the cage is "
                    f"{_set_text(shape, sets)} and {elim_words(shape, elims)}."
                ),
                cells=tuple(cages[k].cells),
                units=(u,),
                highlights=tuple((c, d) for c in cells for d in bits(masks[c])),
                size=shape.n,
            )
