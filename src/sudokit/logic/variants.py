"""The variant rules' own eliminations: parity, thermometers, dots and other neighbour rules
(layer 2).

Rules that only forbid repeats (anti-knight, anti-king, cage mates) are peers
(:attr:`~sudokit.shape.Shape.peers`): a placed digit leaves those cells at once, as it leaves
its row, and every classic technique sees them. The rules below say more than "different", so a
learner is shown each one as a step:

* **Parity** (1.0): the even (shaded) cells lose their odd candidates and the odd (circled) cells
  their even ones; one step for the whole grid.
* **Thermometer** (1.3): digits strictly increase from the bulb, so each cell lies above the
  lowest candidate before it and below the highest after it (the 3rd cell of a thermometer is at
  least 3, ...).
* **Neighbour Rule** (1.6): two cells joined by a white dot (consecutive), a black dot (one is
  double the other), an X (sum 10) or a V (sum 5), orthogonal neighbours under the
  non-consecutive rule, or with no dot / no X or V under a negative rule, or by a rule kind's
  relation (whispers, palindromes, clones, dots and sums of any value, minimum / maximum
  cells, slow thermometers, entropic, modular and nabner lines, indexers, knightmare,
  self-taxicab, diagonal non-consecutive: each in its own words, :mod:`.rulewords`, and the
  step named by the rule): a candidate of one cell that no candidate of the other allows (the
  same digit not counted when the two cells see each other) is removed.

Values on the SE-comparable scale of :mod:`sudokit.rating`'s variant notes: seeing a rule drawn
on the grid is as easy as a full house or a hidden single. Without such rules they find nothing.

>>> import textwrap
>>> from sudokit.constraints import Constraints
>>> from sudokit.grid import Grid
>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> shape = Shape(2, 2, constraints=Constraints(v=[(0, 1)]))
>>> cg = CandidateGrid.from_grid(Grid.parse("1..." "...." "...." "....", shape))
>>> print(textwrap.fill(next(neighbour_rule(cg)).text, 100))
r1c1 and r1c2 are joined by a V (they add up to 5). r1c1 is 1, so r1c2 can only be 4: 2 and 3 are
removed from r1c2.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..constraints import Constraints
from ..shape import Shape
from ._names import cell_list, digit_list, digit_name, elim_text, elim_words, join_words
from .candidates import CandidateGrid, bits
from .pairlinks import pair_rules
from .step import Step

__all__ = ["neighbour_rule", "parity", "thermometer"]

PARITY = 1.0
THERMOMETER = 1.3
NEIGHBOUR = 1.6


def _rules(shape: Shape) -> Constraints | None:
    return shape.constraints


def parity(cg: CandidateGrid) -> Iterator[Step]:
    """Even cells lose odd candidates, odd cells even ones (1.0)."""
    shape = cg.shape
    rules = _rules(shape)
    allowed = None if rules is None else rules.allowed(shape.n)
    if allowed is None or rules is None or rules.parity is None:
        return
    masks = cg.masks
    elims = [(c, d) for c, m in enumerate(masks) for d in bits(m & ~allowed[c])]
    if not elims:
        return
    even = sorted({c for c, _ in elims if rules.parity[c] == "e"})
    odd = sorted({c for c, _ in elims if rules.parity[c] == "o"})
    parts = []
    if even:
        parts.append(f"the even (shaded) cells {cell_list(shape, even)} lose their odd candidates")
    if odd:
        parts.append(f"the odd (circled) cells {cell_list(shape, odd)} lose their even candidates")
    yield Step(
        "Parity",
        PARITY,
        eliminations=tuple(elims),
        text=f"Parity: {join_words(parts)}.",
        cells=(*even, *odd),
        size=shape.n,
    )


def _domain(cg: CandidateGrid, cell: int) -> int:
    value = cg.values[cell]
    return 1 << (value - 1) if value else cg.masks[cell]


def thermometer(cg: CandidateGrid) -> Iterator[Step]:
    """Bounds along each thermometer: above the lowest digit before, below the highest after
    (1.3)."""
    shape = cg.shape
    rules = _rules(shape)
    if rules is None:
        return
    masks = cg.masks
    for path in rules.thermos:
        doms = [_domain(cg, c) for c in path]
        lows: list[int] = []
        floor = 0
        for m in doms:
            above = m & ~((1 << floor) - 1)  # digits > floor
            if not above:
                break
            floor = (above & -above).bit_length()
            lows.append(floor)
        if len(lows) < len(path):
            continue  # a contradiction: left for the path to notice
        highs: list[int] = [0] * len(path)
        ceiling = shape.n + 1
        for i in range(len(path) - 1, -1, -1):
            below = doms[i] & ((1 << (ceiling - 1)) - 1)  # digits < ceiling
            if not below:
                break
            ceiling = below.bit_length()
            highs[i] = ceiling
        if not all(highs):
            continue
        elims: list[tuple[int, int]] = []
        said = []
        for c, lo, hi in zip(path, lows, highs, strict=True):
            keep = ((1 << hi) - 1) & ~((1 << (lo - 1)) - 1)
            gone = bits(masks[c] & ~keep)
            if gone:
                elims.extend((c, d) for d in gone)
                said.append(
                    f"{shape.cell_name(c)} is between {digit_name(shape, lo)} and "
                    f"{digit_name(shape, hi)}"
                )
        if not elims:
            continue
        yield Step(
            "Thermometer",
            THERMOMETER,
            eliminations=tuple(elims),
            text=(
                f"The digits rise along the thermometer from its bulb "
                f"{' > '.join(shape.cell_name(c) for c in path)}, so {join_words(said)}: "
                f"{elim_text(shape, elims)}."
            ),
            cells=tuple(path),
            size=shape.n,
        )


@lru_cache(maxsize=64)
def _pair_words(shape: Shape) -> dict[tuple[int, int], tuple[str, str]]:
    """For every related pair (a < b): the technique name and the rules joining it in words
    (:func:`.pairlinks.pair_rules`; the rule kinds' own words: :mod:`.rulewords`)."""
    out: dict[tuple[int, int], tuple[str, str]] = {}
    for pair, items in pair_rules(shape).items():
        named = list(dict.fromkeys((name, words) for name, words, _ in items))
        out[pair] = (named[0][0], " and ".join(words for _, words in named))
    return out


def neighbour_rule(cg: CandidateGrid) -> Iterator[Step]:
    """A candidate that no candidate of a related cell allows is removed (1.6)."""
    shape = cg.shape
    rules = _rules(shape)
    if rules is None:
        return
    masks = cg.masks
    values = cg.values
    words = _pair_words(shape)
    for a, b, table in rules.relations(shape.n):
        if values[b] or not masks[b]:
            continue
        source = _domain(cg, a)
        if not source:
            continue
        allowed = plain = 0
        apart = b in cg.peers[a]  # then b's digit is not a's either
        for x in bits(source):
            plain |= table[x - 1]
            allowed |= table[x - 1] & ~(1 << (x - 1)) if apart else table[x - 1]
        gone = bits(masks[b] & ~allowed)
        if not gone:
            continue
        name, joined = words.get((min(a, b), max(a, b)), ("Neighbour Rule", "a rule"))
        if masks[b] & plain & ~allowed:
            joined += ", and they see each other, so their digits differ"
        an, bn = shape.cell_name(a), shape.cell_name(b)
        first, second = (an, bn) if a < b else (bn, an)
        if values[a]:
            given = f"{an} is {digit_name(shape, values[a])}"
        else:
            given = f"{an} can only be {digit_list(shape, bits(source), 'or')}"
        left = bits(masks[b] & allowed)
        result = (
            f"{bn} can only be {digit_list(shape, left, 'or')}"
            if left
            else f"{bn} has no digit left"
        )
        elims = tuple((b, d) for d in gone)
        yield Step(
            name,
            NEIGHBOUR,
            eliminations=elims,
            text=(
                f"{first} and {second} are joined by {joined}. {given}, so {result}: "
                f"{elim_words(shape, elims)}."
            ),
            cells=(a, b),
            highlights=tuple((b, d) for d in left),
            size=shape.n,
        )
