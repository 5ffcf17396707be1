"""The generic path's restarts (no heavy tails on big grids) and the big-grid fill start.

Every answer is checked independently: solutions by ``is_solution`` and against the givens,
counts against the 9x9 fast path and the pure-Python reference solver, determinism by
searching twice.
"""

from __future__ import annotations

import random

import pytest

from sudokit import _backend
from sudokit.generator.fill import START_ABOVE, band_pattern, start_solution
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.transform import random_isomorph
from support import require_c_backend

REFERENCE = _backend.get_engine("python")


@pytest.fixture(scope="module")
def generic() -> _backend.Engine:
    """The C core with the generic path forced (also for 9x9)."""
    require_c_backend()
    from sudokit._cengine import CEngine

    return CEngine(generic=True)


def under_constrained(size: int, seed: int, keep: float) -> bytes:
    """A random isomorph of the band pattern with a random *keep* fraction of its cells kept."""
    shape = Shape.from_size(size)
    rng = random.Random(f"tails-{size}-{seed}")
    full = random_isomorph(Grid(band_pattern(shape), shape), rng).cells
    kept = set(rng.sample(range(shape.ncells), round(keep * shape.ncells)))
    return bytes(v if i in kept else 0 for i, v in enumerate(full))


def check_solutions(shape: Shape, cells: bytes, solutions: tuple[bytes, ...]) -> None:
    """Each solution solves the grid, keeps its givens, and no two are the same."""
    assert len(set(solutions)) == len(solutions)
    for sol in solutions:
        assert Grid(sol, shape).is_solution()
        assert all(a in (0, b) for a, b in zip(cells, sol, strict=True))


# Seeds whose first solution comes after the first run's cap (8 x 625 guesses), so the answer
# comes from a randomised run, and that take under 0.1 s of CPU each.
RESTARTED25 = [1, 3, 4, 10, 13]
# The largest guess budget the generator gives a search (jigsaw maps: 50 x cells): budgets up to
# it keep the randomised runs up to the hand-over at 2000 + 20 x cells; with no budget (or a
# larger one) and a limit of at most 2, clause learning takes over after 2 x cells guesses.
GENERATOR25 = 50 * 625


@pytest.mark.parametrize("seed", RESTARTED25)
def test_under_constrained_25x25_answered_without_budget(
    generic: _backend.Engine, seed: int
) -> None:
    """A random 45% of a 25x25 solution: two distinct valid solutions, search complete
    (before restarts, such grids could run past 2,000,000 guesses)."""
    shape = Shape.from_size(25)
    cells = under_constrained(25, seed, 0.45)
    out = generic.search(shape, cells, 2, 2, GENERATOR25)
    assert (out.count, out.complete) == (2, True)
    check_solutions(shape, cells, out.solutions)
    first = generic.search(shape, cells, 1, 1, GENERATOR25)
    assert first.guesses > 8 * shape.ncells  # run 0 was cut: a restart found it
    check_solutions(shape, cells, first.solutions)


def test_same_input_same_answer(generic: _backend.Engine) -> None:
    """Restarts draw from a PRNG seeded per search: the same grid gives the same solutions and
    guess count every time (including grids whose search goes past the first run's cap)."""
    shape = Shape.from_size(25)
    for seed in RESTARTED25[:2]:
        cells = under_constrained(25, seed, 0.45)
        for budget in (GENERATOR25, 0):  # the randomised runs, the early hand-over
            first = generic.search(shape, cells, 2, 2, budget)
            again = generic.search(shape, cells, 2, 2, budget)
            assert (first.count, first.solutions, first.guesses) == (
                again.count,
                again.solutions,
                again.guesses,
            )


def test_budget_still_bounds_every_run(generic: _backend.Engine) -> None:
    """The budget counts the guesses of all runs: a tight one gives up, never more guesses."""
    shape = Shape.from_size(25)
    cells = under_constrained(25, 3, 0.45)
    out = generic.search(shape, cells, 2, 0, 100)
    assert not out.complete
    assert out.guesses == 100
    assert out.count <= 2


# 9x9 grids (top1465 puzzles with two givens removed) whose generic search needs more guesses
# than the first run's cap (8 x 81), so their counts cross the restart logic.
HARD9 = [
    "0900000000000700010002000400000000000000000000000000000700000000050000000008000000"
    "00000300000000000000000000000000080200000400010009000000000000000000030900000000",
    "0800070500000000000000000009000600000400000000000000000006000000000200090500000700"
    "00000000000000040000000000000300000200000000000001000000000800000000000000000000",
    "0200040000000800000000000300040000000000000000000000000003000500070000000000000000"
    "00040002000000010000000000000000000000000500080000000900000000000000000600000700",
]


