"""The generate endpoint: new puzzles in a worker process (expensive work)."""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

from fastapi import APIRouter, Request

import sudokit

from . import tasks
from .context import server
from .errors import RESPONSES, ApiError
from .models import VARIANT_FLAGS, GenerateIn, Limits
from .validate import require_shown, shape_of

__all__ = ["generated_variants", "router"]

router = APIRouter(tags=["generate"], responses=RESPONSES)


def _options(body: GenerateIn, lim: Limits) -> tuple[tuple[str, Any], ...]:
    """The :func:`sudokit.generate` options of *body*, checked against *lim* (400 otherwise)."""
    if body.size > lim.max_generate_size:
        raise ApiError(
            400, f"generating is served up to {lim.max_generate_size}x{lim.max_generate_size}"
        )
    if body.n > lim.max_generate:
        raise ApiError(400, f"at most {lim.max_generate} puzzles per request")
    if body.difficulty is not None and (body.size > 9 or body.n > 10):
        raise ApiError(400, "difficulty targets are served for sizes up to 9 and up to 10 puzzles")
    if body.jigsaw and (body.box is not None or body.regions is not None):
        raise ApiError(400, "jigsaw asks for a random region map: leave out box and regions")
    shape = shape_of(body.box, body.diagonals, lim, body.regions)
    if shape is not None and shape.n != body.size:
        what = f"box {body.box}" if body.regions is None else "the regions"
        raise ApiError(400, f"{what} does not make a {body.size}x{body.size} grid")
    if shape is None and not body.jigsaw:
        require_shown(sudokit.Shape.from_size(body.size), lim)
    options: dict[str, Any] = {
        "symmetry": body.symmetry,
        "difficulty": body.difficulty,
        "diagonals": body.diagonals and shape is None,
        "jigsaw": body.jigsaw,
    }
    if body.windoku:
        # Windows ride on the shape, as diagonals and regions do: every generator fills them.
        if body.jigsaw:
            raise ApiError(400, "windoku windows need boxes: leave out jigsaw")
        base = shape or sudokit.Shape.from_size(body.size)
        try:
            shape = sudokit.Shape(
                base.box_rows,
                base.box_cols,
                diagonals=base.diagonals or body.diagonals,
                regions=base.regions,
                windoku=True,
            )
        except ValueError as exc:
            raise ApiError(400, f"windoku: {exc}") from None
        options["diagonals"] = False
    if shape is not None:
        options["shape"] = shape
    else:
        options["size"] = body.size
    for flag in VARIANT_FLAGS:
        if flag != "windoku" and getattr(body, flag):
            if flag not in _variant_options():
                raise ApiError(501, f"this server's generator does not make {flag} puzzles")
            options[flag] = True
    return tuple(options.items())


def generated_variants() -> list[str]:
    """The variant switches ``/api/generate`` serves, in the app's order (windoku always:
    its windows ride on the shape).

    >>> "windoku" in generated_variants()
    True
    """
    return [f for f in VARIANT_FLAGS if f == "windoku" or f in _variant_options()]


@cache
def _variant_options() -> frozenset[str]:
    """The variant switches :func:`sudokit.generate` takes (keyword arguments, or the fields
    of :class:`sudokit.GenerateOptions` when it passes its options through)."""
    names = set(inspect.signature(sudokit.generate).parameters)
    options = getattr(sudokit, "GenerateOptions", None)
    if options is not None:
        names |= set(inspect.signature(options).parameters)
    return frozenset(names & set(VARIANT_FLAGS))


@router.post("/api/generate")
async def generate(body: GenerateIn, request: Request) -> dict[str, object]:
    """Generate puzzles with exactly one solution (size, box, symmetry, difficulty, seed)."""
    srv = server(request)
    job = tasks.Generate(_options(body, srv.limits), body.n, body.seed)
    return {"puzzles": await srv.run(False, tasks.generate, job, request)}
