"""Installs without a C compiler (a missing core once gave every command a circular-import error).

* Without its C core, sudokit says so in one plain line (not built / cannot be loaded, the
  slower fallback, how to get the core) and still answers: a copy of the package without the
  compiled module is run in a subprocess.
* The binary wheel: built here (``pip wheel``, portable flags) or taken from
  ``SUDOKIT_WHEEL``, repaired with ``auditwheel`` into a manylinux wheel, installed with
  ``--no-index`` into a fresh venv, and run there on a PATH without ``cc``/``gcc``: the
  backend is ``c`` and the answer is right. Linux only; skipped when auditwheel or patchelf
  is missing, unless ``SUDOKIT_REQUIRE_WHEEL=1`` (CI) makes that a failure.

The builds here share one build environment, a venv with pyproject.toml's ``build-system``
requirements, instead of pip's isolated one per build (~3 s CPU each; ``pip install -e .``
of the README's test command builds in isolation already), and the venvs have no pip of their
own: the running pip installs into them (``pip --python``), which saves ~4.5 s CPU a venv.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import sudokit
import support
from sudokit import Grid
from sudokit._buildinfo import WARNING_WIDTH

ROOT = support.REPO
PACKAGE = Path(sudokit.__file__).resolve().parent
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
REQUIRE_WHEEL = os.environ.get("SUDOKIT_REQUIRE_WHEEL") == "1"
BUILD_TIMEOUT = 600  # seconds: a generous bound for one compile of the core on a loaded machine
_IGNORE = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "build", "*.egg-info")


def _run(
    args: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    text_in: str = "",
) -> subprocess.CompletedProcess[str]:
    return support.run_text(
        args,
        input=text_in,
        env=env,
        cwd=cwd,
        timeout=BUILD_TIMEOUT,
    )


def _assert_solves(stdout: str) -> None:
    answer = Grid.parse(stdout.strip())
    assert answer.is_solution(Grid.parse(PUZZLE)), stdout


# -- without the C core ------------------------------------------------------------------------


def _package_copy(tmp: Path, core: bytes | None) -> dict[str, str]:
    """A copy of the sudokit package without its compiled core (or with *core* as its file);
    returns an environment that imports that copy."""
    shutil.copytree(PACKAGE, tmp / "sudokit", ignore=_IGNORE)
    if core is not None:
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        (tmp / "sudokit" / f"_core{suffix}").write_bytes(core)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUDOKIT_")}
    env["PYTHONPATH"] = str(tmp)
    return env


def test_missing_core_is_one_plain_line(tmp_path: Path) -> None:
    env = _package_copy(tmp_path, None)
    solved = _run([sys.executable, "-m", "sudokit", "solve"], env=env, cwd=tmp_path, text_in=PUZZLE)
    assert solved.returncode == 0, solved.stderr
    _assert_solves(solved.stdout)
    lines = solved.stderr.strip().splitlines()
    assert len(lines) == 1, solved.stderr
    message = lines[0]
    assert message.startswith("sudokit: C core not built: slow Python fallback;")
    assert "install a C compiler or a wheel (sudokit --version)" in message
    assert len(message) <= WARNING_WIDTH, message
    assert "circular import" not in message
    version = _run([sys.executable, "-m", "sudokit", "--version"], env=env, cwd=tmp_path)
    assert version.returncode == 0
    assert "(backend: python)" in version.stdout
    assert "C core: not in use: the C core (sudokit._core) was not built" in version.stdout
    # what works today: a compiler, or a wheel built elsewhere (no index serves one)
    assert "install a C compiler" in version.stdout
    assert "build a wheel on a machine with a compiler" in version.stdout
    assert "--only-binary" not in version.stdout


def test_missing_core_quiet_when_python_is_chosen(tmp_path: Path) -> None:
    env = _package_copy(tmp_path, None) | {"SUDOKIT_BACKEND": "python"}
    solved = _run([sys.executable, "-m", "sudokit", "solve"], env=env, cwd=tmp_path, text_in=PUZZLE)
    assert solved.returncode == 0
    assert solved.stderr == ""
    _assert_solves(solved.stdout)


def test_required_core_missing_names_the_cause(tmp_path: Path) -> None:
    env = _package_copy(tmp_path, None) | {"SUDOKIT_BACKEND": "c"}
    found = _run([sys.executable, "-c", "import sudokit"], env=env, cwd=tmp_path)
    assert found.returncode != 0
    last = found.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: SUDOKIT_BACKEND=c but the C core (sudokit._core) was")
    assert "using the pure-Python fallback" not in last


def test_broken_core_is_named(tmp_path: Path) -> None:
    env = _package_copy(tmp_path, b"not a shared library")
    solved = _run([sys.executable, "-m", "sudokit", "solve"], env=env, cwd=tmp_path, text_in=PUZZLE)
    assert solved.returncode == 0
    _assert_solves(solved.stdout)
    line = solved.stderr.strip()
    assert line.startswith("sudokit: C core unusable: slow Python fallback;"), line
    assert len(line) <= WARNING_WIDTH, line
    version = _run([sys.executable, "-m", "sudokit", "--version"], env=env, cwd=tmp_path)
    assert "is installed but cannot be loaded" in version.stdout
    assert "circular import" not in solved.stderr + version.stdout


# -- the binary wheel --------------------------------------------------------------------------


def _need(condition: bool, why: str) -> None:
    if condition:
        return
    if REQUIRE_WHEEL:
        pytest.fail(f"SUDOKIT_REQUIRE_WHEEL=1 but {why}")
    pytest.skip(why)


def _venv(where: Path) -> Path:
    """A fresh venv without pip of its own (:func:`_pip` installs into it); its python."""
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(where)])
    assert made.returncode == 0, made.stderr
    return where / "bin" / "python"


def _pip(python: Path, *args: str) -> list[str]:
    """The command of the running pip acting on the environment of *python*."""
    return [sys.executable, "-m", "pip", "--python", str(python), *args]


@pytest.fixture(scope="module")
def build_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a venv with the build requirements of pyproject.toml (what pip's build
    isolation would install for each build), shared by the builds of this module."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    python = _venv(tmp_path_factory.mktemp("build-env") / "venv")
    requires = config["build-system"]["requires"]
    installed = _run(_pip(python, "install", "-q", "--no-compile", *requires))
    assert installed.returncode == 0, installed.stderr[-3000:]
    return python


def _pip_wheel(
    tmp: Path, env: dict[str, str], build_python: Path, *options: str
) -> subprocess.CompletedProcess[str]:
    """``pip wheel`` of a clean copy of the source (a ``build/`` left by an in-place build
    must not leak into it) into ``tmp/dist``, built in *build_python*'s environment."""
    src = tmp / "src"
    src.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    for name in ("csrc", "src"):
        shutil.copytree(ROOT / name, src / name, ignore=_IGNORE)
    cmd = _pip(build_python, "wheel", "--no-deps", "--no-build-isolation", *options)
    return _run([*cmd, "-w", str(tmp / "dist"), str(src)], env=env)


