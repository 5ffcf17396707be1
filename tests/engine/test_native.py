"""The one native boundary (:mod:`sudokit._native`): the build stamp, the stale-build fallback,
and the table of the C twins.

* The stamp: csrc/sk_abi.h's ``SK_ABI_VERSION`` is ``_native.ABI_VERSION``, and the built
  core reports it as ``_core.ABI_VERSION``.
* A core built from older sources (its stamp patched to 0, in process and in a fresh
  interpreter that runs the CLI) does not serve: every room takes its Python code, one warning
  line and ``sudokit --version`` say why, and ``SUDOKIT_BACKEND=c`` refuses it loudly.
* The table: every name of the C module is in exactly one row (or is a build fact), the rows
  hold exactly the ``_core`` names the package uses, every Python specification it names
  exists, and every parity test it names exists and mentions both twins.
* Nothing in src decides C or Python but ``_native``: no ``hasattr`` on the core, no other
  reader of ``SUDOKIT_BACKEND``, no run-time import of ``_core`` but the engine adapter's.
"""

from __future__ import annotations

import ast
import importlib
import logging
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import sudokit
from sudokit import _buildinfo, _native, transform
from sudokit.grid import Grid
from sudokit.logic import _human, chaining, cycles, exclusion, forcing, uniqueness
from sudokit.logic.candidates import CandidateGrid
from sudokit.shape import Shape
from support import C_ERROR, REPO, require_c_backend, run_text

SRC = Path(sudokit.__file__).resolve().parent
STUB = SRC / "_core.pyi"
HEADER = REPO / "csrc" / "sk_abi.h"
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
STALE = "built from older sources (ABI 0, expected 2): rebuild with `pip install -e .`"
SHORT = "C core stale (ABI 0, expected 2)"


def _stub_names() -> set[str]:
    """The public names the stub gives the C module."""
    names: set[str] = set()
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


# -- the stamp ---------------------------------------------------------------------------------


def test_header_stamp_is_the_python_constant() -> None:
    found = re.findall(r"^#define SK_ABI_VERSION (\d+)\s*$", HEADER.read_text(), re.M)
    assert found == [str(_native.ABI_VERSION)]


def test_built_core_reports_the_stamp() -> None:
    require_c_backend(in_process=False)
    from sudokit import _core

    assert _core.ABI_VERSION == _native.ABI_VERSION
    assert _native.built() is _core
    assert _native.why() == _native.stale() == ""


# -- a stale build -----------------------------------------------------------------------------


