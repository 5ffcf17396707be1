"""The search benchmark (``sudokit bench``, ``benchmarks/bench_solve.py``) and its C drivers.

The comparison with tdoku builds the tdoku driver only when tdoku's source
is present and skips cleanly otherwise; the C file driver (``bench_fast9 -F``) gives the same
output as ``sudokit solve`` on a line file, so timing the two compares like with like; the
1,000,000-line file is made of true isomorphs. No timing is asserted here.
"""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import sudokit
import support
from sudokit import Grid, Shape, solve
from sudokit.cli.app import main

# The benchmark measures the C core and compares its driver with `sudokit solve` on the C
# backend (the Python fallback may print another first solution of a multi-solution puzzle).
pytestmark = pytest.mark.c_only

ROOT = support.REPO
TDOKU = ROOT.parent / "shared" / "baselines" / "tdoku"
NINE = Shape(3, 3)
CC = shutil.which("cc") or shutil.which("gcc")
needs_cc = pytest.mark.skipif(CC is None, reason="needs a C compiler")
#: r1c2..r1c9 hold 1..8, which leaves 9 for r1c1, and r2c1 holds 9: no solution, no clash.
NO_SOLUTION = "." + "12345678" + "9" + "." * 71


def _puzzles(k: int) -> list[str]:
    lines = (ROOT / "tests" / "data" / "logic_puzzles.txt").read_text().split()
    return [line for line in lines if len(line) == 81][:k]


