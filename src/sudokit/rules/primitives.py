"""The search's primitive forms of a variant rule, and the meaning of each (layer 1).

Every rule kind (:mod:`sudokit.rules`) compiles to a few forms that the search propagates,
so that a new kind is words and a compilation, never a new propagator:

* **different** pairs: two cells never hold the same digit (extra peers);
* **units**: ``n`` cells that hold every digit once (the shape's extra units);
* **allowed** digits: a cell may hold only the digits of a mask;
* **relations**: a binary support table between two cells, ``table[x - 1]`` = the mask of the
  digits cell ``b`` may hold when cell ``a`` holds ``x``;
* **cages**: distinct digits adding up to a sum (the killer cage);
* **linear** sums: ``sum(coef * digit) == total`` over distinct cells, digits may repeat
  (arrows and pills, little killers, region-sum and zipper lines);
* **groups**: a predicate over an ordered list of cells, one of the :class:`GroupKind` codes,
  with integer parameters (renban, between lines, quadruples, sandwiches, x-sums,
  skyscrapers).

:func:`group_holds` is the meaning of a group on filled cells; a propagator may remove a digit
of a group's cell only when no filling of the group's cells from their candidates that holds
leaves it there (it is sound), and a filled group that does not hold is a contradiction.

>>> group_holds(GroupKind.RENBAN, (3, 5, 4), (), 9)
True
>>> group_holds(GroupKind.SANDWICH, (2, 1, 3, 4, 9, 5, 6, 7, 8), (7,), 9)
True
>>> linear_holds(((0, 1, 2), (1, 1, -1), 0), (2, 3, 5))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

__all__ = [
    "Group",
    "GroupKind",
    "Linear",
    "Relation",
    "group_holds",
    "linear_holds",
]

#: ``(a, b, table)``: when cell *a* holds ``x``, cell *b* holds a digit of ``table[x - 1]``.
Relation = tuple[int, int, tuple[int, ...]]
#: ``(cells, coefs, total)``: ``sum(coefs[i] * digit(cells[i])) == total``; cells distinct.
Linear = tuple[tuple[int, ...], tuple[int, ...], int]
#: ``(kind, cells, params)``: :func:`group_holds` of the cells' digits, in the listed order.
Group = tuple[int, tuple[int, ...], tuple[int, ...]]


class GroupKind(IntEnum):
    """The predicates a group can state (the same codes in the C core, ``sk_rules.h``).

    ``RENBAN``: the digits are distinct and consecutive in some order (no params).
    ``BETWEEN``: every cell but the first and last lies strictly between those two (no params).
    ``QUADRUPLE``: every digit of ``params`` appears among the cells, as often as it is listed.
    ``SANDWICH``: the digits strictly between the 1 and the ``n`` add up to ``params[0]``
    (the cells are a whole row or column, in order).
    ``XSUM``: the first ``x`` cells add up to ``params[0]``, ``x`` being the first cell's digit.
    ``SKYSCRAPER``: ``params[0]`` cells are higher than every cell before them (the first one
    counts).
    ``SUM_IN``: the digits add up to one of ``params`` (1 to 16 totals; digits may repeat).
    """

    RENBAN = 1
    BETWEEN = 2
    QUADRUPLE = 3
    SANDWICH = 4
    XSUM = 5
    SKYSCRAPER = 6
    SUM_IN = 7


def group_holds(kind: int, digits: Sequence[int], params: Sequence[int], n: int) -> bool:
    """Whether filled *digits* (of a group's cells, in order) obey the group.

    >>> K = GroupKind
    >>> group_holds(K.BETWEEN, (2, 5, 3, 7), (), 9), group_holds(K.BETWEEN, (7, 8, 2), (), 9)
    (True, False)
    >>> group_holds(GroupKind.QUADRUPLE, (1, 2, 1, 4), (1, 1), 9)
    True
    >>> group_holds(K.XSUM, (3, 1, 5, 9), (9,), 9), group_holds(K.SKYSCRAPER, (2, 1, 4, 3), (2,), 4)
    (True, True)
    >>> group_holds(K.SUM_IN, (3, 7), (10, 15), 9), group_holds(K.SUM_IN, (3, 8), (10, 15), 9)
    (True, False)
    """
    if kind == GroupKind.RENBAN:
        return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1
    if kind == GroupKind.BETWEEN:
        low, high = sorted((digits[0], digits[-1]))
        return all(low < d < high for d in digits[1:-1])
    if kind == GroupKind.QUADRUPLE:
        return all(list(digits).count(d) >= list(params).count(d) for d in set(params))
    if kind == GroupKind.SANDWICH:
        if 1 not in digits or n not in digits:
            return False
        i, j = sorted((list(digits).index(1), list(digits).index(n)))
        return sum(digits[i + 1 : j]) == params[0]
    if kind == GroupKind.XSUM:
        return digits[0] <= len(digits) and sum(digits[: digits[0]]) == params[0]
    if kind == GroupKind.SKYSCRAPER:
        seen, top = 0, 0
        for d in digits:
            if d > top:
                seen, top = seen + 1, d
        return seen == params[0]
    if kind == GroupKind.SUM_IN:
        return sum(digits) in params
    raise ValueError(f"unknown group kind {kind}")


def linear_holds(linear: Linear, digits: Sequence[int]) -> bool:
    """Whether filled *digits* (of the sum's cells, in order) obey a linear sum."""
    _, coefs, total = linear
    return sum(c * d for c, d in zip(coefs, digits, strict=True)) == total
