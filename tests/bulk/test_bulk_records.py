"""A bad record costs exactly that record, in every mode (one NUL byte once lost a whole file).

A file of puzzle lines with garbage in every position -- the first line, NUL bytes (also in
the first 64 KiB, which used to make the whole file "binary"), invalid UTF-8, text that is no
puzzle -- gives every good record, in order, with ``--jobs 1``, ``--jobs 2`` and
``--resume``, and the process exits (every run is timeout-guarded: a hang fails the test).
The big variant (200,000 lines, 1% garbage) is marked slow.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import sudokit
import support
from sudokit import formats
from sudokit.batch import ordered_map
from support import fail_some
from support.tiers import sweep

GOOD = [
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "...43...2......1",
    "1.3....22....3.1",
]
GARBAGE = [
    b"\x00\x00\x00\x00",  # NUL bytes
    b"..3.2.6..9..3.\x005..1",  # a NUL inside a puzzle-looking line
    b"\xff\xfe.4.3\xc3(",  # not UTF-8
    b"garbage, not a puzzle",
    b"12345",  # not a square number of cells
]


def _make(path: Path, lines: int, rate: float, seed: int = 7) -> list[str | None]:
    """Write *lines* puzzle lines, a *rate* of them garbage (the first line always); return
    the expected output per line (the solution, or ``None`` for garbage)."""
    solutions = {p: str(sudokit.solution(sudokit.Grid.parse(p))) for p in GOOD}
    rng = random.Random(seed)
    expected: list[str | None] = []
    with open(path, "wb") as f:
        for k in range(lines):
            if k == 0 or k == lines - 1 or rng.random() < rate:
                f.write(rng.choice(GARBAGE) + b"\n")
                expected.append(None)
            else:
                puzzle = GOOD[k % len(GOOD)]
                f.write(puzzle.encode() + b"\n")
                expected.append(solutions[puzzle])
    return expected


def _run(*args: str, cwd: Path, timeout: float) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args],
        capture_output=True,
        cwd=cwd,
        timeout=timeout,  # a hang at exit fails here
    )


def _check(expected: list[str | None], out: bytes) -> None:
    rows = out.decode().splitlines()
    assert len(rows) == len(expected)
    good = [(k, s) for k, s in enumerate(expected) if s is not None]
    assert [rows[k] for k, _ in good] == [s for _, s in good]  # every good record, in order
    assert all(rows[k].startswith("!") for k, s in enumerate(expected) if s is None)


MODES = {
    "jobs1": ["--jobs", "1"],
    "jobs2": ["--jobs", "2"],
    "resume": ["--resume", "-o", "out.txt"],
}


def _solve_mode(tmp_path: Path, mode: str, lines: int, rate: float, timeout: float) -> None:
    expected = _make(tmp_path / "in.txt", lines, rate)
    done = _run("solve", "in.txt", *MODES[mode], cwd=tmp_path, timeout=timeout)
    out = (tmp_path / "out.txt").read_bytes() if mode == "resume" else done.stdout
    _check(expected, out)
    bad = sum(s is None for s in expected)
    assert done.returncode in (1, 2)  # bad records: not a success, never a crash
    assert b"Traceback" not in done.stderr
    errors = done.stderr.decode().splitlines()  # one line per bad record, on its line,
    assert len(errors) == bad  # --resume too (it printed one summary line, exit code 0)
    assert errors[0].startswith("sudokit: in.txt:1: puzzle 1: ")
    assert done.returncode == 2  # bad records are input errors, in every mode
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["in.txt"] + (["out.txt"] if mode == "resume" else [])
    )


@pytest.mark.parametrize("mode", sorted(MODES))
def test_garbage_in_every_position_costs_only_its_records(tmp_path: Path, mode: str) -> None:
    _solve_mode(tmp_path, mode, lines=3000, rate=0.05, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_many_lines_with_one_percent_garbage(tmp_path: Path, mode: str) -> None:
    # 60,000 lines (nightly; 20,000 in the full tier): some 60 chunks and shards with about
    # 600 bad records among them (200,000 took 16 s of CPU for the three modes and a million
    # 2.5 minutes, and showed nothing more; the million-line runs of the bulk path are
    # benchmarks/bench_solve.py's).
    _solve_mode(tmp_path, mode, lines=sweep(20_000, 60_000), rate=0.01, timeout=600)


def test_a_nul_in_the_first_64k_is_one_bad_record() -> None:
    import io

    text = b"\x00junk\n" + (GOOD[1].encode() + b"\n") * 10
    got = list(formats.read(io.BytesIO(text)))
    assert [r.error is not None for r in got] == [True] + [False] * 10
    assert got[0].error is not None
    assert "NUL" in got[0].error.message
    assert got[0].error.line == 1


def test_a_binary_file_is_still_one_error() -> None:
    import io

    blob = random.Random(3).randbytes(100_000)
    got = list(formats.read(io.BytesIO(blob)))
    assert len(got) == 1
    assert got[0].error is not None
    assert "binary data" in got[0].error.message


_HANG = """
import sys
sys.path.insert(0, {tests!r})
from support import fail_some
from sudokit.batch import ordered_map
try:
    for _ in ordered_map(fail_some, [(i, i) for i in range(20)], jobs=2):
        pass
except ValueError as exc:
    print(exc)
"""


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_several_failing_chunks_do_not_hang_the_exit() -> None:
    """Regression: the process hung at exit (4 of 4 tries) on a result half-sent by a
    worker that was ended when another chunk failed."""
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", _HANG.format(tests=str(support.TESTS))],
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == b"chunk 1 failed"


def test_ordered_map_inline_reports_the_failure() -> None:
    with pytest.raises(ValueError, match="chunk 1 failed"):
        list(ordered_map(fail_some, [(0, 0), (1, 1)]))
