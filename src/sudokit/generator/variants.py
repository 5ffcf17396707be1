"""Variant puzzles: rules drawn from a random solution -- killer cages, kropki dots,
XV marks, parity marks, thermometers -- and the fewest givens that make the puzzle unique.

Rules that do not depend on the solution (windoku windows, anti-knight, anti-king,
non-consecutive) ride on the shape from the start (:mod:`sudokit.generator.options` puts them
there), so the ordinary pipeline generates those puzzles: every search honours the shape's
rules. Rules drawn from a solution are made here, one attempt at a time (:func:`attempt`):

1. **A random solution** of the shape: phase 1's fill (:mod:`sudokit.generator.fill`), which
   honours the shape's own rules, so the solution is a random grid of the variant.
2. **The rules**, drawn from that solution with the seeded rng (:class:`Drawn` says which):

   * *killer*: a cage layout (:func:`cage_layout`): connected cages of 2 to 5 cells by
     default (sizes drawn with weights 3:4:2:1, so about 26-30 cages on 9x9), distinct
     digits in each, the sum of its digits written on it; no single-cell cages unless the
     size range allows them;
   * *kropki*: every dot of the solution (white between consecutive digits, black where one
     digit is double the other; a 1-2 pair gets the black dot) and the negative rule (no dot:
     neither relation);
   * *xv*: every X (sum 10) and V (sum 5) of the solution, and the negative rule;
   * *parity*: the parity of a random half of the cells (``e`` / ``o``);
   * *thermo*: about one thermometer per 20 cells (9x9: 4), each a path of 3 to 6
     king-adjacent cells along which the solution increases, mostly by small steps.

3. **Givens.** With cages, zero givens come first (a layout whose uniqueness search needs
   more than :data:`KILLER_GUESSES` guesses up to 9x9 is dropped and drawn again): while the
   puzzle has a second solution,
   a cage where the two solutions differ is re-cut (:func:`_recut`: the cage, or the cage
   and a neighbour, split anew into two connected cages that the second solution breaks),
   up to :data:`REPAIRS` times; after that a given of the solution is placed (an orbit,
   under a symmetry) on a cell where the two differ, until the puzzle is unique (above 9x9,
   a search that runs out has no second solution to aim at: one given per
   :data:`_CELLS_PER_BLIND_GIVEN` cells goes on random cells at once), and a
   removal pass drops the givens that are no longer needed. Without cages the puzzle starts
   from the full solution and one removal pass (orbit by orbit) leaves the givens the rules
   still need, often none. Either way no given (orbit) can be removed from the result.
4. **Human-solvable** (the default up to 9x9, not with ``--any``): the caller
   (:mod:`sudokit.generator.puzzle`) then adds givens where the explainer's walk stops
   (:func:`sudokit.generator.walked.climb`), as it does for windoku, anti-knight, ... and
   Sudoku-X puzzles of the classic pipeline.

Determinism: the cage repairs read the second solution the engine finds, and the C core and
the reference may find different ones, so killer puzzles are reproducible per seed *and
engine*. Kropki, XV, parity and thermometers on a plain grid depend only on solution counts,
as classic puzzles do; rules on the shape (windoku, anti-knight, ...) bound each search
(:func:`~sudokit.generator.search.search_budget`), so those puzzles, like jigsaws, are
reproducible per seed and engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from .._record import _Record
from ..constraints import Cage, Constraints
from ..shape import Shape, is_connected
from .fill import _fill
from .jigsaw import _neighbours
from .reduce import _reduce
from .search import _Counter, shuffled
from .symmetry import orbit_index, orbits

__all__ = ["DRAWN_RULES", "KILLER_GUESSES", "REPAIRS", "Drawn", "attempt", "cage_layout"]

#: The rules drawn from a solution, by the names of their switches.
DRAWN_RULES = ("killer", "kropki", "xv", "parity", "thermo")
#: Cage re-cuts one killer attempt may make before it places givens.
REPAIRS = 40
#: Guesses a killer search up to 9x9 may make; a layout that needs more is dropped (they are
#: the slow tail: a median search needs ~600 guesses, a few 60,000; dropping those makes
#: generation 4x faster with zero givens kept, measured on 150 9x9 puzzles).
KILLER_GUESSES = 500
# Relative weights of the cage sizes of a layout (sizes not listed weigh 1).
_SIZE_WEIGHTS = {1: 1, 2: 3, 3: 4, 4: 2, 5: 1}
#: Cells per thermometer (9x9: 4 thermometers).
_CELLS_PER_THERMO = 20
#: Cells per given placed at once above 9x9 when a search ran out (16x16: 8 givens). Such a
#: search finds no second solution to aim at, so one given at a time costs a whole search
#: budget each (a 16x16 killer needed ~27 of them); the removal pass drops the extra ones.
#: Measured on 16x16 killers, seeds 1-8: 88 s -> 52 s CPU, the same 17.5 givens on average.
_CELLS_PER_BLIND_GIVEN = 32


class Drawn(_Record):
    """Which rules are drawn from each puzzle's solution, and the cage sizes allowed (the rule
    kinds of *kinds* are made by :mod:`sudokit.generator.ruled`)."""

    __slots__ = __match_args__ = (
        "killer",
        "kropki",
        "xv",
        "parity",
        "thermo",
        "cage_sizes",
        "kinds",
        "human",
    )
    killer: bool
    kropki: bool
    xv: bool
    parity: bool
    thermo: bool
    cage_sizes: tuple[int, int]
    #: The rule kinds of :mod:`sudokit.generator.drawn_rules` asked for (``"arrow"``, ...).
    kinds: tuple[str, ...]
    #: With *kinds*: the puzzle must be solvable by the explainer's human walk.
    human: bool

    def __init__(
        self,
        killer: bool = False,
        kropki: bool = False,
        xv: bool = False,
        parity: bool = False,
        thermo: bool = False,
        cage_sizes: tuple[int, int] = (2, 5),
        kinds: tuple[str, ...] = (),
        human: bool = True,
    ) -> None:
        self._set(killer, kropki, xv, parity, thermo, cage_sizes, kinds, human)


def _draw_size(rng: random.Random, lo: int, hi: int) -> int:
    """A cage size in ``lo..hi``, drawn with :data:`_SIZE_WEIGHTS`."""
    sizes = range(lo, hi + 1)
    weights = [_SIZE_WEIGHTS.get(s, 1) for s in sizes]
    r = rng.random() * sum(weights)
    for size, weight in zip(sizes, weights, strict=True):
        r -= weight
        if r < 0:
            return size
    return hi


def _digits(cells: Sequence[int], grid: bytes) -> int:
    """The digits of *cells* in *grid* as a bit mask (bit d for digit d)."""
    mask = 0
    for i in cells:
        mask |= 1 << grid[i]
    return mask


def _distinct(cells: Sequence[int], grid: bytes) -> bool:
    return _digits(cells, grid).bit_count() == len(cells)


def cage_layout(
    solution: bytes, n: int, rng: random.Random, sizes: tuple[int, int] = (2, 5)
) -> list[list[int]] | None:
    """A random killer cage layout of the ``n x n`` grid *solution*: every cell in one
    connected cage of ``sizes[0]..sizes[1]`` cells (at most *n*) whose digits differ; None when
    the leftover small cages could not be absorbed (rare: the caller draws again).

    Cages grow from the cells in a random order, each to a drawn size, by random orthogonal
    neighbours that are still free and add a new digit. A cage left smaller than the least
    size joins a neighbouring cage (when the two fit together), or takes a cell from a
    neighbour that stays connected and large enough without it.

    >>> grid = bytes([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
    >>> cages = cage_layout(grid, 4, random.Random(1))
    >>> sorted(i for cage in cages for i in cage) == list(range(16))
    True
    >>> all(2 <= len(cage) <= 4 and is_connected(cage, 4) for cage in cages)
    True
    """
    lo, hi = sizes[0], min(sizes[1], n)
    near = _neighbours(n)
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    for start in shuffled(range(n * n), rng):
        if owner[start] >= 0:
            continue
        k = len(cages)
        target = _draw_size(rng, lo, hi)
        cage = [start]
        owner[start] = k
        digits = 1 << solution[start]
        while len(cage) < target:
            options = sorted(
                {j for i in cage for j in near[i] if owner[j] < 0 and not digits >> solution[j] & 1}
            )
            if not options:
                break
            j = options[int(rng.random() * len(options))]
            cage.append(j)
            owner[j] = k
            digits |= 1 << solution[j]
        cages.append(cage)
    for k, cage in enumerate(cages):
        if cage and len(cage) < lo and not _absorb(n, k, cages, owner, solution, near, rng, lo, hi):
            return None
    return [sorted(cage) for cage in cages if cage]


def _absorb(
    n: int,
    k: int,
    cages: list[list[int]],
    owner: list[int],
    solution: bytes,
    near: tuple[tuple[int, ...], ...],
    rng: random.Random,
    lo: int,
    hi: int,
) -> bool:
    """Grow the too-small cage *k*: merge it into a neighbouring cage, or take a cell from
    one. True when it worked."""
    small = cages[k]
    around = shuffled(sorted({owner[j] for i in small for j in near[i]} - {k}), rng)
    for b in around:
        other = cages[b]
        if len(other) + len(small) <= hi and not _digits(other, solution) & _digits(
            small, solution
        ):
            for i in small:
                owner[i] = b
            other.extend(small)
            cages[k] = []
            return True
    for b in around:
        other = cages[b]
        if len(other) <= lo:
            continue
        for x in shuffled([x for x in other if any(owner[j] == k for j in near[x])], rng):
            rest = [i for i in other if i != x]
            if _digits(small, solution) >> solution[x] & 1 or not is_connected(rest, n):
                continue
            other.remove(x)
            small.append(x)
            owner[x] = k
            if len(small) >= lo:
                return True
    return False


def _recut(
    cages: list[list[int]],
    solution: bytes,
    other: bytes,
    n: int,
    rng: random.Random,
    sizes: tuple[int, int],
) -> bool:
    """Re-cut a cage where *solution* and *other* differ so that *other* breaks a cage rule:
    the cage alone, or the cage and a neighbouring one, split anew into two connected cages
    (sizes in range, distinct digits of *solution*). True when a cut was made."""
    lo, hi = sizes[0], min(sizes[1], n)
    near = _neighbours(n)
    owner = [0] * (n * n)
    for k, cage in enumerate(cages):
        for i in cage:
            owner[i] = k
    touched = sorted({owner[i] for i in range(n * n) if solution[i] != other[i]})
    for k in shuffled(touched, rng):
        around = shuffled(sorted({owner[j] for i in cages[k] for j in near[i]} - {k}), rng)
        for b in [None, *around]:
            union = cages[k] + (cages[b] if b is not None else [])
            cuts = _cuts(union, solution, other, n, lo, hi)
            if not cuts:
                continue
            first, second = cuts[int(rng.random() * len(cuts))]
            cages[k] = first
            if b is None:
                cages.append(second)
            else:
                cages[b] = second
            return True
    return False


def _cuts(
    union: list[int], solution: bytes, other: bytes, n: int, lo: int, hi: int
) -> list[tuple[list[int], list[int]]]:
    """Every split of *union* into two connected cages that *solution* keeps and *other*
    breaks (a sum that differs, or a repeated digit)."""
    if len(union) < 2 * lo or len(union) > 2 * hi:
        return []
    first, rest = union[0], union[1:]
    found = []
    for mask in range(1 << len(rest)):
        a = [first, *(rest[i] for i in range(len(rest)) if mask >> i & 1)]
        b = [rest[i] for i in range(len(rest)) if not mask >> i & 1]
        if not (lo <= len(a) <= hi and lo <= len(b) <= hi):
            continue
        if not (_distinct(a, solution) and _distinct(b, solution)):
            continue
        breaks = any(
            sum(other[i] for i in part) != sum(solution[i] for i in part)
            or not _distinct(part, other)
            for part in (a, b)
        )
        if breaks and is_connected(a, n) and is_connected(b, n):
            found.append((sorted(a), sorted(b)))
    return found


@lru_cache(maxsize=16)
def _orthogonal_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Every pair of side-by-side cells ``(a, b)``, ``a < b``, row-major."""
    near = _neighbours(n)
    return tuple((a, b) for a in range(n * n) for b in near[a] if a < b)


def _thermometers(solution: bytes, n: int, rng: random.Random) -> list[tuple[int, ...]]:
    """About one thermometer per :data:`_CELLS_PER_THERMO` cells, disjoint, each 3 to 6
    king-adjacent cells along which *solution* increases (preferring steps of 1 or 2)."""
    wanted = max(1, round(n * n / _CELLS_PER_THERMO))
    king = _neighbours(n, king=True)
    longest = min(n, 6)
    used: set[int] = set()
    out: list[tuple[int, ...]] = []
    for _ in range(20 * wanted):
        if len(out) == wanted:
            break
        start = rng.randrange(n * n)
        if start in used or solution[start] > n - 2:
            continue
        length = 3 + rng.randrange(longest - 2)
        path = [start]
        while len(path) < length:
            here = solution[path[-1]]
            options = [j for j in king[path[-1]] if j not in used and j not in path]
            options = [j for j in options if solution[j] > here]
            if not options:
                break
            close = [j for j in options if solution[j] <= here + 2] or options
            path.append(close[int(rng.random() * len(close))])
        if len(path) >= 3:
            out.append(tuple(path))
            used.update(path)
    return out


def _drawn_rules(drawn: Drawn, solution: bytes, n: int, rng: random.Random) -> Constraints:
    """The rules *drawn* from *solution*, but for the cages (see the module docstring)."""
    white, black, x, v = [], [], [], []
    if drawn.kropki or drawn.xv:
        for i, j in _orthogonal_pairs(n):
            p, q = solution[i], solution[j]
            if drawn.kropki and (p == 2 * q or q == 2 * p):
                black.append((i, j))
            elif drawn.kropki and abs(p - q) == 1:
                white.append((i, j))
            if drawn.xv and p + q == 10:
                x.append((i, j))
            elif drawn.xv and p + q == 5:
                v.append((i, j))
    parity = None
    if drawn.parity:
        marked = set(shuffled(range(n * n), rng)[: n * n // 2])
        parity = "".join(
            ("e" if solution[i] % 2 == 0 else "o") if i in marked else "." for i in range(n * n)
        )
    return Constraints(
        white=white,
        black=black,
        kropki_negative=drawn.kropki,
        x=x,
        v=v,
        xv_negative=drawn.xv,
        parity=parity,
        thermos=_thermometers(solution, n, rng) if drawn.thermo else (),
    )


def _overlay(old: str | None, new: str | None) -> str | None:
    """Parity marks *new* over *old* (either may be None)."""
    if old is None or new is None:
        return new or old
    return "".join(o if m == "." else m for m, o in zip(new, old, strict=True))


def _extended(base: Constraints | None, add: Constraints) -> Constraints:
    """*base* and *add* together: the cages, pairs and thermometers of both, every rule that
    either switches on, and the parity marks of *add* over those of *base*."""
    b = base or Constraints()
    fields: dict[str, object] = {}
    for name in Constraints.__match_args__:
        old, new = getattr(b, name), getattr(add, name)
        if name == "parity":
            fields[name] = _overlay(old, new)
        elif isinstance(old, tuple):
            fields[name] = (*old, *new)
        else:
            fields[name] = old or new
    return Constraints(**fields)  # type: ignore[arg-type]


def place_given(
    puzzle: bytearray,
    solution: bytes,
    other: bytes | None,
    index: Sequence[Sequence[int]],
    rng: random.Random,
) -> bool:
    """Place a given of *solution* (its orbit in *index*) on a random empty cell where
    *other* differs (any empty cell when *other* is None); False when there is none."""
    free = [i for i in range(len(puzzle)) if not puzzle[i]]
    differ = [i for i in free if other is None or other[i] != solution[i]]
    if not differ:
        return False
    for i in index[differ[int(rng.random() * len(differ))]]:
        puzzle[i] = solution[i]
    return True


def reduce_givens(
    puzzle: bytearray, shape: Shape, symmetry: str, rng: random.Random, counter: _Counter
) -> bool:
    """Remove the givens (orbits) of *puzzle* that uniqueness does not need; True when every
    removal was decided (none when there are no givens)."""
    if not any(puzzle):
        return True
    given = [o for o in orbits(shape, symmetry) if puzzle[o[0]]]
    return _reduce(puzzle, shuffled(given, rng), counter)


def random_solution(shape: Shape, rng: random.Random, counter: _Counter) -> bytes | None:
    """A random solution of *shape* (its own rules honoured), or None when the fill failed."""
    counter.use(shape)
    order = [(i,) for i in shuffled(range(shape.ncells), rng)]
    got = _fill(shape, order, rng, counter, complete_orbits=False)
    return None if got is None else got[1]


def attempt(
    drawn: Drawn, symmetry: str, shape: Shape, rng: random.Random, counter: _Counter
) -> tuple[bytearray, bytes, Shape, bool] | None:
    """One try at a puzzle with rules drawn from its solution: ``(puzzle, solution, shape
    with the rules, proven minimal)``, or None when it failed (the caller tries again)."""
    solution = random_solution(shape, rng, counter)
    if solution is None:
        return None
    n = shape.n
    cages: list[list[int]] = []
    if drawn.killer:
        layout = cage_layout(solution, n, rng, drawn.cage_sizes)
        if layout is None:
            return None
        cages = layout
    extra = _extended(shape.constraints, _drawn_rules(drawn, solution, n, rng))
    index = orbit_index(shape, symmetry)
    if not drawn.killer:
        made = shape.with_constraints(extra)
        counter.use(made)
        puzzle = bytearray(solution)
        decided = _reduce(puzzle, shuffled(orbits(shape, symmetry), rng), counter)
        return puzzle, solution, made, decided and symmetry == "none"
    puzzle = bytearray(shape.ncells)
    repairs = 0
    bounded = n > 9  # a large shape: a search that runs out gets a given instead
    if not bounded:
        counter.guess_budget = KILLER_GUESSES
    while True:
        sums = [Cage(c, sum(solution[i] for i in c)) for c in cages]
        made = shape.with_constraints(_extended(extra, Constraints(cages=sums)))
        count, other = counter.rival(made, puzzle, solution)
        if count == 1:
            break
        if count == 0:
            return None  # cannot happen: the solution keeps every rule
        if count < 0 and not bounded:
            return None  # slow to prove unique: likely a dull puzzle to solve too
        if other is not None and repairs < REPAIRS:
            repairs += 1
            if _recut(cages, solution, other, n, rng, drawn.cage_sizes):
                continue
            repairs = REPAIRS
        batch = max(1, shape.ncells // _CELLS_PER_BLIND_GIVEN) if count < 0 else 1
        placed = 0
        while placed < batch and place_given(puzzle, solution, other, index, rng):
            placed += 1
        if not placed:
            return None
    decided = reduce_givens(puzzle, shape, symmetry, rng, counter)
    return puzzle, solution, made, decided and symmetry == "none"
