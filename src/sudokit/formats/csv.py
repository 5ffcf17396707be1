"""CSV with a header: ``puzzle,solution,...`` (the Kaggle and ML dataset layout), or a
spreadsheet grid saved as CSV (:mod:`sudokit.formats.sheet`: a CSV row per grid row), as the
first row says.

The puzzle column is the first one named ``puzzle``, ``quizzes``, ``quiz``, ``puzzles``,
``sudoku``, ``grid`` or ``givens`` (else the first column, and a first line that is itself a
puzzle means there is no header). ``solution``/``solutions`` is kept as the field ``solution``;
every other column is kept under its header name; a ``box`` column (``2x3``) sets the shape.
Output writes the header once: ``puzzle``, then ``solution`` and the other fields.

>>> from sudokit.formats import parse
>>> text = "id,quizzes,solutions\\n7,1.3....22....3.1,1234341221434321\\n"
>>> [(str(r.grid), r.fields) for r in read_text(text)]
[('1.3....22....3.1', {'id': '7', 'solution': '1234341221434321'})]
>>> print(dumps(parse(text)[0], fields={"id": "7"}))
puzzle,id
1.3....22....3.1,7
"""

from __future__ import annotations

import csv as _csv
import io
import itertools
from collections.abc import Iterator, Mapping, Sequence

from ..errors import ParseError
from ..grid import Grid
from ..shape import Shape
from . import _base, sheet
from ._base import Format, Head, Line, Raw, is_square, parse_cells, text_lines

__all__ = [
    "FORMAT",
    "PUZZLE_COLUMNS",
    "SOLUTION_COLUMNS",
    "claims",
    "columns_for",
    "dumps",
    "join",
    "read",
    "row",
]

NAME = "csv"

PUZZLE_COLUMNS = ("puzzle", "quizzes", "quiz", "puzzles", "sudoku", "grid", "givens")
SOLUTION_COLUMNS = ("solution", "solutions")


def split(text: str) -> list[str]:
    """The fields of one CSV line.

    >>> split('a,"b,c",d')
    ['a', 'b,c', 'd']
    """
    try:
        return next(_csv.reader([text]), [])
    except _csv.Error as exc:
        raise ParseError(f"bad CSV line: {exc}") from None


def is_header(fields: Sequence[str]) -> bool:
    """True when *fields* name a puzzle column."""
    return any(f.strip().lower() in PUZZLE_COLUMNS for f in fields)


def claims(head: Head) -> bool:
    """The first line is a header naming a puzzle column, or a row starting with a puzzle,
    or the first rows are a spreadsheet grid (:func:`sudokit.formats.sheet.looks_like`).

    >>> claims(Head.of("puzzle,solution\\n1...,..."))
    True
    >>> claims(Head.of("1,,3,\\n,,,2\\n2,,,\\n,3,,1\\n"))  # a 4x4 spreadsheet grid
    True
    """
    first = head.first
    if first.lower() in PUZZLE_COLUMNS:
        return True
    if "," not in first:
        return False
    try:
        values = split(first)
    except ParseError:
        return False
    if is_header(values) or (
        len(values) >= 2 and len(values[0]) >= 16 and is_square(len(values[0]))
    ):
        return True
    table = []
    for text in head.body[: len(values)]:
        try:
            table.append(split(text))
        except ParseError:
            return False
    return sheet.looks_like(table)


def _names(header: Sequence[str]) -> tuple[list[str], int]:
    names = [h.strip() for h in header]
    lowered = [h.lower() for h in names]
    puzzle = next((i for i, h in enumerate(lowered) if h in PUZZLE_COLUMNS), 0)
    for i, h in enumerate(lowered):
        if h in SOLUTION_COLUMNS:
            names[i] = "solution"
        elif not names[i]:
            names[i] = f"column{i + 1}"
    return names, puzzle


#: A CSV line as :func:`rows` gives it: line number, text, and its fields (``[]`` for a blank
#: line) or why it is not CSV.
Row = tuple[int, str, list[str] | ParseError]


