"""Variant generation: killer, windoku, anti-knight/king, non-consecutive,
kropki, XV, parity and thermometers, alone and combined, on 4x4 to 9x9 (16x16 once).

Every puzzle's uniqueness is confirmed twice, independently of the engine that generated it:
by the other engine, and by OR-Tools CP-SAT on a model written from the rules' own words
(``cpsat_solutions`` of tests/support/variants.py; skipped without ortools). The rules
drawn from a solution are checked against that solution restated plainly here."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

import pytest
from click.testing import CliRunner

from sudokit import _backend, formats
from sudokit.cli.app import cli
from sudokit.errors import SudokuError
from sudokit.generator import (
    GeneratedPuzzle,
    derive_seed,
    generate,
    generate_many,
    random_jigsaw,
)
from sudokit.generator.variants import cage_layout
from sudokit.grid import Grid
from sudokit.shape import is_connected
from support.tiers import sweep
from support.variants import cpsat_solutions

GENERATING = _backend.engine().name


def _other_engine() -> str:
    if GENERATING == "python":
        try:
            _backend.get_engine("c")
        except ImportError:
            return "python"
        return "c"
    return "python"


CHECKING = _other_engine()


def unique_twice(p: GeneratedPuzzle, cpsat: bool = True, other: bool = True) -> bool:
    """One solution, the generator's: by the other engine, and by CP-SAT."""
    if other:
        found = _backend.get_engine(CHECKING).search(p.shape, p.puzzle.cells, 2, 1, 0)
        if not (found.count == 1 and found.complete and found.solutions[0] == p.solution.cells):
            return False
    if not p.solution.is_solution(p.puzzle):  # the rules restated by Grid, no engine
        return False
    return not cpsat or cpsat_solutions(p.puzzle, 2) == [p.solution.cells]


def no_given_removable(p: GeneratedPuzzle) -> bool:
    engine = _backend.get_engine(CHECKING)
    for i, v in enumerate(p.puzzle.cells):
        if v:
            work = bytearray(p.puzzle.cells)
            work[i] = 0
            if engine.search(p.shape, bytes(work), 2, 0, 0).count != 2:
                return False
    return True


def orthogonal(n: int) -> Iterable[tuple[int, int]]:
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                yield r * n + c, r * n + c + 1
            if r + 1 < n:
                yield r * n + c, (r + 1) * n + c


# -- every kind, alone, checked twice ---------------------------------------------------------

