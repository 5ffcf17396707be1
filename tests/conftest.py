"""Shared fixtures and the test tiers.

Tiers (DEVELOP.md):

* ``python -m pytest``: the **quick tier**, everything but the tests marked ``slow`` (larger
  corpora, long searches, wheels) or ``browser`` (Chromium), with the ``dev`` Hypothesis
  profile. A minute or two on two cores: run it while you work.
* ``python -m pytest --full``: the **full tier**, every test with the ``ci`` profile: what
  ``.ci/run`` runs. ``-m EXPR`` still selects as usual (and then no tier is applied).
* ``python -m pytest --nightly``: the **nightly tier**, the full tier with every sweep at its
  whole size (:func:`support.tiers.sweep`) and the ``nightly`` profile.
* The fallback pass (``.ci/run``): ``SUDOKIT_BACKEND=python python -m pytest -m backend``, the
  tests whose results depend on the search backend (the modules of
  :data:`support.tiers.BACKEND_ROOMS` that can reach it, and the tests marked ``backend``
  elsewhere; ``support/tiers.py`` states the rule, ``tests/project/test_tiers.py`` holds it).

Both tiers run on every core (pytest-xdist, ``-n auto`` in pyproject's addopts; ``-n 0`` runs
in one process); the tests that measure time or signals share the ``timing`` group, so they
run one after another in one worker, and so do the browser tests and each build
(:func:`support.tiers.group_of`; the scheduler is :mod:`support.scheduling`).

Fixtures:

* ``engine``: every available search engine (the pure-Python reference always, the C core
  when it imports), so one suite checks both against the same fixtures.
* ``case``: any test asking for it runs over ``tests/data/corpus.txt`` (format at its top).
* ``shared_data``: the benchmark puzzle directory ``../shared/data`` (or ``$SUDOKIT_DATA``);
  tests using it skip cleanly when it is absent.
* With ``SUDOKIT_REQUIRE_C=1`` (CI), a missing C core fails the run instead of being skipped.
* ``@pytest.mark.c_only``: a test about the C core's speed, skipped on the Python fallback.

Plain helpers and constants live in ``tests/support/`` (import them from there, not from here:
``conftest`` is not a unique module name once subfolders have their own).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import sudokit
from sudokit import _backend
from support import C_ERROR, CORPUS, ENGINES, REQUIRE_C, SHARED_DATA
from support.tiers import (
    in_fallback_pass,
    load_hypothesis_profile,
    quick_tier_skips,
    set_tier,
)

# pytest rewrites the asserts of every test module it imports, and caches the result as
# bytecode unless writing bytecode is off (PYTHONDONTWRITEBYTECODE, set on some machines):
# then each collection redoes it, about 5 s of CPU in every process. The cache is pytest's own
# (__pycache__ beside the tests); the processes the tests start keep the environment's setting.
sys.dont_write_bytecode = False


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> _backend.Engine:
    """Each search engine in turn (``python`` always; ``c`` when built, or required)."""
    name: str = request.param
    if name == "c" and C_ERROR is not None:
        if REQUIRE_C:
            pytest.fail(f"SUDOKIT_REQUIRE_C=1 but the C engine does not load: {C_ERROR}")
        pytest.skip(f"C engine not available: {C_ERROR}")
    return _backend.get_engine(name)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The benchmark puzzle directory; the test is skipped when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


# Doctests whose examples show what the C core's bulk path returns; without the core every line
# is handed back to Python, which tests/bulk/test_lines_fast.py checks on the fallback.
C_PATH_EXAMPLES = frozenset(
    f"src/sudokit/blocks.py::sudokit.blocks.{name}"
    for name in ("note_result", "scan_block", "scan_stream")
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="the full tier: the slow and browser tests too, Hypothesis profile 'ci' (.ci/run)",
    )
    parser.addoption(
        "--nightly",
        action="store_true",
        help="the nightly tier: the full tier with whole sweeps, Hypothesis profile 'nightly'",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("nightly"):
        config.option.full = True  # the nightly tier is the full tier with whole sweeps
    full = config.getoption("full")
    set_tier(full, config.getoption("nightly"))
    if full and not config.option.durations:
        config.option.durations = 25  # the full tier reports where its time went
    load_hypothesis_profile(full, config.getoption("hypothesis_profile", None))
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.import_plugin("support.scheduling")  # the groups' scheduler


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Apply the tier, mark the fallback pass's tests ``backend``, and skip the tests marked
    ``c_only`` (C-core speed) and the :data:`C_PATH_EXAMPLES` when the engine in use is not the
    C core (``SUDOKIT_BACKEND=python`` runs the backend's tests on the fallback).

    First of the hooks: ``-m`` selects by the ``backend`` marks added here."""
    backend = pytest.mark.backend
    for item in items:
        if in_fallback_pass(item):
            item.add_marker(backend)
    if not config.getoption("full") and not config.option.markexpr:
        kept, dropped = quick_tier_skips(items)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    if sudokit.BACKEND == "c":
        return
    skip = pytest.mark.skip(reason=f"c_only: needs the C core's speed (backend {sudokit.BACKEND})")
    shows_c = pytest.mark.skip(reason="the example shows the C core's bulk path (sudokit.blocks)")
    for item in items:
        if item.get_closest_marker("c_only") is not None:
            item.add_marker(skip)
        elif item.nodeid in C_PATH_EXAMPLES:
            item.add_marker(shows_c)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise any test that asks for ``case`` over the corpus."""
    if "case" in metafunc.fixturenames:
        metafunc.parametrize("case", CORPUS, ids=[c.id for c in CORPUS])
