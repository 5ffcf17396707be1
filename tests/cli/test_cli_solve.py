"""CLI: solve, count, check, convert (in-process with click's CliRunner)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import sudokit
import support
from sudokit import Grid, Shape
from sudokit.cli.app import cli
from sudokit.formats import FORMATS
from support import CORPUS, Case, data_file

#: Line files take the bulk path (threads) only on the C core: the tests that say so run in the
#: fallback pass too (marked ``backend``).
BULK = sudokit.BACKEND == "c"

DATA = support.DATA / "formats"

NORVIG = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
TWELVE = "...456789679813245548927136...594678857361492964782513...648957796135824485279361"
NO_SOLUTION = "......34...23..."  # no digit repeats, yet no solution
CONFLICT = "11" + "." * 79


def run(*args: str, input: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def one_error_line(result: Result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("sudokit: ")
    return lines[0]


def puzzles(path: Path) -> list[str]:
    return [ln.split()[0] for ln in path.read_text().splitlines() if ln and ln[0] != "#"]


@pytest.mark.backend  # it names the backend
def test_version_shows_backend() -> None:
    result = run("--version")
    assert result.exit_code == 0
    first, core, python, *twins = result.stdout.strip().splitlines()
    assert first == f"sudokit {sudokit.__version__} (backend: {sudokit.BACKEND})"
    assert core.startswith("C core: ")
    assert python.startswith("Python ")
    assert twins[0].startswith("C twins: ")  # the table, tests/engine/test_native.py


# -- solve --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["top95.txt", "hardest.txt", "easy50.txt"])
def test_solve_shared_sets(name: str) -> None:
    path = data_file(name)
    result = run("solve", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    inputs = puzzles(path)
    outputs = result.stdout.splitlines()
    assert len(outputs) == len(inputs)
    for puzzle, line in zip(inputs, outputs, strict=True):
        assert Grid.parse(line).is_solution(Grid.parse(puzzle))


def test_solve_one_line_per_puzzle_with_markers(tmp_path: Path) -> None:
    path = tmp_path / "mixed.sdm"
    path.write_text(f"{NORVIG}\n12345\n{CONFLICT}\n\n{NO_SOLUTION}\n{TWELVE}\n")
    result = run("solve", str(path))
    assert result.exit_code == 2  # a record could not be read: the worst code wins
    out = result.stdout.splitlines()
    assert len(out) == 5
    assert Grid.parse(out[0]).is_solution(Grid.parse(NORVIG))
    assert out[1:4] == ["!invalid", "!invalid", "!none"]
    assert Grid.parse(out[4]).is_solution(Grid.parse(TWELVE))
    err = result.stderr.splitlines()
    assert err[0].startswith(f"sudokit: {path}:2: puzzle 2: expected a square number")
    assert err[1].startswith(f"sudokit: {path}:3: puzzle 3: invalid: conflicting givens: 1 twice")
    assert err[2] == f"sudokit: {path}:5: puzzle 4: no solution"
    assert err[3] == f"sudokit: {path}:6: puzzle 5: several solutions; printed the first"


def test_solve_unique_flag_and_exit_codes() -> None:
    assert run("solve", "-", input=NORVIG).exit_code == 0
    result = run("solve", "-", input=TWELVE)
    assert result.exit_code == 1
    assert Grid.parse(result.stdout.strip()).is_complete
    result = run("solve", "--unique", "-", input=TWELVE)
    assert result.exit_code == 1
    assert result.stdout == "!multiple\n"
    assert "several solutions (--unique)" in one_error_line(result)
    assert run("solve", "-", input=NO_SOLUTION).exit_code == 1


def test_solve_structured_output() -> None:
    result = run("solve", "--to", "jsonl", "-", input=f"{NORVIG}\nxx\n{NO_SOLUTION}\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["unique", "invalid", "none"]
    assert Grid.parse(rows[0]["solution"]).is_solution(Grid.parse(rows[0]["puzzle"]))
    assert rows[1]["puzzle"] is None
    assert "expected" in rows[1]["error"]
    assert "solution" not in rows[2]
    result = run("solve", "--to", "csv", str(DATA / "ml.csv"))
    lines = result.stdout.splitlines()
    assert lines[0] == "puzzle,solution,id,clues,difficulty,status"
    assert lines[1].endswith(",1,32,0.0,unique")


def test_solve_sizes_and_box_option() -> None:
    six = "..4635.352.43.1.4.45.3..1624..5.3.62"
    result = run("solve", "-", input=six)
    assert result.exit_code == 0
    assert Grid.parse(result.stdout.strip()).is_solution(Grid.parse(six))
    # Read as 3x2 boxes instead, the same text is another puzzle.
    result = run("check", "--box", "3x2", "-", input=six)
    assert result.stdout == "invalid\n"  # 3 twice in the first 3x2 box
    assert "conflicting givens" in one_error_line(result)
    assert run("solve", "--box", "3x2", "-", input=six).stdout == "!invalid\n"
    bad = run("solve", "--box", "3by3", "-", input=six)
    assert bad.exit_code == 2
    assert "--box" in one_error_line(bad)


def test_solve_sudoku_x() -> None:
    result = run("solve", "--x", "-", input="." * 81)
    assert result.exit_code == 1  # an empty grid has many solutions
    x = Grid.parse(result.stdout.strip(), sudokit.Shape(3, 3, diagonals=True))
    assert x.is_solution()


def test_solve_to_output_file(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    result = run("solve", "-o", str(out), str(DATA / "puzzles.sdm"))
    assert result.stdout == ""
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    for puzzle, line in zip(puzzles(DATA / "puzzles.sdm"), lines, strict=True):
        if not line.startswith("!"):
            assert Grid.parse(line).is_solution(Grid.parse(puzzle))


def test_solve_several_files_and_formats() -> None:
    files = [str(DATA / n) for n in ("kaggle.csv", "sudocue.sdk", "pictures.txt", "puzzles.json")]
    result = run("solve", *files)
    lines = result.stdout.splitlines()
    assert len(lines) == 2 + 1 + 3 + 3
    assert all(not line.startswith("!") for line in lines)


# -- count and check -----------------------------------------------------------------------------


def test_count_twelve_solutions() -> None:
    result = run("count", "--limit", "20", "-", input=TWELVE + "\n")
    assert (result.exit_code, result.stdout) == (0, "12\n")
    assert run("count", "--limit", "5", "-", input=TWELVE).stdout == ">5\n"
    assert run("count", "--limit", "12", "-", input=TWELVE).stdout == "12\n"


def test_count_lines() -> None:
    text = f"{NORVIG}\n{NO_SOLUTION}\n{CONFLICT}\nbad\n"
    result = run("count", "-", input=text)
    assert result.stdout.splitlines() == ["1", "0", "0", "!invalid"]
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 2


def test_check_statuses() -> None:
    result = run("check", "-", input=NORVIG)
    assert (result.exit_code, result.stdout) == (0, "unique\n")
    text = f"{NORVIG}\n{TWELVE}\n{NO_SOLUTION}\n{CONFLICT}\n"
    result = run("check", "-", input=text)
    # the same shape as for one puzzle: line k is puzzle k
    assert result.stdout.splitlines() == ["unique", "multiple", "none", "invalid"]
    assert result.exit_code == 1
    assert "conflicting givens" in one_error_line(result)


def test_check_serg_sample(tmp_path: Path) -> None:
    path = data_file("serg.txt")
    sample = tmp_path / "serg_sample.txt"
    sample.write_text("\n".join(path.read_text().splitlines()[::50]) + "\n")  # 200 puzzles
    result = run("check", str(sample))
    lines = result.stdout.splitlines()
    assert len(lines) == 200
    assert lines == ["multiple"] * 200
    assert result.exit_code == 1


# -- convert ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_convert_round_trip(fmt: str, tmp_path: Path) -> None:
    source = DATA / "puzzles.sdm"
    there = run("convert", "--to", fmt, str(source))
    assert there.exit_code == 0, there.stderr
    path = tmp_path / f"converted.{fmt}"
    path.write_text(there.stdout)
    back = run("convert", "--from", fmt, "--to", "line", str(path))
    assert back.exit_code == 0, back.stderr
    assert back.stdout.splitlines() == [str(Grid.parse(p)) for p in puzzles(source)]


def test_convert_keeps_fields() -> None:
    result = run("convert", "--to", "jsonl", str(DATA / "ml.csv"))
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[1]["id"] == "2"
    assert rows[1]["difficulty"] == "4.2"
    assert Grid.parse(rows[1]["solution"]).is_solution(Grid.parse(rows[1]["puzzle"]))


def test_convert_pencilmarks() -> None:
    top95_1 = puzzles(DATA / "puzzles.sdm")[1]
    result = run("convert", "--to", "candidates", "--marks", "-", input=top95_1)
    assert result.stdout == (DATA / "pencilmarks.txt").read_text()
    result = run("convert", "--to", "candgrid", "--marks", "-", input=top95_1)
    marks = sudokit.formats.parse_candidates(result.stdout)
    assert marks == sudokit.formats.parse_candidates((DATA / "explainer.candgrid").read_text())
    bad = run("convert", "--marks", "-", input=top95_1)
    assert bad.exit_code == 2
    assert "--marks needs" in one_error_line(bad)


def test_convert_skips_bad_records() -> None:
    result = run("convert", str(DATA / "bad_lines.sdm"))
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 3
    assert len(result.stderr.splitlines()) == 2


def test_unknown_format_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["convert", "--to", "xml", "-"], input="")
    assert result.exit_code == 2


# -- malformed input: one clear stderr line, exit 1 or 2, no traceback, quick ---------------------


def test_wrong_length() -> None:
    result = run("solve", "-", input=NORVIG[:-1])
    assert (result.exit_code, result.stdout) == (2, "!invalid\n")
    assert "expected a square number of cells (81 for 9x9, 16 for 4x4), got 80" in one_error_line(
        result
    )


def test_bad_characters() -> None:
    result = run("check", "-", input=NORVIG[:10] + "x" + NORVIG[11:])
    assert result.exit_code == 2
    assert (
        one_error_line(result)
        == "sudokit: <stdin>:1: puzzle 1: column 11: unexpected character 'x', expected a digit"
        " 1-9 or a blank (. 0 - _ *)"
    )


def test_conflicting_givens() -> None:
    result = run("solve", "-", input=CONFLICT)
    assert (result.exit_code, result.stdout) == (1, "!invalid\n")
    assert "1 twice in row 1 (r1c1, r1c2)" in one_error_line(result)


@pytest.mark.parametrize("command", ["solve", "count", "check", "convert"])
def test_empty_file(command: str) -> None:
    path = DATA / "empty.txt"
    assert path.stat().st_size == 0
    result = run(command, str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert one_error_line(result) == f"sudokit: {path}: no puzzles found"


def test_missing_file(tmp_path: Path) -> None:
    result = run("solve", str(tmp_path / "nope.txt"))
    assert result.exit_code == 2
    assert one_error_line(result).endswith("nope.txt: No such file or directory")


def test_binary_garbage(tmp_path: Path) -> None:
    path = tmp_path / "garbage.bin"
    path.write_bytes(bytes((i * 7919) % 256 for i in range(200_000)))
    result = run("solve", str(path))
    assert (result.exit_code, result.stdout) == (2, "!invalid\n")
    assert "binary data, not text" in one_error_line(result)


def test_binary_garbage_on_stdin() -> None:
    result = run("check", "-", input=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10)
    assert result.exit_code == 2
    assert "binary data" in one_error_line(result)


def test_100_mb_line(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    chunk = "123456789" * 1000
    with path.open("w") as f:
        for _ in range(100 * 1024 * 1024 // len(chunk)):
            f.write(chunk)
        f.write("\n")
    result = run("solve", str(path))
    assert (result.exit_code, result.stdout) == (2, "!invalid\n")
    assert "longer than" in one_error_line(result)


def test_bad_lines_do_not_stop_a_long_run(tmp_path: Path) -> None:
    good = puzzles(DATA / "puzzles.sdm")[::2]  # the easy 9x9 and the 6x6
    lines = [good[i % 2] if i % 7 else "garbage" for i in range(1, 300)]
    path = tmp_path / "long.sdm"
    path.write_text("\n".join(lines) + "\n")
    result = run("check", str(path))
    out = result.stdout.splitlines()
    assert len(out) == len(lines)
    assert [i for i, line in enumerate(out) if line == "invalid"] == [
        i for i, x in enumerate(lines) if x == "garbage"
    ]
    assert result.exit_code == 2


def test_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    """`sudokit solve big | head -1`: no traceback, no message, exit code 0."""
    import subprocess
    import sys

    path = tmp_path / "many.sdm"
    path.write_text((NORVIG + "\n") * 20000)
    script = (
        f"import sys; from sudokit.cli.app import main; sys.exit(main(['solve', {str(path)!r}]))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert Grid.parse(first.decode().strip()).is_solution(Grid.parse(NORVIG))
    assert b"Traceback" not in err
    assert b"Broken" not in err


@pytest.mark.slow
def test_check_all_of_serg() -> None:
    path = data_file("serg.txt")
    result = run("check", "-j", "0", str(path))
    assert result.exit_code == 1
    assert {line.split("\t")[0] for line in result.stdout.splitlines()} == {"multiple"}
    assert len(result.stdout.splitlines()) == 10_000


@pytest.mark.slow
def test_solve_top1465_and_kaggle() -> None:
    for name in ("top1465.txt", "kaggle_1k.txt"):
        path = data_file(name)
        result = run("solve", "-j", "0", str(path))
        assert result.exit_code == 0, result.stderr
        inputs = puzzles(path)
        outputs = result.stdout.splitlines()
        assert len(outputs) == len(inputs)
        for puzzle, line in zip(inputs, outputs, strict=True):
            assert Grid.parse(line).is_solution(Grid.parse(puzzle))


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_deeply_nested_json(fmt: str) -> None:
    result = run("solve", "--from", fmt, "-", input="[" * 100_000 + "\n")
    assert (result.exit_code, result.stdout) == (2, "!invalid\n")
    assert "bad JSON: nested too deeply" in one_error_line(result)


# -- solve --jobs N: worker processes, same bytes --------------------------------------------------


def _line_cases() -> list[Case]:
    """The corpus cases a line says all of (the default shape of its size)."""
    return [c for c in CORPUS if c.shape.n <= 16 and c.shape == Shape.from_size(c.shape.n)]


def _mixed_lines() -> list[str]:
    """Corpus puzzles of standard shapes (unique, none, several solutions) with bad rows,
    conflicts, comments and blank lines in between."""
    lines = [str(c.puzzle) for c in _line_cases()]
    extras = ["12345", NO_SOLUTION, "", CONFLICT, "# a comment", NORVIG + " # with a comment"]
    for k, extra in enumerate(extras):
        lines.insert(3 + 5 * k, extra)
    return lines


@pytest.fixture
def pooled_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Small worker chunks (so a test input spans many), and the jobs of each pooled run."""
    from sudokit import batch
    from sudokit.cli import solve as solve_cli

    calls: list[int] = []
    real = batch.ordered_map

    def spy(fn: Any, tasks: Any, jobs: int = 1) -> Any:
        calls.append(jobs)
        return real(fn, tasks, jobs)

    monkeypatch.setattr(batch, "ordered_map", spy)
    monkeypatch.setattr(solve_cli, "JOB_CHUNK", 4)
    return calls


