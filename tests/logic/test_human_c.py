"""The C searches of the cheap human techniques (csrc/sk_human.c) equal their Python
specification (the ``*_hits`` searches of :mod:`sudokit.logic`), hit for hit and in order.

* Each search, C against Python, on the states of the rating path of shipped puzzles (the
  states of tests/support/states.py: path states, thinned copies, hidden quads) and on random
  states of 4x4, 6x6, 9x9 (also with diagonals, windoku windows and jigsaw regions) and 16x16
  grids: a solution with cells emptied, its candidates, some of them removed (and, on 9x9,
  candidate masks that no solution explains), and on 36x36 and 64x64 grids, where masks,
  a unit's places and a digit's lines need more than 32 bits (some wrong pencil marks too).
* The finders give the same steps (every field, the text included) with either backend.
* The binding refuses bad tables and bad states with an exception.
"""

from __future__ import annotations

import contextlib
import gc
import random
import sys
from collections.abc import Callable, Iterable, Iterator

import pytest

import sudokit
from sudokit.grid import Grid
from sudokit.logic import (
    _human,
    als,
    fish,
    intersections,
    single_digit,
    singles,
    subsets,
    wings,
)
from sudokit.logic.candidates import CandidateGrid, bits
from sudokit.logic.registry import Finder
from sudokit.shape import Shape
from support import LOGIC_PUZZLES, python_twins
from support.states import (
    FINDERS,
    emptied_states,
    jigsaw_shape,
    noise_states,
    path_states,
    step_key,
)
from support.tiers import sweep

pytestmark = pytest.mark.skipif(
    _human._table(Shape(2, 2)) is None, reason="the C core has no HumanShape"
)


@pytest.fixture(scope="module")
def states() -> list[CandidateGrid]:
    return path_states()


Search = Callable[[CandidateGrid], Iterable[tuple[int, ...]]]

# name: (kind, k, the Python search)
SEARCHES: dict[str, tuple[int, int, Search]] = {
    "full house": (_human.FULL_HOUSE, 0, singles._full_house_hits),
    "hidden single box": (
        _human.HIDDEN_SINGLES,
        1,
        lambda cg: singles._hidden_single_hits(cg, True),
    ),
    "hidden single line": (
        _human.HIDDEN_SINGLES,
        0,
        lambda cg: singles._hidden_single_hits(cg, False),
    ),
    "naked single": (_human.NAKED_SINGLES, 0, singles._naked_single_hits),
    "pointing": (_human.LOCKS, 1, lambda cg: intersections.lock_hits(cg, True)),
    "claiming": (_human.LOCKS, 0, lambda cg: intersections.lock_hits(cg, False)),
    "direct pointing": (
        _human.DIRECT_LOCKS,
        1,
        lambda cg: singles._direct_lock_hits(cg, None, True),
    ),
    "direct claiming": (
        _human.DIRECT_LOCKS,
        0,
        lambda cg: singles._direct_lock_hits(cg, None, False),
    ),
    "xy-wing": (_human.WINGS, 0, lambda cg: wings._wing_hits(cg, False)),
    "xyz-wing": (_human.WINGS, 1, lambda cg: wings._wing_hits(cg, True)),
}
for _k in (2, 3, 4):
    SEARCHES[f"naked set {_k}"] = (
        _human.NAKED_SETS,
        _k,
        lambda cg, k=_k: subsets.naked_set_hits(cg, k),
    )
    SEARCHES[f"hidden set {_k}"] = (
        _human.HIDDEN_SETS,
        _k,
        lambda cg, k=_k: subsets.hidden_set_hits(cg, k),
    )
    SEARCHES[f"direct hidden {_k}"] = (
        _human.DIRECT_HIDDEN,
        _k,
        lambda cg, k=_k: singles._direct_hidden_hits(cg, None, k),
    )
    SEARCHES[f"fish {_k}"] = (_human.FISH, _k, lambda cg, k=_k: fish._basic_hits(cg, None, k))

# the finders of test_rating_fast that are searched here, and the singles and wings
FINDERS: dict[str, Finder] = {
    name: finder
    for name, finder in FINDERS.items()
    if name not in ("unique rectangle", "aligned pair", "aligned triple")
}
FINDERS.update(
    {
        "full house": singles.full_house,
        "hidden single box": singles.hidden_single_box,
        "hidden single line": singles.hidden_single_line,
        "naked single": singles.naked_single,
        "xy-wing": wings.xy_wing,
        "xyz-wing": wings.xyz_wing,
    }
)


