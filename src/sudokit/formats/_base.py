"""Shared plumbing of the formats: the :class:`Format` protocol, bounded line reading, record
types and the writer of a stream of records (:class:`Writer`).

Every format module declares a :class:`Format` (``FORMAT``): ``read(lines, shape) ->
Iterator[Raw]``, turning numbered lines into raw records, ``dumps(grid, *, solution, fields)
-> str``, how it is laid out in a stream (``writer``), which file endings name it and how to
recognise its text (``claims``). Adding a format is writing such a module and listing it in
:data:`sudokit.formats.FORMATS`. Lines come from
:func:`text_lines` (a string) or :func:`stream_lines` (a file, read in bounded pieces): each is
``(lineno, text)`` or ``(lineno, ParseError)`` for a line that is too long or not text, so one
bad line never stops a bulk run and never costs more than :data:`MAX_LINE` bytes of memory.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Protocol

from .._record import _Record
from ..errors import ParseError
from ..grid import Grid
from ..marks import Candidates
from ..shape import Shape

__all__ = [
    "MAX_LINE",
    "MAX_RECORD",
    "Dumper",
    "Format",
    "Head",
    "Line",
    "Raw",
    "Reader",
    "Writer",
    "binary_offset",
    "block_error",
    "each_line",
    "line_text",
    "pencilmark_dumps",
    "pencilmark_shape",
    "stream_lines",
    "text_lines",
]

#: Longest line read; the rest of a longer line is skipped and the line reported as an error.
MAX_LINE = 1 << 20
#: Largest multi-line record (picture, candidate grid, JSON document part).
MAX_RECORD = 1 << 20
#: Longest line skipped to its end; past it the input is not read any further.
MAX_SKIP = 1 << 30
_CHUNK = 1 << 16

#: A numbered input line: its text, or the error that replaced it.
Line = tuple[int, "str | ParseError"]


@dataclass(slots=True)
class Raw:
    """One record as a format reader produces it (numbered and located by the caller)."""

    line: int
    grid: Grid | None = None
    error: ParseError | None = None
    fields: dict[str, str] = field(default_factory=dict)


def binary_offset(data: bytes | str) -> int | None:
    """Offset of the first NUL in *data* (the sign of a binary file), or ``None``.

    >>> binary_offset(b"PK" + bytes(2)), binary_offset("1.3.")
    (2, None)
    """
    pos = data.find(b"\0") if isinstance(data, bytes) else data.find("\0")
    return None if pos < 0 else pos


def _clean(text: str, lineno: int) -> str:
    if lineno == 1 and text.startswith("\ufeff"):
        text = text[1:]
    return text.rstrip("\r\n")


def text_lines(text: str) -> Iterator[Line]:
    """The numbered lines of *text* (line endings and a leading BOM removed)."""
    for lineno, line in enumerate(io.StringIO(text, newline=None), 1):
        if len(line) > MAX_LINE:
            yield lineno, long_line_error(len(line), in_bytes=False)
        elif isinstance(error := line_text(line), ParseError):
            yield lineno, error
        else:
            yield lineno, _clean(line, lineno)


def stream_lines(stream: IO[bytes] | IO[str], head: bytes | str = b"") -> Iterator[Line]:
    """The numbered lines of *stream*, after the already-read *head*, in bounded memory.

    A line longer than :data:`MAX_LINE` is skipped to its end in chunks and reported (one
    longer than :data:`MAX_SKIP` ends the input: ``/dev/zero`` without NULs never ends); a
    line that is not UTF-8 or holds a NUL byte is reported with the offending byte.
    """
    pending: io.BytesIO | io.StringIO = (
        io.BytesIO(head) if isinstance(head, bytes) else io.StringIO(head, newline="")
    )

    def readline(limit: int) -> bytes | str:
        part = pending.readline(limit)
        if len(part) < limit and not _ends_line(part):
            part += stream.readline(limit - len(part))  # type: ignore[operator]
        return part

    lineno = 0
    while (got := _bounded_line(readline)) is not None:
        piece, total = got
        lineno += 1
        if total is not None:
            yield lineno, long_line_error(total, isinstance(piece, bytes))
            if total > MAX_SKIP:  # no end in sight (a device, say): stop reading
                return
            continue
        text = line_text(piece)
        if isinstance(text, ParseError):
            yield lineno, text
            continue
        yield lineno, _clean(text, lineno)


def line_text(line: bytes | str) -> str | ParseError:
    """The text of one input *line*, or the :class:`~sudokit.errors.ParseError` that says why
    it is not text: a byte that is not UTF-8 (named, at its column, counted in bytes) or a NUL
    byte. The one rule, and the one message, of every reader of puzzle text: the record
    readers, the bulk path's bad lines, ``--resume`` runs and whole small files
    (:func:`~sudokit.formats.read_text_limited`).

    >>> line_text(b"1.3\\xff..")
    ParseError('column 4: not UTF-8 text (byte 0xff)')
    >>> line_text("12\\x003"), line_text(b"1.3.")
    (ParseError('column 3: binary data, not text (a NUL byte)'), '1.3.')
    """
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            byte = line[exc.start]
            return ParseError(f"not UTF-8 text (byte 0x{byte:02x})", column=exc.start + 1)
    nul = line.find("\0")
    if nul >= 0:
        return ParseError("binary data, not text (a NUL byte)", column=nul + 1)
    return line


def _bounded_line(
    readline: Callable[[int], bytes | str],
) -> tuple[bytes | str, int | None] | None:
    """The next line through *readline*, in bounded memory: ``None`` at the end of the input,
    else ``(piece, None)`` for a line of at most :data:`MAX_LINE` (its end included), or its
    first ``MAX_LINE + 1`` bytes (characters) and its whole length for a longer one, whose
    rest is read and dropped in chunks (a length past :data:`MAX_SKIP`: no end in sight)."""
    piece = readline(MAX_LINE + 1)
    if not piece:
        return None
    if len(piece) <= MAX_LINE or _ends_line(piece):
        return piece, None
    total = len(piece)
    while total <= MAX_SKIP:
        rest = readline(_CHUNK)
        total += len(rest)
        if not rest or _ends_line(rest):
            break
    return piece, total


def bounded_lines(stream: IO[bytes]) -> Iterator[tuple[bytes, int | None]]:
    """The raw lines of *stream* (ends kept) in bounded memory, as :func:`stream_lines` reads
    them: ``(line, None)``, or for a line longer than :data:`MAX_LINE` its first
    ``MAX_LINE + 1`` bytes and its length (:func:`long_line_error` says why it is skipped);
    after a line longer than :data:`MAX_SKIP` the rest of the input is not read.

    >>> import io
    >>> data = io.BytesIO(b"1.3\\n" + b"4" * MAX_LINE + b"5\\n..")
    >>> [(line[:3], total) for line, total in bounded_lines(data)]
    [(b'1.3', None), (b'444', 1048578), (b'..', None)]
    """
    while (got := _bounded_line(stream.readline)) is not None:
        line, total = got
        assert isinstance(line, bytes)  # a binary stream's
        yield line, total
        if total is not None and total > MAX_SKIP:
            return


def long_line_error(total: int, in_bytes: bool = True) -> ParseError:
    """Why a line of *total* bytes (or characters) longer than :data:`MAX_LINE` is skipped,
    or, past :data:`MAX_SKIP`, why the input ends there (one wording for every reader).

    >>> long_line_error(MAX_LINE + 5)
    ParseError('line of 1048581 bytes is longer than 1048576; skipped')
    """
    if total > MAX_SKIP:
        return ParseError(
            f"line longer than {MAX_SKIP >> 20} MiB; the rest of the input is not read"
        )
    unit = "bytes" if in_bytes else "characters"
    return ParseError(f"line of {total} {unit} is longer than {MAX_LINE}; skipped")


def _ends_line(part: bytes | str) -> bool:
    return part.endswith(b"\n") if isinstance(part, bytes) else part.endswith("\n")


def block_error(exc: ParseError, first_line: int) -> ParseError:
    """Place *exc*, raised on a record starting at *first_line*, at its line in the input."""
    line = first_line if exc.line is None else first_line + exc.line - 1
    return exc.located(line=line)


#: The alphabet declared for the records being read (``symbols=`` of :func:`sudokit.formats.read`).
_SYMBOLS: ContextVar[str | None] = ContextVar("sudokit_formats_symbols", default=None)


def declared_symbols() -> str | None:
    """The symbols declared for the read in progress (see :func:`with_symbols`), or ``None``."""
    return _SYMBOLS.get()


def with_symbols(raws: Iterator[Raw], symbols: str | None) -> Iterator[Raw]:
    """*raws*, each produced with *symbols* declared (:func:`parse_cells` reads cell text
    with them), without the declaration leaking to the caller between records."""
    if symbols is None:
        yield from raws
        return
    while True:
        token = _SYMBOLS.set(symbols)
        try:
            raw = next(raws, None)
        finally:
            _SYMBOLS.reset(token)
        if raw is None:
            return
        yield raw


def each_line(
    lines: Iterator[Line],
    parse: Callable[[str], tuple[Grid, dict[str, str]]],
    *,
    comments: bool = True,
) -> Iterator[Raw]:
    """One record per non-blank line of a one-puzzle-a-line format: *parse* reads a line
    into a grid and its fields, its :class:`~sudokit.errors.ParseError` becomes the record's
    error, placed at the line; lines starting with ``#`` are skipped when *comments*."""
    for lineno, text in lines:
        if isinstance(text, ParseError):
            yield Raw(lineno, error=text.located(line=lineno))
            continue
        if not text.strip() or (comments and text.lstrip().startswith("#")):
            continue
        try:
            grid, fields = parse(text)
        except ParseError as exc:
            yield Raw(lineno, error=exc.located(line=lineno))
            continue
        yield Raw(lineno, grid, fields=fields)


