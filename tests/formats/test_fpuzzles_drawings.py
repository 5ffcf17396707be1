"""f-puzzles' drawing tools (``text``, ``line``, ``circle``, ``rectangle`` and the plain
``cage``, which is not ``killercage``) set no rule: a puzzle that has them is read without
them, its ``dropped`` field says what was left undrawn and the CLI says it in one stderr
line (exit code unchanged). A ``cage`` with a value carries a rule that only the puzzle's
text states: it is refused by name. Links are made with the project's encoder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sudokit import Grid, ParseError, formats
from sudokit.cli.app import main
from sudokit.formats import fpuzzles, lzstring

LINE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
PUZZLE = Grid.parse(LINE)
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
DRAWINGS: dict[str, Any] = {
    "text": [{"cells": ["R1C1"], "value": "hello", "fontC": "#000000", "size": 0.5}],
    "line": [
        {"lines": [["R1C1", "R1C2", "R1C3"]], "outlineC": "#FFA0A0", "width": 0.1},
        {"lines": [["R5C5", "R6C6"]], "outlineC": "#A0A0FF", "width": 0.1},
    ],
    "circle": [{"cells": ["R2C2"], "baseC": "#FFFFFF", "outlineC": "#000000", "value": ""}],
    "rectangle": [{"cells": ["R3C3"], "baseC": "#FFFFFF", "width": 0.5, "height": 0.5}],
    "cage": [{"cells": ["R9C8", "R9C9"], "outlineC": "#000000"}],
}


def _link(**extra: Any) -> str:
    obj = fpuzzles.to_object(PUZZLE)
    obj.update(extra)
    return fpuzzles.F_PUZZLES + lzstring.compress(json.dumps(obj))


def test_a_puzzle_with_drawings_is_read_and_says_what_was_left_undrawn() -> None:
    [record] = formats.parse_records(_link(**DRAWINGS))
    assert record.grid == PUZZLE
    assert record.fields["dropped"] == "1 text, 2 lines, 1 circle, 1 rectangle, 1 cage"
    assert formats.parse_one(_link(line=DRAWINGS["line"])) == PUZZLE


def test_a_puzzle_without_drawings_has_no_note() -> None:
    [record] = formats.parse_records(_link())
    assert "dropped" not in record.fields


def test_the_cli_warns_in_one_line_and_keeps_its_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "links.txt"
    path.write_text(_link(**DRAWINGS) + "\n" + _link() + "\n")
    assert main(["solve", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [SOLVED, SOLVED]
    assert err.splitlines() == [
        f"sudokit: {path}:1: puzzle 1: left undrawn: 1 text, 2 lines, 1 circle, 1 rectangle, 1 cage"
    ]


@pytest.mark.parametrize("value", ["12", 12, "x2"])
def test_a_cage_with_a_value_is_a_rule_and_refused(value: Any) -> None:
    with pytest.raises(ParseError) as caught:
        formats.parse_one(_link(cage=[{"cells": ["R1C1", "R1C2"], "value": value}]))
    assert str(caught.value).endswith(
        "f-puzzles: 'cage' with a value (a rule the puzzle's text states) is not supported"
    )


def test_a_refused_cage_is_named_with_the_other_refused_rules() -> None:
    link = _link(
        cage=[{"cells": ["R1C1"], "value": "6"}],
        fog=[{"cells": ["R1C1"]}],
        **{k: v for k, v in DRAWINGS.items() if k != "cage"},
    )
    with pytest.raises(ParseError) as caught:
        formats.parse_one(link)
    assert str(caught.value).endswith(
        "'cage' with a value (a rule the puzzle's text states) and 'fog' are not supported"
    )
