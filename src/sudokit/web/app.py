"""The FastAPI application: JSON endpoints over the public API, plus the static browser app.

The endpoints parse a puzzle (any text format, sniffed), call :mod:`sudokit` in a worker thread
with a time limit, and answer JSON. A puzzle in an answer is a *grid object*::

    {"line": "1.3....22....3.1", "size": 4, "box": "2x2", "diagonals": false,
     "regions": null, "cells": [1, 0, 3, ...]}

``regions`` is the region index (0..n-1) of every cell, row by row, for a jigsaw puzzle, and
``null`` otherwise. Requests name a jigsaw the same way (a list of indices, or a string with one
symbol per cell, as the ``json`` format writes it); each region must be ``n`` orthogonally
connected cells.

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
import concurrent.futures
import contextlib
import io
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, get_args

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

import sudokit
from sudokit import render
from sudokit.errors import (
    ParseError,
    SudokuError,
)

__all__ = ["Limits", "create_app"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
_T = TypeVar("_T")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds every request is held to.

    ``max_body`` bytes per request body; ``max_size`` the largest grid size *n* accepted;
    ``max_generate`` puzzles per generate call (``max_generate_size`` the largest size
    generated); ``max_count`` the highest solution-count limit; ``max_budget`` the most
    search guesses one call may spend (``default_budget`` when the request names none);
    ``timeout`` seconds of work per request (the answer is then a 422; the work itself is
    bounded by the budgets and ends soon after); ``logic_seconds`` the time budget of a
    rating or an explanation. Searches run on ``workers`` threads; the long calls (generate,
    rate, hint, explain) on ``slow_workers`` other threads, with at most ``slow_queue`` of them
    running or waiting: beyond that a request is answered 503 at once.

    >>> Limits().max_size, Limits(timeout=1.0).timeout
    (25, 1.0)
    """

    max_body: int = 64 * 1024
    max_size: int = 25
    max_generate: int = 50
    max_generate_size: int = 16
    max_count: int = 10_000
    max_budget: int = 1_000_000
    default_budget: int = 200_000
    timeout: float = 20.0
    logic_seconds: float = 8.0
    workers: int = max(2, min(8, os.cpu_count() or 2))
    slow_workers: int = max(2, min(4, os.cpu_count() or 2))
    slow_queue: int = 8


