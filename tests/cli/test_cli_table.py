"""Every command that reads puzzles, through one table of inputs, as a user runs it: a
subprocess of ``python -m sudokit`` in a temporary directory (for ``solve``; the other
commands run the same entry point, ``cli.main``, in this process).

Each input gets the same kind of answer from every command: a good puzzle (as a FILE
argument, on standard input with no argument or with ``-``, with a BOM and CRLF line ends)
exit code 0; a missing file, a directory, an empty file, binary data or one 50 MB line exit
code 2 with exactly one stderr line that starts ``sudokit:`` and names the problem; never a
traceback. The 50 MB file is written once per session.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

import sudokit
from sudokit.cli.app import main
from support import STOP_CPU, interrupt, pigeonhole64_file, small_default_bound
from support.reading_commands import COMMANDS, EASY

#: Each subprocess must end well within this (seconds; generous for a loaded CI machine).
TIMEOUT = 60


@dataclass(frozen=True)
class Case:
    """One input: the FILE arguments, what goes to standard input, and the expected answer
    (exit code; for an error, words that the one stderr line contains, any of them)."""

    args: tuple[str, ...]
    stdin: bytes
    code: int
    says: tuple[str, ...] = ()


@pytest.fixture(scope="session")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The input files, written once per session (the 50 MB line included)."""
    root = tmp_path_factory.mktemp("table")
    (root / "good.txt").write_text(EASY + "\n")
    (root / "crlf_bom.txt").write_bytes(b"\xef\xbb\xbf" + EASY.encode() + b"\r\n")
    (root / "empty.txt").write_bytes(b"")
    (root / "binary.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with open(root / "huge.txt", "wb") as f:
        block = b"123456789" * (1 << 16)
        for _ in range(50 * (1 << 20) // len(block) + 1):
            f.write(block)
        f.write(b"\n")
    (root / "dir").mkdir()
    return root


def _cases(root: Path) -> dict[str, Case]:
    good = (root / "good.txt").read_bytes()
    return {
        "file": Case((str(root / "good.txt"),), b"", 0),
        "stdin": Case((), good, 0),
        "dash": Case(("-",), good, 0),
        "crlf-bom": Case((str(root / "crlf_bom.txt"),), b"", 0),
        "missing": Case((str(root / "missing.txt"),), b"", 2, ("no such file",)),
        "directory": Case((str(root / "dir"),), b"", 2, ("directory",)),
        "empty": Case((str(root / "empty.txt"),), b"", 2, ("no puzzle", "empty")),
        "binary": Case((str(root / "binary.bin"),), b"", 2, ("binary", "not utf-8", "not text")),
        "50mb-line": Case((str(root / "huge.txt"),), b"", 2, ("long", "too big", "larger")),
    }


CASES = ["file", "stdin", "dash", "crlf-bom", "missing", "directory", "empty", "binary"]


#: The commands whose table rows run in a real ``python -m sudokit`` process (every input
#: through a real stdin, exit status and stderr); the others run ``cli.main`` in this process
#: on the same arguments, bytes and environment (90 processes cost 40 s of CPU).
REAL_PROCESS = {"solve"}


def _run_in_process(argv: list[str], stdin: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``main(argv)`` as ``python -m sudokit`` runs it: *stdin* as its standard input (bytes),
    standard output and error captured as bytes, the working directory *cwd*."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        env = {"SUDOKIT_NO_PROGRESS": "1", "SUDOKIT_DEBUG": None}
        with CliRunner().isolation(input=stdin, env=env) as (out, err, _):
            code = main(argv)
            sys.stdout.flush()  # the text streams over the captured bytes
            sys.stderr.flush()
    finally:
        os.chdir(old)
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def _run(
    command: str, case: Case, cwd: Path, *, real: bool = True
) -> subprocess.CompletedProcess[bytes]:
    argv = [command, *COMMANDS[command], *case.args]
    if not real:
        return _run_in_process(argv, case.stdin, cwd)
    env = {**os.environ, "SUDOKIT_NO_PROGRESS": "1", "PYTHONFAULTHANDLER": "1"}
    env.pop("SUDOKIT_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *argv],
        input=case.stdin,
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """The command's working directory (where print writes its book)."""
    return tmp_path


def _check(command: str, name: str, inputs: Path, workdir: Path) -> None:
    case = _cases(inputs)[name]
    done = _run(command, case, workdir, real=command in REAL_PROCESS)
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert done.returncode == case.code, (done.returncode, err)
    if case.code == 0:
        assert done.stdout or command == "print", err
        if command == "print":
            assert (workdir / "book.pdf").read_bytes().startswith(b"%PDF")
        return
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("sudokit:"), err
    assert any(word in lines[0].lower() for word in case.says), err


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_answers_every_input_alike(
    command: str, name: str, inputs: Path, workdir: Path
) -> None:
    _check(command, name, inputs, workdir)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_one_50_mb_line_is_one_error_line(command: str, inputs: Path, workdir: Path) -> None:
    _check(command, "50mb-line", inputs, workdir)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_puzzle_text_needs_p_and_a_missing_file_is_never_parsed(
    command: str, workdir: Path
) -> None:
    """Puzzle text on the command line goes through -p; a bare argument is a FILE, so a
    puzzle (or a mistyped file name) given bare is "no such file", not a parse error."""
    real = command in REAL_PROCESS
    done = _run(command, Case(("-p", EASY), b"", 0), workdir, real=real)
    assert done.returncode == 0, done.stderr
    bare = _run(command, Case((EASY,), b"", 2), workdir, real=real)
    lines = bare.stderr.decode().splitlines()
    assert bare.returncode == 2
    assert len(lines) == 1
    assert lines[0].startswith("sudokit:")
    assert "no such file" in lines[0].lower()


# -- bounds, Ctrl-C, uniqueness first, jigsaw and renamed options -----------------------------


@pytest.fixture(scope="session")
def long64(inputs: Path) -> Path:
    """A 64x64 that every search takes ages over (support.pigeonhole64)."""
    return pigeonhole64_file(inputs / "long64.txt")


def _gave_up(done: subprocess.CompletedProcess[bytes], command: str, row: str) -> None:
    """*done* is one marker row and one stderr line naming the default bound of a 64x64."""
    assert done.returncode == 1, done.stderr
    assert done.stdout.decode().splitlines() == [row]
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith("sudokit:")
    # the library's default bound for the shape (count searches one past its --limit of 1000)
    limit = 1001 if command == "count" else 2
    assert f"(budget {sudokit.default_budget(sudokit.Shape(8, 8), limit)})" in line
    assert "--guesses" in line


@pytest.mark.slow
@pytest.mark.c_only  # the pure-Python reference needs minutes for the same bound
def test_a_long_64x64_search_gives_up_within_the_default_bound(long64: Path, workdir: Path) -> None:
    """The command line's one search to the real default bound, in a real process: 4-8 s
    here at load ~6 (TIMEOUT is the margin for a loaded machine, not a performance claim)."""
    _gave_up(_run("check", Case((str(long64),), b"", 1), workdir), "check", "gave-up")


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize(
    ("command", "row"),
    [("solve", "!gave-up"), ("count", "!gave-up"), ("check", "gave-up"), ("hint", "!gave-up")],
)
def test_every_search_command_takes_the_default_bound(
    command: str, row: str, long64: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command bounds its search by the library's default for the shape (made small
    here, :func:`support.small_default_bound`: the same code path, a smaller number)."""
    small_default_bound(monkeypatch)
    _gave_up(_run(command, Case((str(long64),), b"", 1), workdir, real=False), command, row)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "count", "check"])
def test_ctrl_c_during_a_search_exits_130_with_one_line(
    command: str, long64: Path, workdir: Path
) -> None:
    """An unbounded search (--guesses 0) stopped by SIGINT: exit 130 and one stderr line,
    within a second of CPU time (:func:`support.interrupt`: the signal goes once the search
    runs, and a child still running a minute later fails as hung). A wall bound of 5 s, and a
    1.5 s sleep for the start-up, failed on a loaded machine and under coverage."""
    if sys.platform != "linux":
        pytest.skip("reads /proc to see that the child is busy searching")
    argv = [sys.executable, "-m", "sudokit", command, "--guesses", "0", str(long64)]
    code, err, cpu = interrupt(argv, {"SUDOKIT_NO_PROGRESS": "1"}, cwd=workdir)
    assert code == 130
    assert err.splitlines() == ["sudokit: interrupted"]
    assert cpu < STOP_CPU


@pytest.mark.parametrize("command", ["hint", "explain"])
def test_hint_and_explain_check_uniqueness_first(command: str, workdir: Path) -> None:
    """An empty 9x9 used to stall for a minute; now one marker row, one line, exit 1."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = _run(command, Case(("-p", "." * 81, "-p", EASY), b"", 1), workdir)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    assert done.returncode == 1
    rows = done.stdout.decode().splitlines()
    assert rows[0] == "!multiple"
    assert len(rows) > 1  # the proper puzzle after it is still answered
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith("sudokit: --puzzle")
    assert "several solutions" in line
    # no minute-long stall; CPU time, which a loaded machine does not stretch as it does wall time
    assert cpu < TIMEOUT / 4


def test_jigsaw_from_the_command_line(workdir: Path) -> None:
    regions = "AAAB ABBB CCCD CDDD"
    (workdir / "map.txt").write_text(regions + "\n")
    for option in (regions, "@map.txt"):
        done = _run("solve", Case(("--regions", option, "-p", "1..............."), b"", 0), workdir)
        (solution,) = done.stdout.decode().split()
        # a jigsaw solution: every region of the map holds 1-4
        rows = [solution[i : i + 4] for i in range(0, 16, 4)]
        cells = "".join(rows)
        labels = regions.replace(" ", "")
        for region in "ABCD":
            assert sorted(c for c, r in zip(cells, labels, strict=True) if r == region) == list(
                "1234"
            )
    missing = _run("count", Case(("--regions", "@nope.txt", "-p", "1" + "." * 15), b"", 2), workdir)
    assert missing.returncode == 2
    assert missing.stderr.decode().splitlines() == ["sudokit: --regions: nope.txt: no such file"]


@pytest.mark.parametrize(
    ("command", "old", "new"),
    [("solve", "--budget", "--guesses"), ("rate", "--budget", "--seconds")],
)
def test_old_budget_spelling_still_works_with_one_deprecation_line(
    command: str, old: str, new: str, inputs: Path, workdir: Path
) -> None:
    value = "1000" if new == "--guesses" else "5"
    done = _run(command, Case((old, value, str(inputs / "good.txt")), b"", 0), workdir)
    assert done.returncode == 0
    assert done.stderr.decode().splitlines() == [f"sudokit: {old} is deprecated; use {new}"]
    again = _run(command, Case((new, value, str(inputs / "good.txt")), b"", 0), workdir)
    assert (again.returncode, again.stdout, again.stderr) == (0, done.stdout, b"")