def parse_cells(text: str, shape: Shape | None, first_line: int) -> Grid:
    """:meth:`Grid.parse` with errors placed in the input; the one cell-text codec."""
    try:
        return Grid.parse(text, shape, symbols=_SYMBOLS.get())
    except ParseError as exc:
        raise block_error(exc, first_line) from None


# -- the Format protocol ----------------------------------------------------------------------


class Head(_Record):
    """The start of a text as :func:`sudokit.formats.sniff` shows it to ``Format.claims``.

    ``text``: the head without a BOM; ``stripped``: without leading white space; ``body``:
    its first non-blank lines that are not ``#`` comments; ``first``: the first of them,
    stripped (``""`` when there is none); ``hashed``: the text starts with a ``#`` line.
    """

    __slots__ = ("body", "first", "hashed", "stripped", "text")
    __match_args__ = ("text", "stripped", "body", "first", "hashed")
    text: str
    stripped: str
    body: tuple[str, ...]
    first: str
    hashed: bool

    @classmethod
    def of(cls, text: str) -> Head:
        """The head of *text* (its first 400 lines are looked at)."""
        text = text.lstrip("\ufeff")
        lines = [ln for ln in text.split("\n")[:400] if ln.strip()]
        body = tuple(ln.rstrip("\r") for ln in lines if not ln.lstrip().startswith("#"))
        hashed = bool(lines) and lines[0].lstrip().startswith("#")
        return cls(text, text.lstrip(), body, body[0].strip() if body else "", hashed)