def rows(lines: Iterator[Line]) -> Iterator[Row]:
    """The CSV rows of *lines*, one per line."""
    for lineno, text in lines:
        if isinstance(text, ParseError):
            yield lineno, "", text.located(line=lineno)
        elif not text.strip():
            yield lineno, text, []
        else:
            try:
                yield lineno, text, split(text)
            except ParseError as exc:
                yield lineno, text, exc.located(line=lineno)


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per data row (the header row, when present, names the fields), or per
    grid of a spreadsheet grid (:mod:`sudokit.formats.sheet`), as the first row says."""
    stream = rows(lines)
    for first in stream:
        lineno, _, values = first
        if isinstance(values, ParseError):
            yield Raw(lineno, error=values)
            continue
        if not values:
            continue
        if not is_header(values) and sheet.is_row(values):
            grids = ((n, v) for n, _, v in itertools.chain([first], stream))
            yield from sheet.read(grids, shape)
        else:
            yield from _table(itertools.chain([first], stream), shape)
        return


def _table(stream: Iterator[Row], shape: Shape | None) -> Iterator[Raw]:
    """The records of the Kaggle layout: a header row or none, then a puzzle per row."""
    names: list[str] | None = None
    puzzle = 0
    for lineno, text, values in stream:
        if isinstance(values, ParseError):
            yield Raw(lineno, error=values)
            continue
        if not values:
            continue
        if names is None:
            if is_header(values):
                names, puzzle = _names(values)
                continue
            names, puzzle = _names(["puzzle", "solution"])
        fields = {}
        for i, value in enumerate(values):
            if i != puzzle:
                fields[names[i] if i < len(names) else f"column{i + 1}"] = value
        if puzzle >= len(values):
            yield Raw(lineno, error=ParseError("row has no puzzle column", line=lineno))
            continue
        row_shape = shape
        try:
            if row_shape is None and fields.get("box"):
                row_shape = Shape.parse_box(fields["box"])
            grid = parse_cells(values[puzzle], row_shape, lineno)
        except ParseError as exc:
            offset = sum(len(v) + 1 for v in values[:puzzle]) if '"' not in text else 0
            yield Raw(lineno, error=exc.located(column_offset=offset))
            continue
        yield Raw(lineno, grid, fields=fields)


def read_text(text: str, shape: Shape | None = None) -> list[Raw]:
    """The records of a CSV text (for doctests and quick use)."""
    return list(read(text_lines(text), shape))


def _fields(
    grid: Grid, solution: Grid | None, fields: Mapping[str, object] | None
) -> dict[str, str]:
    out: dict[str, str] = {}
    if solution is not None:
        out["solution"] = solution.to_line()
    if Shape.from_cell_count(grid.shape.ncells) != grid.shape and grid.shape.regions is None:
        out["box"] = grid.shape.box_spec
    for key, value in (fields or {}).items():
        out.setdefault(key, str(value))
    return out


def columns_for(
    grid: Grid, solution: Grid | None, fields: Mapping[str, object] | None
) -> list[str]:
    """The header a file of records like this one gets: ``puzzle`` then the field names.

    >>> columns_for(Grid.parse("1234341221434321"), None, {"level": "easy"})
    ['puzzle', 'level']
    """
    return ["puzzle", *_fields(grid, solution, fields)]


def row(
    grid: Grid | None,
    columns: Sequence[str],
    *,
    solution: Grid | None = None,
    fields: Mapping[str, object] | None = None,
) -> str:
    """One CSV line for *grid* under *columns* (missing fields empty, unknown ones dropped).

    >>> row(Grid.parse("1..............."), ["puzzle", "solution", "level"], fields={"level": "1"})
    '1...............,,1'
    """
    values = {} if grid is None else _fields(grid, solution, fields)
    if grid is None:
        values.update((key, str(value)) for key, value in (fields or {}).items())
    puzzle = "" if grid is None else grid.to_line()
    return join([puzzle if c == "puzzle" else values.get(c, "") for c in columns])


def join(values: Sequence[str]) -> str:
    """One CSV line of *values* (quoted where needed), without a line end.

    >>> join(["a", "b,c"])
    'a,"b,c"'
    """
    buf = io.StringIO()
    _csv.writer(buf, lineterminator="").writerow(values)
    return buf.getvalue()


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """The header line and one row for *grid*."""
    columns = columns_for(grid, solution, fields)
    return join(columns) + "\n" + row(grid, columns, solution=solution, fields=fields)


class Writer(_base.Writer):
    """A header line (the columns of the first record), then one row per record."""

    TEXT = False

    def _header(self, columns: list[str]) -> None:
        """The CSV header: only at the top of the file, not in a writer that follows another
        one's records (that one wrote it; here the columns come from the first record)."""
        self.columns = columns
        if self.count == 0:
            self.stream.write(join(columns) + "\n")

    def record(self, grid: Grid, solution: Grid | None, fields: Mapping[str, object] | None) -> str:
        """One row under the columns (taken from the first record; the header goes first)."""
        if self.columns is None:
            self._header(columns_for(grid, solution, fields))
        assert self.columns is not None
        return row(grid, self.columns, solution=solution, fields=fields)

    def marker_record(self, status: str, fields: Mapping[str, object] | None) -> str:
        """A row with an empty puzzle and a ``status`` column."""
        extra = {"status": status, **(fields or {})}
        if self.columns is None:
            self._header(["puzzle", "solution", *extra])
        assert self.columns is not None
        return row(None, self.columns, fields=extra)


FORMAT = Format(
    NAME,
    read,
    dumps,
    structured=True,
    extensions=(".csv",),
    priority=30,
    claims=claims,
    writer=Writer,
)
