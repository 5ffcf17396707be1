"""solve_many's fast path (the Python layer once added ~2.7 µs a puzzle): one native call a chunk,
lazy result grids, limit 1.

The C engine reads a chunk's plain lines and Grids itself (``_core.search_items``) and builds
the results; everything else goes the general way (``solver._solve_parsed``: Grid.parse, then
the batch call by shape). The general way is the specification: every test here holds the fast
path to it, field by field (status, count, guesses, complete, error text, puzzle, solution,
order), and to the pure-Python reference where the reference is fast enough.
"""

from __future__ import annotations

import gc
import logging
import pickle
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudokit
from sudokit import Grid, Shape, SolveResult, Status, solve, solve_many, solver
from sudokit._backend import Engine, get_engine
from sudokit.transform import random_isomorph
from support import C_ERROR, CORPUS
from support.tiers import examples

NINE = Shape(3, 3)
UNIQUE = next(c for c in CORPUS if c.shape == NINE and c.count == 1 and not c.invalid)
TWELVE = next(c for c in CORPUS if c.shape == NINE and c.count == 12)
SIXTEEN = next(c for c in CORPUS if c.shape.n == 16 and c.count == 1 and not c.invalid)
FOUR = next(c for c in CORPUS if c.shape == Shape(2, 2) and c.count == 1)
#: Sampled per benchmark set: against the general path, and against the reference.
GENERAL_SAMPLE = 150
REFERENCE_SAMPLE = 3
SETS = ["17clue_49158", "top1465", "forum_hardest_1905_11plus", "forum_hardest_1106", "serg"]
SETS += ["top95", "kaggle_1k", "easy50", "hardest"]

c_only = pytest.mark.skipif(C_ERROR is not None, reason=f"C engine not available: {C_ERROR}")
#: The engine of the fast path (C), or the reference where C is not built.
ENGINE = get_engine("python" if C_ERROR is not None else "c")


def fields(r: SolveResult) -> tuple[object, ...]:
    """Everything a result says, grids as text (so a mismatch prints readably)."""
    puzzle = None if r.puzzle is None else (str(r.puzzle), r.puzzle.shape)
    solution = None if r.solution is None else str(r.solution)
    return (puzzle, r.status, solution, r.count, r.guesses, r.complete, r.error)


def general(
    items: Sequence[object],
    engine: Engine,
    *,
    limit: int = 2,
    budget: int | None = None,
    shape: Shape | None = None,
) -> list[SolveResult]:
    """The general path on *items* (the specification of the fast one), default budgets
    those of *engine*."""
    saved = solver.engine
    try:
        solver.engine = lambda: engine
        return solver._solve_parsed(engine, items, limit, budget, 1, shape)  # type: ignore[arg-type]
    finally:
        solver.engine = saved


def fast(items: Sequence[object], *, chunk: int | None = None, **kw: object) -> list[SolveResult]:
    """solve_many on the C engine when it is built (else the reference: the general path
    through solve_many), its chunk size shrunk to *chunk* when given."""
    saved = solver.CHUNK, solver.engine
    try:
        if chunk is not None:
            solver.CHUNK = chunk
        solver.engine = lambda: ENGINE
        return list(solve_many(items, **kw))  # type: ignore[arg-type]
    finally:
        solver.CHUNK, solver.engine = saved


def sample(path: Path, k: int) -> list[str]:
    """*k* lines of a set, drawn with a seed of its name (the same on every run)."""
    lines = [ln.strip() for ln in path.read_text().splitlines() if ln.strip()]
    return random.Random(path.stem).sample(lines, min(k, len(lines)))


@pytest.fixture
def c_engine() -> Engine:
    if C_ERROR is not None:
        pytest.skip(f"C engine not available: {C_ERROR}")
    return ENGINE


# -- the benchmark sets: fast path == general path == reference ------------------------------


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("limit", [1, 2])
def test_benchmark_set_sample(name: str, limit: int, shared_data: Path, c_engine: Engine) -> None:
    path = shared_data / f"{name}.txt"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    lines = sample(path, GENERAL_SAMPLE)
    got = fast(lines, limit=limit, chunk=64)
    assert [fields(r) for r in got] == [fields(r) for r in general(lines, c_engine, limit=limit)]
    for r in got:
        assert r.solution is not None
        assert r.solution.is_solution(r.puzzle)
        expected = Status.SOLVED if limit == 1 else Status.MULTIPLE if name == "serg" else None
        assert r.status is (expected or Status.UNIQUE)
    reference = get_engine("python")
    few = lines[:REFERENCE_SAMPLE]
    for r, ref in zip(got, general(few, reference, limit=limit, budget=0), strict=False):
        assert (r.status, r.count, r.puzzle) == (ref.status, ref.count, ref.puzzle)
        if r.status is Status.UNIQUE:
            assert r.solution == ref.solution


