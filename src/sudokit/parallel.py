"""Process maps: the one way sudokit runs work on several cores (layer 0: stdlib only).

Every bulk run that uses worker processes -- ``solve --jobs``, ``rate --jobs``, ``count
--jobs``, ``generate --jobs`` (:meth:`sudokit.generator.PuzzleRun.chunks`) and the shards of
:mod:`sudokit.shards` and :mod:`sudokit.dataset` -- goes through one of the two maps here,
so they share one set of rules by construction:

* **inline for one job**: ``jobs=1`` computes in this process, with no pool at all, and no
  work at all starts no pool; ``jobs=0`` means every core.
* **pickling is checked first**: a function that does not pickle is refused with
  :class:`TypeError` before any process starts (a pool would fail or hang later).
* **bounded**: tasks are read lazily, and only a few per worker are in flight, so memory stays
  flat whatever the number of tasks.
* **Ctrl-C and errors stop everything at once**: workers ignore SIGINT (the parent decides);
  when the consumer stops early -- an exception raised by a task (re-raised here), Ctrl-C, or
  closing the iterator -- the queued tasks are cancelled and the workers terminated instead
  of being waited for.
* **workers end with their parent**: a worker whose parent was killed (SIGKILL, say) ends by
  itself instead of waiting for work forever.
* **a worker that dies is named**: a worker killed (SIGKILL, the out-of-memory killer) or
  crashed stops the map with :class:`WorkerDied`, which says how it ended and holds the keys
  of the tasks that were lost, so the caller can say which input was not done.

:func:`ordered_map` yields results in input order (output files written as they come);
:func:`unordered_map` yields them as they finish (shards written to a work directory, which a
final merge puts in order).

>>> list(ordered_map(abs, [("a", -1), ("b", 2)]))
[('a', 1), ('b', 2)]
>>> sorted(unordered_map(abs, [(0, -3), (1, 4)], jobs=2))
[(0, 3), (1, 4)]
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = ["WorkerDied", "check_pickles", "ordered_map", "pool_size", "unordered_map"]

K = TypeVar("K")
P = TypeVar("P")
R = TypeVar("R")


class WorkerDied(ChildProcessError):
    """A worker process ended while tasks were in flight (killed, out of memory, a crash in
    native code): ``why`` says how, as far as the system tells (``pid 123, killed by
    SIGKILL``), and ``keys`` are the keys of the tasks lost with the pool, in task order.
    :meth:`doing` adds what those tasks were, for the message. An :class:`OSError` (a child
    process failed), so that whoever reports system errors in one line reports this one too.

    >>> str(WorkerDied("pid 7, killed by SIGKILL", [3, 4]).doing("solving shards 3-4"))
    'a worker process died (pid 7, killed by SIGKILL) while solving shards 3-4'
    """

    def __init__(self, why: str, keys: list[Any], doing: str = "") -> None:
        super().__init__(f"a worker process died ({why})" + (f" while {doing}" if doing else ""))
        self.why = why
        self.keys = keys

    def doing(self, what: str) -> WorkerDied:
        """The same death, with what the lost tasks were doing in its message."""
        return WorkerDied(self.why, self.keys, what)


def pool_size(jobs: int) -> int:
    """The number of workers for *jobs* (0 = every core); a negative count is a
    :class:`ValueError`.

    >>> pool_size(3), pool_size(0) >= 1
    (3, True)
    """
    if jobs < 0:
        raise ValueError(f"jobs must be >= 0 (0 = every core), got {jobs}")
    return jobs or os.cpu_count() or 1


def check_pickles(fn: object) -> None:
    """Refuse *fn* for worker processes unless it pickles (a process pool would hang).

    >>> check_pickles(abs)
    >>> check_pickles(lambda x: x)
    Traceback (most recent call last):
    ...
    TypeError: <function <lambda> at ...> must pickle to run in worker processes (...)
    """
    import pickle

    try:
        pickle.dumps(fn)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise TypeError(f"{fn!r} must pickle to run in worker processes ({exc})") from None


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
    :func:`functools.partial` of one; anything else raises :class:`TypeError` at the call).
    Stopping early -- an exception in *fn* (raised here, in order), Ctrl-C, or closing the
    iterator -- terminates the workers rather than waiting for the tasks in flight, and
    workers end by themselves when this process is killed.

    >>> [r for _, r in ordered_map(len, [(k, "x" * k) for k in range(4)], jobs=2)]
    [0, 1, 2, 3]
    >>> ordered_map(lambda x: x, [], jobs=2)
    Traceback (most recent call last):
    ...
    TypeError: <function <lambda> at ...> must pickle to run in worker processes (...)
    """
    return _map(fn, tasks, jobs, _in_order)


def unordered_map(
    fn: Callable[[P], R], tasks: Iterable[tuple[K, P]], jobs: int = 1
) -> Iterator[tuple[K, R]]:
    """``(key, fn(payload))`` for each ``(key, payload)`` of *tasks*, each as soon as it is
    done (in input order when inline), on *jobs* worker processes (0 = every core).

    The same rules as :func:`ordered_map` (lazy tasks, at most ``2 * jobs`` in flight, pickling
    checked at the call, early stops terminate the workers, workers end with this process);
    only the order differs: a slow task does not hold back the results of later ones.

    >>> sorted(unordered_map(abs, [(0, -3), (1, 4)]))
    [(0, 3), (1, 4)]
    """
    return _map(fn, tasks, jobs, _as_done)


