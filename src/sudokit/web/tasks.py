"""The work behind the endpoints, as module-level functions of one picklable argument.

Each runs either on a cheap-lane thread or in an expensive-lane worker process
(:mod:`sudokit.web.work`), so each takes plain values (grids, numbers, text) and returns plain
values (dicts, lists, bytes). Worker processes import this module once, in the fork server.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Literal

import sudokit
from sudokit import render

from .errors import ApiError
from .notes import left_out
from .validate import grid_json, require_unique, step_json

__all__ = [
    "Generate",
    "Logic",
    "Print",
    "Search",
    "explain",
    "generate",
    "hint",
    "print_pdf",
    "rate",
    "search",
]


@dataclass(frozen=True, slots=True)
class Search:
    """A search of *grid* up to *limit* solutions within *budget* guesses."""

    grid: sudokit.Grid
    limit: int
    budget: int


def search(job: Search) -> dict[str, Any]:
    """The search's status, first solution, count, completeness, guesses and error."""
    r = sudokit.solve(job.grid, limit=job.limit, budget=job.budget)
    return {
        "status": str(r.status),
        "solution": r.solution,
        "count": r.count,
        "complete": r.complete,
        "guesses": r.guesses,
        "error": r.error,
    }


@dataclass(frozen=True, slots=True)
class Generate:
    """A generate request: the options of :func:`sudokit.generate`, how many, and a seed."""

    options: tuple[tuple[str, Any], ...]
    n: int
    seed: int | None


def generate(job: Generate) -> list[dict[str, Any]]:
    """The generated puzzles as answer objects."""
    kwargs = dict(job.options)
    if job.seed is not None and job.n == 1:
        made = [sudokit.generate(seed=job.seed, **kwargs)]
    elif job.seed is not None:
        made = list(sudokit.generate_many(job.n, seed=job.seed, jobs=1, **kwargs))
    else:
        made = [sudokit.generate(**kwargs) for _ in range(job.n)]
    return [
        {
            "puzzle": grid_json(p.puzzle),
            "solution": grid_json(p.solution),
            "seed": p.seed,
            "clues": p.clues,
            "symmetry": p.symmetry,
            "minimal": p.minimal,
            "difficulty": kwargs.get("difficulty"),
        }
        for p in made
    ]


def rate(job: tuple[sudokit.Grid, float]) -> dict[str, Any]:
    """The rating of a puzzle within a time budget, as the ``/api/rate`` answer."""
    grid, seconds = job
    r = sudokit.rate(grid, budget_s=seconds)
    out: dict[str, Any] = r.to_json()
    out["puzzle"] = grid_json(grid)
    out["complete"] = r.complete
    out["steps"] = r.steps
    return out


@dataclass(frozen=True, slots=True)
class Logic:
    """A hint or explain request: the puzzle, the player's grid, full candidate lists and
    notes (a digit mask per cell, see :mod:`sudokit.web.notes`), and the bounds (guesses of
    the uniqueness search, seconds of logic)."""

    puzzle: sudokit.Grid
    current: sudokit.Grid
    marks: sudokit.Candidates | None
    guesses: int
    seconds: float
    labels: Literal["symbols", "numbers"] = "symbols"
    notes: tuple[int, ...] | None = None


def hint(job: Logic) -> dict[str, Any]:
    """The next step from the player's grid and full candidate lists, or the player's
    mistake; with where the player's notes leave out a digit the step uses."""
    solution = require_unique(job.puzzle, job.guesses)
    player = job.marks or job.current
    found = sudokit.mistake(player, solution, labels=job.labels)
    left: list[dict[str, list[int]]] = []
    if found is None:
        found = sudokit.hint(player, budget_s=job.seconds, labels=job.labels)
        if found is not None and job.notes is not None:
            left = left_out(found, job.current, job.marks, job.notes)
    step = None if found is None else step_json(found, job.puzzle.shape)
    return {
        "puzzle": grid_json(job.puzzle),
        "step": step,
        "solved": job.current.is_solution(),
        "left_out": left,
    }


def explain(job: Logic) -> dict[str, Any]:
    """Every step of the easiest-first path from the player's grid and marks."""
    solution = require_unique(job.puzzle, job.guesses)
    player = job.marks or job.current
    wrong = sudokit.mistake(player, solution, labels=job.labels)
    if wrong is not None:
        raise ApiError(422, f"{wrong.text} Fix it to see the explanation.")
    steps = sudokit.explain(player, budget_s=job.seconds, labels=job.labels)
    last = bytearray(job.current.cells)
    for s in steps:
        for c, d in s.placements:
            last[c] = d
    return {
        "puzzle": grid_json(job.puzzle),
        "steps": [step_json(s, job.puzzle.shape) for s in steps],
        "complete": sudokit.Grid(bytes(last), job.puzzle.shape).is_solution(),
    }


@dataclass(frozen=True, slots=True)
class Print:
    """A printed page: the puzzle, its title and difficulty label, its author and the
    setter's rules text (printed under the grid)."""

    grid: sudokit.Grid
    title: str
    difficulty: str
    author: str = ""
    ruleset: str = ""


def print_pdf(job: Print) -> bytes:
    """The one-page PDF that ``sudokit print`` makes for this puzzle: title, difficulty
    label, and every constraint of the shape drawn (boxes or jigsaw regions, diagonals)."""
    out = io.BytesIO()
    item = render.BookItem(job.grid, None, job.difficulty, job.ruleset)
    title = f"{job.title} by {job.author}" if job.author else job.title
    render.write_book(
        [item], out, title=title, author=job.author, per_page=1, answers=False, title_page=False
    )
    return out.getvalue()
