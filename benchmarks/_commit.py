"""The commit of the code a benchmark measures, for its result file, and the writing of that
file's pair (``<stem>.md`` and ``<stem>.json``).

It is read from the git tree that holds the imported ``sudokit`` package, not from the current
directory or the script's checkout: with ``PYTHONPATH`` pointing at another worktree, that tree
is the code measured. ``-dirty`` is added when the tree's sources (``csrc``, ``src``,
``setup.py``) differ from that commit, untracked files included.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import ModuleType


def code_commit(package: ModuleType | None = None) -> str:
    """``<short hash>`` or ``<short hash>-dirty`` of the tree holding *package* (default: the
    imported ``sudokit``); ``unknown`` when that is not in a git tree (an installed wheel)."""
    if package is None:
        import sudokit

        package = sudokit
    where = str(Path(str(package.__file__)).resolve().parent)

    def git(*args: str) -> str | None:
        try:
            run = subprocess.run(
                ["git", "-C", where, *args], capture_output=True, text=True, check=True
            )
        except (OSError, subprocess.CalledProcessError):
            return None
        return run.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD")
    if not commit:
        return "unknown"
    dirty = git("status", "--porcelain", "--", ":/csrc", ":/src", ":/setup.py")
    return commit + ("-dirty" if dirty else "")


def write_result(out: Path, stem: str, text: str, payload: object, indent: int = 1) -> Path:
    """A benchmark's result as ``out/<stem>.md`` (*text*, as it is) and ``out/<stem>.json``
    (*payload*, indented by *indent*, with a final newline); *out* is made when missing.
    Returns ``out/<stem>`` (without a suffix)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{stem}.md").write_text(text)
    (out / f"{stem}.json").write_text(json.dumps(payload, indent=indent) + "\n")
    return out / stem
