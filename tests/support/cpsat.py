"""An OR-Tools CP-SAT encoding of every rule kind of :data:`sudokit.rules.KINDS`, written
from each kind's words (its class docstring), never from its ``compile()``, its primitives or
its support tables: the independent oracle of ``tests/engine/test_rules_oracle.py``.

:func:`add_rule` adds one rule to a model over the cell variables ``x`` (one ``IntVar``
``1..n`` a cell, row-major); the one model builder, :func:`support.variants.cpsat_model`,
calls it for every rule of a puzzle's ``Constraints.rules``. :data:`ENCODINGS` has one entry
per kind, so a new kind without an encoding fails the oracle's completeness test.

Where the words leave a choice, the reading taken is said at the encoding (and reported to
the lead): entropic thirds on 6x6 are ``1-2 / 3-4 / 5-6``; an entropic or modular line of two
cells has no three cells in a row, so it asks nothing.

Importing this module needs OR-Tools (a ``dev`` extra): callers import it lazily.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from typing import Any

from ortools.sat.python import cp_model

from sudokit.rules import Rule

__all__ = ["ENCODINGS", "Cells", "add_rule", "taxicab_pairs"]

Expr = Any  # a CP-SAT linear expression


class Cells:
    """The cell variables of one model, with the 0/1 literals "cell holds d" made on demand."""

    def __init__(self, model: cp_model.CpModel, x: Sequence[Any], n: int) -> None:
        self.model, self.x, self.n = model, list(x), n
        self._holds: dict[tuple[int, int], Any] = {}

    def holds(self, cell: int, digit: int) -> Any:
        """A literal true exactly when *cell* holds *digit*."""
        key = (cell, digit)
        if key not in self._holds:
            b = self.model.new_bool_var(f"c{cell}is{digit}")
            self.model.add(self.x[cell] == digit).only_enforce_if(b)
            self.model.add(self.x[cell] != digit).only_enforce_if(~b)
            self._holds[key] = b
        return self._holds[key]

    def int_var(self, low: int, high: int, name: str = "") -> Any:
        return self.model.new_int_var(low, high, name)

    def bool_when(self, ok: Expr, not_ok: Expr) -> Any:
        """A literal true exactly when the linear (in)equality *ok* holds (*not_ok* its
        negation)."""
        b = self.model.new_bool_var("")
        self.model.add(ok).only_enforce_if(b)
        self.model.add(not_ok).only_enforce_if(~b)
        return b

    def minimum(self, exprs: Sequence[Expr]) -> Any:
        m = self.int_var(1, self.n)
        self.model.add_min_equality(m, list(exprs))
        return m

    def maximum(self, exprs: Sequence[Expr]) -> Any:
        m = self.int_var(1, self.n)
        self.model.add_max_equality(m, list(exprs))
        return m

    def distance(self, a: int, b: int) -> Any:
        """``|x[a] - x[b]|`` as a variable."""
        d = self.int_var(0, self.n - 1)
        self.model.add_abs_equality(d, self.x[a] - self.x[b])
        return d


# -- geometry, from the words (not from sudokit's helpers) ------------------------------------


def _rc(cell: int, n: int) -> tuple[int, int]:
    return cell // n, cell % n


def _neighbours(n: int, steps: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every unordered pair of cells one of *steps* apart."""
    out = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    a, b = r * n + c, (r + dr) * n + c + dc
                    out.add((min(a, b), max(a, b)))
    return sorted(out)


