"""Bulk solving of files: ``sudokit solve --resume`` and a killed :func:`solve_file` resumed."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid, count_solutions, generate
from sudokit.batch import solve_file
from sudokit.cli.app import main
from sudokit.transform import random_isomorph
from support import kill_after_shards, shards_done


def _file(tmp_path: Path, count: int) -> Path:
    rng = random.Random(2)
    base = [generate(size=4, seed=s).puzzle for s in range(20)]
    lines = [str(random_isomorph(rng.choice(base), rng)) for _ in range(count)]
    lines[5] = "......34...23..."  # no digit repeats, yet no solution
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_solve_resume_matches_plain_solve(tmp_path: Path) -> None:
    src = _file(tmp_path, 300)
    plain, bulk = tmp_path / "plain.txt", tmp_path / "bulk.txt"
    assert main(["solve", str(src), "-o", str(plain)]) == 1
    assert main(["solve", str(src), "-o", str(bulk), "--resume", "--jobs", "2"]) == 1
    assert bulk.read_text() == plain.read_text()
    answers = bulk.read_text().splitlines()
    assert answers[5] == "!none"
    puzzles = src.read_text().splitlines()
    for p, a in zip(puzzles[:5], answers, strict=False):
        assert Grid.parse(a).is_solution(Grid.parse(p))
    assert main(["solve", "-", "-o", str(bulk), "--resume"]) == 2


def _kill_solve_file(src: Path, out: Path, shard_rows: int) -> Path:
    """Start :func:`solve_file` of *src* into *out* in a process, kill it after three shards
    (skip the test if it finished first); return its work directory."""
    code = "from sudokit.batch import solve_file; import sys; "
    code += f"solve_file(*sys.argv[1:], shard_rows={shard_rows})"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(src), str(out)], stderr=subprocess.DEVNULL
    )
    parts = out.with_name(out.name + ".parts")
    kill_after_shards(proc, parts)
    if proc.returncode == 0:
        pytest.skip("the run finished before it could be killed")
    return parts


@pytest.mark.slow
def test_killed_solve_file_resumes_exactly(tmp_path: Path) -> None:
    src = _file(tmp_path, 3000)
    ref = tmp_path / "ref.txt"
    solve_file(src, ref, shard_rows=25)
    out = tmp_path / "out.txt"
    parts = _kill_solve_file(src, out, 25)
    assert not out.exists()
    assert 3 <= shards_done(parts) < 120
    lines, markers = solve_file(src, out, shard_rows=25)
    assert (lines, markers) == (3000, 1)
    assert out.read_bytes() == ref.read_bytes()


def _with_several(tmp_path: Path, count: int) -> tuple[Path, set[int]]:
    """A file of 4x4 puzzles where every 7th is cut to 3 givens (several solutions, checked
    with a count here), and the 0-based rows of those."""
    rng = random.Random(5)
    base = [generate(size=4, seed=s).puzzle for s in range(10)]
    lines, several = [], set()
    for i in range(count):
        p = random_isomorph(rng.choice(base), rng)
        if i % 7 == 3:
            cells = [v if k in (0, 5, 10) else 0 for k, v in enumerate(p.cells)]
            p = Grid(cells, p.shape)
        lines.append(str(p))
    for i, line in enumerate(lines):
        if count_solutions(Grid.parse(line), limit=2) == 2:
            several.add(i)
    assert len(several) >= count // 7
    path = tmp_path / "several.txt"
    path.write_text("# several\n" + "\n".join(lines) + "\n")
    return path, several


def test_resume_reports_puzzles_with_several_solutions_as_plain_solve(tmp_path: Path) -> None:
    """Old code: ``solve --resume`` wrote the first solution of a puzzle with several and said
    nothing (exit 0) where plain ``solve`` warns on its line and exits 1."""
    src, several = _with_several(tmp_path, 60)
    runs = []
    for extra in ([], ["--resume", "-o", str(tmp_path / "out.txt")]):
        cmd = [sys.executable, "-m", "sudokit", "solve", str(src), *extra]
        runs.append(subprocess.run(cmd, capture_output=True, text=True, timeout=120))
    plain, resumed = runs
    assert plain.returncode == resumed.returncode == 1
    assert resumed.stderr == plain.stderr
    assert (tmp_path / "out.txt").read_text() == plain.stdout
    warned = {int(line.split(":")[2]) - 2 for line in plain.stderr.splitlines()}
    assert warned == several  # input line = row + 2 (the comment line, 1-based)


def test_killed_solve_file_still_reports_several_of_its_finished_shards(tmp_path: Path) -> None:
    src, several = _with_several(tmp_path, 700)
    out = tmp_path / "out.txt"
    assert shards_done(_kill_solve_file(src, out, 7)) >= 3
    rows: list[int] = []
    solve_file(src, out, shard_rows=7, several=rows.append)
    assert rows == sorted(several)
