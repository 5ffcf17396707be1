"""The search engines on the variants: every rule kind solved and counted exactly.

Three independent checks hold the C core and the pure-Python reference to the truth:

* on 4x4, every one of the 288 grids is tried: the solutions an engine finds are exactly the
  grids that ``Grid.is_solution`` accepts under the rules (random rule mixes, with and without
  givens);
* on 6x6 and 9x9, a CP-SAT model written from the rules' own words (``support/variants.py``,
  not from the ``Constraints`` support tables) agrees on the solution count up to a limit;
  skipped when OR-Tools (a ``dev`` extra) is absent;
* the two engines agree with each other (count; the same solution when it is unique) on many
  generated puzzles of every kind, and every solution passes ``Grid.is_solution``.

Plus: isomorph invariance (a transposed killer has the transposed solutions), the batch and
clue-removal calls with rules, sum bounds on big cages (16x16, above the listed digit sets),
the binding's refusal of malformed rule arrays (one clear error naming the entry), and the
300 killers of ``tests/data/killers9.txt``, each unique with its recorded solution.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from sudokit import _backend
from sudokit.constraints import Cage, Constraints
from sudokit.grid import Grid
from sudokit.shape import Shape
from support import require_c_backend
from support.variants import (
    KING,
    cpsat_solutions,
    orthogonal,
    random_cages,
    read_killers,
)

REFERENCE = _backend.get_engine("python")


def _c_engine() -> _backend.Engine:
    require_c_backend()
    return _backend.get_engine("c")


def _maker() -> _backend.Engine:
    """The engine that builds test puzzles: the C core when it loads (fast), else the reference
    (the puzzles are checked by other means either way)."""
    try:
        return _backend.get_engine("c")
    except ImportError:
        return REFERENCE


# -- rules built from a solution grid ----------------------------------------------------------


def _thermo(sol: bytes, n: int, rng: random.Random) -> tuple[int, ...]:
    """A random path of king-adjacent cells along which *sol* increases (at least 2 cells)."""
    while True:
        path = [rng.randrange(n * n)]
        while len(path) < 5:
            r, c = divmod(path[-1], n)
            up = [
                (r + dr) * n + c + dc
                for dr, dc in KING
                if 0 <= r + dr < n
                and 0 <= c + dc < n
                and sol[(r + dr) * n + c + dc] > sol[path[-1]]
            ]
            if not up:
                break
            path.append(rng.choice(up))
        if len(path) >= 2:
            return tuple(path)


def _pairs_where(sol: bytes, n: int, rule: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    return [(a, b) for a, b in orthogonal(n) if rule(sol[a], sol[b])]


def rules_from(kind: str, sol: bytes, n: int, rng: random.Random) -> Constraints:
    """Rules of *kind* that the full grid *sol* obeys (so the puzzle has a solution)."""
    if kind == "killer":
        return Constraints(cages=random_cages(sol, n, rng))
    if kind == "killer-unsummed":
        cages = random_cages(sol, n, rng)
        return Constraints(
            cages=[Cage(c.cells, c.total if rng.random() < 0.7 else None) for c in cages]
        )
    if kind == "kropki":
        white = _pairs_where(sol, n, lambda x, y: abs(x - y) == 1)
        black = [
            p for p in _pairs_where(sol, n, lambda x, y: x == 2 * y or y == 2 * x) if p not in white
        ]
        negative = rng.random() < 0.5
        if not negative:
            white = rng.sample(white, len(white) // 2)
            black = rng.sample(black, len(black) // 2)
        return Constraints(white=white, black=black, kropki_negative=negative)
    if kind == "xv":
        x = _pairs_where(sol, n, lambda a, b: a + b == 10)
        v = _pairs_where(sol, n, lambda a, b: a + b == 5)
        negative = rng.random() < 0.5
        if not negative:
            x, v = rng.sample(x, len(x) // 2), rng.sample(v, len(v) // 2)
        return Constraints(x=x, v=v, xv_negative=negative)
    if kind == "parity":
        symbols = ["eo"[d % 2] if rng.random() < 0.5 else "." for d in sol]
        return Constraints(parity="".join(symbols))
    if kind == "thermo":
        thermos: list[tuple[int, ...]] = []
        used: set[int] = set()
        for _ in range(4):
            t = _thermo(sol, n, rng)
            if not used & set(t):
                thermos.append(t)
                used |= set(t)
        return Constraints(thermos=thermos)
    raise AssertionError(kind)


#: Rules that hold for some grids only: found by searching the empty grid under them.
SEARCHED = {
    "antiknight": Constraints(antiknight=True),
    "antiking": Constraints(antiking=True),
    "nonconsecutive": Constraints(nonconsecutive=True),
    "antiknight-nonconsecutive": Constraints(antiknight=True, nonconsecutive=True),
}
FROM_GRID = ("killer", "killer-unsummed", "kropki", "xv", "parity", "thermo")


def _full_grid(engine: _backend.Engine, shape: Shape, rng: random.Random) -> bytes:
    """A random solution of *shape* (rules included): a random digit in a random cell, solved."""
    for _ in range(50):
        cells = bytearray(shape.ncells)
        cells[rng.randrange(shape.ncells)] = rng.randint(1, shape.n)
        found = engine.search(shape, bytes(cells), 1, 1, 2_000)
        if found.count:
            return found.solutions[0]
    raise AssertionError(f"no solution found for {shape!r}")


def variant_puzzles(
    engine: _backend.Engine, base: Shape, kinds: tuple[str, ...], count: int, seed: int
) -> list[tuple[str, Grid]]:
    """*count* puzzles of each kind on *base* (givens: a random part of a solution)."""
    rng = random.Random(seed)
    out = []
    for kind in kinds:
        for _ in range(count):
            if kind in SEARCHED:
                if (
                    base.n < 9
                    and kind not in ("antiknight", "antiking", "nonconsecutive")[: base.n - 3]
                ):
                    continue  # no 4x4 grid is anti-king or non-consecutive; no 6x6 is both
                if base.units != Shape(base.box_rows, base.box_cols).units:
                    continue  # with windows or diagonals: rare grids, slow to find
                shape = base.with_constraints(SEARCHED[kind])
                sol = _full_grid(engine, shape, rng)
            else:
                sol = _full_grid(engine, base, rng)
                shape = base.with_constraints(rules_from(kind, sol, base.n, rng))
            share = rng.choice((0.0, 0.1, 0.25, 0.4)) if kind.startswith("killer") else 0.35
            given = bytes(d if rng.random() < share else 0 for d in sol)
            out.append((kind, Grid(given, shape)))
    return out


# -- 4x4: every grid -------------------------------------------------------------------------

ALL_4X4: list[bytes] = REFERENCE.search(Shape(2, 2), bytes(16), 1000, 1000, 0).solutions  # type: ignore[assignment]


def _random_rules_4x4(rng: random.Random) -> Constraints:
    """A random mix of every rule kind on 4x4 (some mixes have no solution at all)."""
    n, adjacent = 4, orthogonal(4)
    kw: dict[str, object] = {}
    for flag, p in (("antiknight", 0.3), ("antiking", 0.2), ("nonconsecutive", 0.2),
                    ("kropki_negative", 0.15), ("xv_negative", 0.15)):  # fmt: skip
        if rng.random() < p:
            kw[flag] = True
    for name, k in (("white", 3), ("black", 2), ("v", 2)):
        if rng.random() < 0.3:
            kw[name] = rng.sample(adjacent, rng.randint(1, k))
    if rng.random() < 0.3:
        kw["parity"] = "".join(rng.choice("..eo") for _ in range(n * n))
    if rng.random() < 0.3:
        kw["thermos"] = [_thermo(rng.choice(ALL_4X4), n, rng)]
    if rng.random() < 0.6:
        sol = rng.choice(ALL_4X4)
        cages = random_cages(sol, n, rng, (1, 2, 3))
        kw["cages"] = [Cage(c.cells, c.total if rng.random() < 0.8 else None) for c in cages]
    return Constraints(**kw)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("windoku", [False, True])
def test_every_4x4_grid(engine: _backend.Engine, windoku: bool) -> None:
    """On 4x4 the solutions of an engine are exactly the grids ``is_solution`` accepts, for 100
    random rule mixes each with and without givens: counting is exact, nothing is missed."""
    rng = random.Random(12 + windoku)
    tried = 0
    while tried < 100:
        shape = Shape(2, 2, windoku=windoku, constraints=_random_rules_4x4(rng))
        truth = [g for g in ALL_4X4 if Grid(g, shape).is_solution()]
        givens = bytes(16)
        if truth and rng.random() < 0.5:
            sol = rng.choice(truth)
            givens = bytes(d if rng.random() < 0.25 else 0 for d in sol)
            truth = [g for g in truth if all(p in (0, q) for p, q in zip(givens, g, strict=True))]
        found = engine.search(shape, givens, 1000, 1000, 0)
        assert found.complete
        assert found.count == len(truth), shape
        assert sorted(found.solutions) == sorted(truth), shape
        tried += 1


# -- every kind against CP-SAT ---------------------------------------------------------------


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize(
    ("base", "count"),
    [
        (Shape(2, 3), 4),
        (Shape(3, 3), 2),
        (Shape(3, 3, windoku=True), 1),
        (Shape(3, 3, diagonals=True), 1),
    ],
    ids=["6x6", "9x9", "9x9-windoku", "9x9-x"],
)
def test_every_kind_against_cpsat(engine: _backend.Engine, base: Shape, count: int) -> None:
    """Every rule kind, solved and counted (limit 3) by each engine, agrees with CP-SAT's
    count; a unique solution is CP-SAT's; every solution passes ``is_solution``."""
    pytest.importorskip("ortools")
    kinds = (*FROM_GRID, *SEARCHED)
    for kind, puzzle in variant_puzzles(
        _maker(), base, kinds, count, seed=base.n * 7 + base.windoku
    ):
        found = engine.search(puzzle.shape, puzzle.cells, 3, 3, 0)
        truth = cpsat_solutions(puzzle, 3)
        assert found.complete
        assert found.count == len(truth), (kind, puzzle.shape)
        for sol in found.solutions:
            assert Grid(sol, puzzle.shape).is_solution(puzzle), kind
        if found.count == 1:
            assert found.solutions == tuple(truth), kind


