"""Shards, manifests and resumable file runs: how a big job is cut, kept and put back together.

A big job is cut into *shards*: contiguous ranges of a global index (generated puzzle ``j``, or
line ``j`` of an input file). Each shard is computed on its own -- inline, in worker processes
(:func:`sudokit.parallel.unordered_map`), or on a Dask cluster (:mod:`sudokit.dask`) -- and its
lines are written to a *work directory* atomically (through :func:`sudokit.formats.output_bytes`,
the one rule for writing a file: a temporary file, then a rename); an append-only manifest
records every finished shard. An interrupted run started again with ``resume=True`` skips the
shards the manifest lists, so no row is lost or written twice, and the final merge reads the
shards in index order, so the output does not depend on how many workers ran, in what order
they finished, or whether the run was interrupted.

The one rule for "the i-th of k parts" is here too (:func:`parse_part`, :func:`part_range`):
``generate --shard``, ``dataset --shard`` and :func:`sudokit.generate_many` cut a run the same
way.

>>> part_range(10, parse_part("2/3"))
range(3, 6)
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple, TypeVar

from ._version import __version__
from .errors import ParseError, SudokuError
from .formats import bounded_lines, line_text, output_bytes
from .formats._files import cannot_create, writes_through
from .parallel import WorkerDied, pool_size, unordered_map

__all__ = [
    "NOT_TEXT",
    "SHARD_ROWS",
    "Lines",
    "Manifest",
    "Mapper",
    "Noted",
    "chunk_ranges",
    "local_mapper",
    "map_file",
    "parse_part",
    "part_range",
    "run_shards",
    "split_lines",
    "work_manifest",
]

log = logging.getLogger(__name__)

P = TypeVar("P")
R = TypeVar("R")

#: A way to run shards: ``mapper(fn, tasks)`` computes ``fn(payload)`` for each
#: ``(shard, payload)`` of *tasks* and yields ``(shard, result)`` in any order.
Mapper = Callable[[Callable[[P], R], Iterable[tuple[int, P]]], Iterator[tuple[int, R]]]
#: What a shard computes: its output lines, or (cheaper to send from a worker process and to
#: write) one text of complete lines, each ending with a line feed.
Lines = Sequence[str] | str


class Noted(NamedTuple):
    """A shard's output with notes: its *lines* (as :data:`Lines`) and the 0-based rows of
    them the run reports afterwards, kept in the manifest so that a resumed run reports them
    too (``solve --resume`` notes the puzzles with several solutions: their row is a solution
    like any other)."""

    lines: Lines
    notes: tuple[int, ...]


#: What :func:`run_shards` writes of a shard: lines, with or without notes.
S = TypeVar("S", bound=Lines | Noted)


#: Rows per shard unless told otherwise: small enough that an interrupted run loses little,
#: large enough that the per-shard cost (a file, two syncs, a manifest line, a task) stays
#: negligible.
SHARD_ROWS = 1000

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
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    i, k = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    if not 1 <= i <= k:
        raise SudokuError(f"shard must be i/k with 1 <= i <= k, got {text!r}")
    return i, k


def part_range(total: int, part: tuple[int, int] | None) -> range:
    """The indices of the part ``(i, k)`` -- the i-th of k contiguous slices, 1-based -- of a
    run of *total* items (all of them for ``None``): the k parts in order are the whole run,
    and their sizes differ by at most one.

    >>> [part_range(10, (i, 3)) for i in (1, 2, 3)]
    [range(0, 3), range(3, 6), range(6, 10)]
    >>> part_range(10, (0, 3))
    Traceback (most recent call last):
    ...
    sudokit.errors.SudokuError: shard must be i/k with 1 <= i <= k, got 0/3
    """
    if part is None:
        return range(total)
    i, k = part
    if not 1 <= i <= k:
        raise SudokuError(f"shard must be i/k with 1 <= i <= k, got {i}/{k}")
    return range(total * (i - 1) // k, total * i // k)


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
    indices = part_range(total, part)
    return _chunks(indices.start, indices.stop, size)


def _chunks(lo: int, hi: int, size: int) -> Iterator[tuple[int, range]]:
    for c in itertools.count(lo // size):
        if c * size >= hi:
            return
        r = range(max(lo, c * size), min(hi, (c + 1) * size))
        if r:
            yield c, r


# -- running shards -------------------------------------------------------------------------


def local_mapper(jobs: int = 1) -> Mapper[Any, Any]:
    """A :data:`Mapper` running shards inline (*jobs* 1) or in *jobs* worker processes
    (0 = every core), yielding each shard as soon as it is done: a
    :func:`functools.partial` of :func:`sudokit.parallel.unordered_map` (its rules: at most
    ``2 * jobs`` shards in flight, Ctrl-C terminates the workers at once, workers end with
    this process).

    >>> sorted(local_mapper(1)(abs, [(0, -3), (1, 4)]))
    [(0, 3), (1, 4)]
    """
    return functools.partial(unordered_map, jobs=pool_size(jobs))


class Manifest:
    """The work directory of a sharded run: shard files and the manifest of finished ones.

    The manifest is ``manifest.jsonl``: a first line with the run's parameters, then one line
    per finished shard (``{"shard": c, "rows": r, "sha256": ..., "notes": [...]}``; notes only
    when it has some: :class:`Noted`), appended and synced after the shard's file is in place.
    A torn last line (a run killed mid-write) is ignored, and a shard listed without its file
    is done again.
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
        self.notes: dict[int, tuple[int, ...]] = {}
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
            try:
                self.dir.mkdir()
            except OSError as exc:
                raise OSError(exc.errno, cannot_create(exc, str(self.dir)), str(self.dir)) from None
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
                self.notes[int(entry["shard"])] = tuple(entry.get("notes", ()))
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

    def write(self, shard: int, lines: Lines | Noted) -> int:
        """Write a shard's lines (a list, or one text of complete lines, or those with notes)
        atomically, then record it as finished; return its row count."""
        notes: tuple[int, ...] = ()
        if isinstance(lines, Noted):
            lines, notes = lines
        path = self.shard_path(shard)
        text = lines if isinstance(lines, str) else "".join(line + "\n" for line in lines)
        if text and not text.endswith("\n"):
            raise ValueError(f"shard {shard}: its text must end with a line feed")
        rows = text.count("\n")
        data = text.encode()
        with output_bytes(str(path)) as f:  # the one atomic write: temporary file, rename
            f.write(data)
        entry: dict[str, object] = {"shard": shard, "rows": rows}
        entry["sha256"] = hashlib.sha256(data).hexdigest()
        if notes:
            entry["notes"] = list(notes)
        self._append(entry)
        self.done[shard] = rows
        self.notes[shard] = notes
        return rows

    def read(self, shard: int) -> Iterator[str]:
        """The lines of a finished shard."""
        with open(self.shard_path(shard), encoding="utf-8", newline="\n") as f:
            for line in f:
                yield line.rstrip("\n")

    def copy(
        self, shards: Iterable[int], dst: IO[bytes], noted: Callable[[int], object] | None = None
    ) -> int:
        """Append the bytes of the finished *shards*, in order, to *dst*; return their rows.
        *noted* is called with the row of *dst*'s part (0-based, in order) of every note."""
        rows = 0
        for shard in shards:
            with open(self.shard_path(shard), "rb") as f:
                shutil.copyfileobj(f, dst, 1 << 20)
            if noted is not None:
                for row in self.notes.get(shard, ()):
                    noted(rows + row)
            rows += self.done[shard]
        return rows

    def remove(self) -> None:
        """Delete the work directory (after a successful merge)."""
        shutil.rmtree(self.dir, ignore_errors=True)