def _nine(hexcells: str) -> bytes:
    cells = bytes.fromhex(hexcells)
    assert len(cells) == 81
    return cells


@pytest.mark.parametrize("hexcells", HARD9)
def test_counts_match_fast_path_and_reference(generic: _backend.Engine, hexcells: str) -> None:
    """Counts up to 3 on the generic path equal the fast path's and the reference solver's."""
    from sudokit._cengine import CEngine

    shape = Shape(3, 3)
    cells = _nine(hexcells)
    out = generic.search(shape, cells, 3, 3, 0)
    assert out.guesses > 8 * 81  # past the first run's cap (at least the count's part)
    fast = CEngine().search(shape, cells, 3, 0, 0)
    truth = REFERENCE.search(shape, cells, 3, 0, 0)
    assert out.complete
    assert truth.complete
    assert fast.complete
    assert out.count == fast.count == truth.count
    check_solutions(shape, cells, out.solutions)


@pytest.mark.parametrize("seed", range(6))
def test_no_solution_proofs_match_reference(generic: _backend.Engine, seed: int) -> None:
    """16x16 grids made unsolvable by changing one given of a full grid's sparse subset:
    the count (usually 0: a proof of none) equals the reference solver's."""
    shape = Shape.from_size(16)
    rng = random.Random(seed)
    cells = bytearray(under_constrained(16, seed, 0.5))
    i = rng.choice([i for i, v in enumerate(cells) if v])
    cells[i] = cells[i] % 16 + 1
    puzzle = bytes(cells)
    out = generic.search(shape, puzzle, 2, 2, 0)
    truth = REFERENCE.search(shape, puzzle, 2, 0, 0)
    assert out.complete
    assert truth.complete
    assert out.count == truth.count
    check_solutions(shape, puzzle, out.solutions)


@pytest.mark.parametrize(("rows", "cols"), [(7, 7), (6, 7), (7, 6), (8, 8)])
def test_start_solution_is_a_seeded_solution(rows: int, cols: int) -> None:
    """Above START_ABOVE the fill starts from a solution of the empty grid, the same per seed."""
    shape = Shape(rows, cols)
    assert shape.n > START_ABOVE
    got = start_solution(shape, random.Random(3))
    assert got is not None
    assert Grid(got, shape).is_solution()
    assert start_solution(shape, random.Random(3)) == got
    assert start_solution(shape, random.Random(4)) != got


def test_start_solution_only_for_plain_big_shapes() -> None:
    """Up to 36x36, and for Sudoku-X, the fill stays as it was (no start solution)."""
    assert start_solution(Shape(6, 6), random.Random(1)) is None
    assert start_solution(Shape(3, 3), random.Random(1)) is None
    assert start_solution(Shape(7, 7, diagonals=True), random.Random(1)) is None


# Clause learning (csrc/sk_cdcl.c) takes over a search once it has made the generator's guess
# budget, 2000 + 20 x cells, with no solution; these 25x25 grids (45% of a solution kept) get
# there, and clause learning answers each in well under 0.1 s.
LEARNT25 = [6, 7, 24]
HANDOVER25 = 2000 + 20 * 625


@pytest.mark.parametrize("seed", LEARNT25)
def test_clause_learning_counts_distinct_solutions(generic: _backend.Engine, seed: int) -> None:
    """Past the hand-over, limits 2 and 5 give that many distinct valid solutions (blocking
    clauses), the search complete and the same answer twice."""
    shape = Shape.from_size(25)
    cells = under_constrained(25, seed, 0.45)
    for limit in (2, 5):  # (limit 5 keeps the late hand-over without a budget too)
        budget = GENERATOR25 if limit == 2 else 0
        out = generic.search(shape, cells, limit, limit, budget)
        assert out.guesses > HANDOVER25
        assert (out.count, out.complete) == (limit, True)
        check_solutions(shape, cells, out.solutions)
        assert generic.search(shape, cells, limit, limit, budget) == out


