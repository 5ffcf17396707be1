"""Fuzz target for the C binding ``sudokit._core`` (atheris, coverage-guided).

    python tests/fuzz_core.py --seconds 30        # a smoke run (CI, under ASan in sanitize.sh)
    python tests/fuzz_core.py [libFuzzer args]    # a longer local session

Each input drives one call (``Geometry``, ``search``, ``search_batch``, ``reduce``,
``canonical9`` or ``lines``, the bulk line reader, on fuzzed bytes mixed with puzzle lines) with
fuzzed arguments (``Geometry`` also with fuzzed variant rules: pairs, allowed masks, relation
tables, cages, linear sums, groups of every kind, some malformed; accepted ones must give
solutions that obey them, on 4x4 exactly the grids that do): right and wrong lengths, values
beyond n, odd limits (around 2**31 and 2**32 too: the 9x9 fast path once clamped them), budgets
and thread counts, fuzzed unit lists (some holding objects whose ``__index__`` mutates the lists
being read), and fuzzed clue-removal orders (the result must be a new object: reduce once wrote
into CPython's shared 1-byte bytes). The binding must either raise ``ValueError`` /
``TypeError`` / ``OverflowError`` or return a result that passes independent checks: counts
within the limit, as many kept solutions as promised, every solution valid
(``Grid.is_solution``), and for small shapes the same count as the pure-Python reference; a
canonical form byte for byte the one of the pure-Python specification
(``transform._canonical_python``). Anything else (a crash, a sanitizer report, a failed check)
stops the run with the input that caused it.

Not collected by pytest (no ``test_`` prefix); atheris is imported only when run.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sudokit import _core, _reference
from sudokit._cengine import geometry
from sudokit.grid import Grid
from sudokit.rules.primitives import group_holds, linear_holds
from sudokit.shape import Shape
from sudokit.transform import _canonical_python

SHAPES = [
    Shape(1, 1),
    Shape(1, 2),
    Shape(2, 2),
    Shape(2, 2, diagonals=True),
    Shape.jigsaw("AAABABBBCCCDCDDD"),
    Shape(2, 3),
    Shape(3, 2),
    Shape(3, 3),
    Shape(3, 3, diagonals=True),
    Shape(4, 4),
]
REFUSALS = (ValueError, TypeError, OverflowError)


def _int(fdp: Any, small: int) -> int:
    """Mostly 0..small, sometimes negative or huge."""
    pick = fdp.ConsumeIntInRange(0, 15)
    if pick == 0:
        return int(fdp.ConsumeIntInRange(-(2**70), -1))
    if pick == 1:
        return int(fdp.ConsumeIntInRange(2**62, 2**70))
    if pick == 2:  # around INT_MAX and UINT32_MAX, where 32-bit code would clamp or wrap
        return int(fdp.ConsumeIntInRange(2**31 - 3, 2**32 + 3))
    return int(fdp.ConsumeIntInRange(0, small))


def _cells(fdp: Any, shape: Shape, count: int) -> bytes:
    """count puzzles' worth of cells: usually valid values, sometimes raw bytes or a bad length."""
    size = shape.ncells * count
    if fdp.ConsumeIntInRange(0, 9) == 0:
        size = max(0, size + fdp.ConsumeIntInRange(-3, 3))
    raw = bytearray(fdp.ConsumeBytes(size).ljust(size, b"\0"))
    if fdp.ConsumeIntInRange(0, 7) != 0:
        for i, v in enumerate(raw):
            raw[i] = v % (shape.n + 1) if v % 3 == 0 else 0  # sparse: about a third are givens
    return bytes(raw)


def _check_search(shape: Shape, cells: bytes, limit: int, keep: int, budget: int, out: Any) -> None:
    count, sols, guesses, complete = out
    assert 0 <= count <= limit, out
    assert len(sols) == min(count, keep), out
    assert guesses >= 0, out
    assert budget == 0 or guesses <= budget, out
    puzzle = Grid(cells, shape)
    for sol in sols:
        assert Grid(sol, shape).is_solution(puzzle), (cells, sol)
    if puzzle.conflicts():
        assert count == 0, out
    if complete and shape.n <= 4 and limit <= 64:
        ref = _reference.search(shape, cells, limit, 0, 0)
        assert ref[0] == count, (cells, limit, ref[0], count)


def _check_canonical(cells: bytes, out: bytes) -> None:
    assert len(out) == 81, out
    clues = sum(map(bool, cells))
    assert sum(map(bool, out)) == clues, (cells, out)
    if clues > 32:  # dense grids full of conflicts take the Python code up to seconds
        return
    try:
        spec = _canonical_python(Grid(cells, Shape(3, 3))).cells
    except ValueError:  # a digit twice in a row: labels above 9, as the C code must give too
        assert max(out) > 9, (cells, out)
    else:
        assert out == spec, (cells, out, spec)


