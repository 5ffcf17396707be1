"""The C uniqueness finders (csrc/sk_uniq.c, ``_core.Uniq``) give exactly what their Python
specification (:mod:`sudokit.logic.uniqueness`) gives.

* Unique rectangles / loops: ``Uniq.steps`` equals ``uniqueness._ur_finds`` find by find (the
  loop, its kind, the unit, the set, the eliminations, in order), for full searches and for
  the incremental ones (a delta from an earlier state, as ``_delta.Since`` makes it), on the
  easiest-first path states of shipped puzzles (the rating path's own calls), thinned copies
  of them, and random states of 4x4, 6x6, 8x8, 9x9, 16x16, 36x36, 64x64 (masks beyond 32
  bits) and a 9x9 jigsaw; the steps built
  from them (text included) are the same with ``SUDOKIT_BACKEND=python``.
* BUG: ``Uniq.bug_extras`` equals ``uniqueness._bug_extras_py`` on the same states and on
  near-BUG states.
* Bad arguments get an exception, never a crash.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import support
from sudokit.grid import Grid
from sudokit.logic import uniqueness
from sudokit.logic._delta import Delta, Since
from sudokit.logic.candidates import CandidateGrid, bits
from sudokit.shape import Shape
from support.states import first_solution, path_walk, pattern_solved, plant, random_states, thinned

DATA = support.DATA

try:
    from sudokit import _core

    HAVE_UNIQ = hasattr(_core, "Uniq")
except ImportError:
    HAVE_UNIQ = False

pytestmark = pytest.mark.skipif(not HAVE_UNIQ, reason="the C core (with Uniq) is not built")


def _c_finds(cg: CandidateGrid, delta: Delta | None) -> list[uniqueness._Find]:
    core = uniqueness._c_uniq_for(cg.shape)
    if delta is None:
        raw = core.steps(cg.masks, None, None)
    else:
        nbytes = (cg.shape.ncells + 7) // 8
        raw = core.steps(cg.masks, delta.cells.to_bytes(nbytes, "little"), delta.before)
    return [uniqueness._Find._make(t) for t in raw]


def _delta(before: CandidateGrid, after: CandidateGrid) -> Delta | None:
    since = Since()
    since.found_nothing(before)
    return since.changed(after)


def _compare(states: list[CandidateGrid], rng: random.Random) -> dict[tuple[int, int], int]:
    """Asserts both backends' finds are equal on every state (full search) and from each
    state's predecessor and from a random earlier state (incremental); the kinds seen."""
    kinds: dict[tuple[int, int], int] = {}
    for i, cg in enumerate(states):
        py = list(uniqueness._ur_finds(cg, None))
        assert _c_finds(cg, None) == py, f"state {i}"
        for f in py:
            kinds[f.kind, f.hidden] = kinds.get((f.kind, f.hidden), 0) + 1
        for j in (i - 1, rng.randrange(len(states))):
            if j < 0 or states[j].shape is not cg.shape:
                continue
            delta = _delta(states[j], cg)
            assert _c_finds(cg, delta) == list(uniqueness._ur_finds(cg, delta)), f"{j} -> {i}"
    return kinds


def _puzzles() -> list[str]:
    text = (DATA / "logic_puzzles.txt").read_text()
    return [ln.split()[0] for ln in text.splitlines() if ln and ln[0] != "#"]


@pytest.fixture(scope="module")
def path_states() -> list[CandidateGrid]:
    """The path states of 14 shipped puzzles and thinned copies of every third."""
    rng = random.Random(16)
    out: list[CandidateGrid] = []
    for puzzle in _puzzles()[:14]:
        walk = path_walk(puzzle)
        out.extend(walk)
        out.extend(thinned(cg, rng, 0.3) for cg in walk[::3])
    return out


@pytest.mark.slow
def test_finds_equal_on_path_states(path_states: list[CandidateGrid]) -> None:
    kinds = _compare(path_states, random.Random(1))
    assert sum(kinds.values()) >= 20, kinds
    assert {(1, 0), (2, 0), (4, 0)} <= set(kinds), kinds


def _jigsaw() -> tuple[Shape, Grid]:
    for line in (DATA / "corpus.txt").read_text().splitlines():
        options, _, rest = line.partition(";")
        if options.startswith("jigsaw=") and len(options) == 7 + 81 and rest.count(":") == 2:
            shape = Shape.jigsaw(options[7:])
            return shape, Grid.parse(rest.split(":")[2], shape)
    raise AssertionError("no 9x9 jigsaw with a solution in corpus.txt")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "solved_share"), [("6x6", 0.7), ("8x8", 0.9)])