class Writer:
    """Writes puzzles to a text stream in one format, with the framing the format needs
    (a CSV header, JSON brackets, blank lines between pictures). Use as a context manager or
    call :meth:`close` (it does not close the stream).

    >>> import io
    >>> from sudokit.formats import parse_one
    >>> out = io.StringIO()
    >>> with Writer(out, "json") as w:
    ...     w.write(parse_one("1..............."))
    ...     w.marker("none", {"error": "no solution"})
    >>> print(out.getvalue(), end="")
    [
    {"puzzle": "1..............."},
    {"puzzle": null, "status": "none", "error": "no solution"}
    ]

    ``Writer(stream, fmt)`` is an instance of the format's own ``writer`` class. This class
    is the layout of the text formats: each record then a newline, a blank line between
    multi-line records, ``!<status>`` for a record without a grid. Formats with framing
    subclass it: the text of a record (:meth:`record`, :meth:`marker_record`) and what goes
    around it (:meth:`begin`, :meth:`end`, :meth:`close`).
    """

    #: Whether already rendered text (:meth:`write_text`) can go in the stream.
    TEXT = True
    #: The format written (its :class:`Format` record).
    format: Format

    def __new__(
        cls, stream: IO[str], fmt: str, *, follows: tuple[int, list[str] | None] | None = None
    ) -> Writer:
        from . import _module  # the package's format table (it imports this module)

        found = _module(fmt)
        self: Writer = object.__new__(found.writer)
        self.format = found
        return self

    def __init__(
        self, stream: IO[str], fmt: str, *, follows: tuple[int, list[str] | None] | None = None
    ) -> None:
        """*follows*: the :attr:`state` of a writer whose records this one continues (its
        text goes after theirs: no second CSV header or JSON opening; close only the last).
        ``(k, None)`` continues after *k* records whose CSV columns are those of this
        writer's first record."""
        self.fmt = fmt
        self.stream = stream
        #: How many records were written (including those of the writer this one follows).
        self.count = 0
        #: The CSV columns (those of the first record), None until then.
        self.columns: list[str] | None = None
        if follows is not None:
            self.count, self.columns = follows

    @property
    def state(self) -> tuple[int, list[str] | None]:
        """What a writer continuing this one needs (picklable): the record count and the CSV
        columns. Chunks written elsewhere (worker processes) with ``follows=state`` join up:

        >>> import io
        >>> from sudokit.formats import parse_one
        >>> first, rest = io.StringIO(), io.StringIO()
        >>> head = Writer(first, "csv")
        >>> head.write(parse_one("1..............."))
        >>> Writer(rest, "csv", follows=head.state).write(parse_one("2..............."))
        >>> print(first.getvalue() + rest.getvalue(), end="")
        puzzle
        1...............
        2...............
        """
        return self.count, self.columns

    def begin(self) -> None:
        """Start a record: what goes before it (a blank line between multi-line records)."""
        if self.format.multiline and self.count:
            self.stream.write("\n")
        self.count += 1

    def end(self) -> None:
        """Finish a record."""
        self.stream.write("\n")

    def record(self, grid: Grid, solution: Grid | None, fields: Mapping[str, object] | None) -> str:
        """The text of one puzzle's record: the format's ``dumps``."""
        return self.format.dumps(grid, solution=solution, fields=fields)

    def marker_record(self, status: str, fields: Mapping[str, object] | None) -> str:
        """The text of a stand-in for a record without a grid: ``!<status>``."""
        return f"!{status}"

    def put(self, text: str) -> None:
        """Write one record's *text* between :meth:`begin` and :meth:`end`."""
        self.begin()
        self.stream.write(text)
        self.end()

    def write(
        self,
        grid: Grid,
        *,
        solution: Grid | None = None,
        fields: Mapping[str, object] | None = None,
    ) -> None:
        """Write one puzzle (:meth:`record`). Field values are usually strings; other values
        are written as JSON values by the JSON formats (numbers stay numbers) and as
        ``str(value)`` by the others."""
        self.put(self.record(grid, solution, fields))

    def write_text(self, text: str) -> None:
        """Write one record already rendered (e.g. by :func:`sudokit.formats.dumps_candidates`);
        text formats only."""
        if not self.TEXT:
            raise ValueError(f"write_text() writes text formats, not {self.fmt}")
        self.put(text)

    def marker(self, status: str, fields: Mapping[str, object] | None = None) -> None:
        """Write a stand-in for a puzzle that has no output grid (:meth:`marker_record`): the
        line ``!<status>`` in text formats; a record with an empty puzzle and a ``status``
        field in csv and JSON."""
        self.put(self.marker_record(status, fields))

    def close(self) -> None:
        """Finish the stream's framing (the closing bracket of a JSON list; nothing for text
        formats)."""

    def __enter__(self) -> Writer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Reader(Protocol):
    """A format's ``read``: numbered lines -> raw records."""

    def __call__(self, lines: Iterator[Line], shape: Shape | None, /) -> Iterator[Raw]:
        """The raw records of *lines*."""
        ...


