"""The rules of the variants beyond "every unit holds every digit once" (layer 1).

A :class:`Constraints` value rides on a :class:`~sudokit.shape.Shape` (``Shape(3, 3,
constraints=...)``), the way Sudoku-X's diagonals and jigsaw's regions do, so every layer that
takes a shape (search, generation, logic, drawing, formats) sees the variant without a new
parameter. Extra *units* (windoku windows) belong to the shape itself; this module holds the
rest:

* killer cages: distinct digits inside a cage, with an optional sum (:class:`Cage`);
* anti-knight / anti-king: cells a knight's / king's move apart never hold the same digit;
* non-consecutive: orthogonal neighbours never hold consecutive digits;
* kropki dots: white = consecutive, black = one is double the other (``white_negative``: no
  orthogonal pair without a dot is consecutive; ``black_negative``: none is one double the
  other; ``kropki_negative`` sets and means both);
* XV: X = the two cells sum to 10, V = to 5 (``xv_negative``: no other orthogonal pair sums
  to 5 or 10);
* parity: one symbol per cell, ``e`` even, ``o`` odd, ``.`` free;
* thermometers: digits strictly increase from the bulb along the path;
* ``rules``: any number of the registered rule kinds of :mod:`sudokit.rules` (arrows, little
  killers, sandwiches, renban, whispers, palindromes, quadruples, indexers, ...), each a value
  that states its own check, words and compilation.

Cells are indices row-major from 0. Everything is derived from a few primitive forms, which
is all a search needs (:mod:`sudokit.rules.primitives`): pairs of cells that must differ
(:meth:`Constraints.different_pairs`), binary relations as support tables
(:meth:`Constraints.relations`), per-cell allowed digits (:meth:`Constraints.allowed`), the
cages' sums (:func:`cage_combinations`), linear sums where digits may repeat
(:meth:`Constraints.linear`), predicates over groups of cells (:meth:`Constraints.groups`) and
extra units (:meth:`Constraints.units`).

>>> c = Constraints(cages=(Cage((0, 1), 3),), antiknight=True)
>>> c.check(4)
>>> [bin(m) for m in cage_combinations(2, 3, 4)]
['0b11']
>>> c.violations(bytes([1, 2] + [0] * 14), 4)
[]
>>> c.violations(bytes([1, 3] + [0] * 14), 4)
[(0, 'cage of sum 3 at r1c1 adds up to 4', (0, 1))]
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial
from itertools import pairwise
from typing import Any, TypedDict

from ._record import _HashKept, _Record
from .rules.base import Compiled, Rule, check_path
from .rules.primitives import Group, Linear

__all__ = ["Cage", "Constraints", "SearchForms", "cage_combinations", "sum_range"]

Pair = tuple[int, int]
#: A rule broken by filled cells: (digit or 0, what is broken in words, the cells).
Violation = tuple[int, str, tuple[int, ...]]

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _name(cell: int, n: int) -> str:
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def sum_range(size: int, n: int) -> tuple[int, int]:
    """The smallest and largest sum of *size* distinct digits ``1..n``; every sum between
    them is possible.

    >>> sum_range(3, 9)
    (6, 24)
    """
    return size * (size + 1) // 2, size * (2 * n - size + 1) // 2


@lru_cache(maxsize=4096)
def cage_combinations(size: int, total: int, n: int) -> tuple[int, ...]:
    """Every set of *size* distinct digits ``1..n`` summing to *total*, as bit masks
    (bit ``d - 1`` for digit ``d``), in increasing order of the mask. The count grows
    combinatorially with *n* and *size* (fine up to 16x16 cages; large grids bound sums instead).

    >>> [bin(m) for m in cage_combinations(3, 7, 9)]  # only 1 + 2 + 4
    ['0b1011']
    >>> len(cage_combinations(2, 10, 9)), cage_combinations(2, 30, 9)
    (4, ())
    """
    found: list[int] = []

    def extend(smallest: int, left: int, rest: int, mask: int) -> None:
        if left == 0:
            if rest == 0:
                found.append(mask)
            return
        top = sum_range(left - 1, n)[1]  # the most the other left - 1 digits can add
        for d in range(smallest, n + 1):
            if d * left + (left - 1) * left // 2 > rest:
                break  # even d and the digits just above it are too much
            if d + top >= rest:
                extend(d + 1, left - 1, rest - d, mask | 1 << (d - 1))

    if 1 <= size <= n:
        extend(1, size, total, 0)
    return tuple(sorted(found))


class Cage(_Record):
    """A killer cage: distinct digits in *cells*, adding up to *total* (None: no sum given).

    Cells are kept sorted, so two cages with the same cells and sum are equal.

    >>> Cage((9, 0), 11)
    Cage(cells=(0, 9), total=11)
    """

    __slots__ = ("cells", "total")
    __match_args__ = ("cells", "total")
    cells: tuple[int, ...]
    total: int | None

    def __init__(self, cells: Iterable[int], total: int | None = None) -> None:
        object.__setattr__(self, "cells", tuple(sorted(int(i) for i in cells)))
        object.__setattr__(self, "total", None if total is None else int(total))

    def describe(self, n: int) -> str:
        """The cage in words, named by its top-left cell: ``'cage of sum 11 at r1c1'``."""
        where = _name(self.cells[0], n) if self.cells else "?"
        if self.total is None:
            return f"cage at {where}"
        return f"cage of sum {self.total} at {where}"


def _pairs(pairs: Iterable[Sequence[int]]) -> tuple[Pair, ...]:
    out = set()
    for pair in pairs:
        a, b = (int(x) for x in pair)
        out.add((min(a, b), max(a, b)))
    return tuple(sorted(out))


def _adjacent_pairs(n: int) -> Iterable[Pair]:
    """Every orthogonally adjacent pair of cells (a < b)."""
    for r in range(n):
        for c in range(n):
            i = r * n + c
            if c + 1 < n:
                yield i, i + 1
            if r + 1 < n:
                yield i, i + n


def _moves(n: int, steps: tuple[Pair, ...]) -> Iterable[Pair]:
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and (rr, cc) > (r, c):
                    yield r * n + c, rr * n + cc


def _table(n: int, rule: Callable[[int, int], bool]) -> tuple[int, ...]:
    """Support table of a relation ``rule(x, y)``: entry ``x - 1`` is the mask of the y's."""
    return tuple(sum(1 << (y - 1) for y in range(1, n + 1) if rule(x, y)) for x in range(1, n + 1))


