"""Bulk runs: many puzzles from one seed, in chunks, optionally in worker processes
(:func:`generate_many`, :class:`PuzzleRun`). How a run is cut never changes a puzzle."""

from __future__ import annotations

import functools
import hashlib
import os
import random
from collections.abc import Callable, Iterator
from typing import TypeVar, Unpack

from ..errors import SudokuError
from ..parallel import WorkerDied, ordered_map
from ..shards import part_range
from .options import GenerateOptions, OptionArgs, _Plan
from .puzzle import GeneratedPuzzle, _options, _run

__all__ = ["PuzzleRun", "derive_seed", "generate_many"]

_T = TypeVar("_T")


def derive_seed(seed: int, index: int) -> int:
    """The seed of puzzle *index* of a run seeded with *seed* (64 bits, platform independent).

    :func:`generate_many` uses it, so any puzzle of a run -- and any shard of it -- can be
    regenerated on its own.

    >>> derive_seed(7, 0) == derive_seed(7, 0) != derive_seed(7, 1)
    True
    """
    digest = hashlib.sha256(f"sudokit.generate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _as_list(puzzles: list[GeneratedPuzzle], offset: int) -> list[GeneratedPuzzle]:
    """The chunk renderer that keeps the puzzles themselves (iterating a run)."""
    return puzzles


def _generate_chunk(
    plan: _Plan,
    seed: int,
    render: Callable[[list[GeneratedPuzzle], int], _T],
    chunk: tuple[range, int],
) -> tuple[_T, float]:
    """Worker body: ``render`` of the puzzles *indices* of the run seeded with *seed* (the
    chunk ``(indices, offset)``, its first puzzle being number *offset* of the run), and the
    CPU seconds that took (which sizes the next chunks)."""
    import time

    indices, offset = chunk
    start = time.process_time()
    puzzles = []
    for index in indices:
        s = derive_seed(seed, index)
        puzzles.append(_run(plan, s, random.Random(s)))
    return render(puzzles, offset), time.process_time() - start


class _ChunkSizer:
    """Puzzles per chunk: about :attr:`TARGET` CPU seconds of work each, so the progress of a
    run of slow puzzles stays visible and a run of fast ones pays little per chunk, and
    smaller towards the end of the run, so no worker is left with a long last chunk."""

    TARGET = 0.1
    MOST = 1000

    def __init__(self, total: int, workers: int) -> None:
        self.left = total
        self.workers = workers
        self.puzzles = 0
        self.seconds = 0.0

    def take(self) -> int:
        """The size of the next chunk (and count it as handed out)."""
        size = 1
        if self.puzzles:
            size = int(self.TARGET / max(self.seconds / self.puzzles, 1e-6))
        size = min(max(1, min(size, self.MOST, self.left // (2 * self.workers))), self.left)
        self.left -= size
        return size

    def done(self, puzzles: int, seconds: float) -> None:
        """Record a finished chunk."""
        self.puzzles += puzzles
        self.seconds += seconds


class PuzzleRun(Iterator[GeneratedPuzzle]):
    """The puzzles of a :func:`generate_many` run: iterate over it for the puzzles in order,
    or call :meth:`chunks` (instead) to have each chunk of puzzles turned into something
    smaller -- the text that will be written -- in the worker processes.

    >>> run = generate_many(3, size=4, seed=2)
    >>> [p.seed for p in run] == [derive_seed(2, j) for j in range(3)]
    True
    """

    def __init__(self, plan: _Plan, seed: int, indices: range, jobs: int) -> None:
        self._plan, self._seed, self._indices, self._jobs = plan, seed, indices, jobs
        self._puzzles: Iterator[GeneratedPuzzle] | None = None

    def __len__(self) -> int:
        return len(self._indices)

    def __getitem__(self, part: slice) -> PuzzleRun:
        """The puzzles *part* of the run (a slice), as a run of their own: the same puzzles,
        the options checked once.

        >>> run = generate_many(6, size=4, seed=3)
        >>> [p.seed for p in run[4:]] == [derive_seed(3, 4), derive_seed(3, 5)]
        True
        """
        return PuzzleRun(self._plan, self._seed, self._indices[part], self._jobs)

    def __next__(self) -> GeneratedPuzzle:
        if self._puzzles is None:
            self._puzzles = (p for chunk in self.chunks(_as_list) for p in chunk)
        return next(self._puzzles)

    def chunks(self, render: Callable[[list[GeneratedPuzzle], int], _T]) -> Iterator[_T]:
        """``render(puzzles, offset)`` for consecutive chunks of the run, in order; *offset*
        counts the puzzles of the run before the chunk (0 for the first chunk), which is what
        a :class:`~sudokit.formats.Writer` needs to continue a file (``follows=(offset, None)``).

        With several jobs *render* runs in the worker processes, so it must pickle (a
        module-level function, or a :func:`functools.partial` of one); the caller then
        receives only what it returns -- one string per chunk costs the caller next to
        nothing, which is what lets two workers go twice as fast as one. Chunks hold about
        0.1 s of work (see :class:`_ChunkSizer`); how the run is cut never changes a puzzle.

        >>> run = generate_many(5, size=4, seed=2)
        >>> texts = list(run.chunks(lambda ps, _: "".join(f"{p.puzzle}\\n" for p in ps)))
        >>> "".join(texts) == "".join(f"{p.puzzle}\\n" for p in generate_many(5, size=4, seed=2))
        True
        """
        plan, seed, indices, jobs = self._plan, self._seed, self._indices, self._jobs
        sizer = _ChunkSizer(len(indices), jobs)

        def tasks() -> Iterator[tuple[range, tuple[range, int]]]:
            pos = 0
            while pos < len(indices):
                part = indices[pos : pos + sizer.take()]
                yield range(pos, pos + len(part)), (part, pos)
                pos += len(part)

        work = functools.partial(_generate_chunk, plan, seed, render)
        # the process map of every bulk run (sudokit.parallel): inline for one job or one
        # puzzle; otherwise Ctrl-C or an early close terminates the workers at once
        try:
            for rows, (out, seconds) in ordered_map(work, tasks(), jobs if len(indices) > 1 else 1):
                sizer.done(len(rows), seconds)
                yield out
        except WorkerDied as exc:  # the rows of the run in flight, 1-based
            lost = f"{exc.keys[0].start + 1}-{exc.keys[-1].stop}" if exc.keys else "?"
            raise exc.doing(f"generating puzzles {lost}") from None


def generate_many(
    count: int,
    *,
    options: GenerateOptions | None = None,
    seed: int | None = None,
    shard: tuple[int, int] | None = None,
    jobs: int = 1,
    size: int | None = None,
    **kwargs: Unpack[OptionArgs],
) -> PuzzleRun:
    """Generate *count* puzzles, reproducibly from one *seed*, in order.

    Puzzle ``j`` is ``generate(seed=derive_seed(seed, j), ...)``, so the output does not depend
    on *jobs* (worker processes; 0 = one per core) or on sharding: ``shard=(i, k)`` (1-based)
    yields only the ``i``-th of ``k`` contiguous slices, and the ``k`` shards in order are the
    whole run. The options are those of :func:`generate` (*options*, a
    :class:`GenerateOptions`, or its keywords); all are checked before any work starts. The
    result is an iterator of :class:`GeneratedPuzzle`; its :meth:`PuzzleRun.chunks` renders
    chunks of them in the workers instead.

    >>> run = [str(p.puzzle) for p in generate_many(4, size=4, seed=5)]
    >>> run[2:] == [str(p.puzzle) for p in generate_many(4, size=4, seed=5, shard=(2, 2))]
    True
    """
    plan = _options(size, options, kwargs).plan
    if count < 0:
        raise SudokuError(f"count must be >= 0, got {count}")
    if jobs < 0:
        raise SudokuError(f"jobs must be >= 0, got {jobs}")
    indices = part_range(count, shard)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    return PuzzleRun(plan, seed, indices, jobs or os.cpu_count() or 1)
