"""Random instances of every rule kind, taken from a solved grid so that the rule holds there
(``tests/engine/test_rules_oracle.py`` and ``benchmarks/bench_rules_cpsat.py``).

* :func:`clues`: up to *count* rules of one kind that a full grid *sol* keeps (totals, sums,
  dot values and counts read off the grid; paths grown by random walks);
* :data:`GLOBAL`: the kinds that hold for some grids only (knightmare, taxicab, ...): their
  grid is searched under the rule (:func:`global_rule`, then :func:`solved_grid`);
* :func:`solved_grid`: a random full grid of a shape, rules included (CP-SAT steered toward
  a random grid, or None when none exists); :func:`plain_grid`: one without rules, shuffled;
* :func:`instance`: a shape with rules of one kind and a grid that keeps them.

The totals are computed here from the rules' words, so a builder slip shows as a CP-SAT
count of 0 for a grid that should keep the rule (the oracle test asserts it is at least 1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise

from sudokit import rules
from sudokit.constraints import Constraints
from sudokit.grid import Grid
from sudokit.rules import KINDS, Rule
from sudokit.shape import Shape
from support.variants import KING, cpsat_solutions

__all__ = [
    "GLOBAL",
    "clues",
    "global_rule",
    "instance",
    "needs_thirds",
    "one_clue",
    "plain_grid",
    "sizes_for",
    "solved_grid",
]

Path = tuple[int, ...]
ORTHO = [(-1, 0), (1, 0), (0, -1), (0, 1)]

#: The kinds that hold for some grids only: one rule over the whole board.
GLOBAL = frozenset(
    {"diagonal", "disjointgroups", "knightmare", "taxicab", "selftaxicab", "diagonalnonconsecutive"}
)
#: The kinds whose digits must split into three classes of equal size (n a multiple of 3).
needs_thirds = frozenset({"entropic", "modular"})


def sizes_for(kind: str) -> tuple[tuple[int, int], ...]:
    """The box shapes a kind is tried on in the quick tier: 4x4 and 6x6, and 9x9 where the
    kind's words need it."""
    if kind in needs_thirds:  # the words' thirds (1-3, 4-6, 7-9) are 9x9's
        return ((2, 3), (3, 3))
    if kind == "knightmare":  # no knight pair can add up to 15 below 9x9
        return ((2, 2), (2, 3), (3, 3))
    return ((2, 2), (2, 3))


