"""One deduction of a human-style solver: a :class:`Step` (layer 2).

A step names its technique, carries an SE-comparable rating, the placements and eliminations it
makes, a plain-English explanation with 1-based names (``r5c4``) and what a UI should highlight.
Cells are indices ``row * n + col``; digits ``1..n``.

>>> s = Step("Naked Single", 2.3, placements=((40, 7),), text="r5c5 can only be 7.", size=9)
>>> s.to_json()["placements"]
[[5, 5, 7]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .._record import _Record
from ._names import digit_labels, labels_now

if TYPE_CHECKING:
    from .candidates import CandidateGrid

__all__ = [
    "LENGTH_BONUS_THRESHOLDS",
    "Step",
    "chain_length_bonus",
    "deferred_text",
    "named_finder",
]

#: A step text not made yet (:func:`deferred_text`): ``(make, labels, *args)``.
DeferredText = tuple[Any, ...]


def deferred_text(make: Callable[..., str], *args: object) -> DeferredText:
    """A step text made only when it is first read: ``make(*args)``, with digits named as the
    caller's :func:`~sudokit.logic._names.digit_labels` name them now.

    The rating reads only techniques and ratings, yet walks ~60 steps a puzzle; a builder whose
    text needs nothing that changes later (the grid's shape and the step's own cells, units and
    digits, never the working grid's candidates) passes it this way.

    >>> s = Step("Naked Single", 2.3, ((0, 1),), text=deferred_text("{} is {}".format, "r1c1", 1))
    >>> s.text, s == Step("Naked Single", 2.3, ((0, 1),), text="r1c1 is 1")
    ('r1c1 is 1', True)
    """
    return (make, labels_now(), *args)


class Step(_Record):
    """An immutable deduction.

    ``technique`` is the display name ("Hidden Single", "X-Wing", ...); ``rating`` the SE 1.2.1
    comparable difficulty of this step; ``placements`` and ``eliminations`` are ``(cell, digit)``
    pairs; ``text`` explains it; ``cells``, ``units``, ``highlights`` (``(cell, digit)``
    candidates) and ``links`` (``(cell1, d1, cell2, d2, strong)``) say what justifies it.
    ``size`` is the grid size *n* used to turn cell indices into rows and columns (0 = unknown,
    filled in by the path functions). ``parts`` is empty for a single deduction; a step of a
    walkthrough that reports several deductions at once (a run of singles, a killer's cage
    combinations: :mod:`.walkthrough`) holds them there, in order, each with its own reason.

    *text* may be given as a :func:`deferred_text`: it is then made when first read (equality,
    hashing, ``repr`` and pickling read it too), so a step is the same value either way.
    """

    __slots__ = (
        "_text",
        "cells",
        "eliminations",
        "highlights",
        "links",
        "parts",
        "placements",
        "rating",
        "size",
        "technique",
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
        "parts",
    )
    technique: str
    rating: float
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    _text: str | DeferredText
    cells: tuple[int, ...]
    units: tuple[int, ...]
    highlights: tuple[tuple[int, int], ...]
    links: tuple[tuple[int, int, int, int, bool], ...]
    size: int
    parts: tuple[Step, ...]

    def __init__(
        self,
        technique: str,
        rating: float,
        placements: tuple[tuple[int, int], ...] = (),
        eliminations: tuple[tuple[int, int], ...] = (),
        text: str | DeferredText = "",
        cells: tuple[int, ...] = (),
        units: tuple[int, ...] = (),
        highlights: tuple[tuple[int, int], ...] = (),
        links: tuple[tuple[int, int, int, int, bool], ...] = (),
        size: int = 0,
        parts: tuple[Step, ...] = (),
    ) -> None:
        # the slots' own setters, one by one: a rating makes ~60 steps a puzzle
        _TECHNIQUE(self, technique)
        _RATING(self, rating)
        _PLACEMENTS(self, placements)
        _ELIMINATIONS(self, eliminations)
        _TEXT(self, text)
        _CELLS(self, cells)
        _UNITS(self, units)
        _HIGHLIGHTS(self, highlights)
        _LINKS(self, links)
        _SIZE(self, size)
        _PARTS(self, parts)

    @property
    def text(self) -> str:
        """The plain-English explanation (made now if it was deferred)."""
        text = self._text
        if isinstance(text, str):
            return text
        make, labels, *args = text
        if labels == labels_now():
            made: str = make(*args)
        else:
            with digit_labels(labels):
                made = make(*args)
        _TEXT(self, made)
        return made

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

        out: dict[str, object] = {
            "technique": self.technique,
            "rating": round(self.rating, 2),
            "placements": [[*rc(c), d] for c, d in self.placements],
            "eliminations": [[*rc(c), d] for c, d in self.eliminations],
            "text": self.text,
            "cells": [rc(c) for c in self.cells],
            "highlights": [[*rc(c), d] for c, d in self.highlights],
            "links": [[*rc(a), da, *rc(b), db, strong] for a, da, b, db, strong in self.links],
        }
        if self.parts:  # only on a walkthrough's grouped step (the JSON of others is unchanged)
            out["parts"] = [p.to_json(size) for p in self.parts]
        return out


(
    _TECHNIQUE,
    _RATING,
    _PLACEMENTS,
    _ELIMINATIONS,
    _TEXT,
    _CELLS,
    _UNITS,
    _HIGHLIGHTS,
    _LINKS,
    _SIZE,
    _PARTS,
) = (vars(Step)["_text" if name == "text" else name].__set__ for name in Step.__match_args__)


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


def named_finder(
    name: str, doc: str | None, find: Callable[..., Iterator[Step]], *args: object
) -> Callable[[CandidateGrid], Iterator[Step]]:
    """``find(cg, *args)`` as the finder *name* of *find*'s module, documented by *doc*: one
    member of a family of techniques that differ only by *args* (a fish's size, ...).

    >>> f = named_finder("x", "X.", lambda cg, k: iter([Step("x", k)]), 1.5)
    >>> f.__name__, f.__doc__, [s.rating for s in f(None)]
    ('x', 'X.', [1.5])
    """

    def finder(cg: CandidateGrid) -> Iterator[Step]:
        return find(cg, *args)

    finder.__name__ = finder.__qualname__ = name
    finder.__doc__ = doc
    finder.__module__ = find.__module__
    return finder
