"""Endpoints that search: solve, count and check (cheap up to 9x9, in a worker above)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

import sudokit

from .context import server
from .errors import RESPONSES, ApiError
from .models import CountIn, SolveIn
from .validate import grid_json, parse

__all__ = ["router"]

router = APIRouter(tags=["solve"], responses=RESPONSES)


def _json(grid: sudokit.Grid | None) -> dict[str, object] | None:
    return None if grid is None else grid_json(grid)


@router.post("/api/solve")
async def solve(body: SolveIn, request: Request) -> dict[str, object]:
    """Solve a puzzle: status (unique, multiple, none, invalid, gave-up) and a solution."""
    srv = server(request)
    grid = parse(body, srv.limits)
    r = await srv.search(grid, 2, body.budget, request)
    return {
        "puzzle": grid_json(grid),
        "status": r["status"],
        "solution": _json(r["solution"]),
        "count": r["count"],
        "complete": r["complete"],
        "guesses": r["guesses"],
        "error": r["error"],
    }


@router.post("/api/count")
async def count(body: CountIn, request: Request) -> dict[str, object]:
    """Count solutions up to ``limit``: exact when ``complete`` and not ``at_least``; a
    search that ran out of guesses (``complete`` false) gives the solutions found so far, a
    lower bound (``at_least`` true)."""
    srv = server(request)
    grid = parse(body, srv.limits)
    r: dict[str, Any] = await srv.search(
        grid, max(2, min(body.limit, srv.limits.max_count)), body.budget, request
    )
    if r["status"] == str(sudokit.Status.INVALID):
        raise ApiError(422, r["error"] or "invalid puzzle")
    shown = min(r["count"], body.limit)
    return {
        "puzzle": grid_json(grid),
        "count": shown,
        "limit": body.limit,
        "at_least": shown >= body.limit or not r["complete"],
        "complete": r["complete"],
    }


@router.post("/api/check")
async def check(body: SolveIn, request: Request) -> dict[str, object]:
    """Check a puzzle: conflicting givens, solved or not, and whether it has one solution."""
    srv = server(request)
    grid = parse(body, srv.limits)
    r = await srv.search(grid, 2, body.budget, request)
    conflicts = [
        {"digit": c.digit, "unit": c.unit, "cells": list(c.cells)} for c in grid.conflicts()
    ]
    return {
        "puzzle": grid_json(grid),
        "valid": not conflicts,
        "conflicts": conflicts,
        "solved": grid.is_solution(),
        "status": r["status"],
        "unique": r["status"] == str(sudokit.Status.UNIQUE),
        "complete": r["complete"],
        "clues": grid.clues,
    }
