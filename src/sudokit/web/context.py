"""What every endpoint shares: the limits, the two work lanes, and the rule choosing a lane.

Cheap work is a search or a hint on a grid of at most :data:`CHEAP_CELLS` cells (9x9); it runs
on the thread lane with tight budgets. Everything else runs in the process lane.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import Request

import sudokit

from . import tasks
from .models import Limits
from .validate import budget
from .work import Disconnect, ProcessLane, ThreadLane

__all__ = ["CHEAP_CELLS", "Server", "disconnect", "server"]

R = TypeVar("R")
#: Searches and hints on grids up to this many cells are cheap work.
CHEAP_CELLS = 81


@dataclass(frozen=True, slots=True)
class Server:
    """The server's limits and its lanes of work (see :mod:`sudokit.web.work`)."""

    limits: Limits
    quick: ThreadLane
    slow: ProcessLane

    @classmethod
    def create(cls, limits: Limits) -> Server:
        """Lanes sized and bounded by *limits*."""
        return cls(
            limits,
            ThreadLane(
                limits.workers, limits.cheap_queue, limits.cheap_timeout, limits.retry_after
            ),
            ProcessLane(limits.slow_workers, limits.slow_queue, limits.timeout, limits.retry_after),
        )

    async def run(self, cheap: bool, fn: Callable[[Any], R], arg: Any, request: Request) -> R:
        """``fn(arg)`` on the thread lane when *cheap*, else in a worker process."""
        gone = disconnect(request)
        if cheap:
            return await self.quick.run(lambda: fn(arg), gone)
        return await self.slow.run(fn, arg, gone)

    async def search(
        self, grid: sudokit.Grid, limit: int, requested: int | None, request: Request
    ) -> dict[str, Any]:
        """A search of *grid* up to *limit* solutions: cheap (and held to the cheap budget)
        up to 9x9, in a worker process above."""
        cheap = grid.shape.ncells <= CHEAP_CELLS
        cap = self.limits.cheap_budget if cheap else None
        job = tasks.Search(grid, limit, budget(requested, self.limits, cap))
        return await self.run(cheap, tasks.search, job, request)

    def close(self) -> None:
        """Stop the lanes (the server is shutting down)."""
        self.quick.close()
        self.slow.close()


def server(request: Request) -> Server:
    """The :class:`Server` of the app serving *request*."""
    found: Server = request.app.state.server
    return found


def disconnect(request: Request) -> Disconnect:
    """A waiter that returns once *request*'s client has gone away."""

    async def gone() -> None:
        while True:
            message = await request.receive()
            if message.get("type") == "http.disconnect":
                return

    return gone
