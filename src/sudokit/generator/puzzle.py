"""One puzzle: the attempts (fill, reduce, targets) and the loop that runs them until one
succeeds or the budget is spent; :func:`generate`."""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Literal, Unpack

from .. import _backend
from .._record import _Record
from ..errors import BudgetExceededError, SudokuError
from ..grid import Grid
from ..shape import Shape
from . import lowclue
from .difficulty import _toward_target
from .fill import _fill, start_solution
from .jigsaw import _empty_count, _solvable_map, random_jigsaw
from .options import GenerateOptions, OptionArgs, _Plan
from .patterns import _repair
from .reduce import _descend, _reduce, _removable_clue
from .ruled import build as _search_build
from .ruled import draw as _draw_rules
from .search import _Counter, _OutOfBudget, _Undecided, search_budget, shuffled
from .symmetry import orbits as _orbits
from .variants import attempt as _drawn_attempt
from .walked import build as _walk_build
from .walked import climb as _climb

__all__ = ["GeneratedPuzzle", "generate"]

log = logging.getLogger("sudokit.generator")


class GeneratedPuzzle(_Record):
    """A generated puzzle, its unique solution, and how it was made.

    ``seed`` regenerates it (with the same options and version) when it was generated from a
    seed (``None`` when a caller's ``rng`` was used). ``minimal`` is True when no single clue
    can be removed -- proven during generation, not assumed. ``searches`` counts the engine
    searches spent (a diagnostic, not part of equality). ``se`` is the puzzle's SE rating (as
    :func:`sudokit.rate` gives it) when a difficulty target made the generator compute it.
    """

    __slots__ = ("minimal", "puzzle", "se", "searches", "seed", "solution", "symmetry")
    __match_args__ = ("puzzle", "solution", "seed", "symmetry", "minimal", "searches", "se")
    _compared = ("puzzle", "solution", "seed", "symmetry", "minimal")  # diagnostics are not
    puzzle: Grid
    solution: Grid
    seed: int | None
    symmetry: str
    minimal: bool
    searches: int
    se: float | None

    def __init__(
        self,
        puzzle: Grid,
        solution: Grid,
        seed: int | None,
        symmetry: str,
        minimal: bool,
        searches: int = 0,
        se: float | None = None,
    ) -> None:
        self._set(puzzle, solution, seed, symmetry, minimal, searches, se)

    @property
    def clues(self) -> int:
        """How many clues the puzzle has."""
        return self.puzzle.clues

    @property
    def shape(self) -> Shape:
        """The shape of the puzzle (for a random jigsaw, its region map)."""
        return self.puzzle.shape


