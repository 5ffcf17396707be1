"""The test suite's own rules (tests/conftest.py, tests/support/tiers.py): where tests live,
that no test module imports another, which modules the fallback pass runs, the tiers and the
Hypothesis profiles."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support import TESTS
from support.tiers import BACKEND_ROOMS, BUILD_MODULES, TIMING_MODULES, examples, quick_tier_skips

#: The folders of tests/: a room of src/sudokit each, plus the browser suite and the project's
#: own checks (packaging, layering, docs, benchmarks' harness, these rules).
ROOMS = BACKEND_ROOMS | {"formats", "cli", "render", "web", "browser", "project"}

#: Modules of sudokit whose use makes a test's result depend on the backend in use.
BACKEND_MODULES = {"_core", "_backend", "_cengine", "_native"}

TEST_MODULES = sorted(p for p in TESTS.rglob("test_*.py") if "node_modules" not in p.parts)


def _rel(path: Path) -> str:
    return str(path.relative_to(TESTS))


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


def reaches_the_backend(tree: ast.Module) -> list[str]:
    """What in *tree* makes its results depend on the search backend (empty when nothing):
    an import of a backend module, ``BACKEND``, the ``engine`` fixture, ``c_only``,
    ``require_c_backend``."""
    found = []
    for name in _imported(tree):
        parts = name.split(".")
        if parts[0] == "sudokit" and BACKEND_MODULES & set(parts[1:]):
            found.append(f"imports {name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in {"BACKEND", "c_only"}:
            found.append(node.attr)
        elif isinstance(node, ast.Name) and node.id in {"BACKEND", "require_c_backend"}:
            found.append(node.id)
        elif (
            isinstance(node, ast.FunctionDef)
            and node.name.startswith("test_")
            and any(a.arg == "engine" for a in node.args.args)
        ):
            found.append(f"{node.name} asks for the engine fixture")
    return sorted(set(found))


def _marked_backend(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            return "mark.backend" in ast.unparse(node.value)
    return False


def test_modules_that_reach_the_backend_run_in_the_fallback_pass() -> None:
    """The fallback pass (``-m backend`` under ``SUDOKIT_BACKEND=python``) runs the backend
    rooms' folders; a module elsewhere that reaches the backend must be marked ``backend``.
    The project's checks are the exception: they run the switch itself in subprocesses."""
    missing = {}
    for path in TEST_MODULES:
        room = path.parent.name
        if room in BACKEND_ROOMS or room == "project":
            continue
        tree = _tree(path)
        why = reaches_the_backend(tree)
        if why and not _marked_backend(tree):
            missing[_rel(path)] = why
    assert not missing, f"mark these `pytestmark = pytest.mark.backend`: {missing}"


def test_the_rule_sees_each_way_to_reach_the_backend() -> None:
    cases = {
        "from sudokit import _backend": True,
        "import sudokit._core": True,
        "import sudokit\nx = sudokit.BACKEND": True,
        "import pytest\n@pytest.mark.c_only\ndef test_a(): pass": True,
        "def test_a(engine): pass": True,
        "from support import require_c_backend\nrequire_c_backend()": True,
        "import sudokit\ndef test_a(): assert sudokit.solve('.' * 16)": False,
    }
    assert {src: bool(reaches_the_backend(ast.parse(src))) for src in cases} == cases


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


def test_groups_are_marked_before_xdist_reads_them(request: pytest.FixtureRequest) -> None:
    """xdist turns the ``xdist_group`` marks into node ids in its own collection hook: the
    conftest's hook that adds them must run first (it did not, and the docs site was built in
    both workers)."""
    impls = request.config.hook.pytest_collection_modifyitems.get_hookimpls()
    calls = [impl.plugin for impl in reversed(impls)]  # pluggy calls the last one first
    root = str(TESTS / "conftest.py")
    ours = next(i for i, plugin in enumerate(calls) if getattr(plugin, "__file__", "") == root)
    assert impls[len(impls) - 1 - ours].tryfirst
    xdist = [i for i, plugin in enumerate(calls) if type(plugin).__name__ == "WorkerInteractor"]
    assert all(ours < i for i in xdist)


def test_grouped_modules_exist() -> None:
    assert {p.stem for p in TEST_MODULES} >= TIMING_MODULES | BUILD_MODULES
    assert not TIMING_MODULES & BUILD_MODULES


@dataclass
class _Item:
    """The part of a pytest item that the tier looks at."""

    markers: set[str] = field(default_factory=set)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def test_the_quick_tier_leaves_out_slow_and_browser_tests() -> None:
    items = [_Item(), _Item({"slow"}), _Item({"browser", "c_only"}), _Item({"c_only"})]
    kept, dropped = quick_tier_skips(items)  # type: ignore[arg-type]
    assert kept == [items[0], items[3]]
    assert dropped == [items[1], items[2]]
