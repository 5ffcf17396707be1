"""Human-solvable puzzles of the rule kinds, built by the human walk itself: one attempt
(:func:`build`).

:mod:`sudokit.generator.ruled` adds rules until a search says the puzzle is unique, then
asks the explainer's walk whether it solves it, and mostly it does not. Here the walk leads:

1. **A random solution** and the candidate rules it keeps
   (:func:`sudokit.generator.drawn_rules.pool`), one rule of each asked kind chosen first, and
   the older drawn rules (kropki, ..., killer cages) as :mod:`~sudokit.generator.ruled` has
   them.
2. **Walk, and feed the walk where it stops.** The explainer's walk (the variant scale's
   techniques up to :data:`BUILD_CAP`, below the forcing chains, without the uniqueness
   techniques) runs on the rules and givens so far. Where it gets stuck, a rule from the
   pool that covers the most of the cells still open is tried: it is kept when the cheap
   techniques (up to :data:`CHEAP`) then find a step, else put back for later and the next
   one tried; after :data:`TRIES` rules that give nothing (or none left on the open cells),
   a given of the solution on an open cell. The walk goes on from the candidates it had:
   what it deduced stays deduced, since a rule added only narrows the solutions.
3. **The proof.** Every step of the walk is a sound deduction (the uniqueness techniques are
   left out, so no step assumes what is to be proven), so a walk that fills the grid proves
   the puzzle unique: no search. A last walk from the puzzle as given checks that the
   explainer solves it (easiest step first, every rule from the start); where it stops, the
   building goes on from there.
4. **The reduction.** The rules the walk kept in the end often include some that add nothing,
   and some givens went in before rules that make them needless. Each rule (in a random
   order, but the last of its kind), then each given (orbit), is dropped when the puzzle
   stays unique (a search of at most :data:`GUESSES` guesses: the cheap check, which
   rejects most; when it runs out the walk decides alone) and the explainer's walk still
   solves it from the start with the techniques up to the hardest one its walk needed (a
   prefix of the explainer's list: a walk of it that solves is the explainer's own walk, so
   the puzzle gets no harder). A failed walk costs the most, so the pass stops after
   :data:`MISSES` of them.

Reproducible per seed and engine (no search reads a second solution, but a reduction search
that runs out of guesses spends a walk, which may count against :data:`MISSES`). The givens
are not proven minimal.

The older kinds (killer, kropki, XV, parity, thermometers from
:mod:`~sudokit.generator.variants`; windoku, anti-knight, anti-king, non-consecutive and
Sudoku-X from the classic pipeline) keep their builders and get :func:`climb` after them:
givens added where the same walk stops, the walk going on from where it was.
"""

from __future__ import annotations

import random

from ..constraints import Constraints
from ..grid import Grid
from ..logic.candidates import CandidateGrid
from ..logic.path import solve_path
from ..logic.registry import Technique
from ..rules import Rule
from ..shape import Shape
from .ruled import HUMAN_CAP, Draft, _kinds_of
from .search import _Counter, shuffled
from .symmetry import orbit_index, orbits
from .variants import _extended

__all__ = ["CHEAP", "TRIES", "build", "climb"]

#: Rules tried where the walk stopped before a given is placed instead.
TRIES = 6
#: The techniques (base rating up to this) that say quickly whether a new rule tells the walk
#: anything: the singles, the rule kinds' own steps, pointing and claiming.
CHEAP = 2.9
#: The hardest technique of the walks that build and check (Aligned Pair Exclusion, below
#: the forcing chains of :data:`~sudokit.generator.ruled.HUMAN_CAP`): a forcing-chain sweep
#: that fails, at every point where the walk is stuck, was 80 % of the CPU of a whispers
#: puzzle (cProfile); without it whispers went from 0.86 to 6.2 puzzles a CPU second, with
#: as many rules and givens (9x9, 4 seeds). The puzzles need no forcing chain.
BUILD_CAP = 6.2
#: Walks of the reduction pass that may fail (a removal the walk cannot solve) before it stops:
#: a failed walk costs the most (every technique tried where it is stuck).
MISSES = 4
#: Guesses a uniqueness search of the reduction pass may make; when it runs out the walk
#: decides alone (it proves uniqueness itself). Outside clues with few givens make slow
#: searches (an x-sum puzzle spent 28 s of CPU in them at the attempt's 3,620 guesses).
GUESSES = 50


def _techniques(cap: float, variant: bool = True) -> tuple[Technique, ...]:
    from .difficulty import _walk_techniques

    return tuple(t for t in _walk_techniques(cap, variant) if not t.needs_unique)


def _rebased(cg: CandidateGrid, shape: Shape) -> CandidateGrid:
    """The candidates of *cg* on *shape* (more rules, maybe more peers)."""
    out = CandidateGrid(shape, cg.values[:], cg.masks[:])
    masks, values = out.masks, out.values
    for i, v in enumerate(values):
        if v:
            keep = ~(1 << (v - 1))
            for p in out.peers[i]:
                masks[p] &= keep
    return out


def _open(cg: CandidateGrid) -> set[int]:
    return {i for i, v in enumerate(cg.values) if not v}


def _pick(rest: list[Rule], open_: set[int], rng: random.Random) -> Rule | None:
    """A rule of *rest* (taken out of it) over the most open cells, at random among the best;
    None when no rule touches an open cell."""
    best: list[Rule] = []
    top = 0
    for rule in rest:
        k = len(open_.intersection(rule.cells_of()))
        if k > top:
            best, top = [rule], k
        elif k == top and k:
            best.append(rule)
    if not best:
        return None
    rule = best[int(rng.random() * len(best))]
    rest.remove(rule)
    return rule


