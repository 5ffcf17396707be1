"""Bulk work: shards, worker processes, a resumable manifest, and datasets (layer 6).

A big job is cut into *shards*: contiguous ranges of a global index (generated puzzle ``j``, or
line ``j`` of an input file). Each shard is computed on its own -- inline, in a local process
pool, or on a Dask cluster (:mod:`sudokit.dask`) -- and its rows are written to a *work
directory* atomically (a temporary file, then :func:`os.replace`); an append-only manifest
records every finished shard. An interrupted run started again with ``resume=True`` skips the
shards the manifest lists, so no row is lost or written twice, and the final merge reads the
shards in index order, so the output does not depend on how many workers ran, in what order
they finished, or whether the run was interrupted.

The process that runs the job stays nearly idle, so two workers go about twice as fast as one
on two cores: workers receive a shard's input as one block (bytes of a file, an index range)
and return its output as one text, already formatted as the output file has it (CSV and JSON
Lines; JSON objects only for Parquet); the merge then copies bytes.

Memory stays flat whatever the size of the run: at most a few shards are in flight at a time
and the merge streams. The one exception is de-duplication (``dedupe=True``): it keeps a set of
16-byte digests of the canonical forms seen so far, about 100 bytes per distinct puzzle (some
100 MB for a million puzzles).

The worker processes of this module -- :func:`local_mapper` for shards, and
:func:`ordered_map`, the streaming, order-keeping process map under ``sudokit solve --jobs`` and
``sudokit rate --jobs`` -- share one pool set-up: an interrupted run terminates its workers
instead of waiting for the work in flight, and workers end with their parent process.

The library never prints: progress is reported through a callback ``progress(rows)``.

>>> spec = DatasetSpec(n=3, seed=7, size=4)
>>> rows = [row for _, chunk in dataset_chunks(spec) for row in dataset_rows(spec, chunk)]
>>> [sorted(rows[0]) == sorted(COLUMNS), len(rows)]
[True, 3]
>>> all(Grid.parse(r["solution"]).is_solution(Grid.parse(r["puzzle"])) for r in rows)
True
"""

from __future__ import annotations

import collections
import contextlib
import csv
import functools
import hashlib
import io
import itertools
import json
import logging
import os
import random
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from ._version import __version__
from .errors import SudokuError
from .formats import output_bytes
from .formats._files import writes_through
from .generator import _check_pickles, derive_seed, generate_many, is_symmetric
from .grid import Grid
from .solver import Status, solve_many
from .transform import canonical, random_transform

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = [
    "COLUMNS",
    "FORMATS",
    "DatasetSpec",
    "Lines",
    "Manifest",
    "Mapper",
    "canonical_key",
    "chunk_ranges",
    "dataset_chunks",
    "dataset_rows",
    "dataset_shard_rows",
    "local_mapper",
    "map_file",
    "marker_rows",
    "merge_rows",
    "ordered_map",
    "parse_part",
    "rate_lines",
    "read_rows",
    "run_shards",
    "solve_file",
    "solve_lines",
    "write_dataset",
]

log = logging.getLogger(__name__)

K = TypeVar("K")
P = TypeVar("P")
R = TypeVar("R")

#: The most rows per dataset shard unless told otherwise (see :func:`dataset_shard_rows`):
#: small enough that an interrupted run loses little, large enough that the per-shard cost (a
#: file, two syncs, a manifest line, a task) stays negligible.
SHARD_ROWS = 1000
#: The columns of a dataset row (``rating`` and ``level`` only when rated; ``isomorph`` only
#: with augmentation).
COLUMNS = ("puzzle", "solution", "clues", "guesses", "symmetry", "seed")
RATED_COLUMNS = ("rating", "level")
#: Output formats of :func:`write_dataset` (``parquet`` needs pyarrow, the ``parquet`` extra).
FORMATS = ("csv", "jsonl", "parquet")

#: A way to run shards: ``mapper(fn, tasks)`` computes ``fn(payload)`` for each
#: ``(shard, payload)`` of *tasks* and yields ``(shard, result)`` in any order.
Mapper = Callable[[Callable[[P], R], Iterable[tuple[int, P]]], Iterator[tuple[int, R]]]
#: What a shard computes: its output lines, or (cheaper to send from a worker process and to
#: write) one text of complete lines, each ending with a line feed.
Lines = Sequence[str] | str

_KEY = "_key"  # hidden field: digest of the canonical form (de-duplication)
_MANIFEST = "manifest.jsonl"


# -- ranges and parts -----------------------------------------------------------------------


def parse_part(text: str) -> tuple[int, int]:
    """Parse ``"i/k"`` (the i-th of k parts, 1-based).

    >>> parse_part("2/5")
    (2, 5)
    >>> parse_part("6/5")
    Traceback (most recent call last):
    ...
    sudokit.errors.SudokuError: shard must be i/k with 1 <= i <= k, got '6/5'
    """
    head, _, tail = text.strip().partition("/")
    try:
        i, k = int(head), int(tail)
    except ValueError:
        i = k = 0
    if not 1 <= i <= k:
        raise SudokuError(f"shard must be i/k with 1 <= i <= k, got {text!r}")
    return i, k


