"""The variant rules' pair relations as chain links (layer 2).

Every rule that compiles to a binary relation between two cells
(:meth:`Constraints.relations <sudokit.constraints.Constraints.relations>`: kropki dots, XV,
non-consecutive, the negative rules, thermometer steps, and the relations of the rule kinds:
whispers, palindromes, clones, minimum / maximum cells, ...) gives the chaining rules more
implications, all exact:

* a **weak link**: cell *a* holding *x* removes every candidate *y* of a related cell *b* that
  the relation rejects with *x* (``r1c1=3 -> r1c2<>4 (non-consecutive)``);
* a **loss of support**: when *a* loses a candidate, a candidate *y* of *b* none of whose
  partners in *a* is left (no remaining candidate of *a* that the relation allows with *y*) is
  removed (``r1c1<>2 -> r1c2<>1 (black dot)``, with the other partners' removals as further
  parents). Only dynamic chains remember removals, so only they apply it;
* a **strong link**: when every other candidate of *a* allows, of *b*'s candidates, *y* alone,
  then *a* holds *x* or *b* holds *y* (``r1c1<>1 -> r1c2=6 (black dot)`` with r1c1 in {1, 3}
  and r1c2 in {2, 4, 6}). The static X+Y tables (:class:`~sudokit.logic.chaining.Links`) hold
  it; a dynamic chain reaches the same through the loss of support and *b*'s last candidate.

The links use the relation alone (not that two related cells may also see each other, which
their units say). The rules that only say two cells differ (anti-knight and anti-king moves,
the different pairs of the rule kinds) are relations too, "any two different digits", for the
pairs no unit holds: ``r1c1=5 -> r2c3<>5 (anti-knight)``. Killer cages are not: the cage rules
reason about their cells. :func:`pair_links` is None for a shape without relations: classic
puzzles chain exactly as before.

>>> from sudokit.constraints import Constraints
>>> from sudokit.shape import Shape
>>> links = pair_links(Shape(2, 2, constraints=Constraints(white=[(0, 1)])))
>>> [(b, [bin(m) for m in ab]) for b, ab, _ in links.related[0]]
[(1, ['0b10', '0b101', '0b1010', '0b100'])]
>>> links.label(1, 0)
'white dot'
>>> pair_links(Shape(2, 2)) is None
True
>>> knight = pair_links(Shape(3, 3, constraints=Constraints(antiknight=True)))
>>> [(b, knight.label(2, b)) for b, _, _ in knight.related[2]]   # r2c1, r3c2: its box
[(13, 'anti-knight'), (21, 'anti-knight')]
>>> [bin(m) for m in knight.related[2][0][1][:2]]
['0b111111110', '0b111111101']
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import pairwise
from types import MappingProxyType

from .._record import _Record
from ..constraints import Constraints
from ..shape import Shape
from .rulewords import pair_words, step_name

__all__ = ["PairLinks", "PairRule", "differ_rules", "pair_links", "pair_rules"]

# per cell: (related cell b, table a -> b, table b -> a), tables indexed by 0-based digit
_Related = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]


class PairLinks(_Record):
    """The relations of a shape per cell: ``related[a]`` lists ``(b, ab, ba)`` where ``ab[x]``
    is the mask of the digits *b* may hold when *a* holds digit ``x + 1`` and ``ba`` the other
    way round; ``labels`` names the rules joining each pair (a < b), in a few words."""

    __slots__ = ("labels", "related")
    __match_args__ = ("related", "labels")
    related: tuple[_Related, ...]
    labels: Mapping[tuple[int, int], str]  # read-only (a MappingProxyType)

    def label(self, a: int, b: int) -> str:
        """The words naming the rules that join cells *a* and *b* (``'white dot'``)."""
        return self.labels.get((min(a, b), max(a, b)), "a rule")


#: A rule joining two cells: the technique its step is named by, its words in a step, and
#: its short label on a chain's link (``("Kropki Dot", "a white dot (consecutive digits)",
#: "white dot")``).
PairRule = tuple[str, str, str]


def _beside(a: int, b: int, n: int) -> bool:
    """True when cells *a* and *b* are orthogonal neighbours (the negative rules' pairs)."""
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


def _not_dotted(rules: Constraints) -> str:
    """What the negative kropki rule says of two neighbours without a dot."""
    if rules.kropki_negative:
        return "neither consecutive nor double"
    return "not consecutive" if rules.white_negative else "not one double the other"


@lru_cache(maxsize=64)
def pair_rules(shape: Shape) -> Mapping[tuple[int, int], tuple[PairRule, ...]]:
    """Every rule that relates two cells of *shape*, per pair (a < b), in the order the
    rules are listed (dots, X and V, thermometers, the rule kinds, the negative rules): what
    the Neighbour Rule step (:mod:`.variants`) and the chains' links name them by."""
    rules = shape.constraints
    if rules is None:
        return MappingProxyType({})
    named: dict[tuple[int, int], list[PairRule]] = {}
    n = shape.n

    def add(a: int, b: int, name: str, words: str, label: str) -> None:
        items = named.setdefault((min(a, b), max(a, b)), [])
        if (name, words, label) not in items:
            items.append((name, words, label))

    for a, b in rules.white:
        add(a, b, "Kropki Dot", "a white dot (consecutive digits)", "white dot")
    for a, b in rules.black:
        add(a, b, "Kropki Dot", "a black dot (one digit is double the other)", "black dot")
    for a, b in rules.x:
        add(a, b, "XV", "an X (they add up to 10)", "X")
    for a, b in rules.v:
        add(a, b, "XV", "a V (they add up to 5)", "V")
    for path in rules.thermos:
        words = f"the thermometer from {shape.cell_name(path[0])}"
        for a, b in pairwise(path):
            add(a, b, "Thermometer", words, "thermometer")
    for rule in rules.rules:
        for a, b, _ in rule.compile(n).relations:
            add(a, b, step_name(rule), pair_words(rule, a, b, shape), rule.title)
    dots = set(rules.white) | set(rules.black)
    letters = set(rules.x) | set(rules.v)
    for a, b, _ in rules.relations(n):
        if a > b or not _beside(a, b, n):
            continue
        if rules.nonconsecutive:
            words = "the non-consecutive rule (neighbours never differ by 1)"
            add(a, b, "Non-Consecutive", words, "non-consecutive")
        if (rules.white_negative or rules.black_negative) and (a, b) not in dots:
            add(a, b, "Kropki Dot", f"no dot (so they are {_not_dotted(rules)})", "no dot")
        if rules.xv_negative and (a, b) not in letters:
            words = "no X or V (so they add up to neither 5 nor 10)"
            add(a, b, "XV", words, "no X or V")
    return MappingProxyType({pair: tuple(items) for pair, items in named.items()})


def differ_rules(shape: Shape) -> dict[tuple[int, int], list[str]]:
    """The pairs (a < b) of cells that the rules say differ and that share no unit, each with
    the labels of its rules (``'anti-knight'``, ``'anti-king'``, a rule kind's title), in the
    order the rules are listed."""
    rules = shape.constraints
    out: dict[tuple[int, int], list[str]] = {}
    if rules is None:
        return out
    n = shape.n
    units = [set(us) for us in shape.cell_units]

    def add(a: int, b: int, label: str) -> None:
        pair = (min(a, b), max(a, b))
        if a != b and not units[a] & units[b] and label not in out.setdefault(pair, []):
            out[pair].append(label)

    if rules.antiknight or rules.antiking:
        for a, b in rules.different_pairs(n):  # the moves among them (cage mates too)
            steps = sorted((abs(a // n - b // n), abs(a % n - b % n)))
            if rules.antiknight and steps == [1, 2]:
                add(a, b, "anti-knight")
            if rules.antiking and steps[1] == 1:
                add(a, b, "anti-king")
    for rule in rules.rules:
        for a, b in rule.compile(n).different:
            add(a, b, rule.title)
    return out


@lru_cache(maxsize=64)
def pair_links(shape: Shape) -> PairLinks | None:
    """The pair relations of *shape* as chain links, or None when it has none (the different
    pairs of :func:`differ_rules` joined as "not the same digit")."""
    rules = shape.constraints
    if rules is None:
        return None
    tables = {(a, b): t for a, b, t in rules.relations(shape.n)}
    differ = differ_rules(shape)
    if not tables and not differ:
        return None
    order = list(tables)
    n = shape.n
    for a, b in differ:
        for x, y in ((a, b), (b, a)):
            had = tables.get((x, y))
            if had is None:
                order.append((x, y))
            tables[(x, y)] = tuple(
                (had[d] if had is not None else (1 << n) - 1) & ~(1 << d) for d in range(n)
            )
    related: list[list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = [
        [] for _ in range(shape.ncells)
    ]
    for a, b in order:
        related[a].append((b, tables[(a, b)], tables[(b, a)]))
    named = {pair: [label for _, _, label in items] for pair, items in pair_rules(shape).items()}
    for pair, words in differ.items():
        named.setdefault(pair, []).extend(words)
    labels = {pair: ", ".join(dict.fromkeys(words)) for pair, words in named.items()}
    return PairLinks(tuple(tuple(r) for r in related), MappingProxyType(labels))