# -- bad and mixed inputs: nothing lost, one result (and one error) per item -----------------


def mixed_items() -> list[object]:
    """Every kind of item solve_many meets, good and bad, in one list."""
    p, s16 = str(UNIQUE.puzzle), str(SIXTEEN.puzzle)
    no_solution = "......34...23..."
    grid_other = Grid.parse(str(p), Shape.from_size(9, diagonals=True))

    class Text(str):
        __slots__ = ()

    class SubGrid(Grid):
        __slots__ = ()

    return [
        p,
        "  \t" + p + "\r\n",  # surrounding white space: stripped
        "\x1c" + p + "\x0b",  # what str.strip() strips besides spaces
        "\u00a0" + p + "\u2003",  # Unicode white space: the general path strips it
        p[:40] + "\n" + p[40:],  # a line break inside: a picture of two rows, not one line
        p[:40] + " " + p[40:],  # a space inside
        p.replace(".", "0"),
        p.replace(".", "_").replace("3", "*", 1),  # '*' is a blank too
        "1" * 81,  # conflicting givens
        "11" + "." * 79,
        p[:80],
        p + "1",
        p[:80] + "x",  # a symbol out of place
        p[:80] + "\u00e9",  # non-ASCII
        "",
        "   ",
        "\n",
        "|".join(p[i : i + 9] for i in range(0, 81, 9)),  # separators: the picture reader
        ",".join(p.replace(".", "0")),  # separated integers
        s16,
        s16.lower(),  # letters in either case on 16x16
        no_solution,
        str(TWELVE.puzzle),
        Text(p),  # a str subclass: the general path
        UNIQUE.puzzle,
        SubGrid(UNIQUE.puzzle.cells, NINE),  # a Grid subclass: the general path
        grid_other,  # another shape (Sudoku-X) with the same cells
        SIXTEEN.puzzle,
        FOUR.puzzle,
        b"not text",
        None,
        3,
        p,
    ]


@pytest.mark.parametrize("limit", [1, 2, 3])
@pytest.mark.parametrize("chunk", [1, 4, 256])
def test_mixed_items_match_the_general_path(limit: int, chunk: int) -> None:
    items = mixed_items()
    got = fast(items, limit=limit, chunk=chunk)
    want = general(items, ENGINE, limit=limit)
    assert len(got) == len(items)
    assert [fields(r) for r in got] == [fields(r) for r in want]
    for r in got:
        assert (r.status is Status.INVALID) == (r.error is not None and r.complete)
        if r.status is Status.INVALID:
            assert r.error
            assert r.solution is None


def test_bad_items_give_their_own_messages() -> None:
    results = fast(mixed_items())
    by_item = dict(zip(map(repr, mixed_items()), results, strict=True))
    assert by_item[repr("1" * 81)].error == (
        "conflicting givens: 1 9 times in row 1 (r1c1, r1c2, r1c3, r1c4, r1c5, r1c6, r1c7, "
        "r1c8, r1c9); 1 9 times in row 2 (r2c1, r2c2, r2c3, r2c4, r2c5, r2c6, r2c7, r2c8, "
        "r2c9); 1 9 times in row 3 (r3c1, r3c2, r3c3, r3c4, r3c5, r3c6, r3c7, r3c8, r3c9); "
        "and 24 more"
    )
    assert "unexpected character 'x'" in (by_item[repr(str(UNIQUE.puzzle)[:80] + "x")].error or "")
    expected = "expected a Grid, text or cell values (rows, a list, an array), got "
    assert by_item[repr(None)].error == expected + "NoneType"
    assert by_item[repr(b"not text")].error == expected + "bytes"
    assert by_item[repr("")].error == "expected a puzzle, got no cells"
    assert by_item[repr("......34...23...")].status is Status.NONE


def test_gave_up_and_incomplete_multiple_match() -> None:
    # budget 1: hard puzzles give up (some after finding one solution), easy ones do not
    # need a guess, empty grids find 2 solutions before the budget runs out.
    lines = [c.puzzle.to_line() for c in CORPUS if c.shape == NINE][:40] + ["." * 81] * 3
    for limit in (1, 2, 5):
        got = fast(lines, limit=limit, budget=1)
        want = general(lines, ENGINE, limit=limit, budget=1)
        assert [fields(r) for r in got] == [fields(r) for r in want]
        assert any(r.status is Status.GAVE_UP for r in got)
        for r in got:
            if r.status is Status.GAVE_UP:
                assert r.error == f"gave up after {r.guesses} guesses (budget 1)"


