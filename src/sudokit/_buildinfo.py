"""How this sudokit was built, and which side of each C twin serves (layer 2).

``sudokit --version`` shows :func:`build_info`. The compiler and flags are constants of the
compiled core (``_core.COMPILER``, ``_core.BUILD_FLAGS``, recorded at build time by setup.py and
csrc/sk_port.h), so they always describe the binary in use; whether it serves, and why not, is
:mod:`sudokit._native`'s decision (which also words the one-line warning every command says
when it does not: :func:`sudokit._native.fallback_warning`).

>>> info = build_info()
>>> info.splitlines()[1].startswith(("Python ", "  "))
True
"""

from __future__ import annotations

import platform
import sys

from . import _native
from ._native import WARNING_WIDTH

__all__ = ["WARNING_WIDTH", "build_info", "twins_table"]


def _core_lines() -> str:
    """``C core: <compiler>, flags <flags>`` when the core is built from these sources, else
    what is wrong with it and how to get one that serves; and whether it serves."""
    core = _native.built()
    if core is None:
        fallback = "(pure-Python fallback in use, much slower)"
        stale = _native.stale()
        if stale:
            return f"C core: {stale} {fallback}"
        return (
            f"C core: not in use: {_native.why()}\n"
            "  the pure-Python fallback runs instead, much slower (SUDOKIT_BACKEND=python selects "
            f"it without the warning)\n  {_native.HOW_TO_GET_CORE}"
        )
    line = f"C core: {core.COMPILER}, flags {core.BUILD_FLAGS}"
    if _native.core() is None:  # built from these sources, so SUDOKIT_BACKEND asked for Python
        line += " (built, not in use: SUDOKIT_BACKEND=python)"
    return line


def twins_table() -> str:
    """One line per C room (:data:`sudokit._native.TWINS`): its name, the side that serves in
    this process, its C source and the modules of the Python specification it is held equal to.

    >>> twins_table().splitlines()[1].split()[:2] in (["search", "C"], ["search", "Python"])
    True
    """
    side = "Python" if _native.core() is None else "C"
    rows = []
    for twin in _native.TWINS:
        modules = dict.fromkeys(name.partition(":")[0] for name in twin.python)
        rows.append(f"  {twin.room:<15} {side:<7} {twin.source} = {', '.join(modules)}")
    return "\n".join(["C twins: room, side serving here, C source = Python modules", *rows])


def build_info() -> str:
    """Lines naming the C core's compiler and flags (or why it does not serve and how to get
    it), the Python, and the table of the C twins (:func:`twins_table`).

    The first line is ``C core: <compiler>, flags <flags>`` when the core is built; else it
    says that it is stale, or ``C core: not in use: <why>`` with two lines on the fallback and
    how to get the core.
    """
    python = platform.python_implementation()
    python = f"Python {platform.python_version()} ({python}) {sys.executable}"
    return f"{_core_lines()}\n{python}\n{twins_table()}"
