"""The command line under hostile use (brief HUNT): options and inputs a careless or
adversarial user gives, each answered as the README's conventions say -- one ``sudokit:``
line naming what and where, the documented exit code, the same wording in every command,
nothing started that the machine cannot bear -- through :func:`sudokit.cli.app.main`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sudokit
from sudokit.cli.app import main
from sudokit.cli.common import JOBS_PER_CORE

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def _refused_over_its_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> Path:
    """Run *command* with ``-o`` onto its input file: refused in one line, the input kept."""
    source = tmp_path / "in.txt"
    source.write_text(PUZZLE + "\n")
    code, out, err = _run(capsys, command, str(source), "-o", str(source))
    assert (code, out) == (2, "")
    assert err == f"sudokit: {source}: the output file is also an input; write to another file\n"
    assert source.read_text() == PUZZLE + "\n"
    return source


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "-n", "1"],
        ["dataset", "-n", "1", "-o", "-"],
        ["rate", "-p", PUZZLE],
        ["solve", "-p", PUZZLE],
        ["count", "-p", PUZZLE],
        ["check", "-p", PUZZLE],
    ],
    ids=lambda a: a[0],
)
def test_jobs_beyond_the_machine_are_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``--jobs 10000`` started 10,000 worker processes (a process pool forks them all at
    once) and hung generate, rate and dataset: every command now refuses more than
    JOBS_PER_CORE a core with one usage line, exit 2, and the same wording; the most allowed
    still runs."""
    most = JOBS_PER_CORE * (os.cpu_count() or 1)
    code, out, err = _run(capsys, *argv, "--jobs", str(most + 1))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"sudokit: {argv[0]}: Invalid value for '-j' / '--jobs': {most + 1} ")
    assert f"is more than {most} ({JOBS_PER_CORE} per core of this machine)" in err


NO_ANSWERS = {
    # conflicting givens (a 3 three times in row 1)
    "conflict": "33.3.2.6.9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    # no solution: row 1 lacks a 9 that column 9 already holds
    "none": "12345678." + "." * 27 + "........9" + "." * 36,
    # twelve solutions
    "multiple": "...456789679813245548927136...594678857361492964782513...648957796135824485279361",
}


@pytest.mark.parametrize("kind", sorted(NO_ANSWERS))
def test_hint_and_explain_name_the_puzzle_as_solve_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    """A puzzle without exactly one answer, as the second puzzle of a file: hint and explain
    said ``f.txt:2: no solution`` where every other command says ``f.txt:2: puzzle 2: ...``
    (the README's ``sudokit: <file>:<line>: ...`` with the puzzle's number, as solve, count,
    check and rate write it)."""
    source = tmp_path / "f.txt"
    source.write_text(f"{PUZZLE}\n{NO_ANSWERS[kind]}\n")
    lines = {
        command: _run(capsys, command, str(source))[2].splitlines()
        for command in ("hint", "explain", "solve", "rate")
    }
    prefix = f"sudokit: {source}:2: puzzle 2: "
    for command, err in lines.items():
        assert len(err) == 1, (command, err)
        assert err[0].startswith(prefix), (command, err)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "-p", PUZZLE],
        ["convert", "-p", PUZZLE],
        ["hint", "-p", PUZZLE],
        ["rate", "-p", PUZZLE],
        ["generate", "-n", "1"],
        ["dataset", "-n", "1"],
        ["render", "-p", PUZZLE, "-f", "svg"],
    ],
    ids=lambda a: a[0],
)
def test_a_full_output_is_named(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """``-o /dev/full`` said only ``sudokit: No space left on device``: the line now names
    the output that is full (a write error carries no file name of its own)."""
    code, _, err = _run(capsys, *argv, "-o", "/dev/full")
    assert code == 2
    assert err == "sudokit: /dev/full: No space left on device\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_named() -> None:
    """``sudokit solve ... > /dev/full``: the line says it is standard output that is full."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "sudokit", "solve", "-p", PUZZLE],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stderr == "sudokit: standard output: No space left on device\n"


def test_render_follows_the_output_conventions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """render wrote with Path.write_text: ``-o`` onto its own input replaced the puzzle with
    a picture (every other command refuses), ``-o -`` was "cannot tell the format of '-'"
    instead of standard output, and only ``-f`` named the output format where the README says
    ``--to`` does in every command."""
    source = _refused_over_its_input(capsys, tmp_path, "render")

    picture = _run(capsys, "render", str(source))
    assert picture[0] == 0
    assert picture[1].startswith("+---")
    assert _run(capsys, "render", str(source), "-o", "-") == picture
    svg = _run(capsys, "render", str(source), "--to", "svg")
    assert svg[0] == 0
    assert svg[1].startswith("<svg")
    assert _run(capsys, "render", str(source), "-f", "svg") == svg
    target = tmp_path / "out.svg"
    assert _run(capsys, "render", str(source), "-o", str(target))[0] == 0
    assert target.read_text() == svg[1]


def test_print_refuses_to_write_over_its_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``sudokit print puzzles.txt -o puzzles.txt`` replaced the puzzles with the PDF."""
    pytest.importorskip("reportlab")
    _refused_over_its_input(capsys, tmp_path, "print")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "-p", PUZZLE],
        ["generate", "-n", "1"],
        ["render", "-p", PUZZLE, "--to", "svg"],
        ["hint", "-p", PUZZLE],
    ],
    ids=lambda a: a[0],
)
def test_an_output_in_a_missing_directory_is_named_as_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    """``-o nodir/out.txt`` named the temporary file the output is written to first
    (``.../nodir/.out.txt.1234-0.tmp: No such file or directory``), not the path the user
    gave; nothing is created."""
    target = str(tmp_path / "nodir" / "out.txt")
    code, out, err = _run(capsys, *argv, "-o", target)
    assert (code, out) == (2, "")
    assert err == f"sudokit: {target}: No such file or directory\n"
    assert os.listdir(tmp_path) == []