def _consecutive(x: int, y: int) -> bool:
    return abs(x - y) == 1


def _double(x: int, y: int) -> bool:
    return x == 2 * y or y == 2 * x


class SearchForms(TypedDict):
    """The primitive forms of a rule set on one size (:meth:`Constraints.search_forms`), by
    the name of the core's ``Geometry`` keyword that takes each."""

    different: tuple[Pair, ...]
    allowed: tuple[int, ...] | None
    relations: tuple[tuple[int, int, tuple[int, ...]], ...]
    cages: tuple[tuple[tuple[int, ...], int | None], ...]
    linear: tuple[Linear, ...]
    groups: tuple[Group, ...]


class Constraints(_HashKept):
    """The variant rules of a puzzle beyond its units (immutable and hashable).

    Every field is optional; the defaults mean "no such rule". Pairs are kept as sorted
    ``(a, b)`` with ``a < b`` and listed once, cages sorted by cells, so equal rules compare
    equal however they were written. Thermometers keep their order (bulb first).

    >>> Constraints(white=[(1, 0), (0, 1)]).white
    ((0, 1),)
    >>> Constraints().is_empty()
    True
    """

    #: A private slot (not a field): ``_forms``, the :meth:`search_forms` of each size asked
    #: for (the hash is kept as :class:`_HashKept` keeps it: the form caches key on it).
    __slots__ = (
        "_forms",
        "antiking",
        "antiknight",
        "black",
        "black_negative",
        "cages",
        "nonconsecutive",
        "parity",
        "rules",
        "thermos",
        "v",
        "white",
        "white_negative",
        "x",
        "xv_negative",
    )
    __match_args__ = (
        "cages",
        "antiknight",
        "antiking",
        "nonconsecutive",
        "white",
        "black",
        "white_negative",
        "black_negative",
        "x",
        "v",
        "xv_negative",
        "parity",
        "thermos",
        "rules",
    )
    cages: tuple[Cage, ...]
    antiknight: bool
    antiking: bool
    nonconsecutive: bool
    white: tuple[Pair, ...]
    black: tuple[Pair, ...]
    white_negative: bool
    black_negative: bool
    x: tuple[Pair, ...]
    v: tuple[Pair, ...]
    xv_negative: bool
    parity: str | None
    thermos: tuple[tuple[int, ...], ...]
    rules: tuple[Rule, ...]

    def __init__(
        self,
        *,
        cages: Iterable[Cage] = (),
        antiknight: bool = False,
        antiking: bool = False,
        nonconsecutive: bool = False,
        white: Iterable[Sequence[int]] = (),
        black: Iterable[Sequence[int]] = (),
        kropki_negative: bool = False,
        white_negative: bool = False,
        black_negative: bool = False,
        x: Iterable[Sequence[int]] = (),
        v: Iterable[Sequence[int]] = (),
        xv_negative: bool = False,
        parity: str | None = None,
        thermos: Iterable[Sequence[int]] = (),
        rules: Iterable[Rule] = (),
    ) -> None:
        sets = object.__setattr__
        sets(self, "cages", tuple(sorted(cages, key=lambda cage: (cage.cells, cage.total or 0))))
        sets(self, "antiknight", bool(antiknight))
        sets(self, "antiking", bool(antiking))
        sets(self, "nonconsecutive", bool(nonconsecutive))
        sets(self, "white", _pairs(white))
        sets(self, "black", _pairs(black))
        sets(self, "white_negative", bool(white_negative or kropki_negative))
        sets(self, "black_negative", bool(black_negative or kropki_negative))
        sets(self, "x", _pairs(x))
        sets(self, "v", _pairs(v))
        sets(self, "xv_negative", bool(xv_negative))
        if parity is not None:
            parity = parity.lower()
            if not parity.strip("."):
                parity = None
        sets(self, "parity", parity)
        sets(self, "thermos", tuple(tuple(int(i) for i in t) for t in thermos))
        kept = tuple(rules)
        for rule in kept:
            if not isinstance(rule, Rule):
                raise TypeError(f"rules holds rule values (sudokit.rules), not {rule!r}")
        # one order, so that equal rule sets compare equal however they were listed
        sets(self, "rules", tuple(sorted(set(kept), key=lambda r: (r.kind, repr(r._values())))))

    def __repr__(self) -> str:
        """Only the rules that are set: ``Constraints(antiknight=True)``."""
        empty = Constraints.__new__(Constraints)
        Constraints.__init__(empty)
        fields = [
            f"{name}={getattr(self, name)!r}"
            for name in self.__match_args__
            if getattr(self, name) != getattr(empty, name)
        ]
        if self.kropki_negative:  # both colours: the one flag that says so
            at = fields.index("white_negative=True")
            fields[at : at + 2] = ["kropki_negative=True"]
        return f"Constraints({', '.join(fields)})"

    def search_forms(self, n: int) -> SearchForms:
        """Every primitive form a search engine reads, for size *n*, computed once per size
        and kept on the value (it is immutable): the engines' geometry keywords.

        >>> forms = Constraints(v=[(0, 1)]).search_forms(4)
        >>> forms["different"], forms["allowed"], len(forms["relations"]), forms["cages"]
        ((), None, 2, ())
        >>> Constraints(v=[(0, 1)]).search_forms(4) == forms
        True
        """
        try:
            cached: dict[int, SearchForms] = self._forms  # type: ignore[attr-defined]
        except AttributeError:
            cached = {}
            object.__setattr__(self, "_forms", cached)
        found = cached.get(n)
        if found is None:
            found = SearchForms(
                different=_core_different(self, n),
                allowed=self.allowed(n),
                relations=_core_relations(self, n),
                cages=tuple((cage.cells, cage.total) for cage in self.cages),
                linear=self.linear(n),
                groups=self.groups(n),
            )
            cached[n] = found
        return found

    def __reduce__(self) -> tuple[object, ...]:
        # Fields are keyword-only: rebuilt through a partial that carries them (as Shape is).
        fields: dict[str, Any] = dict(zip(self.__match_args__, self._values(), strict=True))
        return (partial(Constraints, **fields), ())

    @property
    def kropki_negative(self) -> bool:
        """True when both kropki colours are negative: no orthogonal pair without a dot is
        consecutive or one double the other (``white_negative`` and ``black_negative``).

        >>> c = Constraints(kropki_negative=True)
        >>> c.white_negative, c.black_negative, c.kropki_negative, c
        (True, True, True, Constraints(kropki_negative=True))
        >>> Constraints(black_negative=True).kropki_negative
        False
        """
        return self.white_negative and self.black_negative

    def _any_kropki(self) -> bool:
        return bool(self.white or self.black or self.white_negative or self.black_negative)

    def is_empty(self) -> bool:
        """True when no rule is set."""
        return self == Constraints()

    @property
    def kinds(self) -> tuple[str, ...]:
        """The names of the rules that are set, in a stable order (``shape.variant`` uses them).

        >>> Constraints(cages=(Cage((0, 1), 3),), white=[(0, 1)]).kinds
        ('killer', 'kropki')
        """
        names = []
        if self.cages:
            names.append("killer")
        for name, on in (
            ("antiknight", self.antiknight),
            ("antiking", self.antiking),
            ("nonconsecutive", self.nonconsecutive),
            ("kropki", self._any_kropki()),
            ("xv", bool(self.x or self.v or self.xv_negative)),
            ("parity", self.parity is not None),
            ("thermo", bool(self.thermos)),
        ):
            if on:
                names.append(name)
        for rule in self.rules:
            if rule.kind not in names:
                names.append(rule.kind)
        return tuple(names)

    # -- validation --------------------------------------------------------------------------

    def check(self, n: int) -> None:
        """Raise :class:`ValueError` naming the first rule that cannot hold on an ``n x n`` grid.

        >>> Constraints(cages=(Cage((0, 1), 30),)).check(9)
        Traceback (most recent call last):
        ...
        ValueError: cage of sum 30 at r1c1: 2 cells cannot add up to 30 (possible: 3..17)
        >>> Constraints(thermos=[(0, 2)]).check(9)
        Traceback (most recent call last):
        ...
        ValueError: thermometer 1 is not a path: r1c1 and r1c3 are not neighbours
        """
        ncells = n * n

        def inside(cell: int, what: str) -> None:
            if not 0 <= cell < ncells:
                raise ValueError(f"{what}: cell index {cell} is outside 0..{ncells - 1}")

        owner: dict[int, Cage] = {}
        for k, cage in enumerate(self.cages, 1):
            if not cage.cells:
                raise ValueError(f"cage {k} has no cells")
            for cell in cage.cells:
                inside(cell, f"cage {k}")
            what = cage.describe(n)
            if len(set(cage.cells)) != len(cage.cells):
                raise ValueError(f"{what} lists a cell twice")
            if len(cage.cells) > n:
                raise ValueError(f"{what} has {len(cage.cells)} cells; at most {n} fit")
            if cage.total is not None:
                low, high = sum_range(len(cage.cells), n)
                if not low <= cage.total <= high:
                    raise ValueError(
                        f"{what}: {len(cage.cells)} cells cannot add up to {cage.total}"
                        f" (possible: {low}..{high})"
                    )
            for cell in cage.cells:
                if cell in owner:
                    raise ValueError(
                        f"cages overlap at {_name(cell, n)} ({owner[cell].describe(n)} and {what})"
                    )
                owner[cell] = cage
        for label, pairs in (("white dot", self.white), ("black dot", self.black),
                             ("X", self.x), ("V", self.v)):  # fmt: skip
            for a, b in pairs:
                inside(a, label)
                inside(b, label)
                ra, ca = divmod(a, n)
                rb, cb = divmod(b, n)
                if abs(ra - rb) + abs(ca - cb) != 1:
                    raise ValueError(
                        f"{label} between {_name(a, n)} and {_name(b, n)}: the cells are not"
                        " orthogonal neighbours"
                    )
        for label, pairs, total in (("X", self.x, 10), ("V", self.v, 5)):
            if pairs and not any(1 <= total - d <= n and total - d != d for d in range(1, n + 1)):
                raise ValueError(f"{label} needs two digits adding up to {total}: none on {n}x{n}")
        if self.black and n < 2:
            raise ValueError(f"a black dot needs a digit and its double: none on {n}x{n}")
        if self.parity is not None:
            if len(self.parity) != ncells:
                raise ValueError(f"parity needs {ncells} symbols, got {len(self.parity)}")
            bad = next((i for i, ch in enumerate(self.parity) if ch not in ".eo"), None)
            if bad is not None:
                raise ValueError(
                    f"parity symbol {self.parity[bad]!r} at {_name(bad, n)}: expected e, o or ."
                )
        for k, thermo in enumerate(self.thermos, 1):
            if not thermo:
                raise ValueError(f"thermometer {k} has no cells")
            for cell in thermo:
                inside(cell, f"thermometer {k}")
            if len(set(thermo)) != len(thermo):
                raise ValueError(f"thermometer {k} visits a cell twice")
            if len(thermo) > n:
                raise ValueError(
                    f"thermometer {k} has {len(thermo)} cells; at most {n} can increase"
                )
            check_path(thermo, n, f"thermometer {k}")
        for rule in self.rules:
            rule.check(n)

    # -- the primitive forms a search uses -------------------------------------------------

    def different_pairs(self, n: int) -> tuple[Pair, ...]:
        """Pairs of cells (a < b) that must hold different digits: anti-knight and anti-king
        moves, and the cells of each cage. Sorted, each pair once.

        >>> Constraints(antiknight=True).different_pairs(3)
        ((0, 5), (0, 7), (1, 6), (1, 8), (2, 3), (2, 7), (3, 8), (5, 6))
        """
        return _different_pairs(self, n)

    def relations(self, n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        """The binary rules as support tables, both directions listed, one entry per ordered
        pair: ``(a, b, table)`` where ``table[d - 1]`` is the mask of the digits cell *b* may
        hold when cell *a* holds *d*. Covers non-consecutive, kropki and XV (with their
        negative rules) and the steps of every thermometer; not the "different" pairs.

        >>> [(a, b, [bin(m) for m in t]) for a, b, t in Constraints(v=[(0, 1)]).relations(4)]
        [(0, 1, ['0b1000', '0b100', '0b10', '0b1']), (1, 0, ['0b1000', '0b100', '0b10', '0b1'])]
        """
        return _relations(self, n)

    def allowed(self, n: int) -> tuple[int, ...] | None:
        """Per-cell masks of the digits parity allows, or None when there is no parity rule.

        >>> [bin(m) for m in Constraints(parity="eo..").allowed(2)]
        ['0b10', '0b1', '0b11', '0b11']
        """
        return _allowed(self, n)

    def linear(self, n: int) -> tuple[Linear, ...]:
        """The linear sums of the rules: ``(cells, coefs, total)`` meaning ``sum(coef * digit)
        == total``, digits may repeat (arrows, little killers, region-sum and zipper lines).

        >>> from sudokit.rules import Arrow
        >>> Constraints(rules=[Arrow((0,), ((1,),))]).linear(4)
        (((1, 0), (1, -1), 0),)
        """
        return tuple(item for rule in self.rules for item in _compiled(rule, n).linear)

    def groups(self, n: int) -> tuple[Group, ...]:
        """The group predicates of the rules: ``(kind, cells, params)`` with *kind* a
        :class:`~sudokit.rules.primitives.GroupKind` (renban, between, quadruple, sandwich,
        x-sum, skyscraper).

        >>> from sudokit.rules import Renban
        >>> Constraints(rules=[Renban((0, 1))]).groups(4)
        ((1, (0, 1), ()),)
        """
        return tuple(
            (int(kind), cells, params)
            for rule in self.rules
            for kind, cells, params in _compiled(rule, n).groups
        )

    def units(self, n: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The extra units the rules add, each ``(kind, cells)``: ``n`` cells holding every
        digit once (one diagonal, disjoint groups, extra regions of ``n`` cells).

        >>> from sudokit.rules import Diagonal
        >>> Constraints(rules=[Diagonal()]).units(4)
        (('diagonal', (0, 5, 10, 15)),)
        """
        out = []
        for rule in self.rules:
            for cells in _compiled(rule, n).units:
                kind = (
                    rule.title
                    if rule.kind != "diagonal"
                    else ("anti-diagonal" if getattr(rule, "anti", 0) else "diagonal")
                )
                out.append((kind, tuple(cells)))
        return tuple(out)

    def violations(self, cells: bytes | Sequence[int], n: int) -> list[Violation]:
        """The rules the filled cells of *cells* (0 = empty) break, in a stable order:
        ``(digit or 0, what in words, cells)``. An empty grid breaks none.

        >>> Constraints(thermos=[(0, 1)]).violations([2, 1, 0, 0], 2)
        [(0, 'thermometer at r1c1 broken between r1c1 and r1c2', (0, 1))]
        """
        found: list[Violation] = []
        for on, steps, move in (
            (self.antiknight, _KNIGHT, "knight"),
            (self.antiking, _KING, "king"),
        ):
            if not on:
                continue
            for a, b in _moves(n, steps):
                if cells[a] and cells[a] == cells[b]:
                    found.append(
                        (
                            0,
                            f"{_name(a, n)} and {_name(b, n)} are a {move}'s move apart and"
                            f" both hold {cells[a]}",
                            (a, b),
                        )
                    )
        for cage in self.cages:
            seen: dict[int, int] = {}
            for i in cage.cells:
                d = cells[i]
                if d and d in seen:
                    found.append((d, cage.describe(n), (seen[d], i)))
                seen.setdefault(d, i)
            if cage.total is None:
                continue
            values = [cells[i] for i in cage.cells]
            total = sum(values)
            if all(values) and total != cage.total:
                found.append((0, f"{cage.describe(n)} adds up to {total}", cage.cells))
            elif not all(values) and total >= cage.total:
                found.append((0, f"{cage.describe(n)} already adds up to {total}", cage.cells))
        allowed = self.allowed(n)
        if allowed is not None:
            for i, d in enumerate(cells):
                if d and not allowed[i] >> (d - 1) & 1:
                    word = "even" if self.parity and self.parity[i] == "e" else "odd"
                    found.append((d, f"{_name(i, n)} must be {word}", (i,)))
        own = _legacy_relations(self, n)
        for a, b, table in own:
            if a < b and cells[a] and cells[b] and not table[cells[a] - 1] >> (cells[b] - 1) & 1:
                found.append((0, _relation_words(self, a, b, n), (a, b)))
        for rule in self.rules:
            found.extend(rule.broken(cells, n))
        return found


@lru_cache(maxsize=4096)
def _compiled(rule: Rule, n: int) -> Compiled:
    """A rule's primitive forms on ``n x n``, compiled once."""
    return rule.compile(n)


@lru_cache(maxsize=256)
def _allowed(rules: Constraints, n: int) -> tuple[int, ...] | None:
    full = (1 << n) - 1
    masks: list[int] | None = None
    if rules.parity is not None:
        even = sum(1 << (d - 1) for d in range(2, n + 1, 2))
        by_symbol = {"e": even, "o": full & ~even, ".": full}
        masks = [by_symbol[ch] for ch in rules.parity]
    for rule in rules.rules:
        for cell, mask in _compiled(rule, n).allowed:
            if masks is None:
                masks = [full] * (n * n)
            masks[cell] &= mask
    return None if masks is None else tuple(masks)


def _relation_words(rules: Constraints, a: int, b: int, n: int) -> str:
    """Which pair rule(s) cells a and b break, in words."""
    pair = (a, b)
    names = []
    for label, pairs in (("white dot", rules.white), ("black dot", rules.black),
                         ("X", rules.x), ("V", rules.v)):  # fmt: skip
        if pair in pairs:
            names.append(label)
    for thermo in rules.thermos:
        for p, q in pairwise(thermo):
            if {p, q} == {a, b}:
                names.append(f"thermometer at {_name(thermo[0], n)}")
    if not names:
        names.append("neighbour rule")
    return f"{' and '.join(names)} broken between {_name(a, n)} and {_name(b, n)}"


@lru_cache(maxsize=256)
def _different_pairs(rules: Constraints, n: int) -> tuple[Pair, ...]:
    """The merged pairs: the core's (:func:`_core_different`), oriented, with the cage mates."""
    pairs = {(min(a, b), max(a, b)) for a, b in _core_different(rules, n)}
    for cage in rules.cages:
        cells = cage.cells
        pairs.update((a, b) for k, a in enumerate(cells) for b in cells[k + 1 :])
    return tuple(sorted(pairs))


def _core_different(rules: Constraints, n: int) -> tuple[Pair, ...]:
    """The pairs that differ as the C core reads them (``search_forms``): the anti-knight and
    anti-king moves, then each rule's pairs as it compiled them, neither merged, sorted nor
    oriented, and without the cage mates: the core adds those itself and merges every pair
    into the peers (sk_rules.c merge_peers: a pair listed twice, or of cells already peers, is
    harmless), so the merge of :meth:`Constraints.different_pairs` (40 us for eight between
    lines, on a rule set's first search) is skipped."""
    moves = [
        pair
        for on, steps in ((rules.antiknight, _KNIGHT), (rules.antiking, _KING))
        if on
        for pair in _moves(n, steps)
    ]
    return (*moves, *(pair for rule in rules.rules for pair in _compiled(rule, n).different))


@lru_cache(maxsize=256)
def _relations(rules: Constraints, n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    return _merged_relations(rules, n, with_rules=True)


@lru_cache(maxsize=256)
def _legacy_relations(rules: Constraints, n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The relations of the older fields only (their violations have their own words)."""
    return _merged_relations(rules, n, with_rules=False)


def _core_relations(rules: Constraints, n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The relations as the C core reads them (``search_forms``): the older fields' merged,
    then each rule's as it compiled them, one direction each and not merged: the core merges
    per ordered pair and adds the other direction itself (sk_rules.c build_arcs), so the
    Python merge of :meth:`Constraints.relations` (0.2 ms for four column indexers' 576 arcs,
    7 ms for self-taxicab's 5,640, on a rule set's first search) is skipped.  Merged when
    there are more than the core takes (one per ordered pair)."""
    raw = _legacy_relations(rules, n) + tuple(
        relation for rule in rules.rules for relation in _compiled(rule, n).relations
    )
    cells = n * n
    return raw if len(raw) <= cells * (cells - 1) else _relations(rules, n)


@lru_cache(maxsize=4096)
def _transpose(table: tuple[int, ...], n: int) -> tuple[int, ...]:
    """The relation b -> a of the table a -> b (digit masks, bit x - 1 for digit x).

    >>> _transpose((0b10, 0b01), 2)
    (2, 1)
    >>> _transpose((0b11, 0b00), 2)
    (1, 1)
    """
    out = [0] * n
    for x, m in enumerate(table):
        while m:
            low = m & -m
            out[low.bit_length() - 1] |= 1 << x
            m ^= low
    return tuple(out)


def _merged_relations(
    rules: Constraints, n: int, *, with_rules: bool
) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    full = (1 << n) - 1
    cells = n * n
    # Keyed by a * cells + b, not (a, b): integers sort several times faster than pairs
    # (self-taxicab's 5,640 arcs: 6.7 -> 0.6 ms).
    tables: dict[int, tuple[int, ...]] = {}

    def meet(key: int, table: tuple[int, ...]) -> None:
        old = tables.get(key)
        tables[key] = table if old is None else tuple(map(operator.and_, old, table))

    def restrict(a: int, b: int, table: tuple[int, ...]) -> None:
        """Intersect the relation a -> b with *table* (and b -> a with its transpose)."""
        meet(a * cells + b, table)
        meet(b * cells + a, _transpose(table, n))

    adjacent = (
        list(_adjacent_pairs(n))
        if rules.nonconsecutive or rules.white_negative or rules.black_negative or rules.xv_negative
        else []
    )
    if rules.nonconsecutive:
        table = _table(n, lambda x, y: not _consecutive(x, y))
        for a, b in adjacent:
            restrict(a, b, table)
    dots = set(rules.white) | set(rules.black)
    for a, b in rules.white:
        restrict(a, b, _table(n, _consecutive))
    for a, b in rules.black:
        restrict(a, b, _table(n, _double))
    if rules.white_negative or rules.black_negative:
        white, black = rules.white_negative, rules.black_negative
        table = _table(
            n, lambda x, y: not (white and _consecutive(x, y)) and not (black and _double(x, y))
        )
        for pair in adjacent:
            if pair not in dots:
                restrict(*pair, table)
    marks = set(rules.x) | set(rules.v)
    for a, b in rules.x:
        restrict(a, b, _table(n, lambda x, y: x + y == 10))
    for a, b in rules.v:
        restrict(a, b, _table(n, lambda x, y: x + y == 5))
    if rules.xv_negative:
        table = _table(n, lambda x, y: x + y not in (5, 10))
        for pair in adjacent:
            if pair not in marks:
                restrict(*pair, table)
    if rules.thermos:  # (the table is built only when used: 81 calls of a lambda on 9x9)
        increasing = _table(n, lambda x, y: y > x)
        for thermo in rules.thermos:
            for a, b in pairwise(thermo):
                restrict(a, b, increasing)
    if with_rules:
        for rule in rules.rules:
            for a, b, table in _compiled(rule, n).relations:
                restrict(a, b, table)
    unbound = (full,) * n  # a table that restricts nothing (compared whole: C speed)
    return tuple(
        (key // cells, key % cells, table)
        for key, table in sorted(tables.items())
        if table != unbound
    )