def changed_givens(shape: Shape, cells: bytes, rng: random.Random, times: int) -> bytes:
    """*cells* with *times* givens (drawn by *rng*) changed to a digit that no peer holds."""
    out = bytearray(cells)
    peers = [
        {j for u in shape.cell_units[i] for j in shape.units[u]} - {i} for i in range(shape.ncells)
    ]
    for _ in range(times):
        options: list[int] = []
        i = 0
        while not options:
            i = rng.choice([k for k, v in enumerate(out) if v])
            held = {out[j] for j in peers[i]} | {out[i]}
            options = [d for d in range(1, shape.n + 1) if d not in held]
        out[i] = rng.choice(options)
    return bytes(out)


# 25x25 grids (42% of a solution kept, one given changed to a digit no peer holds) whose plain
# search goes to clause learning.
CHANGED25 = [4, 10, 12, 14, 22]


@pytest.mark.parametrize("seed", CHANGED25)
def test_clause_learning_counts_match_restarts(seed: int) -> None:
    """The count up to 3 by clause learning equals the randomised restarts' (another complete
    method, reached by a rule that changes nothing), and every solution is valid."""
    require_c_backend()
    from sudokit import _core

    shape = Shape.from_size(25)
    puzzle = changed_givens(shape, under_constrained(25, seed, 0.42), random.Random(seed), 1)
    count, sols, guesses, complete = _core.search(_core.Geometry(25, shape.units), puzzle, 3, 3, 0)
    assert guesses > HANDOVER25
    # Any variant rule keeps the restarts; this one changes nothing (two cells of a row differ).
    restarts = _core.Geometry(25, shape.units, different=[(0, 1)])
    other = _core.search(restarts, puzzle, 3, 0, 0)
    assert complete
    assert other[3]
    assert count == other[0]
    check_solutions(shape, puzzle, sols)


def test_budget_bounds_clause_learning(generic: _backend.Engine) -> None:
    """The budget counts the depth-first guesses and the learning search's decisions together."""
    shape = Shape.from_size(25)
    cells = under_constrained(25, LEARNT25[0], 0.45)
    out = generic.search(shape, cells, 2, 0, HANDOVER25 + 50)
    assert not out.complete
    assert out.guesses == HANDOVER25 + 50


# 20x20 grids (4x5 boxes, 42% of a solution kept, two givens changed to digits no peer holds)
# whose search goes to clause learning: NONE20 have no solution, MANY20 five or more.  The
# randomised restarts prove 251 has none in 818,804 guesses; on 46 and 238 they had not after
# 3,000,000 (clause learning needs 14-50 decisions).
HANDOVER20 = 2000 + 20 * 400
EARLY20 = 2 * 400
NONE20 = [46, 238, 251]
MANY20 = [57, 88]