def _attempt(
    plan: _Plan, shape: Shape, rng: random.Random, counter: _Counter
) -> tuple[bytearray, bytes, bool] | None:
    """One try at a puzzle: ``(puzzle, solution, proven minimal)``, or None when it failed."""
    if lowclue.applies(shape, plan.symmetry, plan.mask, plan.target):
        assert plan.target is not None
        start = partial(_random_minimal, shape, rng, counter)
        sparse = lowclue.attempt(plan.target, rng, counter, start)
        return None if sparse is None else (sparse[0], sparse[1], True)
    guided = search_budget(shape) > 0
    if plan.mask is not None:
        cells = shuffled(plan.mask, rng)
        got = _fill(
            shape, [(i,) for i in cells], rng, counter, complete_orbits=False, guided=guided
        )
        if got is None:
            return None
        puzzle, found = got
        solution = found if found is not None else _repair(shape, puzzle, cells, rng, counter)
        if solution is None:
            return None
        for i in cells:
            puzzle[i] = solution[i]
        if plan.minimal and _removable_clue(puzzle, counter) is not None:
            return None
        return puzzle, solution, plan.minimal
    if not guided and (plan.target is None or plan.minimal):
        native = _native_attempt(shape, plan.symmetry, rng, counter, plan.target is not None)
        if native is not False:
            return None if native is None else _reduced(plan, *native, rng, counter)
    all_orbits = shuffled(_orbits(shape, plan.symmetry), rng)
    got = _fill(
        shape,
        all_orbits,
        rng,
        counter,
        complete_orbits=plan.symmetry != "none",
        guided=guided,
        start=start_solution(shape, rng) if guided else None,
    )
    if got is None or got[1] is None:
        return None
    puzzle, solution = got[0], got[1]
    present = shuffled([o for o in all_orbits if puzzle[o[0]]], rng)
    if guided and not plan.minimal:
        # Above 9x9 a non-minimal puzzle keeps the clues whose removal is not proven quickly.
        counter.guess_budget = shape.ncells // 2
    if plan.target is None or plan.minimal:
        decided = _reduce(puzzle, present, counter)
        return _reduced(plan, puzzle, solution, all_orbits, decided, rng, counter)
    lo, hi = plan.target
    goal = lo + rng.randrange(hi - lo + 1)
    decided = _reduce(puzzle, present, counter, floor=lo, stop=goal)
    clues = len(puzzle) - puzzle.count(0)
    if clues > hi and decided:
        clues = _descend(puzzle, solution, all_orbits, counter, rng, hi)
    if clues < goal:  # sparser than asked: give back clues of the solution
        empty = shuffled([o for o in all_orbits if not puzzle[o[0]]], rng)
        for orbit in empty:
            if clues >= goal:
                break
            if clues + len(orbit) <= hi:
                for i in orbit:
                    puzzle[i] = solution[i]
                clues += len(orbit)
        decided = False
    if not lo <= clues <= hi:
        counter.reached.append(clues)
        return None
    return puzzle, solution, decided and plan.symmetry == "none"


def _reduced(
    plan: _Plan,
    puzzle: bytearray,
    solution: bytes,
    all_orbits: Sequence[tuple[int, ...]],
    decided: bool,
    rng: random.Random,
    counter: _Counter,
) -> tuple[bytearray, bytes, bool] | None:
    """The end of an attempt without pattern or clue range (or a minimal one) after its
    removal pass: swap moves down to the clue target, the target and minimality checks."""
    clues = len(puzzle) - puzzle.count(0)
    if plan.target is not None and clues > plan.target[1] and decided:
        clues = _descend(puzzle, solution, all_orbits, counter, rng, plan.target[1])
    if plan.target is not None and not plan.target[0] <= clues <= plan.target[1]:
        counter.reached.append(clues)
        return None
    proven = decided and plan.symmetry == "none"
    if plan.minimal and not proven:
        if not decided or _removable_clue(puzzle, counter) is not None:
            return None
        proven = True
    return puzzle, solution, proven


def _native_attempt(
    shape: Shape, symmetry: str, rng: random.Random, counter: _Counter, orbits: bool = False
) -> tuple[bytearray, bytes, list[tuple[int, ...]], bool] | Literal[False] | None:
    """Phases 1 and 2 of an attempt (the orbits shuffled, filled, the removal pass) in one
    engine call (:meth:`~sudokit._backend.Engine.random_puzzle`, the same draws from *rng*
    and the same puzzle as the Python steps): ``(puzzle, solution, shuffled orbits,
    decided)`` (the orbits only with *orbits*, else an empty list), None when phase 1
    failed, False when the engine has no native attempt."""
    cells, ends = _orbit_cells(shape, symmetry)
    cap = counter.budget - counter.searches if counter.budget > 0 else None
    got = counter.engine.random_puzzle(
        shape, cells, ends, symmetry != "none", rng.random, counter.guess_budget, cap
    )
    if got is None:
        return False
    puzzle, solution, order, searches, decided, complete = got
    counter.searches += searches
    if not complete:
        raise _OutOfBudget
    if puzzle is None or solution is None:
        return None
    base = _orbits(shape, symmetry) if orbits else ()
    return bytearray(puzzle), solution, [base[k] for k in order] if orbits else [], decided