class _Mutator:
    """A cell index whose ``__index__`` mutates a list first (clears it, or appends to it)."""

    def __init__(self, victim: list[Any], value: int, clear: bool) -> None:
        self.victim, self.value, self.clear = victim, value, clear

    def __index__(self) -> int:
        if self.clear:
            self.victim.clear()
        else:
            self.victim.extend(range(100))
        return self.value


def _fuzz_geometry(fdp: Any) -> None:
    """Geometry from fuzzed units, some of them holding list-mutating indices."""
    n = fdp.ConsumeIntInRange(-1, 66)
    nunits = fdp.ConsumeIntInRange(0, 6)
    units: list[list[Any]] = [
        fdp.ConsumeIntListInRange(max(0, n), -2, max(0, n * n)) for _ in range(nunits)
    ]
    for _ in range(fdp.ConsumeIntInRange(0, 2) if units else 0):
        u = fdp.ConsumeIntInRange(0, len(units) - 1)
        if units[u]:
            i = fdp.ConsumeIntInRange(0, len(units[u]) - 1)
            victim = units if fdp.ConsumeBool() else units[u]
            units[u][i] = _Mutator(victim, units[u][i], fdp.ConsumeBool())
    try:
        geo = _core.Geometry(n, units)
    except REFUSALS:
        return
    count, _, _, _ = _core.search(geo, bytes(geo.ncells), 3, 1, 50)
    assert 0 <= count <= 3


def _fuzz_reduce(fdp: Any, shape: Shape, geo: Any, budget: int) -> None:
    """reduce with a fuzzed order and groups: a new object, clues only removed, and a unique
    puzzle stays unique with the same solution when every search was decided."""
    solved = fdp.ConsumeBool()
    cells = _core.search(geo, bytes(shape.ncells), 1, 1, 0)[1][0] if solved else None
    if cells is None:
        cells = _cells(fdp, shape, 1)
    given = bytes(cells)
    order = fdp.ConsumeIntListInRange(fdp.ConsumeIntInRange(0, 2 * shape.ncells), -1, shape.ncells)
    ends = sorted(fdp.ConsumeIntListInRange(fdp.ConsumeIntInRange(0, 8), 0, len(order)))
    if fdp.ConsumeIntInRange(0, 3):
        ends.append(len(order))
    cap = None if fdp.ConsumeBool() else _int(fdp, 10)
    try:
        puzzle, searches, decided, complete = _core.reduce(geo, cells, order, ends, budget, cap)
    except REFUSALS:
        return
    assert cells == given, "reduce wrote into its input"
    assert b"\x01" != b"\x00", "reduce wrote into a shared bytes object"
    assert len(puzzle) == shape.ncells
    assert searches >= 0
    assert all(p in (0, c) for p, c in zip(puzzle, given, strict=True)), (given, puzzle)
    if solved and decided and complete:
        found = _core.search(geo, puzzle, 2, 1, 0)
        assert found[0] == 1, (given, puzzle)
        assert found[1][0] == given, (given, puzzle)


def _fuzz_ints(fdp: Any, count: int, bound: int) -> list[Any]:
    """count ints, mostly in 0..bound-1, sometimes out of range or not ints at all."""
    out: list[Any] = []
    for _ in range(count):
        pick = fdp.ConsumeIntInRange(0, 40)
        if pick == 0:
            out.append(_int(fdp, bound))
        elif pick == 1:
            out.append(True)
        elif pick == 2:
            out.append("1")
        else:
            out.append(fdp.ConsumeIntInRange(0, max(0, bound - 1)))
    return out


def _obeys(cells: bytes, shape: Shape, rules: dict[str, Any]) -> bool:
    """Whether a full grid obeys raw rule arrays (as the binding takes them), checked plainly."""
    if not Grid(cells, shape).is_solution():
        return False
    n = shape.n
    if any(cells[a] == cells[b] for a, b in rules.get("different") or ()):
        return False
    allowed = rules.get("allowed")
    if allowed is not None and any(
        not m >> (d - 1) & 1 for m, d in zip(allowed, cells, strict=True)
    ):
        return False
    for a, b, table in rules.get("relations") or ():
        if not table[cells[a] - 1] >> (cells[b] - 1) & 1:
            return False
    for cage, total in rules.get("cages") or ():
        digits = [cells[i] for i in cage]
        if len(set(digits)) != len(digits) or (total is not None and sum(digits) != total):
            return False
    for item in rules.get("linear") or ():
        if not linear_holds(item, [cells[i] for i in item[0]]):
            return False
    for kind, group, params in rules.get("groups") or ():
        if not group_holds(kind, [cells[i] for i in group], params, n):
            return False
    return n >= 1


