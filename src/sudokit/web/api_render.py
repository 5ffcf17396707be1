"""Pictures and printing: an SVG of the puzzle (cheap), its rule kinds alone for the app's
board (cheap), and a printable PDF page (in a worker)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import ValidationError

import sudokit
from sudokit import render

from . import tasks
from .context import server
from .errors import ApiError, responses
from .models import BOX_PATTERN, PuzzleIn, RulesIn
from .validate import parse

__all__ = ["router"]

router = APIRouter(tags=["render"], responses=responses(400, 422, 503, 504))

_PUZZLE = Query(min_length=1, max_length=2000, description="the puzzle text (any format)")
_BOX = Query(None, pattern=BOX_PATTERN, description="box shape 'RxC'")
_REGIONS = Query(None, max_length=2000, description="jigsaw region map, a symbol a cell")
_DIAGONALS = Query(False, description="Sudoku-X: draw (and check) both main diagonals")
_RULES = Query(
    None,
    max_length=12_000,
    description=(
        "the variant rules as one JSON object with the json format's fields (cages, windoku, "
        "antiknight, antiking, nonconsecutive, kropki, xv, parity, thermos, rules)"
    ),
    examples=['{"cages": [{"cells": [0, 1], "sum": 3}], "antiknight": true}'],
)


def _grid(
    request: Request,
    puzzle: str,
    box: str | None,
    regions: str | None,
    diagonals: bool,
    rules: str | None,
) -> sudokit.Grid:
    fields = {"puzzle": puzzle, "box": box, "diagonals": diagonals, "regions": regions}
    try:
        if rules:
            fields.update(RulesIn.model_validate_json(rules).model_dump(exclude_defaults=True))
        body = PuzzleIn.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ApiError(422, f"rules: {where + ': ' if where else ''}{first['msg']}") from None
    return parse(body, server(request).limits)


@router.get("/api/render.svg", response_class=Response)
async def render_svg(
    request: Request,
    puzzle: str = _PUZZLE,
    box: str | None = _BOX,
    cell: int = Query(40, ge=8, le=100),
    regions: str | None = _REGIONS,
    diagonals: bool = _DIAGONALS,
    rules: str | None = _RULES,
) -> Response:
    """The puzzle as an SVG picture (with its variant's rules drawn)."""
    grid = _grid(request, puzzle, box, regions, diagonals, rules)
    svg = await server(request).run(True, lambda g: render.to_svg(g, cell=cell), grid, request)
    return Response(svg, media_type="image/svg+xml")


def kinds_layer(grid: sudokit.Grid, cell: int) -> dict[str, object]:
    """The drawing of *grid*'s rule kinds (arrows, lines, outside clues, shaded cells...) as
    the app lays it under its own board: the SVG of an empty grid carrying only those rules
    (the ``rules`` layer and the shaded cells of the ``cells`` layer are the marks), the
    margins the outside clues take (top, right, bottom, left, in cells) and each kind's
    sentence.

    >>> from sudokit.rules import Renban
    >>> c = sudokit.Constraints(rules=[Renban((0, 1))])
    >>> out = kinds_layer(sudokit.Grid(bytes(16), sudokit.Shape(2, 2, constraints=c)), 60)
    >>> out["margins"], 'class="line renban line"' in str(out["svg"])
    ([0.0, 0.0, 0.0, 0.0], True)
    """
    shape = grid.shape
    kinds = shape.constraints.rules if shape.constraints is not None else ()
    only = sudokit.Shape(
        shape.box_rows,
        shape.box_cols,
        regions=shape.regions,
        constraints=sudokit.Constraints(rules=kinds) if kinds else None,
    )
    scene = render.draw(sudokit.Grid(bytes(shape.ncells), only))
    return {
        "svg": render.to_svg(scene, cell=cell, caption=False),
        "margins": list(scene.margins),
        "sentences": [rule.sentence for rule in render.rules(only)],
    }


@router.post("/api/rules-layer", responses=responses(413))
async def rules_layer(body: PuzzleIn, request: Request) -> dict[str, object]:
    """The drawing of the puzzle's rule kinds (``rules``) for a board that draws the rest
    itself: ``svg`` (an SVG of the empty grid with only those rules, 60 units a cell: its
    ``rules`` layer and shaded cells), ``margins`` (the room outside clues take past each
    side, top, right, bottom, left, in cells) and ``sentences`` (each kind in words)."""
    srv = server(request)
    grid = parse(body, srv.limits)
    return await srv.run(True, lambda g: kinds_layer(g, 60), grid, request)


@router.get(
    "/api/print.pdf",
    response_class=Response,
    responses=responses(501),
)
async def print_pdf(
    request: Request,
    puzzle: str = _PUZZLE,
    box: str | None = _BOX,
    title: str = Query("", max_length=200, description="the page title"),
    difficulty: str = Query("", max_length=40, description="the difficulty label"),
    author: str = Query("", max_length=200, description="who set it (the title says 'by')"),
    ruleset: str = Query(
        "", max_length=4000, description="the setter's rules text, printed under the grid"
    ),
    regions: str | None = _REGIONS,
    diagonals: bool = _DIAGONALS,
    rules: str | None = _RULES,
) -> Response:
    """The puzzle as the one-page PDF ``sudokit print`` makes: title (with its author),
    difficulty, every constraint drawn (boxes or jigsaw regions, diagonals, the variant's
    rules) and the setter's rules text under the grid. Needs reportlab (``pdf`` extra)."""
    grid = _grid(request, puzzle, box, regions, diagonals, rules)
    job = tasks.Print(
        grid, title or f"Sudoku {grid.n}x{grid.n}", difficulty, author.strip(), ruleset.strip()
    )
    pdf = await server(request).run(False, tasks.print_pdf, job, request)
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": 'inline; filename="sudoku.pdf"'},
    )
