"""Helpers shared by the variant engine tests and ``benchmarks/bench_killer.py``.

* :func:`random_cages`: a random killer cage layout taken from a full grid;
* :func:`read_killers`: the killer collection ``tests/data/killers9.txt`` (format at its top);
* :func:`cpsat_model`: the one independent model of any variant puzzle in OR-Tools CP-SAT,
  written from the rules' definitions (not from ``Constraints``' support tables; the rule
  kinds of ``Constraints.rules`` through ``support/cpsat.py``); :func:`cpsat_solutions`
  enumerates it, :func:`cpsat_keeps` asks whether a filled grid keeps the rules. They raise
  :class:`ImportError` when OR-Tools (a ``dev`` extra) is absent.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.shape import Shape
from support import DATA

KNIGHT = [(dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc)]
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
KILLERS = DATA / "killers9.txt"


def orthogonal(n: int) -> list[tuple[int, int]]:
    """Every orthogonally adjacent pair (a < b) of an n x n grid."""
    pairs = [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)]
    return pairs + [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n)]


def random_cages(
    sol: bytes,
    n: int,
    rng: random.Random,
    sizes: Sequence[int] = (1, 2, 3, 4),
    weights: Sequence[float] | None = None,
) -> list[Cage]:
    """A random partition of the grid into connected cages whose digits differ in *sol*, each
    with the sum of its digits; each cage aims at a size drawn from *sizes* (with *weights*) and
    stops early when it cannot grow."""
    free = set(range(n * n))
    order = list(free)
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        cage = [start]
        free.discard(start)
        size = rng.choices(sizes, weights)[0]
        while len(cage) < size:
            digits = {sol[i] for i in cage}
            grow = [
                j
                for i in cage
                for j in (i - 1, i + 1, i - n, i + n)
                if j in free and (j // n == i // n or abs(j - i) == n) and sol[j] not in digits
            ]
            if not grow:
                break
            j = rng.choice(grow)
            cage.append(j)
            free.discard(j)
        cages.append(Cage(cage, sum(sol[i] for i in cage)))
    return cages


def read_killers(path: Path = KILLERS) -> list[tuple[Grid, bytes]]:
    """The (puzzle, solution) pairs of a killer collection: ``#`` comment lines, then one JSON
    object a line in the JSON puzzle format (``puzzle``, ``cages``) plus
    ``solution``."""
    out = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            item = json.loads(line)
            rules = Constraints(cages=[Cage(c["cells"], c.get("sum")) for c in item["cages"]])
            cells = bytes(0 if ch == "." else int(ch) for ch in item["puzzle"])
            shape = Shape(3, 3, constraints=rules)
            out.append((Grid(cells, shape), bytes(map(int, item["solution"]))))
    return out


def cpsat_model(puzzle: Grid, *, units: bool = True) -> tuple[Any, list[Any]]:
    """The one CP-SAT model of *puzzle* (OR-Tools, imported here): ``(model, cell variables)``,
    written from the rules' definitions: the shape's units (unless not *units*), the givens,
    knight/king moves, cage sums, dots, X/V, parity, thermometer order, and every rule kind of
    ``rules`` (``support/cpsat.py``)."""
    from ortools.sat.python import cp_model

    from support.cpsat import Cells, add_rule

    shape, n = puzzle.shape, puzzle.shape.n
    model = cp_model.CpModel()
    x = [model.NewIntVar(1, n, f"c{i}") for i in range(shape.ncells)]
    if units:
        for unit in shape.units:
            model.AddAllDifferent([x[i] for i in unit])
    for i, d in enumerate(puzzle.cells):
        if d:
            model.Add(x[i] == d)
    rules = shape.constraints
    if rules is not None:
        digits = range(1, n + 1)

        def table(a: int, b: int, ok: Callable[[int, int], bool]) -> None:
            model.AddAllowedAssignments(
                [x[a], x[b]], [(p, q) for p in digits for q in digits if ok(p, q)]
            )

        for on, moves in ((rules.antiknight, KNIGHT), (rules.antiking, KING)):
            if on:
                for r in range(n):
                    for c in range(n):
                        for dr, dc in moves:
                            if 0 <= r + dr < n and 0 <= c + dc < n:
                                model.Add(x[r * n + c] != x[(r + dr) * n + c + dc])
        for cage in rules.cages:
            model.AddAllDifferent([x[i] for i in cage.cells])
            if cage.total is not None:
                model.Add(sum(x[i] for i in cage.cells) == cage.total)

        def consecutive(p: int, q: int) -> bool:
            return abs(p - q) == 1

        def double(p: int, q: int) -> bool:
            return p == 2 * q or q == 2 * p

        for a, b in orthogonal(n):
            pair = (a, b)
            if rules.nonconsecutive:
                table(a, b, lambda p, q: not consecutive(p, q))
            if rules.kropki_negative and pair not in rules.white and pair not in rules.black:
                table(a, b, lambda p, q: not consecutive(p, q) and not double(p, q))
            if rules.xv_negative and pair not in rules.x and pair not in rules.v:
                table(a, b, lambda p, q: p + q not in (5, 10))
        for a, b in rules.white:
            table(a, b, consecutive)
        for a, b in rules.black:
            table(a, b, double)
        for a, b in rules.x:
            model.Add(x[a] + x[b] == 10)
        for a, b in rules.v:
            model.Add(x[a] + x[b] == 5)
        for i, symbol in enumerate(rules.parity or ""):
            if symbol != ".":
                model.AddAllowedAssignments(
                    [x[i]], [(d,) for d in digits if d % 2 == (symbol == "o")]
                )
        for thermo in rules.thermos:
            for a, b in pairwise(thermo):
                model.Add(x[a] < x[b])
        cells = Cells(model, x, n)
        for rule in rules.rules:
            add_rule(cells, rule)
    return model, x


def cpsat_solutions(puzzle: Grid, limit: int, hint: bytes | None = None) -> list[bytes]:
    """Up to *limit* solutions of *puzzle* found by OR-Tools CP-SAT (one worker, every
    solution enumerated) on :func:`cpsat_model`, the search steered toward the full grid
    *hint* when given. Model building is part of the call."""
    model, x = cpsat_model(puzzle)
    for v, d in zip(x, hint or (), strict=False):
        model.AddHint(v, d)
    return _enumerate(model, x, limit)


def cpsat_keeps(shape: Shape, cells: bytes) -> bool:
    """Whether the filled grid *cells* keeps every rule of *shape* (the units aside), by
    CP-SAT on :func:`cpsat_model` without units: the oracle of ``Constraints.violations``."""
    model, x = cpsat_model(Grid(cells, shape), units=False)
    return bool(_enumerate(model, x, 1))


def _enumerate(model: Any, x: list[Any], limit: int) -> list[bytes]:
    from ortools.sat.python import cp_model

    found: list[bytes] = []

    class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def on_solution_callback(self) -> None:
            found.append(bytes(self.Value(v) for v in x))
            if len(found) >= limit:
                self.StopSearch()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    status = solver.Solve(model, Collect())
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return found