@lru_cache(maxsize=64)
def _orbit_cells(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The orbits of *symmetry* as the core takes them: their cells one after the other, and
    where each orbit ends."""
    cells: list[int] = []
    ends: list[int] = []
    for orbit in _orbits(shape, symmetry):
        cells.extend(orbit)
        ends.append(len(cells))
    return tuple(cells), tuple(ends)


def _random_minimal(
    shape: Shape, rng: random.Random, counter: _Counter
) -> tuple[bytearray, bytes] | None:
    """A random minimal puzzle and its solution (phases 1 and 2), or None; the start of
    :mod:`sudokit._lowclue`'s descents."""
    native = _native_attempt(shape, "none", rng, counter)
    if native is not False:
        return None if native is None or not native[3] else (native[0], native[1])
    orbits = shuffled(_orbits(shape, "none"), rng)
    got = _fill(shape, orbits, rng, counter, complete_orbits=False)
    if got is None or got[1] is None:
        return None
    puzzle, solution = got[0], got[1]
    if not _reduce(puzzle, shuffled([o for o in orbits if puzzle[o[0]]], rng), counter):
        return None
    return puzzle, solution


def _run(plan: _Plan, seed: int | None, rng: random.Random) -> GeneratedPuzzle:
    engine = _backend.get_engine(plan.backend)
    shape = plan.shape
    counter = _Counter(engine, shape, plan.budget, search_budget(shape), plan.ratings)
    attempts = 0
    try:
        while True:
            if plan.random_jigsaw:
                shape = random_jigsaw(
                    shape.n, rng, symmetry=plan.symmetry, diagonals=shape.diagonals
                ).with_constraints(plan.shape.constraints)
                counter.use(shape)
                if not _solvable_map(shape, counter):
                    continue
            elif attempts == 0 and (shape.constraints is not None or shape.windoku):
                # rules: only a proof of no solution stops (some rules slow the first search)
                if _empty_count(shape, counter) == 0:
                    raise SudokuError(
                        f"no {shape.n}x{shape.n} grid keeps the rules of this {shape.variant} "
                        "puzzle"
                    )
            elif attempts == 0 and shape.regions is not None and not _solvable_map(shape, counter):
                raise SudokuError("the region map admits no solution (or none was found quickly)")
            attempts += 1
            counter.guess_budget = search_budget(shape)
            se = None
            if plan.drawn is not None:
                if not plan.drawn.kinds:
                    drawn = _drawn_attempt(plan.drawn, plan.symmetry, shape, rng, counter)
                elif (draft := _draw_rules(plan.drawn, shape, rng, counter)) is None:
                    drawn = None
                elif plan.drawn.human:
                    drawn = _walk_build(draft, plan.symmetry, shape, rng, counter)
                else:
                    drawn = _search_build(draft, plan.symmetry, shape, rng, counter)
                if drawn is None:
                    continue
                puzzle, solution, made, proven = drawn  # made: the shape with its rules
            else:
                try:
                    got = _attempt(plan, shape, rng, counter)
                except _Undecided:
                    got = None
                if got is None:
                    continue
                puzzle, solution, proven = got
                made = shape
            if plan.human and _climb(puzzle, solution, made, plan.symmetry, rng):
                proven = False  # givens added: unique, but not minimal
            if plan.goal is not None:
                found = (puzzle, solution, proven)
                climbed = _toward_target(plan, plan.goal, found, made, rng, counter)
                if climbed is None:
                    continue
                puzzle, proven, se = climbed
            log.debug(
                "generated after %d attempts, %d searches, %d ratings",
                attempts,
                counter.searches,
                counter.walks,
            )
            return GeneratedPuzzle(
                Grid(bytes(puzzle), made),
                Grid(solution, made),
                seed,
                plan.symmetry,
                proven,
                counter.searches,
                se,
            )
    except _OutOfBudget:
        raise BudgetExceededError(
            _budget_message(plan, attempts, counter.reached, counter.levels, counter.walks)
        ) from None


def _budget_message(
    plan: _Plan, attempts: int, reached: list[int], levels: dict[str, int], walks: int = 0
) -> str:
    n = plan.shape.n
    wanted = []
    advice = []
    if plan.mask is not None:
        wanted.append(f"a unique filling of its {len(plan.mask)}-clue pattern")
        advice.append("use a pattern with more clues")
    if plan.target is not None:
        lo, hi = plan.target
        wanted.append(f"{lo}-{hi} clues" if lo != hi else f"{lo} clues")
        advice.append("widen the clue range")
    if plan.minimal and (plan.goal is None or plan.minimal_required):
        wanted.append("no removable clue (minimal)")
        advice.append("drop the minimality requirement")
    if plan.symmetry != "none":
        wanted.append(f"{plan.symmetry} symmetry")
    if plan.goal is not None:
        wanted.append(f"difficulty {plan.goal.label}")
        advice.append("widen the rating window")
    what = ", ".join(wanted) or "a unique solution"
    seen = f", which ended with {min(reached)}-{max(reached)} clues" if reached else ""
    if levels:
        seen += ", rated " + ", ".join(f"{k} {v}" for k, v in sorted(levels.items()))
    spent = f"{plan.budget} searches"
    if plan.goal is not None:
        spent = f"{plan.ratings} rating walks or {spent}"
    note = ""
    if plan.minimal and plan.symmetry != "none":
        note = " (puzzles both symmetric and minimal are rare)"
    return (
        f"could not generate a {n}x{n} puzzle with {what} within the budget of {spent} "
        f"({attempts} attempts{seen}){note}; {', '.join([*advice, 'or raise the budget'])}"
    )


def _options(
    size: int | None, options: GenerateOptions | None, kwargs: OptionArgs
) -> GenerateOptions:
    """*options*, or the options that *size* and *kwargs* give; refuses both at once."""
    if options is None:
        return GenerateOptions(size, **kwargs)
    if size is not None or kwargs:
        given = ", ".join([*(["size"] if size is not None else []), *kwargs])
        raise SudokuError(f"pass either options= or the options themselves, not both ({given})")
    return options


def generate(
    size: int | None = None,
    *,
    options: GenerateOptions | None = None,
    seed: int | None = None,
    rng: random.Random | None = None,
    **kwargs: Unpack[OptionArgs],
) -> GeneratedPuzzle:
    """Generate one puzzle with exactly one solution.

    :param size: and the other keywords (*shape*, *symmetry*, *clues*, *minimal*, *pattern*,
        *jigsaw*, *diagonals*, *difficulty*, *rating*, *require*, *budget*, *ratings*,
        *backend*): the options, as :class:`GenerateOptions` takes them; or pass
        *options*, a :class:`GenerateOptions` built once.
    :param seed: makes the puzzle reproducible; drawn from the OS when omitted (and
        recorded in the result). *rng* instead hands in a generator to draw from.
    :raises SudokuError: for options that cannot go together (a symmetry the shape lacks, a
        clue range below what any unique puzzle has, a pattern with a symmetry, ...).
    :raises BudgetExceededError: when the targets were not met within the budget.

    >>> from sudokit.generator import is_symmetric
    >>> p = generate(size=6, symmetry="rot180", seed=11)
    >>> p.puzzle.shape, p.solution.is_solution(p.puzzle), is_symmetric(p.puzzle, "rot180")
    (Shape(2, 3), True, True)
    >>> try:
    ...     generate(size=6, symmetry="rot90")
    ... except SudokuError as exc:
    ...     print(str(exc).replace("; ", "\\n"))
    symmetry 'rot90' does not fit a 6x6 grid with 2x3 boxes (it does not map units onto units)
    symmetries that fit: none, rot180, mirror-tb, mirror-lr
    >>> from sudokit import rate
    >>> p = generate(seed=5, difficulty="hard", require="XY-Wing")
    >>> 4.0 <= p.se <= 6.0, rate(p.puzzle).se == p.se, "XY-Wing" in rate(p.puzzle).techniques
    (True, True, True)
    >>> try:
    ...     generate(rating=(12.0, 13.0))
    ... except SudokuError as exc:
    ...     print(str(exc).split(" (")[0])
    no puzzle rates above 11.0
    """
    plan = _options(size, options, kwargs).plan
    if rng is None:
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        rng = random.Random(seed)
    return _run(plan, seed, rng)
