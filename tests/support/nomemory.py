"""Failed-allocation sweeps of the C bindings: each allocation of a call failed in turn
(``_testcapi.set_nomemory``), the outcomes checked and no memory kept."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import pytest

try:
    import _testcapi
except ImportError:  # a Python built without its test C API
    _testcapi = None


def failing(call: Callable[[], object], k: int) -> object:
    """call() with its k-th allocation failed: its result, or MemoryError (the class)."""
    if _testcapi is None:
        pytest.skip("_testcapi is not available")
    _testcapi.set_nomemory(k, k + 1)
    try:
        return call()
    except MemoryError:
        return MemoryError
    finally:
        _testcapi.remove_mem_hooks()


def sweep(call: Callable[[], object], at_least: int = 1) -> int:
    """Fails each allocation of call() in turn; asserts the outcomes (see the module doc) and
    that no memory is kept. The number of calls that raised MemoryError, which must reach
    *at_least* (the sweep did exercise the call's allocations).

    ``set_nomemory`` fails the k-th allocation of the whole process, so another thread's
    allocation can take it (an xdist worker's I/O thread does, now and then): a sweep that
    falls short of *at_least* is run again, up to three times in all.
    """
    for _ in range(2):
        failures = _sweep_once(call)
        if failures >= at_least:
            return failures
    failures = _sweep_once(call)
    assert failures >= at_least, f"only {failures} of the call's allocations failed"
    return failures


def _sweep_once(call: Callable[[], object]) -> int:
    """One sweep of :func:`sweep`."""
    expected = call()
    failures = successes = 0
    gc.collect()
    before = sys.getallocatedblocks()
    for k in range(5000):
        got = failing(call, k)
        if got is MemoryError:
            failures += 1
            successes = 0
            continue
        assert got == expected, f"allocation {k}"
        successes += 1
        if successes == 30:  # past the call's last allocation
            break
    del got
    gc.collect()
    assert sys.getallocatedblocks() - before < 50, "a failed call leaked"
    return failures
