"""The rule kinds of :mod:`sudokit.rules` drawn from a random solution, as a setter would draw
them: arrows, little killers, sandwich / x-sum / skyscraper clues, renban, whispers,
palindrome and between lines, minimum / maximum cells.

:func:`pool` draws, per kind, a shuffled list of candidate rules that the solution keeps:

* *arrow*: a circle on a digit of at least 3 and a king-path of 2 to 4 cells from a
  neighbour of the circle whose digits add up to it;
* *littlekiller*: a diagonal from outside the grid to the far edge (2 to n-1 cells) and
  its sum;
* *sandwich*: a row or column and the sum between its 1 and its n; *xsum* and
  *skyscraper*: a row or column seen from one side and its clue;
* *renban*: a king-path of 2 to 5 cells whose digits are consecutive;
* *whispers*: a king-path of 2 to 6 cells whose neighbours differ by at least
  ``(n + 1) // 2`` (5 on 9x9, 3 on 6x6);
* *palindrome*: a king-path of 3 to 6 cells that reads the same from both ends;
* *between*: a king-path of 3 to 6 cells whose inner digits lie strictly between its ends;
* *minmax*: a cell lower (minimum) or higher (maximum) than its orthogonal neighbours.

Lines and arrows of one puzzle share no cell and cross no diagonal step of another
(:class:`Layout` keeps them apart); clues outside the grid use no cells.

>>> import random
>>> grid = bytes([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
>>> rules = pool(("sandwich",), grid, 4, random.Random(1), Layout(4))
>>> sorted(r.total for r in rules)
[0, 0, 0, 0, 5, 5, 5, 5]
>>> all(not r.broken(grid, 4) for r in rules)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import pairwise

from ..rules import (
    Arrow,
    Between,
    LittleKiller,
    Maximum,
    Minimum,
    Palindrome,
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    Whispers,
    XSum,
)
from ..rules.sums import outside_clue
from .jigsaw import _neighbours
from .search import shuffled

__all__ = ["KINDS", "Layout", "pool", "whisper_gap"]

#: The kinds drawn here, by the names of their switches (``--arrow``, ...).
KINDS = (
    "arrow",
    "littlekiller",
    "sandwich",
    "renban",
    "whispers",
    "palindrome",
    "between",
    "minmax",
    "xsum",
    "skyscraper",
)
#: Tries at one path-shaped rule per cell of the grid.
_TRIES = 10


def whisper_gap(n: int) -> int:
    """The least difference of neighbours on a whispers line of an ``n x n`` grid.

    >>> whisper_gap(9), whisper_gap(6), whisper_gap(4)
    (5, 3, 2)
    """
    return (n + 1) // 2


class Layout:
    """The cells and diagonal steps the lines and arrows of one puzzle already use."""

    __slots__ = ("crossings", "n", "used")

    def __init__(self, n: int) -> None:
        self.n = n
        self.used: set[int] = set()
        self.crossings: set[tuple[int, int]] = set()

    def _cross(self, a: int, b: int) -> tuple[int, int] | None:
        """The 2x2 block a diagonal step crosses (None for an orthogonal step)."""
        ra, ca = divmod(a, self.n)
        rb, cb = divmod(b, self.n)
        return (min(ra, rb), min(ca, cb)) if ra != rb and ca != cb else None

    def free(self, path: Sequence[int], j: int) -> bool:
        """True when *path* may go on to cell *j*."""
        if j in self.used or j in path:
            return False
        return not path or self._cross(path[-1], j) not in self.crossings

    def fits(self, cells: Sequence[int]) -> bool:
        """True when *cells* (a path) use no used cell and cross no used step."""
        if self.used.intersection(cells) or len(set(cells)) != len(cells):
            return False
        steps = [self._cross(a, b) for a, b in pairwise(cells)]
        crossed = [s for s in steps if s is not None]
        return len(set(crossed)) == len(crossed) and not self.crossings.intersection(crossed)

    def take(self, cells: Sequence[int]) -> None:
        """Mark *cells* (a path) used."""
        self.used.update(cells)
        for a, b in pairwise(cells):
            cross = self._cross(a, b)
            if cross is not None:
                self.crossings.add(cross)


def _walk(
    start: int,
    length: int,
    n: int,
    rng: random.Random,
    layout: Layout,
    ok: Callable[[list[int], int], bool],
) -> list[int]:
    """A random king-path from *start* of up to *length* cells, each next cell free in
    *layout* and accepted by ``ok(path, cell)``."""
    king = _neighbours(n, king=True)
    path = [start]
    while len(path) < length:
        options = [j for j in king[path[-1]] if layout.free(path, j) and ok(path, j)]
        if not options:
            break
        path.append(options[int(rng.random() * len(options))])
    return path


def _lines(
    n: int,
    rng: random.Random,
    layout: Layout,
    lengths: tuple[int, int],
    make: Callable[[int, int], list[int] | None],
) -> list[list[int]]:
    """Disjoint paths drawn by ``make(start, length)`` from random starts (None: no path)."""
    out: list[list[int]] = []
    for _ in range(_TRIES * n):
        start = rng.randrange(n * n)
        if start in layout.used:
            continue
        path = make(start, lengths[0] + rng.randrange(lengths[1] - lengths[0] + 1))
        if path is not None and len(path) >= lengths[0] and layout.fits(path):
            layout.take(path)
            out.append(path)
    return out


def _arrows(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    king = _neighbours(n, king=True)
    out: list[Rule] = []
    for _ in range(_TRIES * n):
        circle = rng.randrange(n * n)
        if circle in layout.used or s[circle] < 3:
            continue
        total = s[circle]
        firsts = [j for j in king[circle] if j not in layout.used and s[j] < total]
        if not firsts:
            continue
        first = firsts[int(rng.random() * len(firsts))]

        def fits(path: list[int], j: int, total: int = total, circle: int = circle) -> bool:
            return j != circle and sum(s[i] for i in path) + s[j] <= total

        path = _walk(first, 4, n, rng, layout, fits)
        while path and sum(s[i] for i in path) > total:
            path.pop()
        if len(path) >= 2 and sum(s[i] for i in path) == total and layout.fits([circle, *path]):
            layout.take([circle])
            layout.take(path)
            out.append(Arrow((circle,), (tuple(path),)))
    return out


def _diagonals(n: int) -> list[tuple[int, ...]]:
    """Every diagonal from a clue outside the grid to the far edge, 2 to n - 1 cells."""
    out = []
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        for r in range(n):
            for c in range(n):
                if 0 <= r - dr < n and 0 <= c - dc < n:
                    continue  # the cell before is inside: not a start
                cells = []
                rr, cc = r, c
                while 0 <= rr < n and 0 <= cc < n:
                    cells.append(rr * n + cc)
                    rr, cc = rr + dr, cc + dc
                if 2 <= len(cells) < n:
                    out.append(tuple(cells))
    return out


def _little_killers(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    seen: set[tuple[tuple[int, int], frozenset[int]]] = set()
    out: list[Rule] = []
    for cells in _diagonals(n):
        key = (outside_clue(cells, n), frozenset(cells))
        if key not in seen:
            seen.add(key)
            out.append(LittleKiller(cells, sum(s[i] for i in cells)))
    return out


def _sides(n: int, both: bool) -> list[tuple[int, ...]]:
    """Every row and column in order from its clue's side (from both sides with *both*)."""
    lines = [tuple(range(r * n, r * n + n)) for r in range(n)]
    lines += [tuple(range(c, n * n, n)) for c in range(n)]
    return lines + [line[::-1] for line in lines] if both else lines


