"""Text formats: round trips, sniffing, foreign layouts, error positions, streaming bounds."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import support
from sudokit import Grid, ParseError, Shape, formats
from sudokit.formats import FORMATS, Record, dumps, parse, parse_one, read, sniff, write
from support.tiers import examples

DATA = support.DATA / "formats"


def truth() -> list[Grid]:
    """The puzzles of puzzles.sdm, read independently of the format readers."""
    grids = []
    for text in (DATA / "puzzles.sdm").read_text().splitlines():
        if text and not text.startswith("#"):
            grids.append(Grid.parse(text.split()[0]))
    return grids


NORVIG, TOP95_1, SIX, SIXTEEN = truth()

# -- round trips: parse(dumps(g)) == g for every format ---------------------------------------

SHAPES = [
    Shape(1, 1),
    Shape(1, 2),
    Shape(2, 2),
    Shape(2, 3),
    Shape(3, 2),
    Shape(3, 3),
    Shape(2, 4),
    Shape(3, 4),
    Shape(4, 4),
    Shape(3, 3, diagonals=True),
    Shape.jigsaw("AAABABBBCCCDCDDD"),
    Shape.jigsaw([3, 3, 3, 1, 3, 1, 1, 1, 0, 0, 0, 2, 0, 2, 2, 2]),
]


@st.composite
def grids(draw: st.DrawFn, shapes: list[Shape] = SHAPES) -> Grid:
    shape = draw(st.sampled_from(shapes))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    density = draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
    cells = [rnd.randint(1, shape.n) if rnd.random() < density else 0 for _ in range(shape.ncells)]
    return Grid(bytes(cells), shape)


def _candidate_format(fmt: str) -> bool:
    return fmt in ("candidates", "candgrid")


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=grids(), fmt=st.sampled_from(list(FORMATS)))
def test_round_trip_every_format(grid: Grid, fmt: str) -> None:
    if _candidate_format(fmt) and grid.n == 1:
        return  # a 1x1 open cell has one candidate, which reads as placed (documented)
    text = dumps(grid, fmt)
    assert parse(text, fmt, shape=grid.shape) == [grid]


@settings(max_examples=examples(80), deadline=None)
@given(grid=grids([Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)]))
def test_round_trip_sniffed(grid: Grid) -> None:
    for fmt in FORMATS:
        assert parse(dumps(grid, fmt)) == [grid], fmt


@settings(max_examples=examples(40), deadline=None)
@given(
    many=st.lists(grids([Shape(2, 2), Shape(3, 3), Shape(2, 3)]), min_size=1, max_size=4),
    fmt=st.sampled_from(list(FORMATS)),
)
def test_round_trip_many_records(many: list[Grid], fmt: str) -> None:
    shape = many[0].shape
    many = [Grid(g.cells, shape) if g.shape.ncells == shape.ncells else g for g in many]
    many = [g for g in many if g.shape == shape]
    out = io.StringIO()
    assert write(many, out, fmt) == len(many)
    assert parse(out.getvalue(), fmt, shape=shape) == many


@pytest.mark.parametrize("fmt", ["line", "picture", "ss", "sdk", "json", "jsonl", "csv"])
def test_round_trip_64x64(fmt: str) -> None:
    """Sizes over 61 have no symbols: comma-separated integers."""
    shape = Shape(8, 8)
    cells = bytes((i * 7 + i // 64) % 65 for i in range(shape.ncells))
    grid = Grid(cells, shape)
    assert parse(dumps(grid, fmt), fmt, shape=shape) == [grid]
    assert parse_one(dumps(grid, fmt), fmt) == grid


@pytest.mark.parametrize(
    ("fmt", "what"), [("candidates", "pencilmark strings"), ("candgrid", "candidate grids")]
)
def test_candidate_formats_refuse_sizes_over_61(fmt: str, what: str) -> None:
    with pytest.raises(ValueError, match=f"^{what} hold sizes up to 61, got 64$"):
        dumps(Grid.empty(Shape(8, 8)), fmt)


def test_dumps_examples() -> None:
    g = Grid.parse("1.3....22....3.1")
    assert dumps(g) == "1.3....22....3.1"
    assert dumps(g, "ss").splitlines()[2] == "-----"
    assert dumps(g, "sdk", fields={"author": "me", "level": "easy"}).splitlines()[:3] == [
        "#Ame",
        "#Leasy",
        "[Puzzle]",
    ]
    obj = json.loads(dumps(Grid.parse(str(SIX), Shape(3, 2)), "json"))
    assert obj == {"puzzle": str(SIX), "box": "3x2"}
    x = Grid(NORVIG.cells, Shape(3, 3, diagonals=True))
    assert json.loads(dumps(x, "jsonl"))["diagonals"] is True
    assert parse_one(dumps(x, "jsonl")) == x


# -- sniffing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("puzzles.sdm", "line"),
        ("bad_lines.sdm", "line"),
        ("pictures.txt", "picture"),
        ("simple_sudoku.ss", "ss"),
        ("sudocue.sdk", "sdk"),
        ("sadman.sdk", "sdk"),
        ("kaggle.csv", "csv"),
        ("ml.csv", "csv"),
        ("puzzles.json", "json"),
        ("puzzles.jsonl", "jsonl"),
        ("pencilmarks.txt", "candidates"),
        ("explainer.candgrid", "candgrid"),
    ],
)
def test_sniff_fixtures(name: str, fmt: str) -> None:
    assert sniff((DATA / name).read_text()) == fmt


def test_sniff_generated_text() -> None:
    for grid in (NORVIG, SIX, SIXTEEN):
        for fmt in FORMATS:
            if fmt in ("candgrid",) and grid.clues == grid.shape.ncells:
                continue
            assert sniff(dumps(grid, fmt)) == fmt, (grid.n, fmt)


def test_sniff_misc() -> None:
    assert sniff("") == "line"
    assert sniff("# only a comment\n") == "line"
    assert sniff("12 3 45 " * 27) == "candgrid"  # 81 groups on one line, 9x9 size by count
    assert sniff(",".join("0" * 81)) == "line"  # separated integers
    assert sniff("x" * 80 + "\n" + "." * 81) == "line"  # a bad first line stays a line


# -- reading foreign layouts ------------------------------------------------------------------


def test_line_file_with_comments() -> None:
    records = list(read(DATA / "puzzles.sdm"))
    assert [r.grid for r in records] == truth()
    assert [r.line for r in records] == [3, 4, 5, 6]
    assert records[1].fields == {"comment": "top95 #1"}


def test_pictures_file() -> None:
    assert parse((DATA / "pictures.txt").read_text()) == [NORVIG, TOP95_1, SIX]
    assert [r.line for r in read(DATA / "pictures.txt")] == [1, 15, 25]


def test_simple_sudoku() -> None:
    assert parse((DATA / "simple_sudoku.ss").read_text(), "ss") == [NORVIG, TOP95_1]


def test_sdk_headers_and_sections() -> None:
    (record,) = read(DATA / "sudocue.sdk")
    assert record.grid == NORVIG
    assert record.fields == {
        "author": "Anonymous",
        "description": "Norvig's example puzzle",
        "level": "Easy",
        "url": "http://norvig.com/sudoku.html",
    }
    assert parse((DATA / "sadman.sdk").read_text()) == [TOP95_1]  # [State] is skipped


def test_csv_layouts() -> None:
    solutions = [Grid.parse(t) for t in (DATA / "solutions.sdm").read_text().split()]
    kaggle = list(read(DATA / "kaggle.csv"))
    assert [r.grid for r in kaggle] == [NORVIG, TOP95_1]
    assert [r.fields["solution"] for r in kaggle] == [str(s) for s in solutions]
    ml = list(read(DATA / "ml.csv"))
    assert [r.grid for r in ml] == [NORVIG, TOP95_1]
    assert ml[1].fields == {
        "id": "2",
        "solution": str(solutions[1]),
        "clues": "17",
        "difficulty": "4.2",
    }
    for r, s in zip(ml, solutions, strict=True):
        assert Grid.parse(r.fields["solution"]).is_solution(r.grid)
        assert s.is_solution(r.grid)


def test_csv_extra_columns_survive_a_rewrite() -> None:
    out = io.StringIO()
    write(read(DATA / "ml.csv"), out, "csv")
    lines = out.getvalue().splitlines()
    assert lines[0] == "puzzle,id,solution,clues,difficulty"
    again = list(read(io.StringIO(out.getvalue())))
    assert [r.fields for r in again] == [r.fields for r in read(DATA / "ml.csv")]


def test_headerless_csv() -> None:
    text = f"{NORVIG},x\n{TOP95_1},y\n"
    assert sniff(text) == "csv"
    assert [(r.grid, r.fields) for r in read(io.StringIO(text))] == [
        (NORVIG, {"solution": "x"}),
        (TOP95_1, {"solution": "y"}),
    ]


def test_json_documents() -> None:
    records = list(read(DATA / "puzzles.json"))
    assert [r.grid for r in records] == [NORVIG, TOP95_1, SIX]
    assert records[0].fields["level"] == "easy"
    assert records[2].grid is not None
    assert records[2].grid.shape == Shape(2, 3)
    lines = list(read(DATA / "puzzles.jsonl"))
    assert [r.grid for r in lines] == [NORVIG, TOP95_1, SIX]
    assert [r.line for r in lines] == [1, 3, 4]
    assert lines[0].fields == {"source": "norvig"}


def test_json_list_positions_and_concatenated_documents() -> None:
    text = '[\n  "1...............",\n\n  "2..............."\n]\n{"puzzle": "3..............."}'
    assert [(r.line, str(r.grid)) for r in read(io.StringIO(text), "json")] == [
        (2, "1..............."),
        (4, "2..............."),
        (6, "3..............."),
    ]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("003", "line 1, column 2: bad JSON: extra data after the value"),
        ('["1..............." "2..............."]', "column 21: bad JSON: expected ',' or ']'"),
        (
            '[\n "1...............",\n "2..............." "3"]',
            "line 3, column 21: bad JSON: expected ',' or ']'",
        ),
    ],
)
def test_json_values_must_be_separated(text: str, error: str) -> None:
    # Python's raw_decode alone would read '003' as 0, 0, 3 and '[1 2]' as two puzzles.
    records = list(read(io.StringIO(text), "json"))
    assert records[-1].error is not None
    assert str(records[-1].error).endswith(error)
    assert all(r.error is None for r in records[:-1])


def _independent_candidates(grid: Grid) -> list[set[int]]:
    """Candidates by elimination, computed here from rows, columns and boxes."""
    n, br, bc = grid.n, grid.shape.box_rows, grid.shape.box_cols
    out = []
    for i, v in enumerate(grid.cells):
        if v:
            out.append({v})
            continue
        r, c = divmod(i, n)
        seen = {grid[r, k] for k in range(n)} | {grid[k, c] for k in range(n)}
        r0, c0 = r - r % br, c - c % bc
        seen |= {grid[r0 + a, c0 + b] for a in range(br) for b in range(bc)}
        out.append(set(range(1, n + 1)) - seen)
    return out


@pytest.mark.parametrize(("name", "fmt"), [("pencilmarks.txt", None), ("explainer.candgrid", None)])
def test_candidate_fixtures(name: str, fmt: str | None) -> None:
    text = (DATA / name).read_text()
    cands = formats.parse_candidates(text)
    assert [set(cands.digits(i)) for i in range(81)] == _independent_candidates(TOP95_1)
    # As a puzzle: givens are the single-candidate cells.
    assert parse_one(text) == TOP95_1
    assert formats.parse_candidates(formats.dumps_candidates(cands)) == cands
    assert formats.parse_candidates(formats.dumps_candidates(cands, "candidates")) == cands


def test_candidates_with_eliminations_read_naked_singles_as_placed() -> None:
    from sudokit.marks import Candidates

    grid = Grid.parse("12..34..........")
    marks = Candidates.from_grid(grid)
    assert marks.digits(2) == (3, 4)
    assert marks.values[2] == 0
    back = formats.parse_candidates(formats.dumps_candidates(marks, "candidates"))
    assert back.masks == marks.masks
    assert back.to_grid() == grid


# -- errors: where and what -------------------------------------------------------------------


def test_error_positions_in_a_line_file() -> None:
    records = list(read(DATA / "bad_lines.sdm"))
    assert [r.index for r in records] == [1, 2, 3, 4, 5]
    assert [r.grid is not None for r in records] == [True, False, False, True, True]
    wrong, bad = records[1].error, records[2].error
    assert wrong is not None
    assert wrong.line == 2
    assert "got 80" in str(wrong)
    assert bad is not None
    assert (bad.line, bad.column) == (3, 40)
    assert str(bad).startswith(f"{DATA / 'bad_lines.sdm'}, line 3, column 40: unexpected")
    conflicting = records[3].grid
    assert conflicting is not None
    assert conflicting.conflicts()


def test_error_positions_in_a_picture() -> None:
    lines = ["", *dumps(NORVIG, "picture").splitlines()]
    assert lines[5] == ". . 8 | 1 . 2 | 9 . ."
    lines[5] = ". . 8 | x . 2 | 9 . ."
    with pytest.raises(ParseError) as info:
        parse("\n".join(lines), "picture")
    assert (info.value.line, info.value.column) == (6, 9)


def test_error_positions_in_csv_and_json() -> None:
    (record,) = read(io.StringIO("id,puzzle\n17,12x4" + "." * 12 + "\n"))
    assert record.error is not None
    assert (record.error.line, record.error.column) == (2, 6)
    records = list(read(io.StringIO('["1...............",\n  "1..x............"]')))
    assert records[1].error is not None
    assert records[1].error.line == 2
    records = list(read(io.StringIO('[\n"1...............",\n  oops]'), "json"))
    assert records[0].grid is not None
    assert records[1].error is not None
    assert records[1].error.line == 3
    assert str(records[1].error).startswith("<stream>, line 3, column 3: bad JSON")


def test_parse_raises_the_first_error_with_its_source() -> None:
    with pytest.raises(ParseError, match=r"^in\.sdm, line 2: expected"):
        parse("1...............\n12345\n", source="in.sdm")
    with pytest.raises(ParseError, match="expected a puzzle, got none"):
        parse_one("# nothing\n")
    with pytest.raises(ParseError, match="expected one puzzle, got 2"):
        parse_one("1...............\n2...............")
    with pytest.raises(ValueError, match="unknown format"):
        parse("1...", "xml")


# -- streaming and bounds ---------------------------------------------------------------------


def test_read_is_lazy_and_numbers_records() -> None:
    def endless() -> str:
        return "1...............\n" * 100

    stream = io.StringIO(endless())
    first = next(read(stream))
    assert first == Record(1, 1, Grid.parse("1..............."), None, {})


def test_read_binary_garbage_gives_one_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.bin"
    path.write_bytes(bytes(range(256)) * 50)
    (record,) = read(path)
    assert record.grid is None
    assert record.error is not None
    assert "binary data" in str(record.error)


def test_read_non_utf8_line_is_reported_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "latin1.sdm"
    path.write_bytes(f"{NORVIG}\n".encode() + b"caf\xe9\n" + f"{TOP95_1}\n".encode())
    records = list(read(path))
    assert [r.grid for r in records] == [NORVIG, None, TOP95_1]
    assert records[1].error is not None
    assert "not UTF-8" in str(records[1].error)


def test_read_long_line_is_skipped_in_bounded_memory(tmp_path: Path) -> None:
    import tracemalloc

    path = tmp_path / "long.sdm"
    with path.open("w") as f:
        f.write(f"{NORVIG}\n")
        f.write("1" * (8 * formats.MAX_LINE))
        f.write(f"\n{TOP95_1}\n")
    tracemalloc.start()
    records = list(read(path))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [r.grid for r in records] == [NORVIG, None, TOP95_1]
    assert records[1].error is not None
    assert "longer than" in str(records[1].error)
    assert records[1].line == 2
    assert records[2].line == 3
    assert peak < 4 * formats.MAX_LINE


def test_read_crlf_bom_and_text_streams() -> None:
    text = "\ufeff" + f"{NORVIG}\r\n\r\n{TOP95_1}\r\n"
    assert [r.grid for r in read(io.BytesIO(text.encode()))] == [NORVIG, TOP95_1]
    assert [r.grid for r in read(io.StringIO(text))] == [NORVIG, TOP95_1]


def test_read_with_explicit_format_and_shape() -> None:
    text = str(SIX) + "\n"
    (six,) = read(io.StringIO(text), "line", Shape(3, 2))
    assert six.grid is not None
    assert six.grid.shape == Shape(3, 2)
    (bad,) = read(io.StringIO(text), "line", Shape(3, 3))
    assert bad.error is not None
    assert "expected 81 cells" in str(bad.error)


def test_writer_marker_lines() -> None:
    out = io.StringIO()
    with formats.Writer(out, "line") as w:
        w.write(NORVIG)
        w.marker("none")
    assert out.getvalue() == f"{NORVIG}\n!none\n"
    out = io.StringIO()
    with formats.Writer(out, "csv") as w:
        w.write(NORVIG, fields={"status": "unique"})
        w.marker("invalid")
    assert out.getvalue().splitlines() == ["puzzle,status", f"{NORVIG},unique", ",invalid"]
    out = io.StringIO()
    formats.Writer(out, "json").close()
    assert json.loads(out.getvalue()) == []


@settings(max_examples=examples(300), deadline=None)
@given(
    text=st.text(alphabet="123456789ABCDEFGabc.0-_* |x\n,", min_size=0, max_size=90),
    shape=st.sampled_from([None, Shape(2, 2), Shape(3, 3), Shape(4, 4)]),
)
def test_grid_fast_line_path_agrees_with_the_general_reader(text: str, shape: Shape | None) -> None:
    """Grid.parse reads plain lines by table lookup; it must give what the general reader gives."""
    from sudokit.grid import _parse_line_fast, _parse_symbols

    fast = _parse_line_fast(text, shape)
    if fast is not None:
        assert fast == _parse_symbols(text, shape)


def test_grid_fast_line_path_on_real_lines() -> None:
    from sudokit.grid import _parse_line_fast, _parse_symbols

    for grid in truth():
        line = str(grid)
        assert (
            _parse_line_fast(line, None) == _parse_symbols(line, None) == (grid.shape, grid.cells)
        )
        lower = line.lower()
        assert _parse_line_fast(lower, None) == _parse_symbols(lower, None)


def test_candidates_value_checks() -> None:
    from sudokit.marks import Candidates, digits_of, mask_of

    shape = Shape(1, 2)
    assert mask_of(digits_of(0b1011)) == 0b1011
    with pytest.raises(ValueError, match="needs 4 cells"):
        Candidates(shape, (3, 3, 3), bytes(3))
    with pytest.raises(ValueError, match="mask outside"):
        Candidates(shape, (4, 3, 3, 3), bytes(4))
    with pytest.raises(ValueError, match="holds 2 but its candidates are"):
        Candidates(shape, (3, 3, 3, 3), bytes([2, 0, 0, 0]))
    solved = Candidates.from_masks(shape, [1, 2, 2, 1])
    assert solved.is_solved
    assert solved.to_grid() == Grid.parse("1221")
    broken = Candidates.from_masks(shape, [0, 3, 3, 3])
    assert not broken.is_solved
    assert formats.parse_candidates(formats.dumps_candidates(broken)) == broken
    assert formats.parse_candidates(formats.dumps_candidates(broken, "candidates")) == broken


# -- a declared alphabet through every reader (0-F hexadoku once read 0 as blank) ---------

_HEX_ROWS = ["0123456789ABCDEF", "89ABCDEF01234567"] + ["." * 16] * 14


@pytest.mark.parametrize("fmt", ["line", "picture", "csv", "json", "jsonl"])
def test_declared_symbols_reach_every_reader(fmt: str) -> None:
    line = "".join(_HEX_ROWS)
    text = {
        "line": line + "\n",
        "picture": "\n".join(" ".join(row) for row in _HEX_ROWS) + "\n",
        "csv": "puzzle,level\n" + line + ",3.5\n",
        "json": json.dumps([{"puzzle": line, "level": "3.5"}]),
        "jsonl": json.dumps({"puzzle": line}) + "\n",
    }[fmt]
    grids = formats.parse(text, fmt, symbols="0-9A-F")
    assert len(grids) == 1
    assert grids[0].clues == 32
    assert grids[0][0, 0] == 1  # '0' is the first digit, not a blank
    records = list(formats.read(io.BytesIO(text.encode()), fmt, symbols="0-9A-F"))
    assert [r.grid for r in records] == grids
    if fmt in ("csv", "json"):
        assert records[0].fields["level"] == "3.5"  # other fields are not translated
    assert formats.parse(text, fmt)[0].clues == 30  # undeclared: 0 is a blank


def test_a_bad_symbol_declaration_raises_at_once() -> None:
    with pytest.raises(ParseError, match="runs backwards"):
        formats.read("no-such-file.txt", symbols="F-0")


# -- the Format record: a new format is one entry -----------------------------------------------


def test_a_format_is_one_entry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A format added to FORMATS alone is sniffed, read by its file ending, written with
    framing and by the CLI-facing Writer (nothing else names the formats)."""
    from sudokit.formats._base import Format, Head, each_line

    def read_toy(lines, shape):  # type: ignore[no-untyped-def]
        return each_line(lines, lambda text: (Grid.parse(text.removeprefix("toy:"), shape), {}))

    def dumps_toy(grid, *, solution=None, fields=None):  # type: ignore[no-untyped-def]
        return "toy:" + grid.to_line()

    def claims(head: Head) -> bool:
        return head.first.startswith("toy:")

    toy = Format("toy", read_toy, dumps_toy, extensions=(".toy",), priority=0, claims=claims)
    monkeypatch.setitem(FORMATS, "toy", toy)
    grid = Grid.parse("1.3....22....3.1")
    text = dumps(grid, "toy")
    assert (text, sniff(text), parse_one(text)) == ("toy:1.3....22....3.1", "toy", grid)
    path = tmp_path / "p.toy"
    path.write_text("1.3....22....3.1\n")  # no prefix: only the ending says the format
    assert [r.grid for r in read(path)] == [grid]
    out = io.StringIO()
    assert write([grid, grid], out, "toy") == 2
    assert out.getvalue() == "toy:1.3....22....3.1\n" * 2
    assert formats.format_of_extension("x.TOY") == "toy"
    assert not formats.carries_fields("toy")
