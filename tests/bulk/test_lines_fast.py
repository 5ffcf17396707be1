"""The bulk line path (``csrc/sk_lines.c``, :mod:`sudokit.blocks`) against the record path.

``sudokit solve | check | count FILE`` on line files goes through the C block reader; the same
input on standard input still goes through the records (``formats.read``, ``solve_many``), which
stay the specification. Every test here compares the two, byte for byte: standard output,
standard error (the source named ``<stdin>`` there) and the exit code, on the benchmark sets,
on mixed files of every kind of bad line, with ``--jobs``, and small read sizes (blocks cut at
every place). The block API itself is checked against a per-line Python reference built
from the line reader and :func:`sudokit.solve_many` (hypothesis), and under the pure-Python
backend.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sudokit
from sudokit import _core, blocks, solve_many
from sudokit._cengine import geometry
from sudokit.cli.app import cli
from sudokit.formats import _base
from sudokit.shape import Shape
from support import SHARED_DATA, require_c_backend
from support.tiers import examples

SETS = sorted(p.name for p in SHARED_DATA.glob("*.txt")) if SHARED_DATA.is_dir() else []
TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NORVIG = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
MODES = {
    "solve": [[], ["--unique"], ["--guesses", "3"]],
    "check": [[]],
    "count": [["--limit", "1"]],
}


@pytest.fixture(autouse=True)
def _c_only() -> None:
    require_c_backend()


def run(args: list[str], data: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, args, input=data, catch_exceptions=False)


def same_as_records(
    path: Path, command: str, *extra: str, runs: tuple[tuple[str, ...], ...] = ((),)
) -> str:
    """Run *command* on the file *path* (the bulk path, with each of *runs* added) and on
    the same bytes through standard input (the record path); assert they agree; return the
    output."""
    data = path.read_bytes()
    old = run([command, *extra, "-"], data)
    err = old.stderr.replace("<stdin>", str(path))
    for more in runs:
        new = run([command, *extra, *more, str(path)])
        assert new.stdout == old.stdout, (command, extra, more)
        assert new.stderr == err, (command, extra, more)
        assert new.exit_code == old.exit_code, (command, extra, more)
    return old.stdout


def sample(name: str, k: int = 300) -> list[str]:
    lines = (SHARED_DATA / name).read_text().splitlines()
    return lines[:k]


# -- the benchmark sets -------------------------------------------------------------------------


@pytest.mark.parametrize("name", SETS)
def test_shared_sets_byte_identical(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text("\n".join(sample(name)) + "\n")
    for command, variants in MODES.items():
        for extra in variants:
            out = same_as_records(path, command, *extra, runs=((), ("--jobs", "2")))
            assert out.count("\n") == len([ln for ln in sample(name) if ln.strip()])


def test_shared_sets_found() -> None:
    if not SETS:
        pytest.skip(f"no benchmark sets in {SHARED_DATA}")
    assert "top95.txt" in SETS


# -- mixed files --------------------------------------------------------------------------------


def mixed_lines(rng: random.Random) -> list[bytes]:
    """Lines of every kind the two readers must agree on."""
    puzzles = [TOP, NORVIG, TOP.replace(".", "0"), NORVIG.replace(".", "-")]
    kinds = [
        lambda: rng.choice(puzzles).encode(),
        lambda: b"# a comment " + rng.choice(puzzles).encode(),
        lambda: b"",
        lambda: b" \t ",
        lambda: rng.choice(puzzles).encode() + b"\r",
        lambda: rng.choice(puzzles).encode() + b"\r\r",
        lambda: rng.choice(puzzles).encode() + b"\ra",
        lambda: rng.choice(puzzles).encode() + "  rated 3.4 ☺".encode(),
        lambda: b"\t" + rng.choice(puzzles).encode() + b"\t# comment",
        lambda: rng.choice(puzzles).encode() + b"\x1fx",
        lambda: b"x" * 81,
        lambda: b"1" * 81,  # conflicting givens: Python names the cells
        lambda: b"." * 81,  # several solutions
        lambda: b"12" + b"." * 79,  # no solution, no conflict? (a search answers)
        lambda: rng.choice(puzzles)[:80].encode(),
        lambda: rng.choice(puzzles).encode() + b"5",
        lambda: b"...43...2......1",  # 4x4: the Python way
        lambda: b" ".join(b"1" if c == "1" else b"0" for c in NORVIG),
        lambda: rng.choice(puzzles).encode() + b"\x00",
        lambda: rng.choice(puzzles).encode() + b"\xff",
        lambda: "\u00a0".encode(),
        lambda: "\ufeff".encode() + rng.choice(puzzles).encode(),
        lambda: rng.choice(puzzles).encode() + b",",
        lambda: b"\x0b" + rng.choice(puzzles).encode() + b"\x0c",
    ]
    return [rng.choice(kinds)() for _ in range(300)]


@pytest.mark.parametrize("seed", [1, 2])
def test_mixed_files(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    lines = mixed_lines(rng)
    path = tmp_path / "mixed.txt"
    path.write_bytes("\ufeff".encode() * (seed == 1) + b"\n".join(lines) + b"\n" * (seed == 2))
    for size in (None, 97):  # the default blocks, and blocks cut at every kind of place
        if size:
            monkeypatch.setattr(blocks, "CHUNK", size)
        for command, variants in MODES.items():
            for extra in variants:
                same_as_records(path, command, *extra, runs=((), ("--jobs", "2")))


def test_long_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines past MAX_LINE are one bad record each; past MAX_SKIP the input ends."""
    monkeypatch.setattr(_base, "MAX_LINE", 300)
    monkeypatch.setattr(blocks, "MAX_LINE", 300)
    monkeypatch.setattr(_base, "MAX_SKIP", 5000)
    monkeypatch.setattr(blocks, "CHUNK", 64)
    body = [TOP, "7" * 299, "8" * 300, "9" * 301, NORVIG, "x" * 4000, TOP, "y" * 6000, NORVIG]
    path = tmp_path / "long.txt"
    path.write_text("\n".join(body) + "\n")
    out = same_as_records(path, "solve", runs=((), ("--jobs", "2")))
    assert out.count("\n") == 8  # the line past MAX_SKIP is the last one read
    same_as_records(path, "check")
    path.write_text(TOP + "\n" + "z" * 2000)  # a long last line without a newline
    same_as_records(path, "count")


