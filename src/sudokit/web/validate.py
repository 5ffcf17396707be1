"""Shared request validation: shapes, puzzles, variant rules, the player's grid and marks,
answer objects.

Every endpoint reads its puzzle through :func:`parse` (or :func:`shape_of` for a generate
request), so the same request gets the same 400 everywhere. Only shapes the browser app can
show are served: boxes of at least 2 rows and 2 columns (or a jigsaw region map), sizes up to
``Limits.max_size``. Variant rules (windoku, killer cages, anti-knight, kropki, ...) come as
the request's fields named as the json format names them (:class:`~.models.RulesIn`); a rule
that cannot hold on the grid is one 422 naming it (:func:`with_rules`, which reads them as the
json format does), and answers carry the rules back in the same form (:func:`rules_json`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import sudokit
from sudokit.errors import ParseError, SudokuError

from .errors import ApiError
from .models import Limits, PuzzleIn, RulesIn

__all__ = [
    "META_KEYS",
    "about_json",
    "accepted_sizes",
    "budget",
    "check_kinds",
    "grid_json",
    "mark_masks",
    "meta_of",
    "parse",
    "parse_record",
    "player",
    "require_shown",
    "require_unique",
    "rule_keys",
    "rules_json",
    "setter_solution",
    "shape_of",
    "step_json",
    "with_rules",
]


def accepted_sizes(limits: Limits) -> list[int]:
    """The sizes with a box of at least 2x2 up to *limits*' largest (4, 6, 8, 9, 10, 12, ...).

    >>> accepted_sizes(Limits(max_size=12))
    [4, 6, 8, 9, 10, 12]
    """
    return [n for n in range(4, limits.max_size + 1) if sudokit.Shape.from_size(n).box_rows > 1]


def _refuse_size(n: int, limits: Limits, why: str) -> ApiError:
    sizes = ", ".join(map(str, accepted_sizes(limits)))
    return ApiError(
        400,
        f"{why}: the app shows sizes {sizes} (boxes of at least 2x2; any of these sizes as "
        "a jigsaw with regions)",
    )


def require_shown(shape: sudokit.Shape, limits: Limits) -> None:
    """400 unless the app can show *shape*: size up to the limit, boxes at least 2x2 (any
    size from 4 as a jigsaw), every jigsaw region one connected piece."""
    n = shape.n
    if n > limits.max_size:
        raise _refuse_size(n, limits, f"a {n}x{n} grid is larger than this server serves")
    if shape.regions is None and min(shape.box_rows, shape.box_cols) < 2:
        raise _refuse_size(n, limits, f"boxes of {shape.box_spec} cannot be shown")
    if shape.regions is not None:
        if n < 4:
            raise _refuse_size(n, limits, f"a {n}x{n} jigsaw is too small")
        split = shape.disconnected_region()
        if split is not None:
            cells = shape.units[2 * shape.n + split]
            where = ", ".join(shape.cell_name(c) for c in cells)
            raise ApiError(
                400,
                f"regions: region {split} ({where}) is not connected: each region "
                "must be one piece of orthogonally adjacent cells",
            )


def shape_of(
    box: str | None, diagonals: bool, limits: Limits, regions: str | list[int] | None = None
) -> sudokit.Shape | None:
    """The shape a request names by its *box* or jigsaw *regions* (None when neither)."""
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
    require_shown(shape, limits)
    return shape


def _cells_in(text: str) -> int:
    """How many cells a one-symbol-per-cell line holds (0 when *text* is not such a line)."""
    line = text.strip()
    return 0 if not line or any(ch.isspace() or ch in ",;|" for ch in line) else len(line)


def parse(body: PuzzleIn, limits: Limits) -> sudokit.Grid:
    """The one puzzle of *body*, on a shape the app can show (400 otherwise)."""
    return parse_record(body, limits)[0]


def parse_record(body: PuzzleIn, limits: Limits) -> tuple[sudokit.Grid, Mapping[str, str]]:
    """The one puzzle of *body*, as :func:`parse` reads it, and the fields its text carries
    (a link's title, author, rules text and solution, ...)."""
    shape = shape_of(body.box, body.diagonals, limits, body.regions)
    try:
        record = sudokit.formats.parse_one_record(body.puzzle, body.format, shape)
    except ParseError:
        cells = _cells_in(body.puzzle)
        side = math.isqrt(cells)
        if shape is None and side * side == cells and side > limits.max_size:
            raise _refuse_size(
                side, limits, f"{cells} cells make a {side}x{side} grid, larger than served"
            ) from None
        raise
    grid = record.grid
    assert grid is not None  # a record without a grid raised
    if body.diagonals and not grid.shape.diagonals:
        grid = sudokit.Grid(grid.cells, grid.shape.with_diagonals())
    if shape is None:
        require_shown(grid.shape, limits)
    return with_rules(grid, body), record.fields


#: The words about a puzzle an answer carries (``meta``): its title, its author and the
#: setter's rules text, named as f-puzzles names them.
META_KEYS = ("title", "author", "ruleset")


def meta_of(fields: Mapping[str, str]) -> dict[str, str]:
    """The title, author and rules text of a record's *fields* (only those that are set).

    >>> meta_of({"title": "Kings", "ruleset": "Normal sudoku rules.", "id": "7"})
    {'title': 'Kings', 'ruleset': 'Normal sudoku rules.'}
    """
    return {key: value for key in META_KEYS if (value := fields.get(key, "").strip())}


def setter_solution(grid: sudokit.Grid, fields: Mapping[str, str]) -> sudokit.Grid | None:
    """The solution a record's *fields* publish for *grid* (a link's ``solution``), on its
    shape; None when there is none or it is not a full grid of the size."""
    line = fields.get("solution", "")
    if not line:
        return None
    try:
        solution = sudokit.Grid.parse(line, grid.shape)
    except (SudokuError, ValueError):
        return None
    return solution if solution.is_complete else None


def about_json(
    grid: sudokit.Grid, meta: Mapping[str, str], solution: sudokit.Grid | None
) -> dict[str, object]:
    """What an answer says about *grid* besides its cells: ``meta`` (title, author, rules
    text), the setter's ``solution`` (a grid object, or None) and ``solution_valid``
    (whether it keeps the givens and every rule sudokit reads; None without one)."""
    return {
        "meta": dict(meta),
        "solution": None if solution is None else grid_json(solution),
        "solution_valid": None if solution is None else solution.is_solution(grid),
    }


def rule_keys(rules: RulesIn) -> dict[str, Any]:
    """The rule fields a request sets, as the json format's puzzle object writes them."""
    fields = rules.model_dump(exclude_defaults=True)
    return {k: v for k, v in fields.items() if k in RulesIn.model_fields}


def with_rules(grid: sudokit.Grid, rules: RulesIn) -> sudokit.Grid:
    """*grid* on its shape plus the request's variant *rules*, read as the json format reads
    a puzzle object's rule keys (:func:`sudokit.formats.json.grid_from_value`); a rule that
    cannot hold on the grid (a cage sum impossible for its size, overlapping cages, a cell
    index out of range, a thermometer that is not a path, ...) is one 422 naming it. Rules
    the puzzle text carried itself stay; the request may repeat them, not change them.

    >>> g = sudokit.Grid.parse("." * 16)
    >>> with_rules(g, RulesIn(cages=[{"cells": [0, 1], "sum": 3}])).shape.variant
    'killer'
    >>> try:
    ...     with_rules(g, RulesIn(cages=[{"cells": [0, 1], "sum": 30}]))
    ... except ApiError as exc:
    ...     print(exc.status, exc.message)
    422 cage of sum 30 at r1c1: 2 cells cannot add up to 30 (possible: 3..7)
    """
    keys = rule_keys(rules)
    if not keys:
        return grid
    shape = grid.shape
    check_kinds(rules.rules or (), shape.n)
    try:
        ruled, _ = sudokit.formats.json.grid_from_value(
            {"puzzle": list(grid.cells), **keys}, shape.classic()
        )
    except ParseError as exc:
        raise ApiError(422, str(exc)) from None
    if shape.classic() != shape and ruled.shape != shape:
        raise ApiError(
            422, "the puzzle text has rules of its own: give them there or in the request, not both"
        )
    return ruled


def check_kinds(objects: Sequence[Mapping[str, Any]], n: int) -> None:
    """Read and check each object of a request's ``rules`` (a kind of :mod:`sudokit.rules`) on
    an ``n x n`` grid: a malformed one (:meth:`Rule.from_json <sudokit.rules.Rule.from_json>`)
    or one that cannot hold (:meth:`Constraints.check <sudokit.Constraints.check>`) is one 422
    naming its index in the list.

    >>> check_kinds([{"kind": "renban", "cells": [0, 1]}], 4)
    >>> for bad in ({"kind": "renban", "cells": [0, 1]}, {"kind": "renban", "cells": [0, 2]}):
    ...     try:
    ...         check_kinds([{"kind": "renban", "cells": [0, 1]}, bad, {"kind": "x"}], 4)
    ...     except ApiError as exc:
    ...         print(exc.status, exc.message)
    422 rules.2: unknown rule kind 'x' (known: arrow, between, boxindexer, clone, ...)
    422 rules.1: renban line at r1c1 is not a path: r1c1 and r1c3 are not neighbours
    """
    for k, obj in enumerate(objects):
        try:
            sudokit.Constraints(rules=[sudokit.rules.Rule.from_json(obj)]).check(n)
        except ValueError as exc:
            raise ApiError(422, f"rules.{k}: {exc}") from None


def rules_json(grid: sudokit.Grid) -> dict[str, Any]:
    """The variant rules of *grid*'s shape as an answer carries them: the rule keys of the
    json format's puzzle object (only the rules that are set).

    >>> c = sudokit.Constraints(cages=[sudokit.Cage((0, 1), 3)], antiknight=True)
    >>> rules_json(sudokit.Grid(bytes(16), sudokit.Shape(2, 2, constraints=c)))
    {'cages': [{'sum': 3, 'cells': [0, 1]}], 'antiknight': True}
    """
    if grid.shape.classic() is grid.shape:
        return {}
    obj = sudokit.formats.json.to_object(grid)
    return {k: v for k, v in obj.items() if k in RulesIn.model_fields}


def grid_json(grid: sudokit.Grid) -> dict[str, object]:
    """The *grid object* of an answer: line, size, box, diagonals, regions, cells, the
    variant's name (``shape.variant``) and its rules (:func:`rules_json`)."""
    shape = grid.shape
    return {
        "line": str(grid),
        "size": shape.n,
        "box": shape.box_spec,
        "diagonals": shape.diagonals,
        "regions": None if shape.regions is None else list(shape.regions),
        "cells": list(grid.cells),
        "variant": shape.variant,
        **rules_json(grid),
    }


def budget(requested: int | None, limits: Limits, cap: int | None = None) -> int:
    """The guesses a search may spend: the request's, bounded by the server (and *cap*)."""
    most = limits.max_budget if cap is None else min(cap, limits.max_budget)
    return min(limits.default_budget if requested is None else requested, most)


def player(
    puzzle: sudokit.Grid, values: Sequence[int] | None, marks: Sequence[Sequence[int]] | None
) -> tuple[sudokit.Grid, sudokit.Candidates | None]:
    """The player's grid (*puzzle*'s givens plus *values*; givens win) and, when the player
    has pencil marks, their candidates (an unmarked open cell keeps every digit)."""
    shape = puzzle.shape
    current = puzzle
    if values is not None:
        if len(values) != shape.ncells:
            raise ApiError(400, f"values needs {shape.ncells} numbers, got {len(values)}")
        if any(not 0 <= v <= shape.n for v in values):
            raise ApiError(400, f"values must be 0..{shape.n}")
        cells = bytes(g or v for g, v in zip(puzzle.cells, values, strict=True))
        current = sudokit.Grid(cells, shape)
    masks = mark_masks("candidates", current, marks)
    if masks is None:
        return current, None
    full = (1 << shape.n) - 1
    lists = [1 << (v - 1) if v else m or full for v, m in zip(current.cells, masks, strict=True)]
    return current, sudokit.Candidates(shape, tuple(lists), current.cells)


def mark_masks(
    field: str, current: sudokit.Grid, marks: Sequence[Sequence[int]] | None
) -> tuple[int, ...] | None:
    """The digits marked in each open cell of *current* as a bitmask (0 for a placed or an
    unmarked cell), from the request's *field*; None when nothing is marked."""
    if marks is None or not any(marks):
        return None
    shape = current.shape
    if len(marks) != shape.ncells:
        raise ApiError(400, f"{field} needs {shape.ncells} lists, got {len(marks)}")
    if any(not 1 <= d <= shape.n for digits in marks for d in digits):
        raise ApiError(400, f"{field} must be digits 1..{shape.n}")
    return tuple(
        0 if v else sum(1 << (d - 1) for d in set(digits))
        for v, digits in zip(current.cells, marks, strict=True)
    )


def require_unique(puzzle: sudokit.Grid, guesses: int) -> sudokit.Grid:
    """The one solution of *puzzle*: hints and explanations need exactly one (422 otherwise)."""
    r = sudokit.solve(puzzle, budget=guesses)
    if r.status is sudokit.Status.UNIQUE and r.solution is not None:
        return r.solution
    if r.status is sudokit.Status.INVALID:
        raise ApiError(422, r.error or "conflicting givens")
    why = {
        sudokit.Status.MULTIPLE: "it has more than one solution",
        sudokit.Status.NONE: "it has no solution",
    }.get(r.status, "its solution count could not be settled within the budget")
    raise ApiError(422, f"hints and explanations need a puzzle with one solution: {why}")


def step_json(step: sudokit.Step, shape: sudokit.Shape) -> dict[str, object]:
    """:meth:`Step.to_json` plus the units it rests on: names and their cells (``[row, col]``,
    1-based) for a UI to shade."""
    out = step.to_json(shape.n)
    units = [u for u in step.units if 0 <= u < len(shape.units)]
    out["units"] = [shape.unit_name(u) for u in units]
    cells = sorted({c for u in units for c in shape.units[u]})
    out["unit_cells"] = [[c // shape.n + 1, c % shape.n + 1] for c in cells]
    return out
