"""Bulk rating from the CLI: ``sudokit rate --jobs N`` and ``--resume``.

Ratings are checked against :func:`sudokit.rate` called here in this process, row by row in
input order; the bulk paths must not change a single byte of the output.
"""

from __future__ import annotations

import json
import logging
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

import sudokit
from sudokit import Grid, Shape, generate
from sudokit.cli import common, logic
from sudokit.cli.app import main
from sudokit.transform import random_isomorph
from support import CORPUS, kill_after_shards, shards_done

NO_SOLUTION = "......34...23..."  # no digit repeats, yet no solution
SEVERAL = "." * 16
UNREADABLE = "not a puzzle"
NINE = Shape(3, 3)
RESUME_USAGE = "sudokit: --resume needs one input FILE, -o OUT and --to json (9x9, 4x4, ...)\n"


def _lines(count: int, seed: int = 2) -> list[str]:
    """*count* 4x4 puzzles (quick to rate) with a few quick 9x9 ones among them."""
    rng = random.Random(seed)
    base = [generate(size=4, seed=s).puzzle for s in range(20)]
    lines = [str(random_isomorph(rng.choice(base), rng)) for _ in range(count)]
    nines = [str(c.puzzle) for c in CORPUS if c.shape == NINE and c.count == 1]
    for k, p in enumerate(nines[:3]):  # the first ones of the corpus rate in milliseconds
        if 3 + 7 * k < count:
            lines[3 + 7 * k] = p
    return lines


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def _json_rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _expected(puzzle: str) -> dict[str, object]:
    """The row of one puzzle, computed here without the CLI."""
    grid = Grid.parse(puzzle)
    try:
        return sudokit.rate(grid).to_json(grid)
    except sudokit.SudokuError as exc:
        return {"puzzle": puzzle, "error": str(exc)}


def _stderr_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().err.splitlines()


# -- --jobs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("to", ["text", "json"])
def test_jobs_change_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str) -> None:
    lines = _lines(60)
    lines[10], lines[20] = NO_SOLUTION, SEVERAL
    src = _write(tmp_path / "in.txt", lines)
    outs = {}
    for jobs in ("1", "2", "0"):
        out = tmp_path / f"out{jobs}.txt"
        assert main(["rate", str(src), "--to", to, "--jobs", jobs, "-o", str(out)]) == 1
        err = _stderr_lines(capsys)
        assert [e.split(": ")[1] for e in err] == [f"{src}:11", f"{src}:21"]
        assert "puzzle 11: " in err[0]
        assert "no solution" in err[0]
        assert "puzzle 21: " in err[1]
        assert "more than one solution" in err[1]
        outs[jobs] = out.read_bytes()
    assert outs["1"] == outs["2"] == outs["0"]
    text = outs["1"].decode()
    if to == "json":
        assert _json_rows(tmp_path / "out2.txt") == [_expected(p) for p in lines]
    else:
        # one row per input, in order: a marker row for a puzzle that cannot be rated
        rows = text.splitlines()[: len(lines)]
        assert [r.split()[-1] for r in rows] == lines
        markers = {10: "!none", 20: "!multiple"}
        assert [r.split()[0] for r in rows if r.startswith("!")] == list(markers.values())
        assert [rows[i].split()[0] for i in markers] == list(markers.values())
        rated = [_expected(p) for p in lines if p not in (NO_SOLUTION, SEVERAL)]
        ratings = [float(r.split()[0]) for r in rows if not r.startswith("!")]
        assert ratings == [r["rating"] for r in rated]
        assert text.endswith(f"\n{len(rated)} puzzles rated\n")


