"""Run :mod:`sudokit.shards` shards on a Dask cluster (the ``dask`` extra).

Dask is imported only when a function here is called, so ``import sudokit.dask`` works (and
its doctests are skipped) without it. A shard's rows depend only on the run's options and the
shard's index range, so a cluster gives exactly the rows of a local run; shard files are
written by the client, atomically, into the same resumable work directory.

>>> import sudokit.dask as sd
>>> sd.mapper.__name__
'mapper'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from .errors import SudokuError
from .shards import Mapper

__all__ = ["client", "mapper"]


def _distributed() -> Any:
    try:
        import distributed  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise SudokuError(
            "the Dask scheduler needs dask.distributed: pip install 'sudokit[dask]'"
        ) from None
    return distributed


@contextmanager
def client(scheduler: str = "local", *, workers: int = 0, timeout: float = 20) -> Iterator[Any]:
    """A ``distributed.Client`` for *scheduler*, closed on exit.

    :param scheduler: ``"local"`` starts a :class:`distributed.LocalCluster` on this machine
        (*workers* single-threaded worker processes, 0 = one per core); anything else is
        the address of a running scheduler (``tcp://host:8786``).
    :param timeout: seconds to wait for a remote scheduler.
    :raises SudokuError: when dask.distributed is not installed or the scheduler cannot be
        reached.
    """
    dd = _distributed()
    if scheduler == "local":
        n = workers or os.cpu_count() or 1
        with (
            dd.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            dd.Client(cluster) as c,
        ):
            yield c
        return
    try:
        c = dd.Client(scheduler, timeout=f"{timeout}s")
    except OSError as exc:
        raise SudokuError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}") from None
    with c:
        yield c


def mapper(dask_client: Any, *, window: int = 0) -> Mapper[Any, Any]:
    """A :data:`sudokit.shards.Mapper` that runs each shard as one task on *dask_client*.

    At most *window* shards (default: twice the cluster's worker threads) are submitted at a
    time, so the client holds a bounded number of results whatever the size of the run.
    """
    dd = _distributed()

    def run(fn: Callable[[Any], Any], tasks: Iterable[tuple[int, Any]]) -> Iterator[Any]:
        limit = window or max(2, 2 * sum(dask_client.nthreads().values()))
        todo = iter(tasks)
        shard_of: dict[str, int] = {}
        pending = dd.as_completed()
        for shard, payload in todo:
            future = dask_client.submit(fn, payload, pure=False)
            shard_of[future.key] = shard
            pending.add(future)
            if pending.count() >= limit:
                break
        for future in pending:
            yield shard_of.pop(future.key), future.result()
            future.release()
            nxt = next(todo, None)
            if nxt is not None:
                new = dask_client.submit(fn, nxt[1], pure=False)
                shard_of[new.key] = nxt[0]
                pending.add(new)

    return run
