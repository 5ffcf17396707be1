"""Input that is not UTF-8 text gets one message, whatever reads it: every command that reads
puzzle files, in plain, bulk, ``--jobs`` and ``--resume`` modes, and the whole small files
(``--pattern``, ``--regions @FILE``, pencil marks) say ``FILE:LINE: [puzzle N: ]column C: not
UTF-8 text (byte 0xXX)`` (or ``binary data, not text (a NUL byte)``), exit 2, no traceback.
The message comes from one place, :func:`sudokit.formats.line_text`."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.cli.app import main

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: A puzzle line whose byte 80 (0-based 79) is 0xff, not UTF-8.
BAD = PUZZLE[:79].encode() + b"\xff" + PUZZLE[80:].encode()
#: The same with a NUL byte there instead.
NUL = PUZZLE[:79].encode() + b"\x00" + PUZZLE[80:].encode()
#: A comment line that is not UTF-8 is a bad line too, not a comment (plain mode reads it so).
COMMENT = b"# caf\xe9"


def _file(tmp_path: Path, *lines: bytes) -> str:
    path = tmp_path / "in.txt"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err.splitlines()


def _expected(path: str, line: int, column: int, what: str, puzzle: int | None = None) -> str:
    record = "" if puzzle is None else f"puzzle {puzzle}: "
    return f"sudokit: {path}:{line}: {record}column {column}: {what}"


UTF8 = "not UTF-8 text (byte 0xff)"
NUL_TEXT = "binary data, not text (a NUL byte)"


@pytest.mark.parametrize(
    "argv",
    [
        ["solve"],
        ["solve", "--jobs", "2"],
        ["solve", "--unique"],
        ["check"],
        ["count"],
        ["convert", "--to", "json"],
        ["rate", "--seconds", "5"],
        ["hint"],
        ["explain", "--seconds", "5"],
        ["render"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_every_puzzle_reader_says_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    path = _file(tmp_path, PUZZLE.encode(), BAD, NUL)
    code, err = _run(capsys, *argv, path)
    assert code == 2
    assert _expected(path, 2, 80, UTF8, puzzle=2) in err
    if argv[0] not in ("hint", "render"):  # these stop after the first bad record or draw one
        assert _expected(path, 3, 80, NUL_TEXT, puzzle=3) in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_resume_says_what_plain_mode_says(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """``solve --resume`` decoded lines with replacement characters and said "unexpected
    character" (and took a non-UTF-8 ``#`` line for a comment); now its lines, exit code and
    output rows are plain mode's."""
    path = _file(tmp_path, PUZZLE.encode(), BAD, COMMENT, NUL, PUZZLE.encode())
    out = tmp_path / "out.txt"
    code, err = _run(capsys, "solve", "--jobs", jobs, "--resume", "-o", str(out), path)
    plain_code, plain_err = _run(capsys, "solve", "-o", str(tmp_path / "plain.txt"), path)
    assert (code, err) == (plain_code, plain_err)
    assert code == 2
    assert err == [
        _expected(path, 2, 80, UTF8, puzzle=2),
        _expected(path, 3, 6, "not UTF-8 text (byte 0xe9)", puzzle=3),
        _expected(path, 4, 80, NUL_TEXT, puzzle=4),
    ]
    assert out.read_text() == (tmp_path / "plain.txt").read_text()
    assert out.read_text().splitlines()[1:4] == ["!invalid"] * 3


def test_rate_resume_says_what_plain_rate_says(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _file(tmp_path, PUZZLE.encode(), BAD, COMMENT, PUZZLE.encode())  # mostly text
    out = tmp_path / "out.json"
    args = ("rate", "--to", "json", "--seconds", "5")
    code, err = _run(capsys, *args, "--resume", "-o", str(out), path)
    assert (code, err) == _run(capsys, *args, path)
    assert err == [
        _expected(path, 2, 80, UTF8, puzzle=2),
        _expected(path, 3, 6, "not UTF-8 text (byte 0xe9)", puzzle=3),
    ]
    assert code == 2


def test_resume_refuses_a_binary_file_as_plain_mode_reports_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    binary = tmp_path / "noise.bin"
    binary.write_bytes(bytes(range(128, 256)) * 4)
    code, err = _run(capsys, "solve", "--resume", "-o", str(tmp_path / "out.txt"), str(binary))
    assert (code, err) == _run(capsys, "solve", str(binary))
    assert err == [f"sudokit: {binary}:1: puzzle 1: binary data, not UTF-8 text"]


@pytest.mark.parametrize(
    ("argv", "label"),
    [
        (["generate", "--pattern", "{}"], "--pattern: "),
        (["generate", "--regions", "@{}"], "--regions: "),
        (["render", "--from", "candidates", "{}"], ""),
        (["hint", "--from", "candidates", "{}"], ""),
    ],
    ids=["pattern", "regions", "render marks", "hint marks"],
)
def test_whole_small_files_say_it_on_their_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], label: str
) -> None:
    """Pencil marks, patterns and region maps are read whole: the same message, on the line
    and column of the first bad byte (it said "at offset N" of the file before)."""
    path = _file(tmp_path, b"AAABBBCCC", b"AA\xffBBBCCC")
    code, err = _run(capsys, *[arg.format(path) for arg in argv])
    assert code == 2
    assert err == [f"sudokit: {label}{path}:2: column 3: {UTF8}"]
    nul = _file(tmp_path, b"AAABBBCCC", b"AAAB\x00BCCC")
    code, err = _run(capsys, *[arg.format(nul) for arg in argv])
    assert (code, err) == (2, [f"sudokit: {label}{nul}:2: column 5: {NUL_TEXT}"])
