"""Settings read from the environment, each in one place (layer 0).

``SUDOKIT_BACKEND`` picks the search engine (:mod:`sudokit._backend`) and the canonical-form
code (:func:`sudokit.transform.canonical`): ``c`` requires the C core, ``python`` forces the
pure-Python reference, unset (or empty) means the C core when it is built.
"""

from __future__ import annotations

import os

__all__ = ["requested_backend"]


def requested_backend() -> str:
    """``"c"``, ``"python"`` or ``""`` (no preference) from ``SUDOKIT_BACKEND``.

    Any other value is reported (a logged warning, so it reaches stderr) and ignored: a typo
    in a setting should not stop every command with an import-time traceback.

    >>> import os
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, SUDOKIT_BACKEND=" Python "):
    ...     requested_backend()
    'python'
    >>> with mock.patch.dict(os.environ):  # restores the caller's setting afterwards
    ...     _ = os.environ.pop("SUDOKIT_BACKEND", None)
    ...     requested_backend()
    ''
    """
    choice = os.environ.get("SUDOKIT_BACKEND", "").strip().lower()
    if choice in ("", "c", "python"):
        return choice
    import logging  # only on this rare path: logging is slow to import

    logging.getLogger(__name__).warning(
        "sudokit: SUDOKIT_BACKEND must be 'c' or 'python', got %r; ignored", choice
    )
    return ""
