"""The small immutable value classes on the import path share one base (layer 0).

Hand-written rather than dataclasses: ``dataclasses`` imports ``inspect`` and ``ast``,
which alone cost more than the rest of ``import sudokit``.
"""

from __future__ import annotations

from typing import dataclass_transform

__all__ = ["_Record"]


@dataclass_transform(frozen_default=True)  # type checkers see subclasses as frozen dataclasses
class _Record:
    """Base of the small immutable value classes on the import path (Conflict, SolveResult, ...).

    Behaves like a frozen, slotted dataclass: a subclass names its fields in ``__slots__`` and,
    in order, in ``__match_args__``, and sets them in ``__init__`` with ``object.__setattr__``.
    Equality (same class only), hashing and ``repr`` go over the fields in order; assignment
    raises ``dataclasses.FrozenInstanceError`` (an AttributeError; dataclasses is imported only
    then) and pickling rebuilds from the fields. Hand-written because ``dataclasses`` imports
    ``inspect`` and ``ast``, which alone cost more than the rest of ``import sudokit``.

    >>> class Pair(_Record):
    ...     __slots__ = ("a", "b")
    ...     __match_args__ = ("a", "b")
    ...     def __init__(self, a: int, b: int) -> None:
    ...         object.__setattr__(self, "a", a)
    ...         object.__setattr__(self, "b", b)
    >>> p = Pair(1, 2)
    >>> p, p == Pair(1, 2), p == (1, 2), hash(p) == hash((1, 2))
    (Pair(a=1, b=2), True, False, True)
    >>> p.a = 3
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'a'
    """

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, _Record)
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

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
