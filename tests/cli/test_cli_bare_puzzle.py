"""A puzzle typed as a bare argument is a file name that does not exist: every reading
command says so in one stderr line that also says how to pass a puzzle as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.cli.app import main
from support.reading_commands import COMMANDS as READING
from support.reading_commands import EASY

#: The reading commands (command -> its other arguments), hint --marks too.
COMMANDS = {**READING, "hint --marks": []}


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