def run_shards(
    fn: Callable[[P], S],
    tasks: Iterable[tuple[int, P]],
    manifest: Manifest,
    *,
    mapper: Mapper[P, S] | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Compute every shard of *tasks* the manifest does not list as finished.

    ``fn(payload)`` returns the shard's output lines (a list, or one text of complete lines:
    the cheaper thing for a worker process to send; either with notes: :class:`Noted`); each
    shard is written by :meth:`Manifest.write` as soon as it is computed. *progress* is called
    with the number of rows of each finished shard (those finished by an earlier run first).

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
    fn: Callable[[P], S],
    tasks: Iterable[tuple[int, P]],
    manifest: Manifest,
    run: Mapper[P, S],
    progress: Callable[[int], None] | None,
) -> None:
    if progress is not None and manifest.done:
        progress(sum(manifest.done.values()))
    todo = ((shard, payload) for shard, payload in tasks if shard not in manifest.done)
    try:
        for shard, lines in run(fn, todo):
            rows = manifest.write(shard, lines)
            if progress is not None:
                progress(rows)
    except WorkerDied as exc:
        raise exc.doing(_lost_shards(exc.keys, manifest)) from None


def _lost_shards(lost: list[int], manifest: Manifest) -> str:
    """What the shards *lost* with a worker were, and what is kept of the run.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     m = Manifest(d + "/w", {"run": 1}, resume=False)
    ...     _lost_shards([2, 1], m).replace(d, "D")
    'computing shards 1, 2 in D/w; no shard was finished'
    """
    names = ", ".join(str(shard) for shard in sorted(lost))
    done = len(manifest.done)
    kept = "no shard was finished"
    if done:
        verb = "is" if done == 1 else "are"
        kept = (
            f"the {done} finished shard{'s' * (done != 1)} {verb} kept: run it again with --resume"
        )
    return f"computing shard{'s' * (len(lost) != 1)} {names} in {manifest.dir}; {kept}"


