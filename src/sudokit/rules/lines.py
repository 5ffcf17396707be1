"""The line rules: a path of cells drawn on the grid, read in its order (layer 1).

>>> from sudokit.rules import Whispers, Zipper
>>> Whispers((0, 1, 2)).compile(9).relations[0][2][4]  # after a 5 on a German whisper: nothing
0
>>> Zipper((0, 1, 2)).compile(9).linear
(((0, 2, 1), (1, 1, -1), 0),)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from itertools import combinations, pairwise
from typing import ClassVar

from .base import Compiled, Part, Rule, cell_name, table
from .primitives import GroupKind

__all__ = [
    "Between",
    "DoubleArrow",
    "Entropic",
    "Modular",
    "Nabner",
    "Palindrome",
    "RegionSum",
    "Renban",
    "SlowThermo",
    "Whispers",
    "Zipper",
]


class _Line(Rule):
    """A rule on one path of cells (``cells``, in the drawn order)."""

    __slots__ = __match_args__ = ("cells",)
    _types: ClassVar[tuple[str, ...]] = ("cells",)
    cells: tuple[int, ...]
    #: The fewest cells the line may have.
    shortest: ClassVar[int] = 2

    def check(self, n: int) -> None:
        self.check_cells(n)
        if len(self.cells) < self.shortest:
            raise ValueError(
                f"{self.title} needs at least {self.shortest} cells, got {len(self.cells)}"
            )
        self.check_path(self.cells, n)

    def pairs_along(self) -> Iterable[tuple[int, int]]:
        return pairwise(self.cells)


def _sums_to(coefs: tuple[int, ...], total: int, digits: tuple[int, ...]) -> bool:
    return sum(c * d for c, d in zip(coefs, digits, strict=True)) == total


def _halves_equal(k: int, digits: tuple[int, ...]) -> bool:
    return sum(digits[:k]) == sum(digits[k:])


def _equal(n: int) -> tuple[int, ...]:
    return table(n, lambda x, y: x == y)


class Renban(_Line, kind="renban", title="renban line"):
    """A renban line: distinct digits that form a run of consecutive numbers, in any order."""

    __slots__ = ()

    def check(self, n: int) -> None:
        super().check(n)
        if len(self.cells) > n:
            raise ValueError(f"{self.describe(n)} has {len(self.cells)} cells; at most {n} fit")

    def compile(self, n: int) -> Compiled:
        return Compiled(
            different=combinations(sorted(self.cells), 2),
            groups=[(GroupKind.RENBAN, self.cells, ())],
        )

    def parts(self, n: int) -> Iterable[Part]:
        yield (
            self.cells,
            lambda d: len(set(d)) == len(d) and max(d) - min(d) == len(d) - 1,
            "its digits are not a set of consecutive numbers",
        )


class Whispers(_Line, kind="whispers", title="whispers line"):
    """A whispers line: neighbours on the line differ by at least ``difference`` (German
    whispers: 5 on 9x9; Dutch: 4)."""

    __slots__ = ("difference",)
    __match_args__ = ("cells", "difference")
    _types = ("cells", "int")
    difference: int

    def __init__(self, cells: Iterable[int], difference: int = 5) -> None:
        Rule.__init__(self, cells, difference)

    def describe(self, n: int) -> str:
        return f"whispers line (difference {self.difference}) at {cell_name(self.cells[0], n)}"

    def check(self, n: int) -> None:
        super().check(n)
        if not 1 <= self.difference <= n - 1:
            raise ValueError(
                f"{self.describe(n)}: no two digits 1..{n} differ by {self.difference}"
            )

    def compile(self, n: int) -> Compiled:
        far = table(n, lambda x, y: abs(x - y) >= self.difference)
        return Compiled(relations=[(a, b, far) for a, b in self.pairs_along()])

    def parts(self, n: int) -> Iterable[Part]:
        for a, b in self.pairs_along():
            yield (
                (a, b),
                lambda d: abs(d[0] - d[1]) >= self.difference,
                (f"{cell_name(a, n)} and {cell_name(b, n)} differ by less than {self.difference}"),
            )


class Palindrome(_Line, kind="palindrome", title="palindrome line"):
    """A palindrome line: it reads the same from both ends."""

    __slots__ = ()

    def mirrored(self) -> Iterable[tuple[int, int]]:
        cells = self.cells
        return ((cells[i], cells[-1 - i]) for i in range(len(cells) // 2))

    def compile(self, n: int) -> Compiled:
        same = _equal(n)
        return Compiled(relations=[(a, b, same) for a, b in self.mirrored()])

    def parts(self, n: int) -> Iterable[Part]:
        for a, b in self.mirrored():
            yield (
                (a, b),
                lambda d: d[0] == d[1],
                (f"{cell_name(a, n)} and {cell_name(b, n)} differ"),
            )


class Between(_Line, kind="between", title="between line"):
    """A between line: every digit on the line lies strictly between the digits in the
    circles at its two ends."""

    __slots__ = ()

    def compile(self, n: int) -> Compiled:
        ends = (self.cells[0], self.cells[-1])
        inner = self.cells[1:-1]
        different = [(min(e, c), max(e, c)) for e in ends for c in inner]
        if inner:
            different.append((min(ends), max(ends)))
        return Compiled(
            different=different, groups=[(GroupKind.BETWEEN, self.cells, ())] if inner else ()
        )

    def parts(self, n: int) -> Iterable[Part]:
        yield (
            self.cells,
            lambda d: all(min(d[0], d[-1]) < x < max(d[0], d[-1]) for x in d[1:-1]),
            "a digit on the line is not between the ends",
        )


class SlowThermo(_Line, kind="slowthermo", title="slow thermometer"):
    """A slow thermometer: digits never decrease from the bulb (the first cell)."""

    __slots__ = ()

    def compile(self, n: int) -> Compiled:
        rising = table(n, lambda x, y: y >= x)
        return Compiled(relations=[(a, b, rising) for a, b in self.pairs_along()])

    def parts(self, n: int) -> Iterable[Part]:
        for a, b in self.pairs_along():
            yield (
                (a, b),
                lambda d: d[1] >= d[0],
                (f"{cell_name(b, n)} is lower than {cell_name(a, n)}"),
            )


class Nabner(_Line, kind="nabner", title="nabner line"):
    """A nabner line: no two digits on it are equal or consecutive."""

    __slots__ = ()

    def check(self, n: int) -> None:
        super().check(n)
        most = (n + 1) // 2
        if len(self.cells) > most:
            raise ValueError(
                f"{self.describe(n)} has {len(self.cells)} cells; at most {most} digits 1..{n}"
                " are neither equal nor consecutive"
            )

    def compile(self, n: int) -> Compiled:
        apart = table(n, lambda x, y: abs(x - y) >= 2)
        return Compiled(relations=[(a, b, apart) for a, b in combinations(self.cells, 2)])

    def parts(self, n: int) -> Iterable[Part]:
        for a, b in combinations(self.cells, 2):
            yield (
                (a, b),
                lambda d: abs(d[0] - d[1]) >= 2,
                (f"{cell_name(a, n)} and {cell_name(b, n)} are equal or consecutive"),
            )


def _classes(n: int, rule: str) -> tuple[int, ...]:
    """Each digit's class: entropic thirds (low, middle, high) or residue mod 3."""
    if rule == "entropic":
        third = n // 3
        return tuple(min((d - 1) // third, 2) for d in range(1, n + 1))
    return tuple(d % 3 for d in range(1, n + 1))


class _Classes(_Line):
    """Every three cells in a row on the line hold one digit of each of three classes."""

    __slots__ = ()

    def check(self, n: int) -> None:
        super().check(n)
        if n % 3:
            raise ValueError(f"{self.describe(n)}: the digits 1..{n} do not split into thirds")

    def compile(self, n: int) -> Compiled:
        of = _classes(n, self.kind)
        apart = table(n, lambda x, y: of[x - 1] != of[y - 1])
        cells = self.cells
        if len(cells) < 3:
            return Compiled()  # no three cells in a row: the line asks nothing
        near = [(cells[i], cells[j]) for i in range(len(cells)) for j in (i + 1, i + 2)
                if j < len(cells)]  # fmt: skip
        return Compiled(relations=[(a, b, apart) for a, b in near])

    def parts(self, n: int) -> Iterable[Part]:
        of = _classes(n, self.kind)
        cells = self.cells
        for i in range(len(cells) - 2):
            run = cells[i : i + 3]
            yield (
                run,
                lambda d: len({of[x - 1] for x in d}) == len(d),
                (f"the cells from {cell_name(run[0], n)} repeat a {self.word}"),
            )


class Entropic(_Classes, kind="entropic", title="entropic line", word="third of the digits"):
    """An entropic line: any three cells in a row on it hold a low (1-3), a middle (4-6) and a
    high (7-9) digit."""

    __slots__ = ()


class Modular(_Classes, kind="modular", title="modular line", word="residue modulo 3"):
    """A modular line: any three cells in a row on it hold digits of three different residues
    modulo 3."""

    __slots__ = ()


class Zipper(_Line, kind="zipper", title="zipper line"):
    """A zipper line: cells the same distance from the middle add up to the same total, the
    middle cell's digit when the line has one."""

    __slots__ = ()
    shortest = 3

    def _sums(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        cells = self.cells
        half = len(cells) // 2
        pairs = [(cells[i], cells[-1 - i]) for i in range(half)]
        if len(cells) % 2:
            middle = cells[half]
            return [((a, b, middle), (1, 1, -1), 0) for a, b in pairs]
        (a0, b0), rest = pairs[0], pairs[1:]
        return [((a0, b0, a, b), (1, 1, -1, -1), 0) for a, b in rest]

    def compile(self, n: int) -> Compiled:
        return Compiled(linear=self._sums())

    def parts(self, n: int) -> Iterable[Part]:
        for cells, coefs, total in self._sums():
            yield (
                cells,
                partial(_sums_to, coefs, total),
                f"the pair at {cell_name(cells[0], n)} has another total",
            )


class DoubleArrow(_Line, kind="doublearrow", title="double arrow"):
    """A double arrow: the digits between its two ends add up to the sum of the ends."""

    __slots__ = ()
    shortest = 3

    def _sum(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        cells = self.cells
        coefs = (1,) + (-1,) * (len(cells) - 2) + (1,)
        return cells, coefs, 0

    def compile(self, n: int) -> Compiled:
        return Compiled(linear=[self._sum()])

    def parts(self, n: int) -> Iterable[Part]:
        yield (
            self.cells,
            lambda d: d[0] + d[-1] == sum(d[1:-1]),
            ("the line does not add up to its ends"),
        )


class RegionSum(Rule, kind="regionsum", title="region-sum line"):
    """A region-sum line: its pieces in each box or region (``segments``, in order along the
    line) all add up to the same total."""

    __slots__ = __match_args__ = ("segments",)
    _types = ("paths",)
    segments: tuple[tuple[int, ...], ...]

    def check(self, n: int) -> None:
        self.check_cells(n)
        if len(self.segments) < 1 or any(not s for s in self.segments):
            raise ValueError(f"{self.title} needs cells in every segment")
        path = [c for segment in self.segments for c in segment]
        self.check_path(path, n)

    def _sums(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        out = []
        for first, second in pairwise(self.segments):
            out.append((first + second, (1,) * len(first) + (-1,) * len(second), 0))
        return out

    def compile(self, n: int) -> Compiled:
        return Compiled(linear=self._sums())

    def parts(self, n: int) -> Iterable[Part]:
        for first, second in pairwise(self.segments):
            k = len(first)
            yield (
                first + second,
                partial(_halves_equal, k),
                (
                    f"the pieces at {cell_name(first[0], n)} and {cell_name(second[0], n)} add"
                    " up to different totals"
                ),
            )
