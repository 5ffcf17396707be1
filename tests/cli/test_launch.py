"""The console script's entry point (``src/_sudokit_launch.py``): a Ctrl-C while the package
is still importing ends like one during a command, one stderr line and exit 130, not a
``KeyboardInterrupt`` traceback (3 of 128 random Ctrl-Cs of the issue-29 campaign hit that
window, 0.05-0.13 s after the start)."""

from __future__ import annotations

import builtins
import sys
import tomllib
from typing import Any

import pytest

import _sudokit_launch
from support import REPO


def test_the_console_script_is_the_launcher() -> None:
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"sudokit": "_sudokit_launch:main"}


def test_ctrl_c_during_the_import_is_one_line_and_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = builtins.__import__

    def interrupted(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "sudokit.cli":
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert _sudokit_launch.main() == 130
    assert capsys.readouterr().err == "sudokit: interrupted\n"


def test_the_launcher_runs_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["sudokit", "solve", "-p", "1234341221434321"])
    assert _sudokit_launch.main() == 0
    assert capsys.readouterr().out == "1234341221434321\n"
