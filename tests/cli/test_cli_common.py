"""Shared CLI helpers: reporting, exit codes, guarded errors, progress, inputs."""

from __future__ import annotations

import io

import click
import pytest
from click.testing import CliRunner

import support
from sudokit import InvalidPuzzleError, ParseError, Shape
from sudokit.cli import common
from sudokit.cli.app import main

DATA = support.DATA / "formats"


def test_reporter_keeps_the_worst_exit_code() -> None:
    out = io.StringIO()
    r = common.Reporter(stream=out)
    assert r.code == common.EXIT_OK
    r.warn("a.txt", 3, "just saying")
    assert r.code == common.EXIT_OK
    r.problem("a.txt", 4, "puzzle 2: no solution")
    assert r.code == common.EXIT_NO
    r.parse_error(ParseError("bad", line=9, column=2, source="a.txt"), prefix="puzzle 5: ")
    r.problem("a.txt", 10, "puzzle 6: no solution")
    assert r.code == common.EXIT_USAGE
    assert out.getvalue().splitlines() == [
        "sudokit: a.txt:3: just saying",
        "sudokit: a.txt:4: puzzle 2: no solution",
        "sudokit: a.txt:9: puzzle 5: column 2: bad",
        "sudokit: a.txt:10: puzzle 6: no solution",
    ]
    with pytest.raises(click.exceptions.Exit) as info:
        r.exit()
    assert info.value.exit_code == 2


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (InvalidPuzzleError("conflicting givens: 1 twice in row 1"), "conflicting givens"),
        (ParseError("bad thing", line=2, source="f.txt"), "f.txt:2: bad thing"),
        (FileNotFoundError(2, "No such file or directory", "x.txt"), "x.txt: No such file"),
        (ValueError("limit must be >= 2"), "limit must be >= 2"),
    ],
)
def test_guarded_turns_errors_into_one_line(error: Exception, message: str) -> None:
    @click.command()
    @common.guarded
    def boom() -> None:
        raise error

    result = CliRunner().invoke(boom, [])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("sudokit: ")
    assert message in lines[0]
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_main_returns_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / "sudocue.sdk")]) == 0
    assert capsys.readouterr().out == "unique\n"
    assert main(["check", str(DATA / "bad_lines.sdm")]) == 2
    assert main(["solve", "--box", "nonsense", str(DATA / "sudocue.sdk")]) == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("sudokit: --box:")


def test_records_number_across_files_and_apply_x() -> None:
    reporter = common.Reporter(stream=io.StringIO())
    files = [str(DATA / "sudocue.sdk"), str(DATA / "missing.txt"), str(DATA / "kaggle.csv")]
    given = common.PuzzleInput(tuple(files), (), None, None, None, True)
    items = list(common.records(given, reporter))
    assert [(i.number, i.record.index, i.source) for i in items] == [
        (1, 1, files[0]),
        (2, 1, files[2]),
        (3, 2, files[2]),
    ]
    assert all(i.grid is not None and i.grid.shape == Shape(3, 3, diagonals=True) for i in items)
    assert reporter.code == common.EXIT_USAGE
    assert items[1].where == f"{files[2]}:2"


def test_progress_is_silent_without_a_terminal() -> None:
    reporter = common.Reporter(stream=io.StringIO())
    with common.progress("working", reporter) as advance:
        advance(5)
    assert reporter.echo == reporter._echo


def test_progress_bar_with_rich_routes_messages_above_it() -> None:
    pytest.importorskip("rich")
    reporter = common.Reporter(stream=io.StringIO())
    plain = reporter.echo
    with common.progress("working", reporter, enabled=True) as advance:
        advance(3)
        assert reporter.echo is not plain
        reporter.warn("f", 1, "shown above the bar")
    assert reporter.echo == plain


def test_progress_without_rich_is_a_plain_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default install (no rich): a plain stderr line, rewritten in place and erased at
    the end; messages print on their own line above it."""
    import sys
    import time

    monkeypatch.setitem(sys.modules, "rich.console", None)  # import fails: no rich
    monkeypatch.setitem(sys.modules, "rich.progress", None)
    reporter = common.Reporter()
    with common.progress("working", reporter, enabled=True, total=lambda: 7) as advance:
        time.sleep(0.25)  # the line is redrawn at most five times a second
        advance(7)
        reporter.warn("f", 1, "shown above the line")
    err = capsys.readouterr().err
    assert "\rworking: 0/7" in err
    assert "\rworking: 7/7" in err
    assert "sudokit: f:1: shown above the line\n" in err
    assert err.endswith("\r")  # erased: the terminal is left clean
    assert reporter.echo == reporter._echo


def test_guarded_reports_a_bug_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    @click.command()
    @common.guarded
    def buggy() -> None:
        raise KeyError("oops")

    result = CliRunner().invoke(buggy, [])
    assert result.exit_code == 2
    assert result.stderr.startswith("sudokit: internal error: KeyError: 'oops'")
    monkeypatch.setenv("SUDOKIT_DEBUG", "1")
    assert isinstance(CliRunner().invoke(buggy, []).exception, KeyError)
