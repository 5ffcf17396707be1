"""The sum and count rules: arrows, little killers and the clues outside the grid (layer 1).

>>> from sudokit.rules import Arrow, LittleKiller
>>> Arrow((0,), ((1, 2),)).compile(9).linear
(((1, 2, 0), (1, 1, -1), 0),)
>>> Arrow((0, 1), ((2, 3),)).compile(9).linear  # a pill: the number 10 * r1c1 + r1c2
(((2, 3, 0, 1), (1, 1, -10, -1), 0),)
>>> LittleKiller((2, 10, 18), 12).describe(9)
'little killer 12 along r1c3 to r3c1'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache, partial
from itertools import pairwise
from typing import ClassVar

from .base import Compiled, Part, Rule, cell_name
from .primitives import GroupKind, group_holds

__all__ = [
    "Arrow",
    "LittleKiller",
    "Sandwich",
    "Skyscraper",
    "SumCage",
    "XSum",
    "line_of",
    "outside_clue",
]


def _circle_value(digits: Sequence[int]) -> int:
    value = 0
    for d in digits:
        value = value * 10 + d
    return value


class Arrow(Rule, kind="arrow", title="arrow"):
    """An arrow: the number in the circle (one cell) or the pill (two or three cells, read in
    order as a decimal number) equals the sum of the digits along each of its ``arrows``
    (digits may repeat along an arrow where the units allow)."""

    __slots__ = __match_args__ = ("circle", "arrows")
    _types = ("cells", "paths")
    circle: tuple[int, ...]
    arrows: tuple[tuple[int, ...], ...]

    def describe(self, n: int) -> str:
        what = "arrow" if len(self.circle) == 1 else f"{len(self.circle)}-cell pill arrow"
        return f"{what} at {cell_name(self.circle[0], n)}"

    def check(self, n: int) -> None:
        self.check_cells(n)
        if not 1 <= len(self.circle) <= 3:
            raise ValueError(f"{self.title}: the circle needs 1 to 3 cells, got {len(self.circle)}")
        if len(self.circle) > 1 and n > 9:
            raise ValueError(f"{self.describe(n)}: a pill reads decimal digits, so 9x9 at most")
        self.check_path(self.circle, n, what=f"the pill of {self.describe(n)}")
        if not self.arrows or any(not arrow for arrow in self.arrows):
            raise ValueError(f"{self.describe(n)} has no arrow cells")
        for arrow in self.arrows:
            if not any(_touches(c, arrow[0], n) for c in self.circle):
                raise ValueError(
                    f"{self.describe(n)}: the arrow from {cell_name(arrow[0], n)} does not"
                    " leave its circle"
                )
            self.check_path(arrow, n)
            if n * len(arrow) < 10 ** (len(self.circle) - 1):
                raise ValueError(
                    f"{self.describe(n)}: {len(arrow)} cells cannot add up to a"
                    f" {len(self.circle)}-digit number"
                )
            highest = n * (10 ** len(self.circle) - 1) // 9  # every circle digit n
            if len(arrow) > highest:
                raise ValueError(
                    f"{self.describe(n)}: {len(arrow)} cells cannot add up to {highest} or less"
                )

    def _coefs(self) -> tuple[int, ...]:
        k = len(self.circle)
        return tuple(-(10 ** (k - 1 - i)) for i in range(k))

    def compile(self, n: int) -> Compiled:
        return Compiled(
            linear=[
                (arrow + self.circle, (1,) * len(arrow) + self._coefs(), 0) for arrow in self.arrows
            ]
        )

    def parts(self, n: int) -> Iterable[Part]:
        for arrow in self.arrows:
            yield (
                arrow + self.circle,
                partial(_arrow_holds, len(arrow)),
                f"the arrow from {cell_name(arrow[0], n)} adds up to another number",
            )


def _arrow_holds(length: int, digits: tuple[int, ...]) -> bool:
    return sum(digits[:length]) == _circle_value(digits[length:])


def _touches(a: int, b: int, n: int) -> bool:
    ra, ca = divmod(a, n)
    rb, cb = divmod(b, n)
    return max(abs(ra - rb), abs(ca - cb)) == 1


def outside_clue(cells: Sequence[int], n: int) -> tuple[int, int]:
    """Where the clue of a line that starts at *cells*' first cell sits outside the grid:
    ``(row, col)``, 0-based, one step back from the first cell (so -1 or n on one side).

    >>> outside_clue((2, 10, 18), 9)
    (-1, 3)
    """
    r0, c0 = divmod(cells[0], n)
    if len(cells) == 1:
        dr, dc = (1, 0) if r0 == 0 else (-1, 0) if r0 == n - 1 else (0, 1) if c0 == 0 else (0, -1)
    else:
        r1, c1 = divmod(cells[1], n)
        dr, dc = r1 - r0, c1 - c0
    return r0 - dr, c0 - dc


def line_of(cells: Sequence[int], n: int) -> str | None:
    """``'row 3'`` / ``'column 5'`` (either direction) when *cells* are a whole row or column
    in order, else None.

    >>> line_of(range(9, 18), 9), line_of(range(72, -1, -9), 9)
    ('row 2', 'column 1')
    """
    cells = list(cells)
    if len(cells) != n:
        return None
    for step, word in ((1, "row"), (n, "column")):
        for seq in (cells, cells[::-1]):
            first = seq[0]
            if seq == [first + step * i for i in range(n)] and (
                (step == n and first < n) or (step == 1 and first % n == 0)
            ):
                number = first // n if step == 1 else first
                return f"{word} {number + 1}"
    return None


class LittleKiller(Rule, kind="littlekiller", title="little killer"):
    """A little killer: the digits along a diagonal, from the clue outside the grid (the first
    of ``cells``) to the far edge, add up to ``total``; digits may repeat."""

    __slots__ = __match_args__ = ("cells", "total")
    _types = ("cells", "int")
    cells: tuple[int, ...]
    total: int

    def describe(self, n: int) -> str:
        if not self.cells:
            return f"little killer {self.total}"
        return (
            f"little killer {self.total} along {cell_name(self.cells[0], n)} to"
            f" {cell_name(self.cells[-1], n)}"
        )

    def check(self, n: int) -> None:
        self.check_cells(n)
        if not self.cells:
            raise ValueError("little killer: no cells")
        steps = set()
        for a, b in pairwise(self.cells):
            ra, ca = divmod(a, n)
            rb, cb = divmod(b, n)
            steps.add((rb - ra, cb - ca))
        diagonal = len(steps) <= 1 and all(abs(dr) == abs(dc) == 1 for dr, dc in steps)
        r, c = outside_clue(self.cells, n)
        inward = not (0 <= r < n and 0 <= c < n)
        rl, cl = divmod(self.cells[-1], n)
        dr, dc = next(iter(steps)) if steps else (0, 0)
        to_edge = not (0 <= rl + dr < n and 0 <= cl + dc < n) if steps else True
        if not (diagonal and inward and to_edge):
            raise ValueError(
                f"{self.describe(n)}: the cells are not a diagonal from outside the grid to its"
                " edge"
            )
        if not len(self.cells) <= self.total <= n * len(self.cells):
            raise ValueError(
                f"{self.describe(n)}: {len(self.cells)} digits cannot add up to {self.total}"
                f" (possible: {len(self.cells)}..{n * len(self.cells)})"
            )

    def compile(self, n: int) -> Compiled:
        return Compiled(linear=[(self.cells, (1,) * len(self.cells), self.total)])

    def parts(self, n: int) -> Iterable[Part]:
        yield (
            self.cells,
            lambda d: sum(d) == self.total,
            f"the diagonal does not add up to {self.total}",
        )


class SumCage(Rule, kind="sumcage", title="cage of several sums"):
    """A killer cage of several sums: distinct digits that add up to one of ``totals``.

    >>> cage = SumCage((0, 1), (10, 15))
    >>> cage.describe(9), cage.broken(bytes([3, 7]), 9), len(cage.broken(bytes([3, 8]), 9))
    ('cage of sums 10/15 at r1c1', [], 1)
    >>> cage.compile(9).groups
    ((7, (0, 1), (10, 15)),)
    """

    __slots__ = __match_args__ = ("cells", "totals")
    _types = ("cells", "ints")
    cells: tuple[int, ...]
    totals: tuple[int, ...]

    def label(self) -> str:
        """The totals as the cage's corner writes them: ``'10/15'``."""
        return "/".join(str(t) for t in self.totals)

    def describe(self, n: int) -> str:
        where = f" at {cell_name(self.cells[0], n)}" if self.cells else ""
        return f"cage of sums {self.label()}{where}"

    def check(self, n: int) -> None:
        self.check_cells(n)
        size = len(self.cells)
        if not 1 <= size <= n:
            raise ValueError(f"{self.describe(n)} has {size} cells; 1 to {n} fit")
        if not 1 <= len(self.totals) <= 16 or len(set(self.totals)) != len(self.totals):
            raise ValueError(f"{self.describe(n)}: expected 1 to 16 different totals")
        low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
        for total in self.totals:
            if not low <= total <= high:
                raise ValueError(
                    f"{self.describe(n)}: {size} distinct digits cannot add up to {total}"
                    f" (possible: {low}..{high})"
                )

    def compile(self, n: int) -> Compiled:
        cells = self.cells
        return Compiled(
            different=[(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]],
            groups=[(int(GroupKind.SUM_IN), cells, self.totals)],
        )

    def parts(self, n: int) -> Iterable[Part]:
        yield (self.cells, lambda d: len(set(d)) == len(d), "a digit repeats in the cage")
        yield (
            self.cells,
            lambda d: sum(d) in self.totals,
            f"the cage adds up to none of {self.label()}",
        )


