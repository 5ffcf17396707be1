"""The sudokit error hierarchy (layer 0).

Every error the library raises on purpose is a :class:`SudokuError`. Parsing raises
:class:`ParseError` only for syntax; conflicting givens are a status of a grid
(:meth:`sudokit.Grid.conflicts`) and become :class:`InvalidPuzzleError` only where an
operation needs a valid puzzle. Messages are lowercase and quote the input, truncated.
"""

from __future__ import annotations

__all__ = [
    "AlreadySolvedError",
    "BudgetExceededError",
    "InvalidPuzzleError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "ParseError",
    "SudokuError",
    "quote",
]

_QUOTE_LIMIT = 60


def quote(text: object, limit: int = _QUOTE_LIMIT) -> str:
    """Return ``repr(text)`` shortened to about *limit* characters for error messages.

    >>> quote("abc")
    "'abc'"
    >>> quote("x" * 100, limit=10)
    "'xxxxxxxxxx'... (100 chars)"
    """
    if isinstance(text, str | bytes) and len(text) > limit:
        return f"{text[:limit]!r}... ({len(text)} chars)"
    return repr(text)


class SudokuError(Exception):
    """Base class of every error sudokit raises on purpose."""


class ParseError(SudokuError, ValueError):
    """Text that is not a puzzle in the expected format.

    ``line`` and ``column`` are 1-based positions in the source (``None`` when unknown);
    ``source`` names the file or stream (``None`` for a string).
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source is not None:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def located(
        self, *, line: int | None = None, source: str | None = None, column_offset: int = 0
    ) -> ParseError:
        """Return a copy of this error placed at *line* of *source* (used by multi-line readers)."""
        column = None if self.column is None else self.column + column_offset
        return ParseError(
            self.message,
            line=self.line if line is None else line,
            column=column,
            source=self.source if source is None else source,
        )


class InvalidPuzzleError(SudokuError, ValueError):
    """A puzzle whose givens conflict (the same digit twice in a unit).

    ``cells`` lists the conflicting cells as 0-based indices.
    """

    def __init__(self, message: str, cells: tuple[int, ...] = ()) -> None:
        self.cells = cells
        super().__init__(message)


class NoSolutionError(SudokuError):
    """The puzzle has no solution."""


class MultipleSolutionsError(SudokuError):
    """The puzzle has more than one solution where exactly one was required."""


class AlreadySolvedError(SudokuError, ValueError):
    """A grid that is already solved was asked for its next step (:func:`sudokit.next_step`)."""


class BudgetExceededError(SudokuError):
    """A bounded piece of work gave up before reaching an answer: a search ran out of its
    guesses (``budget=``/``--guesses``), the logical solver out of its seconds
    (``--seconds``; :class:`~sudokit.logic.path.StepBudgetExceededError`), or the generator
    out of its searches."""