def test_shape_argument_and_grids() -> None:
    jig = next(c for c in CORPUS if c.shape.variant == "jigsaw" and c.count == 1)
    items: list[object] = [str(jig.puzzle), jig.puzzle, str(jig.puzzle).lower(), UNIQUE.puzzle]
    got = fast(items, shape=jig.shape)
    assert [fields(r) for r in got] == [fields(r) for r in general(items, ENGINE, shape=jig.shape)]
    assert got[0].solution == got[1].solution == jig.solution
    assert got[3].solution == UNIQUE.solution  # a Grid keeps its own shape


@settings(max_examples=examples(150), deadline=None)
@given(
    edits=st.lists(
        st.tuples(st.integers(0, 90), st.sampled_from(list(" \t\r\n\x0b\x1c.0123456789*_-xAg|,"))),
        max_size=3,
    ),
    cut=st.integers(0, 3),
)
def test_edited_lines_match_the_general_path(edits: list[tuple[int, str]], cut: int) -> None:
    """Random edits of a line (insertions of blanks, symbols, white space, separators, cut
    ends): whatever the fast reader takes it must read as Grid.parse does."""
    if C_ERROR is not None:
        pytest.skip("C engine not available")
    text = str(UNIQUE.puzzle)
    for pos, ch in edits:
        text = text[:pos] + ch + text[pos:]
    text = text[: len(text) - cut]
    got = fast([text, text.strip()], limit=2)
    want = general([text, text.strip()], ENGINE)
    assert [fields(r) for r in got] == [fields(r) for r in want]


def test_jobs_and_chunks_keep_order() -> None:
    lines = [str(random_isomorph(UNIQUE.puzzle, random.Random(i))) for i in range(300)]
    lines[7] = "bad"
    lines[150] = "1" * 81
    one = [fields(r) for r in fast(lines, jobs=1)]
    assert [fields(r) for r in fast(lines, jobs=2, chunk=16)] == one
    assert [fields(r) for r in fast(lines, jobs=0, chunk=1)] == one
    assert [r[1] for r in one].count(Status.INVALID) == 2


# -- lazy results: the same values as eager ones ---------------------------------------------


def eager(r: SolveResult) -> SolveResult:
    """The same result built through the public constructor, grids and all."""
    return SolveResult(r.puzzle, r.status, r.solution, r.count, r.guesses, r.complete, r.error)


def test_lazy_results_equal_eager_ones() -> None:
    for r, again in zip(fast(mixed_items()), fast(mixed_items()), strict=True):
        e = eager(r)
        assert r == e
        assert e == again
        assert r == again
        assert hash(r) == hash(e) == hash(again)
        assert repr(r) == repr(e) == repr(again)
        assert r.is_unique is e.is_unique
        twin = pickle.loads(pickle.dumps(again))
        assert twin == r
        assert type(twin) is SolveResult
        assert fields(twin) == fields(r)
    r = fast([str(UNIQUE.puzzle)])[0]
    assert r.solution is r.solution
    assert r.puzzle is r.puzzle
    assert r != fast([str(TWELVE.puzzle)])[0]
    assert (r == 3) is False


def test_lazy_results_are_frozen_and_match_patterns() -> None:
    r = fast([str(UNIQUE.puzzle)])[0]
    with pytest.raises(AttributeError):
        r.status = Status.NONE  # type: ignore[misc]
    with pytest.raises(AttributeError):
        r.solution = None  # type: ignore[misc]
    match r:
        case SolveResult(puzzle, Status.UNIQUE, solution, 1):
            assert puzzle == UNIQUE.puzzle
            assert solution == UNIQUE.solution
        case _:
            pytest.fail("no match")


@c_only
def test_fast_results_are_not_tracked_by_the_collector() -> None:
    lines = [str(UNIQUE.puzzle)] * 10
    results = fast(lines)
    assert not any(gc.is_tracked(r) for r in results)
    assert all(gc.is_tracked(r) for r in general(lines, ENGINE))  # built in Python
    for r in results:  # the grids read later do not make them part of a cycle
        assert r.solution is not None
        assert r.puzzle is not None
    gc.collect()
    assert [r.solution for r in results] == [UNIQUE.solution] * 10


# -- limit 1 ---------------------------------------------------------------------------------


