"""The test suite's own rules (tests/conftest.py, tests/support/tiers.py): where tests live,
that no test module imports another, which modules the fallback pass runs, the tiers and the
Hypothesis profiles."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

import sudokit
from sudokit import _native
from support import TESTS
from support.imports import SRC, Import, imports_of, module_name
from support.tiers import (
    BACKEND_ROOMS,
    BUILD_MODULES,
    NO_BACKEND_MODULES,
    TIMING_MODULES,
    examples,
    group_of,
    in_fallback_pass,
    is_parity_module,
    quick_tier_skips,
    set_tier,
    sweep,
)

#: The folders of tests/: a room of src/sudokit each, plus the browser suite and the project's
#: own checks (packaging, layering, docs, benchmarks' harness, these rules).
ROOMS = BACKEND_ROOMS | {"formats", "cli", "render", "web", "browser", "project"}

#: Modules of sudokit whose use makes a test's result depend on the backend in use.
BACKEND_MODULES = {"_core", "_backend", "_cengine", "_native"}

TEST_MODULES = sorted(p for p in TESTS.rglob("test_*.py") if "node_modules" not in p.parts)


def _rel(path: Path) -> str:
    return str(path.relative_to(TESTS))


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def test_every_test_module_lives_in_a_room() -> None:
    misplaced = [
        _rel(p) for p in TEST_MODULES if p.parent.parent != TESTS or p.parent.name not in ROOMS
    ]
    assert not misplaced, f"put these in tests/<room>/ ({sorted(ROOMS)}): {misplaced}"
    assert len({p.stem for p in TEST_MODULES}) == len(TEST_MODULES), "test module names repeat"


def _imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_no_test_module_imports_another() -> None:
    """Shared helpers live in tests/support/ (or are fixtures), so that a module can move,
    run alone or run in any xdist worker."""
    offenders = {
        _rel(p): sorted(
            n for n in _imported(_tree(p)) if n.split(".")[0].startswith(("test_", "conftest"))
        )
        for p in [*TEST_MODULES, *TESTS.glob("support/*.py")]
    }
    assert not {k: v for k, v in offenders.items() if v}


#: What a test module names when it uses the backend chosen by the process: its decision
#: (``BACKEND``) and the ``engine`` fixture.
BACKEND_NAMES = {"BACKEND", "engine"}


def _direct(node: ast.AST, bound: set[str]) -> set[str]:
    """How the code under *node* uses the backend itself: an import of a backend module, a name
    bound to one (*bound*), ``BACKEND``, the ``engine`` fixture."""
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Import | ast.ImportFrom):
            found.update(f"imports {n}" for n in _imported(ast.Module([sub], [])) if _is_backend(n))
        elif isinstance(sub, ast.Attribute) and sub.attr in BACKEND_NAMES | BACKEND_MODULES:
            found.add(sub.attr)
        elif isinstance(sub, ast.Name) and sub.id in BACKEND_NAMES | bound:
            found.add(sub.id)
        elif isinstance(sub, ast.arg) and sub.arg in BACKEND_NAMES:
            found.add(f"the {sub.arg} fixture")
    return found


def _is_backend(name: str) -> bool:
    parts = name.split(".")
    return parts[0] == "sudokit" and bool(BACKEND_MODULES & set(parts[1:]))


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return []


def _used(node: ast.AST) -> set[str]:
    """The names *node* reads, fixtures asked for included."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return names | {a.arg for a in ast.walk(node) if isinstance(a, ast.arg)}


def backend_tests(tree: ast.Module) -> dict[str, list[str]]:
    """The tests of *tree* whose results depend on the backend in use, each with what makes
    them: they use it themselves (:func:`_direct`) or through a helper, constant or fixture
    of the module that does (followed to any depth)."""
    bound = set()  # names the module binds to backend modules and their contents
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                module = node.module if isinstance(node, ast.ImportFrom) else None
                full = f"{module}.{alias.name}" if module else alias.name
                if _is_backend(full) and not (module is None and alias.asname is None):
                    bound.add(alias.asname or alias.name)
    nodes: dict[str, ast.AST] = {}
    for node in tree.body:
        for name in _defined(node):
            nodes[name] = node
    why = {name: _direct(node, bound) for name, node in nodes.items()}
    uses = {name: _used(node) - {name} for name, node in nodes.items()}
    changed = True
    while changed:
        changed = False
        for name in nodes:
            through = {f"through {u}" for u in uses[name] if u in why and why[u] and u != name}
            if through - why[name] and not any(w.startswith("through") for w in why[name]):
                why[name] |= through
                changed = True
    tests = {}
    for node in tree.body:
        methods = node.body if isinstance(node, ast.ClassDef) else [node]
        for test in methods:
            if isinstance(test, ast.FunctionDef | ast.AsyncFunctionDef) and test.name.startswith(
                "test_"
            ):
                reasons = _direct(test, bound) | {
                    f"through {u}" for u in _used(test) if why.get(u) and u != test.name
                }
                if reasons:
                    tests[test.name] = sorted(reasons)
    return tests


