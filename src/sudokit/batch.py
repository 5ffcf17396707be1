"""Bulk work, the public face: solving and rating files of puzzles, and the bulk names (layer 6).

The rooms behind it, one job each:

* :mod:`sudokit.parallel` -- process maps (:func:`ordered_map`, :func:`unordered_map`): the
  one set of rules for worker processes (inline for one job, pickling checked first, a bounded
  window, Ctrl-C and errors terminate the workers, workers end with their parent);
* :mod:`sudokit.shards` -- shards of a run, "i/k" parts, the resumable work directory
  (:class:`Manifest`), atomic shard files, and :func:`map_file` (a function over the lines of
  a file, resumable);
* :mod:`sudokit.dataset` -- datasets of generated puzzles (:func:`write_dataset`).

This module keeps what turns lines of puzzles into lines of answers -- :func:`solve_lines`
(the marker lines ``!none``, ``!invalid``, ... of ``sudokit solve``), :func:`rate_lines`,
:func:`solve_file` -- and re-exports the names above, so ``sudokit.batch`` stays the one
import for bulk work. The library never prints: progress is reported through a callback
``progress(rows)``; the messages about marker lines are the CLI's.

>>> solve_lines(["...43...2......1", "# comment", "..34..1...4..3.1"], unique=True)
['1234341221434321', '!multiple']
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable

from . import dataset as _dataset
from . import parallel as _parallel
from . import shards as _shards
from .dataset import *  # noqa: F403  (re-exported: the public bulk names, as before)
from .errors import SudokuError
from .grid import Grid
from .parallel import *  # noqa: F403
from .shards import *  # noqa: F403
from .shards import NOT_TEXT, Noted, map_file
from .solver import Status, solve_many

__all__ = ["rate_lines", "solve_file", "solve_lines"]
__all__ += _dataset.__all__
__all__ += _parallel.__all__
__all__ += _shards.__all__


def solve_lines(
    lines: list[str], limit: int = 2, budget: int | None = None, unique: bool = False
) -> list[str]:
    """Solve one puzzle per line: its solution, or a marker line ``!none``, ``!invalid``,
    ``!gave-up`` (``!multiple`` with *unique*; otherwise the first solution), as
    ``sudokit solve`` writes them. Blank lines and ``#`` comments give no output.

    >>> solve_lines(["...43...2......1", "", "bad", "..34..1...4..3.1"], unique=True)
    ['1234341221434321', '!invalid', '!multiple']
    """
    return list(_solve_noted(lines, limit, budget, unique).lines)


def _solve_noted(
    lines: list[str], limit: int = 2, budget: int | None = None, unique: bool = False
) -> Noted:
    """:func:`solve_lines`, noting the rows of puzzles with several solutions that got their
    first solution (without *unique*), for :func:`solve_file` to report.

    >>> _solve_noted(["...43...2......1", "..34..1...4..3.1", "#", "1" + "." * 15])
    Noted(lines=['1234341221434321', '1234341221434321', '1234341221434321'], notes=(1, 2))
    """
    puzzles = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    out, several = [], []
    for row, r in enumerate(solve_many(puzzles, limit=limit, budget=budget, jobs=1)):
        if r.solution is not None and (r.status is Status.UNIQUE or not unique):
            out.append(str(r.solution))
            if r.status is Status.MULTIPLE:
                several.append(row)
        else:
            out.append(f"!{r.status}")
    return Noted(out, tuple(several))


def solve_file(
    source: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    budget: int | None = None,
    unique: bool = False,
    jobs: int = 1,
    resume: bool = True,
    shard_rows: int = 10_000,
    progress: Callable[[int], None] | None = None,
    several: Callable[[int], object] | None = None,
) -> tuple[int, int]:
    """Solve a file of one puzzle per line into *out* with :func:`solve_lines`, in resumable
    shards on *jobs* processes; return (lines written, marker lines among them).

    Without *unique* a puzzle with several solutions gets its first one, and *several* is
    called with its output row (0-based), in order, when the run ends (those of an
    interrupted earlier run too).

    With *resume* (the default) an earlier interrupted run of the same file and options is
    continued, and a fresh run started when there is none.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     src, dst = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
    ...     _ = open(src, "w").write("...43...2......1\\n....\\n..34..1...4..3.1\\n")
    ...     solve_file(src, dst, unique=True)
    (3, 2)
    """
    fn = functools.partial(_solve_noted, budget=budget, unique=unique)
    params = {"budget": budget, "unique": unique}
    written = map_file(
        fn,
        source,
        out,
        params=params,
        shard_rows=shard_rows,
        jobs=jobs,
        resume=resume,
        progress=progress,
        noted=several,
    )
    return written, _count_markers(out)


def _count_markers(path: str | os.PathLike[str], size: int = 1 << 20) -> int:
    """How many lines of the file start with ``!`` (read in blocks of *size* bytes: no
    per-line work)."""
    markers = 0
    last = b"\n"
    with open(path, "rb") as f:
        while block := f.read(size):
            markers += (last + block[:1]).count(b"\n!") + block.count(b"\n!")
            last = block[-1:]
    return markers


def rate_lines(lines: list[str], budget_s: float = 60.0) -> list[str]:
    """Rate one puzzle per line: a JSON object per puzzle, as ``sudokit rate --to json``
    writes them, or ``{"puzzle": ..., "error": ...}`` when it cannot be rated.

    >>> json.loads(rate_lines(["...4" "3..." "2..." "...1"])[0])["level"]
    'easy'
    """
    from .rating import rate

    out = []
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text == NOT_TEXT:  # a line of map_file's input that is not text, as rate reports it
            out.append(json.dumps({"puzzle": None, "error": "not text"}))
            continue
        try:
            grid = Grid.parse(text)
            obj = rate(grid, budget_s=budget_s).to_json(grid)
        except SudokuError as exc:
            obj = {"puzzle": text, "error": str(exc)}
        out.append(json.dumps(obj))
    return out
