"""Difficulty from the human-style solving path: hints, explanations and ratings (layer 5).

* :func:`rate` walks the easiest-first path (Sudoku Explainer 1.2.1 semantics) with SE's own
  techniques and returns a :class:`Rating`: the SE-comparable number (the hardest step on the
  path), a summed score, a level and the techniques used.
* :func:`hint` gives the easiest next step; :func:`explain` the full path. They use every
  registered technique (also the well-known ones SE lacks, which make better hints).

The solver is used only to prove uniqueness (which enables the uniqueness techniques) and, for
:func:`hint` and :func:`explain` only, for the last-resort step: "Proof by Search", an
elimination proven by the backtracking search (the puzzle has one solution, so every candidate
other than the solution's digit is in no solution). It is taken when no human technique applies
or when the time budget ran out in SE's nested forcing chains, so every unique puzzle gets a
complete path. It is *not* an SE technique: its value :data:`SEARCH_RATING` (11.0) is a
placeholder that sorts it last, its text says so, and :func:`rate` never uses it.

Time budget and lower bounds: :func:`rate` walks SE's rules up to the nested forcing chains
(levels 2-5, 9.5 to 11.0; seconds to minutes per step in pure Python) within ``budget_s``
seconds (default :data:`RATE_BUDGET_S` = 60 s, measured from the start of the path, checked
inside the chain searches too). When the budget runs out, or no rule applies (even nested
level 5 failed: SE would go on to deeper nesting), the rating is an honest lower bound:
``Rating.lower_bound`` is True, ``complete`` False, and ``se`` is the higher of the hardest step
applied and the base rating of the rule that was being searched (every easier rule had failed,
so SE's next step is rated at least that). ``stopped_at`` names that rule.

Levels (cut-offs on the SE-comparable number ``se``):

========  ==================  =====================================================
level     se                  what it takes
========  ==================  =====================================================
easy      se <= 2.3           singles only (full house, hidden and naked singles)
medium    2.3 < se < 4.0      intersections, pairs, triples, X-Wing, Swordfish
hard      4.0 <= se <= 6.0    wings, uniqueness, quads, Jellyfish, BUG
expert    6.0 < se <= 7.5     exclusion, X/Y cycles, forcing X/Y chains, Nishio
extreme   se > 7.5            forcing chains (multiple, dynamic, nested) and beyond
========  ==================  =====================================================

Variants (the variant scale): a puzzle whose shape has constraints (killer cages, anti-knight,
dots, thermometers, ...) or windoku windows (:func:`is_variant`) is rated on the same number
line with the same level cut-offs, walking SE's own techniques plus the killer and variant
techniques (:func:`rating_techniques`; values in :mod:`sudokit.logic.killer`,
:mod:`sudokit.logic.variants` and :mod:`sudokit.logic.rulesteps`: Parity 1.0, Thermometer
1.3, Cage Combination 1.4 / 2.1, Rule Sum 1.5, Neighbour Rule 1.6, Rule of 45 1.8+ (one cell)
/ 2.7+ (a sum), Rule Group 2.0, Rule Sum Fillings 2.2, Cage Pointing 2.4, Hidden Cage 2.5+,
Outside Clue 2.6, Cage Claiming 2.9, Cage Clash 3.0). ``Rating.scale`` is then ``"variant"``
(and the JSON says ``"scale": "variant"``); classic ratings are unchanged. The uniqueness
techniques are off on variants (see :mod:`sudokit.logic.registry`), and the chains read only
units and peers, so a variant that needs a cage or a dot inside a chain is rated by the chains
that can do without them, or as a lower bound. How the values were placed and checked: README
"Variant ratings".

The *score* is the sum over the path of ``round(10 * rating)`` of every step: a rough "total
work" number that grows with both the length and the difficulty of the path.

>>> from sudokit.grid import Grid
>>> r = rate(Grid.parse(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."))
>>> r.se, r.level
(1.2, 'easy')
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator, Mapping

from ._record import FrozenMap, _Record
from .errors import (
    AlreadySolvedError,
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
)
from .grid import Grid, PuzzleLike, as_grid
from .logic._names import Labels, cell_list, digit_labels, digit_name
from .logic.candidates import CandidateGrid
from .logic.chains import chain_budget
from .logic.forcing import NESTED_FLOOR
from .logic.path import (
    Path,
    StepBudgetExceededError,
    default_techniques,
    find_step,
    solve_path,
)
from .logic.registry import TECHNIQUES, VARIANT_FAMILIES, Technique
from .logic.step import Step
from .logic.walkthrough import walkthrough
from .shape import Shape
from .solver import Status, solve

log = logging.getLogger(__name__)

__all__ = [
    "LEVELS",
    "RATE_BUDGET_S",
    "SEARCH_RATING",
    "Labels",
    "Rating",
    "explain",
    "hint",
    "is_variant",
    "level_of",
    "mistake",
    "next_step",
    "rate",
    "rating_techniques",
    "solve_logically",
]

#: Placeholder value of the last-resort "Proof by Search" step (not an SE rating; it sorts the
#: step after SE's nested forcing chains). :func:`rate` never reports it.
SEARCH_RATING = 11.0

#: Default time budget of :func:`rate`, :func:`explain` and :func:`hint`, in seconds.
RATE_BUDGET_S = 60.0

#: ``(level, upper bound on se)``, easiest first; the last level has no bound.
LEVELS: tuple[tuple[str, float], ...] = (
    ("easy", 2.3),
    ("medium", 3.95),
    ("hard", 6.0),
    ("expert", 7.5),
    ("extreme", float("inf")),
)


def level_of(se: float) -> str:
    """The level name of an SE-comparable rating.

    >>> level_of(1.5), level_of(3.4), level_of(4.2), level_of(6.6), level_of(9.0)
    ('easy', 'medium', 'hard', 'expert', 'extreme')
    """
    for name, bound in LEVELS:
        if se <= bound + 1e-9:
            return name
    return LEVELS[-1][0]


class Rating(_Record):
    """The difficulty of a puzzle.

    ``se`` is the SE 1.2.1-comparable rating (hardest step on the easiest-first path);
    ``score`` the summed work; ``level`` one of easy / medium / hard / expert / extreme;
    ``techniques`` counts the steps of each technique on the path; ``complete`` is False and
    ``lower_bound`` True when the path did not end solved (the budget ran out, or no rule
    applied): ``se`` is then a lower bound (see the module notes), ``stopped_at`` names the
    rule being searched when time ran out and ``budget_s`` is the budget; ``steps`` is the
    path length (of the partial path for a lower bound);
    ``cells`` counts the cells each technique filled; ``families`` counts the steps of each
    technique family (singles, intersections, subsets, fish, wings, uniqueness, exclusion,
    chains, forcing, search). The three counts are read-only mappings (:class:`FrozenMap`,
    equal to dicts of the same items); ``dict(r.techniques)`` is a plain copy.
    """

    __slots__ = (
        "budget_s",
        "cells",
        "complete",
        "families",
        "level",
        "lower_bound",
        "scale",
        "score",
        "se",
        "steps",
        "stopped_at",
        "techniques",
    )
    __match_args__ = (
        "se",
        "score",
        "level",
        "techniques",
        "complete",
        "steps",
        "cells",
        "families",
        "lower_bound",
        "stopped_at",
        "budget_s",
        "scale",
    )
    se: float
    score: int
    level: str
    techniques: FrozenMap[str, int]
    complete: bool
    steps: int
    cells: FrozenMap[str, int]
    families: FrozenMap[str, int]
    lower_bound: bool
    stopped_at: str
    budget_s: float
    scale: str

    def __init__(
        self,
        se: float,
        score: int,
        level: str,
        techniques: Mapping[str, int] = FrozenMap(),
        complete: bool = True,
        steps: int = 0,
        cells: Mapping[str, int] = FrozenMap(),
        families: Mapping[str, int] = FrozenMap(),
        lower_bound: bool = False,
        stopped_at: str = "",
        budget_s: float = 0.0,
        scale: str = "se",
    ) -> None:
        self._set(
            se,
            score,
            level,
            FrozenMap(techniques),
            complete,
            steps,
            FrozenMap(cells),
            FrozenMap(families),
            lower_bound,
            stopped_at,
            budget_s,
            scale,
        )

    @property
    def se_text(self) -> str:
        """``se`` with one decimal, prefixed with ``>=`` for a lower bound.

        >>> Rating(10.5, 900, "extreme", complete=False, lower_bound=True).se_text
        '>=10.5'
        """
        return f">={self.se:.1f}" if self.lower_bound else f"{self.se:.1f}"

    def to_json(self, puzzle: Grid | str | None = None) -> dict[str, object]:
        """The JSON shape ``{"puzzle", "rating", "level", "score", "techniques"}``; a lower
        bound adds ``"complete": false, "lower_bound": true, "budget_s"`` and ``"stopped_at"``
        (the rule being searched when the budget ran out, "" when no rule applied).

        >>> r = Rating(9.5, 800, "extreme", complete=False, lower_bound=True, budget_s=60.0)
        >>> r.to_json()["lower_bound"], r.to_json()["rating"]
        (True, 9.5)
        """
        out: dict[str, object] = {}
        if puzzle is not None:
            out["puzzle"] = str(puzzle)
        out.update(
            rating=self.se,
            level=self.level,
            score=self.score,
            techniques=dict(self.techniques),
        )
        if not self.complete:
            out["complete"] = False
        if self.lower_bound:
            out.update(lower_bound=True, budget_s=self.budget_s, stopped_at=self.stopped_at)
        if self.scale != "se":
            out["scale"] = self.scale
        return out


# -- the search fallback ------------------------------------------------------------------------


def _search_technique(solution: Grid) -> Technique:
    """A finder that eliminates the wrong candidates of one cell, proven by search."""
    sol = solution.cells

    def finder(cg: CandidateGrid) -> Iterator[Step]:
        shape = cg.shape
        masks = cg.masks
        best = -1
        for c, m in enumerate(masks):
            smaller = best < 0 or m.bit_count() < masks[best].bit_count()
            if m and smaller and m >> (sol[c] - 1) & 1 and m.bit_count() > 1:
                best = c
        if best < 0:
            return
        d = sol[best]
        elims = tuple((best, x) for x in cg.digits(best) if x != d)
        name = shape.cell_name(best)
        dn = digit_name(shape, d)
        yield Step(
            "Proof by Search",
            SEARCH_RATING,
            eliminations=elims,
            text=(
                f"Proof by search, not a human technique (and not rated on the Sudoku "
                f"Explainer scale): no technique of this program found a step here in the "
                f"time given. A complete search proves "
                f"the puzzle has exactly one solution, in which {name} is {dn}; so the other "
                f"candidates of {name} lead to no solution and are removed "
                f"({', '.join(digit_name(shape, x) for _, x in elims)})."
            ),
            cells=(best,),
            highlights=((best, d),),
            size=shape.n,
        )

    return Technique("Proof by Search", "search", SEARCH_RATING, finder, se=False)


# -- helpers ------------------------------------------------------------------------------------


def _to_candidates(puzzle: object) -> tuple[CandidateGrid, Grid]:
    """A working candidate grid and the grid of placed values from a puzzle
    (:func:`~sudokit.grid.as_grid`: a Grid, text, rows, an array), a
    :class:`~sudokit.marks.Candidates` or a CandidateGrid."""
    if isinstance(puzzle, CandidateGrid):
        return puzzle.copy(), puzzle.to_grid()
    masks = getattr(puzzle, "masks", None)
    values = getattr(puzzle, "values", None)
    shape = getattr(puzzle, "shape", None)
    if masks is None or values is None or not isinstance(shape, Shape):
        grid = as_grid(puzzle)
        return CandidateGrid.from_grid(grid), grid
    cg = CandidateGrid.from_masks(shape, list(values), list(masks))
    # Drop marks that a placed peer already rules out (the basic rule every solver applies).
    base = CandidateGrid.from_grid(cg.to_grid())
    cg.masks = [a & b for a, b in zip(cg.masks, base.masks, strict=True)]
    return cg, cg.to_grid()


def _solution(grid: Grid) -> Grid | None:
    """The unique solution, None when there are several; raises for none / invalid."""
    result = solve(grid, limit=2)
    status = result.status
    if status is Status.UNIQUE:
        return result.solution
    # A grid with conflicting givens has no solution, so the solver never says unique or
    # multiple for one: only the other answers need the (slower) look at the givens.
    if status is not Status.MULTIPLE:
        conflicts = grid.conflicts()
        if conflicts:
            raise InvalidPuzzleError(
                f"conflicting givens in {cell_list(grid.shape, conflicts[0].cells)}"
            )
    if status is Status.NONE:
        raise NoSolutionError(f"the puzzle {str(grid)[:40]!r} has no solution")
    return None


def mistake(player: object, solution: Grid, *, labels: Labels = "symbols") -> Step | None:
    """The "Mistake" step of a player's grid, or None: the first cell whose placed digit is not
    the one of *solution* (the solution of the puzzle the player started from), or whose pencil
    marks no longer include it. *player* is a Grid, puzzle text, the player's
    :class:`~sudokit.marks.Candidates` or a CandidateGrid.

    This is the one place the step is made: :func:`hint` answers with it, and the web app calls
    it with the original puzzle's solution (a grid holding a wrong digit has no solution of its
    own to compare with). *labels* names digits as in :func:`hint`.

    >>> from sudokit.grid import Grid
    >>> step = mistake(Grid.parse("12.." "34.." "...." "...1"), Grid.parse("1243342121344312"))
    >>> step.technique, step.text
    ('Mistake', 'r4c4 holds 1, but that leads to no solution.')
    """
    cg, _ = _to_candidates(player)
    with digit_labels(labels):
        return _mistake(cg, solution)


def _mistake(cg: CandidateGrid, solution: Grid) -> Step | None:
    shape = cg.shape
    # Placed digits first: a wrong one also removes candidates from its peers.
    for c, (v, d) in enumerate(zip(cg.values, solution.cells, strict=True)):
        if v and v != d:
            return Step(
                "Mistake",
                0.0,
                text=(
                    f"{shape.cell_name(c)} holds {digit_name(shape, v)}, "
                    "but that leads to no solution."
                ),
                cells=(c,),
                size=shape.n,
            )
    for c, (v, d) in enumerate(zip(cg.values, solution.cells, strict=True)):
        if not v and not cg.masks[c] >> (d - 1) & 1:
            return Step(
                "Mistake",
                0.0,
                text=(
                    f"The candidates of {shape.cell_name(c)} no longer include the digit that "
                    f"belongs there: a candidate was removed by mistake."
                ),
                cells=(c,),
                size=shape.n,
            )
    return None


def is_variant(shape: Shape) -> bool:
    """True when *shape* has rules beyond units that Sudoku Explainer knows (constraints or
    windoku windows): such puzzles are rated on the variant scale (see the module notes).

    >>> from sudokit.constraints import Constraints
    >>> is_variant(Shape(3, 3, diagonals=True)), is_variant(Shape(3, 3, windoku=True))
    (False, True)
    """
    return shape.constraints is not None or shape.windoku


def rating_techniques(shape: Shape, *, se_only: bool = True) -> list[Technique]:
    """The techniques a rating of a puzzle on *shape* uses, easiest first: SE 1.2.1's own ones
    (every registered one when not *se_only*), plus the variant and killer techniques when
    *shape* :func:`is_variant`."""
    if not is_variant(shape):
        return default_techniques(se_only=se_only)
    return [t for t in TECHNIQUES if t.se or not se_only or t.family in VARIANT_FAMILIES]


def _techniques(solution: Grid | None, se_only: bool, shape: Shape) -> list[Technique]:
    techs = rating_techniques(shape, se_only=se_only)
    if shape.constraints is None:  # the variant rules read only the constraints: none here
        techs = [t for t in techs if t.family not in VARIANT_FAMILIES]
    if solution is not None:
        techs.append(_search_technique(solution))
    return techs


def _fallback(techs: list[Technique]) -> list[Technique]:
    """*techs* without SE's slow nested forcing chains (what is left once the budget is spent;
    the search step, if present, then takes their place)."""
    return [t for t in techs if t.rating < NESTED_FLOOR or t.family == "search"]


# -- public API ---------------------------------------------------------------------------------


def solve_logically(
    puzzle: object, *, se_only: bool = False, budget_s: float = RATE_BUDGET_S
) -> tuple[Path, Grid | None]:
    """The full easiest-first path from *puzzle* (Grid, text or candidates) and the unique
    solution (None when the puzzle has several solutions; the path may then end unsolved).

    When *budget_s* runs out, the path goes on without the nested forcing chains, with
    "Proof by Search" as the last resort (for a unique puzzle), so it still ends solved;
    ``stopped_at`` / ``floor`` of the returned path tell where the budget ran out.

    :raises ~sudokit.errors.NoSolutionError: when the puzzle has no solution.
    :raises ~sudokit.errors.InvalidPuzzleError: for conflicting givens.
    """
    cg, grid = _to_candidates(puzzle)
    return _solve_logically(cg, grid, se_only, budget_s)


def _solve_logically(
    cg: CandidateGrid, grid: Grid, se_only: bool, budget_s: float
) -> tuple[Path, Grid | None]:
    """:func:`solve_logically` from the working grid *cg* (walked in place) of *grid*."""
    solution = _solution(grid)
    techs = _techniques(solution, se_only, grid.shape)
    unique = solution is not None
    path = solve_path(cg, techs, unique=unique, budget_s=budget_s)
    if path.complete or solution is None:
        return path, solution
    rest = solve_path(cg, _fallback(techs), unique=unique)
    joined = Path(
        path.steps + rest.steps,
        rest.solved,
        rest.complete,
        path.families + rest.families,
        path.stopped_at,
        path.floor,
    )
    return joined, solution


def hint(
    puzzle: object,
    *,
    se_only: bool = False,
    budget_s: float = RATE_BUDGET_S,
    labels: Labels = "symbols",
) -> Step | None:
    """The easiest next step for *puzzle*: a Grid, puzzle text, or a user's pencil marks
    (:class:`sudokit.marks.Candidates`). None when the grid is already solved.

    When the marks or values contradict the unique solution the step is a "Mistake" that
    points at the first such cell.

    When the nested forcing chains do not finish within *budget_s* seconds the hint is the
    "Proof by Search" step.

    *labels* says how the step's text names digits: ``"symbols"`` as the grid's line format
    writes them (``B`` for 11 on 16x16), ``"numbers"`` as numbers (``11``). They differ only
    above 9x9; the step's placements and eliminations are numbers either way.

    :raises ~sudokit.errors.NoSolutionError: when the puzzle has no solution.

    >>> puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    >>> step = hint(puzzle)
    >>> step.technique, step.rating
    ('Hidden Single', 1.2)
    """
    with digit_labels(labels):
        return _hint(puzzle, se_only, budget_s)


def next_step(
    puzzle: object,
    *,
    se_only: bool = False,
    budget_s: float = RATE_BUDGET_S,
    labels: Labels = "symbols",
) -> Step:
    """The easiest next step for *puzzle*, as :func:`hint` gives it, for a grid that has one:
    the "must succeed" twin of :func:`hint` (as :func:`~sudokit.solution` is of
    :func:`~sudokit.solve`), so that ``next_step(g).text`` is a ``str`` to a type checker.

    :raises ~sudokit.errors.AlreadySolvedError: when the grid is already solved (where
        :func:`hint` gives None).
    :raises ~sudokit.errors.NoSolutionError: when the puzzle has no solution.

    >>> next_step("1.3....22....3.1").text
    'In box 1 the 2 can only go in r1c2, so r1c2 is 2.'
    >>> next_step("1234341221434321")
    Traceback (most recent call last):
    ...
    sudokit.errors.AlreadySolvedError: the grid is already solved: it has no next step
    """
    step = hint(puzzle, se_only=se_only, budget_s=budget_s, labels=labels)
    if step is None:
        raise AlreadySolvedError("the grid is already solved: it has no next step")
    return step


def _hint(puzzle: object, se_only: bool, budget_s: float) -> Step | None:
    cg, grid = _to_candidates(puzzle)
    if cg.is_solved:
        return None
    solution = _solution(grid)
    if solution is not None:
        wrong = mistake(cg, solution)
        if wrong is not None:
            return wrong
    techs = _techniques(solution, se_only, grid.shape)
    unique = solution is not None
    try:
        with chain_budget(budget_s):
            found = find_step(cg, techs, unique=unique)
    except StepBudgetExceededError:
        found = find_step(cg, _fallback(techs), unique=unique)
    return None if found is None else found[0]


def explain(
    puzzle: object,
    *,
    se_only: bool = False,
    budget_s: float = RATE_BUDGET_S,
    labels: Labels = "symbols",
) -> list[Step]:
    """Every step of the easiest-first path for *puzzle* (Grid, text or pencil marks); step
    texts name digits as *labels* says (see :func:`hint`). A killer's path is told as a
    person's walkthrough (:func:`~sudokit.logic.walkthrough.walkthrough`): a run of singles or
    of cage combinations is one step, which keeps the path's steps it groups in ``parts``.

    :raises ~sudokit.errors.NoSolutionError: when the puzzle has no solution.

    >>> steps = explain("1.3." "...2" "2..." ".3.1")
    >>> len(steps), steps[0].to_json()["placements"]
    (10, [[1, 2, 2]])
    """
    with digit_labels(labels):
        cg, grid = _to_candidates(puzzle)
        start = cg.copy()  # the puzzle read once (a second parse cost ~0.03 ms CPU)
        path, _ = _solve_logically(cg, grid, se_only, budget_s)
        return walkthrough(start, path.steps)  # the path itself where there are no cages


def rate(puzzle: PuzzleLike, *, budget_s: float = RATE_BUDGET_S) -> Rating:
    """Rate *puzzle* on the Sudoku Explainer 1.2.1 scale (SE's techniques only, up to nested
    forcing chains level 5; never "Proof by Search").

    :param budget_s: time budget in seconds (default 60; 0 = none); when it runs out, or no
        rule applies, the rating is a lower bound (``lower_bound`` True, ``complete`` False):
        the higher of the hardest step taken and the base rating of the rule being searched.
    :raises ~sudokit.errors.MultipleSolutionsError: when the puzzle has several solutions.
    :raises ~sudokit.errors.NoSolutionError: when it has none.

    >>> rate("1.3." "...2" "2..." ".3.1").level
    'easy'
    """
    grid = as_grid(puzzle)
    cg = CandidateGrid.from_grid(grid)
    solution = _solution(grid)
    if solution is None:
        raise MultipleSolutionsError(f"the puzzle {str(grid)[:40]!r} has more than one solution")
    # cg holds the candidates the givens leave, and the puzzle has a solution
    techs = rating_techniques(grid.shape)
    path = solve_path(cg, techs, unique=True, budget_s=budget_s, consistent=True)
    steps = path.steps
    counts = Counter([s.technique for s in steps])  # in order of first use, as the output
    families = Counter(path.families)
    cells: dict[str, int] = {}
    for s in steps:
        if s.placements:
            cells[s.technique] = cells.get(s.technique, 0) + len(s.placements)
    score = sum([round(10 * s.rating) for s in steps])
    lower = not path.solved
    se = round(path.bound, 1)
    if lower:
        log.info("rating of %s is a lower bound: >= %.1f (%s)", grid, se, path.stopped_at)
    return Rating(
        se,
        score,
        level_of(se),
        counts,
        not lower,
        len(path.steps),
        cells,
        families,
        lower,
        path.stopped_at,
        budget_s if lower else 0.0,
        "variant" if is_variant(grid.shape) else "se",
    )