# -- C == reference on many generated puzzles -------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("base", "count"),
    [(Shape(2, 2), 12), (Shape(2, 3), 8), (Shape(3, 3), 3), (Shape(3, 3, windoku=True), 2)],
    ids=["4x4", "6x6", "9x9", "9x9-windoku"],
)
def test_c_matches_reference(base: Shape, count: int) -> None:
    """The parity contract on variants: same count up to the limit, the same solution when it is
    unique, valid solutions otherwise; the generic path's batch call agrees with single searches."""
    c = _c_engine()
    kinds = (*FROM_GRID, *SEARCHED)
    puzzles = variant_puzzles(c, base, kinds, count, seed=base.ncells)
    for kind, puzzle in puzzles:
        shape = puzzle.shape
        found = c.search(shape, puzzle.cells, 4, 4, 0)
        truth = REFERENCE.search(shape, puzzle.cells, 4, 4, 0)
        assert found.complete
        assert truth.complete
        assert found.count == truth.count, (kind, shape)
        if found.count == 1:
            assert found.solutions == truth.solutions, kind
        for sol in found.solutions:
            assert Grid(sol, shape).is_solution(puzzle), kind
        batch = c.search_batch(shape, puzzle.cells * 3, 4, 0, 2)
        assert batch.counts == (found.count,) * 3