def chunk_ranges(
    total: int, size: int = SHARD_ROWS, part: tuple[int, int] | None = None
) -> Iterator[tuple[int, range]]:
    """The shards of a run of *total* items: ``(shard number, index range)`` in order, made
    one at a time (a run of 10**12 items is planned in constant memory).

    Shard ``c`` covers ``[c*size, (c+1)*size)``. ``part=(i, k)`` keeps the i-th of k
    contiguous slices of the index space (the same slices as
    :func:`sudokit.generate_many`'s ``shard=``), cut at the same shard boundaries, so the k
    parts in order are the whole run. Bad arguments raise at the call, not at the first shard.

    >>> list(chunk_ranges(5, 2))
    [(0, range(0, 2)), (1, range(2, 4)), (2, range(4, 5))]
    >>> list(chunk_ranges(5, 2, (2, 2)))
    [(1, range(2, 4)), (2, range(4, 5))]
    >>> next(chunk_ranges(10**18, 1000))
    (0, range(0, 1000))
    """
    if total < 0 or size < 1:
        raise ValueError(f"need total >= 0 and size >= 1, got {total}, {size}")
    lo, hi = 0, total
    if part is not None:
        i, k = part
        if not 1 <= i <= k:
            raise SudokuError(f"shard must be i/k with 1 <= i <= k, got {i}/{k}")
        lo, hi = total * (i - 1) // k, total * i // k
    return _chunks(lo, hi, size)


