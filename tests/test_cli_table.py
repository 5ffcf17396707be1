"""Every command that reads puzzles, through one table of inputs, as a user runs it: a
subprocess of ``python -m sudokit`` in a temporary directory.

Each input gets the same kind of answer from every command: a good puzzle (as a FILE
argument, on standard input with no argument or with ``-``, with a BOM and CRLF line ends)
exit code 0; a missing file, a directory, an empty file, binary data or one 50 MB line exit
code 2 with exactly one stderr line that starts ``sudokit:`` and names the problem; never a
traceback. The 50 MB file is written once per session.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

#: A proper 9x9 puzzle (one solution, singles only: every command answers it at once).
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

#: command -> the arguments it needs besides its input (print writes a PDF).
COMMANDS: dict[str, list[str]] = {
    "solve": [],
    "count": [],
    "check": [],
    "convert": [],
    "hint": [],
    "explain": [],
    "rate": [],
    "render": [],
    "print": ["-o", "book.pdf"],
}

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


def _run(command: str, case: Case, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SUDOKIT_NO_PROGRESS": "1", "PYTHONFAULTHANDLER": "1"}
    env.pop("SUDOKIT_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "sudokit", command, *COMMANDS[command], *case.args],
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
    done = _run(command, case, workdir)
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
    done = _run(command, Case(("-p", EASY), b"", 0), workdir)
    assert done.returncode == 0, done.stderr
    bare = _run(command, Case((EASY,), b"", 2), workdir)
    lines = bare.stderr.decode().splitlines()
    assert bare.returncode == 2
    assert len(lines) == 1
    assert lines[0].startswith("sudokit:")
    assert "no such file" in lines[0].lower()