def _one_job_and_two(tmp_path: Path, pooled_calls: list[int], to: str, unique: bool) -> list[int]:
    """Solve the mixed lines to *to* with one job, then two: the same bytes, the bad row
    reported; the jobs of the pooled runs of the second."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join(_mixed_lines()) + "\n")
    flags = ["--unique"] if unique else []
    one = run("solve", str(src), "--to", to, "--jobs", "1", *flags)
    assert pooled_calls == []  # one job: no pool
    two = run("solve", str(src), "--to", to, "--jobs", "2", *flags)
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    assert one.exit_code == 2  # the unreadable row
    assert "puzzle 4: " in one.stderr  # ... reported with its number
    return pooled_calls


@pytest.mark.parametrize("to", sorted(set(FORMATS) - {"line"}))
@pytest.mark.parametrize("unique", [False, True])
def test_solve_jobs_gives_the_bytes_of_one_job(
    tmp_path: Path, pooled_calls: list[int], to: str, unique: bool
) -> None:
    assert _one_job_and_two(tmp_path, pooled_calls, to, unique) == [2]


@pytest.mark.backend  # the pooled path on the fallback, the bulk path on the C core
@pytest.mark.parametrize("unique", [False, True])
def test_solve_jobs_to_lines_gives_the_bytes_of_one_job(
    tmp_path: Path, pooled_calls: list[int], unique: bool
) -> None:
    assert _one_job_and_two(tmp_path, pooled_calls, "line", unique) == ([] if BULK else [2])


@pytest.mark.backend  # the pooled path on the fallback, the bulk path on the C core
def test_solve_jobs_solutions_are_right(tmp_path: Path, pooled_calls: list[int]) -> None:
    """Checked independently of the one-job path: each output line solves its input line."""
    cases = _line_cases()
    src = tmp_path / "in.txt"
    src.write_text("".join(f"{c.puzzle}\n" for c in cases))
    result = run("solve", str(src), "--jobs", "2", "--unique")
    assert pooled_calls == ([] if BULK else [2])  # a line file: the bulk path (sudokit.blocks)
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert len(out) == len(cases)
    for case, line in zip(cases, out, strict=True):
        if case.count == 1:
            assert Grid.parse(line, case.shape).is_solution(case.puzzle)
            assert Grid.parse(line, case.shape) == case.solution
        elif case.count == 0:
            assert line == ("!invalid" if case.puzzle.conflicts() else "!none"), case.lineno
        else:
            assert line == "!multiple", case.lineno


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.iterdir()))
def test_solve_jobs_any_input_format(name: str, pooled_calls: list[int]) -> None:
    path = DATA / name
    for to in ("line", "csv", "json"):
        one = run("solve", str(path), "--to", to, "--jobs", "1")
        two = run("solve", str(path), "--to", to, "--jobs", "2")
        assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)


@pytest.mark.parametrize("first", ["12345", NO_SOLUTION, NORVIG])
@pytest.mark.parametrize("to", ["csv", "json", "picture"])
def test_solve_jobs_first_record_sets_the_framing(
    tmp_path: Path, pooled_calls: list[int], first: str, to: str
) -> None:
    """The CSV header and JSON opening come from the first record, whatever it is."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join([first, NORVIG, "12345", NO_SOLUTION, NORVIG, TWELVE]) + "\n")
    one = run("solve", str(src), "--to", to, "--jobs", "1")
    two = run("solve", str(src), "--to", to, "--jobs", "2")
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)


