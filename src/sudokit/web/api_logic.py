"""Human-style logic: rate, hint and explain.

Hints up to 9x9 are cheap work (threads, ``Limits.hint_seconds`` of logic); larger hints,
ratings and explanations run in a worker process.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from . import tasks
from .context import CHEAP_CELLS, server
from .errors import RESPONSES
from .models import ExplainIn, HintIn, PlayerIn, PuzzleIn
from .validate import mark_masks, parse, player

__all__ = ["router"]

router = APIRouter(tags=["logic"], responses=RESPONSES)


@router.post("/api/rate")
async def rate(body: PuzzleIn, request: Request) -> dict[str, Any]:
    """Rate a puzzle on the Sudoku Explainer scale: number, level, score, techniques."""
    srv = server(request)
    grid = parse(body, srv.limits)
    return await srv.run(False, tasks.rate, (grid, srv.limits.logic_seconds), request)


def _logic(body: PlayerIn, request: Request, seconds: float) -> tuple[bool, tasks.Logic]:
    """Whether the request is cheap, and its job."""
    lim = server(request).limits
    puzzle = parse(body, lim)
    current, marks = player(puzzle, body.values, body.candidates)
    notes = mark_masks("notes", current, body.notes) if isinstance(body, HintIn) else None
    cheap = puzzle.shape.ncells <= CHEAP_CELLS
    guesses = lim.cheap_budget if cheap else lim.default_budget
    return cheap, tasks.Logic(puzzle, current, marks, guesses, seconds, body.labels, notes)


@router.post("/api/hint")
async def hint(body: HintIn, request: Request) -> dict[str, Any]:
    """The easiest next step from the player's grid and full candidate lists (or a mistake
    the player made), and where the player's notes leave out a digit the step uses."""
    srv = server(request)
    cheap, job = _logic(body, request, srv.limits.hint_seconds)
    return await srv.run(cheap, tasks.hint, job, request)


@router.post("/api/explain")
async def explain(body: ExplainIn, request: Request) -> dict[str, Any]:
    """Every step of the easiest-first solving path from the player's grid."""
    srv = server(request)
    _, job = _logic(body, request, srv.limits.logic_seconds)
    return await srv.run(False, tasks.explain, job, request)