def _chunks(lo: int, hi: int, size: int) -> Iterator[tuple[int, range]]:
    for c in itertools.count(lo // size):
        if c * size >= hi:
            return
        r = range(max(lo, c * size), min(hi, (c + 1) * size))
        if r:
            yield c, r


# -- running shards -------------------------------------------------------------------------


def _end_with_parent(parent: int) -> None:
    """Worker initializer: leave Ctrl-C to the parent (which ends its workers), and end this
    worker once the parent is gone -- killed with SIGKILL, say -- instead of waiting for work
    forever.

    A watchdog thread polls the parent pid (every 0.2 s) rather than asking Linux for a
    signal (``PR_SET_PDEATHSIG``): that signal comes when the *thread* that started the worker
    ends, and a pool may start workers from any thread. Portable: where there is no SIGINT
    to ignore or ``getppid`` says nothing useful, the worker simply lives as before.
    """
    with contextlib.suppress(ValueError, OSError, AttributeError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="sudokit-end-with-parent", daemon=True).start()


@contextlib.contextmanager
def _worker_pool(fn: Callable[..., Any], workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool of *workers* for *fn*, set up and torn down in one place.

    *fn* must pickle (refused at once with :class:`TypeError`, before any process starts:
    a pool would otherwise fail or hang later). The workers end with their parent (see
    :func:`_end_with_parent`). When the ``with`` body ends normally the pool shuts down
    cleanly; when it ends early -- an exception, :class:`KeyboardInterrupt`, or a generator
    using the pool being closed -- the work in flight is dropped: the queued tasks are
    cancelled and the workers terminated at once instead of being waited for.
    """
    from concurrent.futures import ProcessPoolExecutor

    _check_pickles(fn)
    pool = ProcessPoolExecutor(workers, initializer=_end_with_parent, initargs=(os.getpid(),))
    finished = False
    try:
        yield pool
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _terminate(pool)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Cancel a pool's queued tasks and end its workers without waiting for their tasks
    (there is no public way to do so before Python 3.14's ``terminate_workers``)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    results = getattr(pool, "_result_queue", None)  # that too
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + 3.0
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError, AttributeError):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join(1.0)
    # A worker ended while sending a result leaves half a message in the result pipe, and
    # the pool's manager thread waits for the rest forever (and the interpreter, at exit,
    # for that thread). With every worker gone, this process holds the pipe's last write
    # end: closing it turns the wait into end-of-file, which the manager handles.
    writer = getattr(results, "_writer", None)
    with contextlib.suppress(OSError, AttributeError):
        writer.close()  # type: ignore[union-attr]
    # The manager thread sees the workers end, reaps them and stops: wait for it, so that no
    # worker is left half-reaped (it would show in active_children()) on return.
    if isinstance(manager, threading.Thread) and manager is not threading.current_thread():
        manager.join(max(0.5, deadline - time.monotonic()))


def _pool_size(jobs: int) -> int:
    if jobs < 0:
        raise ValueError(f"jobs must be >= 0 (0 = every core), got {jobs}")
    return jobs or os.cpu_count() or 1


def ordered_map(
    fn: Callable[[P], R], tasks: Iterable[tuple[K, P]], jobs: int = 1
) -> Iterator[tuple[K, R]]:
    """``(key, fn(payload))`` for each ``(key, payload)`` of *tasks*, in input order, computed
    inline (*jobs* 1) or on *jobs* worker processes (0 = every core).

    Streaming: *tasks* is read lazily and at most ``2 * jobs + 1`` payloads are in flight, so
    memory stays flat whatever the number of tasks; the keys stay in this process (only
    payloads and results travel), so a key can be anything -- the records a chunk came from,
    say. Send work in chunks (hundreds of items per payload) and have *fn* return something
    small (one text): each task costs a round trip.

    With processes, *fn* must pickle (a module-level function or a
    :func:`functools.partial` of one; anything else raises :class:`TypeError` at the first
    task). Stopping early -- an exception in *fn* (raised here, in order), Ctrl-C, or
    closing the iterator -- terminates the workers rather than waiting for the tasks in
    flight, and workers end by themselves when this process is killed.

    >>> list(ordered_map(abs, [("a", -1), ("b", 2)]))
    [('a', 1), ('b', 2)]
    >>> [r for _, r in ordered_map(len, [(k, "x" * k) for k in range(4)], jobs=2)]
    [0, 1, 2, 3]
    >>> ordered_map(lambda x: x, [], jobs=2)
    Traceback (most recent call last):
    ...
    TypeError: <function <lambda> at ...> must pickle to run in worker processes (...)
    """
    workers = _pool_size(jobs)
    if workers > 1:
        _check_pickles(fn)
    return _ordered_map(fn, tasks, workers)


def _ordered_map(
    fn: Callable[[P], R], tasks: Iterable[tuple[K, P]], workers: int
) -> Iterator[tuple[K, R]]:
    if workers == 1:
        for key, payload in tasks:
            yield key, fn(payload)
        return
    todo = iter(tasks)
    first = next(todo, None)
    if first is None:
        return  # no work: no pool
    window: collections.deque[tuple[K, Future[R]]] = collections.deque()
    with _worker_pool(fn, workers) as pool:
        for key, payload in itertools.chain([first], todo):
            window.append((key, pool.submit(fn, payload)))
            if len(window) > 2 * workers:
                head, future = window.popleft()
                yield head, future.result()
        while window:
            head, future = window.popleft()
            yield head, future.result()


def local_mapper(jobs: int = 1) -> Mapper[Any, Any]:
    """A :data:`Mapper` running shards inline (*jobs* 1) or in *jobs* worker processes
    (0 = every core), yielding each shard as soon as it is done.

    At most ``2 * jobs`` shards are in flight, so memory does not grow with the run. The
    pool is :func:`ordered_map`'s: an interrupted run (Ctrl-C) terminates the workers at
    once instead of waiting for the shards in flight, and workers end with this process.

    >>> sorted(local_mapper(1)(abs, [(0, -3), (1, 4)]))
    [(0, 3), (1, 4)]
    """
    workers = _pool_size(jobs)

    def inline(fn: Callable[[Any], Any], tasks: Iterable[tuple[int, Any]]) -> Iterator[Any]:
        for shard, payload in tasks:
            yield shard, fn(payload)

    def pooled(fn: Callable[[Any], Any], tasks: Iterable[tuple[int, Any]]) -> Iterator[Any]:
        from concurrent.futures import FIRST_COMPLETED, wait

        todo = iter(tasks)
        first = next(todo, None)
        if first is None:
            return
        todo = itertools.chain([first], todo)
        with _worker_pool(fn, workers) as pool:
            running: dict[Future[Any], int] = {}
            while True:
                while len(running) < 2 * workers:
                    nxt = next(todo, None)
                    if nxt is None:
                        break
                    running[pool.submit(fn, nxt[1])] = nxt[0]
                if not running:
                    return
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()

    return inline if workers == 1 else pooled


class Manifest:
    """The work directory of a sharded run: shard files and the manifest of finished ones.

    The manifest is ``manifest.jsonl``: a first line with the run's parameters, then one line
    per finished shard (``{"shard": c, "rows": r, "sha256": ...}``), appended and synced after
    the shard's file is in place. A torn last line (a run killed mid-write) is ignored, and a
    shard listed without its file is done again.
    """

    def __init__(
        self,
        workdir: str | os.PathLike[str],
        params: Mapping[str, Any],
        *,
        resume: bool,
        force: bool = False,
    ):
        """Open the work directory *workdir* of a run with *params*: continue it with
        *resume*; else start afresh, which discards finished shards of an earlier run only
        with *force* (without it a :class:`~sudokit.errors.SudokuError` asks for one of the
        two). The directory's parent must exist (it is not created: a mistyped output path
        is an error, not a new directory tree)."""
        self.dir = Path(workdir)
        self.params = dict(params)
        self.done: dict[int, int] = {}
        path = self.dir / _MANIFEST
        if not self.dir.parent.is_dir():
            raise SudokuError(f"{str(self.dir.parent)!r}: no such directory")
        if resume and path.exists():
            self._load(path)
        else:
            if self.dir.exists():
                if any(self.dir.iterdir()) and not path.exists():
                    raise SudokuError(
                        f"{str(self.dir)!r} exists and is not a sudokit work directory"
                    )
                if not force and any(self.dir.glob("part-*.jsonl")):
                    raise SudokuError(
                        f"{str(self.dir)!r} holds finished shards of an earlier run: "
                        "continue it with --resume, or discard them with --force"
                    )
                shutil.rmtree(self.dir)
            self.dir.mkdir()
            self._append({"params": self.params})
        for stale in self.dir.glob("*.tmp"):
            stale.unlink()

    def _load(self, path: Path) -> None:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        try:
            head = json.loads(lines[0])["params"]
        except (ValueError, KeyError, TypeError):
            raise SudokuError(f"{path}: not a sudokit manifest") from None
        if head != self.params:
            changed = sorted(k for k in {*head, *self.params} if head.get(k) != self.params.get(k))
            raise SudokuError(
                f"cannot resume {str(self.dir)!r}: it was started with other options "
                f"({', '.join(changed)}); run without --resume to start again"
            )
        for line in lines[1:]:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # the torn last line of a killed run
            if self.shard_path(entry["shard"]).exists():
                self.done[int(entry["shard"])] = int(entry["rows"])
        if lines[-1]:  # end the torn line, so that the next entry starts a line of its own
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n")
        log.info("resuming %s: %d shards done", self.dir, len(self.done))

    def _append(self, entry: Mapping[str, Any]) -> None:
        with open(self.dir / _MANIFEST, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def shard_path(self, shard: int) -> Path:
        """The file of shard number *shard*."""
        return self.dir / f"part-{shard:07d}.jsonl"

    def write(self, shard: int, lines: Lines) -> int:
        """Write a shard's lines (a list, or one text of complete lines) atomically, then
        record it as finished; return its row count."""
        path = self.shard_path(shard)
        tmp = path.with_suffix(".tmp")
        text = lines if isinstance(lines, str) else "".join(line + "\n" for line in lines)
        if text and not text.endswith("\n"):
            raise ValueError(f"shard {shard}: its text must end with a line feed")
        rows = text.count("\n")
        data = text.encode()
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        self._append({"shard": shard, "rows": rows, "sha256": hashlib.sha256(data).hexdigest()})
        self.done[shard] = rows
        return rows

    def read(self, shard: int) -> Iterator[str]:
        """The lines of a finished shard."""
        with open(self.shard_path(shard), encoding="utf-8", newline="\n") as f:
            for line in f:
                yield line.rstrip("\n")

    def copy(self, shards: Iterable[int], dst: IO[bytes]) -> int:
        """Append the bytes of the finished *shards*, in order, to *dst*; return their rows."""
        rows = 0
        for shard in shards:
            with open(self.shard_path(shard), "rb") as f:
                shutil.copyfileobj(f, dst, 1 << 20)
            rows += self.done[shard]
        return rows

    def remove(self) -> None:
        """Delete the work directory (after a successful merge)."""
        shutil.rmtree(self.dir, ignore_errors=True)


def run_shards(
    fn: Callable[[P], Lines],
    tasks: Iterable[tuple[int, P]],
    manifest: Manifest,
    *,
    mapper: Mapper[P, Lines] | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Compute every shard of *tasks* the manifest does not list as finished.

    ``fn(payload)`` returns the shard's output lines (a list, or one text of complete lines:
    the cheaper thing for a worker process to send); each shard is written by
    :meth:`Manifest.write` as soon as it is computed. *progress* is called with the number of
    rows of each finished shard (those finished by an earlier run first).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     m = Manifest(d + "/w", {"run": 1}, resume=False)
    ...     run_shards(lambda xs: [str(x * x) for x in xs], [(0, [1, 2]), (1, [3])], m)
    ...     [line for c in sorted(m.done) for line in m.read(c)]
    ['1', '4', '9']
    """
    try:
        _run_shards(fn, tasks, manifest, mapper or local_mapper(1), progress)
    except BaseException:
        if not manifest.done:  # nothing to resume: leave no work directory behind
            manifest.remove()
        raise


def _run_shards(
    fn: Callable[[P], Lines],
    tasks: Iterable[tuple[int, P]],
    manifest: Manifest,
    run: Mapper[P, Lines],
    progress: Callable[[int], None] | None,
) -> None:
    if progress is not None and manifest.done:
        progress(sum(manifest.done.values()))
    todo = ((shard, payload) for shard, payload in tasks if shard not in manifest.done)
    for shard, lines in run(fn, todo):
        rows = manifest.write(shard, lines)
        if progress is not None:
            progress(rows)


# -- bulk solving and rating of files ---------------------------------------------------------


def _byte_chunks(path: Path, size: int) -> Iterator[tuple[int, bytes]]:
    """The file's shards of *size* lines, as bytes: the reading process only cuts the file
    (at line feeds, in C); decoding and splitting are the worker's (:func:`_apply_block`)."""
    with open(path, "rb") as f:
        for shard in itertools.count():
            block = b"".join(itertools.islice(f, size))
            if not block:
                return
            yield shard, block


def _apply_block(fn: Callable[[list[str]], Sequence[str]], block: bytes) -> str:
    """Worker body of :func:`map_file`: *fn* over the lines of *block* (read as a text file
    reads them: UTF-8, any line end; a byte that is not UTF-8 becomes U+FFFD, so that its
    line is one bad record for *fn*), its output lines as one text.

    >>> _apply_block(lambda lines: [s.upper() for s in lines], b"ab\\r\\ncd\\n\\nef")
    'AB\\nCD\\n\\nEF\\n'
    """
    text = block.decode("utf-8", "replace")  # a line that is not UTF-8 is one bad record
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return "".join(line + "\n" for line in fn(lines))


def map_file(
    fn: Callable[[list[str]], Sequence[str]],
    source: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    params: Mapping[str, Any] | None = None,
    shard_rows: int = 10_000,
    mapper: Mapper[bytes, Lines] | None = None,
    jobs: int = 1,
    resume: bool = False,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Apply *fn* to the lines of the file *source*, a shard of *shard_rows* lines at a time,
    and write the output lines in order to *out* (resumable; returns the output line count).

    ``fn(lines)`` gets a shard's lines (line ends removed) and returns its output lines; it
    must be picklable for worker processes (a module-level function, or a
    :func:`functools.partial` of one, such as :func:`solve_lines` and :func:`rate_lines`).
    The input is read once, streaming, and cut into shards as bytes: the workers decode the
    lines and send back one text per shard, so the calling process does next to nothing per
    line. Shards go to ``<out>.parts`` exactly as for :func:`write_dataset` and are then
    copied, as bytes, into *out* (see :func:`sudokit.formats.output`); a run with *resume*
    must have the same *params*, source (path, size, modification time) and *shard_rows*.
    *progress* gets the output line count of each shard. (A *mapper* gets tasks whose
    payload is a shard's bytes.)

    >>> import tempfile, os, functools
    >>> with tempfile.TemporaryDirectory() as d:
    ...     src, dst = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
    ...     _ = open(src, "w").write("...43...2......1\\n11" + "." * 14 + "\\n")
    ...     map_file(solve_lines, src, dst, shard_rows=1)
    ...     open(dst).read().split()
    2
    ['1234341221434321', '!invalid']
    """
    source, out = Path(source), os.fspath(out)
    st = os.stat(source)
    fn_name = getattr(getattr(fn, "func", fn), "__qualname__", repr(fn))
    run_params = {
        "source": str(source.resolve()),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "fn": fn_name,
        "shard_rows": shard_rows,
        "version": __version__,
        **(params or {}),
    }
    with _work_manifest(out, run_params, resume=resume, force=force) as manifest:
        shards: list[int] = []

        def tasks() -> Iterator[tuple[int, bytes]]:
            for shard, block in _byte_chunks(source, shard_rows):
                shards.append(shard)
                yield shard, block

        work = functools.partial(_apply_block, fn)
        run_shards(work, tasks(), manifest, mapper=mapper or local_mapper(jobs), progress=progress)
        with output_bytes(out) as f:
            written = manifest.copy(shards, f)
    return written


def solve_lines(
    lines: list[str], limit: int = 2, budget: int | None = None, unique: bool = False
) -> list[str]:
    """Solve one puzzle per line: its solution, or a marker line ``!none``, ``!invalid``,
    ``!gave-up`` (``!multiple`` with *unique*; otherwise the first solution), as
    ``sudokit solve`` writes them. Blank lines and ``#`` comments give no output.

    >>> solve_lines(["...43...2......1", "", "bad", "..34..1...4..3.1"], unique=True)
    ['1234341221434321', '!invalid', '!multiple']
    """
    puzzles = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    out = []
    for r in solve_many(puzzles, limit=limit, budget=budget, jobs=1):
        if r.solution is not None and (r.status is Status.UNIQUE or not unique):
            out.append(str(r.solution))
        else:
            out.append(f"!{r.status}")
    return out


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
) -> tuple[int, int]:
    """Solve a file of one puzzle per line into *out* with :func:`solve_lines`, in resumable
    shards on *jobs* processes; return (lines written, marker lines among them).

    With *resume* (the default) an earlier interrupted run of the same file and options is
    continued, and a fresh run started when there is none.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     src, dst = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
    ...     _ = open(src, "w").write("...43...2......1\\n....\\n..34..1...4..3.1\\n")
    ...     solve_file(src, dst, unique=True)
    (3, 2)
    """
    fn = functools.partial(solve_lines, budget=budget, unique=unique)
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
    )
    return written, _count_markers(out)


def marker_rows(
    source: str | os.PathLike[str], out: str | os.PathLike[str]
) -> Iterator[tuple[int, int, str, str]]:
    """The rows of *out* -- a :func:`solve_file` or :func:`map_file` run of
    :func:`solve_lines` over *source* -- that are marker lines (``!none``, ``!invalid``,
    ...), as ``(input line number, puzzle number, input line, status)``: what a report of
    one line per bad record needs. Streams both files (one output row per input line that
    is not blank or a ``#`` comment, as :func:`solve_lines` makes them).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     src, dst = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
    ...     _ = open(src, "w").write("# x\\n...43...2......1\\n\\n11" + "." * 14 + "\\n")
    ...     _ = solve_file(src, dst)
    ...     list(marker_rows(src, dst))
    [(4, 2, '11..............', 'invalid')]
    """
    with open(source, "rb") as lines, open(out, encoding="utf-8") as rows:
        number = 0
        for lineno, raw in enumerate(lines, 1):
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            number += 1
            row = rows.readline()
            if not row:
                return
            if row.startswith("!"):
                yield lineno, number, text, row[1:].strip()


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
        try:
            grid = Grid.parse(text)
            obj = rate(grid, budget_s=budget_s).to_json(grid)
        except SudokuError as exc:
            obj = {"puzzle": text, "error": str(exc)}
        out.append(json.dumps(obj))
    return out


# -- datasets -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DatasetSpec:
    """What a dataset holds: *n* generated puzzles seeded by *seed*, and per-row options.

    ``difficulty`` is a level name or an SE range ``(lo, hi)``: the generator targets it and
    the rows are rated. ``rate`` adds the rating without a target. ``augment`` adds that many
    random isomorphs after each puzzle (column ``isomorph``: 0 for the original). ``dedupe``
    drops a puzzle equivalent to an earlier one (9x9 only).
    """

    n: int
    seed: int
    size: int = 9
    symmetry: str = "none"
    rate: bool = False
    difficulty: str | tuple[float, float] | None = None
    augment: int = 0
    dedupe: bool = False

    def columns(self) -> tuple[str, ...]:
        """The output columns, in order."""
        cols = COLUMNS + (("isomorph",) if self.augment else ())
        return cols + (RATED_COLUMNS if self.rated else ())

    @property
    def rated(self) -> bool:
        """True when the rows carry a rating."""
        return self.rate or self.difficulty is not None

    def params(self) -> dict[str, Any]:
        """The parameters a resumed run must match (JSON-compatible)."""
        d = asdict(self)
        if isinstance(self.difficulty, tuple):
            d["difficulty"] = list(self.difficulty)
        d["version"] = __version__
        return d


def dataset_shard_rows(n: int) -> int:
    """Puzzles per shard of an *n*-puzzle dataset unless told otherwise: about a 64th of the
    run, between 100 and :data:`SHARD_ROWS` -- enough shards that two workers finish together
    (the last shard of a run is its tail), few enough that the per-shard cost stays small.

    >>> dataset_shard_rows(1000), dataset_shard_rows(10_000), dataset_shard_rows(10**6)
    (100, 156, 1000)
    """
    return max(100, min(SHARD_ROWS, n // 64))


def dataset_chunks(
    spec: DatasetSpec, part: tuple[int, int] | None = None, size: int | None = None
) -> Iterator[tuple[int, range]]:
    """The shards of *spec*'s run (or of the *part* i/k of it) of *size* puzzles (default
    :func:`dataset_shard_rows`), lazily: see :func:`chunk_ranges`.

    >>> list(dataset_chunks(DatasetSpec(n=2500, seed=1), (2, 2), 1000))
    [(1, range(1250, 2000)), (2, range(2000, 2500))]
    """
    return chunk_ranges(spec.n, size or dataset_shard_rows(spec.n), part)


def canonical_key(grid: Grid) -> str:
    """A 32-hex-digit digest of *grid*'s canonical form: equal exactly for equivalent 9x9
    grids (up to a 2**-128 chance of collision), and four times smaller to keep than the form.

    >>> from sudokit.transform import transpose
    >>> g = Grid.parse("4.....8.5.3..........7......2.....6....."
    ...                "8.4......1.......6.3.7.5..2.....1.4......")
    >>> canonical_key(g) == canonical_key(transpose(g.shape).apply(g)), len(canonical_key(g))
    (True, 32)
    """
    form = str(canonical(grid)).encode()
    return hashlib.blake2b(form, digest_size=16).hexdigest()


def dataset_rows(spec: DatasetSpec, indices: range) -> list[dict[str, Any]]:
    """The rows of puzzles *indices* of *spec*'s run (a worker's job; deterministic).

    Puzzle ``j`` is puzzle ``j`` of :func:`sudokit.generate_many` with ``seed=spec.seed``
    (that is ``generate(seed=derive_seed(spec.seed, j))``), so any shard can be computed
    anywhere on its own. Each puzzle is solved again by the search engine, which must find
    the generator's solution and gives the guess count. *indices* is a range of
    non-negative indices.

    >>> rows = dataset_rows(DatasetSpec(n=9, seed=4, size=4, augment=1), range(7, 9))
    >>> [(r["seed"] == derive_seed(4, 7 + i // 2), r["isomorph"]) for i, r in enumerate(rows)]
    [(True, 0), (True, 1), (True, 0), (True, 1)]
    """
    rows: list[dict[str, Any]] = []
    pairs: list[tuple[Grid, Grid]] = []
    run = generate_many(
        indices.stop,
        seed=spec.seed,
        size=spec.size,
        symmetry=spec.symmetry,
        difficulty=spec.difficulty,
    )
    for j, g in zip(indices, run[indices.start : indices.stop : indices.step], strict=True):
        s = derive_seed(spec.seed, j)
        key = canonical_key(g.puzzle) if spec.dedupe else ""
        rng = random.Random(f"sudokit.augment:{s}")
        for k in range(spec.augment + 1):
            p, sol, sym = g.puzzle, g.solution, g.symmetry
            if k:
                t = random_transform(p.shape, rng)
                p, sol = t.apply(p), t.apply(sol)
                sym = sym if is_symmetric(p, sym) else "none"
            row: dict[str, Any] = {
                "puzzle": str(p),
                "solution": str(sol),
                "clues": p.clues,
                "guesses": 0,
                "symmetry": sym,
                "seed": s,
            }
            if spec.augment:
                row["isomorph"] = k
            if spec.dedupe:
                row[_KEY] = key
            rows.append(row)
            pairs.append((p, sol))
    if spec.rated:
        from .rating import rate
    found = solve_many((p for p, _ in pairs), jobs=1)
    for row, (p, sol), result in zip(rows, pairs, found, strict=True):
        if result.status is not Status.UNIQUE or result.solution != sol:
            raise SudokuError(f"generated puzzle {str(p)!r} does not solve to its solution")
        row["guesses"] = result.guesses
        if spec.rated:
            rating = rate(p)
            row["rating"] = round(rating.se, 1)
            row["level"] = rating.level
    return rows


def _shard_encoding(fmt: str) -> str:
    """How the shards of a dataset in *fmt* hold their rows: as the output's own lines (csv,
    jsonl: the merge then copies bytes) or as JSON objects (``json``: parquet's rows)."""
    return fmt if fmt in ("csv", "jsonl") else "json"


def _csv_header(columns: Sequence[str]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(columns)
    return buf.getvalue()


def _dataset_shard(args: tuple[DatasetSpec, range, str]) -> str:
    """Worker body: one shard's rows as one text, a line per row (module level, so it pickles).

    In the ``json`` encoding a line is the row's JSON object (with the de-duplication key);
    in ``csv`` and ``jsonl`` it is the row as the output file has it, and with de-duplication
    it starts with the key of an original puzzle and a tab (just a tab for an isomorph).

    >>> text = _dataset_shard((DatasetSpec(n=2, seed=1, size=4), range(2), "csv"))
    >>> [len(line.split(",")) for line in text.splitlines()]
    [6, 6]
    """
    spec, indices, encoding = args
    rows = dataset_rows(spec, indices)
    if encoding == "json":
        return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
    columns = spec.columns()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for row in rows:
        if spec.dedupe:
            buf.write(f"{row[_KEY] if row.get('isomorph', 0) == 0 else ''}\t")
        if encoding == "csv":
            writer.writerow([row[c] for c in columns])
        else:
            # seeds are 64-bit: a string in JSON, as `generate` writes them (JSON numbers
            # are exact only up to 2**53)
            obj = {c: str(row[c]) if c == "seed" else row[c] for c in columns}
            buf.write(json.dumps(obj) + "\n")
    return buf.getvalue()


def _copy_kept(manifest: Manifest, shards: Iterable[int], dst: IO[bytes]) -> int:
    """Copy the lines of *shards* (with keys, see :func:`_dataset_shard`) to *dst* without
    their keys, dropping puzzles equivalent to an earlier one; return the rows kept."""
    seen: set[bytes] = set()
    keep = True
    rows = 0
    for shard in shards:
        out = []
        for line in manifest.read(shard):
            key, _, text = line.partition("\t")
            if key:  # an original puzzle; its isomorphs (no key) follow its fate
                digest = bytes.fromhex(key)
                keep = digest not in seen
                seen.add(digest)
            if keep:
                out.append(text + "\n")
        dst.write("".join(out).encode())
        rows += len(out)
    return rows


def merge_rows(
    manifest: Manifest, shards: Iterable[int], *, dedupe: bool
) -> Iterator[dict[str, Any]]:
    """The rows of *shards* in order, with later puzzles equivalent to earlier ones dropped
    when *dedupe* (an original and its isomorphs stand or fall together).

    Memory: the set of 16-byte digests seen (about 100 bytes per distinct puzzle).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     m = Manifest(d + "/w", {}, resume=False)
    ...     _ = m.write(0, ['{"puzzle": "a", "_key": "01"}', '{"puzzle": "b", "_key": "01"}'])
    ...     [r["puzzle"] for r in merge_rows(m, [0], dedupe=True)]
    ['a']
    """
    seen: set[bytes] = set()
    keep = True
    for shard in shards:
        for line in manifest.read(shard):
            row = json.loads(line)
            key = row.pop(_KEY, None)
            if dedupe and key is not None:
                if row.get("isomorph", 0) == 0:
                    digest = bytes.fromhex(key)
                    keep = digest not in seen
                    seen.add(digest)
                if not keep:
                    continue
            yield row


def _write_parquet(
    path: IO[bytes], columns: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> int:
    """Write *rows* to a Parquet stream, 50,000 rows per row group; return the row count."""
    import pyarrow as pa  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped,import-not-found,unused-ignore]

    types = {"clues": pa.int32(), "guesses": pa.int64(), "seed": pa.uint64()}
    types |= {"isomorph": pa.int32(), "rating": pa.float64()}
    schema = pa.schema([(c, types.get(c, pa.string())) for c in columns])
    count = 0
    todo = iter(rows)
    with pq.ParquetWriter(path, schema) as writer:
        while batch := list(itertools.islice(todo, 50_000)):
            cols = {c: [r[c] for r in batch] for c in columns}
            writer.write_table(pa.table(cols, schema=schema))
            count += len(batch)
    return count


def write_dataset(
    out: str | os.PathLike[str],
    spec: DatasetSpec,
    *,
    fmt: str = "csv",
    part: tuple[int, int] | None = None,
    mapper: Mapper[Any, Lines] | None = None,
    jobs: int = 1,
    resume: bool = False,
    force: bool = False,
    shard_rows: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Generate *spec*'s dataset (or its *part* i/k) into the file *out*; return the row count.

    Shards of *shard_rows* puzzles (default :func:`dataset_shard_rows`) go to the work
    directory ``<out>.parts`` (see :class:`Manifest`), their rows already formatted by the
    workers for CSV and JSON Lines; when all are done they are copied in order into a
    temporary file that replaces *out*, and the work directory is removed. With *resume*,
    the shards an interrupted run finished are kept (its options must be the same);
    otherwise an old work directory with finished shards is discarded only with *force*
    (else :class:`~sudokit.errors.SudokuError`). *out* is written as
    :func:`sudokit.formats.output` writes: ``-`` is standard output, a symlink or a device
    is written through, a regular file replaced only when complete. The rows do not depend
    on *jobs*, *mapper*, *shard_rows* or interruptions. With ``part``, de-duplication only
    sees the rows of that part.

    :param mapper: how to run shards (default: :func:`local_mapper` with *jobs* processes;
        :func:`sudokit.dask.mapper` for a cluster).
    :param progress: called with the number of rows (before de-duplication) of each shard.
    :raises SudokuError: for an unknown format, de-duplication of a size other than 9, or a
        resume with other options.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_dataset(os.path.join(d, "p.csv"), DatasetSpec(n=5, seed=1, size=4))
    ...     open(os.path.join(d, "p.csv")).readline().strip()
    5
    'puzzle,solution,clues,guesses,symmetry,seed'
    """
    if fmt not in FORMATS:
        raise SudokuError(f"unknown dataset format {fmt!r}, expected one of {', '.join(FORMATS)}")
    if spec.dedupe and spec.size != 9:
        raise SudokuError("de-duplication needs the 9x9 canonical form (size 9)")
    if spec.n < 0 or spec.augment < 0:
        raise SudokuError("the row count and --augment must be >= 0")
    if fmt == "parquet":
        try:
            import pyarrow  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
        except ImportError:
            raise SudokuError(
                "parquet output needs pyarrow: pip install 'sudokit[parquet]'"
            ) from None
    # The generator checks the options here, once, before any work starts (and what the
    # workers need is then imported before they are forked, not once in each).
    generate_many(0, size=spec.size, symmetry=spec.symmetry, difficulty=spec.difficulty)
    out = os.fspath(out)
    size = shard_rows or dataset_shard_rows(spec.n)
    encoding = _shard_encoding(fmt)
    params = {
        **spec.params(),
        "part": list(part) if part else None,
        "shard_rows": size,
        "shard_encoding": encoding,
    }
    with _work_manifest(out, params, resume=resume, force=force) as manifest:
        run_shards(
            _dataset_shard,
            ((c, (spec, r, encoding)) for c, r in dataset_chunks(spec, part, size)),
            manifest,
            mapper=mapper or local_mapper(jobs),
            progress=progress,
        )
        shards = (c for c, _ in dataset_chunks(spec, part, size))
        with output_bytes(out) as f:
            if encoding == "json":
                rows = _write_parquet(
                    f, spec.columns(), merge_rows(manifest, shards, dedupe=spec.dedupe)
                )
            else:
                if fmt == "csv":
                    f.write(_csv_header(spec.columns()).encode())
                rows = _copy_kept(manifest, shards, f) if spec.dedupe else manifest.copy(shards, f)
    return rows


@contextlib.contextmanager
def _work_manifest(
    out: str, params: Mapping[str, Any], *, resume: bool, force: bool
) -> Iterator[Manifest]:
    """The :class:`Manifest` of a run writing *out*: in ``<out>.parts`` for a file (kept
    when the run fails after finishing a shard, to be resumed; removed once *out* is
    written); for standard output (``-``) or anything else that is not a regular file (a
    pipe, a device) in a temporary directory, and then *resume* is refused: there is no
    place the next run would find the shards."""
    if out == "-" or writes_through(out):
        if resume:
            raise SudokuError(f"{out}: a run writing to a pipe or device cannot be resumed")
        with tempfile.TemporaryDirectory(prefix="sudokit-") as tmp:
            yield Manifest(os.path.join(tmp, "parts"), params, resume=False)
        return
    target = Path(os.path.realpath(out))
    manifest = Manifest(
        target.with_name(target.name + ".parts"), params, resume=resume, force=force
    )
    try:
        yield manifest
    except BaseException:
        if not manifest.done:  # nothing to resume: leave no work directory behind
            manifest.remove()
        raise
    manifest.remove()


def read_rows(path: str | os.PathLike[str], fmt: str | None = None) -> Iterator[dict[str, Any]]:
    """The rows of a dataset file written by :func:`write_dataset` (values as written: text
    for CSV).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "p.jsonl")
    ...     _ = write_dataset(p, DatasetSpec(n=2, seed=3, size=4), fmt="jsonl")
    ...     [r["clues"] > 0 for r in read_rows(p)]
    [True, True]
    """
    fmt = fmt or Path(path).suffix.lstrip(".")
    if fmt == "parquet":
        import pyarrow.parquet as pq  # type: ignore[import-untyped,import-not-found,unused-ignore]

        for batch in pq.ParquetFile(str(path)).iter_batches():
            yield from batch.to_pylist()
        return
    with open(path, encoding="utf-8", newline="") as f:
        if fmt == "jsonl":
            for line in f:
                yield json.loads(line)
        else:
            yield from csv.DictReader(f)
