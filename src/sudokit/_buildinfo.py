"""How this sudokit was built, and what to say when its C core is missing (layer 2).

``sudokit --version`` shows :func:`build_info`; :mod:`sudokit._backend` logs
:func:`core_unavailable` when it falls back to the pure-Python reference. The compiler and
flags are constants of the compiled core (``_core.COMPILER``, ``_core.BUILD_FLAGS``, recorded
at build time by setup.py and csrc/sk_port.h), so they always describe the binary in use.

>>> info = build_info()
>>> info.splitlines()[-1].startswith("Python ")
True
"""

from __future__ import annotations

import importlib.util
import platform
import sys

from ._config import requested_backend

__all__ = ["HOW_TO_GET_CORE", "build_info", "core_unavailable"]

#: The two ways to get the C core, for messages about its absence.
HOW_TO_GET_CORE = (
    "to get it, install a binary wheel (pip install --force-reinstall --only-binary=sudokit "
    "sudokit), or install a C compiler (gcc or clang; MSVC on Windows) and reinstall from "
    "source with SUDOKIT_BUILD_EXT=1 (then a failed build is an error, not a silent fallback)"
)


def core_unavailable(exc: ImportError, *, fallback: bool = True) -> str:
    """One plain sentence on why the C core cannot be used and how to get it; with
    *fallback*, also that the slower pure-Python engine runs instead (the warning's text).

    Python reports a submodule that was never built, imported while the package is still
    initialising, as "cannot import name '_core' from partially initialized module ...
    (most likely due to a circular import)": misleading, so the cause is looked up here.

    >>> core_unavailable(ImportError("boom")).startswith("the C core")
    True
    """
    try:
        spec = importlib.util.find_spec("sudokit._core")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        what = "the C core (sudokit._core) was not built when sudokit was installed"
    else:
        what = f"the C core ({spec.origin}) is installed but cannot be loaded: {exc}"
    if not fallback:
        return f"{what}; {HOW_TO_GET_CORE}"
    return (
        f"{what}; using the pure-Python fallback, which is much slower; {HOW_TO_GET_CORE}. "
        "SUDOKIT_BACKEND=python selects the fallback without this warning"
    )


def build_info() -> str:
    """Lines naming the engine in use, the compiler and flags of the C core, and the Python.

    The first line is ``C core: <compiler>, flags <flags>`` when the core is built, else says
    that it is not and how to get it.
    """
    try:
        from . import _core
    except ImportError:
        core = f"C core: not built (pure-Python fallback in use, much slower); {HOW_TO_GET_CORE}"
    else:
        compiler = getattr(_core, "COMPILER", "unknown compiler")
        flags = getattr(_core, "BUILD_FLAGS", "unknown")
        core = f"C core: {compiler}, flags {flags}"
        if requested_backend() == "python":
            core += " (built, not in use: SUDOKIT_BACKEND=python)"
    python = platform.python_implementation()
    python = f"Python {platform.python_version()} ({python}) {sys.executable}"
    return f"{core}\n{python}"
