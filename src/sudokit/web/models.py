"""The request and answer models of the JSON API, and the server's :class:`Limits`.

Every request model forbids unknown fields; sizes and counts are bounded here, before any
work starts. The shared checks that need the library (shapes, puzzles, player grids) are in
:mod:`sudokit.web.validate`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from sudokit import SymmetryAlias, SymmetryName

__all__ = [
    "RULE_JSON_CHARS",
    "VARIANT_FLAGS",
    "CountIn",
    "ErrorOut",
    "ExplainIn",
    "FormatName",
    "GenerateIn",
    "HintIn",
    "Level",
    "Limits",
    "MetaIn",
    "PlayerIn",
    "PuzzleIn",
    "RegionMap",
    "RuleObject",
    "RulesIn",
    "SolveIn",
    "Symmetry",
]


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds every request is held to.

    ``max_body`` bytes per request body; ``max_size`` the largest grid size *n* accepted;
    ``max_generate`` puzzles per generate call (``max_generate_size`` the largest size
    generated); ``max_count`` the highest solution-count limit; ``max_budget`` the most
    search guesses one call may spend (``default_budget`` when the request names none);
    ``cheap_budget`` the most guesses of a search on the cheap lane (9x9 and smaller).

    Work runs in two classes (see :mod:`sudokit.web.work`). *Cheap* work (solve, count and
    check up to 9x9, hints up to 9x9, SVG pictures) runs on ``workers`` threads with tight
    bounds (``cheap_budget`` guesses, ``hint_seconds`` of logic) and at most ``cheap_queue``
    requests running or waiting. *Expensive* work (generate, rate, explain, PDF, hints above
    9x9, searches on bigger grids) runs in ``slow_workers`` worker processes with at most
    ``slow_queue`` requests waiting; a worker whose request passes ``timeout`` seconds, or
    whose client goes away, is terminated and replaced, so abandoned work stops. A full queue
    is answered 503 with ``Retry-After: retry_after``; a request over its time 504.
    ``logic_seconds`` bounds a rating or an explanation.

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
    cheap_budget: int = 200_000
    timeout: float = 20.0
    cheap_timeout: float = 5.0
    logic_seconds: float = 8.0
    hint_seconds: float = 1.0
    workers: int = max(2, min(8, os.cpu_count() or 2))
    cheap_queue: int = 256
    slow_workers: int = max(1, min(4, os.cpu_count() or 2))
    slow_queue: int = 32
    retry_after: int = 2


# The name lists below are Literal types for type checkers and the API schema; each equals
# the library's own list (formats.FORMATS, rating.LEVELS, SYMMETRIES + SYMMETRY_ALIASES,
# Labels), which tests/test_vocabulary.py checks.
FormatName = Literal[
    "line",
    "picture",
    "ss",
    "sdk",
    "candidates",
    "candgrid",
    "csv",
    "json",
    "jsonl",
    "fpuzzles",
    "sudokupad",
]
Level = Literal["easy", "medium", "hard", "expert", "extreme"]
#: The library's symmetry names, then the older ones it still accepts (sudokit.SYMMETRY_ALIASES).
Symmetry = Literal[SymmetryName, SymmetryAlias]


#: The generate request's variant switches, in the order the app lists them.
VARIANT_FLAGS = (
    "killer",
    "windoku",
    "antiknight",
    "antiking",
    "nonconsecutive",
    "kropki",
    "xv",
    "parity",
    "thermo",
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorOut(BaseModel):
    """Every error answer: one message, ``{"error": "..."}``."""

    error: str = Field(description="what went wrong, in one line")


#: A jigsaw region map in a request: region indices, or one symbol per cell (numbered in order
#: of first appearance; white space ignored), as the json and jsonl formats carry it.
RegionMap = Annotated[str, Field(max_length=2000)] | Annotated[list[int], Field(max_length=625)]

#: Digit lists, one per cell row by row (up to 625 cells, 64 digits a cell): the player's
#: candidates or notes.
_CellLists = list[Annotated[list[int], Field(max_length=64)]]


def _cell_lists(description: str) -> Any:
    """The field of optional cell lists, None when not sent."""
    return Field(None, max_length=625, description=description)


_REGIONS_FIELD = Field(
    None,
    description=(
        "jigsaw: the region of every cell, row by row, as indices 0..n-1 or one symbol per "
        "cell (e.g. 'AABB...'); each region is n orthogonally connected cells. "
        "Leave out for boxes."
    ),
    examples=["AAABABBBCCCDCDDD"],
)
BOX_PATTERN = r"^[0-9]{1,2}x[0-9]{1,2}$"


#: Two cells (indices row-major from 0) that a dot or an X/V letter joins.
CellPair = Annotated[list[int], Field(min_length=2, max_length=2)]
_CELLS = "cell indices row-major from 0 (r1c1 is 0, r2c1 is n)"


class CageIn(_Model):
    """A killer cage: its cells (distinct digits) and, optionally, their sum."""

    cells: list[int] = Field(min_length=1, max_length=64, description=_CELLS)
    sum: int | None = Field(None, description="the sum of the cage's digits (leave out: no sum)")


class KropkiIn(_Model):
    """Kropki dots between orthogonal neighbours."""

    white: list[CellPair] = Field([], max_length=1300, description="consecutive digits")
    black: list[CellPair] = Field([], max_length=1300, description="one digit is double the other")
    negative: bool = Field(False, description="every other neighbour pair has neither relation")


class XvIn(_Model):
    """XV letters between orthogonal neighbours."""

    x: list[CellPair] = Field([], max_length=1300, description="the two digits sum to 10")
    v: list[CellPair] = Field([], max_length=1300, description="the two digits sum to 5")
    negative: bool = Field(False, description="no other neighbour pair sums to 5 or 10")


#: The most JSON characters one rule object of ``rules`` may take (a long arrow or line of a
#: 25x25 grid fits in well under half of it).
RULE_JSON_CHARS = 4000


def _bounded_rule(obj: dict[str, Any]) -> dict[str, Any]:
    """*obj* unless its JSON is longer than :data:`RULE_JSON_CHARS` (the kind and the fields
    are checked later, by :func:`sudokit.web.validate.with_rules`)."""
    size = len(json.dumps(obj, separators=(",", ":")))
    if size > RULE_JSON_CHARS:
        raise ValueError(f"a rule takes at most {RULE_JSON_CHARS} characters of JSON, not {size}")
    return obj


#: One rule of the kinds of :mod:`sudokit.rules`, as :meth:`Rule.to_json
#: <sudokit.rules.base.Rule.to_json>` writes it: its ``kind`` and its fields.
RuleObject = Annotated[dict[str, Any], AfterValidator(_bounded_rule)]


class RulesIn(_Model):
    """The variant rules of a puzzle, as the json format's puzzle objects carry them (every
    field optional; leave all out for classic Sudoku)."""

    windoku: bool = Field(False, description="windoku: the windows between the boxes are units")
    cages: list[CageIn] | None = Field(
        None, max_length=640, description="killer cages: distinct digits, with an optional sum"
    )
    antiknight: bool = Field(False, description="cells a knight's move apart differ")
    antiking: bool = Field(False, description="cells a king's move apart differ")
    nonconsecutive: bool = Field(False, description="orthogonal neighbours are not consecutive")
    kropki: KropkiIn | None = None
    xv: XvIn | None = None
    parity: str | None = Field(
        None, max_length=700, description="a symbol a cell: e even, o odd, . free"
    )
    thermos: list[Annotated[list[int], Field(min_length=1, max_length=64)]] | None = Field(
        None, max_length=640, description="thermometers, bulb first: digits increase along each"
    )
    rules: list[RuleObject] | None = Field(
        None,
        max_length=400,
        description=(
            "any of the rule kinds of sudokit.rules (arrow, renban, littlekiller, sandwich, "
            "whispers, ...: the server's /api/info lists them under rule_kinds), each an "
            "object of its 'kind' and its fields, cells as indices row-major from 0, as the "
            "json format's 'rules' key holds them. A rule that is malformed or cannot hold "
            "on the grid is a 422 naming its index in this list (rules.0 the first)."
        ),
        examples=[
            [
                {"kind": "arrow", "circle": [0], "arrows": [[1, 2]]},
                {"kind": "renban", "cells": [9, 10, 11]},
                {"kind": "littlekiller", "cells": [1, 11, 21], "total": 12},
            ]
        ],
    )


class PuzzleIn(RulesIn):
    """A puzzle as text in any supported format (sniffed unless ``format`` is given), with
    the variant rules it is played under (the text's own rules, e.g. a json object's cages,
    count too)."""

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
        pattern=BOX_PATTERN,
        description="box shape 'RxC' when the size alone does not say it (e.g. '2x3')",
    )
    diagonals: bool = Field(False, description="Sudoku-X: both main diagonals are units")
    regions: RegionMap | None = _REGIONS_FIELD


class SolveIn(PuzzleIn):
    """A puzzle to search, with an optional guess budget."""

    budget: int | None = Field(
        None, ge=1, description="the most search guesses to spend (bounded by the server)"
    )


class CountIn(SolveIn):
    """A puzzle whose solutions are counted up to ``limit``."""

    limit: int = Field(2, ge=1, le=10_000, description="count solutions up to this many")


class PlayerIn(PuzzleIn):
    """A puzzle and the player's progress on it: placed values and pencil marks."""

    values: list[int] | None = Field(
        None,
        max_length=625,
        description="the player's grid: a value per cell (0 = empty), givens included or not",
    )
    candidates: _CellLists | None = _cell_lists(
        "the player's full candidate lists: the digits marked in each cell, row by row (an "
        "empty list = no list in that cell: every digit its peers allow). The step starts "
        "from these marks, so a candidate the player removed stays removed, and a list "
        "that leaves out the digit that belongs there is a mistake. Partial marks belong "
        "in notes."
    )
    labels: Literal["symbols", "numbers"] = Field(
        "symbols",
        description=(
            "how step texts name digits above 9x9: as the board's symbols (B for 11 on 16x16) "
            "or as numbers (11); the step's data is numbers either way"
        ),
    )


