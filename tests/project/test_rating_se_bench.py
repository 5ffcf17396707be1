"""The SE-vs-sudokit rating benchmark (``benchmarks/bench_rating_se.py``) skips cleanly where it
cannot measure: without Java on PATH, or without the Sudoku Explainer baseline, it says why on
one line and exits 0 (CI machines have neither)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import REPO, run_text

SCRIPT = REPO / "benchmarks" / "bench_rating_se.py"


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_text(
        [sys.executable, str(SCRIPT), "--random", "1", "--hardest", "0"],
        env=env,
        timeout=120,
    )


def _path_without(tool: str, tmp_path: Path) -> str:
    """A PATH that finds the Python interpreter but not *tool*."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    keep = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not (Path(d) / tool).exists()
    ]
    return os.pathsep.join([str(bin_dir), *keep])


def test_skips_without_java(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=_path_without("java", tmp_path))
    done = _run(env)
    assert done.returncode == 0, done.stderr
    assert "bench_rating_se: skipped: java not found on PATH" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_skips_without_the_baseline(tmp_path: Path) -> None:
    env = dict(os.environ, SUDOKIT_SE_DIR=str(tmp_path / "nowhere"))
    done = _run(env)
    assert done.returncode == 0, done.stderr
    if "java not found" in done.stderr or "javac not found" in done.stderr:
        pytest.skip("no Java here: the baseline check is not reached")
    assert f"{tmp_path / 'nowhere' / 'se121.jar'} not found" in done.stderr
    assert done.stdout == ""
