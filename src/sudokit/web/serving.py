"""Running the app under uvicorn with connection bounds (what ``sudokit serve`` starts).

- A connection must send a complete request head within :data:`HEADER_TIMEOUT` seconds of
  opening (or of its previous answer), else it is closed: sockets that send nothing, or one
  byte now and then, cannot pile up. Idle keep-alive connections close after
  :data:`KEEP_ALIVE` seconds; a request head is at most :data:`MAX_HEAD` bytes.
- The open-file limit is raised to its hard limit so that many sockets do not exhaust it, and
  uvicorn answers 503 beyond that many connections (``limit_concurrency``).
- Log records are rate-limited (:class:`RateLimit`): a flood of bad connections writes a few
  lines and a count, not a line each.
- Bound to a loopback address, the app serves only ``Host: localhost`` / ``127.0.0.1`` /
  ``[::1]`` with the port (DNS rebinding); CORS is same-origin unless origins are named.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Iterable

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .middleware import loopback_hosts
from .models import Limits

__all__ = ["HEADER_TIMEOUT", "KEEP_ALIVE", "MAX_HEAD", "GuardedH11", "RateLimit", "serve"]

HEADER_TIMEOUT = 10.0
KEEP_ALIVE = 5
MAX_HEAD = 16 * 1024


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol plus a deadline for the request head (see the module doc)."""

    header_timeout = HEADER_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.cycle is None or self.cycle.response_complete:  # no request under way
            with contextlib.suppress(Exception):
                self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # a request is being answered: its own time limits apply

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class RateLimit(logging.Filter):
    """Let at most *burst* records through per *period* seconds; the first record after a
    quiet window says how many were dropped.

    >>> f = RateLimit(burst=2, period=60.0)
    >>> records = [logging.makeLogRecord({"msg": "bad request"}) for _ in range(5)]
    >>> [f.filter(r) for r in records]
    [True, True, False, False, False]
    """

    def __init__(self, burst: int = 20, period: float = 10.0) -> None:
        super().__init__()
        self.burst = burst
        self.period = period
        self._start = time.monotonic()
        self._passed = 0
        self._dropped = 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        with self._lock:
            now = time.monotonic()
            if now - self._start >= self.period:
                if self._dropped:
                    record.msg = f"({self._dropped} log messages suppressed) {record.msg}"
                self._start, self._passed, self._dropped = now, 0, 0
            if self._passed >= self.burst:
                self._dropped += 1
                return False
            self._passed += 1
            return True


def _raise_fd_limit() -> int:
    """Raise the soft open-file limit to the hard one (capped); the limit in force."""
    try:
        import resource
    except ImportError:  # pragma: no cover (not POSIX)
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 1 << 20
    want = min(want, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
    return int(soft) if soft != resource.RLIM_INFINITY else 1 << 20


def _limit_logs() -> None:
    limiter = RateLimit()
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio", "sudokit"):
        logging.getLogger(name).addFilter(limiter)
    for handler in logging.getLogger().handlers:
        handler.addFilter(limiter)


def config(
    host: str, port: int, cors: Iterable[str] = (), limits: Limits | None = None
) -> uvicorn.Config:
    """The uvicorn configuration ``sudokit serve`` runs (see the module doc)."""
    files = _raise_fd_limit()
    app = create_app(limits, hosts=loopback_hosts(host, port), cors=cors)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        http=GuardedH11,
        timeout_keep_alive=KEEP_ALIVE,
        limit_concurrency=max(64, files - 128),
        h11_max_incomplete_event_size=MAX_HEAD,
        backlog=4096,
        timeout_graceful_shutdown=3,
        log_config=None,  # serve() sets up logging (rate-limited)
    )


def serve(host: str, port: int, cors: Iterable[str] = (), limits: Limits | None = None) -> None:
    """Serve the app on *host*:*port* until interrupted."""
    logging.basicConfig(level=logging.WARNING, format="sudokit serve: %(levelname)s %(message)s")
    _limit_logs()
    uvicorn.Server(config(host, port, cors, limits)).run()