KINDS = ["killer", "windoku", "antiknight", "antiking", "nonconsecutive", "kropki", "xv"]
KINDS += ["parity", "thermo"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("size", [4, 6, 9])
def test_every_kind_unique_and_minimal(kind: str, size: int) -> None:
    if kind == "windoku" and size == 6:
        pytest.skip("windoku needs square boxes")
    if kind in ("antiking", "nonconsecutive") and size == 4:
        # no 4x4 grid keeps these rules: said at once, not after the search budget
        with pytest.raises(SudokuError, match=f"no 4x4 grid keeps the rules of this {kind}"):
            generate(4, seed=1, **{kind: True})  # type: ignore[arg-type]
        return
    # --any: the search builder's minimal puzzles (the default adds givens for the walk)
    puzzles = list(generate_many(3, seed=5, size=size, any_unique=True, **{kind: True}))  # type: ignore[arg-type]
    for p in puzzles:
        assert unique_twice(p)
        assert kind in p.shape.variant
        if kind == "nonconsecutive" and size == 9:
            # near-minimal by default (proving minimality there exceeds the budget)
            assert not p.minimal
            continue
        assert p.minimal
        assert no_given_removable(p)


@pytest.mark.parametrize(
    "rules",
    [
        {"killer": True, "windoku": True},
        {"killer": True, "antiknight": True},
        {"kropki": True, "xv": True, "thermo": True},
        {"parity": True, "antiking": True, "thermo": True},
        {"nonconsecutive": True, "xv": True},
        {"killer": True, "kropki": True, "parity": True, "thermo": True, "xv": True},
    ],
)
@pytest.mark.parametrize("size", [4, 6])
def test_rules_combine(rules: dict[str, bool], size: int) -> None:
    if rules.get("windoku") and size == 6:
        pytest.skip("windoku needs square boxes")
    if (rules.get("antiking") or rules.get("nonconsecutive")) and size == 4:
        pytest.skip("no 4x4 grid keeps anti-king or non-consecutive")
    for p in generate_many(3, seed=7, size=size, **rules):  # type: ignore[arg-type]
        assert unique_twice(p)
        rules_set = p.shape.constraints
        assert rules_set is not None
        assert bool(rules_set.cages) == bool(rules.get("killer"))
        assert p.shape.windoku == bool(rules.get("windoku"))


def test_jigsaw_and_x_killers() -> None:
    jig = random_jigsaw(6, random.Random(5))
    for p in generate_many(3, seed=2, shape=jig, killer=True):
        assert unique_twice(p)
        assert p.shape.regions == jig.regions
    for p in generate_many(3, seed=3, size=6, diagonals=True, killer=True):
        assert unique_twice(p)
        assert p.shape.diagonals
    for p in generate_many(2, seed=4, size=6, jigsaw=True, killer=True, antiking=True):
        assert unique_twice(p)
        assert p.shape.regions is not None
        assert p.shape.constraints is not None
        assert p.shape.constraints.antiking


def test_symmetric_killer_givens() -> None:
    for p in generate_many(4, seed=3, size=4, killer=True, symmetry="rot180"):
        assert unique_twice(p)
        cells = p.puzzle.cells
        assert all(bool(cells[i]) == bool(cells[15 - i]) for i in range(16))


@pytest.mark.slow
@pytest.mark.c_only  # a 16x16 killer takes the pure-Python reference minutes
def test_sixteen_killer() -> None:
    p = generate(16, killer=True, seed=1)
    # CP-SAT answers in ~1 s; the pure-Python reference needs minutes on a 16x16 killer
    pytest.importorskip("ortools")
    assert unique_twice(p, other=False)
    assert 60 <= len(p.shape.constraints.cages) <= 110  # type: ignore[union-attr]


# -- the drawn rules against the solution ----------------------------------------------------


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize("size", [4, 6, 9])
def test_killer_cages_look_published(size: int) -> None:
    sizes: Counter[int] = Counter()
    counts = []
    zero = 0
    for p in generate_many(10, seed=size, size=size, killer=True):
        rules = p.shape.constraints
        assert rules is not None
        sol = p.solution.cells
        covered = sorted(i for cage in rules.cages for i in cage.cells)
        assert covered == list(range(size * size))  # every cell in exactly one cage
        for cage in rules.cages:
            assert 2 <= len(cage.cells) <= min(5, size)  # no single-cell cages by default
            assert is_connected(cage.cells, size)
            assert len({sol[i] for i in cage.cells}) == len(cage.cells)
            assert cage.total == sum(sol[i] for i in cage.cells)
            sizes[len(cage.cells)] += 1
        counts.append(len(rules.cages))
        assert p.clues <= 4  # zero givens by default, a few at most when cages cannot do it
        zero += p.clues == 0
    if size == 9:
        assert 24 <= sum(counts) / len(counts) <= 32
        assert min(counts) >= 20
        assert max(counts) <= 36
        assert set(sizes) == {2, 3, 4, 5}
    # most killers have no givens at all (4x4 cages carry less: some need one or two)
    assert zero >= (4 if size == 4 else 8)


def test_cage_sizes_option() -> None:
    for p in generate_many(6, seed=1, size=6, killer=True, cage_sizes=(3, 4)):
        assert unique_twice(p)
        assert {len(c.cells) for c in p.shape.constraints.cages} <= {3, 4}  # type: ignore[union-attr]
    singles = [
        len(c.cells)
        for p in generate_many(6, seed=1, size=6, killer=True, cage_sizes=(1, 3))
        for c in p.shape.constraints.cages  # type: ignore[union-attr]
    ]
    assert 1 in singles
    assert max(singles) <= 3


def test_cage_layout_alone() -> None:
    rng = random.Random(4)
    solution = generate(9, seed=8).solution.cells
    for _ in range(20):
        cages = cage_layout(solution, 9, rng)
        if cages is None:
            continue
        assert sorted(i for c in cages for i in c) == list(range(81))
        assert all(2 <= len(c) <= 5 and is_connected(c, 9) for c in cages)


def test_dots_and_marks_are_every_one_of_the_solution() -> None:
    for p in generate_many(4, seed=9, size=6, kropki=True, xv=True, parity=True, thermo=True):
        rules = p.shape.constraints
        assert rules is not None
        sol = p.solution.cells
        white, black, x, v = set(rules.white), set(rules.black), set(rules.x), set(rules.v)
        for a, b in orthogonal(6):
            s, t = sol[a], sol[b]
            double = s == 2 * t or t == 2 * s
            assert ((a, b) in black) == double
            assert ((a, b) in white) == (abs(s - t) == 1 and not double)
            assert ((a, b) in x) == (s + t == 10)
            assert ((a, b) in v) == (s + t == 5)
        assert rules.kropki_negative
        assert rules.xv_negative
        assert rules.parity is not None
        marked = [i for i, m in enumerate(rules.parity) if m != "."]
        assert len(marked) == 18
        assert all((rules.parity[i] == "e") == (sol[i] % 2 == 0) for i in marked)
        assert rules.thermos
        for thermo in rules.thermos:
            assert 3 <= len(thermo) <= 6
            assert all(sol[a] < sol[b] for a, b in pairwise(thermo))


# -- reproducible -----------------------------------------------------------------------------


def test_reproducible_per_seed() -> None:
    run = list(generate_many(4, seed=11, size=6, killer=True, thermo=True))
    again = [generate(6, killer=True, thermo=True, seed=derive_seed(11, j)) for j in range(4)]
    assert [p.puzzle for p in run] == [p.puzzle for p in again]
    assert [p.shape for p in run] == [p.shape for p in again]
    assert len({p.shape for p in run}) == 4  # a fresh layout per puzzle


def test_non_killer_variants_are_the_same_on_both_engines() -> None:
    """Rules drawn without cages on a plain grid depend only on solution counts: both engines
    agree (rules on the shape bound each search, as jigsaws do, and then may differ)."""
    if CHECKING == GENERATING:
        pytest.skip("one engine only")
    for kind in ("kropki", "parity", "xv", "thermo"):
        a = generate(6, seed=3, backend="c", **{kind: True})  # type: ignore[arg-type]
        b = generate(6, seed=3, backend="python", **{kind: True})  # type: ignore[arg-type]
        assert a == b


@pytest.mark.slow
@pytest.mark.c_only  # 24 9x9 killers twice (nightly; 8 in the full tier): slow on the reference
def test_cli_killer_run_is_reproducible_and_unique() -> None:
    runner = CliRunner()
    count = sweep(8, 24)
    args = ["generate", "--killer", "-n", str(count), "--seed", "1", "--to", "jsonl"]
    first = runner.invoke(cli, args)
    second = runner.invoke(cli, [*args, "--jobs", "2"])
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    grids = formats.parse(first.output)
    assert len(grids) == count
    engine = _backend.get_engine(CHECKING)
    for j, g in enumerate(grids):
        assert isinstance(g, Grid)
        assert g.shape.constraints is not None
        if j < 6:  # the reference needs up to ~10 s on some 9x9 killers of a loaded machine
            assert engine.search(g.shape, g.cells, 2, 0, 0).count == 1
        assert len(cpsat_solutions(g, 2)) == 1
    records = [json.loads(line) for line in first.output.splitlines()]
    assert all(len(r["cages"]) >= 20 for r in records)
    assert sum(r["clues"] == 0 for r in records) >= count * 5 // 6


def test_cli_variants_default_to_json_lines() -> None:
    out = CliRunner().invoke(cli, ["generate", "--antiknight", "--size", "4", "--seed", "2"])
    assert out.exit_code == 0
    record = json.loads(out.output)
    assert record["antiknight"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--killer", "--to", "line"], "need a format that writes their rules, not 'line'"),
        (["--killer", "--clues", "20-22"], "cannot be combined with a pattern or a clue range"),
        (["--killer", "--cage-sizes", "4-2"], "cage sizes must be A-B with 1 <= A <= B"),
        (["--killer", "--cage-sizes", "two"], "--cage-sizes must look like A-B"),
        (["--killer", "--size", "4", "--cage-sizes", "5-6"], "do not fit a 4x4 grid"),
        (["--windoku", "--box", "2x3"], "windoku needs square boxes"),
        (["--windoku", "--jigsaw", "random", "--to", "json"], "cannot go with a jigsaw"),
        (["--killer", "--no-minimal"], "always remove every given they can"),
        (["--kropki", "--cage-sizes", "2-3"], "cage sizes are for killer cages"),
    ],
)
def test_cli_bad_variant_options(args: list[str], message: str) -> None:
    out = CliRunner().invoke(cli, ["generate", *args])
    assert out.exit_code == 2
    lines = out.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("sudokit: ")
    assert message in lines[0]