def _module_mark(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            return "mark.backend" in ast.unparse(node.value)
    return False


def marked_tests(tree: ast.Module) -> set[str]:
    """The tests of *tree* marked ``backend`` (on themselves or their class)."""
    marked = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        mark = any("mark.backend" in ast.unparse(d) for d in node.decorator_list)
        inner = node.body if isinstance(node, ast.ClassDef) else [node]
        for test in inner:
            if isinstance(test, ast.FunctionDef | ast.AsyncFunctionDef) and (
                mark or any("mark.backend" in ast.unparse(d) for d in test.decorator_list)
            ):
                marked.add(test.name)
    return marked


def test_tests_elsewhere_that_reach_the_backend_are_marked_one_by_one() -> None:
    """Outside the backend rooms the fallback pass (``-m backend`` under
    ``SUDOKIT_BACKEND=python``) runs the tests marked ``backend``: each test that uses the
    backend must be, and a whole module never is (a module mark once put 96 CLI tests in the
    pass for the 4 that branch on the backend). The project's checks are the exception: they
    run the switch itself in subprocesses."""
    missing, whole = {}, []
    for path in TEST_MODULES:
        room = path.parent.name
        if room in BACKEND_ROOMS or room == "project":
            continue
        tree = _tree(path)
        if _module_mark(tree):
            whole.append(_rel(path))
        for test, why in backend_tests(tree).items():
            if test not in marked_tests(tree):
                missing[f"{_rel(path)}::{test}"] = why
    assert not whole, f"mark the tests that use the backend, not the module: {whole}"
    assert not missing, f"mark these `@pytest.mark.backend`: {missing}"


def test_the_rule_sees_each_way_to_reach_the_backend() -> None:
    cases = {
        "from sudokit import _backend\ndef test_a(): _backend.engine()": True,
        "import sudokit._core\ndef test_a(): sudokit._core.search()": True,
        "import sudokit\ndef test_a(): assert sudokit.BACKEND": True,
        "def test_a(engine): pass": True,
        "def test_a():\n    from sudokit._native import core": True,
        "import sudokit\nX = sudokit.BACKEND == 'c'\ndef f(): return X\ndef test_a(): f()": True,
        "import pytest\n@pytest.fixture\ndef e(engine): pass\ndef test_a(e): pass": True,
        "from sudokit import _backend\ndef test_a(): pass": False,
        "import sudokit\ndef test_a(): assert sudokit.solve('.' * 16)": False,
        "import sudokit\nX = sudokit.BACKEND\ndef f(): pass\ndef test_a(): f()": False,
    }
    found = {src: bool(backend_tests(ast.parse(src))) for src in cases}
    assert found == cases
    marked = "import pytest\n@pytest.mark.backend\nclass T:\n    def test_a(self): pass"
    assert marked_tests(ast.parse(marked)) == {"test_a"}
    assert not marked_tests(ast.parse("import pytest\n@pytest.mark.slow\ndef test_a(): pass"))


@cache
def _reaching_native() -> frozenset[str]:
    """The sudokit modules that import ``sudokit._native`` (which decides whether the C core
    serves), themselves or through the modules they import."""
    imports = {
        module_name(path): _targets(imports_of(path))
        for path in SRC.joinpath("sudokit").rglob("*.py")
    }
    reach = {"sudokit._native"}
    while grown := {m for m, targets in imports.items() if m not in reach and targets & reach}:
        reach |= grown
    return frozenset(reach)


def reaches_native(module: str) -> bool:
    """Whether the sudokit module *module* reaches ``sudokit._native``."""
    return module in _reaching_native()


def _targets(found: list[Import]) -> set[str]:
    """The modules *found* imports, a name taken from the package resolved to its module."""
    targets = set()
    for imp in found:
        if imp.target == "sudokit" and imp.name is not None:
            value = getattr(sudokit, imp.name)
            module = value.__name__ if isinstance(value, ModuleType) else None
            targets.add(module or getattr(value, "__module__", None) or "sudokit")
        else:
            targets.add(imp.target)
    return targets


@cache
def uses_the_search(path: Path) -> list[str]:
    """What the test module (or support module) at *path* imports that reaches the backend:
    a sudokit module that reaches ``_native``, a support module that does, the ``engine``
    fixture."""
    tree = _tree(path)
    found = [
        f"imports {t}" for t in sorted(_targets(imports_of(path, path.stem))) if reaches_native(t)
    ]
    for name in _imported(tree):
        parts = name.split(".")
        if parts[0] != "support":
            continue
        modules = [TESTS.joinpath(*parts[:n]).with_suffix(".py") for n in range(len(parts), 1, -1)]
        support = next((m for m in modules if m.is_file()), TESTS / "support" / "__init__.py")
        if uses_the_search(support):
            found.append(f"imports {name}")
    if any(isinstance(a, ast.arg) and a.arg == "engine" for a in ast.walk(tree)):
        found.append("the engine fixture")
    return found


def test_the_backend_rooms_leave_out_exactly_the_modules_that_cannot_reach_it() -> None:
    """In the backend rooms the fallback pass runs every module but the parity modules, the
    timing ones and the :data:`NO_BACKEND_MODULES`: those import nothing that reaches
    ``sudokit._native``, and every module that imports nothing of the kind is one of them."""
    cannot = set()
    for path in TEST_MODULES:
        if path.parent.name in BACKEND_ROOMS and not uses_the_search(path):
            cannot.add(path.stem)
    assert cannot - TIMING_MODULES == NO_BACKEND_MODULES


def test_the_model_rule_sees_what_reaches_the_backend() -> None:
    assert reaches_native("sudokit.solver")
    assert reaches_native("sudokit")
    assert not reaches_native("sudokit.shape")
    assert not reaches_native("sudokit.rules.primitives")
    assert _targets([Import("t", "sudokit", "Grid", None, 1)]) == {"sudokit.grid"}
    assert _targets([Import("t", "sudokit", "rules", None, 1)]) == {"sudokit.rules"}
    assert uses_the_search(TESTS / "support" / "__init__.py")
    assert not uses_the_search(TESTS / "support" / "tiers.py")


def test_parity_modules_are_the_twins_tests() -> None:
    """A ``*_c.py`` module holds a C twin equal to its Python specification, choosing both sides
    itself: the C pass has run it, so the fallback pass leaves it out. Each is named by the
    twin it holds equal (``sudokit._native.TWINS``)."""
    parity = {_rel(p) for p in TEST_MODULES if is_parity_module(p.stem)}
    named = {test.removeprefix("tests/") for twin in _native.TWINS for test in twin.tests}
    assert parity
    assert parity <= named
    assert not any(
        is_parity_module(p.stem) for p in TEST_MODULES if p.parent.name not in BACKEND_ROOMS
    )


def test_property_tests_state_their_examples_through_the_profiles() -> None:
    """``max_examples=examples(N)``, never a bare number: the profile scales every test."""
    bare = []
    for path in TEST_MODULES:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.keyword) and node.arg == "max_examples":
                value = node.value
                if not (isinstance(value, ast.Call) and ast.unparse(value.func) == "examples"):
                    bare.append(f"{_rel(path)}:{node.lineno}")
    assert not bare


