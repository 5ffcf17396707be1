"""sudokit: a Sudoku toolkit for every size.

Solve, count solutions and prove uniqueness, generate unique puzzles, explain and rate like a
human solver, print and play. The search runs in a small C core when it is built
(:data:`BACKEND` is ``"c"``), else in the pure-Python reference (``"python"``).

>>> import sudokit
>>> g = sudokit.Grid.parse("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> g.clues
32
"""

from __future__ import annotations

from ._backend import BACKEND
from ._version import __version__
from .errors import (
    BudgetExceededError,
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
    ParseError,
    SudokuError,
)
from .grid import Conflict, Grid
from .shape import Shape

__all__ = [
    "BACKEND",
    "BudgetExceededError",
    "Conflict",
    "Grid",
    "InvalidPuzzleError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "ParseError",
    "Shape",
    "SudokuError",
    "__version__",
]

# Each area adds its public names below, one import block per module, and extends __all__.

from .solver import (
    SolveResult,
    Status,
    count_solutions,
    is_unique,
    solution,
    solutions,
    solve,
    solve_many,
)

__all__ += [
    "SolveResult",
    "Status",
    "count_solutions",
    "is_unique",
    "solution",
    "solutions",
    "solve",
    "solve_many",
]

from .logic.step import Step
from .rating import Rating, explain, hint, rate

__all__ += ["Rating", "Step", "explain", "hint", "rate"]

from . import formats
from .marks import Candidates

__all__ += ["Candidates", "formats"]

from .generator import SYMMETRIES, GeneratedPuzzle, generate, generate_many

__all__ += ["SYMMETRIES", "GeneratedPuzzle", "generate", "generate_many"]

from . import batch, dask

__all__ += ["batch", "dask"]
