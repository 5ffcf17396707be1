"""CLI: ``sudokit generate`` (in-process with click's CliRunner)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sudokit import GeneratedPuzzle, Grid, Shape, formats, generate_many
from sudokit._backend import get_engine
from sudokit.cli.app import cli
from sudokit.generator import is_symmetric


def run(*args: str, code: int = 0) -> Result:
    """``sudokit generate ARGS`` in this process; its exit code must be *code*."""
    result = CliRunner().invoke(cli, ["generate", *args], catch_exceptions=False)
    assert "Traceback" not in result.output
    assert result.exit_code == code, result.output
    return result


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("sudokit: ")
    return lines[0]


def unique(grid: Grid) -> bool:
    return get_engine("python").search(grid.shape, grid.cells, 2, 0, 0).count == 1


def test_lines_unique_and_reproducible() -> None:
    first = run("-n", "5", "--seed", "7")
    assert first.exit_code == 0
    lines = first.stdout.split()
    assert len(lines) == 5
    assert all(unique(Grid.parse(line)) for line in lines)
    assert run("-n", "5", "--seed", "7").stdout == first.stdout
    assert first.stderr == ""  # a given seed is not reported


def test_random_seed_is_reported_on_stderr() -> None:
    result = run("--size", "4", "--seed", "random")
    assert result.exit_code == 0
    seed = result.stderr.split()[2]
    assert int(seed) < 2**53  # exact as a JSON number too
    assert run("--size", "4", "--seed", seed).stdout == result.stdout


def test_seed_defaults_to_0_as_in_dataset() -> None:
    """One rule for --seed: the default is 0 (the same command gives the same puzzles)."""
    default = run("--size", "4", "-n", "3")
    assert default.stderr == ""
    assert default.stdout == run("--size", "4", "-n", "3", "--seed", "0").stdout


def test_json_records_use_json_types() -> None:
    result = run("--size", "4", "-n", "2", "--to", "json")
    records = json.loads(result.stdout)
    assert [type(r["clues"]) for r in records] == [int, int]
    assert [type(r["minimal"]) for r in records] == [bool, bool]
    assert all(r["clues"] == 16 - r["puzzle"].count(".") for r in records)
    assert all(isinstance(r["seed"], str) and int(r["seed"]) >= 0 for r in records)
    jigsaw = json.loads(run("--jigsaw", "random", "--size", "6", "-n", "2", "--to", "json").stdout)
    for record in jigsaw:  # one type for regions: the region index of every cell
        assert isinstance(record["regions"], list)
        assert sorted(set(record["regions"])) == list(range(6))
    rows = run("--size", "4", "-n", "2", "--to", "csv", "--with-solution").stdout.splitlines()
    assert rows[0] == "puzzle,solution,clues,seed,minimal"
    assert [row.split(",")[-1] for row in rows[1:]] == ["true", "true"]


def test_shards_and_jobs_do_not_change_the_output() -> None:
    whole = run("-n", "8", "--seed", "3", "--size", "6").stdout
    parts = "".join(
        run("-n", "8", "--seed", "3", "--size", "6", "--shard", f"{i}/3").stdout for i in (1, 2, 3)
    )
    assert parts == whole
    assert run("-n", "8", "--seed", "3", "--size", "6", "--jobs", "2").stdout == whole


def test_with_solution_writes_csv() -> None:
    result = run("-n", "2", "--seed", "1", "--with-solution")
    rows = result.stdout.splitlines()
    assert rows[0].startswith("puzzle,solution,")
    for row in rows[1:]:
        puzzle, solution = (Grid.parse(x) for x in row.split(",")[:2])
        assert solution.is_solution(puzzle)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_shapes_and_symmetry() -> None:
    lines = run("--box", "2x3", "--symmetry", "rot180", "--seed", "2", "-n", "3").stdout.split()
    assert len(lines) == 3
    for line in lines:
        grid = Grid.parse(line, Shape(2, 3))
        assert unique(grid)
        assert is_symmetric(grid, "rot180")
    x = Grid.parse(run("--x", "--seed", "2").stdout.strip(), Shape(3, 3, diagonals=True))
    assert unique(x)
    big = run("--size", "16", "--seed", "2", "--no-minimal").stdout.strip()
    assert unique(Grid.parse(big))


def test_random_jigsaw_to_json_records_the_map() -> None:
    result = run("--jigsaw", "random", "--size", "6", "--seed", "4", "--to", "json", "-n", "2")
    assert result.exit_code == 0
    records = json.loads(result.stdout)
    assert len(records) == 2
    for grid in formats.parse(result.stdout, "json"):
        assert grid.shape.regions is not None
        assert unique(grid)


def test_jigsaw_map_file_and_pattern_file(tmp_path: Path) -> None:
    regions = tmp_path / "map.txt"
    regions.write_text("AAAB\nABBB\nCCCD\nCDDD\n")
    result = run("--jigsaw", str(regions), "--seed", "1", "--to", "json")
    (grid,) = formats.parse(result.stdout, "json")
    assert grid.shape == Shape.jigsaw("AAABABBBCCCDCDDD")
    pattern = tmp_path / "pattern.txt"
    pattern.write_text("x . x .\n. . . x\nx . . .\n. x . x\n")
    line = run("--pattern", str(pattern), "--seed", "3").stdout.strip()
    grid = Grid.parse(line)
    assert [bool(v) for v in grid.cells] == [c == "x" for c in pattern.read_text().split()]
    assert unique(grid)


def test_clue_range() -> None:
    lines = run("-n", "3", "--seed", "5", "--clues", "30-32").stdout.split()
    assert len(lines) == 3
    assert all(30 <= Grid.parse(line).clues <= 32 for line in lines)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--box", "2x3", "--symmetry", "rot90"), "symmetry 'rot90' does not fit"),
        (("--clues", "10-12"), "fewer than 17 clues"),
        (("--clues", "many"), "--clues must look like A-B"),
        (
            ("--clues", "17-18", "--symmetry", "rot180", "--searches", "300", "--seed", "1"),
            "could not generate",
        ),
        (("--shard", "3/2"), "--shard must look like i/k"),
        (("--jigsaw", "random"), "region map"),
        (("--with-solution", "--to", "line"), "--with-solution needs"),
        (("--jigsaw", "AAAB", "--seed", "1"), "--jigsaw"),
        (("--size", "6", "--box", "3x3"), "does not match"),
        (("--pattern", "/nonexistent/pattern"), "--pattern"),
        (("--difficulty", "impossible"), "unknown difficulty"),
    ],
)
def test_bad_combinations_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    assert message in one_error_line(run(*args, code=2))


def test_difficulty_range() -> None:
    from sudokit import rate

    line = run("--seed", "2", "--difficulty", "1.0-2.3").stdout.strip()
    assert 1.0 <= rate(Grid.parse(line)).se <= 2.3


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["line", "picture", "json", "jsonl", "csv"])
def test_chunks_rendered_by_workers_join_into_what_one_writer_writes(fmt: str) -> None:
    # Workers format chunks and the parent only joins them (dropping the CSV header and the
    # JSON bracket of later chunks): the file must be what one Writer writes record by record.
    fields = fmt in ("csv", "json", "jsonl")
    args = ["-n", "23", "--seed", "5", "--size", "4", "--to", fmt]
    expected = io.StringIO()
    with formats.Writer(expected, fmt) as writer:
        for p in generate_many(23, seed=5, size=4):
            extra: dict[str, Any] = {"clues": str(p.clues), "seed": str(p.seed), "minimal": "true"}
            if fmt in ("json", "jsonl"):  # JSON types there
                extra.update(clues=p.clues, minimal=True)
            writer.write(p.puzzle, solution=p.solution if fields else None, fields=extra)
    solution = ["--with-solution"] if fields else []
    for jobs in ("1", "2"):
        assert run(*args, *solution, "--jobs", jobs).stdout == expected.getvalue()
    assert run("-n", "0", "--to", fmt).stdout == ("[]\n" if fmt == "json" else "")


def _puzzles(puzzles: list[GeneratedPuzzle], offset: int) -> list[GeneratedPuzzle]:
    return puzzles


def test_a_run_in_chunks_is_the_run() -> None:
    whole = [p.puzzle for p in generate_many(40, seed=2, size=4)]
    for jobs in (1, 2):
        run_ = generate_many(40, seed=2, size=4, jobs=jobs)
        assert len(run_) == 40
        chunks = list(run_.chunks(_puzzles))
        assert len(chunks) > 3  # small chunks first, until the work per puzzle is known
        assert [p.puzzle for c in chunks for p in c] == whole
    with pytest.raises(TypeError, match="pickle"):
        next(generate_many(4, seed=2, size=4, jobs=2).chunks(lambda ps, _: ps))