def _c_hits(cg: CandidateGrid, name: str) -> list[tuple[int, ...]]:
    kind, k, _ = SEARCHES[name]
    return list(_human._table(cg.shape).find(kind, k, cg.masks, cg.values))


def _py_hits(cg: CandidateGrid, name: str) -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in hit) for hit in SEARCHES[name][2](cg)]


def _compare(cgs: Iterable[CandidateGrid]) -> dict[str, int]:
    """Assert C == Python for every search on every state; per search, the states it fired on."""
    fired = dict.fromkeys(SEARCHES, 0)
    for i, cg in enumerate(cgs):
        for name in SEARCHES:
            want = _py_hits(cg, name)
            assert _c_hits(cg, name) == want, (name, i, cg.values, cg.masks)
            fired[name] += bool(want)
    return fired


def _wide_states(shape: Shape, seed: int) -> Iterator[CandidateGrid]:
    """States of a grid of more than 32 digits: a solution (a relabelled pattern, its rows and
    columns shuffled within bands and stacks), then (1) a few cells emptied, their candidates
    thinned hard and, in some, the solution's digit removed (full houses, singles, locks and
    broken units); (2) most cells of the first band emptied (units of more than 32 empty
    cells); (3) every cell empty with random candidates, most of them high digits."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    rng = random.Random(seed)
    label = rng.sample(range(1, n + 1), n)
    rows = [b * br + i for b in rng.sample(range(bc), bc) for i in rng.sample(range(br), br)]
    cols = [s * bc + j for s in rng.sample(range(br), br) for j in rng.sample(range(bc), bc)]
    pattern = (label[((r % br) * bc + r // br + c) % n] for r in rows for c in cols)
    solved = Grid(bytes(pattern), shape)
    assert solved.is_solution()
    sol = solved.cells
    # (share of cells emptied in the first band, elsewhere; thinning; solution digits removed)
    for band, rest, thin, wrong in ((0.12, 0.12, 0.9, 0.3), (0.9, 0.05, 0.5, 0.0)):
        cells = bytes(
            0 if rng.random() < (band if c < br * n else rest) else v for c, v in enumerate(sol)
        )
        cg = CandidateGrid.from_grid(Grid(cells, shape))
        for c, m in enumerate(cg.masks):
            for d in bits(m):
                if rng.random() < (wrong if d == sol[c] else thin):
                    cg.masks[c] &= ~(1 << (d - 1))
        yield cg
    masks = [0] * shape.ncells
    for c in range(shape.ncells):
        for _ in range(2 if rng.random() < 0.1 else rng.randrange(5, 9)):
            masks[c] |= 1 << rng.randrange(n // 2 if rng.random() < 0.7 else 0, n)
    yield CandidateGrid.from_masks(shape, [0] * shape.ncells, masks)


def test_searches_equal_on_path_states(states: list[CandidateGrid]) -> None:
    fired = _compare(states)
    # the path states make the usual techniques fire (quads and jellyfish are rare there)
    common = ("full house", "hidden single box", "pointing", "naked set 2", "hidden set 2")
    assert all(fired[name] >= 5 for name in common), fired


@pytest.mark.parametrize(
    ("shape", "count"),
    [
        (Shape(2, 2), 150),
        (Shape(2, 3), 120),
        (Shape(3, 3), 150),
        (Shape(3, 3, diagonals=True), 60),
        (Shape(3, 3, windoku=True), 60),
        (jigsaw_shape(), 60),
        (Shape(4, 4), 12),
    ],
    ids=["4x4", "6x6", "9x9", "diagonals", "windoku", "jigsaw", "16x16"],
)
def test_searches_equal_on_random_states(shape: Shape, count: int) -> None:
    fired = _compare(emptied_states(shape, count, seed=shape.ncells))
    assert sum(1 for v in fired.values() if v) >= len(SEARCHES) // 2, fired


def test_searches_equal_on_noise() -> None:
    fired = _compare(noise_states(150, seed=7))
    rare = [name for name, v in fired.items() if not v and name != "full house"]
    assert len(rare) <= 4, rare


@pytest.mark.slow
@pytest.mark.parametrize("shape", [Shape(6, 6), Shape(8, 8)], ids=["36x36", "64x64"])
def test_searches_equal_beyond_32_digits(shape: Shape) -> None:
    fired = _compare(_wide_states(shape, seed=shape.n))
    assert sum(1 for v in fired.values() if v) >= len(SEARCHES) - 3, fired


#: The searches of techniques SE lacks (hints and explanations): name -> (kind, k, Python
#: search, finder); tried on fewer states than the others (ALS-XZ's Python search takes ~10 ms
#: a state).
EXPLAIN_SEARCHES: dict[str, tuple[int, int, Search, Finder]] = {
    "als-xz": (_human.ALS_XZ, 0, als._als_xz_hits, als.als_xz),
    "w-wing": (_human.W_WINGS, 0, wings._w_wing_hits, wings.w_wing),
    "empty rectangle": (
        _human.EMPTY_RECTANGLES,
        0,
        lambda cg: single_digit._er_hits(cg, range(1, cg.shape.n + 1)),
        single_digit.empty_rectangle,
    ),
}
for _k, _finder in enumerate(
    (single_digit.skyscraper, single_digit.two_string_kite, single_digit.turbot_fish)
):
    EXPLAIN_SEARCHES[f"two links {_k}"] = (
        _human.TWO_LINKS,
        _k,
        lambda cg, k=_k: single_digit._two_link_hits(
            cg, range(1, cg.shape.n + 1), single_digit._PATTERNS[k]
        ),
        _finder,
    )
for _k, _finder in (
    (2, fish.finned_x_wing),
    (3, fish.finned_swordfish),
    (4, fish.finned_jellyfish),
):
    EXPLAIN_SEARCHES[f"finned fish {_k}"] = (
        _human.FINNED_FISH,
        _k,
        lambda cg, k=_k: fish._finned_hits(cg, range(1, cg.shape.n + 1), k),
        _finder,
    )


@pytest.mark.parametrize("name", sorted(EXPLAIN_SEARCHES))
def test_explain_searches_equal(
    name: str, states: list[CandidateGrid], monkeypatch: pytest.MonkeyPatch
) -> None:
    """C against Python, hit for hit and step for step, on every 10th path state and random
    states of 4x4, 6x6, 9x9 and jigsaw grids."""
    kind, k, search, finder = EXPLAIN_SEARCHES[name]
    every = states[::10]
    for shape, count in (
        (Shape(2, 2), 10),
        (Shape(2, 3), 10),
        (Shape(3, 3), 10),
        (jigsaw_shape(), 6),
    ):
        every += emptied_states(shape, count, seed=shape.ncells + 1)
    fired = 0
    for i, cg in enumerate(every):
        want = [tuple(int(x) for x in hit) for hit in search(cg)]
        assert list(_human._table(cg.shape).find(kind, k, cg.masks, ())) == want, i
        fired += bool(want)
    assert fired >= 3, fired
    fast = [step_key(finder(cg.copy())) for cg in every]
    python_twins(monkeypatch)
    assert [step_key(finder(cg.copy())) for cg in every] == fast


@pytest.mark.parametrize("name", sorted(FINDERS))
def test_finders_give_the_same_steps_with_either_backend(
    name: str, states: list[CandidateGrid], monkeypatch: pytest.MonkeyPatch
) -> None:
    finder = FINDERS[name]
    extra = list(emptied_states(Shape(3, 3), 40, seed=name.__len__()))
    every = states + extra
    fast = [step_key(finder(cg.copy())) for cg in every]
    python_twins(monkeypatch)
    assert _human.core(CandidateGrid.from_grid(Grid.empty(Shape(3, 3)))) is None
    slow = [step_key(finder(cg.copy())) for cg in every]
    assert fast == slow
    assert any(fast)


def test_rating_is_the_same_with_either_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = LOGIC_PUZZLES.read_text().splitlines()
    puzzles = [ln.split()[0] for ln in lines if ln and ln[0] != "#"]
    picked = puzzles[:6]
    fast = [sudokit.rate(p) for p in picked]
    python_twins(monkeypatch)
    assert [sudokit.rate(p) for p in picked] == fast


def test_binding_refuses_bad_input() -> None:
    from sudokit import _core

    shape = Shape(2, 2)
    table = _human._table(shape)
    masks = [0b1111] * 16
    with pytest.raises(ValueError, match="no search"):
        table.find(42, 0, masks, ())
    with pytest.raises(ValueError, match="no search"):
        table.find(_human.FISH, 5, masks, ())
    with pytest.raises(ValueError, match="masks must hold 16"):
        table.find(_human.NAKED_SINGLES, 0, masks[:-1], ())
    with pytest.raises(ValueError, match="masks"):
        table.find(_human.NAKED_SINGLES, 0, [*masks[:-1], 16], ())
    with pytest.raises(TypeError, match="int"):
        table.find(_human.NAKED_SINGLES, 0, [*masks[:-1], "x"], ())
    with pytest.raises(ValueError, match="values"):
        table.find(_human.FULL_HOUSE, 0, masks, [5] * 16)
    with pytest.raises(ValueError, match="ALS-XZ needs at most 256 cells"):
        _human._table(Shape(4, 5)).find(_human.ALS_XZ, 0, [0] * 400, ())
    with pytest.raises(TypeError):
        table.find(_human.FULL_HOUSE, 0, masks, None)
    with pytest.raises(ValueError, match="limit"):
        table.find(_human.NAKED_SINGLES, 0, masks, (), -1)
    with pytest.raises(TypeError):
        table.find(_human.NAKED_SINGLES, 0, masks, (), 1, 2)
    with pytest.raises(ValueError, match="no search"):
        table.find(_human.TWO_LINKS, 3, masks, ())
    with pytest.raises(ValueError, match="no search"):
        table.find(_human.W_WINGS, 1, masks, ())
    args = (4, shape.units, [0] * 12, [0] * 12, shape.peers, shape.cell_units, (), ())
    _core.HumanShape(*args)
    with pytest.raises(ValueError, match="cell_units"):
        _core.HumanShape(*args[:5], tuple(cu[:1] for cu in shape.cell_units), (), ())
    with pytest.raises(ValueError, match="units"):
        _core.HumanShape(4, [[0, 99]], [0], [0], shape.peers, shape.cell_units, (), ())
    with pytest.raises(ValueError, match="pair"):
        _core.HumanShape(*args[:6], ((0, 1, 2),), ())
    with pytest.raises(ValueError, match="pointing"):
        _core.HumanShape(*args[:7], ((0, 12),))
    with pytest.raises(ValueError, match="boxes"):
        _core.HumanShape(*args[:3], [2] * 12, *args[4:])
    fresh = _core.HumanShape.__new__(_core.HumanShape)
    with pytest.raises(ValueError, match="not initialised"):
        fresh.find(0, 0, masks, ())
    with pytest.raises(ValueError, match="pointing"):  # fails after reading most tables
        fresh.__init__(*args[:7], ((0, 12),))
    fresh.__init__(*args)  # then succeeds
    assert fresh.find(_human.NAKED_SINGLES, 0, [1] * 16, ()) == tuple((c, 1) for c in range(16))
    with pytest.raises(TypeError, match="already initialised"):
        fresh.__init__(*args)


class _BadIndex:
    """An int-like value whose conversion fails."""

    def __index__(self) -> int:
        raise KeyError("not an index")


def test_binding_error_paths_are_clean() -> None:
    """A bad kind is reported as such (k was then converted with the error pending: its
    ``__index__`` ran and the call ended in a SystemError), and a refused HumanShape() keeps
    no memory (the kinds read before a bad boxes argument leaked)."""
    from sudokit import _core

    shape = Shape(2, 2)
    with pytest.raises(TypeError, match="'str' object cannot be interpreted as an integer"):
        _human._table(shape).find("x", _BadIndex(), [0b1111] * 16, ())
    args = (4, shape.units, [0] * 12, [0] * 12, shape.peers, shape.cell_units, (), ())

    with pytest.raises(TypeError, match="boxes must be a sequence"):
        _core.HumanShape(*args[:3], 5, *args[4:])
    gc.collect()
    before = sys.getallocatedblocks()
    for _ in range(200):
        with contextlib.suppress(TypeError):
            _core.HumanShape(*args[:3], 5, *args[4:])
    gc.collect()
    assert sys.getallocatedblocks() - before < 100, "about 13 blocks a call leaked"


def test_limit_gives_the_first_hits(states: list[CandidateGrid]) -> None:
    """``find(..., limit)`` is the first *limit* hits of the whole search, for every kind (the
    search stops at the limit), and :func:`~sudokit.logic._human.lazy_hits` all of them."""
    kinds = {name: spec[:2] for name, spec in (*SEARCHES.items(), *EXPLAIN_SEARCHES.items())}
    several = dict.fromkeys(kinds, 0)
    for cg in [*states[::20], *noise_states(8, seed=3)]:
        table = _human._table(cg.shape)
        for name, (kind, k) in kinds.items():
            every = table.find(kind, k, cg.masks, cg.values)
            for limit in (1, 3):
                assert table.find(kind, k, cg.masks, cg.values, limit) == every[:limit], name
            if kind != _human.FULL_HOUSE:  # lazy_hits passes no values
                assert tuple(_human.lazy_hits(table, kind, k, cg.masks)) == every, name
            several[name] += len(every) > 3
    assert sum(1 for v in several.values() if v) >= len(kinds) - 6, several


#: The searches of the single-digit patterns and W-Wings (cheap in Python: tried on more).
PATTERNS = [name for name in EXPLAIN_SEARCHES if name.startswith(("two links", "empty", "w-"))]


@pytest.mark.parametrize(
    ("shape", "count"),
    [
        (Shape(3, 3), sweep(60, 400)),
        (Shape(3, 3, diagonals=True), sweep(15, 100)),
        (Shape(3, 3, windoku=True), sweep(15, 100)),
        (jigsaw_shape(), sweep(15, 100)),
        (Shape(4, 4), sweep(4, 30)),
        (None, sweep(60, 400)),
        (Shape(6, 6), 1),
    ],
    ids=["9x9", "diagonals", "windoku", "jigsaw", "16x16", "noise", "36x36"],
)
def test_pattern_searches_equal_on_more_states(shape: Shape | None, count: int) -> None:
    """The single-digit patterns and W-Wings, C against Python, hit for hit, on random states
    of more shapes, on 9x9 noise and on the 36x36 states of more than 32 digits."""
    if shape is None:
        cgs: Iterable[CandidateGrid] = noise_states(count, seed=11)
    elif shape.n > 16:
        cgs = _wide_states(shape, seed=5)
    else:
        cgs = emptied_states(shape, count, seed=shape.ncells + 2)
    fired = dict.fromkeys(PATTERNS, 0)
    for i, cg in enumerate(cgs):
        for name in PATTERNS:
            kind, k, search, _ = EXPLAIN_SEARCHES[name]
            want = [tuple(int(x) for x in hit) for hit in search(cg)]
            assert list(_human._table(cg.shape).find(kind, k, cg.masks, ())) == want, (name, i)
            fired[name] += bool(want)
    assert sum(1 for v in fired.values() if v) >= (2 if shape and shape.n > 9 else 4), fired


def _two_colourable(cg: CandidateGrid) -> bool:
    """Whether the graph of every digit's strong links has two colours (no odd cycle): no link
    joins two cells that the colouring of their component gives one colour."""
    for d in range(1, cg.shape.n + 1):
        graph = single_digit._link_graph(cg, d)
        for start in graph:
            a, b = single_digit._colour_groups(graph, start)
            side = dict.fromkeys(a, 0) | dict.fromkeys(b, 1)
            if any(side[x] == side[y] for x in side for y in graph[x]):
                return False
    return True


def _odd_cycle() -> CandidateGrid:
    """A 9x9 X state whose strong links of 1 hold a triangle: row 1 has its 1 in r1c1 or r1c3,
    column 3 in r1c3 or r3c3, the main diagonal in r1c1 or r3c3."""
    shape = Shape(3, 3, diagonals=True)
    masks = [0b111111111] * 81
    keep = {0, 2, 20}
    for u in (shape.row_units[0], shape.column_units[2], 27):
        for c in shape.units[u]:
            if c not in keep:
                masks[c] &= ~1
    return CandidateGrid.from_masks(shape, [0] * 81, masks)


def test_colouring_equal(states: list[CandidateGrid], monkeypatch: pytest.MonkeyPatch) -> None:
    """Simple Colouring, C against Python, hit for hit, where every digit's strong links have
    two colours; where some have an odd cycle (9x9 noise) the core says so with its one hit
    (0, 0, 0) and the finder takes the Python search: the steps are the same either way."""
    every = [*states[::4], *noise_states(sweep(40, 300), seed=13), _odd_cycle()]
    for shape, count in ((Shape(2, 3), 10), (Shape(3, 3), sweep(30, 200)), (jigsaw_shape(), 10)):
        every += emptied_states(shape, count, seed=shape.ncells + 4)
    fired = odd = 0
    for i, cg in enumerate(every):
        want = list(single_digit._colour_hits(cg, range(1, cg.shape.n + 1)))
        got = list(_human._table(cg.shape).find(_human.COLOURING, 0, cg.masks, ()))
        if _two_colourable(cg):
            assert got == want, i
            fired += bool(want)
        else:
            assert got == [(0, 0, 0)], i
            odd += 1
    assert fired >= 10, fired
    assert odd >= 1, odd
    assert all(_two_colourable(cg) for cg in states)  # the path's states never have odd cycles
    fast = [step_key(single_digit.simple_colouring(cg.copy())) for cg in every]
    python_twins(monkeypatch)
    assert [step_key(single_digit.simple_colouring(cg.copy())) for cg in every] == fast
