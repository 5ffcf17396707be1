"""The words of each rule kind in step texts (layer 2).

A kind of :mod:`sudokit.rules` says what it is in its own words (:meth:`Rule.describe
<sudokit.rules.base.Rule.describe>`: ``'renban line at r1c1'``); a step also says what the
rule *means* where it acts. Those sentences live here, in tables keyed by the kind's name,
one for each primitive form the steps read (a test holds them complete against
:data:`~sudokit.rules.KINDS`):

* :data:`PAIR_WORDS`: the relations (whispers, palindromes, clones, dots, extremes, slow
  thermometers, entropic / modular / nabner lines, indexers, knightmare, self-taxicab,
  diagonal non-consecutive), read by the Neighbour Rule (:mod:`.variants`): what joins two
  cells, ``'the whispers line at r1c1 (neighbours on it differ by at least 5)'``;
* :data:`SUM_WORDS`: the linear sums (arrows and pills, little killers, double arrows,
  zipper and region-sum lines), read by :mod:`.rulesteps`: what the sum says;
* :data:`GROUP_WORDS`: the groups (renban, between lines, quadruples, sandwiches, x-sums,
  skyscrapers, cages of several sums), read by :mod:`.rulesteps`;
* :data:`UNIT_KINDS`: the kinds that compile only to units and "different" pairs (one
  diagonal, disjoint groups, extra regions, taxicab): the classic techniques name their
  units and peers, so they need no words of their own.

>>> from sudokit.rules import Whispers
>>> from sudokit.shape import Shape
>>> pair_words(Whispers((0, 1, 2), 5), 0, 1, Shape(3, 3))
'the whispers line at r1c1 (neighbours on it differ by at least 5)'
>>> step_name(Whispers((0, 1, 2), 5))
'Whispers Line'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..rules import Rule
from ..rules.primitives import Linear
from ..rules.sums import line_of, outside_clue
from ..shape import Shape
from ._names import digit_name, join_words

__all__ = [
    "GROUP_WORDS",
    "LOCAL_PAIR_KINDS",
    "PAIR_WORDS",
    "SUM_WORDS",
    "UNIT_KINDS",
    "group_words",
    "pair_words",
    "rule_words",
    "step_name",
    "sum_words",
    "term",
]

#: Step names that would clash with a technique of the same name.
_NAMES = {"skyscraper": "Skyscraper Clue"}


def step_name(rule: Rule) -> str:
    """The technique name of a step that the rule *rule* makes: its title in title case
    (``'Renban Line'``, ``'Self-Taxicab'``; ``'Skyscraper Clue'``, as the Skyscraper is a
    single-digit pattern)."""
    return _NAMES.get(rule.kind) or rule.title.title()


def _f(rule: Rule, name: str) -> Any:
    """A field of *rule* (the tables below are keyed by kind, so the field is there)."""
    return getattr(rule, name)


def _name(shape: Shape, cell: int) -> str:
    return shape.cell_name(cell)


# -- relations -----------------------------------------------------------------------------------


def _thirds(shape: Shape) -> str:
    n, third = shape.n, shape.n // 3
    spans = [(1, third), (third + 1, 2 * third), (2 * third + 1, n)]
    words = [f"{digit_name(shape, lo)}-{digit_name(shape, hi)}" for lo, hi in spans]
    return f"a low ({words[0]}), a middle ({words[1]}) and a high ({words[2]}) digit"


def _indexer(rule: Rule, a: int, b: int, shape: Shape) -> str:
    """The indexer cell of the pair (the rule's cell; *a* when both are) and what it says."""
    cells = _f(rule, "cells")
    cell = a if a in cells else b
    line: Callable[[int, int], list[int]] = rule.line  # type: ignore[attr-defined]
    mine = line(cell, shape.n).index(cell) + 1
    r, c = divmod(cell, shape.n)
    dn = digit_name(shape, mine)
    where = {
        "columnindexer": f"which column of row {r + 1} holds the {dn}",
        "rowindexer": f"which row of column {c + 1} holds the {dn}",
        "boxindexer": f"which cell of its box (in reading order) holds the {dn}",
    }[rule.kind]
    return f"the {rule.title} {_name(shape, cell)} (its digit says {where})"


def _distance(a: int, b: int, n: int) -> int:
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    return abs(ra - rb) + abs(ca - cb)


def _dot(rule: Rule, a: int, b: int, shape: Shape) -> str:
    value = _f(rule, "value")
    meaning = {
        "difference": f"their digits differ by {value}",
        "ratio": f"one digit is {value} times the other",
        "pairsum": f"their digits add up to {value}",
    }[rule.kind]
    mark = "a sum mark" if rule.kind == "pairsum" else f"a {rule.kind} dot"
    return f"{mark} of {value} ({meaning})"


def _extreme(rule: Rule, a: int, b: int, shape: Shape) -> str:
    # a is the rule's cell of the pair (its relations run from its cells to their neighbours)
    return f"the {rule.title} at {_name(shape, a)} ({_extreme_meaning(rule, shape, a)})"


def _extreme_meaning(rule: Rule, shape: Shape, cell: int | None = None) -> str:
    """What the minimum / maximum at *cell* (None: at each of the rule's cells) says; in a
    group of several (f-puzzles' fortress cells) the other cells of the group are not compared."""
    word = "lower" if rule.kind == "minimum" else "higher"
    cells = _f(rule, "cells")
    outside = f" that is not a {rule.title} cell" if len(cells) > 1 else ""
    if cell is None:
        cell = cells[0] if len(cells) == 1 else None
    who = "each of its cells" if cell is None else _name(shape, cell)
    return f"{who} is {word} than each orthogonal neighbour{outside}"


def _on_line(meaning: str) -> Callable[[Rule, int, int, Shape], str]:
    def words(rule: Rule, a: int, b: int, shape: Shape) -> str:
        return f"the {rule.title} at {_name(shape, _f(rule, 'cells')[0])} ({meaning})"

    return words


def _whispers(rule: Rule, a: int, b: int, shape: Shape) -> str:
    return _on_line(f"neighbours on it differ by at least {_f(rule, 'difference')}")(
        rule, a, b, shape
    )


def _classes(rule: Rule, a: int, b: int, shape: Shape) -> str:
    if rule.kind == "entropic":
        held = _thirds(shape)
        also = "of different thirds"
    else:
        held = "digits of three different residues modulo 3"
        also = "different modulo 3"
    meaning = f"any three cells in a row on it hold {held}, so these two are {also}"
    return _on_line(meaning)(rule, a, b, shape)


def _self_taxicab(rule: Rule, a: int, b: int, shape: Shape) -> str:
    d = _distance(a, b, shape.n)
    dn = digit_name(shape, d)
    return f"self-taxicab (they are {d} apart, so they are not both {dn})"


#: The words of a relation between two cells, by kind: ``words(rule, a, b, shape)``, as
#: ``'... are joined by {words}'``.
PAIR_WORDS: dict[str, Callable[[Rule, int, int, Shape], str]] = {
    "whispers": _whispers,
    "palindrome": _on_line("it reads the same both ways, so these two hold the same digit"),
    "clone": lambda rule, a, b, shape: (
        f"the clone at {_name(shape, _f(rule, 'cells')[0])} (a cell and its copy hold the"
        " same digit)"
    ),
    "minimum": _extreme,
    "maximum": _extreme,
    "difference": _dot,
    "ratio": _dot,
    "pairsum": _dot,
    "slowthermo": lambda rule, a, b, shape: (
        f"the slow thermometer from {_name(shape, _f(rule, 'cells')[0])} (digits never"
        " decrease from the bulb)"
    ),
    "entropic": _classes,
    "modular": _classes,
    "nabner": _on_line("no two digits on it are equal or consecutive"),
    "columnindexer": _indexer,
    "rowindexer": _indexer,
    "boxindexer": _indexer,
    "knightmare": lambda rule, a, b, shape: (
        "a knight's move (knightmare: such cells never add up to 5 or 15)"
    ),
    "selftaxicab": _self_taxicab,
    "diagonalnonconsecutive": lambda rule, a, b, shape: (
        "a diagonal touch (diagonal non-consecutive: such cells never hold consecutive digits)"
    ),
}


def pair_words(rule: Rule, a: int, b: int, shape: Shape) -> str:
    """What *rule* says of the related cells *a* and *b*, in words."""
    return PAIR_WORDS[rule.kind](rule, a, b, shape)


def _meaning(rule: Rule, shape: Shape) -> str:
    kind = rule.kind
    if kind in ("minimum", "maximum"):
        return _extreme_meaning(rule, shape)
    if kind in ("difference", "ratio", "pairsum"):
        return _dot(rule, 0, 0, shape).split(" (", 1)[1].rstrip(")")
    return {
        "whispers": f"neighbours on it differ by at least {getattr(rule, 'difference', 0)}",
        "palindrome": "it reads the same both ways",
        "clone": "each cell and its copy hold the same digit",
        "slowthermo": "digits never decrease from the bulb",
        "entropic": f"any three cells in a row on it hold {_thirds(shape)}",
        "modular": "any three cells in a row on it hold digits of three different residues"
        " modulo 3",
        "nabner": "no two digits on it are equal or consecutive",
    }[kind]


#: The relation kinds whose cells are read together (:func:`rule_words`): a few cells each.
LOCAL_PAIR_KINDS = frozenset(
    {"whispers", "palindrome", "clone", "minimum", "maximum", "difference", "ratio", "pairsum",
     "slowthermo", "entropic", "modular", "nabner"}
)  # fmt: skip


def rule_words(rule: Rule, shape: Shape) -> str:
    """What a rule of a few related cells (:data:`LOCAL_PAIR_KINDS`) says of all of them, as
    the start of a sentence: ``'The whispers line (difference 5) at r1c1: neighbours on it
    differ by at least 5'``."""
    return f"The {rule.describe(shape.n)}: {_meaning(rule, shape)}"


# -- linear sums ---------------------------------------------------------------------------------


def term(shape: Shape, cell: int, coef: int) -> str:
    """One term of a sum: ``'r1c1'``, ``'10 × r1c1'``."""
    k = abs(coef)
    return _name(shape, cell) if k == 1 else f"{k} × {_name(shape, cell)}"


def _arrow(rule: Rule, linear: Linear, shape: Shape) -> str:
    circle = _f(rule, "circle")
    start = _name(shape, linear[0][0])
    if len(circle) == 1:
        return (
            f"The arrow from {start} adds up to the digit in its circle {_name(shape, circle[0])}"
        )
    return (
        f"The arrow from {start} adds up to the {len(circle)}-digit number in its pill, read"
        f" from {_name(shape, circle[0])} to {_name(shape, circle[-1])}"
    )


def _little_killer(rule: Rule, linear: Linear, shape: Shape) -> str:
    return f"The {rule.describe(shape.n)} adds up to {_f(rule, 'total')}"


def _zipper(rule: Rule, linear: Linear, shape: Shape) -> str:
    cells = _f(rule, "cells")
    where = f"The zipper line at {_name(shape, cells[0])}"
    if len(cells) % 2:
        middle = _name(shape, cells[len(cells) // 2])
        return f"{where}: cells the same distance from its middle add up to the middle {middle}"
    return f"{where}: cells the same distance from its middle add up to the same total"


def _double_arrow(rule: Rule, linear: Linear, shape: Shape) -> str:
    cells = _f(rule, "cells")
    ends = f"{_name(shape, cells[0])} and {_name(shape, cells[-1])}"
    return (
        f"The double arrow at {_name(shape, cells[0])}: its ends {ends} add up to the digits"
        " between them"
    )


def _region_sum(rule: Rule, linear: Linear, shape: Shape) -> str:
    first = _name(shape, _f(rule, "segments")[0][0])
    return (
        f"The region-sum line at {first} adds up to the same total in each box (or region) it"
        " crosses"
    )


#: The words of a linear sum, by kind: ``words(rule, linear, shape)``, a sentence's start.
SUM_WORDS: dict[str, Callable[[Rule, Linear, Shape], str]] = {
    "arrow": _arrow,
    "littlekiller": _little_killer,
    "zipper": _zipper,
    "doublearrow": _double_arrow,
    "regionsum": _region_sum,
}


def sum_words(rule: Rule, linear: Linear, shape: Shape) -> str:
    """What *rule*'s sum *linear* says, as the start of a sentence."""
    return SUM_WORDS[rule.kind](rule, linear, shape)


# -- groups --------------------------------------------------------------------------------------


def _cells(shape: Shape, cells: Sequence[int]) -> str:
    """The cells of a line in its order: ``'r1c1, r1c2 and r1c3'``; ``'r1c1 .. r1c6'`` beyond
    four."""
    if len(cells) <= 4:
        return join_words([_name(shape, c) for c in cells])
    return f"{_name(shape, cells[0])} .. {_name(shape, cells[-1])}"


def _side(rule: Rule, shape: Shape) -> str:
    cells = _f(rule, "cells")
    r, c = outside_clue(cells, shape.n)
    n = shape.n
    return "the left" if c < 0 else "the right" if c >= n else "the top" if r < 0 else "the bottom"


def _renban(rule: Rule, shape: Shape) -> str:
    cells = _f(rule, "cells")
    return (
        f"The renban line at {_name(shape, cells[0])} ({_cells(shape, cells)}) holds"
        f" {len(cells)} different digits that are consecutive, in any order"
    )


def _between(rule: Rule, shape: Shape) -> str:
    cells = _f(rule, "cells")
    ends = f"{_name(shape, cells[0])} and {_name(shape, cells[-1])}"
    return (
        f"On the between line at {_name(shape, cells[0])}, the digits between its ends {ends}"
        " lie strictly between the digits of the ends"
    )


def _quadruple(rule: Rule, shape: Shape) -> str:
    digits = _f(rule, "digits")
    needed = " and ".join(digit_name(shape, d) for d in digits)
    return (
        f"The {rule.describe(shape.n)} needs {needed} among its four cells"
        f" ({', '.join(_name(shape, c) for c in _f(rule, 'cells'))})"
    )


def _sandwich(rule: Rule, shape: Shape) -> str:
    where = line_of(_f(rule, "cells"), shape.n)
    top = digit_name(shape, shape.n)
    return (
        f"The sandwich {_f(rule, 'total')} of {where}: the digits between the 1 and the {top}"
        f" of {where} add up to {_f(rule, 'total')}"
    )


def _xsum(rule: Rule, shape: Shape) -> str:
    cells = _f(rule, "cells")
    where = line_of(cells, shape.n)
    return (
        f"The x-sum {_f(rule, 'total')} of {where} from {_side(rule, shape)}: the first X digits"
        f" from {_side(rule, shape)} add up to {_f(rule, 'total')}, X being the first one"
        f" ({_name(shape, cells[0])})"
    )


def _skyscraper(rule: Rule, shape: Shape) -> str:
    where = line_of(_f(rule, "cells"), shape.n)
    total = _f(rule, "total")
    seen = "1 of its digits is" if total == 1 else f"{total} of its digits are"
    return (
        f"The skyscraper {total} of {where} from {_side(rule, shape)}: seen from"
        f" {_side(rule, shape)}, {seen} higher than every digit before"
    )


def _sum_cage(rule: Rule, shape: Shape) -> str:
    cells = _f(rule, "cells")
    totals = " or ".join(str(t) for t in _f(rule, "totals"))
    return (
        f"The cage of several sums at {_name(shape, cells[0])} ({_cells(shape, cells)}) holds"
        f" different digits that add up to {totals}"
    )


#: The words of a group, by kind: ``words(rule, shape)``, a sentence's start.
GROUP_WORDS: dict[str, Callable[[Rule, Shape], str]] = {
    "renban": _renban,
    "between": _between,
    "quadruple": _quadruple,
    "sandwich": _sandwich,
    "xsum": _xsum,
    "skyscraper": _skyscraper,
    "sumcage": _sum_cage,
}


def group_words(rule: Rule, shape: Shape) -> str:
    """What *rule*'s group says, as the start of a sentence."""
    return GROUP_WORDS[rule.kind](rule, shape)


#: The kinds that compile only to units and "different" pairs (no words of their own).
UNIT_KINDS = frozenset({"diagonal", "disjointgroups", "extraregion", "taxicab"})
