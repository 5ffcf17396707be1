"""Benchmark results name the commit of the code measured (``benchmarks/_commit.py``): the git
tree holding the imported package, whatever the current directory is, with ``-dirty`` when
that tree's sources differ from the commit."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

import support

ROOT = support.REPO

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_commit", ROOT / "benchmarks" / "_commit.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _repo(path: Path, files: dict[str, str]) -> str:
    """A git repository at *path* holding *files*, committed; its short hash."""
    path.mkdir()
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)

    def git(*args: str) -> str:
        run = subprocess.run(
            ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t", *args],
            capture_output=True,
            text=True,
            check=True,
        )
        return run.stdout.strip()

    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "x")
    return git("rev-parse", "--short", "HEAD")


def test_commit_of_the_package_tree_not_of_the_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code_commit = _load().code_commit
    init = "src/pkg/__init__.py"
    measured = _repo(tmp_path / "measured", {init: "x = 1\n", "csrc/a.c": "int a;\n"})
    other = _repo(tmp_path / "other", {"README": "another checkout\n"})
    assert measured != other
    package = ModuleType("pkg")
    package.__file__ = str(tmp_path / "measured" / init)
    monkeypatch.chdir(tmp_path / "other")
    assert code_commit(package) == measured
    (tmp_path / "measured" / "results.md").write_text("a result file\n")  # not a source
    assert code_commit(package) == measured
    (tmp_path / "measured" / "csrc" / "a.c").write_text("int b;\n")
    assert code_commit(package) == measured + "-dirty"
    subprocess.run(
        ["git", "-C", str(tmp_path / "measured"), "checkout", "-q", "--", "csrc"], check=True
    )
    (tmp_path / "measured" / "src" / "pkg" / "new.py").write_text("y = 2\n")  # untracked source
    assert code_commit(package) == measured + "-dirty"
    outside = ModuleType("elsewhere")
    outside.__file__ = str(tmp_path / "loose" / "mod.py")
    (tmp_path / "loose").mkdir()
    assert code_commit(outside) == "unknown"