#: How a pool's results are collected: ``loop(pool, fn, tasks, workers)`` submits the tasks
#: (a few per worker at a time) and yields ``(key, result)``.
_Loop = Callable[
    ["ProcessPoolExecutor", Callable[[P], R], Iterator[tuple[K, P]], int], Iterator[tuple[K, R]]
]


def _map(
    fn: Callable[[P], R], tasks: Iterable[tuple[K, P]], jobs: int, loop: _Loop[P, R, K]
) -> Iterator[tuple[K, R]]:
    """The rules both maps share: the worker count, the pickling check (at the call), and
    inline work for one worker."""
    workers = pool_size(jobs)
    if workers == 1:
        return ((key, fn(payload)) for key, payload in tasks)
    check_pickles(fn)
    return _pooled(fn, tasks, workers, loop)


def _pooled(
    fn: Callable[[P], R], tasks: Iterable[tuple[K, P]], workers: int, loop: _Loop[P, R, K]
) -> Iterator[tuple[K, R]]:
    todo = iter(tasks)
    first = next(todo, None)
    if first is None:
        return  # no work: no pool
    with _worker_pool(workers) as pool:
        yield from loop(pool, fn, itertools.chain([first], todo), workers)


def _in_order(
    pool: ProcessPoolExecutor, fn: Callable[[P], R], tasks: Iterator[tuple[K, P]], workers: int
) -> Iterator[tuple[K, R]]:
    window: collections.deque[tuple[K, Future[R]]] = collections.deque()
    for key, payload in tasks:
        window.append((key, pool.submit(fn, payload)))
        if len(window) > 2 * workers:
            head, future = window.popleft()
            yield head, _result(pool, future, [head, *(k for k, _ in window)])
    while window:
        head, future = window.popleft()
        yield head, _result(pool, future, [head, *(k for k, _ in window)])


def _as_done(
    pool: ProcessPoolExecutor, fn: Callable[[P], R], tasks: Iterator[tuple[K, P]], workers: int
) -> Iterator[tuple[K, R]]:
    from concurrent.futures import FIRST_COMPLETED, wait

    running: dict[Future[R], K] = {}
    while True:
        while len(running) < 2 * workers:
            nxt = next(tasks, None)
            if nxt is None:
                break
            running[pool.submit(fn, nxt[1])] = nxt[0]
        if not running:
            return
        done, _ = wait(running, timeout=_POLL, return_when=FIRST_COMPLETED)
        if not done and _a_worker_ended(pool):
            raise WorkerDied(_how_ended(pool, broken=False), list(running.values()))
        for future in done:
            lost = list(running.values())
            yield running.pop(future), _result(pool, future, lost)


#: Seconds between two looks at the workers while a result is awaited (see :func:`_result`).
_POLL = 0.5


def _result(pool: ProcessPoolExecutor, future: Future[R], lost: list[K]) -> R:
    """*future*'s result; :class:`WorkerDied` (with the keys *lost*) when a worker of *pool*
    died. The pool says so itself (BrokenProcessPool) -- unless the worker died while sending
    a result: then the pool's manager thread waits for the rest of it forever, and so would
    this wait, were the workers not looked at every :data:`_POLL` seconds."""
    from concurrent.futures.process import BrokenProcessPool

    while True:
        try:
            return future.result(timeout=_POLL)
        except BrokenProcessPool:
            raise WorkerDied(_how_ended(pool, broken=True), lost) from None
        except TimeoutError:
            if future.done():  # the task's own TimeoutError
                raise
            if _a_worker_ended(pool):
                raise WorkerDied(_how_ended(pool, broken=False), lost) from None


def _processes(pool: ProcessPoolExecutor) -> dict[int, Any]:
    """The pool's worker processes by pid (no public way to see them)."""
    found: dict[int, Any] = getattr(pool, "_processes", None) or {}
    return found


def _a_worker_ended(pool: ProcessPoolExecutor) -> bool:
    """Whether a worker of *pool* has ended (while work is awaited, only a death ends one)."""
    return any(process.exitcode is not None for process in list(_processes(pool).values()))


def _how_ended(pool: ProcessPoolExecutor, *, broken: bool) -> str:
    """How the worker that ended first ended, as far as the system says: its pid and the
    signal or exit code. A *broken* pool's manager thread ends the other workers with
    SIGTERM and reaps them all: it is waited for first."""
    manager = getattr(pool, "_executor_manager_thread", None)
    if broken and isinstance(manager, threading.Thread):
        manager.join(2.0)
    ended = [
        (pid, code)
        for pid, process in list(_processes(pool).items())
        if (code := process.exitcode) not in (None, 0)
    ]
    odd = [(pid, code) for pid, code in ended if code != -signal.SIGTERM] or ended[:1]
    if not odd:
        return "it ended abruptly"
    pid, code = odd[0]
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"pid {pid}, killed by {signal.Signals(-code).name}"
        return f"pid {pid}, killed by signal {-code}"
    return f"pid {pid}, exit code {code}"


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
def _worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool of *workers*, set up and torn down in one place.

    The workers end with their parent (see :func:`_end_with_parent`). When the ``with`` body
    ends normally the pool shuts down cleanly; when it ends early -- an exception,
    :class:`KeyboardInterrupt`, or a generator using the pool being closed -- the work in
    flight is dropped: the queued tasks are cancelled and the workers terminated at once
    instead of being waited for.
    """
    from concurrent.futures import ProcessPoolExecutor

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
    processes = list(_processes(pool).values())
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