def test_solve_jobs_empty_input(tmp_path: Path, pooled_calls: list[int]) -> None:
    src = tmp_path / "in.txt"
    src.write_text("# nothing\n")
    one = run("solve", str(src), "--to", "json", "--jobs", "1")
    two = run("solve", str(src), "--to", "json", "--jobs", "2")
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)


@pytest.mark.backend  # the pooled path on the fallback, the bulk path on the C core
@pytest.mark.parametrize("name", ["top95.txt", "hardest.txt", "kaggle_1k.txt"])
def test_solve_jobs_shared_sets(name: str, pooled_calls: list[int]) -> None:
    path = data_file(name)
    one = run("solve", str(path), "--jobs", "1")
    two = run("solve", str(path), "--jobs", "2")
    assert pooled_calls == ([] if BULK else [2])  # a line file: the bulk path (sudokit.blocks)
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    for puzzle, line in zip(puzzles(path), two.stdout.splitlines(), strict=True):
        assert Grid.parse(line).is_solution(Grid.parse(puzzle))


def test_solve_jobs_several_files(tmp_path: Path, pooled_calls: list[int]) -> None:
    """Numbering across files, a missing file and an empty one: the same as one job."""
    first, second, empty = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "e.txt"
    first.write_text("\n".join(_mixed_lines()) + "\n")
    second.write_text("\n".join(reversed(_mixed_lines())) + "\n")
    empty.write_text("")
    names = [str(first), str(tmp_path / "missing.txt"), str(empty), str(second)]
    one = run("solve", *names, "--to", "jsonl", "--jobs", "1")
    two = run("solve", *names, "--to", "jsonl", "--jobs", "2")
    assert pooled_calls == [2]
    assert (two.exit_code, two.stdout) == (one.exit_code, one.stdout)
    # A file-level message comes when the file is read, which both paths do ahead of
    # the output (by up to a few chunks): only its place among the puzzle messages differs.
    assert sorted(two.stderr.splitlines()) == sorted(one.stderr.splitlines())
    per_puzzle = [[ln for ln in r.stderr.splitlines() if ": puzzle " in ln] for r in (one, two)]
    assert per_puzzle[0] == per_puzzle[1]
    assert "missing.txt" in one.stderr
    in_first = [ln for ln in _mixed_lines() if ln.strip() and not ln.startswith("#")]
    numbers = [int(n) for n in re.findall(r"b\.txt:\d+: puzzle (\d+):", one.stderr)]
    assert numbers
    assert min(numbers) > len(in_first)  # numbered across files