class Dumper(Protocol):
    """A format's ``dumps``: one grid (with its solution and fields) -> one record's text."""

    def __call__(
        self,
        grid: Grid,
        /,
        *,
        solution: Grid | None = None,
        fields: Mapping[str, object] | None = None,
    ) -> str:
        """*grid* as one record (no final newline)."""
        ...


def by_layout(head: Head) -> bool:
    """The ``claims`` of formats told apart by the layout of their rows: never by content."""
    return False


class Format(_Record):
    """A format as :mod:`sudokit.formats` uses it; each format module declares one
    (``FORMAT``), and :data:`sudokit.formats.FORMATS` lists them.

    ``multiline``: a record spans several lines (records are separated by a blank line);
    ``structured``: a record carries a solution and fields besides the grid (csv, JSON);
    ``extensions``: file name endings (lower case, with the dot) that name the format;
    ``claims``: true when a text's :class:`Head` is certainly in this format, asked by
    :func:`sudokit.formats.sniff` in ``priority`` order, lowest first (formats that only a
    text's layout tells apart, such as line and picture, never claim a text); ``writer``: how
    records are laid out in a written stream.
    """

    __slots__ = (
        "claims",
        "dumps",
        "extensions",
        "multiline",
        "name",
        "priority",
        "read",
        "structured",
        "writer",
    )
    __match_args__ = (
        "name",
        "read",
        "dumps",
        "multiline",
        "structured",
        "extensions",
        "priority",
        "claims",
        "writer",
    )
    name: str
    read: Reader
    dumps: Dumper
    multiline: bool
    structured: bool
    extensions: tuple[str, ...]
    priority: int
    claims: Callable[[Head], bool]
    writer: type[Writer]

    def __init__(
        self,
        name: str,
        read: Reader,
        dumps: Dumper,
        multiline: bool = False,
        structured: bool = False,
        extensions: tuple[str, ...] = (),
        priority: int = 100,
        claims: Callable[[Head], bool] = by_layout,
        writer: type[Writer] = Writer,
    ) -> None:
        self._set(name, read, dumps, multiline, structured, extensions, priority, claims, writer)