def _sandwiches(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    out: list[Rule] = []
    for line in _sides(n, False):
        digits = [s[i] for i in line]
        a, b = sorted((digits.index(1), digits.index(n)))
        out.append(Sandwich(line, sum(digits[a + 1 : b])))
    return out


def _xsums(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    return [XSum(line, sum(s[i] for i in line[: s[line[0]]])) for line in _sides(n, True)]


def _skyscrapers(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    out: list[Rule] = []
    for line in _sides(n, True):
        seen, top = 0, 0
        for i in line:
            if s[i] > top:
                seen, top = seen + 1, s[i]
        out.append(Skyscraper(line, seen))
    return out


def _renbans(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    def make(start: int, length: int) -> list[int] | None:
        def ok(path: list[int], j: int) -> bool:
            digits = [s[i] for i in path] + [s[j]]
            return len(set(digits)) == len(digits) and max(digits) - min(digits) < length

        path = _walk(start, length, n, rng, layout, ok)
        digits = [s[i] for i in path]
        return path if max(digits) - min(digits) == len(path) - 1 else None

    return [Renban(tuple(p)) for p in _lines(n, rng, layout, (2, min(5, n)), make)]


def _whispers(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    gap = whisper_gap(n)

    def make(start: int, length: int) -> list[int]:
        return _walk(start, length, n, rng, layout, lambda p, j: abs(s[p[-1]] - s[j]) >= gap)

    return [Whispers(p, gap) for p in _lines(n, rng, layout, (2, 6), make)]


def _palindromes(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    king = _neighbours(n, king=True)

    def make(start: int, length: int) -> list[int] | None:
        path = [start]
        if length % 2 == 0:
            twins = [j for j in king[start] if s[j] == s[start] and layout.free(path, j)]
            if not twins:
                return None
            path.append(twins[int(rng.random() * len(twins))])
        while len(path) + 2 <= length:
            pairs = [
                (a, b)
                for a in king[path[0]]
                if layout.free(path[::-1], a)
                for b in king[path[-1]]
                if b != a and s[a] == s[b] and layout.free(path, b)
            ]
            if not pairs:
                break
            a, b = pairs[int(rng.random() * len(pairs))]
            path = [a, *path, b]
        return path if len(path) >= 3 else None

    return [Palindrome(tuple(p)) for p in _lines(n, rng, layout, (3, 6), make)]


def _betweens(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    king = _neighbours(n, king=True)

    def make(start: int, length: int) -> list[int] | None:
        low = s[start]
        up = rng.random() < 0.5
        # inner digits beyond the start's, on the far side; the end beyond every inner one
        inner = _walk(
            start,
            length - 1,
            n,
            rng,
            layout,
            lambda p, j: (s[j] > low) if up else (s[j] < low),
        )
        if len(inner) < 2:
            return None
        far = max(s[i] for i in inner[1:]) if up else min(s[i] for i in inner[1:])
        ends = [
            j
            for j in king[inner[-1]]
            if layout.free(inner, j) and ((s[j] > far) if up else (s[j] < far))
        ]
        if not ends:
            return None
        return [*inner, ends[int(rng.random() * len(ends))]]

    return [Between(tuple(p)) for p in _lines(n, rng, layout, (3, 6), make)]


def _extremes(s: bytes, n: int, rng: random.Random, layout: Layout) -> list[Rule]:
    near = _neighbours(n)
    out: list[Rule] = []
    for i in range(n * n):
        if i in layout.used:
            continue
        if all(s[i] < s[j] for j in near[i]):
            out.append(Minimum((i,)))
        elif all(s[i] > s[j] for j in near[i]):
            out.append(Maximum((i,)))
    return out


_DRAW: dict[str, Callable[[bytes, int, random.Random, Layout], list[Rule]]] = {
    "arrow": _arrows,
    "littlekiller": _little_killers,
    "sandwich": _sandwiches,
    "renban": _renbans,
    "whispers": _whispers,
    "palindrome": _palindromes,
    "between": _betweens,
    "minmax": _extremes,
    "xsum": _xsums,
    "skyscraper": _skyscrapers,
}


def pool(
    kinds: Sequence[str], solution: bytes, n: int, rng: random.Random, layout: Layout
) -> list[Rule]:
    """Candidate rules of *kinds* that *solution* keeps, shuffled (lines and arrows placed
    in *layout*, which remembers them)."""
    out: list[Rule] = []
    for kind in kinds:
        out.extend(_DRAW[kind](solution, n, rng, layout))
    return shuffled(out, rng)