def _fuzz_sums_and_groups(fdp: Any, n: int, ncells: int, rules: dict[str, Any]) -> None:
    """Fuzzed linear sums (coefs around 0, -10 and the bounds, totals near the reachable
    range and beyond) and groups (kinds 0..7, params of every count, some out of range)."""
    if fdp.ConsumeBool():
        rules["linear"] = [
            (
                cells := _fuzz_ints(fdp, fdp.ConsumeIntInRange(0, 5), ncells),
                [
                    fdp.PickValueInList([1, -1, 2, -2, -10, 3, 0, 10**6, -(10**6) - 1])
                    for _ in range(len(cells) + (fdp.ConsumeIntInRange(0, 15) == 0))
                ],
                _int(fdp, 3 * n) - (fdp.ConsumeIntInRange(0, 4 * n) if fdp.ConsumeBool() else 0),
            )
            for _ in range(fdp.ConsumeIntInRange(0, 4))
        ]
    if fdp.ConsumeBool():
        rules["groups"] = [
            (
                fdp.ConsumeIntInRange(0, 7) if fdp.ConsumeIntInRange(0, 7) else _int(fdp, 7),
                _fuzz_ints(fdp, fdp.ConsumeIntInRange(0, n + 1), ncells),
                _fuzz_ints(fdp, fdp.ConsumeIntInRange(0, 5), n * (n + 1) // 2 + 2),
            )
            for _ in range(fdp.ConsumeIntInRange(0, 3))
        ]


def _fuzz_rules(fdp: Any, shape: Shape) -> None:
    """Geometry with fuzzed variant rules: malformed arrays must be refused; accepted ones must
    give valid solutions, and on 4x4 exactly the grids that obey the rules (all 288 tried)."""
    n, ncells = shape.n, shape.ncells
    rules: dict[str, Any] = {}
    if fdp.ConsumeBool():
        rules["different"] = [
            tuple(_fuzz_ints(fdp, 2 if fdp.ConsumeIntInRange(0, 20) else 3, ncells))
            for _ in range(fdp.ConsumeIntInRange(0, 6))
        ]
    if fdp.ConsumeIntInRange(0, 3) == 0:
        length = ncells if fdp.ConsumeIntInRange(0, 9) else fdp.ConsumeIntInRange(0, ncells + 2)
        rules["allowed"] = _fuzz_ints(fdp, length, 1 << n)
    if fdp.ConsumeBool():
        rules["relations"] = [
            (
                *_fuzz_ints(fdp, 2, ncells),
                _fuzz_ints(fdp, n if fdp.ConsumeIntInRange(0, 9) else n + 1, 1 << n),
            )
            for _ in range(fdp.ConsumeIntInRange(0, 4))
        ]
    if fdp.ConsumeBool():
        cages = []
        for _ in range(fdp.ConsumeIntInRange(0, 4)):
            cells = _fuzz_ints(fdp, fdp.ConsumeIntInRange(0, n + 1), ncells)
            total = None if fdp.ConsumeIntInRange(0, 3) == 0 else _int(fdp, n * (n + 1) // 2 + 2)
            cages.append((cells, total))
        rules["cages"] = cages
    _fuzz_sums_and_groups(fdp, n, ncells, rules)
    try:
        geo = _core.Geometry(n, shape.units, generic=fdp.ConsumeBool(), **rules)
    except REFUSALS:
        return
    limit = 300 if n <= 4 else 3
    count, sols, _, complete = _core.search(geo, bytes(ncells), limit, limit, 0 if n <= 4 else 2000)
    assert 0 <= count <= limit
    assert len(sols) == count
    for sol in sols:
        assert _obeys(sol, shape, rules), (rules, sol)
    if n == 4 and complete and not shape.diagonals and shape.regions is None:
        every = _core.search(geometry(Shape(2, 2)), bytes(16), 300, 300, 0)[1]
        truth = sorted(g for g in every if _obeys(g, shape, rules))
        assert sorted(sols) == truth, rules


#: Lines the bulk reader takes (a unique puzzle, a conflict, several solutions), to splice.
LINES = [
    b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    b"11" + b"." * 79,
    b"." * 81,
]


def _fuzz_lines(fdp: Any, geo: Any) -> None:
    """``lines`` on fuzzed bytes: output and notes must fit the block, every line be counted
    once, and each solution line solve its puzzle."""
    parts = [
        LINES[fdp.ConsumeIntInRange(0, 2)] if fdp.ConsumeBool() else fdp.ConsumeBytes(90)
        for _ in range(fdp.ConsumeIntInRange(0, 6))
    ]
    data = b"\n".join(parts) + b"\n" * fdp.ConsumeIntInRange(0, 1)
    start = fdp.ConsumeIntInRange(0, len(data) + 1)
    mode, unique, limit = fdp.ConsumeIntInRange(0, 3), fdp.ConsumeIntInRange(0, 1), _int(fdp, 5)
    try:
        out, notes, consumed, lines, records = _core.lines(
            geo, data, start, mode, unique, limit, 3, 1000
        )
    except REFUSALS:
        return
    rest = data[start:]
    assert consumed == len(data)  # a few lines: one call does them all
    assert lines == rest.count(b"\n") + (bool(rest) and not rest.endswith(b"\n"))
    assert out.count(b"\n") == records <= lines
    for begin, end, at, line, record, _, _, code in notes:
        assert start <= begin <= end <= len(data)
        assert b"\n" not in data[begin:end]
        assert at <= len(out)
        assert line < lines
        assert record <= records
        assert 0 <= code <= 3
    for row in out.splitlines():
        if len(row) == 81:
            assert Grid.parse(row.decode()).is_solution()


def one_input(data: bytes) -> None:
    import atheris

    fdp = atheris.FuzzedDataProvider(data)
    shape = SHAPES[fdp.ConsumeIntInRange(0, len(SHAPES) - 1)]
    op = fdp.ConsumeIntInRange(0, 9)
    if op == 9:  # the bulk line reader (csrc/sk_lines.c): the 9x9 geometry only
        _fuzz_lines(fdp, geometry(SHAPES[7] if fdp.ConsumeIntInRange(0, 3) else shape))
        return
    if op == 8:  # variant rules: malformed arrays refused, accepted ones exact
        _fuzz_rules(fdp, shape)
        return
    if op == 6:  # the canonical form of a 9x9 grid (other shapes: wrong lengths)
        cells = _cells(fdp, SHAPES[7] if fdp.ConsumeIntInRange(0, 3) else shape, 1)
        try:
            out = _core.canonical9(cells)
        except REFUSALS:
            return
        _check_canonical(cells, out)
        return
    if op == 0:  # geometry from fuzzed units
        _fuzz_geometry(fdp)
        return
    geo = geometry(shape, generic=bool(fdp.ConsumeBool()))
    limit = _int(fdp, 40)
    budget = _int(fdp, 200) if fdp.ConsumeBool() else 1 + fdp.ConsumeIntInRange(0, 500)
    if (budget == 0 or budget > 100_000) and (limit > 40 or shape.n > 9):
        # Unbounded searches stay on inputs that finish fast: a huge limit on an empty 9x9
        # would enumerate 6.7e21 grids, and 16x16 can thrash; bound them instead.
        budget = 1000
    if op == 7:
        _fuzz_reduce(fdp, shape, geo, budget if budget and budget <= 100_000 else 1000)
        return
    if op <= 3:
        keep = _int(fdp, 5)
        cells = _cells(fdp, shape, 1)
        try:
            out = _core.search(geo, cells, limit, keep, budget)
        except REFUSALS:
            return
        _check_search(shape, cells, limit, keep, budget, out)
    else:
        k = fdp.ConsumeIntInRange(0, 20)
        threads = _int(fdp, 4)
        puzzles = _cells(fdp, shape, k)
        try:
            counts, firsts, guesses, complete = _core.search_batch(
                geo, puzzles, limit, budget, threads
            )
        except REFUSALS:
            return
        k = len(puzzles) // shape.ncells  # a fuzzed length may still be a whole number
        assert len(counts) == len(guesses) == len(complete) == k
        assert len(firsts) == len(puzzles)
        for i in range(k):
            cells = puzzles[i * shape.ncells : (i + 1) * shape.ncells]
            first = firsts[i * shape.ncells : (i + 1) * shape.ncells]
            assert 0 <= counts[i] <= limit
            if counts[i]:
                assert Grid(first, shape).is_solution(Grid(cells, shape))
            else:
                assert first == bytes(shape.ncells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=0, help="stop after this many seconds")
    parser.add_argument(
        "--no-instrument",
        action="store_true",
        help="skip Python coverage instrumentation (very slow under a preloaded libasan)",
    )
    args, rest = parser.parse_known_args()
    import atheris

    libfuzzer_args = [sys.argv[0], *rest]
    if args.seconds:
        libfuzzer_args.append(f"-max_total_time={args.seconds}")
    target = one_input
    if args.no_instrument:
        # Coverage of the harness's own branches only: which call, refusal or check ran.
        target = atheris.instrument_func(one_input)
    else:
        atheris.instrument_all()  # Python-level coverage (the C core is not instrumented)
    atheris.Setup(libfuzzer_args, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