def is_square(k: int) -> bool:
    """True when *k* is a square number (a cell count).

    >>> is_square(81), is_square(80)
    (True, False)
    """
    root = math.isqrt(k) if k >= 0 else -1
    return root * root == k


def pencilmark_shape(cands: Candidates, what: str) -> Shape:
    """The shape of *cands* when pencilmarks can be written in it (a symbol for every digit:
    sizes up to 61); else ValueError naming *what* the format writes.

    >>> pencilmark_shape(Candidates.from_masks(Shape(2, 2), [15] * 16), "grids")
    Shape(2, 2)
    """
    shape = cands.shape
    if not shape.symbols:
        raise ValueError(f"{what} hold sizes up to 61, got {shape.n}")
    return shape


def pencilmark_dumps(dumps_candidates: Callable[[Candidates], str]) -> Dumper:
    """The ``dumps`` of a pencilmark format whose *dumps_candidates* writes candidates: a grid
    is written with its givens alone and all ``n`` digits in each open cell."""

    def dumps(
        grid: Grid, *, solution: Grid | None = None, fields: Mapping[str, object] | None = None
    ) -> str:
        """The grid as pencilmarks: givens alone, open cells with all ``n`` digits; *solution*
        and *fields* are not written."""
        return dumps_candidates(Candidates.from_grid(grid, eliminate=False))

    return dumps
