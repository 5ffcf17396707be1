"""The deprecated ``--budget`` takes exactly the values of the option it was renamed to.

Old code: ``rate --budget -1`` (or ``nan``) ran an unbounded rating where ``--seconds -1`` is
refused, and ``solve --budget 2**64`` / ``generate --budget 0`` failed later, in other words.
Now one rule: the old spelling is checked as the new one, and refused with the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from sudokit.cli.app import main

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: Each command with an old ``--budget``, the option it now is, and values that option refuses.
RENAMED = [
    ("rate", "--seconds", ["-1", "nan", "-0.5", "x"]),
    ("hint", "--seconds", ["-1", "nan"]),
    ("explain", "--seconds", ["-1", "nan"]),
    ("solve", "--guesses", ["-1", str(2**64), "1.5"]),
    ("count", "--guesses", ["-1", str(2**64)]),
    ("check", "--guesses", ["-1", str(2**64)]),
    ("generate", "--searches", ["0", "-1", str(2**64)]),
]


@dataclass
class Done:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., Done]:
    """The CLI in this process, as the ``sudokit`` command runs it (one-line usage errors)."""

    def invoke(*args: str) -> Done:
        code = main(list(args))
        out, err = capsys.readouterr()
        return Done(code, out, err)

    return invoke


@pytest.mark.parametrize(
    ("command", "new", "value"),
    [(c, new, v) for c, new, values in RENAMED for v in values],
)
def test_the_old_name_refuses_what_the_new_one_refuses(
    run: Callable[..., Done], command: str, new: str, value: str
) -> None:
    puzzle = [] if command == "generate" else ["-p", EASY]
    refused = run(command, f"{new}={value}", *puzzle)
    assert refused.exit_code == 2
    old = run(command, f"--budget={value}", *puzzle)
    assert (old.exit_code, old.stdout) == (2, "")
    assert old.stderr == refused.stderr.replace(new, "--budget")
    assert len(old.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("command", "new", "value"), [("rate", "--seconds", "5"), ("solve", "--guesses", "100")]
)
def test_a_good_value_still_works_with_one_deprecation_line(
    run: Callable[..., Done], command: str, new: str, value: str
) -> None:
    done = run(command, new, value, "-p", EASY)
    old = run(command, "--budget", value, "-p", EASY)
    assert (old.exit_code, old.stdout) == (done.exit_code, done.stdout) == (0, done.stdout)
    assert old.stderr == f"sudokit: --budget is deprecated; use {new}\n"
