"""Puzzles of the rule kinds drawn from a solution (:mod:`sudokit.generator.drawn_rules`):
the draw every attempt starts from (:func:`draw`, step 1) and the builder by search
(:func:`build`, steps 2-4: ``--any``, just unique). Human-solvable puzzles, the default, are
built from the same draw by the human walk (:mod:`sudokit.generator.walked`).

1. **A random solution** of the shape (phase 1's fill), and the older drawn rules it asks
   for (kropki, XV, parity, thermometers: :mod:`sudokit.generator.variants`; killer cages
   as a fixed layout).
2. **Rules until unique.** One rule of each asked kind first (every asked kind appears);
   then, while the puzzle has a second solution, a candidate rule that the second solution
   breaks (so every rule added tells something), drawn at random; a search that runs out of
   its guess bound gets any candidate.
3. **Givens** where the rules run out: a given of the solution (an orbit) on a cell where
   the two solutions differ, until unique; then a removal pass drops the givens no longer
   needed (zero givens where the rules alone make it unique).
4. **Redundant rules dropped**: each rule, in a random order, whose removal keeps the
   puzzle unique is dropped (but the last one of its kind).

Like killer puzzles these read the second solution the engine finds, so they are
reproducible per seed and engine.
"""

from __future__ import annotations

import random

from ..constraints import Cage, Constraints
from ..grid import Grid
from ..rules import Rule
from ..shape import Shape
from .drawn_rules import Layout, pool
from .search import _Counter, shuffled
from .symmetry import orbit_index
from .variants import (
    Drawn,
    _drawn_rules,
    _extended,
    cage_layout,
    place_given,
    random_solution,
    reduce_givens,
)

__all__ = ["GUESSES", "HUMAN_CAP", "Draft", "build", "draw", "human_walk"]

#: The highest base rating of a technique the human-solvable walk uses (SE's forcing chains
#: and cycles, 7.x, but no dynamic or nested chains: those are not what a solver does by hand).
HUMAN_CAP = 6.6
#: Guesses one uniqueness search of an attempt may make (more: an undecided step).
GUESSES = 2000


def human_walk(cells: bytes, shape: Shape) -> list[int]:
    """The empty cells where the explainer's walk (techniques up to :data:`HUMAN_CAP`) gets
    stuck on the unique puzzle *cells*; empty when it solves it.

    >>> human_walk(bytes(Grid.parse("1.3....22....3.1").cells), Shape(2, 2))
    []
    """
    from ..logic.candidates import CandidateGrid
    from ..logic.path import solve_path
    from .difficulty import _walk_techniques

    cg = CandidateGrid.from_grid(Grid(cells, shape))
    path = solve_path(cg, _walk_techniques(HUMAN_CAP, True), unique=True)
    return [] if path.solved else [i for i, v in enumerate(cg.values) if not v]


#: What :func:`draw` gives the builders: the solution, its other rules (kropki, ..., killer
#: cages), one rule of each asked kind, the other candidate rules shuffled.
Draft = tuple[bytes, Constraints, list[Rule], list[Rule]]


def draw(drawn: Drawn, shape: Shape, rng: random.Random, counter: _Counter) -> Draft | None:
    """Steps 1 of an attempt: ``(solution, its other rules, one rule of each asked kind,
    the other candidate rules shuffled)``, or None (no solution found, or a kind this
    solution cannot show: no local extreme, ...)."""
    solution = random_solution(shape, rng, counter)
    if solution is None:
        return None
    n = shape.n
    base = _extended(shape.constraints, _drawn_rules(drawn, solution, n, rng))
    if drawn.killer:
        layout_ = cage_layout(solution, n, rng, drawn.cage_sizes)
        if layout_ is None:
            return None
        cages = [Cage(c, sum(solution[i] for i in c)) for c in layout_]
        base = _extended(base, Constraints(cages=cages))
    layout = Layout(n)
    pools = [pool((kind,), solution, n, rng, layout) for kind in drawn.kinds]
    if not all(pools):
        return None
    chosen = [p[0] for p in pools]
    rest = shuffled([r for p in pools for r in p[1:]], rng)
    return solution, base, chosen, rest


def _with_rules(shape: Shape, base: Constraints, rules: list[Rule]) -> Shape:
    return shape.with_constraints(_extended(base, Constraints(rules=rules)))


def _kinds_of(rule: Rule) -> str:
    return "minmax" if rule.kind in ("minimum", "maximum") else rule.kind


def build(
    draft: Draft, symmetry: str, shape: Shape, rng: random.Random, counter: _Counter
) -> tuple[bytearray, bytes, Shape, bool] | None:
    """Steps 2-4 on a :func:`draw`: ``(puzzle, solution, shape with the rules, proven
    minimal)``, or None."""
    solution, base, chosen, rest = draft
    n = shape.n
    index = orbit_index(shape, symmetry)
    puzzle = bytearray(shape.ncells)
    counter.guess_budget = GUESSES
    made = _with_rules(shape, base, chosen)
    while True:
        count, other = counter.rival(made, puzzle, solution)
        if count == 1:
            break
        if count == 0:
            return None  # cannot happen: the solution keeps every rule
        useful = [r for r in rest if other is None or r.broken(other, n)]
        if useful:
            rule = useful[int(rng.random() * len(useful))]
            rest.remove(rule)
            chosen.append(rule)
            made = _with_rules(shape, base, chosen)
            continue
        if not place_given(puzzle, solution, other, index, rng):
            return None
    decided = reduce_givens(puzzle, shape, symmetry, rng, counter)
    made = _drop_redundant(shape, base, chosen, puzzle, rng, counter)
    return puzzle, solution, made, decided and symmetry == "none"


def _drop_redundant(
    shape: Shape,
    base: Constraints,
    chosen: list[Rule],
    puzzle: bytearray,
    rng: random.Random,
    counter: _Counter,
) -> Shape:
    """The shape with the rules of *chosen* (changed in place) that uniqueness needs, keeping
    one of each kind; a search that runs out keeps the rule."""
    for rule in shuffled(list(chosen), rng):
        kind = _kinds_of(rule)
        if sum(_kinds_of(r) == kind for r in chosen) < 2:
            continue
        trial = [r for r in chosen if r is not rule]
        counter.use(_with_rules(shape, base, trial))
        if counter.count(puzzle)[0] == 1:
            chosen.remove(rule)
    made = _with_rules(shape, base, chosen)
    counter.use(made)
    return made