HUGE = str(2**70)


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["generate", "-n", HUGE], "'-n' / '--count'"),
        (["dataset", "-o", "-", "-n", HUGE], "'-n' / '--count'"),
        (["generate", "--searches", HUGE], "'--searches'"),
        (["solve", "-p", PUZZLE, "--guesses", HUGE], "'--guesses'"),
        (["hint", "-p", PUZZLE, "--guesses", HUGE], "'--guesses'"),
        (["count", "-p", PUZZLE, "--limit", str(2**63 - 1)], "'--limit'"),
        (["dataset", "-o", "-", "-n", "1", "--size", "1"], "'--size'"),
    ],
    ids=["generate-n", "dataset-n", "searches", "solve-guesses", "hint-guesses", "limit", "size"],
)
def test_numbers_out_of_range_are_usage_errors_with_one_wording(
    capsys: pytest.CaptureFixture[str], argv: list[str], option: str
) -> None:
    """Numbers past what the 64-bit core takes were ``internal error: OverflowError``
    (generate -n 2**70), ``budget is too large`` (the option is --guesses), ``limit must be at
    most 2**63 - 1, got <the limit plus one>`` (count), and dataset --size 1 had its own
    words: each is now click's range line for the option, exit 2, before any work."""
    code, out, err = _run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert f"Invalid value for {option}: " in err
    assert "is not in the range" in err


def test_dataset_says_where_it_wrote_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    """``dataset -n 1 -o -`` ended with ``sudokit: wrote 1 rows to -``; and without ``-o``
    dataset was "Missing option '-o'" where the README says every command's output defaults
    to standard output, dataset included."""
    code, out, err = _run(capsys, "dataset", "-n", "1", "--size", "4", "-o", "-")
    assert code == 0
    assert out.count("\n") == 2  # the header and one row
    assert err == "sudokit: wrote 1 row to standard output\n"
    assert _run(capsys, "dataset", "-n", "1", "--size", "4") == (code, out, err)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM in /proc")
