"""Rules over the whole board: one diagonal, disjoint groups, extra regions, chess moves
(layer 1).

>>> from sudokit.rules import Diagonal, DisjointGroups, Taxicab
>>> Diagonal(anti=1).compile(4).units
((3, 6, 9, 12),)
>>> DisjointGroups((2, 2)).compile(4).units[0]
(0, 2, 8, 10)
>>> len(Taxicab(2).compile(9).different)
254
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from itertools import combinations
from typing import ClassVar

from .base import Compiled, Part, Rule, cell_name, table
from .primitives import Relation

__all__ = [
    "Diagonal",
    "DiagonalNonconsecutive",
    "DisjointGroups",
    "ExtraRegion",
    "Knightmare",
    "SelfTaxicab",
    "Taxicab",
]

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _moves(n: int, steps: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and (rr, cc) > (r, c):
                    out.append((r * n + c, rr * n + cc))
    return out


def _distance_pairs(n: int, distance: int) -> list[tuple[int, int]]:
    """Cell pairs (a < b) a taxicab distance of exactly *distance* apart."""
    out = []
    for a in range(n * n):
        ra, ca = divmod(a, n)
        for b in range(a + 1, n * n):
            rb, cb = divmod(b, n)
            if abs(ra - rb) + abs(ca - cb) == distance:
                out.append((a, b))
    return out


def _not_both(d: int, x: int, y: int) -> bool:
    return not x == y == d


class _PairRule(Rule):
    """A global rule stated on pairs of cells; its ``parts`` are its pairs."""

    __slots__ = ()

    def pairs(self, n: int) -> list[tuple[int, int]]:
        raise NotImplementedError

    def holds(self, x: int, y: int, a: int, b: int, n: int) -> bool:
        raise NotImplementedError

    def compile(self, n: int) -> Compiled:
        """A relation on each pair, its table read off :meth:`holds` (shared by the pairs when
        the rule does not depend on where they are: ``positional`` False)."""
        relations: list[Relation] = []
        shared: tuple[int, ...] | None = None
        for a, b in self.pairs(n):
            if shared is None or self.positional:
                shared = table(n, partial(self._digits_hold, a, b, n))
            relations.append((a, b, shared))
        return Compiled(relations=relations)

    #: Whether :meth:`holds` depends on the cells (not only on the digits).
    positional: ClassVar[bool] = False

    def _digits_hold(self, a: int, b: int, n: int, x: int, y: int) -> bool:
        return self.holds(x, y, a, b, n)

    def _pair_holds(self, a: int, b: int, n: int, digits: tuple[int, ...]) -> bool:
        return self.holds(digits[0], digits[1], a, b, n)

    def parts(self, n: int) -> Iterable[Part]:
        for a, b in self.pairs(n):
            yield (
                (a, b),
                partial(self._pair_holds, a, b, n),
                (f"{cell_name(a, n)} and {cell_name(b, n)}"),
            )


class Diagonal(Rule, kind="diagonal", title="diagonal"):
    """One main diagonal as a unit: top-left to bottom-right, or (``anti`` = 1) top-right to
    bottom-left."""

    __slots__ = __match_args__ = ("anti",)
    _types = ("int",)
    anti: int

    def __init__(self, anti: int = 0) -> None:
        super().__init__(anti)

    def describe(self, n: int) -> str:
        return f"anti-diagonal (r1c{n} to r{n}c1)" if self.anti else f"diagonal (r1c1 to r{n}c{n})"

    def check(self, n: int) -> None:
        if self.anti not in (0, 1):
            raise ValueError(f"diagonal: anti is 0 or 1, got {self.anti}")

    def cells(self, n: int) -> tuple[int, ...]:
        if self.anti:
            return tuple(i * n + (n - 1 - i) for i in range(n))
        return tuple(i * n + i for i in range(n))

    def compile(self, n: int) -> Compiled:
        return Compiled(units=[self.cells(n)])

    def parts(self, n: int) -> Iterable[Part]:
        yield self.cells(n), lambda d: len(set(d)) == len(d), "a digit repeats on it"


class DisjointGroups(Rule, kind="disjointgroups", title="disjoint groups"):
    """Disjoint groups: the cells at the same place in every box hold every digit once;
    ``box`` is the boxes' rows and columns."""

    __slots__ = __match_args__ = ("box",)
    _types = ("ints",)
    box: tuple[int, ...]

    def check(self, n: int) -> None:
        if len(self.box) != 2 or self.box[0] * self.box[1] != n:
            raise ValueError(f"disjoint groups: boxes of {self.box} do not tile {n}x{n}")

    def groups(self, n: int) -> list[tuple[int, ...]]:
        rows, cols = self.box
        return [
            tuple((br * rows + i) * n + bc * cols + j for br in range(cols) for bc in range(rows))
            for i in range(rows)
            for j in range(cols)
        ]

    def compile(self, n: int) -> Compiled:
        return Compiled(units=self.groups(n))

    def parts(self, n: int) -> Iterable[Part]:
        for group in self.groups(n):
            yield (
                group,
                lambda d: len(set(d)) == len(d),
                (f"the group of {cell_name(group[0], n)} repeats a digit"),
            )


