"""Datasets: generated puzzles as rows of a CSV, JSON Lines or Parquet file, in resumable shards.

Row ``j`` of a dataset is puzzle ``j`` of :func:`sudokit.generate_many` with the run's seed,
solved again by the search engine (the guess count) and, on request, rated, augmented with
random isomorphs and de-duplicated under the Sudoku symmetry group. The run is cut into shards
and kept in a work directory (:mod:`sudokit.shards`), so it can run on several cores or a Dask
cluster and be resumed after a kill, always giving the same bytes.

The process that runs the job stays nearly idle, so two workers go about twice as fast as one
on two cores: workers receive a shard's index range and return its rows as one text, already
formatted as the output file has it (CSV and JSON Lines rows through
:class:`sudokit.formats.Writer`, as every output of those formats; JSON Lines keep typed
values -- numbers stay numbers, the 64-bit seed a string, as ``generate`` writes it; plain
JSON objects only for Parquet); the merge then copies bytes.

Memory stays flat whatever the size of the run: at most a few shards are in flight at a time
and the merge streams. The one exception is de-duplication (``dedupe=True``): it keeps a set of
16-byte digests of the canonical forms seen so far, about 100 bytes per distinct puzzle (some
100 MB for a million puzzles).

>>> spec = DatasetSpec(n=3, seed=7, size=4)
>>> rows = [row for _, chunk in dataset_chunks(spec) for row in dataset_rows(spec, chunk)]
>>> [sorted(rows[0]) == sorted(COLUMNS), len(rows)]
[True, 3]
>>> all(Grid.parse(r["solution"]).is_solution(Grid.parse(r["puzzle"])) for r in rows)
True
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import os
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar

from ._record import _Record
from ._version import __version__
from .errors import SudokuError
from .formats import Writer, output_bytes
from .generator import derive_seed, generate_many, is_symmetric
from .grid import Grid
from .shards import (
    SHARD_ROWS,
    Lines,
    Manifest,
    Mapper,
    chunk_ranges,
    local_mapper,
    run_shards,
    work_manifest,
)
from .solver import SolveResult, Status, solve_many
from .transform import canonical, random_transform

__all__ = [
    "COLUMNS",
    "FORMATS",
    "RATED_COLUMNS",
    "DatasetSpec",
    "canonical_key",
    "dataset_chunks",
    "dataset_rows",
    "dataset_shard_rows",
    "merge_rows",
    "read_rows",
    "write_dataset",
]

#: The columns of a dataset row (``rating`` and ``level`` only when rated; ``isomorph`` only
#: with augmentation).
COLUMNS = ("puzzle", "solution", "clues", "guesses", "symmetry", "seed")
RATED_COLUMNS = ("rating", "level")
#: Output formats of :func:`write_dataset` (``parquet`` needs pyarrow, the ``parquet`` extra).
FORMATS = ("csv", "jsonl", "parquet")

T = TypeVar("T")

_KEY = "_key"  # hidden field: digest of the canonical form (de-duplication)


class DatasetSpec(_Record):
    """What a dataset holds: *n* generated puzzles seeded by *seed*, and per-row options.

    ``difficulty`` is a level name or an SE range ``(lo, hi)``: the generator targets it and
    the rows are rated. ``rate`` adds the rating without a target. ``augment`` adds that many
    random isomorphs after each puzzle (column ``isomorph``: 0 for the original). ``dedupe``
    drops a puzzle equivalent to an earlier one (9x9 only).
    """

    __slots__ = __match_args__ = (
        "n",
        "seed",
        "size",
        "symmetry",
        "rate",
        "difficulty",
        "augment",
        "dedupe",
    )
    n: int
    seed: int
    size: int
    symmetry: str
    rate: bool
    difficulty: str | tuple[float, float] | None
    augment: int
    dedupe: bool

    def __init__(
        self,
        n: int,
        seed: int,
        size: int = 9,
        symmetry: str = "none",
        rate: bool = False,
        difficulty: str | tuple[float, float] | None = None,
        augment: int = 0,
        dedupe: bool = False,
    ) -> None:
        self._set(n, seed, size, symmetry, rate, difficulty, augment, dedupe)

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
        d = self._asdict()
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
    return [row for row, _ in _dataset_records(spec, indices)]


def _dataset_records(
    spec: DatasetSpec, indices: range
) -> list[tuple[dict[str, Any], tuple[Grid, Grid]]]:
    """:func:`dataset_rows` with each row's puzzle and solution as grids (what a
    :class:`~sudokit.formats.Writer` writes)."""
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
        row["guesses"] = _checked_guesses(p, sol, result)
        if spec.rated:
            rating = rate(p)
            row["rating"] = round(rating.se, 1)
            row["level"] = rating.level
    return list(zip(rows, pairs, strict=True))


def _checked_guesses(puzzle: Grid, solution: Grid, result: SolveResult) -> int:
    """The ``guesses`` column of a generated *puzzle*: the guesses of the engine's *result*,
    which must prove the generator's *solution* unique. A search that ran out of guesses has
    no count to give (its guesses are only a lower bound), and says so.

    >>> from sudokit import solve
    >>> g, sol = Grid.parse("..4..43.1......."), Grid.parse("3142243113244213")
    >>> _checked_guesses(g, sol, solve(g)) >= 0
    True
    >>> gave_up = solve("." * 16, budget=1)  # a search stopped after one guess
    >>> _checked_guesses(g, sol, gave_up)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.SudokuError: the search of generated puzzle '..4..43.1.......' gave up after ...
    """
    if not result.complete:
        raise SudokuError(
            f"the search of generated puzzle {str(puzzle)!r} {result.error}: "
            "its guess count is not known"
        )
    if result.status is not Status.UNIQUE or result.solution != solution:
        raise SudokuError(f"generated puzzle {str(puzzle)!r} does not solve to its solution")
    return result.guesses


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
    records = _dataset_records(spec, indices)
    if encoding == "json":
        return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row, _ in records)
    columns = spec.columns()
    buf = io.StringIO()
    # Rows as every output of the format is written; the merge writes the CSV header once (a
    # writer that follows one record writes no header of its own). JSON Lines keep typed
    # values (numbers stay numbers), except the 64-bit seed: a string, as `generate` writes
    # it (JSON numbers are exact only up to 2**53); CSV writes every value as text.
    writer = Writer(buf, encoding, follows=(1, list(columns)))
    for row, (puzzle, solution) in records:
        if spec.dedupe:
            buf.write(f"{row[_KEY] if row.get('isomorph', 0) == 0 else ''}\t")
        fields = {
            c: str(row[c]) if c == "seed" else row[c]
            for c in columns
            if c not in ("puzzle", "solution")
        }
        writer.write(puzzle, solution=solution, fields=fields)
    return buf.getvalue()


def _first_of_kind(entries: Iterable[tuple[str, T]]) -> Iterator[T]:
    """The items of *entries* ``(key, item)`` whose puzzle is not equivalent to an earlier one:
    *key* is the hex digest of an original puzzle's canonical form (:func:`canonical_key`),
    or ``""`` for an isomorph, which stands or falls with the original before it. The one
    de-duplication rule of a dataset, whatever its shards hold.

    Memory: the set of 16-byte digests seen (about 100 bytes per distinct puzzle).

    >>> list(_first_of_kind([("01", "a"), ("", "a'"), ("01", "b"), ("", "b'"), ("02", "c")]))
    ['a', "a'", 'c']
    """
    seen: set[bytes] = set()
    keep = True
    for key, item in entries:
        if key:
            digest = bytes.fromhex(key)
            keep = digest not in seen
            seen.add(digest)
        if keep:
            yield item


def _copy_kept(manifest: Manifest, shards: Iterable[int], dst: IO[bytes]) -> int:
    """Copy the lines of *shards* (with keys, see :func:`_dataset_shard`) to *dst* without
    their keys, dropping puzzles equivalent to an earlier one; return the rows kept."""
    lines = (line.partition("\t") for shard in shards for line in manifest.read(shard))
    kept = _first_of_kind((key, text) for key, _, text in lines)
    rows = 0
    while block := list(itertools.islice(kept, 10_000)):
        dst.write("".join(text + "\n" for text in block).encode())
        rows += len(block)
    return rows


def merge_rows(
    manifest: Manifest, shards: Iterable[int], *, dedupe: bool
) -> Iterator[dict[str, Any]]:
    """The rows of *shards* in order, with later puzzles equivalent to earlier ones dropped
    when *dedupe* (an original and its isomorphs stand or fall together).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     m = Manifest(d + "/w", {}, resume=False)
    ...     _ = m.write(0, ['{"puzzle": "a", "_key": "01"}', '{"puzzle": "b", "_key": "01"}'])
    ...     [r["puzzle"] for r in merge_rows(m, [0], dedupe=True)]
    ['a']
    """
    rows = (json.loads(line) for shard in shards for line in manifest.read(shard))
    keyed = ((_original_key(row), row) for row in rows)
    if dedupe:
        return _first_of_kind(keyed)
    return (row for _, row in keyed)


def _original_key(row: dict[str, Any]) -> str:
    """Take the de-duplication key out of *row*: its value for an original puzzle, ``""``
    for an isomorph (or a row without one)."""
    key = row.pop(_KEY, "")
    return str(key) if row.get("isomorph", 0) == 0 else ""


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
    with work_manifest(out, params, resume=resume, force=force) as manifest:
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
