"""The ``sudokit`` command line (layer 8): thin click commands over the public API.

Commands live one area per module and are imported only when used, so ``sudokit --help``
and ``sudokit solve`` stay fast. :func:`main` returns the exit code: 0 all good, 1 a "no"
answer (unsolvable, not unique, invalid), 2 usage or parse error.
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
