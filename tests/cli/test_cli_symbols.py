"""CLI --symbols: a declared cell alphabet (hexadoku written 0-9A-F), and the hint when a 16x16
read with the default symbols looks shifted."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

import sudokit
from sudokit.cli.app import cli

HEX = "0123456789ABCDEF"


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.fixture(scope="module")
def hexadoku() -> tuple[sudokit.Grid, str]:
    """A unique 16x16 puzzle and its text written with the digits 0-9A-F (0 is the digit 1)."""
    puzzle = sudokit.generate(shape=sudokit.Shape(4, 4), seed=3).puzzle
    text = "".join("." if v == 0 else HEX[v - 1] for v in puzzle.cells)
    assert "0" in text
    return puzzle, text


@pytest.mark.parametrize(
    "command", ["solve", "check", "count", "rate", "convert", "render", "print", "hint", "explain"]
)
def test_every_reading_command_takes_symbols(command: str) -> None:
    result = run(command, "--help")
    assert "--symbols" in result.output


def test_declared_alphabet_reads_hexadoku(hexadoku: tuple[sudokit.Grid, str]) -> None:
    puzzle, text = hexadoku
    result = run("solve", "--symbols", "0-9A-F", "-", input=text + "\n")
    assert result.exit_code == 0, result.output
    solution = sudokit.Grid.parse(result.stdout.strip())
    assert solution == sudokit.solution(puzzle)
    assert run("check", "--symbols", "0-9A-F", "-p", text).stdout.strip() == "unique"


def test_default_alphabet_hints_at_the_shift(hexadoku: tuple[sudokit.Grid, str]) -> None:
    _puzzle, text = hexadoku
    result = run("check", "-", input=text + "\n" + text + "\n")
    assert result.exit_code == 1  # with 0 as a blank the puzzle has several solutions
    hints = [line for line in result.stderr.splitlines() if "--symbols 0-9A-F" in line]
    assert len(hints) == 1  # once per source, not once per puzzle
    assert hints[0].startswith("sudokit: <stdin>:1: ")


def test_no_hint_for_a_puzzle_that_uses_every_digit(hexadoku: tuple[sudokit.Grid, str]) -> None:
    puzzle, _text = hexadoku
    full = sudokit.solution(puzzle)
    result = run("check", "-p", str(full))
    assert result.exit_code == 0
    assert "--symbols" not in result.stderr


def test_bad_declaration_is_one_usage_line() -> None:
    result = run("check", "--symbols", "", "-p", "1" * 81)
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("sudokit: --symbols")
    assert len(result.stderr.strip().splitlines()) == 1


def test_resume_refuses_symbols() -> None:
    result = run("solve", "--resume", "--symbols", "0-9A-F", "-o", "out.txt", "in.txt")
    assert result.exit_code == 2
    assert "--symbols" in result.stderr
