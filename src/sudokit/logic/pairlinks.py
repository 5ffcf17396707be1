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
their units say). :func:`pair_links` is None for a shape without relations: classic puzzles
chain exactly as before.

>>> from sudokit.constraints import Constraints
>>> from sudokit.shape import Shape
>>> links = pair_links(Shape(2, 2, constraints=Constraints(white=[(0, 1)])))
>>> [(b, [bin(m) for m in ab]) for b, ab, _ in links.related[0]]
[(1, ['0b10', '0b101', '0b1010', '0b100'])]
>>> links.label(1, 0)
'white dot'
>>> pair_links(Shape(2, 2)) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import pairwise
from types import MappingProxyType

from .._record import _Record
from ..shape import Shape

__all__ = ["PairLinks", "pair_links"]

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


def _beside(a: int, b: int, n: int) -> bool:
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


@lru_cache(maxsize=64)
def pair_links(shape: Shape) -> PairLinks | None:
    """The pair relations of *shape* as chain links, or None when it has none."""
    rules = shape.constraints
    if rules is None:
        return None
    n = shape.n
    relations = rules.relations(n)
    if not relations:
        return None
    tables = {(a, b): t for a, b, t in relations}
    related: list[list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = [
        [] for _ in range(shape.ncells)
    ]
    for a, b, t in relations:
        related[a].append((b, t, tables[(b, a)]))
    named: dict[tuple[int, int], list[str]] = {}

    def add(a: int, b: int, words: str) -> None:
        items = named.setdefault((min(a, b), max(a, b)), [])
        if words not in items:
            items.append(words)

    for a, b in rules.white:
        add(a, b, "white dot")
    for a, b in rules.black:
        add(a, b, "black dot")
    for a, b in rules.x:
        add(a, b, "X")
    for a, b in rules.v:
        add(a, b, "V")
    for path in rules.thermos:
        for a, b in pairwise(path):
            add(a, b, "thermometer")
    for rule in rules.rules:
        for a, b, _ in rule.compile(n).relations:
            add(a, b, rule.title)
    dots = {(min(p), max(p)) for p in (*rules.white, *rules.black)}
    letters = {(min(p), max(p)) for p in (*rules.x, *rules.v)}
    for a, b, _ in relations:
        if a > b or not _beside(a, b, n):
            continue
        if rules.nonconsecutive:
            add(a, b, "non-consecutive")
        if (rules.white_negative or rules.black_negative) and (a, b) not in dots:
            add(a, b, "no dot")
        if rules.xv_negative and (a, b) not in letters:
            add(a, b, "no X or V")
    labels = {pair: ", ".join(words) for pair, words in named.items()}
    return PairLinks(tuple(tuple(r) for r in related), MappingProxyType(labels))
