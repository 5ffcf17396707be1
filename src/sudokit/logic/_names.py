"""Small text helpers shared by the technique modules: 1-based names and readable lists.

Digits are named here and only here (:func:`digit_name`): as the grid's line format writes
them (``B`` for 11 on a 16x16 grid, plain numbers up to 9x9 and above 61x61), or as numbers
when the caller asks for ``labels="numbers"`` (:func:`digit_labels`, used by
:func:`sudokit.hint` / :func:`sudokit.explain`). Step data (placements, eliminations) always
keeps digits as numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from ..shape import LABELS, SYMBOLS, Labels, Shape

__all__ = [
    "LABELS",
    "Labels",
    "cell_list",
    "digit_labels",
    "digit_list",
    "digit_name",
    "elim_cells",
    "elim_text",
    "elim_words",
    "join_or",
    "join_words",
    "labels_now",
    "unit_short",
]

_LABELS: ContextVar[Labels] = ContextVar("sudokit_logic_labels", default="symbols")


@contextmanager
def digit_labels(labels: Labels) -> Iterator[None]:
    """Name digits as *labels* in the step texts made inside the block.

    >>> with digit_labels("numbers"):
    ...     digit_name(16, 11)
    '11'
    """
    if labels not in LABELS:
        raise ValueError(f"labels must be one of {', '.join(LABELS)}, got {labels!r}")
    token = _LABELS.set(labels)
    try:
        yield
    finally:
        _LABELS.reset(token)


#: How digits are named in the step texts made here and now (see :func:`digit_labels`): the
#: context variable's own ``get``, so that asking costs no Python call.
labels_now: Callable[[], Labels] = _LABELS.get


def digit_name(n: int | Shape, digit: int) -> str:
    """The name of *digit* on a grid of size *n* (or *n*'s shape) in step texts.

    >>> digit_name(9, 7), digit_name(16, 11), digit_name(16, 9)
    ('7', 'B', '9')
    """
    size = n.n if isinstance(n, Shape) else n
    if size <= 9 or size > len(SYMBOLS) or _LABELS.get() == "numbers":
        return str(digit)
    return SYMBOLS[digit - 1]


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


def digit_list(shape: Shape | int, digits: Iterable[int], last: str = "and") -> str:
    """``1, 4 and 7`` (digits named by :func:`digit_name`)."""
    return join_words([digit_name(shape, d) for d in sorted(digits)], last)


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
    parts = [
        f"{digit_name(shape, d)} is removed from {cell_list(shape, cs)}"
        for d, cs in sorted(by_digit.items())
    ]
    return "; ".join(parts)


def elim_words(shape: Shape, eliminations: Sequence[tuple[int, int]]) -> str:
    """Like :func:`elim_text`, but when every cell loses the same digits they are named once:
    ``3 and 4 are removed from r1c1 and r1c2``.

    >>> elim_words(Shape(2, 2), [(0, 3), (0, 4), (1, 3), (1, 4)])
    '3 and 4 are removed from r1c1 and r1c2'
    >>> elim_words(Shape(2, 2), [(0, 3), (1, 4)])
    '3 is removed from r1c1; 4 is removed from r1c2'
    """
    cells = sorted({c for c, _ in eliminations})
    digits = sorted({d for _, d in eliminations})
    if len(digits) > 1 and len(set(eliminations)) == len(cells) * len(digits):
        return f"{digit_list(shape, digits)} are removed from {cell_list(shape, cells)}"
    return elim_text(shape, eliminations)


def elim_cells(shape: Shape, eliminations: Sequence[tuple[int, int]]) -> str:
    """Like :func:`elim_words`, grouped by cell: the cells that lose the same digits are
    named together, in the order of their first cell.

    >>> elim_cells(Shape(2, 2), [(0, 1), (0, 2), (1, 4), (2, 4)])
    '1 and 2 are removed from r1c1; 4 is removed from r1c2 and r1c3'
    """
    by_cell: dict[int, list[int]] = {}
    for c, d in eliminations:
        if d not in by_cell.setdefault(c, []):
            by_cell[c].append(d)
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in sorted(by_cell):
        groups.setdefault(tuple(sorted(by_cell[c])), []).append(c)
    parts = []
    for digits, cells in groups.items():
        verb = "is" if len(digits) == 1 else "are"
        parts.append(f"{digit_list(shape, digits)} {verb} removed from {cell_list(shape, cells)}")
    return "; ".join(parts)
