"""The command line under hostile use (brief HUNT): options and inputs a careless or
adversarial user gives, each answered as the README's conventions say -- one ``sudokit:``
line naming what and where, the documented exit code, the same wording in every command,
nothing started that the machine cannot bear -- through :func:`sudokit.cli.app.main`."""

from __future__ import annotations

import os

import pytest

from sudokit.cli.app import main
from sudokit.cli.common import JOBS_PER_CORE

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


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
