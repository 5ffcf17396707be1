"""The public API surface, the backend switch, and the test configuration itself."""

from __future__ import annotations

import dataclasses
import inspect
import os
import subprocess
import sys
import tomllib

import pytest

import sudokit
from sudokit import solver, transform, truecands
from support import REPO, require_c_backend


def test_every_public_name_exists() -> None:
    assert len(set(sudokit.__all__)) == len(sudokit.__all__)
    for name in sudokit.__all__:
        assert hasattr(sudokit, name), name


def test_backend_is_c_when_required() -> None:
    """Under SUDOKIT_REQUIRE_C=1 (CI) this fails unless the C core is in use; else it skips."""
    require_c_backend()
    assert sudokit.BACKEND == "c"


def test_backend_can_be_forced_to_python() -> None:
    env = {**os.environ, "SUDOKIT_BACKEND": "python"}
    out = subprocess.run(
        [sys.executable, "-c", "import sudokit; print(sudokit.BACKEND)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "python"


def test_unknown_backend_setting_is_reported_once_and_ignored() -> None:
    """A typo in SUDOKIT_BACKEND: one warning line on stderr, the default engine, no traceback."""
    env = {**os.environ, "SUDOKIT_BACKEND": "pyhton"}
    code = "import sudokit; print(sudokit.solve('..4..43.1.......').status)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "unique"
    assert out.stderr.strip().splitlines() == [
        "sudokit: SUDOKIT_BACKEND must be 'c' or 'python', got 'pyhton'; ignored"
    ]


def test_results_are_immutable_values() -> None:
    r = sudokit.solve("." * 16)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.count = 3  # type: ignore[misc]
    assert not hasattr(r, "__dict__")  # slotted
    assert r == sudokit.solve("." * 16)
    assert {s.value for s in sudokit.Status} == {
        "unique",
        "solved",
        "multiple",
        "none",
        "invalid",
        "gave-up",
    }


@pytest.mark.parametrize("module", [solver, transform, truecands], ids=lambda m: m.__name__)
def test_public_functions_have_doctests(module: object) -> None:
    names = getattr(module, "__all__", [])
    missing = []
    for name in names:
        obj = getattr(module, name)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        doc = inspect.getdoc(obj) or ""
        if not doc:
            missing.append(f"{name}: no docstring")
        elif inspect.isfunction(obj) and ">>>" not in doc:
            missing.append(f"{name}: no doctest")
    assert not missing, missing


def test_pytest_runs_the_doctests_of_the_package_and_readme() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in config["addopts"]
    assert "--doctest-glob=README.md" in config["addopts"]
    assert {"tests", "src/sudokit", "README.md"} <= set(config["testpaths"])
    assert "slow" in " ".join(config["markers"])
