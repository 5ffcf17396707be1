"""A killer's explanation as a person writes it: the path's steps, grouped (layer 2).

The easiest-first path (:mod:`.path`) takes one deduction a step, which is what a rating
counts; a person's walkthrough of a killer reads differently. A zero-given 9x9 killer takes
about 140 path steps, half of them one cage's combination stated again after a single nearby,
the rest mostly singles. :func:`walkthrough` keeps the path and its order but reports

* a run of singles (Full House, Hidden Single, Naked Single) as one "Singles" step:
  ``r1c1=3, r4c5=1 (hidden singles); r9c9=7 (full house)``;
* a run of cage combinations as one "Cage Combination" step that names each cage once, its
  digit sets only when they changed since the walkthrough last stated them, and of its
  eliminations only those the sets do not say by themselves;
* a run of cage pointings as one "Cage Pointing" step, a short clause each (the cage's sets
  were stated by its combinations).

Every other step is kept as it is. A grouped step holds the path's steps it reports in
``parts`` (each with its own reason, placements and eliminations; the JSON lists them), and its
placements, eliminations and rating are theirs (the union, the hardest). Applying the grouped
steps in order is applying the path: every one keeps the solution when the path's do.

Only shapes with killer cages are grouped; every other explanation is the path as it was.

>>> from sudokit.constraints import Cage, Constraints
>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> from sudokit.logic.path import solve_path
>>> from sudokit.shape import Shape
>>> cages = [Cage((0, 1), 3), Cage((2, 3), 7), Cage((4, 8), 5), Cage((5, 6, 7), 7)]
>>> cg = CandidateGrid.from_grid(Grid.empty(Shape(2, 2, constraints=Constraints(cages=cages))))
>>> path = solve_path(cg.copy())
>>> steps = walkthrough(cg, path.steps)
>>> len(path.steps), len(steps), [len(s.parts) for s in steps]
(9, 4, [3, 2, 1, 3])
>>> for part in steps[0].text.split("; "):
...     print(part)
Cage Combinations: the 2-cell cage of 3 at r1c1 is 1+2
the 2-cell cage of 7 at r1c3 is 3+4
the 3-cell cage of 7 at r2c2 is 1+2+4.
>>> steps[1].text
'Singles: r2c1=3, r2c2=4 (hidden singles).'
"""

from __future__ import annotations

from collections.abc import Sequence

from ._names import digit_name
from .candidates import CandidateGrid
from .killer import cage_at, cages_of, combination_clause, pointing_clause
from .step import Step

__all__ = ["SINGLES", "walkthrough"]

#: The techniques (as their steps name them) whose runs become one "Singles" step.
SINGLES = ("Full House", "Hidden Single", "Naked Single")
_PLURAL = {"Full House": "full houses", "Hidden Single": "hidden singles"}


def _kind(step: Step) -> str:
    if step.technique in SINGLES:
        return "singles"
    if step.technique == "Cage Combination":
        return "cages"
    if step.technique == "Cage Pointing":
        return "pointing"
    return ""


def walkthrough(start: CandidateGrid, steps: Sequence[Step]) -> list[Step]:
    """*steps*, a path walked from *start* (not changed), grouped as a person reads it (see the
    module notes); the steps themselves when *start*'s shape has no cages."""
    if not cages_of(start.shape):
        return list(steps)
    cg = start.copy()
    stated: dict[int, tuple[int, ...] | None] = {}
    out: list[Step] = []
    i = 0
    while i < len(steps):
        kind = _kind(steps[i])
        j = i + 1
        while kind and j < len(steps) and _kind(steps[j]) == kind:
            j += 1
        run = steps[i:j]
        if kind == "cages":
            out.append(_cages(cg, run, stated))
        elif kind == "singles" and len(run) > 1:
            out.append(_singles(cg, run))
        elif kind == "pointing" and len(run) > 1:
            out.append(_pointing(cg, run))
        else:
            out.append(run[0])
            cg.apply(run[0])
        i = j
    return out


def _grouped(technique: str, run: Sequence[Step], text: str, n: int) -> Step:
    cells = sorted({c for s in run for c in s.cells})
    return Step(
        technique,
        max(s.rating for s in run),
        placements=tuple(p for s in run for p in s.placements),
        eliminations=tuple(e for s in run for e in s.eliminations),
        text=text,
        cells=tuple(cells),
        units=tuple(sorted({u for s in run for u in s.units})),
        highlights=tuple(h for s in run for h in s.highlights),
        size=n,
        parts=tuple(run),
    )


def _singles(cg: CandidateGrid, run: Sequence[Step]) -> Step:
    """One step for a run of singles, named by kind in the order they first appear."""
    shape = cg.shape
    by_kind: dict[str, list[str]] = {}
    for s in run:
        for c, d in s.placements:
            by_kind.setdefault(s.technique, []).append(
                f"{shape.cell_name(c)}={digit_name(shape, d)}"
            )
        cg.apply(s)
    parts = []
    for kind, placed in by_kind.items():
        name = kind.lower() if len(placed) == 1 else _PLURAL.get(kind, kind.lower() + "s")
        parts.append(f"{', '.join(placed)} ({name})")
    return _grouped("Singles", run, f"Singles: {'; '.join(parts)}.", shape.n)


def _pointing(cg: CandidateGrid, run: Sequence[Step]) -> Step:
    """One step for a run of cage pointings, a clause each."""
    clauses = []
    for s in run:
        clauses.append(pointing_clause(cg, s))
        cg.apply(s)
    text = f"Cage Pointing: {'; '.join(clauses)}."
    return _grouped("Cage Pointing", run, text, cg.shape.n)


def _cages(
    cg: CandidateGrid, run: Sequence[Step], stated: dict[int, tuple[int, ...] | None]
) -> Step:
    """One step for a run of cage combinations (a single one too: its sets are not restated
    when they did not change)."""
    shape = cg.shape
    clauses = []
    for s in run:
        k = cage_at(shape, s.cells)
        clause, sets = combination_clause(cg, s, stated.get(k))
        stated[k] = sets
        clauses.append(clause)
        cg.apply(s)
    head = "Cage Combinations" if len(run) > 1 else "Cage Combination"
    return _grouped("Cage Combination", run, f"{head}: {'; '.join(clauses)}.", shape.n)
