"""Every command that reads puzzles takes the same input options, declared once
(:func:`sudokit.cli.common.puzzle_input`): the FILE argument, ``-p/--puzzle``, ``--from``,
``--symbols``, ``--box``, ``--x`` and ``--regions``, first in ``--help`` and in that order."""

from __future__ import annotations

import click
import pytest

from sudokit.cli import common
from sudokit.cli.app import COMMANDS, _load

# The parameter names (click's destinations) of the shared input, in --help order.
INPUT = ["files", "puzzles", "fmt", "symbols", "box", "diagonals", "regions"]
# Commands that make or serve puzzles instead of reading them.
NOT_READING = {"generate", "serve", "bench", "dataset"}


def _command(name: str) -> click.Command:
    command = _load(name)
    assert command is not None, name
    return command


def _signature(param: click.Parameter) -> tuple[object, ...]:
    """What a user sees of *param*: its spellings, its help and its kind."""
    return (
        type(param).__name__,
        tuple(param.opts),
        getattr(param, "help", None),
        param.multiple,
        param.nargs,
        getattr(param, "is_flag", False),
    )


def _reference() -> list[tuple[object, ...]]:
    """The input parameters as :func:`common.puzzle_input` declares them."""

    @click.command()
    @common.puzzle_input
    def probe(given: common.PuzzleInput) -> None:
        """Probe."""

    return [_signature(p) for p in probe.params if p.name in INPUT]


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - NOT_READING))
def test_every_reading_command_takes_the_same_input_options_first(name: str) -> None:
    params = [p for p in _command(name).params if p.name != "help"]
    assert [p.name for p in params[: len(INPUT)]] == INPUT
    assert [_signature(p) for p in params[: len(INPUT)]] == _reference()


@pytest.mark.parametrize("name", sorted(NOT_READING & set(COMMANDS)))
def test_commands_that_read_no_puzzles_take_no_puzzle_input(name: str) -> None:
    names = {p.name for p in _command(name).params}
    assert not names & {"files", "puzzles"}


def test_the_input_reaches_the_command_as_one_value() -> None:
    seen: list[common.PuzzleInput] = []

    @click.command()
    @common.puzzle_input
    def probe(given: common.PuzzleInput) -> None:
        """Probe."""
        seen.append(given)

    probe.main(
        ["a.txt", "-p", "1...", "--from", "line", "--box", "2x2", "--x"], standalone_mode=False
    )
    (given,) = seen
    assert given.files == ("a.txt",)
    assert given.puzzles == ("1...",)
    assert given.fmt == "line"
    assert given.symbols is None
    assert given.shape is not None
    assert given.shape.n == 4
    assert given.shape.diagonals
    assert given.diagonals
    assert not given.marks