def test_limit_one(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """limit 1 on both engines: a solution, status solved, never a uniqueness claim."""
    monkeypatch.setattr(solver, "engine", lambda: engine)
    items: list[object] = [str(UNIQUE.puzzle), str(TWELVE.puzzle), "1" * 81, "......34...23..."]
    got = list(solve_many(items, limit=1))
    assert [r.status for r in got] == [Status.SOLVED, Status.SOLVED, Status.INVALID, Status.NONE]
    assert [r.count for r in got] == [1, 1, 0, 0]
    assert got[0].solution == UNIQUE.solution
    assert got[1].solution is not None
    assert got[1].solution.is_solution(TWELVE.puzzle)
    assert not got[0].is_unique
    for item, r in zip(items, got, strict=True):
        assert fields(solve(item, limit=1)) == fields(r)  # type: ignore[arg-type]


# -- the Python fallback backend -------------------------------------------------------------


def test_both_engines_agree_through_solve_many(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference takes no item itself: solve_many on it is the general path, and gives the
    C engine's answers (guesses aside: a diagnostic)."""
    items = mixed_items()
    out = {}
    for name in ["python"] if C_ERROR is not None else ["python", "c"]:
        monkeypatch.setattr(solver, "engine", lambda name=name: get_engine(name))
        out[name] = list(solve_many(items, limit=2, budget=0))
        assert [fields(r) for r in out[name]] == [
            fields(r) for r in general(items, get_engine(name), budget=0)
        ]
    if "c" in out:
        for a, b in zip(out["python"], out["c"], strict=True):
            assert (a.puzzle, a.status, a.count, a.complete, a.error) == (
                b.puzzle,
                b.status,
                b.count,
                b.complete,
                b.error,
            )
            if a.status is Status.UNIQUE:
                assert a.solution == b.solution


# -- the binding: arguments checked, nothing trusted -----------------------------------------


class Planted(SolveResult):
    """A record class with another class's slot planted on it (the core writes slots by
    their offsets: one of another layout must be refused, not written)."""

    __slots__ = ()


Planted._puzzle = Grid.__dict__["cells"]  # type: ignore[assignment]


class ReadOnly(property):
    """A class whose ``fget`` is a member of a kind the core does not write (read-only)."""


def test_search_items_arguments(c_engine: Engine) -> None:
    from sudokit import _cengine, _core

    geo = _cengine.geometry(NINE)
    spec = (SolveResult, solver._FIELDS, (None, Status.UNIQUE, Status.MULTIPLE))
    line = str(UNIQUE.puzzle)
    table = bytes(range(10)) + bytes([255] * 246)  # cell values by byte: not the line table
    ok = (geo, NINE, (line,), None, Grid, 2, 0, 1, spec)
    assert _core.search_items(*ok) == ([None], [], [0])  # no table: no line is read
    bad: list[tuple[tuple[object, ...], type[Exception], str]] = [
        (ok[:8], TypeError, "takes 9 arguments"),
        ((None, *ok[1:]), TypeError, "geometry must be"),
        ((geo, NINE, [line], *ok[3:]), TypeError, "items must be a tuple"),
        ((geo, NINE, (line,), b"x", *ok[4:]), TypeError, "table must be 256 bytes"),
        ((geo, NINE, (line,), bytes(255) + b"\x0a", *ok[4:]), ValueError, "table maps 255 to 10"),
        ((*ok[:4], 3, *ok[5:]), TypeError, "grid_type must be"),
        ((*ok[:5], 0, *ok[6:]), ValueError, "limit must be >= 1"),
        ((*ok[:6], -1, *ok[7:]), ValueError, "budget must be >= 0"),
        ((*ok[:8], (SolveResult, solver._FIELDS)), TypeError, "record must be a tuple"),
        ((*ok[:8], (3, solver._FIELDS, spec[2])), TypeError, "record[0] must be a class"),
        ((*ok[:8], (SolveResult, solver._FIELDS, (None,))), TypeError, "record[2]"),
        ((*ok[:8], (SolveResult, solver._FIELDS[:7], spec[2])), TypeError, "record[1]"),
        ((*ok[:8], (SolveResult, ("puzzle", *solver._FIELDS[1:]), spec[2])), TypeError, "slot"),
        ((*ok[:8], (Grid, solver._FIELDS, spec[2])), TypeError, "not a slot of"),
        ((*ok[:8], (Planted, solver._FIELDS, spec[2])), TypeError, "'_puzzle' is not a slot"),
        ((*ok[:8], (ReadOnly, ("fget",) * 8, spec[2])), TypeError, "'fget' is not a slot"),
    ]
    for args, exc, message in bad:
        with pytest.raises(exc, match=re.escape(message)):
            _core.search_items(*args)
    # A table giving raw values reads cells written as bytes 0..9 (the caller's contract).
    [r], rest, pending = _core.search_items(
        geo, NINE, ("".join(map(chr, UNIQUE.puzzle.cells)),), table, None, 2, 0, 1, spec
    )
    assert (rest, pending, r.solution) == ([], [], UNIQUE.solution)


def test_search_items_grid_items_are_read_not_trusted(c_engine: Engine) -> None:
    """A Grid item whose cells break the Grid's own rules (forced in) is left to the caller."""
    from sudokit import _cengine, _core

    spec = (SolveResult, solver._FIELDS, (None, Status.UNIQUE, Status.MULTIPLE))
    broken = Grid.parse(str(UNIQUE.puzzle))
    object.__setattr__(broken, "cells", bytes([10]) * 81)
    short = Grid.parse(str(UNIQUE.puzzle))
    object.__setattr__(short, "cells", bytes(80))
    other = Grid.parse(str(UNIQUE.puzzle))
    object.__setattr__(other, "cells", "not bytes")
    geo = _cengine.geometry(NINE)
    items = (broken, short, other, UNIQUE.puzzle)
    found, rest, pending = _core.search_items(geo, NINE, items, None, Grid, 2, 0, 2, spec)
    assert pending == [0, 1, 2]
    assert rest == []
    assert found[3] is not None
    assert found[3].puzzle is UNIQUE.puzzle


def test_public_status() -> None:
    assert Status("solved") is Status.SOLVED
    assert sudokit.Status is Status


def test_which_items_the_core_reads(c_engine: Engine) -> None:
    """The core takes plain 9x9 lines (white space around them stripped as str.strip() does)
    and 9x9 Grids, and leaves everything else to the general path; conflicting givens come
    back searched, for Python to name them."""
    from sudokit import _cengine, _core

    spec = (SolveResult, solver._FIELDS, (None, Status.UNIQUE, Status.MULTIPLE))
    table = _cengine.digit_table(9)
    items = tuple(mixed_items())
    found, rest, pending = _core.search_items(
        _cengine.geometry(NINE), NINE, items, table, Grid, 2, 0, 1, spec
    )
    taken = [0, 1, 2, 6, 7, 8, 9, 22, 24, 32]
    assert pending == [k for k in range(len(items)) if k not in taken]
    assert [r[0] for r in rest] == [8, 9]
    assert [k for k, r in enumerate(found) if r is not None] == [0, 1, 2, 6, 7, 22, 24, 32]
    assert found[24] is not None
    assert found[24].puzzle is items[24]  # a Grid item is kept, not copied


# -- the fixed cost of a call: one-item calls, the chunk log ---------------------------------


@pytest.mark.parametrize("limit", [1, 2])
def test_one_item_calls_in_turn_match_the_general_path(limit: int) -> None:
    """The per-call path on its own, one item a call, shapes in turn: the default shape of a
    cell count is taken from a cache (and its geometry found by identity), so a call after a
    call of another shape must still read, search and name everything as the general path."""
    items: list[object] = [
        str(UNIQUE.puzzle),
        str(FOUR.puzzle),
        UNIQUE.puzzle,
        str(SIXTEEN.puzzle),
        str(TWELVE.puzzle),
        SIXTEEN.puzzle,
        "11" + "." * 79,
        FOUR.puzzle,
        "bad",
    ]
    for item in items * 2:
        [got] = fast([item], limit=limit)
        [want] = general([item], ENGINE, limit=limit)
        assert fields(got) == fields(want)
        if got.solution is not None:
            assert got.puzzle is not None
            assert got.solution.is_solution(got.puzzle)
        if isinstance(item, str) and got.puzzle is not None:
            assert got.puzzle.shape == Shape.from_cell_count(len(item))


def test_each_chunk_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A chunk is logged at DEBUG on ``sudokit.solver`` (the logger is looked up once)."""
    caplog.set_level(logging.DEBUG, logger="sudokit.solver")
    for _ in range(2):
        caplog.clear()
        results = fast([str(UNIQUE.puzzle)] * 5, chunk=2)
        assert [r.status for r in results] == [Status.UNIQUE] * 5
        got = [r.getMessage() for r in caplog.records if r.name == "sudokit.solver"]
        assert got == ["solved a chunk of 2 puzzles"] * 2 + ["solved a chunk of 1 puzzles"]
