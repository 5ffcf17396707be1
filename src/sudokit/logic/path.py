"""The easiest-first solving path, as Sudoku Explainer 1.2.1 walks it (layer 2).

At each step take the easiest available step, apply it, repeat until the grid is solved or no
technique applies. The puzzle's SE-comparable rating is the hardest step on that path.

"Easiest" is meant as SE computes it: the techniques are tried in order of base rating and the
first technique that finds something supplies the step (its easiest one), so most steps cost
only the cheap finders. Successive
singles of the same kind are applied as a batch (each one re-checked first): they would be the
next steps anyway, and the batch only saves rescans.

This module never calls the backtracking search; :mod:`sudokit.rating` adds the uniqueness
proof and a search fallback on top of it.

A time budget (``budget_s``) bounds the whole walk: it is checked between steps and, through
:func:`sudokit.logic.chains.chain_budget`, inside the chain searches. When it runs out inside a
step the path keeps the steps taken so far and records the technique that was being searched
(``stopped_at``) and its base rating (``floor``): every easier technique had already failed on
that state, so the next step of the full path is rated at least ``floor`` and
:attr:`Path.bound` is a lower bound on the path's rating.

>>> from sudokit.grid import Grid
>>> g = Grid.parse("1.3." "...2" "2..." ".3.1")
>>> path = solve_path(CandidateGrid.from_grid(g))
>>> path.solved, path.rating, len(path.steps)
(True, 1.2, 10)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from operator import or_

from .._record import _Record
from ..errors import BudgetExceededError
from .candidates import CandidateGrid
from .chains import chain_budget
from .registry import TECHNIQUES, Technique
from .step import Step

__all__ = [
    "Path",
    "StepBudgetExceededError",
    "default_techniques",
    "find_step",
    "is_effective",
    "solve_path",
]

# Techniques whose steps are batched (placements of the same rating).
_BATCHED = frozenset(
    {"Full House", "Hidden Single (box)", "Hidden Single (row/column)", "Naked Single"}
)


class StepBudgetExceededError(BudgetExceededError):
    """The time budget ran out while *technique* was searching for a step (every easier
    technique had already failed on that state)."""

    def __init__(self, technique: Technique) -> None:
        super().__init__(f"time budget exceeded while searching for {technique.name}")
        self.technique = technique


class Path(_Record):
    """A solving path: the steps taken, whether it ended solved, and its rating.

    ``complete`` is False when the time budget ran out before the path ended (the rating is
    then a lower bound); ``stuck`` is True when no enabled technique applied. ``families``
    names the technique family (registry) of each step. ``stopped_at`` names the technique
    that was searching when the budget ran out ("" if none), and ``floor`` is the base rating
    the next step would have at least: that technique's base rating, or, when the path is
    stuck, the highest base rating of the enabled techniques (all of them failed).
    """

    __slots__ = ("complete", "families", "floor", "solved", "steps", "stopped_at")
    __match_args__ = ("steps", "solved", "complete", "families", "stopped_at", "floor")
    steps: tuple[Step, ...]
    solved: bool
    complete: bool
    families: tuple[str, ...]  # the family of the technique behind each step
    stopped_at: str
    floor: float

    def __init__(
        self,
        steps: tuple[Step, ...],
        solved: bool,
        complete: bool = True,
        families: tuple[str, ...] = (),
        stopped_at: str = "",
        floor: float = 0.0,
    ) -> None:
        self._set(steps, solved, complete, families, stopped_at, floor)

    @property
    def bound(self) -> float:
        """A lower bound on the full path's rating: the hardest step taken, or ``floor`` when
        higher. Equal to :attr:`rating` when the path ended solved."""
        return self.rating if self.solved else max(self.rating, self.floor)

    @property
    def rating(self) -> float:
        """The hardest step's rating (0.0 for an empty path)."""
        return max((s.rating for s in self.steps), default=0.0)

    @property
    def stuck(self) -> bool:
        """True when the path ended unsolved although it had time left."""
        return self.complete and not self.solved


def default_techniques(*, se_only: bool = False) -> list[Technique]:
    """The registered techniques, easiest first; only SE 1.2.1's own ones when *se_only*."""
    return [t for t in TECHNIQUES if t.se or not se_only]


def is_effective(cg: CandidateGrid, step: Step) -> bool:
    """True when *step* would change *cg*: it places into an empty cell or removes a candidate."""
    values = cg.values
    masks = cg.masks
    for cell, digit in step.placements:
        if values[cell] == 0 and masks[cell] >> (digit - 1) & 1:
            return True
    return any(masks[cell] >> (digit - 1) & 1 for cell, digit in step.eliminations)


def _is_valid_placement(cg: CandidateGrid, step: Step) -> bool:
    values = cg.values
    masks = cg.masks
    return all(
        values[cell] == 0 and masks[cell] >> (digit - 1) & 1 for cell, digit in step.placements
    )