def test_several_files_numbered_across(tmp_path: Path) -> None:
    a, b, empty = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "empty.txt"
    a.write_text(f"{TOP}\nbad\n")
    b.write_text(f"{'.' * 81}\n{NORVIG}\n11\n")
    empty.write_text("# nothing\n")
    old = run(["solve", "-"], a.read_bytes() + b.read_bytes())
    new = run(["solve", str(a), str(b)])
    assert new.stdout == old.stdout
    assert "b.txt:3: puzzle 5:" in new.stderr
    assert new.exit_code == 2
    new = run(["check", str(empty), str(a)])
    assert new.stderr.startswith(f"sudokit: {empty}: no puzzles found\n")
    assert new.stdout == "unique\ninvalid\n"


def test_binary_file_goes_the_record_way(tmp_path: Path) -> None:
    path = tmp_path / "junk.bin"
    path.write_bytes(random.Random(3).randbytes(5000))
    same_as_records(path, "solve")
    result = run(["solve", str(path)])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1


def test_jobs_give_the_same_bytes(tmp_path: Path) -> None:
    rng = random.Random(4)
    sets = [sample(name, 2000) for name in SETS]
    lines = [rng.choice(lines) for lines in sets for _ in range(300)]
    lines[5::97] = ["bad line"] * len(lines[5::97])
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines) + "\n")
    outs = {jobs: run(["solve", "--jobs", jobs, str(path)]) for jobs in ("1", "2", "0")}
    assert len({(r.stdout, r.stderr, r.exit_code) for r in outs.values()}) == 1
    assert outs["1"].stdout.count("\n") == len(lines)


def test_other_inputs_keep_the_record_path(tmp_path: Path) -> None:
    """--box/--x/--symbols/--to csv and picture files are not taken: the output is as before."""
    path = tmp_path / "p.txt"
    path.write_text(f"{TOP}\n{NORVIG}\n")
    plain = run(["solve", str(path)]).stdout
    assert run(["solve", "--to", "csv", str(path)]).stdout.startswith("puzzle,solution")
    assert run(["solve", "--from", "line", str(path)]).stdout == plain
    x = run(["solve", "--x", str(path)])
    assert x.stdout != plain
    assert x.stdout == run(["solve", "--x", "-"], path.read_bytes()).stdout


# -- the block API ------------------------------------------------------------------------------


def reference(data: bytes, mode: str, limit: int, unique: bool) -> bytes:
    """The output of *data* line by line through the Python reader and solve_many."""
    out = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for k, raw in enumerate(lines):
        record = blocks.read_line(raw + b"\n", k + 1, "x")
        if record is None:
            continue
        if record.grid is None:
            out.append("invalid" if mode == "check" else "!invalid")
            continue
        search = 2 if mode != "count" else max(2, limit + 1)
        result = next(solve_many([record.grid], limit=search))
        out.append(blocks.line_text(result, mode, limit, unique))
    return "".join(f"{line}\n" for line in out).encode()


line_bytes = st.one_of(
    st.sampled_from([TOP, NORVIG, "." * 81, "1" * 81, "...43...2......1", ""]).map(str.encode),
    st.builds(
        lambda p, at, noise: p[:at] + noise + p[at:],
        st.sampled_from([TOP.encode(), NORVIG.encode()]),
        st.integers(0, 81),
        st.binary(max_size=3),
    ),
    st.binary(max_size=90),
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(line_bytes, max_size=12),
    st.sampled_from(["solve", "check", "count"]),
    st.booleans(),
)
def test_solve_block_matches_the_python_reader(lines: list[bytes], mode: str, unique: bool) -> None:
    data = b"\n".join(line.replace(b"\n", b"") for line in lines)
    limit = 3
    assert blocks.solve_block(data, mode=mode, limit=limit, unique=unique) == reference(
        data, mode, limit, unique
    )


