"""Small puzzles of every rule kind (sudokit.rules), drawn from random solutions.

* :func:`draw`: rules of one kind that a solution keeps (several instances of a local kind,
  one global rule);
* :func:`make`: a puzzle of one kind: a random solution (of the kind's shape, for a global
  rule), rules drawn from it, givens from the solution until it is unique, then every given
  the rules make needless removed (the pure-Python reference search counts: no engine needed);
* :func:`read` / :func:`line`: the fixture file ``tests/data/variants/rule_puzzles.jsonl``
  (written by ``tests/data/make_rule_puzzles.py``), one puzzle a line:
  ``{"kind", "box": [rows, cols], "puzzle", "solution", "rules": [rule JSON, ...]}``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from pathlib import Path

from sudokit import _backend, _reference
from sudokit import rules as R
from sudokit.constraints import Constraints
from sudokit.grid import Grid
from sudokit.rules import Rule
from sudokit.shape import Shape
from sudokit.transform import random_isomorph
from support import DATA

RULE_PUZZLES = DATA / "variants" / "rule_puzzles.jsonl"
#: Kinds whose rule holds over the whole board: the solution is searched under the rule.
GLOBAL = frozenset(
    {
        "diagonal",
        "disjointgroups",
        "diagonalnonconsecutive",
        "knightmare",
        "taxicab",
        "selftaxicab",
    }
)
#: Guesses one count may take while a puzzle is built (beyond it: not proven unique).
BUDGET = 20000

Digits = Callable[[Sequence[int]], bool]


def _near(cell: int, n: int, king: bool = True) -> list[int]:
    r, c = divmod(cell, n)
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc)]
    if not king:
        steps = [(dr, dc) for dr, dc in steps if not (dr and dc)]
    return [(r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def _path(
    sol: bytes,
    n: int,
    rng: random.Random,
    length: int,
    prefix: Digits,
    full: Digits,
    used: set[int],
    start: int | None = None,
    tries: int = 400,
) -> tuple[int, ...] | None:
    """A random path of *length* cells (king steps, no cell twice, none of *used*) whose
    digits keep *prefix* as it grows and *full* at the end."""
    free = [c for c in range(n * n) if c not in used]
    if not free:
        return None
    for _ in range(tries):
        first = rng.choice(free) if start is None else start
        if first in used:
            return None
        path = [first]
        while len(path) < length:
            step = [
                c
                for c in _near(path[-1], n)
                if c not in used and c not in path and prefix([sol[x] for x in [*path, c]])
            ]
            if not step:
                break
            path.append(rng.choice(step))
        if len(path) == length and full([sol[x] for x in path]):
            return tuple(path)
    return None


def _any(_: Sequence[int]) -> bool:
    return True


def _lines(n: int) -> list[tuple[int, ...]]:
    """Every row and column, from both sides."""
    out = []
    for i in range(n):
        row = tuple(i * n + j for j in range(n))
        col = tuple(j * n + i for j in range(n))
        out.extend([row, row[::-1], col, col[::-1]])
    return out


def _box_of(shape: Shape, cell: int) -> int:
    r, c = divmod(cell, shape.n)
    return (r // shape.box_rows) * (shape.n // shape.box_cols) + c // shape.box_cols


def _classes(n: int, kind: str) -> list[int]:
    if kind == "entropic":
        third = n // 3
        return [min((d - 1) // third, 2) for d in range(1, n + 1)]
    return [d % 3 for d in range(1, n + 1)]


def _windows_apart(of: list[int]) -> Digits:
    def ok(d: Sequence[int]) -> bool:
        return all(
            len({of[x - 1] for x in d[i : i + 3]}) == len(d[i : i + 3]) for i in range(len(d))
        )

    return ok


def _draw_lines(
    kind: str, sol: bytes, shape: Shape, rng: random.Random, used: set[int]
) -> Rule | None:
    n = shape.n
    size = rng.randint(3, min(5, n))
    if kind == "renban":

        def run(d: Sequence[int]) -> bool:
            return len(set(d)) == len(d) and max(d) - min(d) < size

        path = _path(sol, n, rng, size, run, run, used)
        return None if path is None else R.Renban(path)
    if kind == "whispers":
        gap = {4: 2, 6: 3}.get(n, 5 if rng.random() < 0.7 else 4)

        def far(d: Sequence[int]) -> bool:
            return all(abs(a - b) >= gap for a, b in pairwise(d))

        path = _path(sol, n, rng, size, far, far, used)
        return None if path is None else R.Whispers(path, gap)
    if kind == "palindrome":
        path = _path(sol, n, rng, size, _any, lambda d: list(d) == list(d)[::-1], used, tries=3000)
        return None if path is None else R.Palindrome(path)
    if kind == "between":

        def inside(d: Sequence[int]) -> bool:
            low, high = sorted((d[0], d[-1]))
            return all(low < x < high for x in d[1:-1])

        path = _path(sol, n, rng, size, _any, inside, used, tries=2000)
        return None if path is None else R.Between(path)
    if kind == "slowthermo":

        def rising(d: Sequence[int]) -> bool:
            return all(b >= a for a, b in pairwise(d))

        path = _path(sol, n, rng, size, rising, rising, used)
        return None if path is None else R.SlowThermo(path)
    if kind == "nabner":
        length = rng.randint(2, min(3, (n + 1) // 2))

        def apart(d: Sequence[int]) -> bool:
            return all(abs(a - b) >= 2 for a, b in combinations(d, 2))

        path = _path(sol, n, rng, length, apart, apart, used)
        return None if path is None else R.Nabner(path)
    if kind in ("entropic", "modular"):
        ok = _windows_apart(_classes(n, kind))
        path = _path(sol, n, rng, rng.randint(3, 6), ok, ok, used)
        return (
            None if path is None else (R.Entropic(path) if kind == "entropic" else R.Modular(path))
        )
    if kind == "zipper":

        def zipped(d: Sequence[int]) -> bool:
            half = len(d) // 2
            totals = {d[i] + d[-1 - i] for i in range(half)}
            if len(d) % 2:
                totals.add(d[half])
            return len(totals) == 1

        path = _path(sol, n, rng, size, _any, zipped, used, tries=3000)
        return None if path is None else R.Zipper(path)
    if kind == "doublearrow":
        path = _path(
            sol, n, rng, size, _any, lambda d: d[0] + d[-1] == sum(d[1:-1]), used, tries=3000
        )
        return None if path is None else R.DoubleArrow(path)
    if kind == "regionsum":
        for _ in range(200):
            path = _path(sol, n, rng, rng.randint(3, 6), _any, _any, used)
            if path is None:
                continue
            segments: list[list[int]] = []
            for c in path:
                if segments and _box_of(shape, segments[-1][-1]) == _box_of(shape, c):
                    segments[-1].append(c)
                else:
                    segments.append([c])
            boxes = [_box_of(shape, s[0]) for s in segments]
            sums = {sum(sol[c] for c in s) for s in segments}
            if len(segments) >= 2 and len(sums) == 1 and len(set(boxes)) == len(boxes):
                return R.RegionSum(tuple(tuple(s) for s in segments))
        return None
    raise KeyError(kind)


def _draw_sums(
    kind: str, sol: bytes, shape: Shape, rng: random.Random, used: set[int]
) -> Rule | None:
    n = shape.n
    if kind == "arrow":
        pill = n == 9 and rng.random() < 0.3
        for _ in range(300):
            if pill:
                circle = _path(sol, n, rng, 2, _any, lambda d: d[0] <= 2, used)
                if circle is None:
                    continue
                value = 10 * sol[circle[0]] + sol[circle[1]]
            else:
                one = rng.choice([c for c in range(n * n) if c not in used])
                circle, value = (one,), sol[one]
            if value < 2:
                continue
            starts = [c for x in circle for c in _near(x, n) if c not in used and c not in circle]
            if not starts:
                continue
            length = rng.randint(1, 4 if pill else 3)
            path = _path(
                sol,
                n,
                rng,
                length,
                lambda d, v=value: sum(d) <= v,
                lambda d, v=value: sum(d) == v,
                used | set(circle),
                start=rng.choice(starts),
                tries=40,
            )
            if path is not None:
                return R.Arrow(circle, (path,))
        return None
    if kind == "sumcage":
        size = rng.randint(2, min(4, n - 1))
        cage = _path(sol, n, rng, size, lambda d: len(set(d)) == len(d), _any, used)
        if cage is None:
            return None
        total = sum(sol[c] for c in cage)
        low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
        other = rng.choice([t for t in range(low, high + 1) if t != total])
        return R.SumCage(cage, tuple(sorted((total, other))))
    if kind == "littlekiller":
        starts = []
        for i in range(n):
            for cell, step in (
                (i, (1, 1)),
                (i, (1, -1)),
                (i * n, (1, 1)),
                (i * n, (-1, 1)),
                ((n - 1) * n + i, (-1, 1)),
                ((n - 1) * n + i, (-1, -1)),
                (i * n + n - 1, (1, -1)),
                (i * n + n - 1, (-1, -1)),
            ):
                r, c = divmod(cell, n)
                if 0 <= r - step[0] < n and 0 <= c - step[1] < n:
                    continue  # the clue would sit inside the grid
                cells = []
                while 0 <= r < n and 0 <= c < n:
                    cells.append(r * n + c)
                    r, c = r + step[0], c + step[1]
                if 2 <= len(cells) < n:
                    starts.append(tuple(cells))
        cells = rng.choice(starts)
        return R.LittleKiller(cells, sum(sol[c] for c in cells))
    line = rng.choice(_lines(n))
    digits = [sol[c] for c in line]
    if kind == "sandwich":
        i, j = sorted((digits.index(1), digits.index(n)))
        return R.Sandwich(line, sum(digits[i + 1 : j]))
    if kind == "xsum":
        return R.XSum(line, sum(digits[: digits[0]]))
    if kind == "skyscraper":
        seen, top = 0, 0
        for d in digits:
            if d > top:
                seen, top = seen + 1, d
        return R.Skyscraper(line, seen)
    raise KeyError(kind)


def _draw_cells(
    kind: str, sol: bytes, shape: Shape, rng: random.Random, used: set[int]
) -> Rule | None:
    n = shape.n
    free = [c for c in range(n * n) if c not in used]
    rng.shuffle(free)
    if kind == "quadruple":
        for c in free:
            if c % n == n - 1 or c // n == n - 1:
                continue
            cells = (c, c + 1, c + n, c + n + 1)
            if any(x in used for x in cells):
                continue
            digits = sorted(rng.sample([sol[x] for x in cells], rng.randint(2, 4)))
            return R.Quadruple(cells, digits)
        return None
    if kind in ("minimum", "maximum"):
        for c in free:
            near = R.cells.orthogonal(c, n)
            if kind == "minimum" and all(sol[c] < sol[b] for b in near):
                return R.Minimum((c,))
            if kind == "maximum" and all(sol[c] > sol[b] for b in near):
                return R.Maximum((c,))
        return None
    if kind in ("difference", "ratio", "pairsum"):
        for a in free:
            for b in R.cells.orthogonal(a, n):
                if b in used:
                    continue
                x, y = sol[a], sol[b]
                pair = (min(a, b), max(a, b))
                if kind == "pairsum":
                    return R.PairSum(pair, x + y)
                if kind == "difference" and abs(x - y) >= 2:
                    return R.Difference(pair, abs(x - y))
                low, high = sorted((x, y))
                if kind == "ratio" and high % low == 0 and high // low >= 2:
                    return R.Ratio(pair, high // low)
        return None
    if kind == "clone":
        for _ in range(2000):
            size = rng.randint(2, 3)
            piece = _path(sol, n, rng, size, _any, _any, used, tries=5)
            if piece is None:
                continue
            dr, dc = rng.randint(-n + 1, n - 1), rng.randint(-n + 1, n - 1)
            copy = []
            for c in piece:
                r, cc = divmod(c, n)
                if not (0 <= r + dr < n and 0 <= cc + dc < n):
                    break
                copy.append((r + dr) * n + cc + dc)
            if (
                len(copy) == size
                and not set(copy) & (set(piece) | used)
                and all(sol[a] == sol[b] for a, b in zip(piece, copy, strict=True))
            ):
                return R.Clone(piece, tuple(copy))
        return None
    if kind in ("columnindexer", "rowindexer", "boxindexer"):
        box = (shape.box_rows, shape.box_cols)
        rule_of = {
            "columnindexer": lambda c: R.ColumnIndexer((c,)),
            "rowindexer": lambda c: R.RowIndexer((c,)),
            "boxindexer": lambda c: R.BoxIndexer((c,), box),
        }[kind]
        for c in free:
            rule = rule_of(c)
            if not rule.broken(sol, n):
                return rule
        return None
    if kind == "extraregion":
        size = rng.choice([n, n, rng.randint(2, n - 1)])
        picked: list[int] = []
        for c in free:
            if sol[c] not in {sol[x] for x in picked}:
                picked.append(c)
            if len(picked) == size:
                return R.ExtraRegion(picked)
        return None
    raise KeyError(kind)


LINES = frozenset(
    {"renban", "whispers", "palindrome", "between", "slowthermo", "nabner", "entropic",
     "modular", "zipper", "doublearrow", "regionsum"}
)  # fmt: skip
SUMS = frozenset({"arrow", "littlekiller", "sandwich", "xsum", "skyscraper", "sumcage"})


def global_rule(kind: str, shape: Shape, rng: random.Random) -> Rule:
    """The one rule of a global kind, on *shape*."""
    if kind == "diagonal":
        return R.Diagonal(anti=rng.randint(0, 1))
    if kind == "disjointgroups":
        return R.DisjointGroups((shape.box_rows, shape.box_cols))
    if kind == "taxicab":
        return R.Taxicab(rng.randint(2, 3))
    return {
        "diagonalnonconsecutive": R.DiagonalNonconsecutive(),
        "knightmare": R.Knightmare(),
        "selftaxicab": R.SelfTaxicab(),
    }[kind]


def draw(kind: str, sol: bytes, shape: Shape, rng: random.Random, count: int) -> list[Rule]:
    """Up to *count* rules of *kind* that *sol* keeps (a local kind: cells not shared)."""
    used: set[int] = set()
    found: list[Rule] = []
    for _ in range(count * 3):
        if len(found) >= count:
            break
        if kind in LINES:
            rule = _draw_lines(kind, sol, shape, rng, used)
        elif kind in SUMS:
            rule = _draw_sums(kind, sol, shape, rng, used)
        else:
            rule = _draw_cells(kind, sol, shape, rng, used)
        if rule is None or rule in found:
            continue
        if kind not in ("sandwich", "xsum", "skyscraper", "littlekiller", "extraregion"):
            used.update(rule.cells_of())
        rule.check(shape.n)
        assert not rule.broken(sol, shape.n), rule
        found.append(rule)
    return found


def _search(shape: Shape, cells: bytes, limit: int, budget: int) -> tuple[int, list[bytes], bool]:
    """The engine chosen at import counts, or the reference when the engine cannot take the
    shape's rules (a C core without linear sums or groups refuses them, and so does one
    with a bound on the relations, which self-taxicab passes on 6x6)."""
    try:
        found = _backend.engine().search(shape, cells, limit, limit, budget)
        return found.count, list(found.solutions), found.complete
    except (TypeError, ValueError):
        count, sols, _, complete = _reference.search(shape, cells, limit, limit, budget)
        return count, sols, complete


def random_solution(shape: Shape, rng: random.Random) -> bytes | None:
    """A random solution of *shape* (its rules kept): a random isomorph of a classic one for a
    classic shape, else random digits placed while a search still finds one."""
    n = shape.n
    if shape.constraints is None:
        base = Shape(shape.box_rows, shape.box_cols)
        _, found, _ = _search(base, bytes(n * n), 1, 0)
        return bytes(random_isomorph(Grid(found[0], base), rng).cells)
    cells = bytearray(n * n)
    for cell in rng.sample(range(n * n), n):
        cells[cell] = rng.randint(1, n)
        if not _search(shape, bytes(cells), 1, BUDGET)[0]:
            cells[cell] = 0
    count, found, _ = _search(shape, bytes(cells), 1, BUDGET)
    return found[0] if count else None


def _count(shape: Shape, cells: bytes) -> tuple[int, list[bytes]]:
    count, found, complete = _search(shape, cells, 2, BUDGET)
    return (count if complete else 2), found


def make(kind: str, box: tuple[int, int], seed: int, count: int = 0) -> tuple[Grid, bytes] | None:
    """A puzzle of *kind* on boxes of *box* and its solution, or None when the draw failed."""
    rng = random.Random(seed)
    base = Shape(*box)
    n = base.n
    if kind in GLOBAL:
        rules = [global_rule(kind, base, rng)]
        shape = base.with_constraints(Constraints(rules=rules))
        sol = random_solution(shape, rng)
    else:
        sol = random_solution(base, rng)
        assert sol is not None
        rules = draw(kind, sol, base, rng, count or rng.randint(n // 2 + 1, n + 2))
        shape = base.with_constraints(Constraints(rules=rules))
    if sol is None or not rules:
        return None
    givens = bytearray(n * n)
    while True:
        number, found = _count(shape, bytes(givens))
        if number == 1:
            break
        differ = [c for c in range(n * n) if not givens[c]]
        if len(found) == 2:
            differ = [c for c in differ if found[0][c] != found[1][c]] or differ
        cell = rng.choice(differ)
        givens[cell] = sol[cell]
    for cell in rng.sample(range(n * n), n * n):
        if givens[cell]:
            keep, givens[cell] = givens[cell], 0
            if _count(shape, bytes(givens))[0] != 1:
                givens[cell] = keep
    return Grid(bytes(givens), shape), sol


def line(kind: str, puzzle: Grid, sol: bytes) -> str:
    """The fixture line of a puzzle (see the module docstring)."""
    shape = puzzle.shape
    rules = shape.constraints.rules if shape.constraints else ()
    return json.dumps(
        {
            "kind": kind,
            "box": [shape.box_rows, shape.box_cols],
            "puzzle": "".join(str(d) if d else "." for d in puzzle.cells),
            "solution": "".join(str(d) for d in sol),
            "rules": [rule.to_json() for rule in rules],
        }
    )


def read(path: Path = RULE_PUZZLES) -> list[tuple[str, Grid, bytes]]:
    """``(kind, puzzle, solution)`` of every line of the fixture file."""
    out = []
    for text in path.read_text().splitlines():
        if not text.strip() or text.startswith("#"):
            continue
        item = json.loads(text)
        rules = [Rule.from_json(r) for r in item["rules"]]
        shape = Shape(*item["box"], constraints=Constraints(rules=rules))
        cells = bytes(0 if ch == "." else int(ch) for ch in item["puzzle"])
        out.append((item["kind"], Grid(cells, shape), bytes(int(ch) for ch in item["solution"])))
    return out