def test_finds_equal_beyond_32_digits(name: str, solved_share: float) -> None:
    """36x36 and 64x64 states whose extra candidates are mostly digits 33..64 (masks, pattern
    digits, type 2's digit, type 3's sets and type 4's kept digit above 32 bits) and units of
    more than 32 cells; BUG cells too."""
    shape = Shape.parse_box(name)
    rng = random.Random(shape.n)
    solution = pattern_solved(shape, rng)
    n = shape.n
    states = []
    for _ in range(4):
        values, masks = [], []
        for v in solution.cells:
            if rng.random() < solved_share:
                values.append(v)
                masks.append(0)
                continue
            m = 1 << (v - 1)
            for _ in range(rng.choice((1, 1, 2, 3))):
                m |= 1 << rng.randrange(n // 2 if rng.random() < 0.8 else 0, n)
            values.append(0)
            masks.append(m)
        for _ in range(rng.randrange(2, 6)):
            plant(shape, values, masks, rng)
        states.append(CandidateGrid.from_masks(shape, values, masks))
    kinds = _compare(states, random.Random(1))
    assert {(1, 0), (3, 1), (4, 0)} <= set(kinds), kinds
    core = uniqueness._c_uniq_for(shape)
    assert [core.bug_extras(cg.masks) for cg in states] == [
        uniqueness._bug_extras_py(cg) for cg in states
    ]


@pytest.mark.parametrize(
    ("name", "count"),
    [("2x2", 60), ("2x3", 60), ("2x4", 40), ("3x3", 40), ("4x4", 6), ("jigsaw", 40)],
)
def test_finds_equal_on_random_states(name: str, count: int) -> None:
    if name == "jigsaw":
        shape, solution = _jigsaw()
    else:
        shape = Shape.parse_box(name)
        solution = first_solution(shape)
    states = random_states(shape, solution, count, seed=len(name) + count)
    kinds = _compare(states, random.Random(2))
    if shape.n >= 8:
        assert sum(kinds.values()) >= 10, kinds


def test_every_kind_is_compared() -> None:
    # the hidden-set type 3 and the loops are rare on path states: 9x9 random states have them
    shape = Shape.parse_box("3x3")
    states = random_states(shape, first_solution(shape), 80, seed=9)
    kinds = _compare(states, random.Random(3))
    assert {(1, 0), (2, 0), (3, 0), (3, 1), (4, 0)} <= set(kinds), kinds
    loops = {len(f.cells) for cg in states for f in uniqueness._ur_finds(cg, None)}
    assert {4, 6} <= loops, loops


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_finds_equal_on_a_dense_room() -> None:
    # 8x8: the cells whose solution is 1 or 2 hold {1, 2}, those of 3 hold {1, 2, 3}, the rest
    # are solved: every unit holds three cells of the room, the walk's worst kind of state
    # (the C walk prunes paths with two cells of one parity in a unit: it must lose nothing)
    shape = Shape.parse_box("2x4")
    solution = first_solution(shape)
    masks = [{1: 3, 2: 3, 3: 7}.get(v, 0) for v in solution.cells]
    values = [0 if m else v for m, v in zip(masks, solution.cells, strict=True)]
    cg = CandidateGrid.from_masks(shape, values, masks)
    py = list(uniqueness._ur_finds(cg, None))
    assert _c_finds(cg, None) == py
    assert len(py) >= 5


def _step_keys(cg: CandidateGrid) -> list[tuple[object, ...]]:
    return [
        (s.technique, s.rating, s.eliminations, s.text, s.cells, s.highlights)
        for s in uniqueness._ur_steps(cg.copy(), None)
    ]


def test_steps_equal_between_backends(
    path_states: list[CandidateGrid], monkeypatch: pytest.MonkeyPatch
) -> None:
    shape = Shape.parse_box("3x3")
    states = path_states[::2] + random_states(shape, first_solution(shape), 30, seed=4)
    with_c = [_step_keys(cg) for cg in states]
    support.python_twins(monkeypatch)
    assert uniqueness._c_uniq(shape) is None
    assert [_step_keys(cg) for cg in states] == with_c
    assert sum(map(len, with_c)) >= 20


def _near_bug(cg: CandidateGrid, rng: random.Random) -> CandidateGrid:
    """*cg* with every cell cut to its two lowest candidates, one cell in twenty to three."""
    masks = [
        sum(1 << (d - 1) for d in bits(m)[: 3 if rng.random() < 0.05 else 2]) for m in cg.masks
    ]
    return CandidateGrid(cg.shape, cg.values[:], masks)


def _bug_states(path_states: list[CandidateGrid]) -> Iterator[CandidateGrid]:
    rng = random.Random(7)
    yield from path_states
    yield from (_near_bug(cg, rng) for cg in path_states)
    for box in ("2x2", "2x3", "3x3"):
        shape = Shape.parse_box(box)
        for cg in random_states(shape, first_solution(shape), 20, seed=5):
            yield cg
            yield _near_bug(cg, rng)


def test_bug_extras_equal(path_states: list[CandidateGrid]) -> None:
    states = list(_bug_states(path_states))
    py = [uniqueness._bug_extras_py(cg) for cg in states]
    core = [uniqueness._c_uniq_for(cg.shape).bug_extras(cg.masks) for cg in states]
    assert core == py
    assert sum(e is not None for e in py) >= 5


def test_bad_arguments_raise() -> None:
    shape = Shape.parse_box("2x2")
    core = uniqueness._c_uniq_for(shape)
    good = [0b1111] * 16
    with pytest.raises(ValueError, match="masks must hold 16"):
        core.steps(good[:5], None, None)
    with pytest.raises(ValueError, match=r"masks\[3\] must be in 0..15"):
        core.steps([1, 2, 3, 16, *good[4:]], None, None)
    with pytest.raises(TypeError):
        core.steps([1.5] * 16, None, None)
    with pytest.raises(ValueError, match="changed must be None or 2 bytes"):
        core.steps(good, b"\x01", tuple(good))
    with pytest.raises(ValueError, match="before must hold 16"):
        core.steps(good, b"\x01\x00", (1, 2))
    with pytest.raises(ValueError, match="masks must hold 16"):
        core.bug_extras([1])
    with pytest.raises(ValueError, match="n must be in"):
        _core.Uniq(65, [], [], [], [])
    with pytest.raises(ValueError, match="cell_units must hold 16"):
        _core.Uniq(4, shape.units, shape.cell_units[:3], [0] * 12, shape.peers)
    with pytest.raises(ValueError, match="lists unit"):
        _core.Uniq(4, shape.units, [(1,)] * 16, [0] * 12, shape.peers)
    with pytest.raises(ValueError, match="kinds must hold 12"):
        _core.Uniq(4, shape.units, shape.cell_units, [0], shape.peers)
    with pytest.raises(ValueError, match="ascending"):
        _core.Uniq(4, shape.units, shape.cell_units, [0] * 12, [tuple(range(16))] * 16)
    fresh = _core.Uniq.__new__(_core.Uniq)
    with pytest.raises(ValueError, match="not initialised"):
        fresh.steps(good, None, None)
    with pytest.raises(ValueError, match="kinds must hold 12"):
        fresh.__init__(4, shape.units, shape.cell_units, [0], shape.peers)
    fresh.__init__(4, shape.units, shape.cell_units, [0] * 12, shape.peers)  # now it can
    assert fresh.steps(good, None, None) == core.steps(good, None, None)
    with pytest.raises(TypeError, match="already initialised"):
        fresh.__init__(4, shape.units, shape.cell_units, [0] * 12, shape.peers)


def test_a_unit_listing_a_cell_twice_is_refused() -> None:
    """A unit is copied into scratch of one slot per cell: one listing a cell again (so it
    could hold more items than the grid has cells) is refused, never read past its end. With
    this unit and state, the type 3 search of row 0 used to write past the scratch (ASan)."""
    shape = Shape.parse_box("2x2")
    units = [list(u) for u in shape.units]
    units[units.index([0, 1, 2, 3])] = [0, 1, 2, 3] * 20
    kinds = {k: i for i, k in enumerate(dict.fromkeys(shape.unit_kinds))}
    kind_ids = [kinds[k] for k in shape.unit_kinds]
    with pytest.raises(ValueError, match=r"units\[\d+\] lists cell 0 twice"):
        _core.Uniq(4, units, shape.cell_units, kind_ids, shape.peers)
    units[0] = [*shape.units[0], shape.units[0][0]]
    with pytest.raises(ValueError, match="twice"):
        _core.Uniq(4, units, shape.cell_units, kind_ids, shape.peers)


def test_more_than_96_shared_units() -> None:
    """Two cells may share any number of units (sk_uniq.c kept 96 and dropped the rest
    silently). A 9x9 shape with 120 more copies of one row gives every type 3 and 4 step in
    that row once more per copy (the copy as its unit), and the other steps unchanged."""
    shape = Shape.parse_box("3x3")
    base = uniqueness._c_uniq_for(shape)
    states = random_states(shape, first_solution(shape), 200, seed=96)
    rows = {u for u, kind in enumerate(shape.unit_kinds) if kind == shape.unit_kinds[0]}
    all_finds = [(cg, base.steps(cg.masks, None, None)) for cg in states]
    picked = [(cg, fs) for cg, fs in all_finds if any(f[2] in (3, 4) and f[5] in rows for f in fs)]
    assert len(picked) >= 3
    kinds = {k: i for i, k in enumerate(dict.fromkeys(shape.unit_kinds))}
    kind_ids = [kinds[k] for k in shape.unit_kinds]
    copies = 120
    for cg, finds in picked[:3]:
        row = next(f[5] for f in finds if f[2] in (3, 4) and f[5] in rows)
        units = [*shape.units, *[shape.units[row]] * copies]
        extra = range(len(shape.units), len(units))
        cell_units = [(*cu, *extra) if row in cu else cu for cu in shape.cell_units]
        wide = _core.Uniq(9, units, cell_units, [*kind_ids, *[kind_ids[row]] * copies], shape.peers)
        expected = list(finds)
        for f in finds:
            if f[2] in (3, 4) and f[5] == row:
                expected += [(*f[:5], u, *f[6:]) for u in extra]
        got = wide.steps(cg.masks, None, None)
        assert sorted(got) == sorted(expected)
        assert len(got) > len(finds) + 96
