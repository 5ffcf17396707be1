"""Variant puzzles in the formats: the JSON/JSONL rule keys, f-puzzles and SudokuPad links, the
lz-string codec, bad input, and the CLI reading a variant file with no flag."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import support
from sudokit import Cage, Constraints, Grid, ParseError, Shape, formats
from sudokit.cli.app import cli
from sudokit.constraints import sum_range
from sudokit.formats import fpuzzles, lzstring, sudokupad
from support.tiers import examples

VARIANTS = support.DATA / "variants"
LINK_FORMATS = ("json", "jsonl", "fpuzzles", "sudokupad")


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


# -- a strategy for every rule kind -------------------------------------------------------------


def _adjacent(n: int) -> list[tuple[int, int]]:
    pairs = []
    for r, c in itertools.product(range(n), repeat=2):
        if c + 1 < n:
            pairs.append((r * n + c, r * n + c + 1))
        if r + 1 < n:
            pairs.append((r * n + c, (r + 1) * n + c))
    return pairs


def _king_path(rnd: random.Random, n: int, length: int) -> list[int]:
    path = [rnd.randrange(n * n)]
    while len(path) < length:
        r, c = divmod(path[-1], n)
        steps = [
            (r + dr) * n + c + dc
            for dr, dc in itertools.product((-1, 0, 1), repeat=2)
            if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
        ]
        steps = [s for s in steps if s not in path]
        if not steps:
            break
        path.append(rnd.choice(steps))
    return path


@st.composite
def variant_grids(draw: st.DrawFn) -> Grid:
    """A grid whose shape carries a random mix of every kind of rule (valid by construction)."""
    rows, cols = draw(st.sampled_from([(2, 2), (2, 3), (3, 3)]))
    n = rows * cols
    rnd = random.Random(draw(st.integers(0, 2**32)))
    cells = list(range(n * n))
    rnd.shuffle(cells)
    cages = []
    for _ in range(rnd.randint(0, 6)):
        if not cells:
            break
        size = rnd.randint(1, min(4, n, len(cells)))
        group, cells = cells[:size], cells[size:]
        low, high = sum_range(len(group), n)
        cages.append(Cage(group, rnd.choice([None, rnd.randint(low, high)])))
    pairs = _adjacent(n)

    def some() -> list[tuple[int, int]]:
        return rnd.sample(pairs, rnd.randint(0, 3)) if rnd.random() < 0.5 else []

    white, black = some(), some()
    white_negative = rnd.random() < 0.2
    rules = Constraints(
        cages=cages,
        antiknight=rnd.random() < 0.3,
        antiking=rnd.random() < 0.3,
        # f-puzzles has one rule for both (its non-consecutive rule is the white negative)
        nonconsecutive=not (white or black or white_negative) and rnd.random() < 0.3,
        white=white,
        black=black,
        white_negative=white_negative,
        black_negative=rnd.random() < 0.2,
        x=some() if n >= 6 else [],
        v=some(),
        xv_negative=rnd.random() < 0.2,
        parity=rnd.choice([None, "".join(rnd.choice(".eo") for _ in range(n * n))]),
        thermos=[_king_path(rnd, n, rnd.randint(1, min(4, n))) for _ in range(rnd.randint(0, 2))],
    )
    shape = Shape(
        rows,
        cols,
        diagonals=rnd.random() < 0.3,
        windoku=rows == cols and rnd.random() < 0.4,
        constraints=rules,
    )
    density = rnd.choice([0.0, 0.3])
    values = (rnd.randint(1, n) if rnd.random() < density else 0 for _ in range(n * n))
    return Grid(bytes(values), shape)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=variant_grids(), fmt=st.sampled_from(LINK_FORMATS))
def test_round_trip_every_rule_kind(grid: Grid, fmt: str) -> None:
    text = formats.dumps(grid, fmt)
    assert formats.parse(text, fmt) == [grid]
    assert formats.sniff(text) == fmt
    assert formats.parse_one(text) == grid  # sniffed


def test_every_rule_kind_is_drawn() -> None:
    """The strategy above reaches every kind (else the round trip proves less than it says)."""
    seen: set[str] = set()

    @settings(max_examples=examples(200), deadline=None, database=None)
    @given(grid=variant_grids())
    def collect(grid: Grid) -> None:
        seen.update(grid.shape.variant.split("-"))

    collect()
    kinds = {"killer", "windoku", "x", "antiknight", "antiking", "nonconsecutive", "kropki"}
    assert kinds | {"xv", "parity", "thermo"} <= seen


# -- the JSON keys, read independently of the writer ---------------------------------------------

EVERY_KEY = {
    "puzzle": "1" + "." * 80,
    "cages": [{"sum": 11, "cells": [9, 0]}, {"cells": [1, 2]}],
    "windoku": True,
    "antiknight": True,
    "antiking": True,
    "nonconsecutive": True,
    "kropki": {"white": [[3, 4]], "black": [[13, 4]], "negative": True},
    "xv": {"x": [[5, 6]], "v": [[15, 6]], "negative": True},
    "parity": "e" + "." * 79 + "o",
    "thermos": [[20, 21, 31]],
    "id": "7",
}


def test_json_keys_read_as_the_issue_spells_them() -> None:
    (record,) = formats.read(_stream(json.dumps(EVERY_KEY)), "jsonl")
    assert record.error is None
    assert record.grid is not None
    shape = record.grid.shape
    assert shape.windoku
    assert not shape.diagonals
    assert shape.constraints == Constraints(
        cages=[Cage((0, 9), 11), Cage((1, 2))],
        antiknight=True,
        antiking=True,
        nonconsecutive=True,
        white=[(3, 4)],
        black=[(4, 13)],
        kropki_negative=True,
        x=[(5, 6)],
        v=[(6, 15)],
        xv_negative=True,
        parity="e" + "." * 79 + "o",
        thermos=[(20, 21, 31)],
    )
    assert record.fields == {"id": "7"}  # rule keys are not fields


def test_json_writes_the_keys_in_the_issue_layout() -> None:
    grid = formats.parse_one(json.dumps(EVERY_KEY))
    obj = json.loads(formats.dumps(grid, "jsonl"))
    assert obj["cages"] == [{"sum": 11, "cells": [0, 9]}, {"cells": [1, 2]}]
    assert obj["kropki"] == {"white": [[3, 4]], "black": [[4, 13]], "negative": True}
    assert obj["xv"] == {"x": [[5, 6]], "v": [[6, 15]], "negative": True}
    assert obj["thermos"] == [[20, 21, 31]]
    assert obj["windoku"] is True
    assert "cages" not in json.loads(formats.dumps(Grid.parse("." * 81), "jsonl"))


def test_json_document_and_rules_on_a_given_box() -> None:
    doc = json.dumps([{"puzzle": "." * 36, "box": "3x2", "antiking": True}])
    (grid,) = formats.parse(doc)
    assert grid.shape == Shape(3, 2, constraints=Constraints(antiking=True))


def _stream(text: str) -> Any:
    import io

    return io.StringIO(text + "\n")


# -- bad input: one ParseError naming what and where ----------------------------------------------

EMPTY = "." * 81
BAD_RECORDS = [
    ({"cages": [{"sum": 30, "cells": [0, 1]}]}, "2 cells cannot add up to 30"),
    ({"cages": [{"sum": 3, "cells": [0, 1]}, {"cells": [1, 2]}]}, "cages overlap at r1c2"),
    ({"thermos": [[0, 2]]}, "thermometer 1 is not a path: r1c1 and r1c3"),
    ({"thermos": [[0, 1, 0]]}, "thermometer 1 visits a cell twice"),
    ({"cages": [{"cells": [0, 81]}]}, "cell index 81 is outside 0..80"),
    ({"cages": [{"cells": [0, 0]}]}, "lists a cell twice"),
    ({"cages": [{"cells": list(range(10))}]}, "has 10 cells; at most 9 fit"),
    ({"kropki": {"white": [[0, 2]]}}, "white dot between r1c1 and r1c3"),
    ({"xv": {"v": [[0, 10]]}}, "V between r1c1 and r2c2"),
    ({"parity": "eo"}, "parity needs 81 symbols, got 2"),
    ({"parity": "x" * 81}, "parity symbol 'x' at r1c1"),
    ({"windoku": "yes"}, "'windoku': expected true or false"),
    ({"cages": [{"total": 3, "cells": [0, 1]}]}, "unknown key 'total'"),
    ({"cages": [{"sum": 3}]}, "a cage needs 'cells'"),
    ({"cages": [{"sum": "3", "cells": [0, 1]}]}, "'cages[1].sum': expected a whole number"),
    ({"kropki": [[0, 1]]}, "'kropki': expected an object"),
    ({"xv": {"x": [[0, 1, 2]]}}, "'xv.x': expected a list of [cell, cell] pairs"),
    ({"thermos": [["r1c1"]]}, "'thermos[1]': expected a list of cell indices"),
]


@pytest.mark.parametrize(("rules", "words"), BAD_RECORDS)
def test_bad_rules_are_one_parse_error_at_the_line(rules: dict[str, Any], words: str) -> None:
    text = json.dumps({"puzzle": EMPTY}) + "\n" + json.dumps({"puzzle": EMPTY, **rules})
    records = list(formats.read(_stream(text), "jsonl"))
    assert records[0].error is None
    error = records[1].error
    assert isinstance(error, ParseError)
    assert error.line == 2
    assert words in str(error)


@pytest.mark.parametrize(("rules", "words"), BAD_RECORDS[:5])
def test_cli_bad_rules_exit_2_with_one_line(
    tmp_path: Path, rules: dict[str, Any], words: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"puzzle": EMPTY, **rules}) + "\n")
    result = run("count", str(path))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("sudokit: ")
    assert words in lines[0]
    assert "bad.jsonl:1" in lines[0]


# -- lz-string ------------------------------------------------------------------------------------


def test_lzstring_matches_the_javascript_library() -> None:
    recorded = json.loads((VARIANTS / "lzstring_js.json").read_text())
    assert len(recorded["pairs"]) > 50
    for text, packed in recorded["pairs"]:
        assert lzstring.compress(text) == packed, text[:40]
        assert lzstring.decompress(packed) == text


@settings(max_examples=examples(200), deadline=None)
@given(text=st.text(max_size=400))
def test_lzstring_round_trip(text: str) -> None:
    assert lzstring.decompress(lzstring.compress(text)) == text


@pytest.mark.parametrize(
    ("data", "words"),
    [("N4Ig!", "not a base-64 character"), ("N4Ig", "ends too early"), ("////", "not in the")],
)
def test_lzstring_bad_data(data: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        lzstring.decompress(data)


# -- f-puzzles and SudokuPad ---------------------------------------------------------------------


def _fp_object(**extra: Any) -> dict[str, Any]:
    grid: list[list[dict[str, Any]]] = [[{} for _ in range(4)] for _ in range(4)]
    grid[0][0] = {"value": 1, "given": True}
    grid[3][3] = {"value": 3}  # a player's digit, not a given
    return {"size": 4, "grid": grid, **extra}


def test_fpuzzles_object_read_independently() -> None:
    obj = _fp_object(
        killercage=[{"cells": ["R1C2", "R2C2"], "value": "5"}, {"cells": ["R4C1"]}],
        antiking=True,
        difference=[{"cells": ["R1C3", "R1C4"]}],
        ratio=[{"cells": ["R2C3", "R2C4"], "value": "2"}],
        xv=[{"cells": ["R3C3", "R3C4"], "value": "V"}],
        negative=["ratio", "difference"],
        odd=[{"cell": "R2C1"}],
        even=[{"cell": "R3C1"}],
        thermometer=[{"lines": [["R3C2", "R4C2", "R4C3"], ["R3C2", "R2C1"]]}],
        title="A test",
    )
    grid, fields = fpuzzles.from_object(obj)
    assert grid.cells == bytes([1] + [0] * 15)
    assert grid.shape == Shape(
        2,
        2,
        constraints=Constraints(
            cages=[Cage((1, 5), 5), Cage((12,))],
            antiking=True,
            white=[(2, 3)],
            black=[(6, 7)],
            kropki_negative=True,
            v=[(10, 11)],
            parity="....o...e.......",
            thermos=[(9, 13, 14), (9, 4)],
        ),
    )
    assert fields == {"title": "A test"}


def test_fpuzzles_writes_the_object_f_puzzles_reads() -> None:
    rules = Constraints(cages=[Cage((0, 1), 3)], white=[(2, 3)], x=[], v=[(4, 5)], xv_negative=True)
    grid = Grid(bytes([1] + [0] * 15), Shape(2, 2, diagonals=True, constraints=rules))
    obj = fpuzzles.to_object(grid)
    assert obj["size"] == 4
    assert obj["grid"][0][0] == {"value": 1, "given": True}
    assert obj["grid"][0][1] == {}
    assert "region" not in obj["grid"][1][1]
    assert obj["diagonal+"] is obj["diagonal-"] is True
    assert obj["killercage"] == [{"cells": ["R1C1", "R1C2"], "value": "3"}]
    assert obj["difference"] == [{"cells": ["R1C3", "R1C4"]}]
    assert obj["xv"] == [{"cells": ["R2C1", "R2C2"], "value": "V"}]
    assert obj["negative"] == ["xv"]
    link = formats.dumps(grid, "fpuzzles")
    assert link.startswith("https://www.f-puzzles.com/?load=")
    assert json.loads(lzstring.decompress(link.split("load=")[1])) == obj


def test_fpuzzles_regions_and_windoku() -> None:
    six = Grid(bytes(36), Shape(3, 2))  # not f-puzzles' default 2x3 boxes: regions written
    obj = fpuzzles.to_object(six)
    assert obj["grid"][0][0]["region"] == 0
    assert obj["grid"][0][2]["region"] == 1
    assert fpuzzles.from_object(obj)[0] == six
    windoku = Grid(bytes(81), Shape(3, 3, windoku=True))
    assert len(fpuzzles.to_object(windoku)["extraregion"]) == 4
    assert formats.parse_one(formats.dumps(windoku, "fpuzzles")) == windoku
    with pytest.raises(ValueError, match="up to 16"):
        formats.dumps(Grid(bytes(25 * 25), Shape(5, 5)), "fpuzzles")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"looptheloop": [{"cells": ["R1C1"]}]}, "'looptheloop' is not supported"),
        ({"disjointgroups": "yes"}, "'disjointgroups': expected true or false"),
        ({"arrow": [{"cells": ["R1C1"], "lines": [["R2C2", "R3C3"]]}]}, "outside its circle"),
        (
            {
                "difference": [{"cells": ["R1C1", "R1C2"], "value": "3"}],
                "negative": ["ratio", "difference"],
            },
            "with dots of other values",
        ),
        ({"renban": [{"lines": [["R1C1", "R1C2", "R1C3", "R1C4", "R2C4"]]}]}, "at most 4 fit"),
        ({"killercage": [{"cells": ["R1C1", "R5C1"]}]}, "cell R5C1 is outside the 4x4 grid"),
        ({"killercage": [{"cells": ["A1"]}]}, "expected a cell like 'R1C1'"),
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "30"}]}, "cannot add up to 30"),
        ({"xv": [{"cells": ["R1C1", "R1C2"]}]}, "'xv' with value 'null'"),
    ],
)
def test_fpuzzles_unsupported_or_bad(extra: dict[str, Any], words: str) -> None:
    text = json.dumps(_fp_object(**extra))
    for form in (fpuzzles.F_PUZZLES + lzstring.compress(text), text):  # a link, an object
        with pytest.raises(ParseError, match="f-puzzles: ") as info:
            formats.parse_one(form, "fpuzzles")
        assert words in str(info.value)
        assert str(info.value).count("f-puzzles:") == 1


def test_link_forms() -> None:
    grid = Grid(bytes([1] + [0] * 15), Shape(2, 2, constraints=Constraints(antiknight=True)))
    payload = fpuzzles.payload(grid)
    escaped = payload.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    forms = [
        f"https://www.f-puzzles.com/?load={payload}",
        f"http://f-puzzles.com/?load={escaped}",
        f"f-puzzles.com/?load={payload.replace('+', ' ')}",
        f"https://f-puzzles.com/?id=&load={payload}",
        payload,
        f"https://sudokupad.app/fpuzzles{payload}",
        f"https://beta.sudokupad.app/fpuz{escaped}",
        f"https://sudokupad.app/?puzzleid=fpuzzles{escaped}",
        json.dumps(fpuzzles.to_object(grid)),
    ]
    for form in forms:
        assert formats.parse_one(form, "fpuzzles") == grid, form
        assert formats.parse_one(form, "sudokupad") == grid, form


def test_sudokupad_scl_links() -> None:
    plain = {
        "cells": [[{"value": 1}, {}, {}, {}]] + [[{}, {}, {}, {}] for _ in range(3)],
        "regions": [[[0, 0], [0, 1], [1, 0], [1, 1]], [[0, 2], [0, 3], [1, 2], [1, 3]],
                    [[2, 0], [2, 1], [3, 0], [3, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]]],
        "cages": [{"cells": [[0, 1], [1, 1]], "value": 5}],
        "title": "scl test",
    }  # fmt: skip
    want = Grid(
        bytes([1] + [0] * 15), Shape(2, 2, constraints=Constraints(cages=[Cage((1, 5), 5)]))
    )
    grid, fields = formats.fpuzzles.parse_link(
        "https://sudokupad.app/scl" + lzstring.compress(json.dumps(plain))
    )
    assert (grid, fields) == (want, {"title": "scl test"})
    zipped = "{ce:[[{v:1},,,],[,,,],[,,,],[,,,]],ca:[{ce:[[0,1],[1,1]],v:5}],t:'scl test'}"
    assert sudokupad.from_text(zipped) == (Grid(want.cells, want.shape), {"title": "scl test"})
    ctc = "https://sudokupad.app/ctc" + lzstring.compress(zipped)
    assert formats.parse_one(ctc) == want
    lines = json.dumps({**plain, "lines": [{"wayPoints": [[0.5, 0.5], [1.5, 0.5]]}]})
    with pytest.raises(ParseError, match="sudokupad: 'lines' is not supported"):
        formats.parse_one("https://sudokupad.app/scl" + lzstring.compress(lines))


@pytest.mark.parametrize(
    "cages",
    [
        "x",  # not a list
        [{"cells": [[0, 0]], "style": "weird"}],  # an unknown style
        [{"cells": [[0, 0]], "value": "a"}],  # a sum that is not a number
    ],
)
def test_sudokupad_cage_errors_name_the_format_once(cages: object) -> None:
    cells = [[{} for _ in range(4)] for _ in range(4)]
    link = "https://sudokupad.app/scl" + lzstring.compress(
        json.dumps({"cells": cells, "cages": cages})
    )
    with pytest.raises(ParseError) as caught:
        formats.parse_one(link)
    assert str(caught.value).count("sudokupad:") == 1, str(caught.value)


@pytest.mark.parametrize(
    ("link", "words"),
    [
        ("https://f-puzzles.com/?id=yxnpswht", "short links"),
        ("https://sudokupad.app/abc123", "kept by the site"),
        ("https://f-puzzles.com/?load=N4Ig!!", "cannot be decompressed"),
        ("https://f-puzzles.com/?load=" + lzstring.compress("[1, 2"), "bad JSON"),
        ("https://f-puzzles.com/?load=N4IgHiBcDMC+Q===", "expected an object with 'size'"),
    ],
)
def test_links_that_hold_no_puzzle(link: str, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        formats.parse_one(link)


def test_real_world_links() -> None:
    """Links published by others (sources in the file) read as their comments describe."""
    records = list(formats.read(VARIANTS / "real_world.txt"))
    assert [r.error for r in records] == [None, None, None]
    first, second, killer = (r.grid for r in records)
    assert first is not None
    assert second is not None
    assert killer is not None
    assert first.shape == Shape(3, 3)
    assert first.cells == bytes([1] + [0] * 80)
    assert {i: v for i, v in enumerate(second.cells) if v} == {20: 1, 60: 2}
    assert killer.clues == 0
    assert killer.shape.constraints == Constraints(
        cages=[Cage((0, 9), 9), Cage((1, 2, 10, 11, 19), 33)]
    )


# -- the CLI reads a variant file with no flag ----------------------------------------------------

KILLER = VARIANTS / "killer9.jsonl"


def _killer() -> tuple[Grid, Grid]:
    obj = json.loads(KILLER.read_text())
    grid = formats.parse_one(KILLER.read_text())
    return grid, Grid(bytes(int(ch) for ch in obj["solution"]), grid.shape)


def test_killer_fixture_is_what_it_says() -> None:
    grid, solution = _killer()
    assert grid.clues == 0
    assert grid.shape.variant == "killer"
    assert solution.is_solution(grid)  # every cage sums to its total, independently checked
    cages = grid.shape.constraints.cages if grid.shape.constraints else ()
    assert all(sum(solution.cells[i] for i in c.cells) == c.total for c in cages)


def test_cli_solve_count_check_on_killer_jsonl() -> None:
    _, solution = _killer()
    result = run("solve", str(KILLER))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split() == [solution.to_line()]
    assert run("count", str(KILLER)).stdout.split() == ["1"]
    check = run("check", str(KILLER))
    assert (check.exit_code, check.stdout.split()) == (0, ["unique"])
    as_json = json.loads(run("solve", str(KILLER), "--to", "jsonl").stdout)

    def cages(objs: list[dict[str, Any]]) -> set[tuple[int, tuple[int, ...]]]:
        return {(c["sum"], tuple(sorted(c["cells"]))) for c in objs}

    assert cages(as_json["cages"]) == cages(json.loads(KILLER.read_text())["cages"])


def test_cli_explain_rate_render_print_on_killer_jsonl(tmp_path: Path) -> None:
    explain = run("explain", str(KILLER))
    assert explain.exit_code == 0, explain.stderr
    assert "steps" in explain.stdout
    rate = run("rate", str(KILLER))
    assert rate.exit_code == 0, rate.stderr
    render = run("render", str(KILLER))
    assert render.exit_code == 0
    assert render.stdout.count("\n") >= 9
    pdf = tmp_path / "k.pdf"
    printed = run("print", str(KILLER), "-o", str(pdf))
    assert printed.exit_code == 0, printed.stderr
    assert pdf.read_bytes().startswith(b"%PDF")


def test_cli_reads_links_with_no_flag(tmp_path: Path) -> None:
    grid, solution = _killer()
    for fmt in ("fpuzzles", "sudokupad"):
        path = tmp_path / f"links-{fmt}.txt"
        path.write_text(formats.dumps(grid, fmt) + "\n")
        result = run("solve", str(path))
        assert result.exit_code == 0, result.stderr
        assert result.stdout.split() == [solution.to_line()]
    pasted = run("count", "-p", formats.dumps(grid, "sudokupad"))
    assert pasted.stdout.split() == ["1"]
    bad = run("count", "-p", "https://sudokupad.app/abc123")
    assert bad.exit_code == 2
    assert "kept by the site" in bad.stderr


# -- anything else is one ParseError, never another exception --------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 100) | st.sampled_from(["", "R1C1", "X", "5"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)
FP_KEYS = ["killercage", "thermometer", "difference", "ratio", "xv", "odd", "even",
           "negative", "extraregion", "diagonal+", "antiknight", "size", "grid", "solution",
           "arrow"]  # fmt: skip
RULE_KEYS = ["cages", "windoku", "kropki", "xv", "parity", "thermos", "antiknight"]


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(key=st.sampled_from(FP_KEYS), value=JSON, rule=st.sampled_from(RULE_KEYS), junk=JSON)
def test_malformed_objects_are_parse_errors(key: str, value: Any, rule: str, junk: Any) -> None:
    for reader, obj in (
        (fpuzzles.from_object, {**_fp_object(), key: value}),
        (lambda o: formats.json.grid_from_value(o, None), {"puzzle": "." * 16, rule: junk}),
        (lambda o: sudokupad.from_text(json.dumps(o)), {"cells": value, "cages": junk}),
    ):
        with contextlib.suppress(ParseError):
            reader(obj)


def test_real_world_sudokupad_link() -> None:
    """A published scl link decodes (lz-string, then SudokuPad's zipped layout) to the puzzle
    its source describes, and its dots (overlays) are refused by name."""
    (link,) = [
        ln
        for ln in (VARIANTS / "real_world_sudokupad.txt").read_text().splitlines()
        if ln and not ln.startswith("#")
    ]
    kind, payload = fpuzzles.link_payload(link)
    obj = json.loads(sudokupad.unzip(lzstring.decompress(payload)))
    assert kind == "scl"
    assert obj["metadata"]["author"] == "Marty Sears"
    solution = Grid.parse(obj["metadata"]["solution"])
    assert solution.is_complete
    assert not solution.conflicts()
    with pytest.raises(ParseError, match="sudokupad: 'overlays' is not supported"):
        formats.parse_one(link)


def test_fpuzzles_negative_of_one_kropki_colour() -> None:
    """f-puzzles sets the negative rule per colour: ``negative: ["ratio"]`` alone is the black
    one; its non-consecutive rule next to kropki dots is the white one (dotted pairs spared)."""
    cells = [[{}] * 4 for _ in range(4)]
    black, _ = fpuzzles.from_object({"size": 4, "grid": cells, "negative": ["ratio"]})
    assert black.shape.constraints == Constraints(black_negative=True)
    dots = {"difference": [{"cells": ["R1C1", "R1C2"]}], "nonconsecutive": True}
    white, _ = fpuzzles.from_object({"size": 4, "grid": cells, **dots})
    assert white.shape.constraints == Constraints(white=[(0, 1)], white_negative=True)
    plain, _ = fpuzzles.from_object({"size": 4, "grid": cells, "nonconsecutive": True})
    assert plain.shape.constraints == Constraints(nonconsecutive=True)
    for grid in (black, white):
        for fmt in LINK_FORMATS:
            assert formats.parse_one(formats.dumps(grid, fmt)) == grid, fmt
    assert formats.dumps(black, "json").count('"negative": "black"') == 1
    assert fpuzzles.to_object(white)["nonconsecutive"] is True


def test_fpuzzles_refuses_nonconsecutive_next_to_kropki_dots() -> None:
    shape = Shape(2, 2, constraints=Constraints(nonconsecutive=True, black=[(0, 1)]))
    with pytest.raises(ValueError, match="non-consecutive rule with kropki dots"):
        formats.dumps(Grid(bytes(16), shape), "fpuzzles")


def test_json_refuses_a_kropki_negative_of_no_colour() -> None:
    with pytest.raises(ParseError, match=r"kropki\.negative"):
        formats.parse_one(json.dumps({"puzzle": "." * 16, "kropki": {"negative": "grey"}}))