class ExtraRegion(Rule, kind="extraregion", title="extra region"):
    """An extra region: its cells hold distinct digits (every digit once when it has ``n``)."""

    __slots__ = __match_args__ = ("cells",)
    _types = ("cells",)
    cells: tuple[int, ...]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._set(tuple(sorted(self.cells)))

    def check(self, n: int) -> None:
        self.check_cells(n)
        if not self.cells or len(self.cells) > n:
            raise ValueError(f"{self.describe(n)} has {len(self.cells)} cells; 1 to {n} fit")

    def compile(self, n: int) -> Compiled:
        if len(self.cells) == n:
            return Compiled(units=[self.cells])
        return Compiled(different=combinations(self.cells, 2))

    def parts(self, n: int) -> Iterable[Part]:
        yield self.cells, lambda d: len(set(d)) == len(d), "a digit repeats in it"


class Knightmare(_PairRule, kind="knightmare", title="knightmare"):
    """Knightmare: cells a knight's move apart never add up to 5 or 15."""

    __slots__ = ()

    def pairs(self, n: int) -> list[tuple[int, int]]:
        return _moves(n, _KNIGHT)

    def holds(self, x: int, y: int, a: int, b: int, n: int) -> bool:
        return x + y not in (5, 15)


class DiagonalNonconsecutive(
    _PairRule, kind="diagonalnonconsecutive", title="diagonal non-consecutive"
):
    """Diagonal non-consecutive: diagonally adjacent cells never hold consecutive digits."""

    __slots__ = ()

    def pairs(self, n: int) -> list[tuple[int, int]]:
        return _moves(n, _DIAGONAL)

    def holds(self, x: int, y: int, a: int, b: int, n: int) -> bool:
        return abs(x - y) != 1


class Taxicab(_PairRule, kind="taxicab", title="taxicab"):
    """Taxicab: cells a taxicab (row + column) distance of exactly ``distance`` apart never
    hold the same digit."""

    __slots__ = __match_args__ = ("distance",)
    _types = ("int",)
    distance: int

    def describe(self, n: int) -> str:
        return f"taxicab {self.distance}"

    def check(self, n: int) -> None:
        if not 1 <= self.distance <= 2 * (n - 1):
            raise ValueError(f"taxicab: distance {self.distance} is outside 1..{2 * (n - 1)}")

    def pairs(self, n: int) -> list[tuple[int, int]]:
        return _distance_pairs(n, self.distance)

    def holds(self, x: int, y: int, a: int, b: int, n: int) -> bool:
        return x != y

    def compile(self, n: int) -> Compiled:
        return Compiled(different=self.pairs(n))


class SelfTaxicab(_PairRule, kind="selftaxicab", title="self-taxicab"):
    """Self-taxicab: a digit d never appears a taxicab distance of exactly d from another d."""

    __slots__ = ()

    def pairs(self, n: int) -> list[tuple[int, int]]:
        return [p for d in range(1, n + 1) for p in _distance_pairs(n, d)]

    def holds(self, x: int, y: int, a: int, b: int, n: int) -> bool:
        ra, ca = divmod(a, n)
        rb, cb = divmod(b, n)
        return not x == y == abs(ra - rb) + abs(ca - cb)

    def compile(self, n: int) -> Compiled:
        relations: list[Relation] = []
        for d in range(1, n + 1):
            t = table(n, partial(_not_both, d))
            relations.extend((a, b, t) for a, b in _distance_pairs(n, d))
        return Compiled(relations=relations)