def find_step(
    cg: CandidateGrid, techniques: Iterable[Technique] | None = None, *, unique: bool = False
) -> tuple[Step, Technique] | None:
    """The next step of the path in *cg*, with the technique that found it; None when no
    technique applies.

    As Sudoku Explainer does, the techniques are tried in order (easiest base rating first)
    and the first one that finds an effective step wins; of its steps the easiest is taken
    (the first of equal ones). A step rated above a later technique's base rating (a long
    chain, say) is therefore still taken before that later technique is tried.

    *unique* says the puzzle is known to have exactly one solution, which enables the
    uniqueness techniques.

    :raises StepBudgetExceededError: when a :func:`~sudokit.logic.chains.chain_budget` runs
        out inside a technique (it names the technique).
    """
    for t in TECHNIQUES if techniques is None else techniques:
        if t.needs_unique and not unique:
            continue
        best: Step | None = None
        try:
            for step in t.finder(cg):
                if best is not None and step.rating >= best.rating:
                    continue
                if not is_effective(cg, step):
                    continue
                best = step
                if step.rating <= t.rating:
                    break
        except StepBudgetExceededError:
            raise
        except BudgetExceededError as exc:
            raise StepBudgetExceededError(t) from exc
        if best is not None:
            return best, t
    return None


def solve_path(
    cg: CandidateGrid,
    techniques: Sequence[Technique] | None = None,
    *,
    unique: bool = False,
    max_steps: int = 0,
    budget_s: float = 0.0,
    consistent: bool = False,
) -> Path:
    """Walk the easiest-first path from *cg* (changed in place) until solved or stuck.

    :param techniques: the enabled techniques (default: every registered one), easiest first.
    :param unique: the puzzle is known to be unique (enables uniqueness techniques).
    :param max_steps: stop after this many steps (0 = no bound).
    :param budget_s: stop after this many seconds (0 = no bound), also inside a step (chain
        searches check it); the path is then incomplete and keeps the steps taken so far.
    :param consistent: the caller knows that *cg* is not broken (the candidates the givens of
        a puzzle with a solution leave: the solution keeps a candidate in every empty cell and
        every digit in every unit), so the walk need not check it first.
    :returns: a :class:`Path`.
    """
    if budget_s <= 0:  # leave a caller's own chain_budget in force
        return _walk(cg, techniques, unique, max_steps, budget_s, consistent)
    with chain_budget(budget_s):
        return _walk(cg, techniques, unique, max_steps, budget_s, consistent)


def _walk(
    cg: CandidateGrid,
    techniques: Sequence[Technique] | None,
    unique: bool,
    max_steps: int,
    budget_s: float,
    consistent: bool,
) -> Path:
    techs = list(TECHNIQUES if techniques is None else techniques)
    techs.sort(key=lambda t: t.rating)
    n = cg.shape.n
    values = cg.values  # changed in place by cg.apply / cg.place, never replaced
    masks = cg.masks
    place = cg.place
    steps: list[Step] = []
    families: list[str] = []
    deadline = time.monotonic() + budget_s if budget_s > 0 else 0.0
    complete = True
    stopped_at = ""
    floor = 0.0
    broken = not consistent and cg.is_broken()
    # Solved cells hold no candidates? (from_grid, from_masks and place keep it so, and an
    # elimination only clears bits: then it holds for the whole walk; see _dead_cell)
    counted = not any(m for m, v in zip(masks, values, strict=True) if v)
    while not broken and 0 in values:
        if max_steps and len(steps) >= max_steps:
            complete = False
            break
        if deadline and time.monotonic() > deadline:
            complete = False
            break
        try:
            found = find_step(cg, techs, unique=unique)
        except StepBudgetExceededError as exc:
            complete = False
            stopped_at = exc.technique.name
            floor = exc.technique.rating
            break
        if found is None:
            usable = [t.rating for t in techs if unique or not t.needs_unique]
            floor = max(usable, default=0.0)
            break
        step, tech = found
        if step.size != n:
            step = _with_size(step, n)
        cg.apply(step)
        steps.append(step)
        if tech.name in _BATCHED:
            # the technique's other steps of the same rating on the new state, each re-checked
            # on the state the ones before it left
            rating = step.rating
            for more in list(tech.finder(cg)):
                if more.rating != rating:
                    continue
                placed = more.placements
                if len(placed) == 1 and not more.eliminations:  # a single: placed here
                    cell, digit = placed[0]
                    if values[cell] or not masks[cell] >> (digit - 1) & 1:
                        continue
                    place(cell, digit)
                elif _is_valid_placement(cg, more):
                    cg.apply(more)
                else:
                    continue
                steps.append(more if more.size == n else _with_size(more, n))
        families.extend([tech.family] * (len(steps) - len(families)))
        # A contradiction (only possible from wrong pencil marks) ends the path: an empty cell
        # without candidates (before the batch there was none: the loop stops at the first).
        broken = _dead_cell(masks, values, counted)
    return Path(tuple(steps), 0 not in values, complete, tuple(families), stopped_at, floor)


def _dead_cell(masks: list[int], values: list[int], counted: bool) -> bool:
    """True when an empty cell has no candidate left. *counted*: every solved cell is known to
    have mask 0; then the masks that are 0 are the solved cells' and the dead cells', and two
    counts in C answer (a pass over the grid in Python costs ~5 us, on every step).

    >>> _dead_cell([0, 2, 0], [1, 0, 0], True), _dead_cell([0, 2, 4], [1, 0, 0], True)
    (True, False)
    """
    if counted:
        return masks.count(0) + values.count(0) > len(values)
    return 0 in map(or_, masks, values)


def _with_size(step: Step, n: int) -> Step:
    return step._replace(size=n)
