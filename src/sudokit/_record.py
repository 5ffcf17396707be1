"""The small immutable value classes on the import path share one base (layer 0).

Hand-written rather than dataclasses: ``dataclasses`` imports ``inspect`` and ``ast``,
which alone cost more than the rest of ``import sudokit``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MemberDescriptorType
from typing import Any, ClassVar, Self, TypeVar, dataclass_transform

__all__ = ["FrozenMap", "_HashKept", "_Record"]

_K = TypeVar("_K")
_V = TypeVar("_V")


@dataclass_transform(frozen_default=True)  # type checkers see subclasses as frozen dataclasses
class _Record:
    """Base of the small immutable value classes on the import path (Conflict, SolveResult, ...).

    Behaves like a frozen, slotted dataclass: a subclass names its fields in ``__slots__`` and,
    in order, in ``__match_args__`` (and annotates them, in that order). The ``__init__`` here
    takes every field, by position or by name, then runs :meth:`_check`; a subclass with
    defaults or conversions writes its own and sets the fields with :meth:`_set` (or one by
    one with ``object.__setattr__``).
    Equality (same class only), hashing and ``repr`` go over the fields in order; assignment
    raises ``dataclasses.FrozenInstanceError`` (an AttributeError; dataclasses is imported only
    then) and pickling rebuilds from the fields. Hand-written because ``dataclasses`` imports
    ``inspect`` and ``ast``, which alone cost more than the rest of ``import sudokit``.

    >>> class Pair(_Record):
    ...     __slots__ = ("a", "b")
    ...     __match_args__ = ("a", "b")
    ...     a: int
    ...     b: int
    >>> p = Pair(1, 2)
    >>> p, p == Pair(1, b=2), p == (1, 2), hash(p) == hash((1, 2))
    (Pair(a=1, b=2), True, False, True)
    >>> Pair(1)
    Traceback (most recent call last):
    ...
    TypeError: Pair() takes the fields a, b (missing b)
    >>> p.a = 3
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'a'
    >>> p._asdict(), p._replace(b=5)
    ({'a': 1, 'b': 2}, Pair(a=1, b=5))
    """

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()
    #: The fields equality and hashing compare, when not all of them (diagnostic fields left
    #: out, as ``field(compare=False)`` does for a dataclass); ``None`` = every field.
    _compared: tuple[str, ...] | None = None
    #: Per class, a setter of each field of ``__match_args__`` in order: the slot's own
    #: ``__set__``, which writes past the frozen ``__setattr__`` at about half the cost of
    #: ``object.__setattr__`` (records are made on hot paths: a rating makes ~60 Steps a
    #: puzzle). Set when the class is made (:meth:`__init_subclass__`).
    _setters: ClassVar[tuple[Callable[[Any, Any], None], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._setters = tuple(_setter(cls, name) for name in cls.__match_args__)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs or len(args) != len(self.__match_args__):
            args = self._by_name(args, kwargs)
        for put, value in zip(self._setters, args, strict=True):
            put(self, value)
        self._check()

    def _by_name(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Every field's value in order, from *args* then *kwargs* (else a TypeError)."""
        names = self.__match_args__
        missing = [name for name in names[len(args) :] if name not in kwargs]
        if missing or len(args) > len(names) or len(args) + len(kwargs) != len(names):
            problem = f" (missing {', '.join(missing)})" if missing else ""
            raise TypeError(f"{type(self).__name__}() takes the fields {', '.join(names)}{problem}")
        return args + tuple(kwargs[name] for name in names[len(args) :])

    def _check(self) -> None:
        """Check the fields once they are set (raise when they do not make a value): nothing
        here; a subclass that needs it overrides it."""

    def _set(self, *values: object) -> None:
        """Set the fields, in the order of ``__match_args__`` (for ``__init__``: once)."""
        for put, value in zip(self._setters, values, strict=True):
            put(self, value)

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def _key(self) -> tuple[object, ...]:
        names = self._compared
        if names is None:
            return self._values()
        return tuple([getattr(self, name) for name in names])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, _Record)
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        from dataclasses import FrozenInstanceError  # the error frozen dataclasses raise

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), self._values())

    def _asdict(self) -> dict[str, Any]:
        """The fields by name, in order (shallow: as ``dataclasses.asdict`` without its
        recursion into nested values).
        """
        return {name: getattr(self, name) for name in self.__match_args__}

    def _replace(self, **changes: Any) -> Self:
        """A copy with the fields named in *changes* replaced (as ``dataclasses.replace``:
        ``__init__`` runs again, so its checks and conversions apply; the subclass's
        ``__init__`` takes every field by its name).
        """
        return type(self)(**(self._asdict() | changes))


class _HashKept(_Record):
    """A record that keeps its hash (that of the compared fields, as :class:`_Record`'s) after
    the first call, in the private slot ``_hash``: for the records that key caches and are
    hashed again and again (the rule set and its rules key the form caches of
    :mod:`sudokit.constraints` and the engines' geometry caches)."""

    __slots__ = ("_hash",)

    def __hash__(self) -> int:
        try:
            return self._hash  # type: ignore[attr-defined,no-any-return]
        except AttributeError:
            value = hash(self._key())
            object.__setattr__(self, "_hash", value)
            return value


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """How a record of *cls* sets its field *name*: the slot's ``__set__`` when the field is a
    slot, else (a field a subclass serves otherwise, or not declared yet) ``object.__setattr__``
    by name, which says what is wrong if the field cannot be set."""
    for klass in cls.__mro__:
        attr = vars(klass).get(name)
        if attr is not None:
            if isinstance(attr, MemberDescriptorType):
                return attr.__set__
            break

    def put(record: Any, value: Any) -> None:
        object.__setattr__(record, name, value)

    return put


class FrozenMap(Mapping[_K, _V]):
    """An immutable, hashable, picklable mapping that keeps its insertion order: what a frozen
    value holds where it would otherwise hold a dict.

    Equal to any mapping with the same items (a dict too), and ``repr`` shows the items as a
    dict does; ``dict(m)`` is the plain copy (for JSON).

    >>> m = FrozenMap({"Naked Single": 2, "X-Wing": 1})
    >>> m["X-Wing"], list(m), m == {"X-Wing": 1, "Naked Single": 2}, len(m)
    (1, ['Naked Single', 'X-Wing'], True, 2)
    >>> m
    FrozenMap({'Naked Single': 2, 'X-Wing': 1})
    >>> hash(m) == hash(FrozenMap({"X-Wing": 1, "Naked Single": 2}))
    True
    >>> m["X-Wing"] = 3
    Traceback (most recent call last):
    ...
    TypeError: 'FrozenMap' object does not support item assignment
    """

    __slots__ = ("_items",)
    _items: dict[_K, _V]

    def __init__(self, items: Mapping[_K, _V] | Iterable[tuple[_K, _V]] = ()) -> None:
        # a private copy that nothing else references: never changed after this line
        object.__setattr__(self, "_items", dict(items))

    def __getitem__(self, key: _K) -> _V:
        return self._items[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"'FrozenMap' object is immutable (cannot set {name!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (FrozenMap, (dict(self._items),))