def test_examples_scale_with_the_profile() -> None:
    assert [examples(120, per_100=p) for p in (25, 100, 1000)] == [30, 120, 1200]
    assert examples(1, per_100=25) == 5


def test_sweeps_take_their_share_by_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    """The nightly tier runs a sweep whole, the full (and quick) tier its stated share; the
    tier is this run's, set before collection."""
    from support import tiers

    ran = tiers.TIER
    assert ran in ("quick", "full", "nightly")
    monkeypatch.setattr(tiers, "TIER", ran)  # restored after the calls below
    set_tier(True, True)
    assert (tiers.TIER, sweep(4, 20)) == ("nightly", 20)
    set_tier(True, False)
    assert (tiers.TIER, sweep(4, 20)) == ("full", 4)
    set_tier(False, False)
    assert (tiers.TIER, sweep(4, 20)) == ("quick", 4)
    with pytest.raises(AssertionError):
        sweep(5, 4)


def test_grouped_modules_exist() -> None:
    assert {p.stem for p in TEST_MODULES} >= TIMING_MODULES | BUILD_MODULES
    assert not TIMING_MODULES & BUILD_MODULES


@dataclass
class _Item:
    """The part of a pytest item that the tier looks at."""

    markers: set[str] = field(default_factory=set)
    path: Path = TESTS / "cli" / "test_cli_solve.py"

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def test_the_quick_tier_leaves_out_slow_and_browser_tests() -> None:
    items = [_Item(), _Item({"slow"}), _Item({"browser", "c_only"}), _Item({"c_only"})]
    kept, dropped = quick_tier_skips(items)  # type: ignore[arg-type]
    assert kept == [items[0], items[3]]
    assert dropped == [items[1], items[2]]


