"""Links people paste: the Cracking the Cryptic app's links (SudokuPad under another address,
what f-puzzles' "open in app" writes), SudokuPad's classic ids (the givens packed into the
id), and refusals that name every rule a puzzle has outside the model. Payloads are made
with the project's own encoders (``fpuzzles.payload``, ``lzstring``, ``classic_id``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sudokit import Grid, ParseError, Shape, formats, solve
from sudokit.cli.app import main
from sudokit.constraints import Constraints
from sudokit.formats import fpuzzles, lzstring

LINE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
PUZZLE = Grid.parse(LINE)
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
KING = Grid.parse("1" + "." * 15, Shape(2, 2, constraints=Constraints(antiking=True)))


def _link(obj: dict[str, Any], base: str = fpuzzles.F_PUZZLES) -> str:
    return base + lzstring.compress(json.dumps(obj))


# -- the CTC app -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefix",
    [
        "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles",
        "https://app.crackingthecryptic.com/fpuz",
        "https://app.crackingthecryptic.com/fpuzzles",
        "https://app.crackingthecryptic.com/sudoku/fpuzzles",
        "app.crackingthecryptic.com/?puzzleid=fpuz",
    ],
)
@pytest.mark.parametrize("grid", [PUZZLE, KING], ids=["classic", "antiking"])
def test_ctc_app_links_carry_the_sudokupad_payload(prefix: str, grid: Grid) -> None:
    link = prefix + fpuzzles.payload(grid)
    assert formats.sniff(link) == "sudokupad"
    assert formats.parse_one(link) == grid


def test_a_ctc_app_link_is_solved_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    link = "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles" + fpuzzles.payload(PUZZLE)
    assert main(["solve", "-p", link]) == 0
    assert capsys.readouterr().out == SOLVED + "\n"


def test_a_ctc_app_link_to_a_puzzle_kept_by_the_site_says_so() -> None:
    with pytest.raises(ParseError, match="names a puzzle kept by the site"):
        formats.parse_one("https://app.crackingthecryptic.com/sudoku/abc123xyz")


# -- SudokuPad's classic ids -----------------------------------------------------------------


def _older_form(grid: Grid) -> str:
    """The older classic form, written here from its rule: a given is itself, a run of k
    blanks is the k-th character of the alphabet below (at most 69 a character)."""
    runs = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz()[]-.~:@!$&'*,;=_"
    out, blanks = [], 0
    for value in [*grid.cells, None]:
        if value == 0:
            blanks += 1
            continue
        while blanks:
            out.append(runs[min(blanks, 69)])
            blanks -= min(blanks, 69)
        if value is not None:
            out.append(str(value))
    return "".join(out)


@pytest.mark.parametrize(
    "grid",
    [PUZZLE, Grid.parse("." * 81), Grid.parse(SOLVED), Grid.parse("1.3....22....3.1")],
    ids=["puzzle", "empty", "full", "4x4"],
)
def test_classic_ids_are_read_in_both_forms(grid: Grid) -> None:
    from sudokit.formats.sudokupad import classic_id

    for base in ("https://sudokupad.app/", "https://app.crackingthecryptic.com/sudoku/"):
        assert formats.parse_one(base + "classic" + classic_id(grid)) == grid
    older = _older_form(grid)
    if any(
        ch not in "0123456789" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
        for ch in older
    ):
        assert formats.parse_one("https://sudokupad.app/classic" + older) == grid


def test_a_classic_id_is_solved_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from sudokit.formats.sudokupad import classic_id

    assert main(["solve", "-p", "https://sudokupad.app/classic" + classic_id(PUZZLE)]) == 0
    assert capsys.readouterr().out == SOLVED + "\n"


@pytest.mark.parametrize(
    ("tail", "says"),
    [
        ("1B3", "the classic id '1B3' holds no grid (4 cells in the packed form and 3 cells"),
        ("12{", "holds '{', which no classic id holds"),
    ],
)
def test_a_classic_id_that_holds_no_grid_says_what_it_holds(tail: str, says: str) -> None:
    with pytest.raises(ParseError) as caught:
        formats.parse_one("https://sudokupad.app/classic" + tail)
    assert says in str(caught.value)


def test_a_classic_id_is_no_longer_called_kept_by_the_site() -> None:
    from sudokit.formats.sudokupad import classic_id

    text = "https://sudokupad.app/classic" + classic_id(PUZZLE)
    assert solve(formats.parse_one(text)).solution == Grid.parse(SOLVED)


# -- refusals name every rule ----------------------------------------------------------------


def test_a_refusal_names_every_unsupported_rule_in_one_line() -> None:
    obj = fpuzzles.to_object(PUZZLE)
    obj["fog"] = [{"cells": ["R1C1"]}]
    obj["loopline"] = [{"lines": [["R2C1", "R2C2"]]}]
    obj["chaos"] = True
    with pytest.raises(ParseError) as caught:
        formats.parse_one(_link(obj))
    message = str(caught.value)
    assert message.endswith("f-puzzles: 'fog', 'loopline' and 'chaos' are not supported")
    assert "\n" not in message


def test_sudokupad_drawings_are_all_named() -> None:
    layout = {"cells": [[{}] * 4 for _ in range(4)], "lines": [{}], "arrows": [{}]}
    link = "https://sudokupad.app/scl" + lzstring.compress(json.dumps(layout))
    with pytest.raises(ParseError, match="'lines' and 'arrows' are not supported"):
        formats.parse_one(link)
