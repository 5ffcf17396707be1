"""The ``sudokit`` console script's entry point: the command line imported inside a guard.

A Ctrl-C while the package is still importing (the first tenth of a second of every run)
would otherwise end in a ``KeyboardInterrupt`` traceback, since the command line's own handler
(:mod:`sudokit.cli.app`) exists only once that import is done. It lives outside the
``sudokit`` package because importing any ``sudokit.*`` module runs ``sudokit/__init__.py``
first. ``python -m sudokit`` has the same window and no way around it.
"""

from __future__ import annotations

import sys

__all__ = ["main"]

#: The exit code of an interrupted run (128 + SIGINT), as the command line gives it.
INTERRUPTED = 130


def main() -> int:
    """Import the command line and run it; a Ctrl-C during the import is one line, exit 130."""
    try:
        from sudokit.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("sudokit: interrupted\n")
        return INTERRUPTED
    return run()