def test_jobs_keep_the_shape_of_every_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--x and --box reach the worker processes (the grids travel with their shapes)."""
    cases = {
        ("--x",): [c for c in CORPUS if c.shape.variant == "x" and c.shape.n == 4],
        ("--box", "3x2"): [c for c in CORPUS if c.shape.box_rows == 3 and c.shape.n == 6],
    }
    for options, chosen in cases.items():
        puzzles = [c.puzzle for c in chosen if c.count == 1] * 20
        src = _write(tmp_path / "in.txt", [str(p) for p in puzzles])
        outs = []
        for jobs in ("1", "2"):
            out = tmp_path / f"out{jobs}.jsonl"
            args = ["rate", str(src), *options, "--to", "json", "--jobs", jobs, "-o", str(out)]
            assert main(args) == 0
            outs.append(out.read_bytes())
        assert outs[0] == outs[1]
        expected = [sudokit.rate(p).to_json(p) for p in puzzles]
        assert _json_rows(tmp_path / "out2.jsonl") == expected
        # The shape matters: read as plain 4x4 / 2x3 the puzzles rate differently or not at all.
        assert expected != [_expected(str(p)) for p in puzzles]


# The process map under ``rate --jobs N`` (order, early stop, a killed parent) is tested in
# tests/bulk/test_ordered_map.py.


# -- --resume --------------------------------------------------------------------------------


class _Runs(NamedTuple):
    """The same lines rated to JSON plainly and with --resume (see :func:`rate_both`)."""

    src: Path
    lines: list[str]
    plain: Path
    bulk: Path
    plain_err: list[str]
    bulk_err: list[str]


RateBoth = Callable[..., _Runs]


@pytest.fixture
def rate_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> RateBoth:
    """``rate_both(count, bad, plain_args=[], resume_args=[], code=0)``: *count* puzzle lines
    (the rows of *bad*, ``{index: line}``, replaced) rated to JSON plainly and with
    --resume, each run exiting with *code*."""

    def run(
        count: int,
        bad: dict[int, str],
        plain_args: tuple[str, ...] = (),
        resume_args: tuple[str, ...] = (),
        code: int = 0,
    ) -> _Runs:
        lines = _lines(count)
        for index, line in bad.items():
            lines[index] = line
        src = _write(tmp_path / "in.txt", lines)
        plain, bulk = tmp_path / "plain.jsonl", tmp_path / "bulk.jsonl"
        assert main(["rate", str(src), "--to", "json", "-o", str(plain), *plain_args]) == code
        plain_err = _stderr_lines(capsys)
        resumed = ["rate", str(src), "--to", "json", "-o", str(bulk), "--resume", *resume_args]
        assert main(resumed) == code
        return _Runs(src, lines, plain, bulk, plain_err, _stderr_lines(capsys))

    return run


def test_resume_writes_what_plain_json_writes(rate_both: RateBoth) -> None:
    src, lines, plain, bulk, plain_err, bulk_err = rate_both(
        250, {10: NO_SOLUTION, 200: SEVERAL}, resume_args=("--jobs", "2"), code=1
    )
    assert bulk.read_bytes() == plain.read_bytes()
    assert _json_rows(bulk) == [_expected(p) for p in lines]
    assert not bulk.with_name("bulk.jsonl.parts").exists()
    # One line per puzzle without a rating, the same in both modes (with its line number).
    assert bulk_err == plain_err
    assert bulk_err[0].startswith(f"sudokit: {src}:11: puzzle 11: ")
    assert len(bulk_err) == 2


def test_resume_messages_give_the_line_numbers_of_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Blank and comment lines are not puzzles: a message names the puzzle's number and the
    line it is on, as a plain run does."""
    good = _lines(3)
    text = ["# a comment", good[0], "", UNREADABLE, "  ", "# more", SEVERAL, good[1], good[2]]
    src = _write(tmp_path / "in.txt", text)
    errs = []
    for extra in ((), ("--resume",)):
        out = tmp_path / f"out{len(extra)}.jsonl"
        assert main(["rate", str(src), "--to", "json", "-o", str(out), *extra]) == 2
        errs.append(_stderr_lines(capsys))
    assert errs[0] == errs[1]
    assert [e.split(": ", 2)[:2] for e in errs[1]] == [
        ["sudokit", f"{src}:4"],
        ["sudokit", f"{src}:7"],
    ]
    assert [e.split(": ")[2] for e in errs[1]] == ["puzzle 2", "puzzle 3"]


