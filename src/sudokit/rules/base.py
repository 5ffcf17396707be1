"""What a variant rule kind is, and the one registry of them (layer 1).

A kind is one value class, a subclass of :class:`Rule` that names its ``kind`` in its class
keywords and is registered under it (:func:`register`). The class holds the rule's cells and
numbers and says everything a layer needs of it:

* :meth:`Rule.check`: raise ``ValueError`` naming the rule and where, when it cannot hold on an
  ``n x n`` grid (a cell out of range, an arrow that is not a path, a sum no digits can make);
* :meth:`Rule.describe`: the rule in words, named by where it is (``'arrow at r1c1'``);
* :meth:`Rule.broken`: the rule's own test of filled digits, written from its words, not from
  its compilation (the tests compare the two);
* :meth:`Rule.compile`: the primitive forms the search propagates (:class:`Compiled`,
  :mod:`sudokit.rules.primitives`);
* :meth:`Rule.to_json` / :meth:`Rule.from_json`: the rule in the JSON puzzle format (its kind
  name and its fields), which the formats read and write through :data:`KINDS`.

>>> from sudokit.rules import Renban
>>> rule = Renban((0, 1, 2))
>>> rule.describe(9), rule.to_json()
('renban line at r1c1', {'kind': 'renban', 'cells': [0, 1, 2]})
>>> Rule.from_json({"kind": "renban", "cells": [0, 1, 2]}) == rule
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any, ClassVar, TypeVar

from .._record import _HashKept, _Record
from .primitives import Group, Linear, Relation

__all__ = [
    "KINDS",
    "Compiled",
    "Part",
    "Rule",
    "Violation",
    "cell_name",
    "check_path",
    "register",
    "table",
]

Pair = tuple[int, int]
#: A rule broken by filled cells: (digit or 0, what is broken in words, the cells).
Violation = tuple[int, str, tuple[int, ...]]
#: One test of a rule: (its cells, whether their digits keep it, what it asks in words).
Part = tuple[tuple[int, ...], Callable[[tuple[int, ...]], bool], str]

#: Every registered kind by its name (``"arrow"``, ``"renban"``, ...).
KINDS: dict[str, type[Rule]] = {}

_R = TypeVar("_R", bound="type[Rule]")


def register(cls: _R) -> _R:
    """Register a kind under its ``kind`` name (a class decorator; once per name)."""
    name = cls.kind
    if name in KINDS and KINDS[name] is not cls:
        raise ValueError(f"rule kind {name!r} is registered twice")
    KINDS[name] = cls
    return cls


def cell_name(cell: int, n: int) -> str:
    """``'r1c2'`` for cell 1 of a grid of size *n*.

    >>> cell_name(10, 9)
    'r2c2'
    """
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def table(n: int, rule: Callable[[int, int], bool]) -> tuple[int, ...]:
    """The support table of a relation ``rule(x, y)``: entry ``x - 1`` is the mask of the y's.

    >>> [bin(m) for m in table(3, lambda x, y: y > x)]
    ['0b110', '0b100', '0b0']
    """
    return tuple(sum(1 << (y - 1) for y in range(1, n + 1) if rule(x, y)) for x in range(1, n + 1))


def check_path(path: Sequence[int], n: int, what: str) -> None:
    """Raise ``ValueError`` naming *what* unless *path* steps between neighbouring cells
    (diagonals included).

    >>> check_path((0, 10, 11), 9, "the line")
    >>> check_path((0, 2), 9, "the line")
    Traceback (most recent call last):
    ...
    ValueError: the line is not a path: r1c1 and r1c3 are not neighbours
    """
    for a, b in pairwise(path):
        ra, ca = divmod(a, n)
        rb, cb = divmod(b, n)
        if max(abs(ra - rb), abs(ca - cb)) != 1:
            raise ValueError(
                f"{what} is not a path: {cell_name(a, n)} and {cell_name(b, n)} are not neighbours"
            )


class Compiled(_Record):
    """A rule in the primitive forms the search propagates (:mod:`sudokit.rules.primitives`).

    ``different``: pairs of cells that differ; ``units``: sets of ``n`` cells holding every
    digit once; ``allowed``: ``(cell, mask)`` limits; ``relations``: ``(a, b, table)``, one
    direction (the other is derived); ``linear``: ``(cells, coefs, total)`` sums where digits
    may repeat; ``groups``: ``(kind, cells, params)`` predicates.
    """

    __slots__ = ("allowed", "different", "groups", "linear", "relations", "units")
    __match_args__ = ("different", "units", "allowed", "relations", "linear", "groups")
    different: tuple[Pair, ...]
    units: tuple[tuple[int, ...], ...]
    allowed: tuple[tuple[int, int], ...]
    relations: tuple[Relation, ...]
    linear: tuple[Linear, ...]
    groups: tuple[Group, ...]

    def __init__(
        self,
        *,
        different: Iterable[Pair] = (),
        units: Iterable[tuple[int, ...]] = (),
        allowed: Iterable[tuple[int, int]] = (),
        relations: Iterable[Relation] = (),
        linear: Iterable[Linear] = (),
        groups: Iterable[Group] = (),
    ) -> None:
        self._set(
            tuple(different),
            tuple(units),
            tuple(allowed),
            tuple(relations),
            tuple(linear),
            tuple(groups),
        )


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, got {value!r}")
    return int(value)


def _ints(value: Any) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise ValueError(f"expected a list of whole numbers, got {value!r}")
    return tuple(_int(v) for v in value)


def _paths(value: Any) -> tuple[tuple[int, ...], ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise ValueError(f"expected a list of cell lists, got {value!r}")
    return tuple(_ints(v) for v in value)


_CONVERT: dict[str, Callable[[Any], Any]] = {
    "cells": _ints,
    "ints": _ints,
    "paths": _paths,
    "int": _int,
}


class Rule(_HashKept):
    """One rule of a variant puzzle: the base of every registered kind.

    A subclass sets ``kind`` (its registry name, the JSON ``"kind"``) and ``title`` (its name
    in words) as class keywords, names its fields in ``__slots__`` / ``__match_args__``, and
    overrides :meth:`check`, :meth:`compile` and :meth:`broken`; ``describe`` and the JSON
    forms come from the fields unless it overrides them. Fields hold cells as tuples of
    indices (row-major from 0), numbers as ints, so that equal rules compare equal.
    """

    #: The hash is kept (:class:`_HashKept`): rules key the form caches of
    #: :mod:`sudokit.constraints`, and a new rule set hashes every rule of it several times.
    __slots__ = ()
    kind: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: The kind's word in the sentence its base describes it by (``"ratio"`` dot, ...).
    word: ClassVar[str] = ""
    #: How each field (in ``__match_args__`` order) is read: ``"cells"`` a tuple of cell
    #: indices in order, ``"paths"`` a tuple of those, ``"int"``, ``"ints"`` a tuple of ints.
    _types: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(
        cls, kind: str = "", title: str = "", word: str = "", **kwargs: Any
    ) -> None:
        """A kind is declared by its class keywords, ``class Renban(Rule, kind="renban",
        title="renban line")`` (and ``word=`` where its base describes it), and registered
        under *kind* (:func:`register`) once it is made."""
        super().__init_subclass__(**kwargs)
        for name, value in (("kind", kind), ("title", title), ("word", word)):
            if value:
                setattr(cls, name, value)
        if kind:
            register(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self.fields()
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes the fields {', '.join(names)}")
        given = dict(zip(names, args, strict=False)) | kwargs
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise TypeError(f"{type(self).__name__}() has no field {unknown[0]!r}")
        values = []
        for name, how in zip(names, self._types, strict=True):
            if name not in given:
                raise TypeError(f"{type(self).__name__}() needs the field {name!r}")
            values.append(_CONVERT[how](given[name]))
        self._set(*values)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), self._values())

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        """The names of the kind's fields, in order."""
        return tuple(cls.__match_args__)

    # -- words ---------------------------------------------------------------------------

    def cells_of(self) -> tuple[int, ...]:
        """Every cell the rule names (for ``check`` and ``describe``); none for a global rule."""
        found: list[int] = []
        for name in self.fields():
            value = getattr(self, name)
            if isinstance(value, tuple) and value and isinstance(value[0], tuple):
                for part in value:
                    found.extend(part)
            elif isinstance(value, tuple) and name in ("cells", "circle", "pill", "ends"):
                found.extend(value)
        return tuple(found)

    def describe(self, n: int) -> str:
        """The rule in words, named by its first cell: ``'renban line at r1c1'``."""
        cells = self.cells_of()
        return f"{self.title} at {cell_name(cells[0], n)}" if cells else self.title

    # -- the contract of a kind --------------------------------------------------------------

    def check(self, n: int) -> None:
        """Raise ``ValueError`` naming the rule and where when it cannot hold on ``n x n``."""
        self.check_cells(n)

    def compile(self, n: int) -> Compiled:
        """The rule in the search's primitive forms."""
        raise NotImplementedError

    def broken(self, cells: Sequence[int], n: int) -> list[Violation]:
        """What filled *cells* (0 = empty) break of this rule, in words (nothing when none):
        each of :meth:`parts` whose cells are all filled and whose test fails."""
        found: list[Violation] = []
        for where, holds, words in self.parts(n):
            digits = tuple(cells[i] for i in where)
            if all(digits) and not holds(digits):
                found.append((0, f"{self.describe(n)} is broken: {words}", tuple(where)))
        return found

    def parts(self, n: int) -> Iterable[Part]:
        """The rule as tests of filled digits, written from its words: ``(cells, holds,
        words)``, where ``holds(digits)`` of the cells' digits (in order) says whether this
        part is kept, and *words* say what it asks."""
        raise NotImplementedError

    # -- helpers for kinds -----------------------------------------------------------------

    def check_cells(self, n: int, *, distinct: bool = True) -> None:
        """Every named cell inside the grid and, when *distinct*, none named twice."""
        cells = self.cells_of()
        ncells = n * n
        for cell in cells:
            if not 0 <= cell < ncells:
                raise ValueError(f"{self.title}: cell index {cell} is outside 0..{ncells - 1}")
        if distinct and len(set(cells)) != len(cells):
            twice = next(c for c in cells if cells.count(c) > 1)
            raise ValueError(f"{self.describe(n)} names {cell_name(twice, n)} twice")

    def check_path(self, path: Sequence[int], n: int, *, what: str | None = None) -> None:
        """*path* steps between neighbouring cells (diagonals included)."""
        check_path(path, n, what or self.describe(n))

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The rule as a JSON object: its ``kind`` and its fields (tuples as lists)."""
        obj: dict[str, Any] = {"kind": self.kind}
        for name in self.fields():
            obj[name] = _plain(getattr(self, name))
        return obj

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Rule:
        """The rule of a JSON object written by :meth:`to_json` (``ValueError`` when malformed:
        an unknown kind, a missing or extra field, a value of the wrong type)."""
        if not isinstance(obj, Mapping):
            raise ValueError(f"a rule must be an object, not {type(obj).__name__}")
        name = obj.get("kind")
        cls = KINDS.get(name) if isinstance(name, str) else None
        if cls is None:
            known = ", ".join(sorted(KINDS))
            raise ValueError(f"unknown rule kind {name!r} (known: {known})")
        fields = {k: v for k, v in obj.items() if k != "kind"}
        extra = sorted(set(fields) - set(cls.fields()))
        if extra:
            raise ValueError(f"{cls.title}: unknown field {extra[0]!r}")
        try:
            return cls(**fields)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{cls.title}: {exc}") from None


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
