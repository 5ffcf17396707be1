"""Puzzle generation: random unique puzzles of every shape, symmetric, minimal, seeded (layer 6).

A package of rooms with one job each: :mod:`~sudokit.generator.options` (the validated
:class:`GenerateOptions`), :mod:`~sudokit.generator.search` (the solution counter over the
engine's bound search, and the budgets), :mod:`~sudokit.generator.fill` (phase 1),
:mod:`~sudokit.generator.reduce` (phase 2, minimality, descents),
:mod:`~sudokit.generator.symmetry`, :mod:`~sudokit.generator.patterns`,
:mod:`~sudokit.generator.jigsaw` (random region maps), :mod:`~sudokit.generator.difficulty`
(targets), :mod:`~sudokit.generator.lowclue` (sparse 9x9), :mod:`~sudokit.generator.puzzle`
(one puzzle: :func:`generate`) and :mod:`~sudokit.generator.bulk` (runs: :func:`generate_many`).

How a puzzle is made (:func:`generate`):

1. **Clue addition.** Starting from an empty grid, random digits are placed on random cells
   (orbit by orbit when a symmetry is asked for), each digit drawn from those its placed peers
   leave open. After every batch the search engine counts the solutions up to 2: none means
   the batch is undone (and the batch size halved; a single digit that fails is banned from
   its cell); two or more means keep going; exactly one ends the phase. The result is a
   random unique puzzle and its solution -- a random complete grid, not a relabelling of a
   fixed one.
2. **Clue removal.** The clues are visited orbit by orbit in random order; an orbit is
   removed when the puzzle stays unique without it (counted up to 2 again). Removing clues
   only ever adds solutions, so one pass leaves a puzzle from which no orbit can be removed;
   with ``symmetry="none"`` that is a *minimal* puzzle (no single clue can be removed).
3. **Targets.** A clue range is met by stopping the removal at a random count inside the
   range, or adding back clues of the solution when the puzzle is too sparse. Below what one
   removal pass reaches (about 21 clues on 9x9) swap moves walk on: trade a clue orbit for an
   empty one and remove again, keeping the result when it has no more clues. Otherwise a new
   attempt starts, until the search budget is spent (:class:`BudgetExceededError` then says
   what was reached). Plain 9x9 ranges ending at 23 clues or below go to
   :mod:`sudokit.generator.lowclue` instead (exact counts down to 17, always minimal): a descent by
   clue-exchange moves from a random minimal puzzle for 20-23 clues, and for 17-19 clues
   a random isomorph of a packaged catalogue 17 (walked, then grown one clue at a time),
   with four times the default search budget. A pattern (a clue mask) is filled by running
   phase 1 on the mask's cells only; when the mask is full and still has several solutions,
   digit changes that never raise the solution count (counted exactly up to 50) walk it to
   uniqueness.
4. **Difficulty** (``difficulty=`` a level, ``rating=(lo, hi)``, ``require=`` techniques). Each
   candidate is judged by walking its rated path (:func:`sudokit.rate`, SE techniques easiest
   first) with only the techniques the window can use, so the verdict is exact but the
   expensive forcing chains above the window never run: an easy puzzle costs a singles pass,
   a too-hard one stops where the walk gets stuck. From there the generator climbs toward the
   window: it adds a clue of the solution (an orbit, under a symmetry) on a cell still empty
   where the walk got stuck, keeps the move while the puzzle is still too hard and undoes it
   when it lands below the window (up to four clues). Added clues keep the solution unique
   but the puzzle is then no longer minimal (``minimal=True`` forbids such moves). Windows
   ending at or below SE 7.5 are judged without any time limit, so the puzzle depends only on
   the seed; above that each walk gets 10 s. The cost is bounded by *ratings* walks.

Every decision depends only on solution *counts* and on the solution of a *unique* puzzle,
which both engines agree on (the parity contract in :mod:`sudokit._backend`). So the same
seed and version give the same puzzles with the C core or the pure-Python reference, on every
platform. The exceptions are the shapes whose searches get a guess bound (sizes above 9x9,
and jigsaws: see :func:`search_budget`): a search that hits it counts as a failure, engines
count guesses differently, and there phase 1 switches to the digits of the engine's first
solution after its first failed batch (so large grids never hit random contradictions their
bound cannot refute). A difficulty window above SE 7.5 also depends on the walks' time budget.

Randomness only comes from a :class:`random.Random` seeded by the caller (``seed=``) or passed
in (``rng=``); nothing touches the global random state. :func:`generate_many` derives one seed
per puzzle (:func:`derive_seed`), so shards and worker processes give the same puzzles.

Performance (9x9, C core): an attempt without pattern or clue range is one engine call
(:meth:`~sudokit._backend.Engine.random_puzzle`: the orbit shuffle, phase 1, the second shuffle
and phase 2 in the core, every random number still drawn from the caller's generator, so the
puzzles are those of the Python steps, which remain the specification and what the reference
engine runs). A minimal puzzle takes about 30 uniqueness decisions in phase 1 (12 searches
refuted, 1 unique, 17 with several solutions, of which about 10 need no search: the last
solution found still fits the new digits and one of its unavoidable sets -- a digit-pair
component, or two rows of a band on a cycle of columns -- has no clue, so there is a second
solution) and 39 in phase 2 (about 11.5 of the clues kept are proven necessary the same way
without a search). Measured against tdoku's library generator (Constrain + Minimize) in the
same run: ``python benchmarks/bench_generate.py --tdoku`` (results in
``benchmarks/results``).

>>> p = generate(size=4, seed=1)
>>> p.puzzle.clues >= 4, p.solution.is_solution(p.puzzle), p.minimal
(True, True, True)
>>> str(p.puzzle) == str(generate(size=4, seed=1).puzzle)
True
"""

from __future__ import annotations

from .bulk import PuzzleRun, derive_seed, generate_many
from .jigsaw import random_jigsaw
from .options import GenerateOptions, min_clues
from .patterns import parse_pattern
from .puzzle import GeneratedPuzzle, generate
from .reduce import is_minimal
from .search import search_budget
from .symmetry import (
    SYMMETRIES,
    SYMMETRY_ALIASES,
    SymmetryAlias,
    SymmetryName,
    applicable_symmetries,
    canonical_symmetry,
    is_symmetric,
)

__all__ = [
    "SYMMETRIES",
    "SYMMETRY_ALIASES",
    "GenerateOptions",
    "GeneratedPuzzle",
    "PuzzleRun",
    "SymmetryAlias",
    "SymmetryName",
    "applicable_symmetries",
    "canonical_symmetry",
    "derive_seed",
    "generate",
    "generate_many",
    "is_minimal",
    "is_symmetric",
    "min_clues",
    "parse_pattern",
    "random_jigsaw",
    "search_budget",
]