@pytest.fixture
def stale_core(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The built core with its stamp set to 0 (a build from before the stamp), the decision
    made again; afterwards the real decision is made again too."""
    require_c_backend(in_process=False)
    from sudokit import _core

    monkeypatch.setattr(_core, "ABI_VERSION", 0)
    monkeypatch.delenv("SUDOKIT_BACKEND", raising=False)
    _native._found.cache_clear()
    _native.core.cache_clear()
    yield
    monkeypatch.undo()
    _native._found.cache_clear()
    _native.core.cache_clear()


@pytest.mark.usefixtures("stale_core")
def test_stale_core_does_not_serve(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="sudokit._native"):
        assert _native.core() is None
    (warning,) = caplog.messages
    assert warning == f"sudokit: {SHORT}: slow Python fallback; rebuild it (sudokit --version)"
    assert len(warning) <= _native.WARNING_WIDTH
    assert "wheel" not in warning  # rebuild it, not install another one
    assert _native.built() is None
    assert _native.stale() == STALE
    assert _native.why().startswith("the C core (")
    with pytest.raises(ImportError, match=re.escape(STALE)):
        _native.require()
    assert _buildinfo.build_info().startswith(f"C core: {STALE} (pure-Python fallback")
    # every room takes its Python code
    shape = Shape(3, 3)
    assert transform._c_canonical9() is None
    assert _human.core(CandidateGrid.from_grid(Grid.empty(shape))) is None
    assert exclusion._engine(shape) is None
    assert uniqueness._c_uniq(shape) is None
    assert cycles._c_engine() is None
    assert cycles.unary_all_c(chaining.geometry(shape), [511] * 81) is None
    assert forcing._c_rules(chaining.geometry(shape)) is None
    assert not sudokit.blocks.native()


@pytest.mark.usefixtures("stale_core")
def test_stale_core_refused_when_c_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKIT_BACKEND", "c")
    with pytest.raises(
        ImportError, match=r"^SUDOKIT_BACKEND=c but the C core \(.*" + re.escape(STALE)
    ):
        _native.core()


#: A fresh interpreter that loads the built core, sets its stamp to *stamp* before sudokit
#: imports it, and runs the CLI with the arguments after the core's path.
_STALE_CHILD = """
import importlib.util, runpy, sys
spec = importlib.util.spec_from_file_location("sudokit._core", sys.argv[1])
core = importlib.util.module_from_spec(spec)
spec.loader.exec_module(core)
core.ABI_VERSION = 0
sys.modules["sudokit._core"] = core
sys.argv = ["sudokit", *sys.argv[2:]]
runpy.run_module("sudokit", run_name="__main__")
"""


def _stale_cli(*args: str, backend: str | None = None) -> subprocess.CompletedProcess[str]:
    require_c_backend(in_process=False)
    from sudokit import _core

    env = {k: v for k, v in os.environ.items() if k != "SUDOKIT_BACKEND"}
    if backend is not None:
        env["SUDOKIT_BACKEND"] = backend
    return run_text(
        [sys.executable, "-c", textwrap.dedent(_STALE_CHILD), str(_core.__file__), *args],
        input=PUZZLE,
        env=env,
        timeout=120,
    )


def test_stale_core_in_a_fresh_process() -> None:
    """What a user with a stale in-place build sees: one warning line, right answers from the
    fallback, and ``--version`` naming the cause and the cure."""
    solved = _stale_cli("solve")
    assert solved.returncode == 0, solved.stderr
    assert Grid.parse(solved.stdout.strip()).is_solution(Grid.parse(PUZZLE))
    (warning,) = solved.stderr.strip().splitlines()
    assert warning.startswith(f"sudokit: {SHORT}: slow Python fallback;")
    version = _stale_cli("--version")
    assert version.returncode == 0, version.stderr
    first, core, python, *table = version.stdout.strip().splitlines()
    assert first.endswith("(backend: python)")
    assert core == f"C core: {STALE} (pure-Python fallback in use, much slower)"
    assert python.startswith("Python ")
    assert table[0].startswith("C twins: ")
    for row, twin in zip(table[1:], _native.TWINS, strict=True):
        assert row.startswith(f"  {twin.room:<15} Python  {twin.source} = "), row


def test_stale_core_fails_loudly_when_c_is_required() -> None:
    done = _stale_cli("--version", backend="c")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: SUDOKIT_BACKEND=c but the C core (")
    assert STALE in last


# -- the table of the twins --------------------------------------------------------------------


def test_every_name_of_the_core_is_in_one_row() -> None:
    rows: dict[str, list[str]] = {}
    for twin in _native.TWINS:
        for name in twin.names:
            rows.setdefault(name, []).append(twin.room)
    assert all(len(rooms) == 1 for rooms in rows.values()), rows
    assert not set(rows) & set(_native.FACTS)
    assert set(rows) | set(_native.FACTS) == _stub_names()
    if C_ERROR is None:
        from sudokit import _core

        assert {n for n in dir(_core) if not n.startswith("_")} == _stub_names()


def _core_names_used() -> set[str]:
    """The attributes the package reads of ``_core`` or of what ``_native`` hands out (read
    as ``_core.X``, ``core.X``, ``built.X`` or ``_native.require().X``)."""
    used: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute):
                continue
            reader = ast.unparse(node.value)
            if reader in ("_core", "core", "built", "_native.require()"):
                used.add(node.attr)
    return used


def test_the_table_is_what_the_package_uses() -> None:
    """Every ``_core`` name the package uses is in a row, and every row's names are used."""
    used = _core_names_used()
    assert {"Chainer", "Uniq", "lines", "canonical9", "search"} <= used  # the scan sees them
    # "core.X" also reads other objects named core (none today): only names of the stub count
    tabled = {n for twin in _native.TWINS for n in twin.names}
    assert (used & _stub_names()) - set(_native.FACTS) == tabled


def _resolve(dotted: str) -> object:
    module, _, qualified = dotted.partition(":")
    found: object = importlib.import_module(module)
    for part in qualified.split("."):
        found = getattr(found, part)
    return found


@pytest.mark.parametrize("twin", _native.TWINS, ids=[t.room for t in _native.TWINS])
def test_each_row_names_what_exists(twin: _native.Twin) -> None:
    assert (REPO / twin.source).is_file(), twin.source
    assert twin.python
    assert twin.tests
    for name in twin.python:
        assert _resolve(name) is not None, name
    for test in twin.tests:
        text = (REPO / test).read_text()
        assert any(re.search(rf"\b{n}\b", text) for n in twin.names), (test, "C side")
        # the Python side by its name, or by its module read as ``module.`` (its rules run it)
        spec = [name.rpartition(":")[2].rpartition(".")[2] for name in twin.python]
        spec += [name.partition(":")[0].rpartition(".")[2] + "." for name in twin.python]
        assert any(re.search(rf"\b{re.escape(n)}", text) for n in spec), (test, "Python side")


def test_version_prints_the_table() -> None:
    table = _buildinfo.twins_table().splitlines()
    assert table[0].startswith("C twins: ")
    side = "C" if sudokit.BACKEND == "c" else "Python"
    for row, twin in zip(table[1:], _native.TWINS, strict=True):
        assert row.startswith(f"  {twin.room:<15} {side:<7} {twin.source} = sudokit."), row
    assert _buildinfo.build_info().splitlines()[2:] == table


# -- one place decides -------------------------------------------------------------------------


def test_only_native_decides() -> None:
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        text = path.read_text()
        assert not re.search(r"hasattr\(\s*_?core\b", text), name
        if name not in ("_config.py", "_native.py"):
            assert "requested_backend" not in text, name
        if name in ("_native.py", "_cengine.py"):
            continue
        tree = ast.parse(text)
        guarded = {
            id(child)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
            for child in ast.walk(node)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and id(node) not in guarded:
                assert "_core" not in {a.name for a in node.names}, (name, node.lineno)