class _Outside(Rule):
    """A clue outside the grid about a whole row or column (``cells``, from the clue's side)."""

    __slots__ = __match_args__ = ("cells", "total")
    _types = ("cells", "int")
    cells: tuple[int, ...]
    total: int
    group: ClassVar[GroupKind]

    def describe(self, n: int) -> str:
        where = line_of(self.cells, n) or "a line"
        r, c = outside_clue(self.cells, n) if self.cells else (0, 0)
        side = "left" if c < 0 else "right" if c >= n else "top" if r < 0 else "bottom"
        return f"{self.title} {self.total} on {where} ({side})"

    def check(self, n: int) -> None:
        self.check_cells(n)
        if line_of(self.cells, n) is None:
            raise ValueError(f"{self.title} {self.total}: the cells are not a whole row or column")
        totals = self.totals(n)
        if self.total not in totals:
            raise ValueError(
                f"{self.describe(n)}: no digits make {self.total} (possible: {_spans(totals)})"
            )

    def totals(self, n: int) -> frozenset[int]:
        """Every total some row of digits 1..n makes."""
        raise NotImplementedError

    def compile(self, n: int) -> Compiled:
        return Compiled(groups=[(int(self.group), self.cells, (self.total,))])

    def parts(self, n: int) -> Iterable[Part]:
        kind = int(self.group)
        yield (
            self.cells,
            lambda d: group_holds(kind, d, (self.total,), n),
            (f"the line does not make {self.total}"),
        )


