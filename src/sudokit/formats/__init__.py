"""Text formats: read and write puzzles in every common layout (layer 2).

=============  =========================================================================
``line``       one puzzle per line, ``n*n`` symbols (``.sdm`` collections)
``picture``    one grid row per line, separators tolerated
``ss``         Simple Sudoku (``..3|.2.|6..`` rows, dashed rules)
``sdk``        SadMan Sudoku, with SudoCue ``#A``/``#D``/... header lines
``candidates`` 729-character pencilmark string (``n**3`` characters for size ``n``)
``candgrid``   candidate grid: one group of candidates per cell
``csv``        ``puzzle,solution,...`` with a header (Kaggle / ML layout), extra columns kept;
               or a spreadsheet grid (a CSV row per grid row, empty cells blank), read only
``json``       a JSON document of puzzles; ``jsonl`` one JSON puzzle per line
``fpuzzles``   f-puzzles links (``?load=``), bare payloads or objects, one per line
``sudokupad``  SudokuPad links (``sudokupad.app/fpuzzles...``, ``scl...``, ``ctc...``)
=============  =========================================================================

:func:`read` streams records from a file in bounded memory: a bad record comes out with its
error instead of raising, so bulk runs continue; no line is read past :data:`MAX_LINE`.
:func:`parse` reads a string and raises on the first error. The format is sniffed from the
text unless given. Every format has a ``dumps`` and ``parse(dumps(g), fmt, shape=g.shape) == g``.

>>> g = parse_one("1.3. ...2 2... .3.1")
>>> sniff(dumps(g, "picture")), parse_one(dumps(g, "picture")) == g
('picture', True)
>>> [sniff(dumps(g, f)) for f in FORMATS] == list(FORMATS)
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import IO

from .._record import FrozenMap, _Record
from ..errors import ParseError
from ..grid import Grid, expand_symbols, shifted_alphabet_hint
from ..marks import Candidates
from ..shape import Shape
from . import candgrid, candidates, csv, fpuzzles, json, jsonl, line, picture, sdk, ss, sudokupad
from ._base import (
    MAX_LINE,
    Format,
    Head,
    Raw,
    Writer,
    binary_offset,
    bounded_lines,
    is_square,
    line_text,
    long_line_error,
    stream_lines,
    text_lines,
    with_symbols,
)
from ._files import output, output_bytes, read_text_limited
from ._rules import to_keys as rule_keys
from ._rules import with_rules as with_rule_keys

__all__ = [
    "FORMATS",
    "MAX_LINE",
    "Format",
    "Record",
    "Writer",
    "bounded_lines",
    "carries_fields",
    "dumps",
    "dumps_candidates",
    "format_of_extension",
    "line_text",
    "long_line_error",
    "looks_binary",
    "output",
    "output_bytes",
    "parse",
    "parse_candidates",
    "parse_one",
    "parse_one_record",
    "parse_records",
    "read",
    "read_text_limited",
    "rule_keys",
    "shifted_alphabet_hint",
    "sniff",
    "with_rule_keys",
    "write",
]

#: Format name -> :class:`~sudokit.formats._base.Format` (declared by its module as ``FORMAT``):
#: the one place a new format is listed.
FORMATS: dict[str, Format] = {
    module.NAME: module.FORMAT
    for module in (
        line,
        picture,
        ss,
        sdk,
        candidates,
        candgrid,
        csv,
        json,
        jsonl,
        fpuzzles,
        sudokupad,
    )
}


def format_of_extension(path: str) -> str | None:
    """The format a file name's ending names (``None``: sniff the text).

    >>> format_of_extension("puzzles.SDM"), format_of_extension("notes.txt")
    ('line', None)
    """
    ext = os.path.splitext(path)[1].lower()
    return next((name for name, fmt in FORMATS.items() if ext in fmt.extensions), None)


_HEAD = 1 << 16


class Record(_Record):
    """One puzzle read from a file: its 1-based number, first line, grid or error, and fields.

    Exactly one of ``grid`` and ``error`` is set. ``fields`` holds what the format carries
    besides the grid (a CSV row's other columns, JSON keys, ``.sdk`` headers, a line comment).
    """

    __slots__ = ("error", "fields", "grid", "index", "line")
    __match_args__ = ("index", "line", "grid", "error", "fields")
    index: int
    line: int
    grid: Grid | None
    error: ParseError | None
    fields: Mapping[str, str]  # a FrozenMap

    def __init__(
        self,
        index: int,
        line: int,
        grid: Grid | None,
        error: ParseError | None = None,
        fields: Mapping[str, str] = FrozenMap(),
    ) -> None:
        self._set(index, line, grid, error, FrozenMap(fields))


def _module(fmt: str) -> Format:
    try:
        return FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}, expected one of {', '.join(FORMATS)}") from None


def carries_fields(fmt: str) -> bool:
    """Whether records in *fmt* carry a solution and fields besides the grid.

    >>> carries_fields("csv"), carries_fields("line")
    (True, False)
    """
    return _module(fmt).structured


# -- sniffing ---------------------------------------------------------------------------------


def sniff(text: str) -> str:
    """The name of the format *text* is written in (``"line"`` when nothing else fits).

    Only the start of *text* is looked at: each format that can tell its own text by content
    is asked first (``Format.claims``, in ``priority`` order), then the layout of the rows
    decides between the line, picture, Simple Sudoku, ``.sdk`` and candidate-grid layouts.

    >>> sniff("puzzle,solution\\n1...,...")
    'csv'
    >>> sniff("5 3 . | . 7 .\\n")
    'picture'
    >>> sniff("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
    'line'
    """
    head = Head.of(text[:_HEAD])
    if not head.stripped:
        return "line"
    for fmt in sorted(FORMATS.values(), key=lambda fmt: fmt.priority):
        if fmt.claims(head):
            return fmt.name
    if not head.body:
        return "line"
    return _layout(head)


def _layout(head: Head) -> str:
    """One puzzle per line, or one grid row per line? A row has n <= 64 cells and n rows
    like it follow; a line has a square number of cells and no separators."""
    body, first = head.body, head.first
    rows = [ln for ln in body[:80] if not picture.is_rule(ln, None)] or [first]
    ruled = len(rows) < len(body[:80])
    row, comment = line.split_comment(rows[0].strip(), None)
    k = picture.row_cells(row)
    marked = "|" in row or (not comment and len(row.split()) > 1)
    if is_square(k) and k >= 16 and not marked and not ruled:
        return "line"
    cand_rows = [ln for ln in body[:80] if not candgrid.is_rule(ln)]
    cand = [len(candgrid.row_groups(r)) for r in cand_rows[:20]]
    if cand and 4 <= cand[0] <= 64 and len(set(cand[: cand[0]])) == 1:
        same = [r for r in cand_rows if len(candgrid.row_groups(r)) == cand[0]]
        all_groups = [g for r in same for g, _ in candgrid.row_groups(r)]
        if len(cand_rows) >= cand[0] and candgrid.candidate_groups(all_groups, cand[0]):
            return "candgrid"
    consistent = all(picture.row_cells(r) == k for r in rows[1 : min(k, 20)])
    if not (k <= 64 and (consistent or ruled or marked)):
        return "line"
    if head.hashed:
        return "sdk"
    if first.startswith("*-") or ("|" in first and " " not in first):
        return "ss"
    return "picture"


# -- reading ----------------------------------------------------------------------------------


def _records(raws: Iterable[Raw], source: str | None) -> Iterator[Record]:
    for index, raw in enumerate(raws, 1):
        error = raw.error
        if error is not None:
            error = error.located(line=error.line or raw.line, source=source)
        yield Record(index, raw.line, raw.grid, error, raw.fields)


def _bad_line(line: bytes) -> bool:
    """True when *line* cannot be a line of text: it holds a NUL byte or is not UTF-8."""
    if b"\0" in line:
        return True
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def looks_binary(head: bytes) -> str | None:
    """Why *head* (the start of a file) is binary data rather than text with some bad lines,
    or ``None``: a file is binary when most of its first lines cannot be text. A few bad
    lines (a NUL byte, invalid UTF-8) cost only themselves: they are reported one by one.

    >>> looks_binary(b"PK\\x03\\x04" + bytes(40)), looks_binary(b"1.3.\\nx\\x00y\\n...2\\n")
    ('binary data, not text (NUL byte at offset 4)', None)
    """
    lines = head.split(b"\n")
    if len(lines) > 1 and len(head) >= _HEAD:
        lines.pop()  # cut by the read: judged when read whole
    bad = sum(_bad_line(line) for line in lines)
    if bad * 2 <= len(lines):
        return None
    nul = binary_offset(head)
    if nul is not None:
        return f"binary data, not text (NUL byte at offset {nul})"
    return "binary data, not UTF-8 text"


def _text_head(head: bytes) -> str:
    """The text of *head* to sniff the format from: its lines that are text."""
    return "\n".join(line.decode("utf-8") for line in head.split(b"\n") if not _bad_line(line))


def read(
    source: str | os.PathLike[str] | IO[bytes] | IO[str],
    fmt: str | None = None,
    shape: Shape | None = None,
    *,
    symbols: str | None = None,
) -> Iterator[Record]:
    """Stream the puzzles of a file name (``"-"`` is standard input) or an open stream.

    Memory stays bounded whatever the input: lines longer than :data:`MAX_LINE` are skipped
    and reported, binary data is reported once. A record that cannot be parsed comes out with
    its :class:`~sudokit.errors.ParseError` (naming the source, line and column), never raised;
    only opening the file can raise (:class:`OSError`). *symbols* declares the cell alphabet
    (``"0-9A-F"``: hexadoku written with ``0`` as a digit; see :meth:`Grid.parse`); a bad
    declaration raises :class:`~sudokit.errors.ParseError` at once.

    >>> import io
    >>> for r in read(io.StringIO("12345\\n\\n" + "." * 16)):
    ...     print(r.index, r.line, r.grid, r.error)
    1 1 None <stream>, line 1: expected a square number of cells (81 for 9x9, 16 for 4x4), got 5
    2 3 ................ None
    """
    if symbols is not None:
        expand_symbols(symbols)  # a bad declaration is the caller's error, raised at once
    return _read(source, fmt, shape, symbols)


def _read(
    source: str | os.PathLike[str] | IO[bytes] | IO[str],
    fmt: str | None,
    shape: Shape | None,
    symbols: str | None,
) -> Iterator[Record]:
    if isinstance(source, str | os.PathLike):
        name = os.fspath(source)
        if name == "-":
            yield from _read_stream(sys.stdin.buffer, fmt, shape, "<stdin>", symbols)
            return
        if fmt is None:
            fmt = format_of_extension(name)
        with open(name, "rb") as stream:
            yield from _read_stream(stream, fmt, shape, name, symbols)
        return
    label = getattr(source, "name", None)
    where = label if isinstance(label, str) else "<stream>"
    yield from _read_stream(source, fmt, shape, where, symbols)


def _read_head(stream: IO[bytes] | IO[str]) -> bytes | str:
    """The start of *stream*, enough to sniff: up to 64 KiB or 50 lines, without waiting for
    more than one read at a time where the stream allows it (an interactive pipe)."""
    read1 = getattr(stream, "read1", None)
    if read1 is None:
        return stream.read(_HEAD)
    head = b""
    while len(head) < _HEAD and head.count(b"\n") < 50:
        part = read1(_HEAD - len(head))
        if not part:
            break
        head += part
    return head


def _read_stream(
    stream: IO[bytes] | IO[str],
    fmt: str | None,
    shape: Shape | None,
    source: str,
    symbols: str | None = None,
) -> Iterator[Record]:
    if fmt is not None:
        _module(fmt)
    head = _read_head(stream)
    if isinstance(head, bytes):
        problem = looks_binary(head)
        if problem is not None:
            at = binary_offset(head)
            line_no = head.count(b"\n", 0, at) + 1 if at is not None else 1
            yield Record(1, line_no, None, ParseError(problem, line=line_no, source=source))
            return
        text_head = _text_head(head)
    else:
        text_head = "\n".join(ln for ln in head.split("\n") if "\0" not in ln)
    name = fmt or sniff(text_head)
    reader = _module(name).read
    raws = with_symbols(reader(stream_lines(stream, head), shape), symbols)
    yield from _records(raws, source)


def parse(
    text: str,
    fmt: str | None = None,
    shape: Shape | None = None,
    source: str | None = None,
    *,
    symbols: str | None = None,
) -> list[Grid]:
    """Every puzzle in *text*; raises the first :class:`~sudokit.errors.ParseError`.
    *symbols* declares the cell alphabet, as for :func:`read`.

    >>> [str(g) for g in parse("1234341221434321\\n1...............")]
    ['1234341221434321', '1...............']
    >>> parse("12345", source="in.txt")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: in.txt, line 1: expected a square number of cells (81 for 9x9, ...
    """
    records = parse_records(text, fmt, shape, source, symbols=symbols)
    return [record.grid for record in records if record.grid is not None]  # all of them


def parse_records(
    text: str,
    fmt: str | None = None,
    shape: Shape | None = None,
    source: str | None = None,
    *,
    symbols: str | None = None,
) -> list[Record]:
    """Every record in *text*, as :func:`parse` reads it, with its fields (a JSON object's
    keys, a link's title, what it left undrawn, ...); raises the first
    :class:`~sudokit.errors.ParseError`, so every record has a grid.

    >>> [dict(r.fields) for r in parse_records('{"puzzle": "1...............", "id": 7}')]
    [{'id': '7'}]
    """
    if binary_offset(text) is not None:
        raise ParseError("binary data, not text", line=1, source=source)
    name = fmt or sniff(text)
    if symbols is not None:
        expand_symbols(symbols)
    raws = with_symbols(_module(name).read(text_lines(text), shape), symbols)
    records = list(_records(raws, source))
    for record in records:
        if record.error is not None:
            raise record.error
    return records


def parse_one(
    text: str,
    fmt: str | None = None,
    shape: Shape | None = None,
    source: str | None = None,
    *,
    symbols: str | None = None,
) -> Grid:
    """The one puzzle in *text*; raises :class:`~sudokit.errors.ParseError` for none or several.

    >>> parse_one('{"puzzle": "1..............."}')
    Grid.parse('1...............')
    """
    grid = parse_one_record(text, fmt, shape, source, symbols=symbols).grid
    assert grid is not None  # parse_records raised for a record without one
    return grid


def parse_one_record(
    text: str,
    fmt: str | None = None,
    shape: Shape | None = None,
    source: str | None = None,
    *,
    symbols: str | None = None,
) -> Record:
    """The one record in *text* with its fields (a link's title, author and rules text, a
    solution, ...), as :func:`parse_one` reads its puzzle; raises
    :class:`~sudokit.errors.ParseError` for none or several.

    >>> dict(parse_one_record('{"puzzle": "1...............", "title": "Four"}').fields)
    {'title': 'Four'}
    """
    records = parse_records(text, fmt, shape, source, symbols=symbols)
    if len(records) != 1:
        got = f"one puzzle, got {len(records)}" if records else "a puzzle, got none"
        raise ParseError(f"expected {got}", source=source)
    return records[0]


def parse_candidates(text: str, fmt: str | None = None, shape: Shape | None = None) -> Candidates:
    """Pencilmarks from a 729-character string or a candidate grid (sniffed unless *fmt*).

    >>> parse_candidates("1.1212.2").digits(1)
    (1, 2)
    """
    name = fmt or (
        "candidates" if "\n" not in text.strip() and " " not in text.strip() else "candgrid"
    )
    if name == "candidates":
        return candidates.parse_candidates(text, shape)
    if name == "candgrid":
        return candgrid.parse_candidates(text, shape)
    raise ValueError(f"pencilmarks are written as 'candidates' or 'candgrid', not {name!r}")


def dumps_candidates(cands: Candidates, fmt: str = "candgrid") -> str:
    """Pencilmarks as a candidate grid (default) or a pencilmark string (``"candidates"``).

    >>> from sudokit.marks import Candidates
    >>> dumps_candidates(Candidates.from_grid(parse_one("12.." + "." * 12)), "candidates")[:16]
    '1....2....34..34'
    """
    if fmt == "candidates":
        return candidates.dumps_candidates(cands)
    if fmt == "candgrid":
        return candgrid.dumps_candidates(cands)
    raise ValueError(f"pencilmarks are written as 'candidates' or 'candgrid', not {fmt!r}")


# -- writing ----------------------------------------------------------------------------------


def dumps(
    grid: Grid,
    fmt: str = "line",
    *,
    solution: Grid | None = None,
    fields: Mapping[str, object] | None = None,
) -> str:
    """*grid* as text in *fmt* (no final newline). Formats that can carry a *solution* and
    *fields* (csv, json, jsonl, sdk headers) write them; the others ignore them.

    >>> print(dumps(parse_one("1.3....22....3.1"), "csv", solution=parse_one("1234341221434321")))
    puzzle,solution
    1.3....22....3.1,1234341221434321
    """
    text: str = _module(fmt).dumps(grid, solution=solution, fields=fields)
    return text


def write(items: Iterable[Grid | Record], stream: IO[str], fmt: str = "line") -> int:
    """Write grids or records (their fields too; records with errors are skipped) to *stream*.

    Returns how many puzzles were written.

    >>> import io
    >>> out = io.StringIO()
    >>> write(read(io.StringIO("a,puzzle\\nx,1...............\\n")), out, "csv")
    1
    >>> out.getvalue()
    'puzzle,a\\n1...............,x\\n'
    """
    written = 0
    with Writer(stream, fmt) as writer:
        for item in items:
            if isinstance(item, Grid):
                writer.write(item)
            elif item.grid is not None:
                writer.write(item.grid, fields=item.fields)
            else:
                continue
            written += 1
    return written
