"""Shell completion (click's) completes file names wherever a command takes one: the FILE
arguments, ``-o``, ``--out``, ``--pattern``, ``--jigsaw``, and ``--regions @FILE``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.shell_completion import BashComplete

from sudokit.cli.app import COMMANDS, _load, cli

#: The parameters that name a file, as their metavar or name says.
FILE_WORDS = ("FILE", "BOOK", "DIRECTORY")


def _takes_a_file(param: click.Parameter) -> bool:
    shown = param.metavar or ""
    if param.name == "regions":  # an @FILE value: test_regions_at_file_completes_the_names
        return False
    return any(word in shown for word in FILE_WORDS) or param.name in ("files", "output", "out")


def _file_params() -> list[tuple[str, click.Parameter]]:
    found = []
    for name in sorted(COMMANDS):
        command = _load(name)
        assert command is not None
        found += [
            (name, p)
            for p in command.params
            if _takes_a_file(p) and not getattr(p, "hidden", False)
        ]
    return found


def _completions(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    complete = BashComplete(cli, {}, "sudokit", "_SUDOKIT_COMPLETE")
    return [(item.type, item.value) for item in complete.get_completions(args, incomplete)]


@pytest.mark.parametrize(
    ("command", "param"),
    _file_params(),
    ids=lambda v: v if isinstance(v, str) else "/".join(v.opts) if v.opts else v.name,
)
def test_file_names_are_completed(command: str, param: click.Parameter) -> None:
    words = [command]
    if isinstance(param, click.Option):
        words.append(param.opts[-1])
    folder = isinstance(param.type, click.Path) and not param.type.file_okay
    assert ("dir" if folder else "file", "pu") in _completions(words, "pu")


def test_regions_at_file_completes_the_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "map9.txt").write_text("A" * 81)
    (tmp_path / "maps").mkdir()
    (tmp_path / "other.txt").write_text("")
    assert _completions(["solve", "--regions"], "@ma") == [
        ("plain", "@map9.txt"),
        ("plain", "@maps/"),
    ]
    assert _completions(["solve", "--regions"], "AAB") == []


def test_bash_completion_in_a_shell_session(tmp_path: Path) -> None:
    """As bash asks it: the completion variable and the words in the environment."""
    env = dict(
        os.environ,
        _SUDOKIT_COMPLETE="bash_complete",
        COMP_WORDS="sudokit solve puz",
        COMP_CWORD="2",
    )
    run = subprocess.run(
        [sys.executable, "-m", "sudokit"], env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["file,puz"]