def _step(cell: int, n: int, steps: Sequence[tuple[int, int]]) -> list[int]:
    r, c = divmod(cell, n)
    return [(r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def _walk(
    sol: bytes,
    n: int,
    rng: random.Random,
    *,
    keep: Callable[[list[int]], bool],
    done: Callable[[list[int]], bool],
    longest: int,
    start: int | None = None,
    avoid: frozenset[int] = frozenset(),
    steps: Sequence[tuple[int, int]] = KING,
    tries: int = 300,
) -> Path | None:
    """A random path whose digits keep ``keep(digits)`` at every step, stopped at a random
    length (at most *longest*) where ``done(digits)`` holds; None when none was found."""
    for _ in range(tries):
        first = start if start is not None else rng.randrange(n * n)
        if first in avoid:
            continue
        path = [first]
        stop = rng.randint(1, longest)
        best: list[int] | None = None
        while True:
            digits = [sol[c] for c in path]
            if done(digits):
                best = list(path)
                if len(path) >= stop:
                    break
            if len(path) >= longest:
                break
            grow = [
                c
                for c in _step(path[-1], n, steps)
                if c not in path and c not in avoid and keep([*digits, sol[c]])
            ]
            if not grow:
                break
            path.append(rng.choice(grow))
        if best is not None:
            return tuple(best)
    return None


def _arrow(sol: bytes, n: int, rng: random.Random, used: set[int]) -> Rule | None:
    for _ in range(50):
        circle = [rng.randrange(n * n)]
        if rng.random() < 0.3:
            circle.append(rng.choice(_step(circle[0], n, KING)))
        value = 0
        for c in circle:
            value = value * 10 + sol[c]
        arrows: list[Path] = []
        avoid = frozenset(circle)
        for _ in range(rng.choice((1, 1, 2))):
            starts = [c for c in circle for c in _step(c, n, KING) if c not in avoid]
            if not starts:
                break
            path = _walk(
                sol,
                n,
                rng,
                keep=lambda d, v=value: sum(d) <= v,
                done=lambda d, v=value: sum(d) == v,
                longest=7,
                start=rng.choice(starts),
                avoid=avoid,
                tries=5,
            )
            if path is None:
                break
            arrows.append(path)
            avoid |= set(path)
        if arrows:
            return rules.Arrow(tuple(circle), tuple(arrows))
    return None


def _always(d: list[int]) -> bool:
    return True


def _run(d: list[int]) -> bool:
    return len(set(d)) == len(d) and max(d) - min(d) == len(d) - 1


def _rising(d: list[int]) -> bool:
    return all(y >= x for x, y in pairwise(d))


def _apart(d: list[int]) -> bool:
    return all(abs(x - y) >= 2 for x, y in combinations(d, 2))


def _mirrored(d: list[int]) -> bool:
    return d == d[::-1]


def _between(d: list[int]) -> bool:
    return len(d) >= 3 and all(min(d[0], d[-1]) < v < max(d[0], d[-1]) for v in d[1:-1])


def _double(d: list[int]) -> bool:
    return len(d) >= 3 and d[0] + d[-1] == sum(d[1:-1])


def _zipped(d: list[int]) -> bool:
    if len(d) < 3:
        return False
    sums = {d[i] + d[-1 - i] for i in range(len(d) // 2)}
    if len(d) % 2:
        sums.add(d[len(d) // 2])
    return len(sums) == 1


def _classes(kind: str, n: int) -> Callable[[list[int]], bool]:
    """Any three in a row hold three classes (entropic thirds, residues mod 3)."""

    def of(v: int) -> int:
        return (v - 1) // (n // 3) if kind == "entropic" else v % 3

    def keep(d: list[int]) -> bool:
        return all(len({of(v) for v in d[i : i + 3]}) == 3 for i in range(len(d) - 2))

    return keep


#: Per line kind: what every prefix of the path keeps, what the finished line keeps.
LINES: dict[str, tuple[Callable[[list[int]], bool], Callable[[list[int]], bool]]] = {
    "renban": (_run, _run),
    "slowthermo": (_rising, _always),
    "nabner": (_apart, _always),
    "palindrome": (_always, _mirrored),
    "between": (_always, _between),
    "doublearrow": (_always, _double),
    "zipper": (_always, _zipped),
}


def _line(kind: str, sol: bytes, n: int, rng: random.Random) -> Rule | None:
    """A line rule of *kind* along a random path its digits keep (2 cells at least; 3 for
    entropic and modular lines)."""
    longest = {"renban": min(n, 5), "nabner": (n + 1) // 2}.get(kind, 6)
    if kind in needs_thirds:
        keep = _classes(kind, n)
        shortest = 3
    else:
        keep, finished = LINES[kind]
        shortest = 2

    def done(d: list[int]) -> bool:
        return len(d) >= shortest and (kind in needs_thirds or finished(d))

    path = _walk(sol, n, rng, keep=keep, done=done, longest=longest)
    return None if path is None else KINDS[kind](path)  # type: ignore[call-arg]


def _whispers(sol: bytes, n: int, rng: random.Random) -> Rule | None:
    gap = {4: 2, 6: 3}.get(n, rng.choice((4, 5)))
    path = _walk(
        sol,
        n,
        rng,
        keep=lambda d: all(abs(a - b) >= gap for a, b in pairwise(d)),
        done=lambda d: len(d) >= 2,
        longest=6,
    )
    return None if path is None else rules.Whispers(path, gap)


def _region_sum(sol: bytes, n: int, box: tuple[int, int], rng: random.Random) -> Rule | None:
    rows, cols = box

    def segments(path: Sequence[int]) -> list[list[int]]:
        out: list[list[int]] = []
        last = None
        for c in path:
            where = (c // n // rows, c % n // cols)
            if where != last:
                out.append([])
                last = where
            out[-1].append(c)
        return out

    for _ in range(300):
        path = [rng.randrange(n * n)]
        for _ in range(rng.randint(1, 5)):
            grow = [c for c in _step(path[-1], n, KING) if c not in path]
            if not grow:
                break
            path.append(rng.choice(grow))
        parts = segments(path)
        if len(parts) >= 2 and len({sum(sol[c] for c in p) for p in parts}) == 1:
            return rules.RegionSum(tuple(tuple(p) for p in parts))
    return None


def _little_killer(sol: bytes, n: int, rng: random.Random) -> Rule:
    r, c = rng.choice([(0, j) for j in range(n)] + [(n - 1, j) for j in range(n)]
                      + [(i, 0) for i in range(n)] + [(i, n - 1) for i in range(n)])  # fmt: skip
    ways = [
        (dr, dc)
        for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1))
        if not (0 <= r - dr < n and 0 <= c - dc < n)
    ]
    dr, dc = rng.choice(ways)
    cells = []
    while 0 <= r < n and 0 <= c < n:
        cells.append(r * n + c)
        r, c = r + dr, c + dc
    return rules.LittleKiller(tuple(cells), sum(sol[i] for i in cells))


def _outside(kind: str, sol: bytes, n: int, rng: random.Random) -> Rule:
    k = rng.randrange(n)
    cells = [k * n + j for j in range(n)] if rng.random() < 0.5 else [i * n + k for i in range(n)]
    if rng.random() < 0.5:
        cells.reverse()
    d = [sol[c] for c in cells]
    if kind == "sandwich":
        i, j = sorted((d.index(1), d.index(n)))
        total = sum(d[i + 1 : j])
        return rules.Sandwich(tuple(cells), total)
    if kind == "xsum":
        return rules.XSum(tuple(cells), sum(d[: d[0]]))
    seen = sum(1 for i, v in enumerate(d) if all(v > w for w in d[:i]))
    return rules.Skyscraper(tuple(cells), seen)


def _orthogonal_pairs(n: int) -> list[tuple[int, int]]:
    pairs = [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)]
    return pairs + [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n)]


def _dot(kind: str, sol: bytes, n: int, rng: random.Random) -> Rule | None:
    a, b = rng.choice(_orthogonal_pairs(n))
    if rng.random() < 0.5:
        a, b = b, a
    x, y = sol[a], sol[b]
    if kind == "difference":
        return rules.Difference((a, b), abs(x - y))
    if kind == "pairsum":
        return rules.PairSum((a, b), x + y)
    low, high = sorted((x, y))
    return rules.Ratio((a, b), high // low) if high % low == 0 else None


def _sum_cage(sol: bytes, n: int, rng: random.Random) -> Rule:
    # Two to four cells of a row, their sum one of two totals (the other one nearby).
    r, c = rng.randrange(n), rng.randrange(n - 1)
    cells = [r * n + c + k for k in range(min(rng.randint(2, 4), n - c))]  # distinct in a row
    size = len(cells)
    low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
    total = sum(sol[i] for i in cells)
    other = rng.choice([t for t in range(low, high + 1) if t != total] or [total])
    return rules.SumCage(tuple(cells), tuple(sorted({total, other})))


def _quadruple(sol: bytes, n: int, rng: random.Random) -> Rule:
    r, c = rng.randrange(n - 1), rng.randrange(n - 1)
    cells = [r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1]
    digits = rng.sample([sol[i] for i in cells], rng.randint(1, 4))
    return rules.Quadruple(tuple(cells), tuple(digits))


def _extreme(kind: str, sol: bytes, n: int, rng: random.Random) -> Rule | None:
    lower = kind == "minimum"
    found = [
        cell
        for cell in range(n * n)
        if all(
            (sol[cell] < sol[o]) if lower else (sol[cell] > sol[o]) for o in _step(cell, n, ORTHO)
        )
    ]
    if not found:
        return None
    return (rules.Minimum if lower else rules.Maximum)((rng.choice(found),))


def _clone(sol: bytes, n: int, rng: random.Random) -> Rule | None:
    cells: list[int] = []
    copy: list[int] = []
    for _ in range(rng.randint(1, 3)):
        free = [c for c in range(n * n) if c not in cells and c not in copy]
        a = rng.choice(free)
        twins = [c for c in free if c != a and sol[c] == sol[a]]
        if not twins:
            break
        cells.append(a)
        copy.append(rng.choice(twins))
    return rules.Clone(tuple(cells), tuple(copy)) if cells else None


def _indexer(
    kind: str, sol: bytes, n: int, box: tuple[int, int], rng: random.Random
) -> Rule | None:
    rows, cols = box

    def keeps(cell: int) -> bool:
        r, c = divmod(cell, n)
        x = sol[cell]
        if kind == "columnindexer":
            return sol[r * n + x - 1] == c + 1
        if kind == "rowindexer":
            return sol[(x - 1) * n + c] == r + 1
        top, left = r // rows * rows, c // cols * cols
        cells = [(top + i) * n + left + j for i in range(rows) for j in range(cols)]
        return sol[cells[x - 1]] == cells.index(cell) + 1

    found = [c for c in range(n * n) if keeps(c)]
    if not found:
        return None
    chosen = tuple(rng.sample(found, min(len(found), rng.randint(1, 3))))
    if kind == "boxindexer":
        return rules.BoxIndexer(chosen, box)
    return (rules.ColumnIndexer if kind == "columnindexer" else rules.RowIndexer)(chosen)


def _extra_region(sol: bytes, n: int, rng: random.Random) -> Rule:
    cells: list[int] = []
    order = list(range(n * n))
    rng.shuffle(order)
    want = rng.randint(2, n)
    for c in order:
        if sol[c] not in {sol[i] for i in cells}:
            cells.append(c)
        if len(cells) == want:
            break
    return rules.ExtraRegion(tuple(cells))


def global_rule(kind: str, n: int, box: tuple[int, int], rng: random.Random) -> Rule:
    """The board-wide rule of *kind* (its parameter drawn at random)."""
    if kind == "diagonal":
        return rules.Diagonal(rng.randint(0, 1))
    if kind == "disjointgroups":
        return rules.DisjointGroups(box)
    if kind == "taxicab":
        return rules.Taxicab(rng.randint(2, min(4, 2 * (n - 1))))
    return {"knightmare": rules.Knightmare, "selftaxicab": rules.SelfTaxicab,
            "diagonalnonconsecutive": rules.DiagonalNonconsecutive}[kind]()  # fmt: skip


def one_clue(
    kind: str, sol: bytes, n: int, box: tuple[int, int], rng: random.Random
) -> Rule | None:
    """One rule of a non-global *kind* that *sol* keeps, or None when none was found."""
    if kind == "arrow":
        return _arrow(sol, n, rng, set())
    if kind == "whispers":
        return _whispers(sol, n, rng)
    if kind == "regionsum":
        return _region_sum(sol, n, box, rng)
    if kind == "littlekiller":
        return _little_killer(sol, n, rng)
    if kind in ("sandwich", "xsum", "skyscraper"):
        return _outside(kind, sol, n, rng)
    if kind in ("difference", "ratio", "pairsum"):
        return _dot(kind, sol, n, rng)
    if kind == "quadruple":
        return _quadruple(sol, n, rng)
    if kind == "sumcage":
        return _sum_cage(sol, n, rng)
    if kind in ("minimum", "maximum"):
        return _extreme(kind, sol, n, rng)
    if kind == "clone":
        return _clone(sol, n, rng)
    if kind in ("columnindexer", "rowindexer", "boxindexer"):
        return _indexer(kind, sol, n, box, rng)
    if kind == "extraregion":
        return _extra_region(sol, n, rng)
    return _line(kind, sol, n, rng)


def clues(
    kind: str, sol: bytes, n: int, box: tuple[int, int], rng: random.Random, count: int
) -> list[Rule]:
    """Up to *count* distinct rules of *kind* that the full grid *sol* keeps (each checked
    with ``Rule.check``)."""
    out: list[Rule] = []
    for _ in range(4 * count):
        rule = one_clue(kind, sol, n, box, rng)
        if rule is not None and rule not in out:
            rule.check(n)
            out.append(rule)
        if len(out) == count:
            break
    return out


def solved_grid(shape: Shape, rng: random.Random) -> bytes | None:
    """A random full grid of *shape* (its rules kept): CP-SAT's first, steered toward a random
    grid of the plain shape; None when no grid of the shape keeps its rules."""
    steer = plain_grid((shape.box_rows, shape.box_cols), rng)
    found = cpsat_solutions(Grid(bytes(shape.ncells), shape), 1, hint=steer)
    return found[0] if found else None


def plain_grid(box: tuple[int, int], rng: random.Random) -> bytes:
    """A random full grid of the plain shape of *box*: the pattern grid with its rows shuffled
    within bands, bands shuffled, the same for columns and stacks, and the digits relabelled
    (every step keeps rows, columns and boxes whole)."""
    rows, cols = box
    n = rows * cols

    def order(size: int, groups: int) -> list[int]:
        bands = list(range(groups))
        rng.shuffle(bands)
        out = []
        for band in bands:
            inner = list(range(size))
            rng.shuffle(inner)
            out.extend(band * size + i for i in inner)
        return out

    row_order, col_order = order(rows, cols), order(cols, rows)
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return bytes(
        digits[(cols * (r % rows) + r // rows + c) % n] for r in row_order for c in col_order
    )


def instance(
    kind: str, box: tuple[int, int], rng: random.Random, count: int
) -> tuple[Shape, bytes | None]:
    """A shape with rules of *kind* and a full grid that keeps them (None: a global rule no
    grid of the shape keeps)."""
    n = box[0] * box[1]
    if kind in GLOBAL:
        rule = global_rule(kind, n, box, rng)
        rule.check(n)
        shape = Shape(*box, constraints=Constraints(rules=[rule]))
        return shape, solved_grid(shape, rng)
    for _ in range(20):
        sol = plain_grid(box, rng)
        kept = clues(kind, sol, n, box, rng, count)
        if kept:
            return Shape(*box, constraints=Constraints(rules=kept)), sol
    raise AssertionError(f"no {kind} clue found on {n}x{n}")