class HintIn(PlayerIn):
    """A hint request: the player's grid, full candidate lists and notes."""

    notes: _CellLists | None = _cell_lists(
        "the player's notes: centre marks that need not list every candidate (a pair "
        "written Snyder style), row by row (an empty list = none). Never read as "
        "candidates: the hint starts from the real ones, and the answer's left_out says "
        "where a note leaves out a digit the hint still counts possible."
    )


class ExplainIn(PlayerIn):
    """Like a hint request: the whole path from the player's grid is explained."""


class MetaIn(_Model):
    """The words about a puzzle that a link keeps: title, author and the setter's rules text."""

    title: str | None = Field(None, max_length=200, description="the puzzle's title")
    author: str | None = Field(None, max_length=200, description="who set it")
    ruleset: str | None = Field(
        None, max_length=4000, description="the setter's rules, in the setter's words"
    )


class ConvertIn(PuzzleIn):
    """A puzzle to write in another format, with the words and the solution to keep."""

    to: FormatName = Field("line", description="the format to write")
    meta: MetaIn | None = Field(
        None,
        description=(
            "title, author and rules text to write (formats that carry them: f-puzzles and "
            "SudokuPad links, json, csv, sdk's author); they replace the text's own"
        ),
    )
    solution: str | None = Field(
        None,
        max_length=2000,
        description=(
            "the setter's solution, a line (written where the format keeps one); replaces "
            "the text's own"
        ),
    )


