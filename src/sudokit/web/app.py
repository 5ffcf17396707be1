"""The FastAPI application: JSON endpoints over the public API, plus the static browser app.

The endpoints parse a puzzle (any text format, sniffed), run the work in one of two lanes
(:mod:`sudokit.web.work`: cheap work on threads, expensive work in worker processes that are
stopped when their request times out or is abandoned) and answer JSON. A puzzle in an answer
is a *grid object*::

    {"line": "1.3....22....3.1", "size": 4, "box": "2x2", "diagonals": false,
     "regions": null, "cells": [1, 0, 3, ...]}

``regions`` is the region index (0..n-1) of every cell, row by row, for a jigsaw puzzle, and
``null`` otherwise. Requests name a jigsaw the same way (a list of indices, or a string with one
symbol per cell, as the ``json`` format writes it); each region must be ``n`` orthogonally
connected cells. The endpoints live in modules by concern: ``api_solve`` (solve, count,
check), ``api_generate``, ``api_logic`` (rate, hint, explain), ``api_render`` (SVG, PDF) and
``api_meta`` (info, convert, docs); shared validation in ``validate``.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.post("/api/solve", json={"puzzle": "1.3. ...2 2... .3.1"}).json()["solution"]["line"]
'1234341221434321'
>>> r = client.post("/api/solve", json={"puzzle": "1.3"})
>>> r.status_code, "expected a square number" in r.json()["error"]
(400, True)
>>> jigsaw = {"puzzle": "1.3. ...2 2... .3.1", "regions": "ABAB ABAB CDCD CDCD"}
>>> r = client.post("/api/solve", json=jigsaw)
>>> r.status_code, "region 0 (r1c1, r1c3, r2c1, r2c3) is not connected" in r.json()["error"]
(400, True)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Scope

import sudokit

from . import api_generate, api_logic, api_meta, api_render, api_solve, errors
from .context import Server
from .middleware import BodyLimit, HostCheck
from .models import Limits

__all__ = ["Limits", "create_app"]

STATIC = Path(__file__).parent / "static"


class _Fallback(Mount):
    """The browser app's files at ``/``, for every path the API's *routes* do not serve: a
    path an endpoint serves with other methods (``GET /api/solve``, ``OPTIONS``) is left to
    that endpoint, which answers 405 with its own ``Allow`` header (a mount at ``/`` takes
    every path first, and the files answered 404, or 405 with ``Allow: GET, HEAD``)."""

    def __init__(self, path: str, app: ASGIApp, name: str, routes: list[BaseRoute]) -> None:
        super().__init__(path, app=app, name=name)
        self.routes_before = routes

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        for route in self.routes_before:
            if route is not self and route.matches(scope)[0] is not Match.NONE:
                return Match.NONE, {}
        return super().matches(scope)


def create_app(
    limits: Limits | None = None,
    *,
    hosts: Iterable[str] | None = None,
    cors: Iterable[str] = (),
) -> FastAPI:
    """The ASGI app: the JSON API under ``/api`` and the browser app at ``/``.

    :param limits: the bounds on every request (defaults: :class:`Limits`).
    :param hosts: the ``Host`` header values served (None: any; ``sudokit serve`` on a
        loopback address passes the loopback names with the port).
    :param cors: origins allowed to call the API from their pages (none: same-origin only).

    >>> app = create_app()
    >>> sorted(app.openapi()["paths"])[:3]
    ['/api/check', '/api/convert', '/api/count']
    """
    lim = limits or Limits()
    srv = Server.create(lim)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Start the worker processes in the background: the server answers at once, and the
        # first long request waits for them.
        starting = asyncio.get_running_loop().run_in_executor(None, srv.slow.start)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                await starting
            srv.close()

    app = FastAPI(
        lifespan=lifespan,
        title="sudokit",
        version=sudokit.__version__,
        summary="Solve, count, check, generate, rate, hint, explain and convert Sudoku puzzles.",
        description=(
            "Puzzles are text in any supported format (sniffed). Every call is bounded: body "
            f"size {lim.max_body} bytes, grids up to {lim.max_size}x{lim.max_size}, "
            f'{lim.timeout:g} s of work. Errors are JSON `{{"error": "..."}}`: 400 (does '
            "not parse, bad option), 404, 413 (body too large), 422 (cannot be answered), "
            "503 with Retry-After (busy), 504 (over the time limit)."
        ),
        docs_url=None,
        redoc_url=None,
    )
    app.state.limits = lim
    app.state.server = srv
    errors.install(app)
    for module in (api_meta, api_solve, api_generate, api_logic, api_render):
        app.include_router(module.router)
    app.router.routes.append(
        _Fallback("/", StaticFiles(directory=STATIC, html=True), "static", app.router.routes)
    )
    app.add_middleware(BodyLimit, limit=lim.max_body)
    origins = list(cors)
    if origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type"],
        )
    if hosts is not None:
        app.add_middleware(HostCheck, allowed=hosts)
    return app