class Sandwich(_Outside, kind="sandwich", title="sandwich"):
    """A sandwich clue: the digits between the 1 and the largest digit of the row or column add
    up to ``total``."""

    __slots__ = ()
    group = GroupKind.SANDWICH

    def totals(self, n: int) -> frozenset[int]:
        return _subset_sums(tuple(range(2, n)))


class XSum(_Outside, kind="xsum", title="x-sum"):
    """An x-sum clue: the first X digits from the clue's side add up to ``total``, X being the
    first digit."""

    __slots__ = ()
    group = GroupKind.XSUM

    def totals(self, n: int) -> frozenset[int]:
        return _xsum_totals(n)


class Skyscraper(_Outside, kind="skyscraper", title="skyscraper"):
    """A skyscraper clue: seen from the clue, ``total`` digits are higher than all before them
    (digits are heights; a higher one hides the lower ones behind it)."""

    __slots__ = ()
    group = GroupKind.SKYSCRAPER

    def totals(self, n: int) -> frozenset[int]:
        return frozenset(range(1, n + 1))


def _spans(values: frozenset[int]) -> str:
    """``'0, 2..33, 35'``: a set of whole numbers as runs.

    >>> _spans(frozenset({0, 2, 3, 4, 7}))
    '0, 2..4, 7'
    """
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}..{b}" for a, b in runs)


@lru_cache(maxsize=64)
def _subset_sums(digits: tuple[int, ...], size: int | None = None) -> frozenset[int]:
    """The sums of the subsets of distinct *digits* (of *size* of them when given).

    >>> sorted(_subset_sums((2, 3, 4)))
    [0, 2, 3, 4, 5, 6, 7, 9]
    """
    by_size: dict[int, set[int]] = {0: {0}}
    for d in digits:
        for k in sorted(by_size, reverse=True):
            by_size.setdefault(k + 1, set()).update(t + d for t in by_size[k])
    if size is not None:
        return frozenset(by_size.get(size, ()))
    return frozenset(t for sums in by_size.values() for t in sums)


@lru_cache(maxsize=16)
def _xsum_totals(n: int) -> frozenset[int]:
    """The totals an x-sum clue can have on ``n x n``: X plus X - 1 other digits.

    >>> sorted(_xsum_totals(4))
    [1, 3, 5, 6, 8, 9, 10]
    """
    out: set[int] = set()
    for x in range(1, n + 1):
        others = tuple(d for d in range(1, n + 1) if d != x)
        out.update(x + t for t in _subset_sums(others, x - 1))
    return frozenset(out)
