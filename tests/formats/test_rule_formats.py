"""Every rule kind of sudokit.rules in the formats: JSON's "rules" key and f-puzzles' keys (the
table of formats.fpuzzles_rules), round trips on a small example per kind, bad input named."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sudokit import Cage, Constraints, Grid, ParseError, Shape, _backend, formats
from sudokit import rules as r
from sudokit.cli.app import cli
from sudokit.formats import fpuzzles, fpuzzles_rules, lzstring
from sudokit.rules import KINDS, Rule

N = 9
ROW1 = tuple(range(N))
COLUMN1 = tuple(range(0, N * N, N))

#: One small example of every kind on 9x9 (a few kinds twice, in another form).
EXAMPLES: dict[str, list[Rule]] = {
    "arrow": [r.Arrow((0,), ((1, 2),)), r.Arrow((10, 11), ((12, 13), (20, 30)))],
    "between": [r.Between((0, 1, 2))],
    "boxindexer": [r.BoxIndexer((0, 40), (3, 3))],
    "clone": [r.Clone((0, 1), (30, 31))],
    "columnindexer": [r.ColumnIndexer((0, 9))],
    "diagonal": [r.Diagonal(1)],
    "diagonalnonconsecutive": [r.DiagonalNonconsecutive()],
    "difference": [r.Difference((0, 1), 3)],
    "disjointgroups": [r.DisjointGroups((3, 3))],
    "doublearrow": [r.DoubleArrow((0, 1, 2))],
    "entropic": [r.Entropic((0, 1, 2, 3))],
    "extraregion": [r.ExtraRegion((0, 1, 9, 10))],
    "knightmare": [r.Knightmare()],
    "littlekiller": [r.LittleKiller((2, 10, 18), 12), r.LittleKiller((78, 70, 62), 9)],
    "maximum": [r.Maximum((40, 41))],
    "minimum": [r.Minimum((30,))],
    "modular": [r.Modular((0, 1, 2))],
    "nabner": [r.Nabner((0, 1))],
    "pairsum": [r.PairSum((0, 1), 7)],
    "palindrome": [r.Palindrome((0, 1, 2))],
    "quadruple": [r.Quadruple((0, 1, 9, 10), (1, 2))],
    "sumcage": [r.SumCage((0, 1), (10, 15))],
    "ratio": [r.Ratio((0, 1), 3)],
    "regionsum": [r.RegionSum(((1, 2), (3, 4)))],
    "renban": [r.Renban((0, 1, 2))],
    "rowindexer": [r.RowIndexer((0,))],
    "sandwich": [r.Sandwich(ROW1, 10), r.Sandwich(ROW1[::-1], 5)],
    "selftaxicab": [r.SelfTaxicab()],
    "skyscraper": [r.Skyscraper(COLUMN1[::-1], 3)],
    "slowthermo": [r.SlowThermo((0, 1, 2))],
    "taxicab": [r.Taxicab(4)],
    "whispers": [r.Whispers((0, 1, 2)), r.Whispers((9, 10), 4)],
    "xsum": [r.XSum(COLUMN1, 15)],
    "zipper": [r.Zipper((0, 1, 2))],
}


def _rules(grid: Grid) -> Constraints:
    assert grid.shape.constraints is not None
    return grid.shape.constraints


def _grid(*rules: Rule) -> Grid:
    return Grid(bytes([1] + [0] * (N * N - 1)), Shape(3, 3, constraints=Constraints(rules=rules)))


def test_every_kind_has_an_example_and_an_f_puzzles_verdict() -> None:
    assert sorted(EXAMPLES) == sorted(KINDS)
    for kind in KINDS:
        assert (kind in fpuzzles_rules.TABLE) != (kind in fpuzzles_rules.NO_KEY), kind
    assert set(fpuzzles_rules.TABLE) | set(fpuzzles_rules.NO_KEY) == set(KINDS)
    assert fpuzzles_rules.rule_keys() <= fpuzzles.RULE_KEYS


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_json_and_jsonl_round_trip_every_kind(kind: str) -> None:
    grid = _grid(*EXAMPLES[kind])
    for fmt in ("json", "jsonl"):
        text = formats.dumps(grid, fmt)
        assert json.loads(text)["rules"] == [r.to_json() for r in _rules(grid).rules]
        assert formats.parse_one(text, fmt) == grid, fmt


@pytest.mark.parametrize("kind", sorted(fpuzzles_rules.TABLE))
def test_fpuzzles_and_sudokupad_round_trip(kind: str) -> None:
    grid = _grid(*EXAMPLES[kind])
    for fmt in ("fpuzzles", "sudokupad"):
        assert formats.parse_one(formats.dumps(grid, fmt)) == grid, fmt
    obj = fpuzzles.to_object(grid)
    keys = set(obj) - {"size", "grid"}
    assert keys
    assert keys <= set(fpuzzles_rules.TABLE[kind].keys)


def test_fpuzzles_refuses_negative_kropki_with_dots_of_other_values() -> None:
    shape = Shape(3, 3, constraints=Constraints(kropki_negative=True, rules=[r.Ratio((0, 1), 3)]))
    with pytest.raises(ValueError, match="dots of other values"):
        formats.dumps(Grid(bytes(81), shape), "fpuzzles")


def test_fpuzzles_both_diagonals_are_the_shapes_and_one_is_a_rule() -> None:
    both = _grid(r.Diagonal(0), r.Diagonal(1))
    x = Grid(both.cells, Shape(3, 3, diagonals=True))
    assert formats.parse_one(formats.dumps(both, "fpuzzles")) == x
    assert formats.parse_one(formats.dumps(x, "fpuzzles")) == x
    anti = formats.parse_one(formats.dumps(_grid(r.Diagonal(1)), "fpuzzles"))
    assert _rules(anti).units(N) == (("anti-diagonal", tuple(range(8, 73, 8))),)


@pytest.mark.parametrize("kind", sorted(fpuzzles_rules.NO_KEY))
def test_fpuzzles_refuses_kinds_it_has_no_key_for(kind: str) -> None:
    grid = _grid(*EXAMPLES[kind])
    with pytest.raises(ValueError, match=f"'{kind}'.*write the puzzle as json"):
        formats.dumps(grid, "fpuzzles")
    assert formats.parse_one(formats.dumps(grid, "json")) == grid


def test_fpuzzles_keys_read_as_f_puzzles_writes_them() -> None:
    """Objects written by hand in f-puzzles' own layout (outside cells, directions, lines
    that start in the circle, text numbers), read into the rules they state."""
    obj = {
        "size": 9,
        "grid": [[{} for _ in range(9)] for _ in range(9)],
        "arrow": [{"cells": ["R1C2", "R1C1"], "lines": [["R1C2", "R2C3", "R3C3"]]}],
        "littlekillersum": [
            {"cell": "R10C10", "direction": "UL", "value": "45"},
            {"cell": "R0C2", "direction": "DR", "value": ""},  # no number: no rule
        ],
        "sandwichsum": [{"cell": "R4C10", "value": "0"}],
        "xsum": [{"cell": "R10C9", "value": 17}],
        "skyscraper": [{"cell": "R3C0", "value": "4"}],
        "whispers": [{"lines": [["R5C5", "R5C6"]]}, {"lines": [["R6C5", "R6C6"]], "value": "4"}],
        "regionsumline": [{"lines": [["R1C3", "R1C4", "R1C5", "R2C6", "R2C7"]]}],
        "minimum": [{"cell": "R9C1"}, {"cell": "R9C2"}],
        "quadruple": [{"cells": ["R8C8", "R8C9", "R9C8", "R9C9"], "values": [3, 3, 7]}],
        "clone": [{"cells": ["R7C1", "R7C2"], "cloneCells": ["R3C8", "R3C9"]}],
        "difference": [{"cells": ["R8C1", "R8C2"], "value": "4"}, {"cells": ["R8C3", "R8C4"]}],
        "diagonal-": True,
        "title": "All kinds",
        "author": "sudokit",
        "ruleset": "Normal sudoku rules apply.",
    }
    grid, fields = fpuzzles.from_object(obj)
    rules = set(_rules(grid).rules)
    assert rules == {
        r.Arrow((0, 1), ((11, 20),)),
        r.LittleKiller(tuple(range(80, -1, -10)), 45),
        r.Sandwich(tuple(range(35, 26, -1)), 0),
        r.XSum(tuple(range(80, 7, -9)), 17),
        r.Skyscraper(tuple(range(18, 27)), 4),
        r.Whispers((40, 41), 5),
        r.Whispers((49, 50), 4),
        r.RegionSum(((2,), (3, 4, 14), (15,))),
        r.Minimum((72, 73)),
        r.Quadruple((70, 71, 79, 80), (3, 3, 7)),
        r.Clone((54, 55), (25, 26)),
        r.Difference((63, 64), 4),
        r.Diagonal(0),
    }
    assert _rules(grid).white == ((65, 66),)
    assert not grid.shape.diagonals
    assert fields == {"title": "All kinds", "author": "sudokit", "ruleset": obj["ruleset"]}
    again = fpuzzles.to_object(grid, fields=fields)
    assert {k: again[k] for k in fpuzzles.FIELD_KEYS} == {k: obj[k] for k in fpuzzles.FIELD_KEYS}
    assert fpuzzles.from_object(again) == (grid, fields)


def test_title_author_and_rules_text_through_a_link_file(tmp_path: Path) -> None:
    grid = _grid(r.Renban((0, 1, 2)))
    fields = {"title": "Renban", "author": "A. Setter", "ruleset": "Renban lines."}
    for fmt in ("fpuzzles", "sudokupad"):
        path = tmp_path / f"{fmt}.txt"
        path.write_text(formats.dumps(grid, fmt, fields=fields) + "\n")
        (record,) = formats.read(path)
        assert record.grid == grid
        assert {k: record.fields[k] for k in fields} == fields


def _fp(**extra: Any) -> str:
    obj = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], **extra}
    return fpuzzles.F_PUZZLES + lzstring.compress(json.dumps(obj))


LONG = ["R1C1", "R1C2", "R1C3", "R1C4", "R1C5", "R1C6", "R1C7", "R1C8", "R1C9", "R2C9"]
BAD_FPUZZLES = [
    ({"arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R1C3"]]}]}, "does not leave its circle"),
    ({"arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R4C4"]]}]}, "is not a path"),
    ({"arrow": [{"cells": ["R1C1"], "lines": [["R5C5", "R5C6"]]}]}, "outside its circle"),
    (
        {"littlekillersum": [{"cell": "R0C0", "direction": "UL", "value": "5"}]},
        "little killer 5 at R0C0: the clue is not outside the grid pointing along a diagonal",
    ),
    (
        {"littlekillersum": [{"cell": "R0C3", "direction": "UP", "value": "5"}]},
        "direction 'UP' is not UR, UL, DR or DL",
    ),
    (
        {"littlekillersum": [{"cell": "R0C2", "direction": "DL", "value": "30"}]},
        "1 digits cannot add up to 30",
    ),
    (
        {"sandwichsum": [{"cell": "R0C1", "value": "50"}]},
        "no digits make 50 (possible: 0, 2..33, 35)",
    ),
    ({"sandwichsum": [{"cell": "R0C0", "value": "5"}]}, "not beside a row or column"),
    ({"xsum": [{"cell": "R12C1", "value": "5"}]}, "cell R12C1 is not beside the 9x9 grid"),
    ({"renban": [{"lines": [LONG]}]}, "renban line at r1c1 has 10 cells; at most 9 fit"),
    ({"renban": [{"lines": [["R1C1", "R1C10"]]}]}, "'renban': cell R1C10 is outside the 9x9"),
    ({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": "9"}]}, "no two digits 1..9 differ by 9"),
    ({"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"]}]}, "expected 'values'"),
    ({"clone": [{"cells": ["R1C1"], "cloneCells": []}]}, "clone: 1 cells and a copy of 0"),
    (
        {"ratio": [{"cells": ["R1C1", "R1C2"], "value": "3"}], "negative": ["ratio", "difference"]},
        "with dots of other values",
    ),
]


@pytest.mark.parametrize(("extra", "words"), BAD_FPUZZLES)
def test_bad_fpuzzles_rules_are_one_parse_error(extra: dict[str, Any], words: str) -> None:
    with pytest.raises(ParseError) as info:
        formats.parse_one(_fp(**extra))
    message = str(info.value)
    assert words in message
    assert message.count("f-puzzles:") == 1


@pytest.mark.parametrize(("extra", "words"), BAD_FPUZZLES[::4])
def test_cli_solve_of_a_bad_link_is_one_line_exit_2(
    tmp_path: Path, extra: dict[str, Any], words: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(_fp(**extra) + "\n")
    result = CliRunner().invoke(cli, ["solve", str(path)], catch_exceptions=False)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("sudokit: ")
    assert words in lines[0]


def test_cli_convert_to_fpuzzles_refuses_a_kind_without_a_key(tmp_path: Path) -> None:
    path = tmp_path / "taxi.json"
    path.write_text(formats.dumps(_grid(r.Taxicab(4)), "json"))
    result = CliRunner().invoke(cli, ["convert", str(path), "--to", "fpuzzles"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert "'taxicab'" in lines[0]


BAD_JSON = [
    ({"rules": {"kind": "renban"}}, "'rules': expected a list of"),
    ({"rules": [{"kind": "renban", "cells": [0, 1]}, 7]}, "'rules[2]': a rule must be an object"),
    ({"rules": [{"kind": "arow", "cells": [0]}]}, "'rules[1]': unknown rule kind 'arow'"),
    ({"rules": [{"kind": "renban"}]}, "'rules[1]': renban line: Renban() needs the field 'cells'"),
    ({"rules": [{"kind": "renban", "cells": "012"}]}, "expected a list of whole numbers"),
    ({"rules": [{"kind": "renban", "cells": [0, 1], "sum": 3}]}, "unknown field 'sum'"),
    ({"rules": [{"kind": "renban", "cells": [*range(9), 17]}]}, "at most 9 fit"),
    ({"rules": [{"kind": "xsum", "cells": [0, 1], "total": 3}]}, "not a whole row or column"),
]


@pytest.mark.parametrize(("rules", "words"), BAD_JSON)
def test_bad_json_rules_are_one_parse_error_at_the_line(rules: dict[str, Any], words: str) -> None:
    text = json.dumps({"puzzle": "." * 81}) + "\n" + json.dumps({"puzzle": "." * 81, **rules})
    records = list(formats.read(io.StringIO(text + "\n"), "jsonl"))
    assert records[0].error is None
    error = records[1].error
    assert isinstance(error, ParseError)
    assert error.line == 2
    assert words in str(error)


def test_sudokupad_metadata_cages_are_fields() -> None:
    """SudokuPad keeps a puzzle's title, author, rules and solution in cages without cells."""
    cells: list[list[dict[str, int]]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": 1}
    layout = {
        "cells": cells,
        "cages": [
            {"cells": [[0, 1], [1, 1]], "value": 5},
            {"value": "title: Tiny"},
            {"value": "author: A. Setter"},
            {"value": "rules: Normal sudoku rules: apply."},
            {"value": "solution: 1234341221434321"},
            {"value": "msgcorrect: Well done"},
        ],
    }
    link = "https://sudokupad.app/scl" + lzstring.compress(json.dumps(layout))
    (record,) = formats.read(io.StringIO(link + "\n"))
    assert record.grid is not None
    assert record.grid.shape.constraints == Constraints(cages=[Cage((1, 5), 5)])
    assert record.fields == {
        "title": "Tiny",
        "author": "A. Setter",
        "ruleset": "Normal sudoku rules: apply.",
        "solution": "1234341221434321",
    }
    obj = fpuzzles.to_object(record.grid, fields=record.fields)
    assert (obj["title"], obj["ruleset"]) == ("Tiny", "Normal sudoku rules: apply.")
    # the rules text is not the json format's "rules" (the rule kinds): written, it reads back
    written = formats.dumps(record.grid, "json", fields=record.fields)
    (again,) = formats.read(io.StringIO(written))
    assert again.grid == record.grid
    assert again.fields["ruleset"] == "Normal sudoku rules: apply."
    bad = {**layout, "cages": [{"value": "no colon"}]}
    with pytest.raises(ParseError, match="a cage's value must be a number"):
        formats.parse_one("https://sudokupad.app/scl" + lzstring.compress(json.dumps(bad)))


def _scl(**keys: Any) -> str:
    cells: list[list[dict[str, int]]] = [[{} for _ in range(4)] for _ in range(4)]
    return "https://sudokupad.app/scl" + lzstring.compress(json.dumps({"cells": cells, **keys}))


@pytest.mark.parametrize(
    ("flags", "variant"),
    [
        ({"antiknight": True, "title": "T", "source": "Sudoku Maker"}, "antiknight"),
        ({"antiking": True, "antiknight": False}, "antiking"),
        ({"diagonal+": True, "diagonal-": True}, "x"),
        ({"diagonal+": True}, "diagonal"),
        ({"nonconsecutive": True, "disjointgroups": True}, "nonconsecutive-disjointgroups"),
    ],
)
def test_sudokupad_rule_flags_are_read(flags: dict[str, Any], variant: str) -> None:
    """SudokuPad keeps anti-knight and the other flags in ``metadata`` (Sudoku Maker writes
    them there) or at the top level: both are read, never dropped."""
    for where in ({"metadata": flags}, flags):
        grid = formats.parse_one(_scl(**where))
        assert grid.shape.variant == variant


def test_sudokupad_metadata_object_gives_fields() -> None:
    meta = {"title": "Tiny", "author": "A. Setter", "solution": "1234341221434321"}
    (record,) = formats.read(io.StringIO(_scl(metadata=meta) + "\n"))
    assert record.fields == meta


def test_unknown_rule_flags_are_refused_by_name() -> None:
    """A flag sudokit has no rule for is one clear error, in SudokuPad and f-puzzles alike."""
    with pytest.raises(ParseError, match=r"sudokupad: 'metadata' flag 'fog' is not supported$"):
        formats.parse_one(_scl(metadata={"fog": True, "antiknight": True}))
    with pytest.raises(ParseError, match="top-level flag 'knightmare' is not supported"):
        formats.parse_one(_scl(knightmare=True))
    grid = [[{} for _ in range(4)] for _ in range(4)]
    obj = {"size": 4, "grid": grid, "metadata": {"antiking": True}}
    assert fpuzzles.from_object(obj)[0].shape.variant == "antiking"
    with pytest.raises(ParseError, match="'metadata' flag 'fog' is not supported"):
        fpuzzles.from_object({**obj, "metadata": {"fog": True}})


#: A 4x4 made for this test (not published): clues outside the grid, an arrow and a renban
#: in f-puzzles' own layout; its one solution is SOLUTION (the search says so below).
CLUES = {
    "littlekillersum": [{"cell": "R0C4", "direction": "DL", "value": "9"}],
    "sandwichsum": [{"cell": "R0C2", "value": "0"}],
    "xsum": [{"cell": "R5C4", "value": "1"}],
    "skyscraper": [{"cell": "R2C0", "value": "2"}],
    "arrow": [{"cells": ["R2C2"], "lines": [["R2C2", "R2C1", "R1C1"]]}],
    "renban": [{"lines": [["R1C3", "R1C4"]]}],
}
SOLUTION = "1234341221434321"


@pytest.mark.backend
def test_clues_read_from_their_side_solve_to_the_one_solution(engine: _backend.Engine) -> None:
    """Each clue is read from the side and in the direction f-puzzles draws it: the intended
    solution keeps every rule, no other grid does, and without the little killer, the x-sum,
    the arrow or the renban the puzzle has more than one solution."""
    obj = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], **CLUES}
    grid, _ = fpuzzles.from_object(obj)
    assert Grid(bytes(int(c) for c in SOLUTION), grid.shape).is_solution(grid)

    def count(puzzle: Grid) -> tuple[int, tuple[bytes, ...]]:
        try:
            found = engine.search(puzzle.shape, puzzle.cells, 3, 1, 0)
        except TypeError as exc:  # a C core without linear sums and groups (being added)
            if engine.name == "c" and "Geometry()" in str(exc):
                pytest.skip("this build's C core takes no linear sums or groups yet")
            raise
        return found.count, found.solutions

    assert count(grid) == (1, (bytes(int(c) for c in SOLUTION),))
    for key in ("littlekillersum", "xsum", "arrow", "renban"):
        fewer = fpuzzles.from_object({k: v for k, v in obj.items() if k != key})[0]
        assert count(fewer)[0] > 1, key