def build(
    draft: Draft, symmetry: str, shape: Shape, rng: random.Random, counter: _Counter
) -> tuple[bytearray, bytes, Shape, bool]:
    """Steps 2-4 on a :func:`~sudokit.generator.ruled.draw`: ``(puzzle, solution, shape with
    the rules, False)`` (the givens are not proven minimal)."""
    solution, base, chosen, rest = draft
    index = orbit_index(shape, symmetry)
    puzzle = bytearray(shape.ncells)
    full, cheap = _techniques(BUILD_CAP), _techniques(CHEAP)

    def made() -> Shape:
        return shape.with_constraints(_extended(base, Constraints(rules=chosen)))

    cg = CandidateGrid.from_grid(Grid(bytes(puzzle), made()))
    checked = False
    while True:
        path = solve_path(cg, full, consistent=True)
        if path.solved:
            if checked:
                break
            # the explainer's own walk: every rule and given from the start
            cg = CandidateGrid.from_grid(Grid(bytes(puzzle), made()))
            checked = True
            continue
        checked = False
        spare: list[Rule] = []  # rules that gave the cheap techniques nothing here
        while True:  # feed the walk until the cheap techniques move again
            open_ = _open(cg)
            rule = _pick(rest, open_, rng)
            if rule is not None:
                chosen.append(rule)
                trial = _rebased(cg, made())
                if solve_path(trial, cheap, consistent=True).steps:
                    cg = trial
                    break
                chosen.pop()
                spare.append(rule)
                if len(spare) < TRIES:
                    continue
            cell = sorted(open_)[int(rng.random() * len(open_))]
            for i in index[cell]:
                puzzle[i] = solution[i]
                if not cg.values[i]:
                    cg.place(i, solution[i])
            if 0 not in cg.values or solve_path(cg, cheap, consistent=True).steps:
                break
        rest.extend(spare)
    # the reduction's walks stop at the hardest technique the explainer's walk needed
    used = {t.rating for t in full if t.family in path.families}
    upto = tuple(t for t in full if t.rating <= max(used, default=0.0))
    _reduce(puzzle, base, chosen, shape, symmetry, rng, counter, upto)
    return puzzle, solution, made(), False


def _reduce(
    puzzle: bytearray,
    base: Constraints,
    chosen: list[Rule],
    shape: Shape,
    symmetry: str,
    rng: random.Random,
    counter: _Counter,
    techniques: tuple[Technique, ...],
) -> None:
    """Step 4: drop the rules of *chosen* (but the last of each kind), then the givens
    (orbits) of *puzzle* (both changed in place), whose removal keeps the puzzle unique and
    solved by the walk of *techniques* from the start; the cheap check (a search) first, and
    no more walks after :data:`MISSES` of them failed."""
    misses = 0
    counter.guess_budget = GUESSES

    def proven(rules: list[Rule]) -> bool:
        nonlocal misses
        if misses >= MISSES:
            return False
        made = shape.with_constraints(_extended(base, Constraints(rules=rules)))
        counter.use(made)
        if counter.count(puzzle)[0] not in (1, -1):
            return False
        cg = CandidateGrid.from_grid(Grid(bytes(puzzle), made))
        if solve_path(cg, techniques, consistent=True).solved:
            return True
        misses += 1
        return False

    for rule in shuffled(list(chosen), rng):
        kind = _kinds_of(rule)
        if sum(_kinds_of(r) == kind for r in chosen) > 1:
            trial = [r for r in chosen if r is not rule]
            if proven(trial):
                chosen[:] = trial
    for orbit in shuffled([o for o in orbits(shape, symmetry) if puzzle[o[0]]], rng):
        saved = [puzzle[i] for i in orbit]
        for i in orbit:
            puzzle[i] = 0
        if not proven(chosen):
            for i, v in zip(orbit, saved, strict=True):
                puzzle[i] = v


def climb(
    puzzle: bytearray, solution: bytes, shape: Shape, symmetry: str, rng: random.Random
) -> bool:
    """Givens of *solution* added to the unique puzzle *puzzle* (changed in place) until the
    explainer's walk solves it (the rating's techniques up to
    :data:`~sudokit.generator.ruled.HUMAN_CAP`, no uniqueness technique, on the scale the
    rating puts *shape* on); True when a given was added.

    The human default of the kinds that :mod:`sudokit.generator.variants` and the classic
    pipeline build (killer, kropki, anti-knight, windoku, Sudoku-X, ...): the puzzle they
    made, unique and minimal, is walked; where the walk gets stuck a given (an orbit of
    *symmetry*) goes on a random cell the walk left open, and the walk goes on from the
    candidates it had (a given only narrows the solutions: what was deduced stays deduced),
    so each stuck point costs one more walk from there, not a walk from the start. A walk
    from the puzzle as given, the explainer's, checks the end; where it stops, the climb goes
    on from there. Reproducible per seed: only *rng* chooses.
    """
    from ..rating import is_variant

    index = orbit_index(shape, symmetry)
    full = _techniques(HUMAN_CAP, is_variant(shape))
    cg = CandidateGrid.from_grid(Grid(bytes(puzzle), shape))
    fresh = True  # cg is the puzzle as given: a walk that solves it is the explainer's
    added = False
    while True:
        if solve_path(cg, full, consistent=True).solved:
            if fresh:
                return added
            cg = CandidateGrid.from_grid(Grid(bytes(puzzle), shape))
            fresh = True
            continue
        open_ = sorted(_open(cg))
        cell = open_[int(rng.random() * len(open_))]
        for i in index[cell]:
            puzzle[i] = solution[i]
            if not cg.values[i]:
                cg.place(i, solution[i])
        fresh = False
        added = True
