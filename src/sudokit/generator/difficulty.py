"""Difficulty targets: an SE window and required techniques, judged by walking the rated
path only as far as the window needs, and climbing toward the window by adding clues."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .._record import _Record
from ..errors import SudokuError, quote
from ..grid import Grid
from ..shape import Shape
from .search import _Counter
from .symmetry import orbit_index

if TYPE_CHECKING:
    from ..logic.registry import Technique
    from .options import _Plan


class _Target(_Record):
    """A validated difficulty target (picklable): the SE window and the required techniques.

    ``require`` holds, for each requirement, the technique names that satisfy it (one name for
    a technique, every SE technique of a family for a family). ``cap`` is the highest base
    rating the judging walk uses (see :func:`_judge`).
    """

    __slots__ = ("cap", "hi", "label", "lo", "require")
    __match_args__ = ("label", "lo", "hi", "require", "cap")
    label: str
    lo: float
    hi: float
    require: tuple[tuple[str, ...], ...]
    cap: float

    def __init__(
        self,
        label: str,
        lo: float,
        hi: float,
        require: tuple[tuple[str, ...], ...] = (),
        cap: float = 0.0,
    ) -> None:
        self._set(label, lo, hi, require, cap)


#: Rating walks one puzzle may spend when its window ends at or below :data:`_DETERMINISTIC`.
_RATINGS = 1000
#: ... and when it reaches above (those walks run the expensive forcing chains).
_RATINGS_SLOW = 300
#: Windows ending at or below this SE rating are judged without any time budget (so the result
#: depends only on the seed); above it each walk gets :data:`_WALK_SECONDS`.
_DETERMINISTIC = 7.5
_WALK_SECONDS = 10.0
#: Clues one stuck candidate may get added while it is walked toward the window.
_CLIMB_MOVES = 4


def _technique_table() -> tuple[dict[str, tuple[str, float, bool]], dict[str, list[str]]]:
    """``({lower name: (name, base rating, se)}, {family: [SE technique names]})``."""
    from ..logic.registry import TECHNIQUES

    names = {t.name.lower(): (t.name, t.rating, t.se) for t in TECHNIQUES}
    families: dict[str, list[str]] = {}
    for t in TECHNIQUES:
        if t.se:
            families.setdefault(t.family, []).append(t.name)
    return names, families


def _word_end(rest: str) -> bool:
    """True when *rest* (what follows a prefix) starts at a word end, allowing a plural s."""
    if rest[:1] == "s":
        rest = rest[1:]
    return not rest[:1].isalnum()


def _requirement(wanted: str) -> tuple[tuple[str, ...], float, float]:
    """``(technique names, lowest base rating, highest base rating)`` of one ``require`` entry:
    a technique of the registry, a family, or the first words of technique names ("Hidden
    Single", "Forcing Chain", "Unique Rectangle"), all case-insensitive."""
    names, families = _technique_table()
    key = " ".join(wanted.split()).lower()
    prefixed = [
        name
        for low, (name, _, se) in names.items()
        if se and low.startswith(key) and _word_end(low[len(key) :])
    ]
    if key not in names and key not in families and prefixed:
        bases = [names[m.lower()][1] for m in prefixed]
        return tuple(prefixed), min(bases), max(bases)
    if key in names:
        name, base, se = names[key]
        if not se:
            raise SudokuError(
                f"{quote(name)} is not one of Sudoku Explainer's techniques, so it never appears "
                f"on the rated path; require an SE technique or a family "
                f"({', '.join(families)})"
            )
        return (name,), base, base
    if key in families:
        members = families[key]
        bases = [names[m.lower()][1] for m in members]
        return tuple(members), min(bases), max(bases)
    raise SudokuError(
        f"unknown technique {quote(wanted)}: expected a technique of the rating (such as "
        f"'X-Wing', 'XY-Wing', 'Naked Pair') or a family ({', '.join(families)})"
    )


def _target(
    difficulty: str | tuple[float, float] | None,
    rating: tuple[float, float] | None,
    require: str | Sequence[str] | None,
) -> _Target | None:
    """The SE window a level name, an ``(lo, hi)`` range and required techniques allow."""
    from ..rating import LEVELS, SEARCH_RATING

    if difficulty is None and rating is None and not require:
        return None
    lo, hi = 0.0, SEARCH_RATING
    labels: list[str] = []
    windows: list[tuple[float, float]] = []
    if isinstance(difficulty, str):
        below = 0.0
        for name, bound in LEVELS:
            if name == difficulty.strip().lower():
                windows.append((below, min(bound, SEARCH_RATING)))
                labels.append(name)
                break
            below = bound + 1e-9
        else:
            known = ", ".join(name for name, _ in LEVELS)
            raise SudokuError(f"unknown difficulty {quote(difficulty)}, expected one of {known}")
    elif difficulty is not None:
        rating = _intersect_rating(rating, difficulty)
    if rating is not None:
        a, b = float(rating[0]), float(rating[1])
        if not 0 <= a <= b:
            raise SudokuError(f"rating range {a}-{b} is empty or negative")
        if a > SEARCH_RATING:
            raise SudokuError(
                f"no puzzle rates above {SEARCH_RATING} (the rating of a step proven by search, "
                f"the last resort of every path); asked for {a}-{b}"
            )
        windows.append((a, b))
        labels.append(f"SE {a}-{b}")
    for a, b in windows:
        lo, hi = max(lo, a), min(hi, b)
    if lo > hi:
        raise SudokuError(f"the difficulty {' and '.join(labels)} do not overlap")
    if hi < 1.0:
        raise SudokuError(f"every step rates at least 1.0; asked for at most {hi}")
    needs: list[tuple[str, ...]] = []
    wanted = [require] if isinstance(require, str) else list(require or ())
    cap = hi if windows else 0.0
    for w in wanted:
        names, least, most = _requirement(w)
        if least > hi:
            raise SudokuError(
                f"{quote(w)} rates at least {least}, above the wanted difficulty "
                f"{' and '.join(labels)}"
            )
        needs.append(names)
        labels.append(f"needing {w}")
        if not windows:
            cap = max(cap, most)
    return _Target(", ".join(labels), lo, hi, tuple(needs), cap)


def _intersect_rating(
    rating: tuple[float, float] | None, other: tuple[float, float]
) -> tuple[float, float]:
    if rating is None:
        return other
    return max(rating[0], other[0]), min(rating[1], other[1])


@lru_cache(maxsize=32)
def _walk_techniques(cap: float, variant: bool = False) -> tuple[Technique, ...]:
    """The techniques of the rating of base rating up to *cap*, easiest first, each relabelled
    with its own name as its family: the walk is unchanged, and ``Path.families`` then names
    the technique behind every step (step names such as "Forcing Chain" differ from them).

    The rating's own list (:func:`sudokit.rating.rating_techniques`): SE's techniques, plus
    the variant and killer ones for a *variant* shape (the variant scale)."""
    from ..rating import rating_techniques

    probe = Shape(2, 2, windoku=True) if variant else Shape(2, 2)  # only its kind matters
    return tuple(
        t._replace(family=t.name) for t in rating_techniques(probe) if t.rating <= cap + 1e-9
    )


@dataclass(slots=True)
class _Verdict:
    """How a candidate compares with the target: ``fits``; ``easy`` (rated below the window
    or missing a required technique with a path that ends solved); otherwise too hard, with
    ``stuck`` the empty cells where the walk ended. ``se`` is the exact SE rating when known."""

    fits: bool
    easy: bool
    se: float | None
    stuck: list[int]


def _judge(target: _Target, cells: bytes, shape: Shape) -> _Verdict:
    """Compare the unique puzzle *cells* with *target*, walking the rated path only as far as
    the target needs.

    The rated path (:func:`sudokit.rate`) tries the SE techniques easiest first, and the first
    that finds a step supplies it. Walking with only the techniques of base rating up to the
    window's top ``hi`` therefore takes exactly the same steps for as long as one of them
    applies. If that walk solves the puzzle, its hardest step *is* the puzzle's rating; if it
    gets stuck, or takes a step above ``hi``, the rating is above ``hi``. So the verdict is
    exact, and the forcing chains beyond the window -- most of the rating time of hard
    puzzles -- are never run. When the window reaches the search step's rating (11.0), a
    walk stuck with every SE technique means exactly that rating.
    """
    from ..logic.candidates import CandidateGrid
    from ..logic.path import solve_path
    from ..rating import SEARCH_RATING

    cg = CandidateGrid.from_grid(Grid(cells, shape))
    seconds = 0.0 if target.cap <= _DETERMINISTIC else _WALK_SECONDS
    variant = shape.constraints is not None or shape.windoku
    walk = _walk_techniques(target.cap, variant)
    path = solve_path(cg, walk, unique=True, budget_s=seconds)
    se: float | None = round(path.rating, 1)
    if not path.solved:
        all_se = walk == _walk_techniques(SEARCH_RATING, variant)
        se = SEARCH_RATING if path.complete and all_se else None
    used = set(path.families)  # technique names (see _walk_techniques)
    has_all = all(used.intersection(names) for names in target.require)
    if path.solved or se is not None:
        assert se is not None
        # A level's lower end sits just above the level below (2.3 + 1e-9 for medium).
        fits = target.lo <= se <= target.hi + 1e-9 and has_all
        easy = se < target.lo or (not has_all and se <= target.hi + 1e-9)
        stuck = [] if fits or easy else [i for i, v in enumerate(cells) if not v]
        return _Verdict(fits, easy, se, stuck)
    if not path.complete:
        return _Verdict(False, False, None, [])  # out of time: not worth climbing
    # Stuck above the window; with only requirements (no window) that is fine when they are met.
    stuck = [i for i, v in enumerate(cg.values) if not v]
    return _Verdict(has_all and target.hi >= SEARCH_RATING, False, None, stuck)


def _toward_target(
    plan: _Plan,
    target: _Target,
    found: tuple[bytearray, bytes, bool],
    shape: Shape,
    rng: random.Random,
    counter: _Counter,
) -> tuple[bytearray, bool, float | None] | None:
    """Judge a candidate and climb toward the window: ``(puzzle, still minimal, se)`` or None.

    A candidate rated too hard is stuck somewhere on its path. Adding one clue of the solution
    (an orbit, under a symmetry) among the cells still empty there makes the path go on; the
    new puzzle is judged again. A move that lands below the window is undone and another
    cell tried; one that stays too hard is kept and climbed on, up to :data:`_CLIMB_MOVES`
    times. Clues are only ever added, so the puzzle stays unique (no search needed), but it
    is no longer minimal. Candidates rated too easy are dropped: removing clues from a
    minimal puzzle is impossible, and swap moves cost more than a fresh candidate.
    """
    puzzle, solution, proven = found
    verdict = _judge(target, bytes(puzzle), shape)
    counter.rated(verdict.se)
    if verdict.fits:
        return puzzle, proven, verdict.se
    climb = not plan.minimal_required and plan.mask is None
    if verdict.easy or not verdict.stuck or not climb:
        return None
    orbit_of = orbit_index(shape, plan.symmetry)
    most = plan.target[1] if plan.target is not None else shape.ncells
    clues = len(puzzle) - puzzle.count(0)
    tried: set[int] = set()
    stuck = verdict.stuck
    for _ in range(_CLIMB_MOVES):
        options = [i for i in stuck if i not in tried]
        if not options:
            return None
        cell = options[int(rng.random() * len(options))]
        orbit = [i for i in orbit_of[cell] if not puzzle[i]]
        tried.update(orbit)
        if clues + len(orbit) > most:
            return None
        trial = bytearray(puzzle)
        for i in orbit:
            trial[i] = solution[i]
        verdict = _judge(target, bytes(trial), shape)
        counter.rated(verdict.se)
        if verdict.fits:
            return trial, False, verdict.se
        if verdict.easy or not verdict.stuck:
            continue
        puzzle, clues, stuck = trial, clues + len(orbit), verdict.stuck
        tried.clear()
    return None
