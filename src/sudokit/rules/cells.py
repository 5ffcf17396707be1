"""Rules on a few cells: dots and sums between two, quadruples, extremes, clones, indexers
(layer 1).

>>> from sudokit.rules import Difference, Quadruple
>>> Difference((0, 1), 3).describe(9)
'difference 3 dot between r1c1 and r1c2'
>>> Quadruple((0, 1, 9, 10), (1, 2)).compile(9).groups
((3, (0, 1, 9, 10), (1, 2)),)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache, partial
from typing import ClassVar

from .base import Compiled, Part, Rule, cell_name, table
from .primitives import GroupKind

__all__ = [
    "BoxIndexer",
    "Clone",
    "ColumnIndexer",
    "Difference",
    "Maximum",
    "Minimum",
    "PairSum",
    "Quadruple",
    "Ratio",
    "RowIndexer",
    "orthogonal",
]


def orthogonal(cell: int, n: int) -> list[int]:
    """The orthogonal neighbours of *cell*.

    >>> orthogonal(0, 3), orthogonal(4, 3)
    ([1, 3], [1, 3, 5, 7])
    """
    r, c = divmod(cell, n)
    near = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
    return [rr * n + cc for rr, cc in near if 0 <= rr < n and 0 <= cc < n]


class _Dot(Rule):
    """A mark between two orthogonally adjacent cells with a number (``value``)."""

    __slots__ = __match_args__ = ("cells", "value")
    _types = ("cells", "int")
    cells: tuple[int, ...]
    value: int

    def describe(self, n: int) -> str:
        a, b = (*self.cells, 0, 0)[:2]
        return f"{self.word} {self.value} dot between {cell_name(a, n)} and {cell_name(b, n)}"

    def holds(self, x: int, y: int) -> bool:
        raise NotImplementedError

    def check(self, n: int) -> None:
        self.check_cells(n)
        if len(self.cells) != 2 or self.cells[1] not in orthogonal(self.cells[0], n):
            raise ValueError(f"{self.title}: the cells are not two orthogonal neighbours")
        if not any(self.holds(x, y) for x in range(1, n + 1) for y in range(1, n + 1) if x != y):
            raise ValueError(f"{self.describe(n)}: no two digits 1..{n} fit it")

    def compile(self, n: int) -> Compiled:
        a, b = self.cells
        return Compiled(relations=[(a, b, table(n, self.holds))])

    def parts(self, n: int) -> Iterable[Part]:
        yield self.cells, lambda d: self.holds(d[0], d[1]), f"the digits do not fit {self.value}"


class Difference(_Dot, kind="difference", title="difference dot", word="difference"):
    """A difference dot (a white kropki dot of any value): the two digits differ by ``value``."""

    __slots__ = ()

    def holds(self, x: int, y: int) -> bool:
        return abs(x - y) == self.value


class Ratio(_Dot, kind="ratio", title="ratio dot", word="ratio"):
    """A ratio dot (a black kropki dot of any value): one digit is ``value`` times the other."""

    __slots__ = ()

    def holds(self, x: int, y: int) -> bool:
        return x == self.value * y or y == self.value * x


class PairSum(_Dot, kind="pairsum", title="sum mark", word="sum"):
    """A sum between two cells (XV-style, any value): the two digits add up to ``value``."""

    __slots__ = ()

    def describe(self, n: int) -> str:
        a, b = (*self.cells, 0, 0)[:2]
        return f"sum {self.value} between {cell_name(a, n)} and {cell_name(b, n)}"

    def holds(self, x: int, y: int) -> bool:
        return x + y == self.value


class Quadruple(Rule, kind="quadruple", title="quadruple"):
    """A quadruple: the digits in the circle on a corner appear in the four cells around it
    (a digit listed twice appears twice)."""

    __slots__ = __match_args__ = ("cells", "digits")
    _types = ("cells", "ints")
    cells: tuple[int, ...]
    digits: tuple[int, ...]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._set(tuple(sorted(self.cells)), tuple(sorted(self.digits)))

    def describe(self, n: int) -> str:
        digits = "".join(str(d) for d in self.digits)
        return f"quadruple {digits} at {cell_name(self.cells[0], n)}" if self.cells else "quadruple"

    def check(self, n: int) -> None:
        self.check_cells(n)
        cells = self.cells
        if len(cells) != 4:
            raise ValueError(f"{self.describe(n)} needs the 4 cells of a 2x2 square")
        c = cells[0] % n
        if c == n - 1 or cells != (cells[0], cells[0] + 1, cells[0] + n, cells[0] + n + 1):
            raise ValueError(f"{self.describe(n)}: the cells are not a 2x2 square")
        if not 1 <= len(self.digits) <= 4 or any(not 1 <= d <= n for d in self.digits):
            raise ValueError(f"{self.describe(n)}: needs 1 to 4 digits in 1..{n}")
        if any(self.digits.count(d) > 2 for d in self.digits):
            raise ValueError(f"{self.describe(n)}: a digit fits at most twice in a 2x2 square")

    def compile(self, n: int) -> Compiled:
        return Compiled(groups=[(int(GroupKind.QUADRUPLE), self.cells, self.digits)])

    def parts(self, n: int) -> Iterable[Part]:
        need = self.digits
        yield (
            self.cells,
            lambda d: all(d.count(x) >= need.count(x) for x in need),
            ("the four cells miss one of its digits"),
        )


class _Extreme(Rule):
    """Cells each lower (minimum) or higher (maximum) than its orthogonal neighbours outside
    the rule's cells (f-puzzles' fortress cells: neighbours in the group are not compared)."""

    __slots__ = __match_args__ = ("cells",)
    _types = ("cells",)
    cells: tuple[int, ...]
    lower: ClassVar[bool] = True

    def check(self, n: int) -> None:
        self.check_cells(n)
        if not self.cells:
            raise ValueError(f"{self.title}: no cells")

    def _holds(self, x: int, y: int) -> bool:
        return x < y if self.lower else x > y

    def _pairs(self, n: int) -> list[tuple[int, int]]:
        mine = set(self.cells)
        return [(a, b) for a in self.cells for b in orthogonal(a, n) if b not in mine]

    def compile(self, n: int) -> Compiled:
        than = table(n, self._holds)
        return Compiled(relations=[(a, b, than) for a, b in self._pairs(n)])

    def parts(self, n: int) -> Iterable[Part]:
        word = "lower" if self.lower else "higher"
        for a, b in self._pairs(n):
            yield (
                (a, b),
                lambda d: self._holds(d[0], d[1]),
                (f"{cell_name(a, n)} is not {word} than {cell_name(b, n)}"),
            )


class Minimum(_Extreme, kind="minimum", title="minimum"):
    """Minimum cells: each lower than its orthogonal neighbours outside ``cells``."""

    __slots__ = ()


class Maximum(_Extreme, kind="maximum", title="maximum"):
    """Maximum cells: each higher than its orthogonal neighbours outside ``cells``."""

    __slots__ = ()
    lower = False


class Clone(Rule, kind="clone", title="clone"):
    """A clone: ``cells`` and ``copy`` (listed in matching order) hold the same digits."""

    __slots__ = __match_args__ = ("cells", "copy")
    _types = ("cells", "cells")
    cells: tuple[int, ...]
    copy: tuple[int, ...]

    def cells_of(self) -> tuple[int, ...]:
        return self.cells + self.copy

    def check(self, n: int) -> None:
        self.check_cells(n)
        if not self.cells or len(self.cells) != len(self.copy):
            raise ValueError(
                f"{self.title}: {len(self.cells)} cells and a copy of {len(self.copy)}"
            )

    def compile(self, n: int) -> Compiled:
        same = table(n, lambda x, y: x == y)
        return Compiled(
            relations=[(a, b, same) for a, b in zip(self.cells, self.copy, strict=True)]
        )

    def parts(self, n: int) -> Iterable[Part]:
        for a, b in zip(self.cells, self.copy, strict=True):
            yield (
                (a, b),
                lambda d: d[0] == d[1],
                (f"{cell_name(a, n)} and its copy {cell_name(b, n)} differ"),
            )


def _points(where: int, mine: int, x: int, y: int) -> bool:
    """An indexer holding x and the cell at position *where* holding y: y is *mine* exactly
    when x points at it."""
    return (x == where) == (y == mine)


@lru_cache(maxsize=4096)
def _points_table(n: int, where: int, mine: int) -> tuple[int, ...]:
    """The support table of :func:`_points` on ``n x n`` (one per position and digit, so at
    most ``n * n`` of them: built once, not once per indexer cell and line cell)."""
    return table(n, partial(_points, where, mine))


def _points_at(mine: int, digits: tuple[int, ...]) -> bool:
    return digits[digits[0]] == mine


class _Indexer(Rule):
    """Indexer cells: a digit X in an indexer cell says where, in its row (column indexer),
    column (row indexer) or box (box indexer), the digit of its own position goes."""

    __slots__ = __match_args__ = ("cells",)
    _types: ClassVar[tuple[str, ...]] = ("cells",)
    cells: tuple[int, ...]

    def line(self, cell: int, n: int) -> list[int]:
        """The cells the indexer cell points into, in order (its row, column or box)."""
        raise NotImplementedError

    def position(self, cell: int, n: int) -> int:
        return self.line(cell, n).index(cell)

    def check(self, n: int) -> None:
        self.check_cells(n)

    def compile(self, n: int) -> Compiled:
        relations = []
        for a in self.cells:
            line = self.line(a, n)
            mine = self.position(a, n) + 1  # the digit a's digit places
            for j, b in enumerate(line):
                if b != a:
                    # b holds `mine` exactly when a points at b (one `mine` in the line)
                    relations.append((a, b, _points_table(n, j + 1, mine)))
        return Compiled(relations=relations)

    def parts(self, n: int) -> Iterable[Part]:
        for a in self.cells:
            line = self.line(a, n)
            mine = self.position(a, n) + 1
            yield (
                (a, *line),
                partial(_points_at, mine),
                (f"{cell_name(a, n)} does not point at its {mine}"),
            )


class ColumnIndexer(_Indexer, kind="columnindexer", title="column indexer"):
    """Column indexers: X in row r, column c means column X of row r holds c."""

    __slots__ = ()

    def line(self, cell: int, n: int) -> list[int]:
        r = cell // n
        return [r * n + j for j in range(n)]


class RowIndexer(_Indexer, kind="rowindexer", title="row indexer"):
    """Row indexers: X in row r, column c means row X of column c holds r."""

    __slots__ = ()

    def line(self, cell: int, n: int) -> list[int]:
        c = cell % n
        return [i * n + c for i in range(n)]


class BoxIndexer(_Indexer, kind="boxindexer", title="box indexer"):
    """Box indexers: X at position p of a box (reading order) means position X of the box
    holds p; ``box`` is the boxes' rows and columns."""

    __slots__ = ("box",)
    __match_args__ = ("cells", "box")
    _types = ("cells", "ints")
    box: tuple[int, ...]

    def check(self, n: int) -> None:
        super().check(n)
        if len(self.box) != 2 or self.box[0] * self.box[1] != n:
            raise ValueError(f"{self.title}: boxes of {self.box} do not tile {n}x{n}")

    def line(self, cell: int, n: int) -> list[int]:
        rows, cols = self.box
        r, c = divmod(cell, n)
        r0, c0 = r - r % rows, c - c % cols
        return [(r0 + i) * n + c0 + j for i in range(rows) for j in range(cols)]