@pytest.mark.parametrize("command", ["solve", "rate"])
def test_resume_reads_a_huge_line_in_bounded_memory(tmp_path: Path, command: str) -> None:
    """``--resume`` read each line whole (the shards were cut with ``for line in file``): a
    64 MB line took several times 64 MB, where the record path reads at most MAX_LINE of
    it; and it was named ``puzzle text of N characters is larger than the limit`` where the
    plain run says ``line of N bytes is longer than 1048576; skipped``. Now the same words,
    and the whole run stays under the line's size."""
    size = 64 << 20
    source, out = tmp_path / "in.txt", tmp_path / "out.txt"
    with open(source, "wb") as f:
        for _ in range(size >> 20):
            f.write(b"1" * (1 << 20))
        f.write(b"\n" + PUZZLE.encode() + b"\n")
    extra = ["--to", "json"] if command == "rate" else []
    code = textwrap.dedent(
        f"""
        from sudokit.cli.app import main
        code = main({[command, str(source), "-o", str(out), "--resume", *extra]!r})
        # the peak of this process's own memory (ru_maxrss also counts the parent's at exec)
        peak = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
        print(code, int(peak.split()[1]) * 1024)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    status, peak = map(int, done.stdout.split())
    assert status == 2
    assert done.stderr == (
        f"sudokit: {source}:1: puzzle 1: line of {size + 1} bytes is longer than 1048576; skipped\n"
    )
    assert peak < size, f"peak RSS {peak >> 20} MiB for a {size >> 20} MiB line"
    rows = out.read_text().splitlines()
    assert len(rows) == 2
    if command == "solve":
        assert rows == ["!invalid", str(sudokit.solution(sudokit.Grid.parse(PUZZLE)))]
    else:
        assert json.loads(rows[1])["puzzle"] == PUZZLE


@pytest.mark.skipif(sys.platform == "win32", reason="closes a standard stream with sh")
@pytest.mark.parametrize(
    ("args", "redirect", "code", "err"),
    [
        ("solve -p " + PUZZLE, ">&-", 2, "sudokit: standard output: Bad file descriptor\n"),
        ("generate -n 1", ">&-", 2, "sudokit: standard output: Bad file descriptor\n"),
        ("--version", ">&-", 2, "sudokit: standard output: Bad file descriptor\n"),
        ("solve", "<&-", 2, "sudokit: <stdin>: Bad file descriptor\n"),
        ("solve -p " + PUZZLE + " -o /dev/null", ">&-", 0, ""),
    ],
    ids=["solve", "generate", "version", "stdin", "unused"],
)
def test_a_closed_standard_stream_is_one_line(
    args: str, redirect: str, code: int, err: str
) -> None:
    """``sudokit solve ... >&-`` (or ``<&-``): Python sets a closed standard stream to None,
    and every command answered ``internal error: AttributeError: 'NoneType' object has no
    attribute 'write'`` (``--version``/``--help``: a traceback). Now the stream is named as
    the shell's tools name it, and a run that does not use it is not disturbed."""
    done = subprocess.run(
        ["sh", "-c", f'exec "$0" -m sudokit {args} {redirect}', sys.executable],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (code, err)


@pytest.mark.parametrize(
    ("argv", "kind", "why"),
    [
        (["render", "--solution"], "multiple", "the puzzle has more than one solution"),
        (["render", "--hint"], "conflict", "conflicting givens"),
        (["print", "--answers", "-o", "-"], "none", "the puzzle has no solution"),
        (["print", "--rate", "-o", "-"], "multiple", "has more than one solution"),
    ],
    ids=["render-solution", "render-hint", "print-answers", "print-rate"],
)
def test_render_and_print_name_the_puzzle_and_keep_the_worst_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], kind: str, why: str
) -> None:
    """After a bad record, a puzzle render/print cannot answer for was named by its place
    among the readable ones (``puzzle 1`` for the second puzzle), ``render --hint`` named
    no place at all (``sudokit: conflicting givens in ...``), and the exit code was 1 though
    a bad record (2) had been reported: the worst code wins everywhere else."""
    if argv[0] == "print":
        pytest.importorskip("reportlab")
    source = tmp_path / "in.txt"
    source.write_text(f"bad\n{NO_ANSWERS[kind]}\n")
    code, _, err = _run(capsys, *argv, str(source))
    lines = err.splitlines()
    assert code == 2
    assert lines[0].startswith(f"sudokit: {source}:1: puzzle 1: ")
    assert lines[1].startswith(f"sudokit: {source}:2: puzzle 2: ")
    assert why in lines[1]
    assert len(lines) == 2


def test_print_names_a_puzzle_it_leaves_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """print's line for a puzzle with conflicting givens had no puzzle number."""
    pytest.importorskip("reportlab")
    source = tmp_path / "in.txt"
    source.write_text(f"{PUZZLE}\n{NO_ANSWERS['conflict']}\n")
    code, _, err = _run(capsys, "print", str(source), "-o", str(tmp_path / "book.pdf"))
    assert code == 1
    assert err.splitlines()[0] == (
        f"sudokit: {source}:2: puzzle 2: conflicting givens (3 in row 1: r1c1, r1c2, r1c4); "
        "left out"
    )