class GenerateIn(_Model):
    """What to generate: size or shape, difficulty, symmetry, variant, seed and count."""

    size: int = Field(9, ge=4, le=25, description="grid size n (4, 6, 8, 9, 12, 16, ...)")
    box: str | None = Field(None, pattern=BOX_PATTERN, description="box shape 'RxC'")
    difficulty: Level | None = Field(None, description="target level (rated; may take longer)")
    symmetry: Symmetry = "none"
    diagonals: bool = False
    regions: RegionMap | None = _REGIONS_FIELD
    jigsaw: bool = Field(False, description="a fresh random jigsaw region map of the size")
    killer: bool = Field(False, description="killer cages (no givens unless needed)")
    windoku: bool = Field(False, description="windoku: the four extra windows are units")
    antiknight: bool = Field(False, description="anti-knight")
    antiking: bool = Field(False, description="anti-king")
    nonconsecutive: bool = Field(False, description="non-consecutive neighbours")
    kropki: bool = Field(False, description="kropki dots")
    xv: bool = Field(False, description="XV letters")
    parity: bool = Field(False, description="even and odd cells")
    thermo: bool = Field(False, description="thermometers")
    seed: int | None = Field(None, ge=0, lt=2**63)
    n: int = Field(1, ge=1, le=50, description="how many puzzles")
