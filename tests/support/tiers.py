"""The test tiers: what the quick tier leaves out, what the fallback pass runs, and the
Hypothesis profiles (the rules themselves are described in ``tests/conftest.py``).

* The **quick tier** (``python -m pytest``) leaves out the tests marked with one of
  :data:`QUICK_TIER_OFF`; ``--full`` keeps them.
* The **fallback pass** (``SUDOKIT_BACKEND=python python -m pytest -m backend``) runs the tests
  whose results depend on the search backend chosen by the process: the modules of the
  folders in :data:`BACKEND_ROOMS` but the :data:`NO_BACKEND_MODULES` (what they import never
  reaches the C core), the parity modules (``*_c.py``: both sides chosen by the test, so the
  C pass has run them already) and the :data:`TIMING_MODULES` (process pools, signals and
  time, not the search); elsewhere the tests marked ``backend`` one by one; and the doctests
  of the package and the README. ``tests/project/test_tiers.py`` holds each part of the rule.
* The **nightly tier** (``--nightly``) is the full tier with the sweeps at their whole size: a
  test that checks a property over many seeds, puzzles or states states both sizes through
  :func:`sweep` (the full tier's share is what CI can afford; nightly is the whole sample).
* **Hypothesis profiles**: ``dev`` (the quick tier), ``ci`` (the full tier) and ``nightly``
  (the nightly tier); ``HYPOTHESIS_PROFILE`` or ``--hypothesis-profile`` picks another. A
  property test states its example count for the ``ci`` profile through :func:`examples`,
  which scales it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

import pytest

TESTS = Path(__file__).resolve().parent.parent

#: Markers of the tests that only the full tier runs.
QUICK_TIER_OFF = ("slow", "browser")

#: The test folders whose modules all run again on the pure-Python fallback: the rooms of
#: ``src/sudokit`` that have a C twin, or whose results come from the search.
BACKEND_ROOMS = frozenset({"core", "engine", "logic", "rating", "generator", "bulk"})

#: The modules of the backend rooms that cannot depend on the backend chosen: what they import
#: from sudokit never imports ``sudokit._native``, which decides it (the data model, or the
#: compiled core itself); tests/project/test_tiers.py checks the list both ways.
NO_BACKEND_MODULES = frozenset(
    {
        "test_candidates_input",
        "test_constraints",
        "test_core_module",
        "test_fillings_walked",
        "test_grid",
        "test_rules",
        "test_shape",
    }
)

#: The modules that measure time, CPU or signals (Ctrl-C, kill -9 and resume, server load and
#: time-outs, a Dask cluster): one xdist group, so they run one after another in one worker
#: instead of against each other.
TIMING_MODULES = frozenset(
    {
        "test_interrupt",
        "test_web_load",
        "test_web_api",
        "test_dask",
        "test_batch_cli",
        "test_dataset",
        "test_rate_bulk",
        "test_ordered_map",
        "test_batch_jobs_parity",
        "test_cli_table",
        "test_jobs_worker_killed",
    }
)

#: The modules whose module-scoped fixture is a build (the docs site, a wheel and its venv): each
#: is an xdist group of its own, so that the build runs once, not once in each worker that gets
#: one of the module's tests (the site was built twice, 23 s of CPU each).
BUILD_MODULES = frozenset({"test_docsite", "test_wheel"})

#: ``max_examples`` of a test that asks for 100 examples, per profile.
PROFILES = {"dev": 25, "ci": 100, "nightly": 1000}

#: The tier this run is ("quick", "full" or "nightly"), set by ``tests/conftest.py`` before
#: the test modules are collected (so that parametrisations can use :func:`sweep`).
TIER = "quick"


def set_tier(full: bool, nightly: bool) -> None:
    """Record the tier of this run (``--nightly`` implies ``--full``)."""
    global TIER
    TIER = "nightly" if nightly else "full" if full else "quick"


def sweep(full: int, nightly: int) -> int:
    """The size of a sweep (seeds, puzzles, states) in this run: *nightly* in the nightly
    tier, else *full* (the full tier's share, which the quick tier also gets when the test
    runs there).

    >>> sweep(4, 20) == (20 if TIER == "nightly" else 4)
    True
    """
    assert 0 < full <= nightly, (full, nightly)
    return nightly if TIER == "nightly" else full


def is_parity_module(stem: str) -> bool:
    """Whether the test module *stem* holds a C twin equal to its Python specification."""
    return stem.endswith("_c")


def in_fallback_pass(item: pytest.Item) -> bool:
    """Whether *item* belongs to the fallback pass (see the module docstring)."""
    if item.get_closest_marker("backend") is not None:
        return True
    path = Path(item.path)
    if path.suffix == ".md" or TESTS not in path.parents:
        return True  # the doctests of the package and of the README
    stem = path.stem
    if stem in NO_BACKEND_MODULES or stem in TIMING_MODULES or is_parity_module(stem):
        return False
    return path.relative_to(TESTS).parts[0] in BACKEND_ROOMS


def group_of(nodeid: str) -> str | None:
    """The group of the test *nodeid*, whose tests run one after another in one worker:
    ``timing`` for the :data:`TIMING_MODULES`, the module's own name for the
    :data:`BUILD_MODULES`, ``browser`` for the modules of a ``browser`` folder, else None (any
    worker). It follows from the node id's path alone, so that the xdist controller, which
    sees only node ids, computes it (:mod:`support.scheduling`).

    The browser tests share one worker so that one Chromium (and one for the phone contexts)
    and one app server serve them all: spread over two workers, each launched its own.

    >>> group_of("tests/web/test_web_load.py::test_abandoned_work_stops")
    'timing'
    >>> group_of("tests/browser/test_player.py::test_undo[phone]"), group_of("README.md::README.md")
    ('browser', None)
    """
    path = PurePosixPath(nodeid.split("::", 1)[0])
    if path.stem in TIMING_MODULES:
        return "timing"
    if path.stem in BUILD_MODULES:
        return path.stem
    return "browser" if path.parent.name == "browser" else None


def quick_tier_skips(items: Sequence[pytest.Item]) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """*items* split into those the quick tier runs and those it leaves out."""
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        off = any(item.get_closest_marker(name) is not None for name in QUICK_TIER_OFF)
        (dropped if off else kept).append(item)
    return kept, dropped


def load_hypothesis_profile(full: bool, chosen: str | None = None) -> None:
    """Register the profiles and load ``chosen`` (``--hypothesis-profile``), else
    ``$HYPOTHESIS_PROFILE``, else the tier's: ``nightly``, ``ci`` for the full tier, ``dev``
    for the quick one."""
    from hypothesis import settings

    for name, count in PROFILES.items():
        settings.register_profile(name, max_examples=count)
    settings.load_profile(
        chosen
        or os.environ.get("HYPOTHESIS_PROFILE")
        or ("nightly" if TIER == "nightly" else "ci" if full else "dev")
    )


def examples(ci_count: int, per_100: int | None = None) -> int:
    """The example count of a property test that asks for *ci_count* in the ``ci`` profile,
    scaled to the profile loaded (or to *per_100* examples a hundred), at least 5.

    >>> examples(150, per_100=25), examples(150, per_100=1000), examples(4, per_100=25)
    (37, 1500, 5)
    """
    if per_100 is None:
        from hypothesis import settings

        per_100 = settings().max_examples
    return max(5, ci_count * per_100 // PROFILES["ci"])
