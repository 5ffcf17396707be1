"""Work classes: cheap work on threads, expensive work in worker processes that can be stopped.

The server runs every search in one of two *lanes*, each with its own bounded queue, so cheap
requests never wait behind expensive ones:

- :class:`ThreadLane` (cheap: solve / count / check / hint up to 9x9, SVG pictures): a few
  threads; the work is bounded by tight budgets (search guesses, the logic's ``budget_s``), so
  a thread whose request timed out still ends within that bound.
- :class:`ProcessLane` (expensive: generate, rate, explain, PDF, hints and searches above 9x9):
  a few worker processes at a lower CPU priority, one request each at a time. When the request
  passes its time limit or its client disconnects, the worker is *terminated* and replaced: the
  abandoned work stops at once and its CPU is free again.

A request that finds its lane's queue full is answered 503 with ``Retry-After``; one that
passes its time limit 504. ``sudokit.batch``'s process pools map many tasks and can only stop
all their workers at once; a web worker must be stopped alone, so this module keeps one
process per running request instead (no general process map: one call, one worker).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from sudokit.errors import SudokuError

from .errors import ApiError, status_of

__all__ = ["CLIENT_GONE", "Disconnect", "ProcessLane", "ThreadLane"]

log = logging.getLogger(__name__)

R = TypeVar("R")
#: The status of a request whose client went away before its answer (nginx's 499): its work
#: is abandoned; the answer is never read.
CLIENT_GONE = 499
#: Awaited while a request's work runs: returns when the client has gone away.
Disconnect = Callable[[], Awaitable[None]]


class _Gate:
    """How many requests a lane holds (running or waiting), and the 503 beyond *capacity*."""

    def __init__(self, name: str, capacity: int, retry_after: int) -> None:
        self.name = name
        self.capacity = capacity
        self.retry_after = retry_after
        self.held = 0

    @contextlib.contextmanager
    def hold(self) -> Any:
        if self.held >= self.capacity:
            raise ApiError(
                503,
                f"the server is busy with {self.name} requests; try again shortly",
                {"Retry-After": str(self.retry_after)},
            )
        self.held += 1
        try:
            yield
        finally:
            self.held -= 1


def _timed_out(seconds: float) -> ApiError:
    return ApiError(504, f"the work took longer than the server's limit of {seconds:g} s")


async def _race(
    work: asyncio.Future[R], seconds: float, gone: Disconnect | None, limit: float | None = None
) -> R:
    """*work*'s result; 504 after *seconds*, naming the server's time *limit* (default
    *seconds*: what is left of it is no limit to show); :data:`CLIENT_GONE` when the client
    goes away first (nobody is left to answer)."""
    watch = asyncio.ensure_future(gone()) if gone is not None else None
    try:
        waiting: set[asyncio.Future[Any]] = {work} if watch is None else {work, watch}
        done, _ = await asyncio.wait(waiting, timeout=seconds, return_when="FIRST_COMPLETED")
        if work in done:
            return work.result()
        if watch is not None and watch in done:
            raise ApiError(CLIENT_GONE, "the client went away")  # nobody reads this answer
        raise _timed_out(seconds if limit is None else limit)
    finally:
        if watch is not None:
            watch.cancel()


class ThreadLane:
    """Cheap work on *threads* threads, at most *capacity* requests held, each answered within
    *seconds* (its work must be bounded by budgets: a thread cannot be stopped)."""

    def __init__(self, threads: int, capacity: int, seconds: float, retry_after: int) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(threads, "sudokit-web-cheap")
        self._gate = _Gate("quick", capacity, retry_after)
        self.seconds = seconds

    async def run(self, fn: Callable[[], R], gone: Disconnect | None = None) -> R:
        """``fn()`` on a thread: 503 when the lane is full, 504 after the time limit."""
        with self._gate.hold():
            future = asyncio.get_running_loop().run_in_executor(self._pool, fn)
            return await _race(future, self.seconds, gone)

    def close(self) -> None:
        """Drop the queued work; running threads end within their budgets."""
        self._pool.shutdown(wait=False, cancel_futures=True)


# -- worker processes ---------------------------------------------------------------------


def _serve(conn: Connection, parent: int) -> None:  # pragma: no cover (a child process)
    """A worker process: answer ``(fn, arg)`` calls with ``(True, result)`` or
    ``(False, (status, message))`` until the pipe closes or the parent is gone."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    with contextlib.suppress(OSError, AttributeError):
        os.nice(5)  # cheap requests in the server process get the CPU first

    def watch() -> None:  # the worker's parent is the fork server: watch the server itself
        while True:
            time.sleep(0.5)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except OSError:
                pass

    threading.Thread(target=watch, daemon=True).start()
    while True:
        try:
            fn, arg = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, fn(arg))
        except ApiError as exc:
            answer = (False, (exc.status, exc.message))
        except SudokuError as exc:
            answer = (False, (status_of(exc), str(exc)))
        except ValueError as exc:
            answer = (False, (400, str(exc)))
        except ImportError as exc:
            answer = (False, (501, f"the server lacks {exc.name or 'a module'}"))
        except Exception as exc:
            answer = (False, (500, f"internal error: {type(exc).__name__}"))
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


