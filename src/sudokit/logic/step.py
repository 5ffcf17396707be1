"""One deduction of a human-style solver: a :class:`Step` (layer 2).

A step names its technique, carries an SE-comparable rating, the placements and eliminations it
makes, a plain-English explanation with 1-based names (``r5c4``) and what a UI should highlight.
Cells are indices ``row * n + col``; digits ``1..n``.

>>> s = Step("Naked Single", 2.3, placements=((40, 7),), text="r5c5 can only be 7.", size=9)
>>> s.to_json()["placements"]
[[5, 5, 7]]
"""

from __future__ import annotations

from .._record import _Record

__all__ = ["LENGTH_BONUS_THRESHOLDS", "Step", "chain_length_bonus"]


class Step(_Record):
    """An immutable deduction.

    ``technique`` is the display name ("Hidden Single", "X-Wing", ...); ``rating`` the SE 1.2.1
    comparable difficulty of this step; ``placements`` and ``eliminations`` are ``(cell, digit)``
    pairs; ``text`` explains it; ``cells``, ``units``, ``highlights`` (``(cell, digit)``
    candidates) and ``links`` (``(cell1, d1, cell2, d2, strong)``) say what justifies it.
    ``size`` is the grid size *n* used to turn cell indices into rows and columns (0 = unknown,
    filled in by the path functions).
    """

    __slots__ = (
        "cells",
        "eliminations",
        "highlights",
        "links",
        "placements",
        "rating",
        "size",
        "technique",
        "text",
        "units",
    )
    __match_args__ = (
        "technique",
        "rating",
        "placements",
        "eliminations",
        "text",
        "cells",
        "units",
        "highlights",
        "links",
        "size",
    )
    technique: str
    rating: float
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    text: str
    cells: tuple[int, ...]
    units: tuple[int, ...]
    highlights: tuple[tuple[int, int], ...]
    links: tuple[tuple[int, int, int, int, bool], ...]
    size: int

    def __init__(
        self,
        technique: str,
        rating: float,
        placements: tuple[tuple[int, int], ...] = (),
        eliminations: tuple[tuple[int, int], ...] = (),
        text: str = "",
        cells: tuple[int, ...] = (),
        units: tuple[int, ...] = (),
        highlights: tuple[tuple[int, int], ...] = (),
        links: tuple[tuple[int, int, int, int, bool], ...] = (),
        size: int = 0,
    ) -> None:
        self._set(
            technique, rating, placements, eliminations, text, cells, units, highlights, links, size
        )

    @property
    def is_progress(self) -> bool:
        """True when the step places or eliminates something."""
        return bool(self.placements or self.eliminations)

    def to_json(self, n: int | None = None) -> dict[str, object]:
        """A JSON-ready dict: technique, rating, 1-based ``[row, col, digit]`` placements and
        eliminations, text, plus highlighted cells (``[row, col]``) and candidates.

        *n* (the grid size) defaults to :attr:`size`, else 9.

        >>> Step("Pointing", 2.6, eliminations=((0, 3),), size=9).to_json()["eliminations"]
        [[1, 1, 3]]
        """
        size = n or self.size or 9

        def rc(cell: int) -> list[int]:
            r, c = divmod(cell, size)
            return [r + 1, c + 1]

        return {
            "technique": self.technique,
            "rating": round(self.rating, 2),
            "placements": [[*rc(c), d] for c, d in self.placements],
            "eliminations": [[*rc(c), d] for c, d in self.eliminations],
            "text": self.text,
            "cells": [rc(c) for c in self.cells],
            "highlights": [[*rc(c), d] for c, d in self.highlights],
            "links": [[*rc(a), da, *rc(b), db, strong] for a, da, b, db, strong in self.links],
        }


#: The chain lengths of SE 1.2.1's length bonus: a chain longer than each of them adds 0.1 to
#: its rating (:func:`chain_length_bonus`; the C chaining engine takes the same tuple).
LENGTH_BONUS_THRESHOLDS = (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)


def chain_length_bonus(length: int) -> float:
    """SE 1.2.1's length bonus: 0.1 for each threshold in 4, 6, 8, 12, 16, 24, ... that *length*
    exceeds.

    >>> chain_length_bonus(4), chain_length_bonus(5), chain_length_bonus(13)
    (0.0, 0.1, 0.4)
    """
    bonus = 0
    for t in LENGTH_BONUS_THRESHOLDS:
        if length > t:
            bonus += 1
        else:
            break
    return bonus / 10