@contextlib.contextmanager
def work_manifest(
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


# -- one function over the lines of a file ----------------------------------------------------


def _byte_chunks(path: Path, size: int) -> Iterator[tuple[int, bytes]]:
    """The file's shards of *size* lines, as bytes: the reading process only cuts the file
    (at line feeds, in C); decoding and splitting are the worker's (:func:`_apply_block`)."""
    with open(path, "rb") as f:
        # In bounded memory: a line longer than formats.MAX_LINE comes as its first bytes, one
        # bad record (the CLI names it from its own bounded read, cli.common.puzzle_lines).
        lines = (raw if cut is None else raw + b"\n" for raw, cut in bounded_lines(f))
        for shard in itertools.count():
            block = b"".join(itertools.islice(lines, size))
            if not block:
                return
            yield shard, block


#: What a line that is not text becomes for a :func:`map_file` function: U+FFFD, the character
#: that stands for undecodable input, alone (one bad record: never blank, never a comment).
NOT_TEXT = "\ufffd"


def split_lines(data: bytes) -> list[str] | ParseError:
    """The lines of *data* (one line or many) as :func:`map_file` hands them to its function
    (a text file's reading: UTF-8, ends ``\\n``, ``\\r\\n`` or a lone ``\\r`` removed), or the
    :class:`~sudokit.errors.ParseError` that says why *data* is not text
    (:func:`sudokit.formats.line_text`, the rule and message of every puzzle reader).

    >>> split_lines(b"ab\\r\\ncd\\ref\\n\\n"), split_lines(b"ab\\n1.\\xff\\n")
    (['ab', 'cd', 'ef', ''], ParseError('column 6: not UTF-8 text (byte 0xff)'))
    """
    text = line_text(data)
    if isinstance(text, ParseError):
        return text
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.removesuffix("\n").split("\n")


def _apply_block(fn: Callable[[list[str]], Sequence[str] | Noted], block: bytes) -> str | Noted:
    """Worker body of :func:`map_file`: *fn* over the lines of *block* (:func:`split_lines`;
    a line that is not text is one bad record for *fn*, :data:`NOT_TEXT`), its output lines as
    one text.

    >>> _apply_block(lambda lines: [s.upper() for s in lines], b"ab\\r\\ncd\\n\\nef")
    'AB\\nCD\\n\\nEF\\n'
    >>> _apply_block(lambda lines: [repr(s) for s in lines], b"# \\xe9\\nab\\n")
    "'\\ufffd'\\n'ab'\\n"
    """
    lines = split_lines(block)
    if isinstance(lines, ParseError):  # some line is not text: each line on its own
        lines = []
        for line in block.removesuffix(b"\n").split(b"\n"):
            found = split_lines(line)
            lines += [NOT_TEXT] if isinstance(found, ParseError) else found
    out = fn(lines)
    if isinstance(out, Noted):
        return Noted("".join(line + "\n" for line in out.lines), out.notes)
    return "".join(line + "\n" for line in out)


def map_file(
    fn: Callable[[list[str]], Sequence[str] | Noted],
    source: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    params: Mapping[str, Any] | None = None,
    shard_rows: int = 10_000,
    mapper: Mapper[bytes, Lines | Noted] | None = None,
    jobs: int = 1,
    resume: bool = False,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
    noted: Callable[[int], object] | None = None,
) -> int:
    """Apply *fn* to the lines of the file *source*, a shard of *shard_rows* lines at a time,
    and write the output lines in order to *out* (resumable; returns the output line count).

    ``fn(lines)`` gets a shard's lines (line ends removed) and returns its output lines; it
    must be picklable for worker processes (a module-level function, or a
    :func:`functools.partial` of one, such as :func:`sudokit.batch.solve_lines`).
    The input is read once, streaming, and cut into shards as bytes: the workers decode the
    lines and send back one text per shard, so the calling process does next to nothing per
    line. Shards go to ``<out>.parts`` exactly as for :func:`sudokit.dataset.write_dataset`
    and are then copied, as bytes, into *out* (see :func:`sudokit.formats.output`); a run
    with *resume* must have the same *params*, source (path, size, modification time) and
    *shard_rows*.
    *progress* gets the output line count of each shard. When *fn* returns :class:`Noted`
    output, *noted* gets the output row (0-based) of every note, in order, once *out* is
    written -- those of shards done by an earlier run too. (A *mapper* gets tasks whose
    payload is a shard's bytes.)

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     src, dst = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
    ...     _ = open(src, "w").write("ab\\ncd\\nef\\n")
    ...     map_file(lambda lines: [s.upper() for s in lines], src, dst, shard_rows=2)
    ...     open(dst).read().split()
    3
    ['AB', 'CD', 'EF']
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
    with work_manifest(out, run_params, resume=resume, force=force) as manifest:
        shards: list[int] = []

        def tasks() -> Iterator[tuple[int, bytes]]:
            for shard, block in _byte_chunks(source, shard_rows):
                shards.append(shard)
                yield shard, block

        work = functools.partial(_apply_block, fn)
        run_shards(work, tasks(), manifest, mapper=mapper or local_mapper(jobs), progress=progress)
        with output_bytes(out) as f:
            written = manifest.copy(shards, f, noted)
    return written