def test_groups_keep_timing_builds_and_the_browser_on_one_worker_each() -> None:
    groups = [
        group_of(nodeid)
        for nodeid in [
            "tests/web/test_web_load.py::test_abandoned_work_stops",
            "tests/project/test_wheel.py::test_the_wheel_installs[x@y]",
            "tests/browser/test_player.py::test_undo",
            "tests/web/test_web_api.py::test_x",
            "tests/cli/test_cli_solve.py::test_y",
            "src/sudokit/grid.py::sudokit.grid.Grid",
        ]
    ]
    assert groups == ["timing", "test_wheel", "browser", "timing", None, None]


def _marks_browser(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == "browser"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "mark"
        for node in ast.walk(tree)
    )


def test_the_browser_tests_are_the_browser_folder() -> None:
    """The quick tier leaves out tests by their ``browser`` mark, the scheduler groups them by
    their folder: the two must name the same tests."""
    wrong = [
        _rel(p) for p in TEST_MODULES if _marks_browser(_tree(p)) != (p.parent.name == "browser")
    ]
    assert not wrong, f"mark every module of tests/browser/ browser, and no other: {wrong}"


SMALL_SUITE_TEST = """
import os
import time

import pytest


@pytest.mark.parametrize("n", range(6))
def test_it(n):
    time.sleep(0.02)  # long enough that both workers are busy
    with open(os.environ["RAN"], "a") as log:
        log.write(f"{__name__} {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""


def test_each_group_runs_in_one_worker(tmp_path: Path) -> None:
    """A small suite with our folder and module names, over two workers with our scheduler:
    each group's tests run in one worker (they did not when xdist's own loadgroup lost its
    marks under pytest 9), and the run did use two."""
    modules = ["web/test_web_load", "bulk/test_dask", "browser/test_pen", "browser/test_modes"]
    modules += ["project/test_wheel", "cli/test_plain", "engine/test_other"]
    for module in modules:
        path = tmp_path / f"{module}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(SMALL_SUITE_TEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # not our pyproject's options
    ran = tmp_path / "ran.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env |= {"RAN": str(ran), "PYTHONPATH": str(TESTS)}
    args = ["-n", "2", "--dist", "loadgroup", "-p", "support.scheduling", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    workers: dict[str, set[str]] = {}
    for line in ran.read_text().splitlines():
        module, worker = line.split()
        workers.setdefault(module, set()).add(worker)
    assert sum(1 for _ in ran.read_text().splitlines()) == 6 * len(modules)
    assert len(workers["test_web_load"] | workers["test_dask"]) == 1  # the timing group
    assert len(workers["test_pen"] | workers["test_modes"]) == 1  # the browser group
    assert len(workers["test_wheel"]) == 1
    assert len(set().union(*workers.values())) == 2


def test_the_fallback_pass_takes_the_rooms_but_what_cannot_differ() -> None:
    where = {
        "engine/test_solver.py": True,
        "bulk/test_solve_many_fast.py": True,
        "logic/test_human_c.py": False,  # parity
        "bulk/test_jobs_worker_killed.py": False,  # timing
        "core/test_shape.py": False,  # no backend
        "cli/test_cli_solve.py": False,  # elsewhere: only what is marked
        "../src/sudokit/solver.py": True,  # doctests
        "../README.md": True,
    }
    found = {rel: in_fallback_pass(_Item(path=(TESTS / rel).resolve())) for rel in where}  # type: ignore[arg-type]
    assert found == where
    assert in_fallback_pass(_Item({"backend"}))  # type: ignore[arg-type]