@pytest.fixture(scope="module")
def harness() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location(
        "sudokit_bench_solve_test", ROOT / "benchmarks" / "bench_solve.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look the module up there
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture(scope="module")
def file_driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """bench_fast9 built as CI builds it (-Werror), without tdoku."""
    out = tmp_path_factory.mktemp("fast9") / "bench_fast9"
    subprocess.run(
        [
            str(CC),
            "-O1",
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            str(ROOT / "csrc"),
            "-o",
            str(out),
            str(ROOT / "benchmarks" / "c" / "bench_fast9.c"),
            str(ROOT / "csrc" / "sk_fast9.c"),
        ],
        check=True,
    )
    return out


def _sudokit_solve(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["solve", str(path)]) == 2  # an unreadable line
    return capsys.readouterr().out


@needs_cc
def test_c_file_driver_prints_what_sudokit_solve_prints(
    file_driver: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _puzzles(30)
    lines[7:7] = ["not a puzzle", NO_SOLUTION, "0" * 81]  # bad line, none, several (first)
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    got = subprocess.run(
        [str(file_driver), "-F", "sk9", str(path)], capture_output=True, text=True, check=True
    ).stdout
    assert got == _sudokit_solve(path, capsys)
    out = got.splitlines()
    assert out[7:9] == ["!invalid", "!none"]
    assert len(out) == 33
    assert Grid.parse(out[9], NINE).is_solution()


@needs_cc
def test_c_driver_without_tdoku_refuses_tdoku_modes(file_driver: Path, tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(_puzzles(1)[0] + "\n")
    for args in (["-F", "tdoku", str(path)], ["-T", str(path)], ["-F", "nope", str(path)]):
        proc = subprocess.run([str(file_driver), *args], capture_output=True, text=True)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert len(proc.stderr.splitlines()) == 1


@needs_cc
def test_c_driver_takes_given_isomorphs_unpermuted(file_driver: Path, tmp_path: Path) -> None:
    """-P (what bench_solve.py passes): the guesses of a pass do not depend on the seed."""
    path = tmp_path / "set.txt"
    path.write_text("\n".join(_puzzles(40)) + "\n")

    def guesses(*flags: str) -> str:
        proc = subprocess.run(
            [str(file_driver), "-p", *flags, str(path)], capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split("guesses/puzzle")[1].split()[0]

    assert guesses("-P", "-s", "1") == guesses("-P", "-s", "2")


def test_tdoku_absent_is_skipped_with_a_note(harness: ModuleType, tmp_path: Path) -> None:
    driver, note = harness.build_tdoku_driver(tmp_path / "no-tdoku", tmp_path / "out")
    assert driver is None
    assert "skipped" in note
    assert "no-tdoku" in note


def test_drawn_maps_give_seeded_isomorphs(harness: ModuleType) -> None:
    grids = [Grid.parse(p, NINE) for p in _puzzles(3)]
    lines = harness.apply_maps(grids, harness.draw_maps(4, random.Random(7)))
    assert lines == harness.apply_maps(grids, harness.draw_maps(4, random.Random(7)))
    assert len(lines) == 12
    assert len(set(lines)) == 12
    for k, line in enumerate(lines):
        grid, source = Grid.parse(line, NINE), grids[k % 3]
        assert grid.clues == source.clues
        assert solve(grid).count == solve(source).count == 1


def test_small_sets_are_widened_to_enough_isomorphs(harness: ModuleType) -> None:
    """A set under MIN_COMPARED puzzles gets k isomorphs of each, seeded by seed and name and
    drawn apart from the main draw; the "hardest" keep their own 100."""
    grids = [Grid.parse(p, NINE) for p in _puzzles(40)]
    maps = harness.widening_maps("small", 40, [], 3)
    assert len(maps) * 40 >= harness.MIN_COMPARED > (len(maps) - 1) * 40
    lines = harness.apply_maps(grids, maps)
    assert lines == harness.apply_maps(grids, harness.widening_maps("small", 40, [], 3))
    assert lines != harness.apply_maps(grids, harness.widening_maps("small", 40, [], 4))
    assert lines != harness.apply_maps(grids, harness.widening_maps("other", 40, [], 3))
    assert Grid.parse(lines[41], NINE).clues == grids[1].clues
    hundred = harness.draw_maps(100, random.Random(1))
    assert harness.widening_maps("hardest", 11, hundred, 1) is hundred
    assert harness.widening_maps("big", harness.MIN_COMPARED, [], 1) == []


def _row(harness: ModuleType, name: str, limit: int, c: float, many: float | None) -> Any:
    """A VsTdoku row: tdoku 4 µs a puzzle, the C core *c* times that, solve_many *many*."""
    return harness.VsTdoku(
        name=name,
        puzzles=1100 if "_x" in name else 11,
        limit=limit,
        c_us=4 * c,
        c_guesses=1.0,
        tdoku_us=4.0,
        tdoku_guesses=1.0,
        c_ratio=c,
        engine_batch_us=4 * c,
        solve_many_us=None if many is None else 4 * many,
        load=1.0,
    )


def test_the_verdict_reads_a_small_set_off_its_widened_rows(harness: ModuleType) -> None:
    rows = [
        _row(harness, "small", 1, 1.4, 1.5),
        _row(harness, "small", 2, 1.1, 1.2),
        _row(harness, "small_x100", 1, 0.7, 0.8),
        _row(harness, "small_x100", 2, 0.8, 1.1),
        _row(harness, "slow", 1, 0.9, 1.0),
        _row(harness, "slow", 2, 1.05, 1.0),
        _row(harness, "pythonslow", 1, 0.9, 1.2),
        _row(harness, "pythonslow", 2, 0.9, 1.0),
        _row(harness, "refused", 1, 0.9, None),
        _row(harness, "refused", 2, 0.9, 1.0),
    ]
    table = {
        line.split("|")[1].strip(): line
        for line in harness.render_verdict(rows)
        if line.startswith("| ") and "read off" not in line
    }
    assert sorted(table) == ["pythonslow", "refused", "slow", "small"]
    assert "| small_x100 | 1,100 | 0.70x | 0.80x | 0.80x | 1.10x | yes |" in table["small"]
    assert table["slow"].endswith("| NO |")  # the C core 1.05x at limit 2
    assert table["pythonslow"].endswith("| NO |")  # solve_many 1.2x where tdoku takes 4 µs
    assert table["refused"].endswith("| NO |")  # no solve_many figure: not met
    easy = [_row(harness, "serg", k, 0.9, 1.4) for k in (1, 2)]  # an easy set: 1.5x
    assert harness.render_verdict(easy)[-1].endswith("| yes |")
    assert harness.render_verdict([*easy, _row(harness, "serg", 1, 0.9, 1.6)])[-1].endswith(
        "| NO |"
    )


def test_bench_command_without_tdoku(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "logic.txt").write_text("\n".join(_puzzles(40)) + "\n")
    code = main(["bench", "--data", str(data), "--quick", "--no-tdoku", "--no-write"])
    out = capsys.readouterr().out
    assert code == 0
    assert "| logic | 40 |" in out
    assert "## Against tdoku, same run, same isomorphs" in out
    assert "skipped (--no-tdoku)" in out


def test_bench_command_bad_data_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--data", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudokit: bench: no puzzle set")
    assert len(err.splitlines()) == 1


@pytest.mark.slow
@pytest.mark.skipif(
    not (TDOKU / "solver_dpll_triad_simd.cc").is_file() or shutil.which("g++") is None,
    reason="needs tdoku's source in ../shared/baselines/tdoku and g++",
)
def test_tdoku_driver_agrees_and_reports(harness: ModuleType, tmp_path: Path) -> None:
    driver, note = harness.build_tdoku_driver(TDOKU, tmp_path, "-O1")
    assert driver is not None, note
    path = tmp_path / "set.txt"
    path.write_text("\n".join(_puzzles(30)) + "\n")
    found = harness.compare_in_c(driver, path, 1)
    assert sorted(found) == [1, 2]
    for c_us, c_guesses, t_us, t_guesses, ratio in found.values():
        assert c_us > 0
        assert t_us > 0
        assert ratio > 0
        assert c_guesses >= 0
        assert t_guesses >= 0
    outs = [
        subprocess.run(
            [str(driver), "-F", engine, str(path)], capture_output=True, text=True, check=True
        ).stdout
        for engine in ("sk9", "tdoku", "tdoku1")
    ]
    assert outs[0] == outs[1] == outs[2]
    assert len(outs[0].splitlines()) == 30
    row = harness.bench_cli("set", path, 30, driver, True, 1, True)
    assert row.same_output is True
    assert min(row.sudokit_us, row.tdoku_us, row.tdoku1_us, row.sk9_us) > 0
    assert row.sudokit_startup_us > 0
    assert row.jobs1_wall_us > 0
    assert row.jobs2_wall_us > 0


def test_bench_runs_from_a_clone_with_a_normal_install(tmp_path: Path) -> None:
    """After ``pip install .`` the package lives in site-packages, away from the clone's
    ``benchmarks/``: the command finds the harness from the directory it runs in."""
    site = tmp_path / "site"
    shutil.copytree(
        Path(sudokit.__file__).parent,
        site / "sudokit",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    data = tmp_path / "data"
    data.mkdir()
    (data / "logic.txt").write_text("\n".join(_puzzles(40)) + "\n")
    argv = ["bench", "--data", str(data), "--quick", "--no-tdoku", "--no-million", "--no-write"]
    run = support.run_text(
        [sys.executable, "-m", "sudokit", *argv],
        cwd=ROOT / "tests",  # anywhere inside the clone
        env={**os.environ, "PYTHONPATH": str(site), "SUDOKIT_BENCH_SCRIPT": ""},
    )
    assert run.returncode == 0, run.stderr
    assert "| logic | 40 |" in run.stdout
