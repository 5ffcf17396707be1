"""A puzzle typed as a bare argument is a file name that does not exist: every reading
command says so in one stderr line that also says how to pass a puzzle as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.cli.app import main

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

#: command -> the arguments it needs besides its input (print writes a PDF).
COMMANDS = {
    "solve": [],
    "count": [],
    "check": [],
    "convert": [],
    "candidates": [],
    "hint": [],
    "hint --marks": [],
    "explain": [],
    "rate": [],
    "render": [],
    "print": ["-o", "book.pdf"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("output", [False, True], ids=["stdout", "file"])
def test_bare_puzzle_is_one_line_with_the_advice(
    command: str,
    output: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    extra = COMMANDS[command] or (["-o", "out.txt"] if output else [])
    assert main([*command.split(), EASY, *extra]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.lower().startswith(f"sudokit: {EASY}: no such file".lower()), err
    assert err.rstrip().endswith("; to pass a puzzle as text use -p"), err


def test_a_mistyped_file_name_gets_no_advice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "no-such-puzzles.txt"]) == 2
    assert capsys.readouterr().err == "sudokit: no-such-puzzles.txt: No such file or directory\n"
