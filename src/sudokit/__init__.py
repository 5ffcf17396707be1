"""sudokit: a Sudoku toolkit for every size.

Solve, count solutions and prove uniqueness, generate unique puzzles, explain and rate like a
human solver, print and play. The search runs in a small C core when it is built
(:data:`BACKEND` is ``"c"``), else in the pure-Python reference (``"python"``).

>>> import sudokit
>>> g = sudokit.Grid.parse(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
... )
>>> sudokit.solve(g).status
<Status.UNIQUE: 'unique'>
>>> sudokit.count_solutions(sudokit.Grid.empty(sudokit.Shape(2, 2)), limit=1000)
288

The solver, grids and errors load with the package; the heavier areas (formats, logic and
rating, generator, render, batch) load on first use, so ``import sudokit`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._backend import BACKEND
from ._version import __version__
from .constraints import Cage, Constraints
from .errors import (
    AlreadySolvedError,
    BudgetExceededError,
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
    ParseError,
    SudokuError,
)
from .grid import Conflict, Grid
from .shape import Shape
from .solver import (
    SolveResult,
    Status,
    count_solutions,
    default_budget,
    is_unique,
    solution,
    solutions,
    solve,
    solve_many,
)

if TYPE_CHECKING:
    from . import batch, blocks, dask, formats, render, transform
    from ._buildinfo import build_info
    from .blocks import solve_block
    from .generator import (
        SYMMETRIES,
        SYMMETRY_ALIASES,
        GeneratedPuzzle,
        GenerateOptions,
        SymmetryAlias,
        SymmetryName,
        generate,
        generate_many,
    )
    from .logic.step import Step
    from .marks import Candidates
    from .rating import Rating, explain, hint, mistake, next_step, rate
    from .truecands import TrueCandidates, true_candidates

# Public name -> module it is loaded from on first access (PEP 562 lazy attributes).
_LAZY: dict[str, str] = {
    "formats": "sudokit.formats",
    "render": "sudokit.render",
    "transform": "sudokit.transform",
    "batch": "sudokit.batch",
    "blocks": "sudokit.blocks",
    "solve_block": "sudokit.blocks",
    "dask": "sudokit.dask",
    "build_info": "sudokit._buildinfo",
    "Candidates": "sudokit.marks",
    "Step": "sudokit.logic.step",
    "Rating": "sudokit.rating",
    "explain": "sudokit.rating",
    "hint": "sudokit.rating",
    "mistake": "sudokit.rating",
    "next_step": "sudokit.rating",
    "rate": "sudokit.rating",
    "TrueCandidates": "sudokit.truecands",
    "true_candidates": "sudokit.truecands",
    "SYMMETRIES": "sudokit.generator",
    "SYMMETRY_ALIASES": "sudokit.generator",
    "SymmetryAlias": "sudokit.generator",
    "SymmetryName": "sudokit.generator",
    "GenerateOptions": "sudokit.generator",
    "GeneratedPuzzle": "sudokit.generator",
    "generate": "sudokit.generator",
    "generate_many": "sudokit.generator",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    value = module if module_name.endswith("." + name) else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "BACKEND",
    "SYMMETRIES",
    "SYMMETRY_ALIASES",
    "AlreadySolvedError",
    "BudgetExceededError",
    "Cage",
    "Candidates",
    "Conflict",
    "Constraints",
    "GenerateOptions",
    "GeneratedPuzzle",
    "Grid",
    "InvalidPuzzleError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "ParseError",
    "Rating",
    "Shape",
    "SolveResult",
    "Status",
    "Step",
    "SudokuError",
    "SymmetryAlias",
    "SymmetryName",
    "TrueCandidates",
    "__version__",
    "batch",
    "blocks",
    "build_info",
    "count_solutions",
    "dask",
    "default_budget",
    "explain",
    "formats",
    "generate",
    "generate_many",
    "hint",
    "is_unique",
    "mistake",
    "next_step",
    "rate",
    "render",
    "solution",
    "solutions",
    "solve",
    "solve_block",
    "solve_many",
    "transform",
    "true_candidates",
]