def changed20(seed: int) -> bytes:
    """The 20x20 grid of *seed* (see NONE20)."""
    shape = Shape.from_size(20)
    return changed_givens(shape, under_constrained(20, seed, 0.42), random.Random(seed), 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", NONE20)
def test_clause_learning_proves_no_solution(seed: int) -> None:
    """Clause learning proves there is no solution: count 0 and complete, and the same answer
    twice.  The randomised restarts (another complete method) find none in 300,000 guesses,
    and on seed 251 they prove it in 1,000,000."""
    require_c_backend()
    from sudokit import _core

    shape = Shape.from_size(20)
    puzzle = changed20(seed)
    geometry = _core.Geometry(20, shape.units)
    count, sols, guesses, complete = _core.search(geometry, puzzle, 2, 2, 0)
    assert guesses > EARLY20  # the early hand-over (no budget)
    assert (count, len(sols), complete) == (0, 0, True)
    late = _core.search(geometry, puzzle, 2, 2, 50 * 400)  # a generator's budget: the late one
    assert late[2] > HANDOVER20
    assert (late[0], late[3]) == (0, True)
    restarts = _core.Geometry(20, shape.units, different=[(0, 1)])  # changes no answer
    other = _core.search(restarts, puzzle, 1, 0, 1_000_000 if seed == 251 else 300_000)
    assert other[0] == 0
    assert other[3] or seed != 251
    assert _core.search(geometry, puzzle, 2, 2, 0) == (count, sols, guesses, complete)


@pytest.mark.parametrize("seed", MANY20)
def test_clause_learning_finds_first_and_more(seed: int) -> None:
    """At limit 1 the solution comes from clause learning (a run that finds one stops there, so
    more guesses than the hand-over point mean the learning search found it); at limit 5, five
    distinct valid solutions, as many as the randomised restarts count."""
    require_c_backend()
    from sudokit import _core

    shape = Shape.from_size(20)
    puzzle = changed20(seed)
    geometry = _core.Geometry(20, shape.units)
    count, sols, guesses, complete = _core.search(geometry, puzzle, 1, 1, 0)
    assert guesses > EARLY20
    assert (count, complete) == (1, True)
    check_solutions(shape, puzzle, sols)
    count, sols, guesses, complete = _core.search(geometry, puzzle, 5, 5, 0)
    assert (count, complete) == (5, True)
    check_solutions(shape, puzzle, sols)
    restarts = _core.Geometry(20, shape.units, different=[(0, 1)])
    assert _core.search(restarts, puzzle, 5, 0, 0)[0] == 5


def test_early_handover_only_without_a_generator_budget(generic: _backend.Engine) -> None:
    """No budget (or one above the generator's 50 x cells) and limit 2: clause learning after
    2 x cells guesses; a generator's budget, or limit 3, keeps the late hand-over, exactly."""
    shape = Shape.from_size(25)
    for seed in LEARNT25:
        cells = under_constrained(25, seed, 0.45)
        early = generic.search(shape, cells, 2, 2, 0)
        assert early.guesses > 2 * shape.ncells
        assert (early.count, early.complete) == (2, True)
        check_solutions(shape, cells, early.solutions)
        assert generic.search(shape, cells, 2, 2, GENERATOR25 + 1) == early
        late = generic.search(shape, cells, 2, 2, GENERATOR25)
        assert late.guesses > HANDOVER25
        assert (late.count, late.complete) == (2, True)
        counted = generic.search(shape, cells, 3, 3, 0)
        assert counted == generic.search(shape, cells, 3, 3, GENERATOR25)
        assert (counted.count, counted.complete) == (3, True)
        check_solutions(shape, cells, counted.solutions)


@pytest.mark.parametrize("size", [16, 25])
def test_proper_puzzles_unchanged_by_the_early_handover(
    generic: _backend.Engine, size: int
) -> None:
    """A generated proper puzzle is answered by the first depth-first run: the same outcome
    (unique, same guesses) with no budget as with the generator's."""
    from sudokit import generate

    puzzle = generate(size=size, seed=1).puzzle
    cells = bytes(puzzle.cells)
    free = generic.search(puzzle.shape, cells, 2, 1, 0)
    assert free == generic.search(puzzle.shape, cells, 2, 1, 50 * puzzle.shape.ncells)
    assert (free.count, free.complete) == (1, True)
    assert free.guesses <= 2 * puzzle.shape.ncells
    check_solutions(puzzle.shape, cells, free.solutions)


# Random 12x12 jigsaw maps (random_jigsaw(12, Random(seed))) whose empty grid the first
# depth-first run does not fill within 2 x cells guesses, so clause learning does; with no cell
# placed it starts at phase 1 (SK_CDCL_SPARSE in csrc/sk_cdcl.c).
JIGSAW12 = [1, 2, 3, 6]


@pytest.mark.parametrize("seed", JIGSAW12)
def test_empty_jigsaw_filled_by_clause_learning(seed: int) -> None:
    """Two distinct valid solutions of the empty map, the same answer twice, and the
    randomised restarts (another complete method) also find two."""
    require_c_backend()
    from sudokit import _core
    from sudokit.generator.jigsaw import random_jigsaw

    shape = random_jigsaw(12, random.Random(seed))
    geometry = _core.Geometry(12, shape.units)
    empty = bytes(shape.ncells)
    count, sols, guesses, complete = _core.search(geometry, empty, 2, 2, 0)
    assert guesses > 2 * shape.ncells
    assert (count, complete) == (2, True)
    check_solutions(shape, empty, sols)
    assert _core.search(geometry, empty, 2, 2, 0) == (count, sols, guesses, complete)
    restarts = _core.Geometry(12, shape.units, different=[(0, 1)])  # changes no answer
    assert _core.search(restarts, empty, 2, 0, 0)[0] == 2


# A 25x25 grid with a few solutions (17) that clause learning counts at every limit: the
# depth-first search finds none before either hand-over.  Found by search (seeded, then frozen):
# under_constrained(25, 12, 0.45) plus 20 of its empty cells (Random(12).shuffle) filled from the
# first solution clause learning gave, which made a proper puzzle that the depth-first search
# does not answer before the hand-over; then the givens of OPEN25 removed (4 of the 12 cells
# whose given alone, removed, leaves two solutions).  Of the 495 such 4-subsets it is the one on
# which a blocking clause without its level-1 literals (`S.level[w] > 1` in csrc/sk_cdcl.c)
# loses solutions (5 counted, complete, at limits 10, 20 and 40); with the whole clause, 17.
# Digits are letters: A = 1 ... Y = 25, "." empty.
FEW25 = (
    "E.S..T.....K.F...Q...O..."
    "...LC.D.Q..WB.OF....GJPE."
    ".O.B....P.QM.DUYLT...X..K"
    "..KHFCO.B.T...VJP..S.U.QM"
    ".DUMQR...H.S.......O..L.."
    "J.EG.VL.TYX.FK.MQUDAW.COI"
    "XHR.....C.V..LN.....MA.UQ"
    ".L..V.M..D.........H..G.."
    "..AQ.XK....EG..WI.CB.LTYN"
    ".MI.W.P.GJ.....O...NKH..."
    "BC.W.E.J.PA...DT..LY....."
    "H.X..IC..GN.LT.PS....DM.U"
    ".G.S.NT......RF.UA.Q....."
    "L.YVN........I.RX.....SB."
    "M..UAH....P...GI.BFC.T.LY"
    "VN.Y.MAQ.U..O.I.FK.R.E..G"
    "UAQ.M..RF.SGJ...C..I.NYV."
    "..FX.......YVN..JP.G...M."
    "S..J.LN.YVK.XHRA....B...C"
    "R....P..JS.D.A..Y..T....."
    "...AD..KHRG.EJ...CI.Y...."
    "CV..OJS...DA.UMG.Y.LXKRF."
    "..P....L....RXKUADQM..IC."
    ".KH.XBW.ICY..V.SEJ.P.MQDA"
    "......UM..CBIOWX.F..NVEGP"
)
OPEN25 = (50, 87, 351, 533)


def fillings(shape: Shape, cells: bytes, where: tuple[int, ...]) -> list[bytes]:
    """*cells* with the empty cells *where* given every combination of digits that no peer
    (given, or another cell of *where*) holds."""
    out = [bytes(cells)]
    for i in where:
        out = [
            g[:i] + bytes([d]) + g[i + 1 :]
            for g in out
            for d in range(1, shape.n + 1)
            if all(g[j] != d for j in shape.peers[i])
        ]
    return out


def test_blocking_clauses_lose_no_solution() -> None:
    """Counting by clause learning blocks each solution found and nothing else: at limits 2, 3,
    5, 10 and past the total, the counts agree with each other and with solutions found without
    any blocking clause (limit-1 searches, one per filling of OPEN25's cells: distinct fillings,
    distinct solutions), and the complete enumeration contains every one of those."""
    require_c_backend()
    from sudokit import _core

    shape = Shape.from_size(25)
    puzzle = bytes(".ABCDEFGHIJKLMNOPQRSTUVWXY".index(ch) for ch in FEW25)
    assert all(puzzle[i] == 0 for i in OPEN25)
    geometry = _core.Geometry(25, shape.units)
    # Clause learning counts at every limit: no solution before the early (limit 2, no budget)
    # or the late (limit 3 and above) hand-over; the same guesses, budget or not, up to there.
    for limit, handover in ((2, 2 * shape.ncells), (3, HANDOVER25)):
        assert _core.search(geometry, puzzle, limit, 0, handover) == (0, (), handover, False)

    # Solutions found without blocking clauses: one limit-1 search per filling of OPEN25.
    alone: set[bytes] = set()
    for filled in fillings(shape, puzzle, OPEN25):
        _, sols, _, complete = _core.search(geometry, filled, 1, 1, 0)
        assert complete
        alone.update(sols)
    assert len(alone) > 1
    check_solutions(shape, puzzle, tuple(alone))

    total, every, _, complete = _core.search(geometry, puzzle, 40, 40, 0)
    assert complete
    assert total < 40  # so `every` is the whole set of solutions
    check_solutions(shape, puzzle, every)
    assert alone <= set(every)
    for limit in (2, 3, 5, 10):
        count, sols, _, complete = _core.search(geometry, puzzle, limit, limit, 0)
        assert (count, complete) == (min(limit, total), True)
        check_solutions(shape, puzzle, sols)
        assert set(sols) <= set(every)
