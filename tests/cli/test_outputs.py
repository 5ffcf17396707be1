"""Outputs never clobber (a symlinked output once became a regular file): regular files are replaced
only when complete (keeping their mode), symlinks stay symlinks, devices and pipes are written
through, ``-`` is standard output, and a failed run leaves neither a truncated file nor a stray
``X.tmp`` / ``X.parts``. Everything runs in a temporary directory, never on ``/dev``."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudokit import formats
from sudokit.batch import DatasetSpec, solve_file, write_dataset
from sudokit.cli import app
from sudokit.errors import SudokuError

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _sudokit(*args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args], capture_output=True, timeout=120, **kwargs
    )


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    os.chmod(target, 0o640)

    def fill_the_disk() -> None:
        with formats.output(str(target)) as stream:
            stream.write("half")
            raise OSError(28, "No space left on device")  # a full disk, simulated

    with pytest.raises(OSError, match="No space"):
        fill_the_disk()
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    with formats.output(str(target)) as stream:
        stream.write("new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the mode is kept


def test_a_symlinked_output_stays_a_symlink(tmp_path: Path) -> None:
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old\n")
    link.symlink_to(real)
    write_dataset(link, DatasetSpec(n=3, seed=1, size=4))
    assert link.is_symlink()
    assert real.read_text().startswith("puzzle,solution")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "real.csv"]


def test_a_symlink_to_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo, link = tmp_path / "fifo", tmp_path / "link.csv"
    os.mkfifo(fifo)
    link.symlink_to(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    rows = write_dataset(link, DatasetSpec(n=3, seed=1, size=4))
    reader.join(30)
    assert rows == 3
    assert got
    assert got[0].decode().count("\n") == 4
    assert link.is_symlink()
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link.csv"]


@pytest.mark.parametrize("out", ["-", "/dev/stdout", "LINK"])
def test_dataset_writes_to_standard_output(tmp_path: Path, out: str) -> None:
    if out == "LINK":  # a link in tmp standing for /dev/stdout: the old code replaced it
        (tmp_path / "stdout").symlink_to("/proc/self/fd/1")
        out = str(tmp_path / "stdout")
    done = _sudokit("dataset", "-n", "3", "--size", "4", "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines()[0] == "puzzle,solution,clues,guesses,symmetry,seed"
    assert len(done.stdout.splitlines()) == 4
    linked = out.startswith(str(tmp_path))
    assert [p.name for p in tmp_path.iterdir()] == (["stdout"] if linked else [])
    assert not linked or (tmp_path / "stdout").is_symlink()  # still a link, not a file


def test_print_to_standard_output(tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    (tmp_path / "p.txt").write_text(PUZZLE + "\n")
    done = _sudokit("print", "p.txt", "-o", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt"]  # no file named '-'


def test_finished_shards_need_resume_or_force(tmp_path: Path) -> None:
    out = tmp_path / "d.csv"
    parts = tmp_path / "d.csv.parts"
    spec = DatasetSpec(n=300, seed=2, size=4)

    def boom(rows: int) -> None:
        raise KeyboardInterrupt  # interrupted after the first shard

    with pytest.raises(KeyboardInterrupt):
        write_dataset(out, spec, shard_rows=100, progress=boom)
    assert parts.is_dir()
    assert not out.exists()
    runner = CliRunner()
    args = ["dataset", "-n", "300", "--seed", "2", "--size", "4", "--shard-rows", "100"]
    again = runner.invoke(app.cli, [*args, "--out", str(out)])
    assert again.exit_code == 2
    assert "--resume" in again.output
    assert "--force" in again.output
    assert parts.is_dir()  # not discarded
    forced = runner.invoke(app.cli, [*args, "--out", str(out), "--force"])
    assert forced.exit_code == 0, forced.output
    assert not parts.exists()
    assert len(out.read_text().splitlines()) == 301


def test_a_run_that_fails_before_any_shard_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "d.csv"

    def boom(rows: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_dataset(out, DatasetSpec(n=10, seed=2, size=4), shard_rows=100, progress=boom)
    assert list(tmp_path.iterdir()) == [tmp_path / "d.csv.parts"]  # one finished: resumable
    write_dataset(out, DatasetSpec(n=10, seed=2, size=4), shard_rows=100, resume=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv"]


def test_missing_output_directory_is_an_error_not_created(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text(PUZZLE + "\n")
    with pytest.raises(SudokuError, match="no such directory"):
        solve_file(src, tmp_path / "nope" / "out.txt")
    with pytest.raises(SudokuError, match="no such directory"):
        write_dataset(tmp_path / "nope" / "d.csv", DatasetSpec(n=1, seed=1, size=4))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]
    done = CliRunner().invoke(app.cli, ["dataset", "-n", "1", "--out", str(tmp_path / "x/d.csv")])
    assert done.exit_code == 2
    assert "no such directory" in done.output


def test_solve_output_is_not_truncated_by_a_failed_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src, out = tmp_path / "in.txt", tmp_path / "out.txt"
    src.write_text(PUZZLE + "\n")
    out.write_text("previous answers\n")
    import sudokit.cli.solve as solve_cmd

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(solve_cmd, "_solve_items", full_disk)
    monkeypatch.setattr(solve_cmd, "_FastRun", full_disk)  # the bulk path of line files
    done = CliRunner().invoke(app.cli, ["solve", str(src), "-o", str(out)])
    assert done.exit_code == 2
    assert "No space left" in done.output
    assert out.read_text() == "previous answers\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.txt"]