def test_api_refuses_drawn_rules_on_a_shape_that_has_them() -> None:
    caged = generate(4, killer=True, seed=1).shape
    with pytest.raises(SudokuError, match="already has cages or marks"):
        generate(shape=caged, killer=True, seed=1)
    # a shape with its own cages gets givens by the classic pipeline instead
    p = generate(shape=caged, seed=2)
    assert unique_twice(p)
    assert p.shape == caged


# -- difficulty (the variant scale of sudokit.rate) ------------------------------------------


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize(("size", "level"), [(6, "easy"), (9, "easy"), (9, "medium")])
def test_killer_difficulty_target(size: int, level: str) -> None:
    """The level asked for is the level ``rate`` gives, and the generator's early-stopping
    walk reports the same number as the full rating."""
    from sudokit import rate

    for p in generate_many(2 if size < 9 else 1, seed=4, size=size, killer=True, difficulty=level):
        r = rate(p.puzzle)
        assert r.level == level
        assert r.se == p.se
        assert unique_twice(p, cpsat=False)


def test_kropki_rating_window() -> None:
    from sudokit import rate

    p = generate(9, kropki=True, rating=(1.0, 2.3), seed=2)
    assert p.se is not None
    assert 1.0 <= p.se <= 2.3
    assert rate(p.puzzle).se == p.se
