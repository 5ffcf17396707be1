"""``import sudokit`` stays fast (every CLI run pays it): the core path avoids the slow stdlib
modules.

Not a timed test (timings are noisy on shared machines): it checks, in a fresh process, that
the modules that dominated the import time are not loaded by ``import sudokit``. They load
later, on the rare paths that need them (logging when the C core is missing, dataclasses
when someone assigns to a frozen result).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

import sudokit
from support import require_c_backend

# Each of these cost several milliseconds of the ~30 ms budget (inspect and ast come with
# dataclasses). re and enum are not listed: the interpreter's startup often loads them.
SLOW = ("logging", "dataclasses", "inspect", "ast", "dis")


def test_import_sudokit_skips_slow_stdlib_modules() -> None:
    code = (
        "import json, sys; before = set(sys.modules); import sudokit; "
        f"print(json.dumps(sorted(m for m in {SLOW!r} if m in sys.modules and m not in before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == []


def test_frozen_results_still_raise_the_dataclass_error() -> None:
    conflict = sudokit.Grid.parse("11.." + "." * 12).conflicts()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        conflict.digit = 2  # type: ignore[misc]  # read-only for type checkers too
    with pytest.raises(dataclasses.FrozenInstanceError):
        del conflict.unit


def test_the_solve_command_loads_only_what_one_thread_needs() -> None:
    """``sudokit solve`` pays its imports on every run, before any work (they are
    the serial part of ``--jobs 2``). The reference engine loads only when it is the engine,
    and the thread pool of the bulk path (``concurrent.futures``, which brings ``logging``)
    only for ``--jobs N``."""
    require_c_backend(in_process=False)
    code = (
        "import json, sys; before = set(sys.modules); import sudokit.cli.solve; "
        "names = ('sudokit._reference', 'concurrent.futures', 'logging'); "
        "print(json.dumps([m for m in names if m in sys.modules and m not in before]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == []
