"""Every benchmark script still imports what it names (a moved helper breaks none silently).

The benchmarks are not run by the tests (they time things); this reads each script's imports
and finds each module as the script would: with ``benchmarks/`` (its own helpers such as
``_commit``) and ``tests/`` (``support``) on the path, where a script puts them. Optional
baselines (ortools, tdoku drivers) count as found when installed, and are named below when not.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

from support import REPO

BENCHMARKS = REPO / "benchmarks"
#: Modules a benchmark may use that the dev install need not have.
OPTIONAL = {"ortools", "atheris", "cairosvg", "matplotlib", "pysat"}


def _scripts() -> list[Path]:
    return sorted(BENCHMARKS.rglob("*.py"))


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("path", _scripts(), ids=lambda p: str(p.relative_to(BENCHMARKS)))
def test_benchmark_imports_resolve(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in (path.parent, BENCHMARKS, REPO / "tests"):
        monkeypatch.syspath_prepend(str(folder))
    missing = []
    for line, name in _imports(path):
        if name.split(".")[0] in OPTIONAL or name.split(".")[0] in sys.builtin_module_names:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            spec = None
        if spec is None:
            missing.append(f"line {line}: {name}")
    assert not missing, f"{path.name} imports modules that do not exist: {missing}"
