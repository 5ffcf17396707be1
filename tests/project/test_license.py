"""The licence pyproject.toml names is the one shipped: LICENSE holds the MIT text, and the
sdist carries it (the wheel's copy is checked by tests/project/test_wheel.py, which builds one)."""

from __future__ import annotations

import os
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

from support import REPO, run_text

ROOT = REPO


def test_license_text_is_the_one_pyproject_names() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the sudokit developers" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


@pytest.mark.slow
def test_sdist_ships_the_license(tmp_path: Path) -> None:
    """``setup.py sdist`` with its egg-info outside the tree (the tree stays clean)."""
    base = tmp_path / "egg"
    base.mkdir()
    env = os.environ | {"SUDOKIT_BUILD_EXT": "0"}
    cmd = [sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(base)]
    built = run_text(
        [*cmd, "sdist", "-d", str(tmp_path / "dist")],
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (sdist,) = (tmp_path / "dist").glob("sudokit-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
        top = names[0].split("/")[0]
        assert f"{top}/LICENSE" in names
        member = tar.extractfile(f"{top}/LICENSE")
        assert member is not None
        assert member.read() == (ROOT / "LICENSE").read_bytes()
