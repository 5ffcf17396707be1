"""JSON Lines: one JSON puzzle per line (see :mod:`~sudokit.formats.json` for what a puzzle is).

Streams in constant memory; blank lines are skipped.

>>> from sudokit.grid import Grid
>>> dumps(Grid.parse("1.3." "...2" "2..." ".3.1"), solution=Grid.parse("1234341221434321"))
'{"puzzle": "1.3....22....3.1", "solution": "1234341221434321"}'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..errors import ParseError
from ..grid import Grid
from ..shape import Shape
from . import json as _jsonfmt
from ._base import Format, Head, Line, Raw, each_line

__all__ = [
    "FORMAT",
    "claims",
    "dumps",
    "read",
]

NAME = "jsonl"


def claims(head: Head) -> bool:
    """The first line is one whole JSON object or string."""
    return _jsonfmt.one_value_per_line(head)


def read(lines: Iterator[Line], shape: Shape | None) -> Iterator[Raw]:
    """One record per non-blank line."""

    def parse(text: str) -> tuple[Grid, dict[str, str]]:
        value, end = _jsonfmt.decode(text, len(text) - len(text.lstrip()))
        if text[end:].strip():
            raise ParseError("bad JSON: extra data after the value", column=end + 1)
        return _jsonfmt.grid_from_value(value, shape)

    return each_line(lines, parse, comments=False)


def dumps(
    grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
) -> str:
    """One JSON object on one line."""
    return _jsonfmt.compact(_jsonfmt.to_object(grid, solution=solution, fields=fields))


FORMAT = Format(
    NAME,
    read,
    dumps,
    structured=True,
    extensions=(".jsonl", ".ndjson"),
    priority=11,
    claims=claims,
    writer=_jsonfmt.LinesWriter,
)