def _context() -> Any:
    """Worker processes start from a fork server that has imported the library once (fast to
    replace, and no fork of the threaded server); ``spawn`` where there is no fork server.
    The fork server imports the rating and the generator too (``sudokit`` loads them on first
    use): a worker that replaces one stopped at the time limit then answers its first request
    without importing them (about 0.1 s of CPU, several seconds on a loaded machine, where a
    4x4 rating right after a timeout ran past a 0.5 s limit)."""
    try:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["sudokit.web.tasks", "sudokit.rating", "sudokit.generator"])
        return ctx
    except ValueError:  # pragma: no cover (no fork server on this platform)
        return multiprocessing.get_context("spawn")


def _consume(future: asyncio.Future[Any]) -> None:
    """Mark an abandoned call's outcome as seen (a stopped worker ends its call with
    EOFError, which nobody awaits any more)."""
    if not future.cancelled():
        future.exception()


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_serve, args=(child, os.getpid()), name="sudokit-web-worker", daemon=True
        )
        self.process.start()
        child.close()

    def call(self, fn: Callable[[Any], Any], arg: Any) -> tuple[bool, Any]:
        """Send one call and wait for its answer (EOFError when the worker was stopped)."""
        self.conn.send((fn, arg))
        answer: tuple[bool, Any] = self.conn.recv()
        return answer

    def stop(self) -> None:
        """End the worker at once (its work is abandoned) and reap it."""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.process.kill()
            self.process.join(2.0)
        with contextlib.suppress(OSError):
            self.conn.close()


class ProcessLane:
    """Expensive work in *workers* worker processes, at most *waiting* more requests waiting,
    each request stopped (its worker terminated and replaced) after *seconds* or when its
    client goes away."""

    def __init__(self, workers: int, waiting: int, seconds: float, retry_after: int) -> None:
        self.size = workers
        self.seconds = seconds
        self._gate = _Gate("long", workers + waiting, retry_after)
        self._ctx: Any = None
        self._idle: queue.SimpleQueue[_Worker] | None = None
        self._starting = threading.Lock()
        self._registry = threading.Lock()  # guards _all and _closed
        self._all: set[_Worker] = set()
        self._pool = concurrent.futures.ThreadPoolExecutor(workers + 1, "sudokit-web-pipe")
        self._closed = False

    def _spawn(self) -> _Worker:
        """A new worker, registered so that :meth:`close` stops it; one that finished starting
        after the lane closed is stopped at once (ApiError 503)."""
        if self._ctx is None:
            self._ctx = _context()
        worker = _Worker(self._ctx)
        with self._registry:
            if not self._closed:
                self._all.add(worker)
                return worker
        worker.stop()
        raise ApiError(503, "the server is shutting down")

    def start(self) -> None:
        """Start the workers (done by the first request otherwise; blocks while they start)."""
        with self._starting:
            if self._idle is not None:
                return
            idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
            for _ in range(self.size):
                idle.put(self._spawn())
            self._idle = idle

    async def _take(self) -> _Worker:
        """An idle worker, as soon as one is free (polled: the lane serves any event loop)."""
        assert self._idle is not None
        while True:
            try:
                worker: _Worker = self._idle.get_nowait()
                return worker
            except queue.Empty:
                await asyncio.sleep(0.01)

    async def _replace(self, worker: _Worker) -> None:
        worker.stop()
        with self._registry:
            self._all.discard(worker)
            if self._closed or self._idle is None:
                return
        with contextlib.suppress(ApiError):  # closed while the new worker started
            fresh = await asyncio.get_running_loop().run_in_executor(self._pool, self._spawn)
            self._idle.put(fresh)

    async def run(self, fn: Callable[[Any], R], arg: Any, gone: Disconnect | None = None) -> R:
        """``fn(arg)`` in a worker process (*fn* a module-level function, *arg* picklable):
        503 when the lane is full, 504 after the time limit (the worker is then stopped)."""
        with self._gate.hold():
            loop = asyncio.get_running_loop()
            if self._idle is None:
                await loop.run_in_executor(self._pool, self.start)
            assert self._idle is not None
            deadline = time.monotonic() + self.seconds
            take = asyncio.ensure_future(self._take())
            try:
                worker = await _race(take, self.seconds, gone)
            except BaseException:
                take.cancel()
                with contextlib.suppress(BaseException):
                    await take
                if take.done() and not take.cancelled() and take.exception() is None:
                    self._idle.put(take.result())
                raise
            call = loop.run_in_executor(self._pool, worker.call, fn, arg)
            call.add_done_callback(_consume)
            try:
                left = max(0.0, deadline - time.monotonic())
                ok, value = await _race(call, left, gone, self.seconds)
            except (EOFError, OSError):  # the worker died (a crash in native code, killed,
                # or it never started): its pipe ends or breaks
                await self._replace(worker)
                raise ApiError(500, "internal error: a worker process ended") from None
            except BaseException:
                # Timed out or abandoned: stop the work now, and bring a fresh worker.
                await asyncio.shield(self._replace(worker))
                raise
            self._idle.put(worker)
        if not ok:
            status, message = value
            raise ApiError(status, message)
        result: R = value
        return result

    def close(self) -> None:
        """Stop every worker (the server is shutting down)."""
        with self._registry:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
        for worker in workers:
            worker.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and monitoring)."""
        return [w.process.pid for w in self._all if w.process.pid is not None]