def taxicab_pairs(n: int, distance: int) -> list[tuple[int, int]]:
    """Pairs of cells whose rows and columns differ by *distance* in all."""
    cells = range(n * n)
    return [
        (a, b)
        for a, b in combinations(cells, 2)
        if abs(a // n - b // n) + abs(a % n - b % n) == distance
    ]


def _orthogonal_of(cell: int, n: int) -> list[int]:
    r, c = _rc(cell, n)
    near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return [rr * n + cc for rr, cc in near if 0 <= rr < n and 0 <= cc < n]


# -- the kinds --------------------------------------------------------------------------------


def _arrow(m: Cells, rule: Any) -> None:
    # The circle or pill read in order as a decimal number equals each arrow's sum.
    k = len(rule.circle)
    number = sum(10 ** (k - 1 - i) * m.x[c] for i, c in enumerate(rule.circle))
    for arrow in rule.arrows:
        m.model.add(sum(m.x[c] for c in arrow) == number)


def _double_arrow(m: Cells, rule: Any) -> None:
    cells = rule.cells
    m.model.add(m.x[cells[0]] + m.x[cells[-1]] == sum(m.x[c] for c in cells[1:-1]))


def _little_killer(m: Cells, rule: Any) -> None:
    m.model.add(sum(m.x[c] for c in rule.cells) == rule.total)


def _position(m: Cells, cells: Sequence[int], digit: int) -> Any:
    """The index (0-based) along *cells* of the one cell holding *digit*."""
    where = [m.holds(c, digit) for c in cells]
    m.model.add(sum(where) == 1)
    p = m.int_var(0, len(cells) - 1)
    m.model.add(p == sum(i * b for i, b in enumerate(where)))
    return p


def _sandwich(m: Cells, rule: Any) -> None:
    # The digits strictly between the 1 and the n of the line add up to the total.
    cells, n = rule.cells, m.n
    one, top = _position(m, cells, 1), _position(m, cells, n)
    low, high = m.int_var(0, n - 1), m.int_var(0, n - 1)
    m.model.add_min_equality(low, [one, top])
    m.model.add_max_equality(high, [one, top])
    parts = []
    for i, c in enumerate(cells):
        after = m.bool_when(low < i, low >= i)
        before = m.bool_when(high > i, high <= i)
        inside = m.model.new_bool_var("")
        m.model.add_bool_and([after, before]).only_enforce_if(inside)
        m.model.add_bool_or([~after, ~before]).only_enforce_if(~inside)
        y = m.int_var(0, n)
        m.model.add(y == m.x[c]).only_enforce_if(inside)
        m.model.add(y == 0).only_enforce_if(~inside)
        parts.append(y)
    m.model.add(sum(parts) == rule.total)


def _xsum(m: Cells, rule: Any) -> None:
    # X = the first digit; the first X digits add up to the total.
    cells = rule.cells
    for k in range(1, m.n + 1):
        first_is_k = m.holds(cells[0], k)
        if k > len(cells):
            m.model.add_bool_or([~first_is_k])
        else:
            m.model.add(sum(m.x[c] for c in cells[:k]) == rule.total).only_enforce_if(first_is_k)


def _skyscraper(m: Cells, rule: Any) -> None:
    # A digit is seen when it is higher than every digit before it; the first is seen.
    cells = rule.cells
    seen = [1]
    tallest = m.x[cells[0]]
    for c in cells[1:]:
        seen.append(m.bool_when(m.x[c] > tallest, m.x[c] <= tallest))
        tallest = m.maximum([tallest, m.x[c]])
    m.model.add(sum(seen) == rule.total)


def _renban(m: Cells, rule: Any) -> None:
    xs = [m.x[c] for c in rule.cells]
    m.model.add_all_different(xs)
    m.model.add(m.maximum(xs) - m.minimum(xs) == len(xs) - 1)


def _whispers(m: Cells, rule: Any) -> None:
    for a, b in pairwise(rule.cells):
        m.model.add(m.distance(a, b) >= rule.difference)


def _palindrome(m: Cells, rule: Any) -> None:
    cells = rule.cells
    for i in range(len(cells) // 2):
        m.model.add(m.x[cells[i]] == m.x[cells[-1 - i]])


def _between(m: Cells, rule: Any) -> None:
    ends = [m.x[rule.cells[0]], m.x[rule.cells[-1]]]
    inner = rule.cells[1:-1]
    if not inner:
        return
    low, high = m.minimum(ends), m.maximum(ends)
    for c in inner:
        m.model.add(m.x[c] > low)
        m.model.add(m.x[c] < high)


def _region_sum(m: Cells, rule: Any) -> None:
    sums = [sum(m.x[c] for c in segment) for segment in rule.segments]
    for other in sums[1:]:
        m.model.add(other == sums[0])


def _zipper(m: Cells, rule: Any) -> None:
    # Cells the same distance from the middle add up to one total (the middle cell's digit
    # when the line has an odd length).
    cells = rule.cells
    total = m.int_var(2, 2 * m.n)
    for i in range(len(cells) // 2):
        m.model.add(m.x[cells[i]] + m.x[cells[-1 - i]] == total)
    if len(cells) % 2:
        m.model.add(total == m.x[cells[len(cells) // 2]])


def _three_classes(m: Cells, rule: Any, of: Callable[[Any], Any]) -> None:
    # Any three cells in a row on the line hold one digit of each class (a line of two cells
    # has no three in a row: it asks nothing).
    classes = [of(m.x[c]) for c in rule.cells]
    for i in range(len(classes) - 2):
        m.model.add_all_different(classes[i : i + 3])


def _entropic(m: Cells, rule: Any) -> None:
    third = m.n // 3  # 1-3 / 4-6 / 7-9 on 9x9; 1-2 / 3-4 / 5-6 on 6x6

    def of(v: Any) -> Any:
        below = m.int_var(0, m.n - 1)
        m.model.add(below == v - 1)
        t = m.int_var(0, 2)
        m.model.add_division_equality(t, below, third)
        return t

    _three_classes(m, rule, of)


def _modular(m: Cells, rule: Any) -> None:
    def of(v: Any) -> Any:
        t = m.int_var(0, 2)
        m.model.add_modulo_equality(t, v, 3)
        return t

    _three_classes(m, rule, of)


def _slow_thermo(m: Cells, rule: Any) -> None:
    for a, b in pairwise(rule.cells):
        m.model.add(m.x[b] >= m.x[a])


def _nabner(m: Cells, rule: Any) -> None:
    for a, b in combinations(rule.cells, 2):
        m.model.add(m.distance(a, b) >= 2)


def _quadruple(m: Cells, rule: Any) -> None:
    # Each listed digit appears among the four cells, as often as it is listed.
    for d in set(rule.digits):
        m.model.add(sum(m.holds(c, d) for c in rule.cells) >= rule.digits.count(d))


def _sum_cage(m: Cells, rule: Any) -> None:
    # Distinct digits whose sum is one of the totals (a chosen total, one boolean each).
    m.model.add_all_different([m.x[c] for c in rule.cells])
    total = sum(m.x[c] for c in rule.cells)
    picks = [m.model.new_bool_var("") for _ in rule.totals]
    m.model.add_exactly_one(picks)
    for pick, t in zip(picks, rule.totals, strict=True):
        m.model.add(total == t).only_enforce_if(pick)


def _extreme(lower: bool) -> Callable[[Cells, Any], None]:
    def encode(m: Cells, rule: Any) -> None:
        # Each cell against its orthogonal neighbours outside the rule's cells.
        for a in rule.cells:
            for b in _orthogonal_of(a, m.n):
                if b not in rule.cells:
                    m.model.add(m.x[a] < m.x[b] if lower else m.x[a] > m.x[b])

    return encode


def _difference(m: Cells, rule: Any) -> None:
    a, b = rule.cells
    m.model.add(m.distance(a, b) == rule.value)


def _ratio(m: Cells, rule: Any) -> None:
    a, b = rule.cells
    one = m.model.new_bool_var("")
    m.model.add(m.x[a] == rule.value * m.x[b]).only_enforce_if(one)
    m.model.add(m.x[b] == rule.value * m.x[a]).only_enforce_if(~one)


def _pair_sum(m: Cells, rule: Any) -> None:
    a, b = rule.cells
    m.model.add(m.x[a] + m.x[b] == rule.value)


def _clone(m: Cells, rule: Any) -> None:
    for a, b in zip(rule.cells, rule.copy, strict=True):
        m.model.add(m.x[a] == m.x[b])


def _points(m: Cells, cell: int, line: Sequence[int], target: int) -> None:
    """The cell of *line* at position ``x[cell]`` (1-based) holds *target*."""
    index = m.int_var(0, len(line) - 1)
    m.model.add(index == m.x[cell] - 1)
    m.model.add_element(index, [m.x[c] for c in line], target)


def _column_indexer(m: Cells, rule: Any) -> None:
    # X in row r, column c: column X of row r holds c.
    n = m.n
    for cell in rule.cells:
        r, c = _rc(cell, n)
        _points(m, cell, [r * n + j for j in range(n)], c + 1)


def _row_indexer(m: Cells, rule: Any) -> None:
    # X in row r, column c: row X of column c holds r.
    n = m.n
    for cell in rule.cells:
        r, c = _rc(cell, n)
        _points(m, cell, [i * n + c for i in range(n)], r + 1)


def _box_indexer(m: Cells, rule: Any) -> None:
    # X at position p of its box (reading order): position X of the box holds p.
    n, (rows, cols) = m.n, rule.box
    for cell in rule.cells:
        r, c = _rc(cell, n)
        top, left = r // rows * rows, c // cols * cols
        box = [(top + i) * n + left + j for i in range(rows) for j in range(cols)]
        _points(m, cell, box, box.index(cell) + 1)


def _diagonal(m: Cells, rule: Any) -> None:
    n = m.n
    cells = [i * n + (n - 1 - i if rule.anti else i) for i in range(n)]
    m.model.add_all_different([m.x[c] for c in cells])


def _disjoint_groups(m: Cells, rule: Any) -> None:
    n, (rows, cols) = m.n, rule.box
    for i in range(rows):
        for j in range(cols):
            same_place = [
                (top + i) * n + left + j for top in range(0, n, rows) for left in range(0, n, cols)
            ]
            m.model.add_all_different([m.x[c] for c in same_place])


def _extra_region(m: Cells, rule: Any) -> None:
    m.model.add_all_different([m.x[c] for c in rule.cells])


KNIGHT = [(dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc)]
DIAGONAL = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def _knightmare(m: Cells, rule: Any) -> None:
    for a, b in _neighbours(m.n, KNIGHT):
        m.model.add(m.x[a] + m.x[b] != 5)
        m.model.add(m.x[a] + m.x[b] != 15)


def _taxicab(m: Cells, rule: Any) -> None:
    for a, b in taxicab_pairs(m.n, rule.distance):
        m.model.add(m.x[a] != m.x[b])


def _self_taxicab(m: Cells, rule: Any) -> None:
    for d in range(1, m.n + 1):
        for a, b in taxicab_pairs(m.n, d):
            m.model.add_bool_or([~m.holds(a, d), ~m.holds(b, d)])


def _diagonal_nonconsecutive(m: Cells, rule: Any) -> None:
    steps = [(d, d + 1) for d in range(1, m.n)] + [(d + 1, d) for d in range(1, m.n)]
    for a, b in _neighbours(m.n, DIAGONAL):
        m.model.add_forbidden_assignments([m.x[a], m.x[b]], steps)


#: The encoding of every kind, by its registry name.
ENCODINGS: dict[str, Callable[[Cells, Any], None]] = {
    "arrow": _arrow,
    "between": _between,
    "boxindexer": _box_indexer,
    "clone": _clone,
    "columnindexer": _column_indexer,
    "diagonal": _diagonal,
    "diagonalnonconsecutive": _diagonal_nonconsecutive,
    "difference": _difference,
    "disjointgroups": _disjoint_groups,
    "doublearrow": _double_arrow,
    "entropic": _entropic,
    "extraregion": _extra_region,
    "knightmare": _knightmare,
    "littlekiller": _little_killer,
    "maximum": _extreme(lower=False),
    "minimum": _extreme(lower=True),
    "modular": _modular,
    "nabner": _nabner,
    "pairsum": _pair_sum,
    "palindrome": _palindrome,
    "quadruple": _quadruple,
    "ratio": _ratio,
    "regionsum": _region_sum,
    "renban": _renban,
    "rowindexer": _row_indexer,
    "sandwich": _sandwich,
    "selftaxicab": _self_taxicab,
    "skyscraper": _skyscraper,
    "slowthermo": _slow_thermo,
    "sumcage": _sum_cage,
    "taxicab": _taxicab,
    "whispers": _whispers,
    "xsum": _xsum,
    "zipper": _zipper,
}


def add_rule(cells: Cells, rule: Rule) -> None:
    """Add *rule* to the model of *cells* (``KeyError`` naming a kind with no encoding)."""
    try:
        encode = ENCODINGS[rule.kind]
    except KeyError:
        raise KeyError(f"no CP-SAT encoding of the rule kind {rule.kind!r}") from None
    encode(cells, rule)