def test_scan_block_notes() -> None:
    data = f"# x\n{TOP}\n{'.' * 81}\nbad\n{'1' * 81}\n{NORVIG} tail".encode()
    block = blocks.scan_block(data, mode="check")
    assert block.lines == 6
    assert block.records == 3  # the two lines handed back are not counted
    assert [(n.line, n.kind) for n in block.notes] == [
        (2, "multiple"),
        (3, "python"),
        (4, "python"),
    ]
    assert block.output == b"unique\nmultiple\nunique\n"
    note = block.notes[1]
    assert data[note.start : note.end] == b"bad"
    assert block.notes[2].out == len(b"unique\nmultiple\n")


def test_scan_block_many_notes_in_several_calls() -> None:
    data = b"x\n" * 10000 + TOP.encode()  # more notes than one C call returns
    block = blocks.scan_block(data)
    assert len(block.notes) == 10000
    assert block.notes[-1].line == 9999
    assert block.output.count(b"\n") == block.records == 1


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="mode"):
        blocks.solve_block(b"", mode="rate")
    with pytest.raises(ValueError, match="limit"):
        blocks.solve_block(b"", mode="count", limit=0)
    assert blocks.solve_block(b"") == b""
    assert sudokit.solve_block is blocks.solve_block


def test_binding_contract() -> None:
    nine = geometry(Shape(3, 3))
    with pytest.raises(ValueError, match="9x9"):
        _core.lines(geometry(Shape(2, 2)), b"", 0, 0, 0, 2, 0, 0)
    with pytest.raises(ValueError, match="past the end"):
        _core.lines(nine, b"abc", 4, 0, 0, 2, 0, 0)
    with pytest.raises(ValueError, match="mode"):
        _core.lines(nine, b"", 0, 3, 0, 2, 0, 0)
    with pytest.raises(ValueError, match="limit"):
        _core.lines(nine, b"", 0, 0, 0, 1, 0, 0)
    with pytest.raises(TypeError, match="bytes"):
        _core.lines(nine, "text", 0, 0, 0, 2, 0, 0)  # type: ignore[arg-type]
    out, notes, consumed, lines, records = _core.lines(
        nine, b"bad\n" + TOP.encode(), 4, 0, 0, 2, 0, 0
    )
    assert (notes, consumed, lines, records) == ((), 85, 1, 1)
    assert sudokit.Grid.parse(out.decode().strip()).is_solution(sudokit.Grid.parse(TOP))


def test_python_backend_still_works(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text(f"{TOP}\nbad\n{'.' * 81}\n")
    env = {**os.environ, "SUDOKIT_BACKEND": "python"}
    code = (
        "import sudokit, sys; "
        "sys.stdout.buffer.write(sudokit.solve_block(open(sys.argv[1], 'rb').read(), unique=True))"
    )
    got = subprocess.run(
        [sys.executable, "-c", code, str(path)], env=env, capture_output=True, check=True
    )
    assert got.stdout == blocks.solve_block(path.read_bytes(), unique=True)
    cmd = [sys.executable, "-m", "sudokit", "solve", "--unique", str(path)]
    slow = subprocess.run(cmd, env=env, capture_output=True, text=True)
    fast = run(["solve", "--unique", str(path)])
    assert (slow.stdout, slow.returncode) == (fast.stdout, fast.exit_code)


# -- stopping ---------------------------------------------------------------------------------


def test_stop_byte_ends_a_call_on_another_thread() -> None:
    """A worker thread's call runs no signal handler: the caller's stop byte ends it."""
    import threading
    import time

    stop = bytearray(1)
    errors: list[BaseException] = []

    def count_forever() -> None:  # an empty grid counted to 10**18: never ends by itself
        try:
            _core.lines(geometry(Shape(3, 3)), b"." * 81, 0, 2, 0, 10**18, 10**18 - 1, 0, stop)
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=count_forever)
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive()
    stop[0] = 1
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert len(errors) == 1
    assert isinstance(errors[0], InterruptedError)
    with pytest.raises(ValueError, match="one byte"):
        _core.lines(geometry(Shape(3, 3)), b"", 0, 0, 0, 2, 0, 0, bytearray())


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_exits_130_on_sigint_in_the_bulk_path(jobs: str, tmp_path: Path) -> None:
    from support import STOP_CPU, interrupt

    path = tmp_path / "empty.txt"
    path.write_text(("." * 81 + "\n") * 3)
    limit = str(10**18)
    argv = [sys.executable, "-m", "sudokit", "count", "--limit", limit, "--guesses", "0"]
    rc, err, cpu = interrupt([*argv, "--jobs", jobs, str(path)])
    assert rc == 130, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert cpu < STOP_CPU
