"""Random linear sums, groups and rule kinds drawn from a solution grid, for the parity tests
of the C core's propagators (``tests/engine/test_rule_primitives.py``) and
``benchmarks/bench_rule_primitives.py``.

* :class:`Raw`: a rule that is its primitive forms as given (linear sums and groups), so that
  any primitive, not only those the registered kinds compile to, reaches both engines through
  ``Constraints(rules=[...])``; it is not registered (no JSON form).
* :func:`solution`: a random solved grid of a boxed shape (a relabelled, permuted band pattern).
* :func:`random_linear`, :func:`random_groups`, :func:`random_kinds`: primitives and rules that
  the solution obeys (their totals and params are read from it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from sudokit.grid import Grid
from sudokit.rules import (
    Arrow,
    Between,
    DoubleArrow,
    GroupKind,
    LittleKiller,
    Quadruple,
    RegionSum,
    Renban,
    Rule,
    Sandwich,
    Skyscraper,
    XSum,
    Zipper,
)
from sudokit.rules.base import Compiled, Part
from sudokit.rules.primitives import Group, Linear, group_holds, linear_holds
from sudokit.shape import Shape


class Raw(Rule):
    """Linear sums and groups as given (each a part of :meth:`parts`)."""

    __slots__ = ("groups", "linear")
    __match_args__ = ("linear", "groups")
    linear: tuple[Linear, ...]
    groups: tuple[Group, ...]
    kind: ClassVar[str] = "raw"
    title: ClassVar[str] = "raw primitives"

    def __init__(self, linear: Iterable[Linear] = (), groups: Iterable[Group] = ()) -> None:
        self._set(tuple(linear), tuple(groups))

    def check(self, n: int) -> None:
        pass

    def describe(self, n: int) -> str:
        return self.title

    def compile(self, n: int) -> Compiled:
        return Compiled(linear=self.linear, groups=self.groups)

    def parts(self, n: int) -> Iterable[Part]:
        for item in self.linear:
            yield item[0], lambda d, item=item: linear_holds(item, d), "a linear sum"
        for kind, cells, params in self.groups:
            yield (
                cells,
                lambda d, k=kind, p=params: group_holds(k, d, p, n),
                f"group {GroupKind(kind).name}",
            )


def solution(shape: Shape, rng: random.Random) -> bytes:
    """A random solved grid of the plain boxed *shape*."""
    from sudokit.generator.fill import band_pattern
    from sudokit.transform import random_isomorph

    return bytes(random_isomorph(Grid(band_pattern(shape), shape), rng).cells)


def lines(n: int) -> list[tuple[int, ...]]:
    """Every row and column of an n x n grid, both directions."""
    rows = [tuple(range(r * n, r * n + n)) for r in range(n)]
    cols = [tuple(range(c, n * n, n)) for c in range(n)]
    return [line for line in rows + cols for line in (line, line[::-1])]


def random_linear(sol: bytes, n: int, rng: random.Random, count: int) -> list[Linear]:
    """*count* sums of 1..4 random cells with coefficients in -3..3 (and now and then -10),
    their totals read from *sol*."""
    found: list[Linear] = []
    for _ in range(count):
        cells = tuple(rng.sample(range(n * n), rng.randint(1, 4)))
        coefs = tuple(rng.choice((-10, -3, -2, -1, 1, 1, 2, 3)) for _ in cells)
        found.append((cells, coefs, sum(c * sol[i] for c, i in zip(coefs, cells, strict=True))))
    return found


def _where(sol: bytes, digit: int, rng: random.Random) -> int:
    return rng.choice([i for i, d in enumerate(sol) if d == digit])


def random_group(sol: bytes, n: int, kind: GroupKind, rng: random.Random) -> Group:
    """A group of *kind* that *sol* obeys: cells anywhere (renban, between, quadruple), a row or
    column or, now and then, random cells (sandwich, x-sum, skyscraper); any cells for sum-in."""
    if kind == GroupKind.RENBAN:
        size = rng.randint(1, min(n, 5))
        low = rng.randint(1, n - size + 1)
        cells = [_where(sol, d, rng) for d in range(low, low + size)]
        rng.shuffle(cells)
        return int(kind), tuple(cells), ()
    if kind == GroupKind.BETWEEN:
        a = rng.randint(1, n - 2)
        b = rng.randint(a + 2, n)
        inner = list(range(a + 1, b))
        ends = [_where(sol, a, rng), _where(sol, b, rng)]
        rng.shuffle(ends)
        mids = {_where(sol, rng.choice(inner), rng) for _ in range(rng.randint(1, 3))}
        cells = (ends[0], *sorted(mids - set(ends)), ends[1])
        return int(kind), cells, ()
    if kind == GroupKind.QUADRUPLE:
        cells = tuple(rng.sample(range(n * n), 4))
        digits = [sol[i] for i in cells]
        return int(kind), cells, tuple(sorted(rng.sample(digits, rng.randint(1, 4))))
    if kind == GroupKind.SUM_IN:  # any cells (digits may repeat), the sum among a few totals
        cells = tuple(rng.sample(range(n * n), rng.randint(1, 5)))
        total = sum(sol[i] for i in cells)
        others = {rng.randint(len(cells), n * len(cells)) for _ in range(rng.randint(0, 3))}
        return int(kind), cells, tuple(sorted(others | {total}))
    for _ in range(100):
        if rng.random() < 0.8:
            cells = rng.choice(lines(n))
        else:
            cells = tuple(rng.sample(range(n * n), rng.randint(2, n)))
        digits = [sol[i] for i in cells]
        for param in _params(kind, digits, n):
            if group_holds(kind, digits, (param,), n):
                return int(kind), cells, (param,)
    raise AssertionError("no group found")  # pragma: no cover


def _params(kind: GroupKind, digits: Sequence[int], n: int) -> Iterable[int]:
    if kind == GroupKind.SANDWICH:
        if 1 in digits and n in digits:
            i, j = sorted((digits.index(1), digits.index(n)))
            yield sum(digits[i + 1 : j])
    elif kind == GroupKind.XSUM:
        if digits[0] <= len(digits):
            yield sum(digits[: digits[0]])
    else:
        top = seen = 0
        for d in digits:
            if d > top:
                top, seen = d, seen + 1
        yield seen


def random_groups(sol: bytes, n: int, rng: random.Random, count: int) -> list[Group]:
    """*count* groups of random kinds that *sol* obeys."""
    return [random_group(sol, n, rng.choice(list(GroupKind)), rng) for _ in range(count)]


def _path(n: int, rng: random.Random, length: int) -> tuple[int, ...]:
    """A random king-step path of distinct cells (shorter when it gets stuck)."""
    path = [rng.randrange(n * n)]
    while len(path) < length:
        r, c = divmod(path[-1], n)
        steps = [
            (r + dr) * n + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
        ]
        free = [s for s in steps if s not in path]
        if not free:
            break
        path.append(rng.choice(free))
    return tuple(path)


def _kind(sol: bytes, n: int, name: str, rng: random.Random) -> Rule | None:
    """A rule of kind *name* that *sol* obeys, or None when the draw found none."""
    digits = lambda cells: [sol[i] for i in cells]  # noqa: E731
    if name == "arrow":
        path = _path(n, rng, rng.randint(2, 4))
        return Arrow((path[0],), (path[1:],)) if sum(digits(path[1:])) == sol[path[0]] else None
    if name == "littlekiller":
        c = rng.randrange(1, n)
        cells = tuple(c - k + k * n for k in range(c + 1))  # r1c(c+1) down-left to the edge
        return LittleKiller(cells, sum(digits(cells)))
    if name == "renban":
        path = _path(n, rng, rng.randint(2, min(n, 4)))
        d = digits(path)
        ok = len(set(d)) == len(d) and max(d) - min(d) == len(d) - 1
        return Renban(path) if ok else None
    if name == "between":
        path = _path(n, rng, rng.randint(3, 4))
        d = digits(path)
        low, high = sorted((d[0], d[-1]))
        return Between(path) if all(low < x < high for x in d[1:-1]) else None
    if name == "quadruple":
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        cells = (r * n + c, r * n + c + 1, r * n + n + c, r * n + n + c + 1)
        return Quadruple(cells, tuple(rng.sample(digits(cells), rng.randint(1, 3))))
    if name in ("sandwich", "xsum", "skyscraper"):
        kind = {"sandwich": Sandwich, "xsum": XSum, "skyscraper": Skyscraper}[name]
        cells = rng.choice(lines(n))
        for param in _params(kind.group, digits(cells), n):
            return kind(cells, param)
        return None
    if name == "zipper":
        path = _path(n, rng, 3)
        d = digits(path)
        return Zipper(path) if len(path) == 3 and d[0] + d[2] == d[1] else None
    if name == "doublearrow":
        path = _path(n, rng, rng.randint(3, 4))
        d = digits(path)
        return DoubleArrow(path) if d[0] + d[-1] == sum(d[1:-1]) else None
    # region sum: two neighbouring cells of different boxes, each its own segment.
    path = _path(n, rng, 2)
    same = len(path) == 2 and sol[path[0]] == sol[path[1]]
    return RegionSum((path[:1], path[1:])) if same else None


KIND_NAMES = (
    "arrow",
    "littlekiller",
    "renban",
    "between",
    "quadruple",
    "sandwich",
    "xsum",
    "skyscraper",
    "zipper",
    "doublearrow",
    "regionsum",
)


def random_kinds(sol: bytes, n: int, rng: random.Random, count: int) -> list[Rule]:
    """Up to *count* rules of the registered kinds that *sol* obeys (draws that miss are
    dropped)."""
    found: list[Rule] = []
    for _ in range(count * 20):
        if len(found) == count:
            break
        rule = _kind(sol, n, rng.choice(KIND_NAMES), rng)
        if rule is not None:
            try:
                rule.check(n)
            except ValueError:
                continue
            found.append(rule)
    return found


def givens(sol: bytes, rng: random.Random, share: float) -> bytes:
    """*sol* with about *share* of its cells kept."""
    return bytes(d if rng.random() < share else 0 for d in sol)


def rule_shape(box: tuple[int, int], rules: Sequence[Any]) -> Shape:
    """The boxed shape with these rules."""
    from sudokit.constraints import Constraints

    return Shape(*box, constraints=Constraints(rules=list(rules)))