def test_zero_given_killers_unique_and_exact() -> None:
    """Zero-given 9x9 killers (cages only): the C count (limit 2) equals the reference's, and a
    unique one's solution is the grid its sums were taken from."""
    c = _c_engine()
    rng = random.Random(2026)
    unique = 0
    for _ in range(12):
        sol = _full_grid(c, Shape(3, 3), rng)
        shape = Shape(3, 3, constraints=Constraints(cages=random_cages(sol, 9, rng, (1, 2, 3))))
        found = c.search(shape, bytes(81), 2, 2, 0)
        truth = REFERENCE.search(shape, bytes(81), 2, 2, 0)
        assert found.count == truth.count >= 1
        if found.count == 1:
            unique += 1
            assert found.solutions == (sol,) == truth.solutions
        else:
            assert all(Grid(s, shape).is_solution() for s in found.solutions)
    assert unique >= 1  # cages of 1..3 cells pin most grids down


def test_transposed_killer(engine: _backend.Engine) -> None:
    """Isomorph invariance: transposing a killer (cells, cages, dots, thermometers) transposes
    its solutions and keeps its count."""
    n = 9
    flip = [(i % n) * n + i // n for i in range(n * n)]
    rng = random.Random(5)
    for kind in ("killer", "kropki", "thermo", "xv"):
        sol = _full_grid(_maker(), Shape(3, 3), rng)
        rules = rules_from(kind, sol, n, rng)
        given = bytes(d if rng.random() < 0.35 else 0 for d in sol)
        mirrored = Constraints(
            cages=[Cage([flip[i] for i in cage.cells], cage.total) for cage in rules.cages],
            white=[(flip[a], flip[b]) for a, b in rules.white],
            black=[(flip[a], flip[b]) for a, b in rules.black],
            kropki_negative=rules.kropki_negative,
            x=[(flip[a], flip[b]) for a, b in rules.x],
            v=[(flip[a], flip[b]) for a, b in rules.v],
            xv_negative=rules.xv_negative,
            thermos=[tuple(flip[i] for i in t) for t in rules.thermos],
        )
        first = engine.search(Shape(3, 3, constraints=rules), given, 10, 10, 0)
        second = engine.search(
            Shape(3, 3, constraints=mirrored), bytes(given[flip[i]] for i in range(81)), 10, 10, 0
        )
        assert first.complete
        assert second.complete
        assert first.count == second.count >= 1, kind
        if first.count < 10:  # every solution found: the same set, transposed
            assert sorted(second.solutions) == sorted(
                bytes(s[flip[i]] for i in range(81)) for s in first.solutions
            )


def test_reduce_keeps_a_killer_unique() -> None:
    """The clue-removal pass honours the rules: from a full killer grid it removes clues while the
    puzzle stays unique under its cages (and the C and reference passes agree)."""
    c = _c_engine()
    rng = random.Random(9)
    sol = _full_grid(c, Shape(3, 3), rng)
    shape = Shape(3, 3, constraints=Constraints(cages=random_cages(sol, 9, rng)))
    order = list(range(81))
    rng.shuffle(order)
    puzzle, searches, decided, complete = c.reduce(shape, sol, order, range(1, 82), 0)
    assert (searches, decided, complete) == (81, True, True)
    assert REFERENCE.reduce(shape, sol, order, range(1, 82), 0)[0] == puzzle
    assert c.search(shape, puzzle, 2, 2, 0).solutions == (sol,)
    assert sum(map(bool, puzzle)) < 30  # the cages carry most of the information


def test_big_cages_use_sum_bounds() -> None:
    """16x16 cages of 8 cells have more digit sets than the core lists (512), so it bounds
    their sums instead; counts still agree with the reference (which lists them)."""
    c = _c_engine()
    rng = random.Random(16)
    shape16 = Shape(4, 4)
    for _ in range(3):
        sol = _full_grid(c, shape16, rng)
        rows = [list(range(r * 16, r * 16 + 8)) for r in range(0, 16, 3)]
        cages = [Cage(cells, sum(sol[i] for i in cells)) for cells in rows]
        shape = shape16.with_constraints(Constraints(cages=cages))
        given = bytes(d if rng.random() < 0.55 or i in rows[0] else 0 for i, d in enumerate(sol))
        given = bytes(0 if i in rows[1] else d for i, d in enumerate(given))
        found = c.search(shape, given, 5, 5, 0)
        truth = REFERENCE.search(shape, given, 5, 5, 0)
        assert found.complete
        assert truth.complete
        assert found.count == truth.count >= 1
        assert all(Grid(s, shape).is_solution(Grid(given, shape)) for s in found.solutions)


# -- the binding refuses malformed rules ------------------------------------------------------


UNITS4 = Shape(2, 2).units
TABLE4 = (2, 5, 10, 4)  # digits b may hold for a = 1, 2, 3, 4


@pytest.mark.parametrize(
    ("rules", "error", "words"),
    [
        ({"different": [(0, 16)]}, ValueError, "different[0] must be in 0..15"),
        ({"different": [(3, 3)]}, ValueError, "pairs cell 3 with itself"),
        ({"different": [(0, 1, 2)]}, ValueError, "different[0] must be a pair"),
        ({"different": [(0, True)]}, TypeError, "must be an int"),
        ({"different": 5}, TypeError, "different must be a sequence"),
        ({"different": ["ab"]}, TypeError, "different[0] must be a sequence"),
        ({"allowed": [15] * 15}, ValueError, "allowed must hold 16 masks"),
        ({"allowed": [16] + [15] * 15}, ValueError, "allowed[0] must be in 0..15"),
        ({"allowed": [-1] + [15] * 15}, ValueError, "allowed[0]"),
        ({"relations": [(0, 1, TABLE4[:3])]}, ValueError, "the table must hold 4 masks"),
        ({"relations": [(0, 1)]}, ValueError, "relations[0] must be (a, b, table)"),
        ({"relations": [(0, 0, TABLE4)]}, ValueError, "pairs cell 0 with itself"),
        ({"relations": [(0, 1, (2, 5, 10, 2**70))]}, ValueError, "relations[0]"),
        ({"relations": [(0, 1, TABLE4)] * (16 * 15 + 1)}, ValueError, "at most 240"),
        ({"cages": [((0, 1), 3), ((1, 2), 7)]}, ValueError, "cell 1 is already in a cage"),
        ({"cages": [((0, 1, 2, 4, 5), None)]}, ValueError, "cages[0] has 5 cells, expected 1..4"),
        ({"cages": [((), 3)]}, ValueError, "cages[0] has 0 cells"),
        ({"cages": [((0, 1), 11)]}, ValueError, "cages[0] must be in 0..10"),
        ({"cages": [((0, 99), 3)]}, ValueError, "cages[0] must be in 0..15"),
        ({"cages": [((0, 1),)]}, ValueError, "cages[0] must be (cells, total)"),
        ({"cages": [((0, 1), "3")]}, TypeError, "cages[0] must be an int"),
    ],
)
def test_binding_refuses_malformed_rules(
    rules: dict[str, object], error: type[Exception], words: str
) -> None:
    """A malformed rule array is one ValueError/TypeError naming the bad entry, never a crash."""
    require_c_backend()
    from sudokit import _core

    with pytest.raises(error) as caught:
        _core.Geometry(4, UNITS4, **rules)  # type: ignore[arg-type]
    assert words in str(caught.value)


def test_binding_rules_keep_off_the_fast_path() -> None:
    """Any rule (even an empty one) keeps a 9x9 geometry off the fast path; none keeps it on."""
    require_c_backend()
    from sudokit import _core

    units = Shape(3, 3).units
    assert _core.Geometry(9, units).standard9
    assert not _core.Geometry(9, units).rules
    geo = _core.Geometry(9, units, cages=[((0, 1), 3)])
    assert geo.rules
    assert not geo.standard9
    assert "rules" in repr(geo)
    count, sols, _, complete = _core.search(geo, bytes(81), 1, 1, 0)
    assert complete
    assert count == 1
    assert sorted(sols[0][:2]) == [1, 2]


# -- a collection of killers with their solutions ----------------------------------------------


@pytest.mark.slow
def test_killer_collection(engine: _backend.Engine) -> None:
    """Each of the 300 zero-given killers of the collection solves to its recorded solution and
    is proved unique (limit 2) by the C core, every fifth by the reference (~10 ms each); the
    solution obeys the rules (``is_solution``)."""
    killers = read_killers()
    assert len(killers) == 300
    for puzzle, solution in killers if engine.name == "c" else killers[::5]:
        assert puzzle.shape.constraints is not None
        assert len(puzzle.shape.constraints.cages) >= 20
        found = engine.search(puzzle.shape, puzzle.cells, 2, 2, 0)
        assert found.complete
        assert found.count == 1
        assert found.solutions == (solution,)
        assert Grid(solution, puzzle.shape).is_solution(puzzle)