def _build_wheel(tmp: Path, build_python: Path) -> Path:
    """The wheel, with the portable flags a wheel for other machines needs (at ``-O0``: the
    package is what is checked here, and ``-O3`` costs 7 s more CPU)."""
    env = os.environ | {"SUDOKIT_BUILD_EXT": "1", "SUDOKIT_MARCH": "portable", "SUDOKIT_OPT": "0"}
    built = _pip_wheel(tmp, env, build_python)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp / "dist").glob("sudokit-*.whl")
    return wheel


@pytest.mark.slow
@pytest.mark.parametrize("required", [True, False])
def test_source_build_without_a_compiler(
    tmp_path: Path, build_python: Path, required: bool
) -> None:
    """With SUDOKIT_BUILD_EXT=1 a failed build of the core fails the build; unset, the build
    succeeds without the core and says so, pointing at wheels."""
    _need(sys.platform.startswith("linux"), "CC is how the compiler is chosen on Linux")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUDOKIT_")}
    env |= {"CC": str(tmp_path / "no-such-cc")} | ({"SUDOKIT_BUILD_EXT": "1"} if required else {})
    # pip shows a successful build's output with -v
    built = _pip_wheel(tmp_path, env, build_python, "-v")
    wheels = list((tmp_path / "dist").glob("sudokit-*.whl"))
    if required:
        assert built.returncode != 0
        assert wheels == []
    else:
        assert built.returncode == 0, built.stderr[-3000:]
        assert len(wheels) == 1
        with zipfile.ZipFile(wheels[0]) as whl:
            assert not [n for n in whl.namelist() if "/_core." in n and not n.endswith(".pyi")]
            assert [n for n in whl.namelist() if ".dist-info/" in n and n.endswith("/LICENSE")]
        assert "the C core failed to build" in built.stderr + built.stdout
        assert "binary wheel" in built.stderr + built.stdout


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """A fresh venv with the repaired wheel installed from local files only; its bin dir."""
    _need(sys.platform.startswith("linux"), "manylinux wheels are built on Linux only")
    _need(shutil.which("patchelf") is not None, "patchelf is not installed")
    auditwheel = _run([sys.executable, "-m", "auditwheel", "--version"])
    _need(auditwheel.returncode == 0, "auditwheel is not installed")
    tmp = tmp_path_factory.mktemp("wheel")
    given = os.environ.get("SUDOKIT_WHEEL")
    wheel = Path(given) if given else _build_wheel(tmp, request.getfixturevalue("build_python"))
    repaired = _run(
        [sys.executable, "-m", "auditwheel", "repair", "-w", str(tmp / "wh"), str(wheel)]
    )
    assert repaired.returncode == 0, repaired.stderr[-3000:]
    (fixed,) = (tmp / "wh").glob("sudokit-*.whl")
    assert "manylinux" in fixed.name, fixed.name
    deps = _run(
        [sys.executable, "-m", "pip", "download", "-q", "-d", str(tmp / "wh"), "click>=8.1"]
    )
    assert deps.returncode == 0, deps.stderr[-3000:]
    python = _venv(tmp / "venv")
    install = _pip(python, "install", "-q", "--no-index", "--find-links", str(tmp / "wh"))
    installed = _run([*install, str(fixed)])
    assert installed.returncode == 0, installed.stderr[-3000:]
    return python.parent


def _no_compiler_env(bin_dir: Path) -> dict[str, str]:
    path = str(bin_dir)
    for compiler in ("cc", "gcc", "clang"):
        assert shutil.which(compiler, path=path) is None
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SUDOKIT_", "PYTHON"))}
    return env | {"PATH": path, "SUDOKIT_BACKEND": "c"}


@pytest.mark.slow
def test_wheel_runs_backend_c_without_a_compiler(wheel_venv: Path, tmp_path: Path) -> None:
    env = _no_compiler_env(wheel_venv)
    version = _run(["sudokit", "--version"], env=env, cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    first, core, python, *_twins = version.stdout.strip().splitlines()
    assert first.endswith("(backend: c)")
    assert core.startswith("C core: ")
    assert "-march=native" not in core  # a wheel runs on other machines
    assert python.startswith("Python ")
    assert str(wheel_venv) in python
    where = _run(["python", "-c", "import sudokit; print(sudokit.__file__)"], env=env, cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(wheel_venv.parent)
    solved = _run(["sudokit", "solve"], env=env, cwd=tmp_path, text_in=PUZZLE)
    assert solved.returncode == 0, solved.stderr
    assert solved.stderr == ""
    _assert_solves(solved.stdout)
