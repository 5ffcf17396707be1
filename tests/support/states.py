"""Candidate states for the parity tests of the C logic rooms: walks, random and thinned states."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

import sudokit
from sudokit.generator.jigsaw import random_jigsaw
from sudokit.grid import Grid
from sudokit.logic import (
    exclusion,
    fish,
    intersections,
    singles,
    subsets,
    uniqueness,
)
from sudokit.logic.candidates import CandidateGrid, bits
from sudokit.logic.path import find_step
from sudokit.logic.registry import TECHNIQUES
from sudokit.logic.step import Step
from sudokit.shape import Shape
from sudokit.solver import solve
from support import LOGIC_PUZZLES


def chain_states(puzzles: list[str], per_puzzle: int, seed: int) -> Iterator[CandidateGrid]:
    """Consistent states of *puzzles*: each wrong candidate removed with a random chance."""
    rng = random.Random(seed)
    for text in puzzles:
        grid = Grid.parse(text)
        solution = sudokit.solution(grid)
        cg = CandidateGrid.from_grid(grid)
        for _ in range(per_puzzle):
            share = rng.uniform(0.2, 0.75)
            masks = []
            for cell, m in enumerate(cg.masks):
                keep = 1 << (solution.cells[cell] - 1) if m else 0
                for d in range(cg.shape.n):
                    if m >> d & 1 and rng.random() >= share:
                        keep |= 1 << d
                masks.append(m & keep)
            yield CandidateGrid.from_masks(cg.shape, list(cg.values), masks)


def random_states(shape: Shape, solution: Grid, count: int, seed: int) -> list[CandidateGrid]:
    """States of *shape* around *solution*: a cell is solved with chance 0.3, else it holds
    its solution digit and one to three random digits; then a few deadly patterns are
    planted (:func:`plant`)."""
    rng = random.Random(seed)
    n = shape.n
    out = []
    for _ in range(count):
        values, masks = [], []
        for c in range(shape.ncells):
            if rng.random() < 0.3:
                values.append(solution.cells[c])
                masks.append(0)
                continue
            m = 1 << (solution.cells[c] - 1)
            for _ in range(rng.choice((1, 1, 2, 3))):
                m |= 1 << rng.randrange(n)
            values.append(0)
            masks.append(m)
        for _ in range(rng.randrange(1, 4)):
            plant(shape, values, masks, rng)
        out.append(CandidateGrid.from_masks(shape, values, masks))
    return out


def plant(shape: Shape, values: list[int], masks: list[int], rng: random.Random) -> None:
    """Plants a rectangle (two rows of a band, two columns of different stacks) or a 6-cell
    loop (three rows of a band, three columns of different stacks) holding two digits, a few
    of its cells with extra digits (sometimes one digit shared by all of them)."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    size = 3 if br >= 3 and n // bc >= 3 and rng.random() < 0.4 else 2
    band = rng.randrange(n // br)
    rows = [band * br + r for r in rng.sample(range(br), size)]
    cols = [s * bc + rng.randrange(bc) for s in rng.sample(range(n // bc), size)]
    if size == 2:
        cells = [rows[0] * n + cols[0], rows[0] * n + cols[1]]
        cells += [rows[1] * n + cols[1], rows[1] * n + cols[0]]
    else:
        r1, r2, r3 = rows
        c1, c2, c3 = cols
        cells = [r1 * n + c1, r1 * n + c2, r2 * n + c2, r2 * n + c3, r3 * n + c3, r3 * n + c1]
    pair = sum(1 << d for d in rng.sample(range(n), 2))
    shared = 1 << rng.randrange(n) if rng.random() < 0.3 else 0
    extra_cells = rng.sample(cells, rng.choice((1, 2, 2, 2, 3)))
    for c in cells:
        values[c] = 0
        masks[c] = pair
        if c in extra_cells:
            masks[c] |= shared or 1 << rng.randrange(n) | 1 << rng.randrange(n)
            if masks[c] == pair:
                masks[c] |= 1 << (pair.bit_length() % n)


def first_solution(shape: Shape) -> Grid:
    return next(sudokit.solutions(Grid.parse("." * shape.ncells, shape=shape), limit=1))


def pattern_solved(shape: Shape, rng: random.Random) -> Grid:
    """A solution of *shape* at any size (a search for one of a 64x64 grid runs out of
    budget): the base pattern with its digits relabelled at random."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    label = rng.sample(range(1, n + 1), n)
    solved = Grid(
        bytes(label[((r % br) * bc + r // br + c) % n] for r in range(n) for c in range(n)), shape
    )
    assert solved.is_solution()
    return solved


def thinned(cg: CandidateGrid, rng: random.Random, share: float) -> CandidateGrid:
    """A copy of *cg* with about *share* of the extra candidates of each cell removed."""
    masks = cg.masks[:]
    for c, m in enumerate(masks):
        for d in bits(m)[1:]:
            if rng.random() < share:
                masks[c] &= ~(1 << (d - 1))
    return CandidateGrid(cg.shape, cg.values[:], masks)


#: The techniques of the walks: every SE technique but the chains.
PLAIN = [t for t in TECHNIQUES if t.se and t.family not in ("chains", "forcing")]


def path_walk(puzzle: str, max_steps: int = 90) -> list[CandidateGrid]:
    """The states of the easiest-first path with :data:`PLAIN`, placing the solution's digit
    of the first empty cell where no technique applies."""
    grid = Grid.parse(puzzle)
    solution = solve(grid).solution
    assert solution is not None
    cg = CandidateGrid.from_grid(grid)
    out = []
    for _ in range(max_steps):
        if cg.is_solved:
            break
        out.append(cg.copy())
        found = find_step(cg, PLAIN, unique=True)
        if found is None:
            cell = cg.values.index(0)
            cg.place(cell, solution.cells[cell])
        else:
            cg.apply(found[0])
    return out


def hidden_quad(rng: random.Random) -> CandidateGrid:
    """An empty 9x9 grid with random candidates where, in one unit, four digits are left only
    four cells (a hidden quad, rare on path states: it needs nine empty cells in a unit)."""
    shape = Grid.parse("." * 81).shape
    masks = [rng.randrange(1, 512) | 1 << rng.randrange(9) for _ in range(81)]
    unit = shape.units[rng.randrange(len(shape.units))]
    quad = rng.sample(unit, 4)
    digits = sum(1 << d for d in rng.sample(range(9), 4))
    for c in unit:
        masks[c] = masks[c] | digits if c in quad else masks[c] & ~digits or 511 & ~digits
    return CandidateGrid.from_masks(shape, [0] * 81, masks)


def step_key(steps: Iterable[Step]) -> list[tuple[object, ...]]:
    fields = ("technique", "rating", "placements", "eliminations", "text", "cells", "units")
    fields += ("highlights", "links", "size")
    return [tuple(getattr(s, f) for f in fields) for s in steps]


#: The fast finders checked against their full searches.
FINDERS: dict[str, Callable[[CandidateGrid], Iterable[Step]]] = {
    "pointing": intersections.pointing,
    "claiming": intersections.claiming,
    "direct pointing": singles.direct_pointing,
    "direct claiming": singles.direct_claiming,
    "naked pair": subsets.naked_pair,
    "naked triple": subsets.naked_triple,
    "naked quad": subsets.naked_quad,
    "hidden pair": subsets.hidden_pair,
    "hidden triple": subsets.hidden_triple,
    "hidden quad": subsets.hidden_quad,
    "direct hidden pair": singles.direct_hidden_pair,
    "direct hidden triple": singles.direct_hidden_triple,
    "x-wing": fish.x_wing,
    "swordfish": fish.swordfish,
    "jellyfish": fish.jellyfish,
    "unique rectangle": uniqueness.unique_rectangle,
    "aligned pair": exclusion.aligned_pair,
    "aligned triple": exclusion.aligned_triple,
}


def path_states() -> list[CandidateGrid]:
    """The path states of the first 8 logic puzzles, thinned copies and hidden quads."""
    puzzles = [
        ln.split()[0] for ln in LOGIC_PUZZLES.read_text().splitlines() if ln and ln[0] != "#"
    ]
    rng = random.Random(16)
    out: list[CandidateGrid] = []
    for puzzle in puzzles[:8]:
        walk = path_walk(puzzle)
        out.extend(walk)
        out.extend(thinned(cg, rng, 0.25) for cg in walk[::4])
        out.append(hidden_quad(rng))
    return out


def jigsaw_shape() -> Shape:
    """The first random 9x9 jigsaw (seeds 0, 1, ...) that has a solution."""
    for seed in range(100):
        shape = random_jigsaw(9, random.Random(seed))
        if next(sudokit.solutions(Grid.parse("." * 81, shape=shape), limit=1), None):
            return shape
    raise AssertionError("no solvable jigsaw")


def emptied_states(shape: Shape, count: int, seed: int) -> Iterator[CandidateGrid]:
    """States of *shape*: a solution with a random share of its cells emptied, their
    candidates from the placed digits, then some of those removed (never the solution's)."""
    solved = next(sudokit.solutions(Grid.parse("." * shape.ncells, shape=shape), limit=1))
    rng = random.Random(seed)
    for _ in range(count):
        share = rng.choice((0.1, 0.4, 0.7, 0.9))
        cells = bytes(0 if rng.random() < share else v for v in solved.cells)
        cg = CandidateGrid.from_grid(Grid(cells, shape))
        thin = rng.choice((0.0, 0.2, 0.5))
        for c, m in enumerate(cg.masks):
            for d in bits(m):
                if d != solved.cells[c] and rng.random() < thin:
                    cg.masks[c] &= ~(1 << (d - 1))
        yield cg


def noise_states(count: int, seed: int) -> Iterator[CandidateGrid]:
    """9x9 candidate masks that no solution explains (every cell empty)."""
    rng = random.Random(seed)
    shape = Shape(3, 3)
    for _ in range(count):
        masks = [rng.randrange(512) if rng.random() < 0.9 else 1 << rng.randrange(9)]
        masks += [rng.randrange(1, 512) & rng.randrange(1, 512) for _ in range(80)]
        yield CandidateGrid.from_masks(shape, [0] * 81, masks)
