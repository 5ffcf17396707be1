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

__all__ = ["HOW_TO_GET_CORE", "WARNING_WIDTH", "build_info", "core_unavailable"]

#: The two ways to get the C core that work today, for the messages about its absence.
HOW_TO_GET_CORE = (
    "to get it, install a C compiler (gcc or clang; MSVC on Windows) and reinstall from the "
    "source with SUDOKIT_BUILD_EXT=1 (a failed build is then an error), or build a wheel on a "
    "machine with a compiler and install that (the README's 'Install' paragraph has the recipe)"
)
#: The longest warning line: the details are behind ``sudokit --version``.
WARNING_WIDTH = 100


def _problem(exc: ImportError) -> tuple[str, str]:
    """Why the core cannot be used: a few words, and the whole sentence (its file, the error).

    Python reports a submodule that was never built, imported while the package is still
    initialising, as "cannot import name '_core' from partially initialized module ...
    (most likely due to a circular import)": misleading, so the cause is looked up here.
    """
    try:
        spec = importlib.util.find_spec("sudokit._core")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return (
            "C core not built",
            "the C core (sudokit._core) was not built when sudokit was installed",
        )
    return (
        "C core unusable",
        f"the C core ({spec.origin}) is installed but cannot be loaded: {exc}",
    )


def core_unavailable(exc: ImportError, *, fallback: bool = True) -> str:
    """What to say when the C core cannot be used. With *fallback* (the warning every command
    prints once), one short line: the cause in a few words, that the slower fallback runs and
    what to do, with the details behind ``sudokit --version``; without it (``SUDOKIT_BACKEND=c``
    demands the core), the whole cause and how to get the core.

    >>> line = "sudokit: " + core_unavailable(ImportError("boom"))
    >>> line.split(": ", 2)[2], len(line) <= WARNING_WIDTH
    ('slow Python fallback; install a C compiler or a wheel (sudokit --version)', True)
    >>> core_unavailable(ImportError("boom"), fallback=False).startswith("the C core")
    True
    """
    short, whole = _problem(exc)
    if not fallback:
        return f"{whole}; {HOW_TO_GET_CORE}"
    return f"{short}: slow Python fallback; install a C compiler or a wheel (sudokit --version)"


def build_info() -> str:
    """Lines naming the engine in use, the compiler and flags of the C core, and the Python.

    The first line is ``C core: <compiler>, flags <flags>`` when the core is built, else
    ``C core: not in use: <why>`` and two lines on the fallback and how to get the core.
    """
    try:
        from . import _core
    except ImportError as exc:
        core = (
            f"C core: not in use: {_problem(exc)[1]}\n"
            "  the pure-Python fallback runs instead, much slower (SUDOKIT_BACKEND=python selects "
            f"it without the warning)\n  {HOW_TO_GET_CORE}"
        )
    else:
        compiler = getattr(_core, "COMPILER", "unknown compiler")
        flags = getattr(_core, "BUILD_FLAGS", "unknown")
        core = f"C core: {compiler}, flags {flags}"
        if requested_backend() == "python":
            core += " (built, not in use: SUDOKIT_BACKEND=python)"
    python = platform.python_implementation()
    python = f"Python {platform.python_version()} ({python}) {sys.executable}"
    return f"{core}\n{python}"
