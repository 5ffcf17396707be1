"""Small text helpers shared by the technique modules: 1-based names and readable lists."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..shape import Shape

__all__ = ["cell_list", "digit_list", "elim_text", "join_or", "join_words", "unit_short"]


def join_words(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> join_words(["r1c1", "r1c2", "r2c2"])
    'r1c1, r1c2 and r2c2'
    """
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def join_or(items: Sequence[str]) -> str:
    """Like :func:`join_words` with ``or``."""
    return join_words(items, "or")


def cell_list(shape: Shape, cells: Iterable[int], last: str = "and") -> str:
    """Names of *cells* in index order joined in prose."""
    return join_words([shape.cell_name(c) for c in sorted(cells)], last)


def digit_list(digits: Iterable[int], last: str = "and") -> str:
    """``1, 4 and 7``."""
    return join_words([str(d) for d in sorted(digits)], last)


def unit_short(shape: Shape, unit: int) -> str:
    """``row 5`` / ``column 2`` / ``box 3`` (alias of :meth:`Shape.unit_name`)."""
    return shape.unit_name(unit)


def elim_text(shape: Shape, eliminations: Sequence[tuple[int, int]]) -> str:
    """Readable summary of eliminations: ``7 is removed from r1c1 and r1c2``.

    Groups by digit.

    >>> elim_text(Shape(3, 3), [(0, 7), (1, 7), (5, 3)])
    '3 is removed from r1c6; 7 is removed from r1c1 and r1c2'
    """
    by_digit: dict[int, list[int]] = {}
    for c, d in eliminations:
        by_digit.setdefault(d, []).append(c)
    parts = [f"{d} is removed from {cell_list(shape, cs)}" for d, cs in sorted(by_digit.items())]
    return "; ".join(parts)