class ApiError(Exception):
    """A failure answered as ``{"error": message}`` with *status*."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# -- request models -------------------------------------------------------------------------

FormatName = Literal[
    "line", "picture", "ss", "sdk", "candidates", "candgrid", "csv", "json", "jsonl"
]
Level = Literal["easy", "medium", "hard", "expert"]
Symmetry = Literal[
    "none", "rot180", "rot90", "mirror-h", "mirror-v", "diagonal", "anti-diagonal", "dihedral"
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: A jigsaw region map in a request: region indices, or one symbol per cell (numbered in order
#: of first appearance; white space ignored), as the json and jsonl formats carry it.
RegionMap = Annotated[str, Field(max_length=2000)] | Annotated[list[int], Field(max_length=625)]
_REGIONS_FIELD = Field(
    None,
    description=(
        "jigsaw: the region of every cell, row by row, as indices 0..n-1 or one symbol per "
        "cell (e.g. 'AABB...'); each region is n orthogonally connected cells. "
        "Leave out for boxes."
    ),
    examples=["AAABABBBCCCDCDDD"],
)


class PuzzleIn(_Model):
    """A puzzle as text in any supported format (sniffed unless ``format`` is given)."""

    puzzle: str = Field(
        min_length=1,
        max_length=20_000,
        description="the puzzle text: a line, a picture, Simple Sudoku, SadMan, JSON, CSV, ...",
        examples=[
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
        ],
    )
    format: FormatName | None = Field(None, description="the text format (sniffed when absent)")
    box: str | None = Field(
        None,
        pattern=r"^[0-9]{1,2}x[0-9]{1,2}$",
        description="box shape 'RxC' when the size alone does not say it (e.g. '2x3')",
    )
    diagonals: bool = Field(False, description="Sudoku-X: both main diagonals are units")
    regions: RegionMap | None = _REGIONS_FIELD


class SolveIn(PuzzleIn):
    budget: int | None = Field(
        None, ge=1, description="the most search guesses to spend (bounded by the server)"
    )


class CountIn(SolveIn):
    limit: int = Field(2, ge=1, le=10_000, description="count solutions up to this many")


class HintIn(PuzzleIn):
    values: list[int] | None = Field(
        None,
        max_length=625,
        description="the player's grid: a value per cell (0 = empty), givens included or not",
    )


class ExplainIn(HintIn):
    pass


class ConvertIn(PuzzleIn):
    to: FormatName = Field("line", description="the format to write")


class GenerateIn(_Model):
    size: int = Field(9, ge=4, le=25, description="grid size n (4, 6, 8, 9, 12, 16, ...)")
    box: str | None = Field(None, pattern=r"^[0-9]{1,2}x[0-9]{1,2}$", description="box shape 'RxC'")
    difficulty: Level | None = Field(None, description="target level (rated; may take longer)")
    symmetry: Symmetry = "none"
    diagonals: bool = False
    regions: RegionMap | None = _REGIONS_FIELD
    jigsaw: bool = Field(False, description="a fresh random jigsaw region map of the size")
    seed: int | None = Field(None, ge=0, lt=2**63)
    n: int = Field(1, ge=1, le=50, description="how many puzzles")


# -- helpers --------------------------------------------------------------------------------


def _shape(
    box: str | None, diagonals: bool, limits: Limits, regions: str | list[int] | None = None
) -> sudokit.Shape | None:
    """The shape a request names by its box or jigsaw *regions* (None when neither)."""
    if box is not None and regions is not None:
        raise ApiError(400, "give either box or regions (a jigsaw), not both")
    if box is None and regions is None:
        return None
    try:
        if regions is not None:
            shape = sudokit.Shape.jigsaw(regions, diagonals=diagonals)
        else:
            assert box is not None
            shape = sudokit.Shape.parse_box(box, diagonals=diagonals)
    except (SudokuError, ValueError) as exc:
        raise ApiError(400, f"regions: {exc}" if regions is not None else str(exc)) from None
    if shape.n > limits.max_size:
        raise ApiError(400, f"grids up to {limits.max_size}x{limits.max_size} are served")
    if regions is not None:
        _require_connected(shape)
    return shape


def _require_connected(shape: sudokit.Shape) -> None:
    """400 unless every region of the jigsaw *shape* is one orthogonally connected piece."""
    split = shape.disconnected_region()
    if split is not None:
        cells = shape.units[2 * shape.n + split]
        where = ", ".join(shape.cell_name(c) for c in cells)
        raise ApiError(
            400,
            f"regions: region {split} ({where}) is not connected: each region "
            "must be one piece of orthogonally adjacent cells",
        )


def _parse(body: PuzzleIn, limits: Limits) -> sudokit.Grid:
    """The one puzzle of *body*, within the size limit."""
    shape = _shape(body.box, body.diagonals, limits, body.regions)
    grid = sudokit.formats.parse_one(body.puzzle, body.format, shape)
    if body.diagonals and not grid.shape.diagonals:
        grid = sudokit.Grid(grid.cells, grid.shape.with_diagonals())
    if grid.n > limits.max_size:
        raise ApiError(400, f"grids up to {limits.max_size}x{limits.max_size} are served")
    if shape is None and grid.shape.regions is not None:  # a jigsaw from a json puzzle
        _require_connected(grid.shape)
    return grid


def _grid(grid: sudokit.Grid) -> dict[str, object]:
    shape = grid.shape
    return {
        "line": str(grid),
        "size": shape.n,
        "box": shape.box_spec,
        "diagonals": shape.diagonals,
        "regions": None if shape.regions is None else list(shape.regions),
        "cells": list(grid.cells),
    }


def _budget(requested: int | None, limits: Limits) -> int:
    if requested is None:
        return limits.default_budget
    return min(requested, limits.max_budget)


def _with_values(puzzle: sudokit.Grid, values: list[int] | None) -> sudokit.Grid:
    """The player's grid: *puzzle*'s givens plus *values* (givens win)."""
    if values is None:
        return puzzle
    shape = puzzle.shape
    if len(values) != shape.ncells:
        raise ApiError(400, f"values needs {shape.ncells} numbers, got {len(values)}")
    if any(not 0 <= v <= shape.n for v in values):
        raise ApiError(400, f"values must be 0..{shape.n}")
    cells = bytes(g or v for g, v in zip(puzzle.cells, values, strict=True))
    return sudokit.Grid(cells, shape)


def _mistake(puzzle: sudokit.Grid, current: sudokit.Grid, budget: int) -> dict[str, object] | None:
    """A "Mistake" step when the player placed a digit the puzzle's solution does not have.

    Hints and explanations need a puzzle with exactly one solution: 422 otherwise."""
    _require_unique(puzzle, budget)
    if current == puzzle:
        return None
    result = sudokit.solve(puzzle, budget=budget)
    if result.status is not sudokit.Status.UNIQUE or result.solution is None:
        return None
    shape = puzzle.shape
    for c, (v, d) in enumerate(zip(current.cells, result.solution.cells, strict=True)):
        if v and v != d:
            step = sudokit.Step(
                "Mistake",
                0.0,
                text=(
                    f"{shape.cell_name(c)} holds {shape.symbol(v)}, but that leads to no solution."
                ),
                cells=(c,),
                size=shape.n,
            )
            return step.to_json()
    return None


def _step_json(step: sudokit.Step, shape: sudokit.Shape) -> dict[str, object]:
    """:meth:`Step.to_json` plus the units it rests on: names and their cells (``[row, col]``,
    1-based) for a UI to shade."""
    out = step.to_json(shape.n)
    units = [u for u in step.units if 0 <= u < len(shape.units)]
    out["units"] = [shape.unit_name(u) for u in units]
    cells = sorted({c for u in units for c in shape.units[u]})
    out["unit_cells"] = [[c // shape.n + 1, c % shape.n + 1] for c in cells]
    return out


def _require_unique(puzzle: sudokit.Grid, budget: int) -> None:
    """Hints and explanations are for puzzles with exactly one solution (and stay bounded)."""
    r = sudokit.solve(puzzle, budget=budget)
    if r.status is sudokit.Status.UNIQUE:
        return
    if r.status is sudokit.Status.INVALID:
        raise ApiError(422, r.error or "conflicting givens")
    why = {
        sudokit.Status.MULTIPLE: "it has more than one solution",
        sudokit.Status.NONE: "it has no solution",
    }.get(r.status, "its solution count could not be settled within the budget")
    raise ApiError(422, f"hints and explanations need a puzzle with one solution: {why}")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _status_of(exc: SudokuError) -> int:
    return 400 if isinstance(exc, ParseError) else 422


class BodyLimit:
    """ASGI middleware: answer 413 when a request body exceeds *limit* bytes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = _error(413, f"request body larger than {self.limit} bytes")
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _error(400, "bad content-length")(scope, receive, send)
                    return
                if declared > self.limit:
                    await too_big(scope, receive, send)
                    return
        # Read the whole body first (it is small by then), counting; replay it to the app.
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await too_big(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# -- the application ------------------------------------------------------------------------


def create_app(limits: Limits | None = None) -> FastAPI:
    """The ASGI app: the JSON API under ``/api`` and the browser app at ``/``.

    :param limits: the bounds on every request (defaults: :class:`Limits`).

    >>> app = create_app()
    >>> sorted(r.path for r in app.routes if r.path.startswith("/api/"))[:3]
    ['/api/check', '/api/convert', '/api/count']
    """
    lim = limits or Limits()
    pool = concurrent.futures.ThreadPoolExecutor(lim.workers, thread_name_prefix="sudokit-web")
    slow_pool = concurrent.futures.ThreadPoolExecutor(
        lim.slow_workers, thread_name_prefix="sudokit-web-slow"
    )
    slow_jobs = 0  # long calls running or waiting (counted until their thread finishes)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        pool.shutdown(wait=False, cancel_futures=True)
        slow_pool.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        lifespan=lifespan,
        title="sudokit",
        version=sudokit.__version__,
        summary="Solve, count, check, generate, rate, hint, explain and convert Sudoku puzzles.",
        description=(
            "Puzzles are text in any supported format (sniffed). Every call is bounded: body "
            f"size {lim.max_body} bytes, grids up to {lim.max_size}x{lim.max_size}, "
            f'{lim.timeout:g} s of work. Errors are `{{"error": "..."}}` with a 4xx status.'
        ),
    )
    app.state.limits = lim

    def _slow_done(_future: object) -> None:
        nonlocal slow_jobs
        slow_jobs -= 1

    async def run(fn: Callable[[], _T], *, slow: bool = False) -> _T:
        """Run *fn* on a worker thread; 422 when it takes longer than the time limit."""
        nonlocal slow_jobs
        loop = asyncio.get_running_loop()
        if slow:
            if slow_jobs >= lim.slow_queue:
                raise ApiError(503, "the server is busy with long requests; try again shortly")
            slow_jobs += 1
            future = loop.run_in_executor(slow_pool, fn)
            future.add_done_callback(_slow_done)
        else:
            future = loop.run_in_executor(pool, fn)
        try:
            return await asyncio.wait_for(asyncio.shield(future), lim.timeout)
        except TimeoutError:
            raise ApiError(
                422, f"the work took longer than the server's limit of {lim.timeout:g} s"
            ) from None

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(SudokuError)
    async def _sudoku_error(_request: Request, exc: SudokuError) -> JSONResponse:
        return _error(_status_of(exc), str(exc))

    @app.exception_handler(ValueError)
    async def _value_error(_request: Request, exc: ValueError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors()[:5]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else e.get("msg", ""))
        return _error(
            400 if any("json" in str(e.get("type")) for e in exc.errors()) else 422,
            "; ".join(parts) or "invalid request",
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error in a request")
        return _error(500, f"internal error: {type(exc).__name__}")

    # -- endpoints ----------------------------------------------------------------------

    @app.get("/api/info", tags=["meta"])
    async def info() -> dict[str, object]:
        """Version, search backend, formats, symmetries, levels and the server's limits."""
        return {
            "version": sudokit.__version__,
            "backend": sudokit.BACKEND,
            "formats": list(sudokit.formats.FORMATS),
            "symmetries": list(sudokit.SYMMETRIES),
            "levels": list(get_args(Level)),
            "limits": {
                "max_body": lim.max_body,
                "max_size": lim.max_size,
                "max_generate": lim.max_generate,
                "max_generate_size": lim.max_generate_size,
                "max_count": lim.max_count,
                "max_budget": lim.max_budget,
                "timeout": lim.timeout,
            },
        }

    async def search(body: SolveIn, limit: int = 2) -> tuple[sudokit.Grid, sudokit.SolveResult]:
        """The puzzle of *body* and its search up to *limit* solutions, within its budget."""
        grid = _parse(body, lim)
        budget = _budget(body.budget, lim)
        return grid, await run(lambda: sudokit.solve(grid, limit=limit, budget=budget))

    @app.post("/api/solve", tags=["solve"])
    async def solve(body: SolveIn) -> dict[str, object]:
        """Solve a puzzle: status (unique, multiple, none, invalid, gave-up) and a solution."""
        grid, r = await search(body)
        return {
            "puzzle": _grid(grid),
            "status": str(r.status),
            "solution": None if r.solution is None else _grid(r.solution),
            "count": r.count,
            "complete": r.complete,
            "guesses": r.guesses,
            "error": r.error,
        }

    @app.post("/api/count", tags=["solve"])
    async def count(body: CountIn) -> dict[str, object]:
        """Count solutions up to ``limit`` (exact when ``complete``)."""
        grid, r = await search(body, max(2, min(body.limit, lim.max_count)))
        if r.status is sudokit.Status.INVALID:
            raise ApiError(422, r.error or "invalid puzzle")
        shown = min(r.count, body.limit)
        return {
            "puzzle": _grid(grid),
            "count": shown,
            "limit": body.limit,
            "at_least": shown >= body.limit,
            "complete": r.complete,
        }

    @app.post("/api/check", tags=["solve"])
    async def check(body: SolveIn) -> dict[str, object]:
        """Check a puzzle: conflicting givens, solved or not, and whether it has one solution."""
        grid, r = await search(body)
        conflicts = [
            {"digit": c.digit, "unit": c.unit, "cells": list(c.cells)} for c in grid.conflicts()
        ]
        return {
            "puzzle": _grid(grid),
            "valid": not conflicts,
            "conflicts": conflicts,
            "solved": grid.is_solution(),
            "status": str(r.status),
            "unique": r.status is sudokit.Status.UNIQUE,
            "clues": grid.clues,
        }

    @app.post("/api/generate", tags=["generate"])
    async def generate(body: GenerateIn) -> dict[str, object]:
        """Generate puzzles with exactly one solution (size, box, symmetry, difficulty, seed)."""
        if body.size > lim.max_generate_size:
            raise ApiError(
                400, f"generating is served up to {lim.max_generate_size}x{lim.max_generate_size}"
            )
        if body.n > lim.max_generate:
            raise ApiError(400, f"at most {lim.max_generate} puzzles per request")
        if body.difficulty is not None and (body.size > 9 or body.n > 10):
            raise ApiError(
                400, "difficulty targets are served for sizes up to 9 and up to 10 puzzles"
            )
        if body.jigsaw and (body.box is not None or body.regions is not None):
            raise ApiError(400, "jigsaw asks for a random region map: leave out box and regions")
        shape = _shape(body.box, body.diagonals, lim, body.regions)
        if shape is not None and shape.n != body.size:
            what = f"box {body.box}" if body.regions is None else "the regions"
            raise ApiError(400, f"{what} does not make a {body.size}x{body.size} grid")

        def work() -> list[sudokit.GeneratedPuzzle]:
            kwargs: dict[str, Any] = {
                "symmetry": body.symmetry,
                "difficulty": body.difficulty,
                "diagonals": body.diagonals and shape is None,
                "jigsaw": body.jigsaw,
            }
            if shape is not None:
                kwargs["shape"] = shape
            else:
                kwargs["size"] = body.size
            if body.seed is not None and body.n == 1:
                return [sudokit.generate(seed=body.seed, **kwargs)]
            if body.seed is not None:
                return list(sudokit.generate_many(body.n, seed=body.seed, jobs=1, **kwargs))
            return [sudokit.generate(**kwargs) for _ in range(body.n)]

        made = await run(work, slow=True)
        return {
            "puzzles": [
                {
                    "puzzle": _grid(p.puzzle),
                    "solution": _grid(p.solution),
                    "seed": p.seed,
                    "clues": p.clues,
                    "symmetry": p.symmetry,
                    "minimal": p.minimal,
                    "difficulty": body.difficulty,
                }
                for p in made
            ]
        }

    @app.post("/api/rate", tags=["logic"])
    async def rate(body: PuzzleIn) -> dict[str, object]:
        """Rate a puzzle on the Sudoku Explainer scale: number, level, score, techniques."""
        grid = _parse(body, lim)
        r = await run(lambda: sudokit.rate(grid, budget_s=lim.logic_seconds), slow=True)
        out = r.to_json()
        out["puzzle"] = _grid(grid)
        out["complete"] = r.complete
        out["steps"] = r.steps
        return out

    def _player(body: HintIn) -> tuple[sudokit.Grid, sudokit.Grid]:
        """The puzzle of a hint or explain request and the player's grid on it."""
        puzzle = _parse(body, lim)
        return puzzle, _with_values(puzzle, body.values)

    @app.post("/api/hint", tags=["logic"])
    async def hint(body: HintIn) -> dict[str, object]:
        """The easiest next step from the player's grid (or a mistake the player made)."""
        puzzle, current = _player(body)

        def work() -> dict[str, object] | None:
            wrong = _mistake(puzzle, current, lim.default_budget)
            if wrong is not None:
                return wrong
            step = sudokit.hint(current)
            return None if step is None else _step_json(step, puzzle.shape)

        step = await run(work, slow=True)
        return {"puzzle": _grid(puzzle), "step": step, "solved": current.is_solution()}

    @app.post("/api/explain", tags=["logic"])
    async def explain(body: ExplainIn) -> dict[str, object]:
        """Every step of the easiest-first solving path from the player's grid."""
        puzzle, current = _player(body)

        def work() -> list[sudokit.Step]:
            wrong = _mistake(puzzle, current, lim.default_budget)
            if wrong is not None:
                raise ApiError(422, f"{wrong['text']} Fix it to see the explanation.")
            return sudokit.explain(current, budget_s=lim.logic_seconds)

        steps = await run(work, slow=True)
        solved = current.cells
        last = bytearray(solved)
        for s in steps:
            for c, d in s.placements:
                last[c] = d
        return {
            "puzzle": _grid(puzzle),
            "steps": [_step_json(s, puzzle.shape) for s in steps],
            "complete": sudokit.Grid(bytes(last), puzzle.shape).is_solution(),
        }

    @app.post("/api/convert", tags=["formats"])
    async def convert(body: ConvertIn) -> dict[str, object]:
        """Read a puzzle in any format and write it in another."""
        grid = _parse(body, lim)
        sniffed = body.format or sudokit.formats.sniff(body.puzzle)
        return {
            "puzzle": _grid(grid),
            "from": sniffed,
            "to": body.to,
            "text": sudokit.formats.dumps(grid, body.to),
        }

    def _query_grid(puzzle: str, box: str | None, regions: str | None) -> sudokit.Grid:
        return _parse(
            PuzzleIn(puzzle=puzzle, box=box, format=None, diagonals=False, regions=regions), lim
        )

    regions_query = Query(None, max_length=2000, description="jigsaw region map, a symbol a cell")

    @app.get("/api/render.svg", tags=["render"], response_class=Response)
    async def render_svg(
        puzzle: str = Query(min_length=1, max_length=2000),
        box: str | None = Query(None, pattern=r"^[0-9]{1,2}x[0-9]{1,2}$"),
        cell: int = Query(40, ge=8, le=100),
        regions: str | None = regions_query,
    ) -> Response:
        """The puzzle as an SVG picture."""
        grid = _query_grid(puzzle, box, regions)
        svg = await run(lambda: render.to_svg(grid, cell=cell))
        return Response(svg, media_type="image/svg+xml")

    @app.get("/api/print.pdf", tags=["render"], response_class=Response)
    async def print_pdf(
        puzzle: str = Query(min_length=1, max_length=2000),
        box: str | None = Query(None, pattern=r"^[0-9]{1,2}x[0-9]{1,2}$"),
        title: str = Query("", max_length=80),
        regions: str | None = regions_query,
    ) -> Response:
        """The puzzle as a one-page PDF for printing (needs reportlab, the ``pdf`` extra)."""
        grid = _query_grid(puzzle, box, regions)

        def work() -> bytes:
            out = io.BytesIO()
            render.to_pdf(grid, out, title=title or f"sudokit {grid.n}x{grid.n}")
            return out.getvalue()

        try:
            pdf = await run(work)
        except ImportError:
            raise ApiError(501, "PDF output needs reportlab (pip install 'sudokit[pdf]')") from None
        return Response(
            pdf,
            media_type="application/pdf",
            headers={"Content-Disposition": 'inline; filename="sudoku.pdf"'},
        )

    @app.get("/api", include_in_schema=False)
    async def api_root() -> RedirectResponse:
        return RedirectResponse("/docs")

    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    app.add_middleware(BodyLimit, limit=lim.max_body)
    return app