def test_unreadable_rows_are_reported_and_skipped(
    rate_both: RateBoth, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {4: UNREADABLE, 5: SEVERAL}
    src, _, plain, bulk, plain_err, bulk_err = rate_both(
        30, bad, plain_args=("--jobs", "2"), code=2
    )
    for err in (plain_err, bulk_err):
        assert len(err) == 2
        assert "puzzle 5: " in err[0]
        assert "square number of cells" in err[0]
        assert "puzzle 6: " in err[1]
        assert "more than one solution" in err[1]
    plain_rows, bulk_rows = _json_rows(plain), _json_rows(bulk)
    assert len(plain_rows) == len(bulk_rows) == 30  # the run went on past the bad rows
    assert plain_rows[4]["puzzle"] is None
    assert bulk_rows[4]["puzzle"] == UNREADABLE
    assert plain_rows[4]["error"] == bulk_rows[4]["error"]
    del plain_rows[4], bulk_rows[4]
    assert plain_rows == bulk_rows
    assert main(["rate", str(src), "-o", str(plain)]) == 2  # text output: the same exit code
    assert len(_stderr_lines(capsys)) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--to", "json", "--resume"],  # no -o
        ["--to", "json", "--resume", "-o", "-"],
        ["--resume", "-o", "OUT"],  # text output cannot be sharded
        ["--to", "json", "--resume", "-o", "OUT", "--box", "2x2"],
        ["--to", "json", "--resume", "-o", "OUT", "--x"],
        ["--to", "json", "--resume", "-o", "OUT", "IN"],  # two inputs
    ],
)
def test_resume_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    src = _write(tmp_path / "in.txt", _lines(3))
    out = tmp_path / "out.jsonl"
    args = [str(out) if a == "OUT" else str(src) if a == "IN" else a for a in args]
    assert main(["rate", str(src), *args]) == 2
    assert capsys.readouterr().err == RESUME_USAGE
    assert not out.exists()


def test_resume_refuses_to_overwrite_its_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _write(tmp_path / "in.txt", _lines(3))
    before = src.read_bytes()
    assert main(["rate", str(src), "--to", "json", "--resume", "-o", str(src)]) == 2
    assert "the output file is also an input" in capsys.readouterr().err
    assert src.read_bytes() == before
    # solve shares the plumbing and keeps its own wording
    assert main(["solve", str(src), "--resume", "--to", "json", "-o", "x"]) == 2
    err = capsys.readouterr().err
    assert err == "sudokit: --resume needs one input FILE, -o OUT and --to line (9x9, 4x4, ...)\n"


@pytest.mark.slow
def test_killed_rate_resumes_byte_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    lines = _lines(3000, seed=5)
    lines[77] = SEVERAL
    src = _write(tmp_path / "in.txt", lines)
    monkeypatch.setattr(logic, "SHARD_ROWS", 25)
    ref, out = tmp_path / "ref.jsonl", tmp_path / "out.jsonl"
    assert main(["rate", str(src), "--to", "json", "-o", str(ref), "--resume"]) == 1
    code = (
        "import sys; from sudokit.cli import logic; from sudokit.cli.app import main; "
        "logic.SHARD_ROWS = 25; sys.exit(main(sys.argv[1:]))"
    )
    args = ["rate", str(src), "--to", "json", "-o", str(out), "--resume", "--jobs", "2"]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args], stderr=subprocess.DEVNULL, start_new_session=True
    )
    parts = tmp_path / "out.jsonl.parts"
    kill_after_shards(proc, parts, group=True)
    if proc.returncode != -signal.SIGKILL:
        pytest.skip("the run finished before it could be killed")
    assert not out.exists()
    done = shards_done(parts)
    assert 3 <= done < 120
    caplog.set_level(logging.INFO, logger="sudokit.shards")
    assert main(args) == 1
    assert "resuming" in caplog.text
    assert out.read_bytes() == ref.read_bytes()
    assert _json_rows(out)[75:80] == [_expected(p) for p in lines[75:80]]
    assert not parts.exists()


# -- the progress bar's total ----------------------------------------------------------------


def test_progress_total_is_counted_only_for_a_bar(tmp_path: Path) -> None:
    calls = []

    def total() -> int:
        calls.append(1)
        return 3

    with common.progress("x", enabled=False, total=total) as advance:
        advance(1)
    assert calls == []
    pytest.importorskip("rich")
    with common.progress("x", enabled=True, total=total) as advance:
        advance(3)
    assert calls == [1]
    f = tmp_path / "f.txt"
    for text, count in [("", 0), ("a\n", 1), ("a\nb", 2), ("a\n\nb\n", 3)]:
        f.write_text(text)
        assert common._count_lines(str(f)) == count
    assert common._count_lines(str(tmp_path / "missing")) is None
