"""The block API: many 9x9 puzzle lines in as bytes, the output lines out as bytes (layer 4.5).

For bulk callers that hold lines of puzzles as bytes (a file, a socket, a queue) and want the
answers as bytes, without a :class:`~sudokit.grid.Grid` or a
:class:`~sudokit.solver.SolveResult` per puzzle: the C core reads, searches and writes whole
blocks with the GIL released (``csrc/sk_lines.c``), so threads can run blocks side by side.
``sudokit solve | check | count FILE`` are built on it.

The Python line reader (:mod:`sudokit.formats.line`, :meth:`Grid.parse`) stays the one
specification: the C reader takes only the plain lines (81 symbols ``1-9`` and ``.0-_*``,
ASCII, an optional comment after white space; see ``csrc/sk_lines.h``) and hands every other
line back as a :class:`Note` of kind ``"python"``, which is read here the Python way.

* :func:`solve_block` -- bytes in, bytes out: what ``sudokit solve`` (``check``, ``count``)
  writes for those lines with ``--to line``.
* :func:`scan_block` -- one block through the C reader: the output of the lines it took and
  the :class:`Note` of every line that needs a word from the caller (a line to read the
  Python way, a puzzle with no solution, several, or a search that gave up).
* :func:`scan_stream` -- a binary stream cut into blocks at line ends, scanned on threads,
  in order, in bounded memory (a line too long to hold is reported as the line reader does).

>>> solve_block(b"...43...2......1\\n" + b"1" + b"." * 80 + b"\\n", unique=True)  # 4x4: Python
b'1234341221434321\\n!multiple\\n'
"""

from __future__ import annotations

import io
import os
import stat
from collections import deque
from collections.abc import Callable, Generator, Iterator
from typing import IO, TYPE_CHECKING

from . import _native
from ._record import _Record
from .errors import ParseError
from .formats import Record, format_of_extension, sniff
from .formats._base import MAX_LINE, stream_lines
from .formats.line import read as read_lines
from .shape import Shape
from .solver import (
    SolveResult,
    Status,
    check_limit,
    default_budget,
    solve_many,
    to_solve_result,
)

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = [
    "CHUNK",
    "MODES",
    "Block",
    "Note",
    "Piece",
    "count_text",
    "line_text",
    "native",
    "note_result",
    "read_line",
    "reads_as_lines",
    "scan_block",
    "scan_stream",
    "solve_block",
]

#: What a block is turned into: ``sudokit solve``, ``check`` or ``count`` output lines.
MODES = ("solve", "check", "count")
#: Bytes read and scanned at a time by :func:`scan_stream` (about 3,000 puzzle lines).
CHUNK = 1 << 18
#: What :func:`sudokit.formats.read` looks at to tell the format of a file (its first 64 KiB).
_HEAD = 1 << 16
#: Kinds of :class:`Note`, by the C core's note code (csrc/sk_lines.h).
_KINDS = ("python", "none", "multiple", "gave-up")
_NINE = Shape(3, 3)


class Note(_Record):
    """A line of a block that needs the caller: ``kind`` ``"python"`` (read it the Python way;
    nothing was written for it: its output goes at offset ``out``), or ``"none"``,
    ``"multiple"``, ``"gave-up"`` (its output is written, at ``out``; a caller may report it).

    ``start``/``end``: the line's bytes in the block (without its newline); ``line``: its
    0-based index among the block's lines; ``record``: the puzzles the C reader read before
    it in the block; ``guesses`` and ``count``: its search (the count is a lower bound when
    it gave up).
    """

    __slots__ = __match_args__ = (
        "start",
        "end",
        "out",
        "line",
        "record",
        "guesses",
        "count",
        "kind",
    )
    start: int
    end: int
    out: int
    line: int
    record: int
    guesses: int
    count: int
    kind: str

    def __init__(
        self,
        start: int,
        end: int,
        out: int,
        line: int,
        record: int,
        guesses: int,
        count: int,
        kind: str,
    ) -> None:
        values = (start, end, out, line, record, guesses, count, kind)
        for name, value in zip(self.__match_args__, values, strict=True):
            object.__setattr__(self, name, value)


class Block(_Record):
    """What :func:`scan_block` made of a block: the ``output`` of the lines the C reader took,
    the ``notes`` of the others in order, and the ``lines`` and ``records`` (puzzles) it
    read itself (lines handed back as notes of kind ``"python"`` are not in ``records``)."""

    __slots__ = __match_args__ = ("output", "notes", "lines", "records")
    output: bytes
    notes: tuple[Note, ...]
    lines: int
    records: int

    def __init__(self, output: bytes, notes: tuple[Note, ...], lines: int, records: int) -> None:
        object.__setattr__(self, "output", output)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "records", records)


def native() -> bool:
    """Whether :func:`scan_block` reads the lines in the C core in this process (else it hands
    every line back, and the caller's records path does the work).

    >>> import sudokit
    >>> native() == (sudokit.BACKEND == "c")
    True
    """
    return _native.core() is not None


def _search_limit(mode: str, limit: int) -> int:
    """The solution count a search of *mode* goes to: 2, or one past the shown *limit*."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if mode != "count":
        return 2
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise ValueError(f"limit must be an int >= 1, got {limit!r}")
    check_limit(max(2, limit + 1))  # the solver's bounds and words (2**63 - 1 at most)
    return max(2, limit + 1)


def scan_block(
    data: bytes,
    *,
    mode: str = "solve",
    limit: int = 1000,
    budget: int | None = None,
    unique: bool = False,
    stop: bytearray | None = None,
) -> Block:
    """Read, search and write the puzzle lines of *data* in the C core (GIL released).

    :param data: lines ending with ``\\n`` (a last line without one is a line too).
    :param mode: ``"solve"``, ``"check"`` or ``"count"`` (see :data:`MODES`).
    :param limit: ``count``: counts above it are written ``>limit``.
    :param budget: guesses per puzzle (0 = no bound; None = :func:`default_budget`).
    :param unique: ``solve``: a puzzle with several solutions gets ``!multiple``.
    :param stop: a byte another thread may set (``stop[0] = 1``) to stop the call with
        :class:`InterruptedError` (how :func:`scan_stream` stops its threads).
    :returns: a :class:`Block`. Without the C core every line is a note of kind ``"python"``.

    >>> b = scan_block(b"# two\\n" + b"." * 81 + b"\\nbad\\n", mode="check")
    >>> b.output, [(n.line, n.kind) for n in b.notes], b.records
    (b'multiple\\n', [(1, 'multiple'), (2, 'python')], 1)
    """
    search_limit = _search_limit(mode, limit)
    bound = default_budget(_NINE, search_limit) if budget is None else budget
    core = _native.core()
    if core is None:
        return _python_scan(data)
    from ._cengine import geometry

    geo = geometry(_NINE)
    code = MODES.index(mode)
    outputs: list[bytes] = []
    notes: list[Note] = []
    start = lines = records = out = 0
    while True:
        part, raw, consumed, nlines, nrecords = core.lines(
            geo, data, start, code, int(unique), search_limit, limit, bound, stop
        )
        notes.extend(
            Note(s, e, o + out, ln + lines, rec + records, g, c, _KINDS[k])
            for s, e, o, ln, rec, g, c, k in raw
        )
        outputs.append(part)
        out += len(part)
        lines += nlines
        records += nrecords
        if consumed >= len(data):
            break
        start = consumed
    return Block(b"".join(outputs), tuple(notes), lines, records)


def _python_scan(data: bytes) -> Block:
    """A block with every line handed back as a note of kind ``"python"`` (no C core)."""
    notes, start, line = [], 0, 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        notes.append(Note(start, end, 0, line, 0, 0, 0, "python"))
        start, line = end + 1, line + 1
    return Block(b"", tuple(notes), line, 0)


def read_line(raw: bytes, lineno: int, source: str) -> Record | None:
    """The record the line reader makes of the line *raw* (with its ``\\n`` if it has one),
    line *lineno* of *source*; ``None`` for a blank line or a ``#`` comment. Exactly what
    :func:`sudokit.formats.read` gives for that line (a record's ``index`` is left 0).

    >>> str(read_line(b"12x4" + b"." * 12 + b"\\n", 3, "in.txt").error)[:34]
    'in.txt, line 3, column 3: unexpect'
    >>> read_line(b"  # a comment\\n", 4, "in.txt") is None
    True
    """
    # stream_lines strips a byte-order mark from its first line only: a line other than the
    # file's first goes second, after a blank line, so that it keeps one as the file's would.
    prefix = b"" if lineno == 1 else b"\n"
    lines = stream_lines(io.BytesIO(prefix + raw))
    if prefix:
        next(lines)
    text = next(lines, None)
    if text is None:
        return None
    for found in read_lines(iter([(lineno, text[1])]), None):
        error = found.error
        if error is not None:
            error = error.located(line=error.line or lineno, source=source)
        return Record(0, lineno, found.grid, error, found.fields)
    return None


def line_text(result: SolveResult, mode: str, limit: int = 1000, unique: bool = False) -> str:
    """The output line of one solved puzzle as ``sudokit solve`` (``check``, ``count``)
    writes it with ``--to line``: what the C reader writes for the lines it takes.

    >>> from sudokit import solve
    >>> r = solve("..34..1...4..3.1")
    >>> line_text(r, "solve"), line_text(r, "solve", unique=True), line_text(r, "check")
    ('1234341221434321', '!multiple', 'multiple')
    >>> line_text(solve("." * 16, limit=289), "count", limit=288)
    '288'

    A count whose search gave up is a lower bound (:func:`count_text`):

    >>> r = solve("." * 16, limit=1001, budget=30)  # 288 solutions: 30 guesses find some
    >>> line_text(r, "count", limit=1000) == f">={r.count}", r.count > 0
    (True, True)
    >>> line_text(solve("." * 16, limit=1001, budget=1), "count", limit=1000)
    '!gave-up'
    """
    status = result.status
    if mode == "check":
        return str(status)
    if mode == "count":
        return count_text(result, limit)
    if result.solution is not None and (status is Status.UNIQUE or not unique):
        return result.solution.to_line()
    return f"!{status}"


def count_text(result: SolveResult, limit: int) -> str:
    """``sudokit count``'s row for a search to *limit* + 1 solutions: the exact count, ``>limit``
    past it, ``0`` for conflicting givens, and for a search that gave up the lower bound
    ``>=N`` (the N solutions found so far) or ``!gave-up`` when it found none.

    >>> from sudokit import solve
    >>> count_text(solve("..34..1...4..3.1", limit=11), 10)
    '2'
    >>> count_text(solve("1..1" + "." * 12), 10)  # conflicting givens
    '0'
    """
    if result.status is Status.INVALID:
        return "0"
    if result.count > limit:
        return f">{limit}"
    if not result.complete:
        return f">={result.count}" if result.count else "!gave-up"
    return str(result.count)


def solve_block(
    data: bytes,
    *,
    mode: str = "solve",
    limit: int = 1000,
    budget: int | None = None,
    unique: bool = False,
) -> bytes:
    """The output lines of the puzzle lines in *data*, as ``sudokit solve`` (*mode*
    ``"check"``: ``check``; ``"count"``: ``count --limit``) writes them with ``--to line``:
    one line per puzzle, in order; ``!invalid`` (``invalid``) for a line that does not read;
    nothing for blank lines and ``#`` comments. Parameters as :func:`scan_block`; lines the
    C reader does not take (other sizes, separators, ...) are read and solved in Python.

    >>> solve_block(b"..34..1...4..3.1\\n\\nbad\\n", mode="check")
    b'multiple\\ninvalid\\n'
    >>> solve_block(b"." * 16, mode="count", limit=10)
    b'>10\\n'
    """
    block = scan_block(data, mode=mode, limit=limit, budget=budget, unique=unique)
    search_limit = _search_limit(mode, limit)
    pieces, at = [], 0
    for note in block.notes:
        if note.kind != "python":
            continue
        pieces.append(block.output[at : note.out])
        at = note.out
        record = read_line(data[note.start : note.end + 1], note.line + 1, "<block>")
        if record is None:
            continue
        if record.grid is None:
            text = "invalid" if mode == "check" else "!invalid"
        else:
            result = next(solve_many([record.grid], limit=search_limit, budget=budget))
            text = line_text(result, mode, limit, unique)
        pieces.append(text.encode() + b"\n")
    pieces.append(block.output[at:])
    return b"".join(pieces)


#: A piece of a stream (:func:`scan_stream`): the number of its first line, its bytes, and
#: its :class:`Block` -- or, for one line too long to hold, that line's error and ``b""``.
Piece = tuple[int, bytes, "Block | ParseError"]


def _chunks(stream: IO[bytes], size: int) -> Iterator[tuple[int, bytes | ParseError]]:
    """*stream* in pieces of whole lines (about *size* bytes), each with the number of its
    first line; a line longer than :data:`MAX_LINE` that no piece can hold comes as its error,
    made by :func:`~sudokit.formats._base.stream_lines` from the stream itself (bounded
    memory; past ``MAX_SKIP`` the rest is not read)."""
    read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
    lineno, carry = 1, b""
    while True:
        part = read(max(size, len(carry)))  # a long line's carry doubles: linear, not square
        if not part:
            if carry:
                yield lineno, carry
            return
        data = carry + part if carry else part
        cut = data.rfind(b"\n") + 1
        if cut:
            yield lineno, data[:cut]
            lineno += data.count(b"\n", 0, cut)
            carry = data[cut:]
        elif len(data) > MAX_LINE + 1:
            _, error = next(stream_lines(stream, data))
            assert isinstance(error, ParseError)  # a line this long is always one
            yield lineno, error
            if "not read" in error.message:  # past MAX_SKIP: stream_lines stops reading too
                return
            lineno, carry = lineno + 1, b""
        else:
            carry = data


def scan_stream(
    stream: IO[bytes],
    *,
    jobs: int = 1,
    mode: str = "solve",
    limit: int = 1000,
    budget: int | None = None,
    unique: bool = False,
    size: int | None = None,
) -> Generator[Piece, None, None]:
    """The pieces of the binary *stream*, cut at line ends, each scanned by
    :func:`scan_block` (options as there), in order. With *jobs* > 1 (0 = every core) the
    blocks run on that many threads (the C core releases the GIL), a few pieces ahead of the
    caller; the results are the same as with one. *size*: bytes read at a time (None:
    :data:`CHUNK`). Closing the generator (or leaving it) stops the threads at once.

    >>> pieces = list(scan_stream(io.BytesIO(b"." * 81 + b"\\n# end\\n"), mode="check"))
    >>> [(first, block.output) for first, _, block in pieces]
    [(1, b'multiple\\n')]
    """
    _search_limit(mode, limit)  # a bad option fails now, not in a worker
    threads = (os.cpu_count() or 1) if jobs == 0 else jobs
    chunks = _chunks(stream, CHUNK if size is None else size)

    stop = bytearray(1)  # set when the caller stops reading: running blocks end at once

    def scan(data: bytes) -> Block:
        return scan_block(data, mode=mode, limit=limit, budget=budget, unique=unique, stop=stop)

    if threads <= 1:
        for first, data in chunks:
            if isinstance(data, ParseError):
                yield first, b"", data
            else:
                yield first, data, scan(data)
        return
    from concurrent.futures import ThreadPoolExecutor  # only here: its import costs start-up

    window: deque[tuple[int, bytes, Future[Block] | ParseError]] = deque()
    pool = ThreadPoolExecutor(threads, thread_name_prefix="sudokit-blocks")
    try:
        for first, data in chunks:
            if isinstance(data, ParseError):
                window.append((first, b"", data))
            else:
                window.append((first, data, pool.submit(scan, data)))
            while len(window) > 2 * threads or (window and _done(window[0][2])):
                yield _resolved(window.popleft())
        while window:
            yield _resolved(window.popleft())
    finally:  # done, or the caller stopped (Ctrl-C, an error, a closed pipe): no thread lingers
        stop[0] = 1
        pool.shutdown(wait=True, cancel_futures=True)


def _done(item: Future[Block] | ParseError) -> bool:
    return isinstance(item, ParseError) or item.done()


def _resolved(item: tuple[int, bytes, Future[Block] | ParseError]) -> Piece:
    first, data, found = item
    return first, data, found if isinstance(found, ParseError) else found.result()


def note_result(
    data: bytes, note: Note, *, mode: str = "solve", limit: int = 1000, budget: int | None = None
) -> SolveResult:
    """The :class:`~sudokit.solver.SolveResult` of the puzzle of a note of kind ``"none"``,
    ``"multiple"`` or ``"gave-up"`` (*data* and the options of its :func:`scan_block`), as
    :func:`~sudokit.solver.solve_many` gives it (status, count, guesses, error), without its
    solution: what a caller reports about the line.

    >>> data = b"." * 81
    >>> note = scan_block(data, budget=1).notes[0]
    >>> r = note_result(data, note, budget=1)
    >>> r.status.value, r.error
    ('gave-up', 'gave up after 1 guesses (budget 1)')
    """
    record = read_line(data[note.start : note.end + 1], note.line + 1, "<block>")
    assert record is not None  # the C reader read it
    assert record.grid is not None
    search_limit = _search_limit(mode, limit)
    bound = default_budget(_NINE, search_limit) if budget is None else budget
    return to_solve_result(
        record.grid, note.count, None, note.guesses, note.kind != "gave-up", bound, search_limit
    )


def reads_as_lines(name: str, fmt: str | None = None) -> bool:
    """Whether :func:`sudokit.formats.read` reads the file *name* (with ``--from`` *fmt*) in
    the line format, and its head holds no line that is not text: a regular file that opens,
    whose format *fmt*, its name's ending or the sniffer says is ``line`` (from the same
    first 64 KiB). Such a file can go through :func:`scan_stream` with the same outcome.

    Only a regular file is opened here: the caller opens the input again, and a pipe
    (a FIFO) opened twice waits for a writer that is gone.

    >>> reads_as_lines("no-such-file.txt"), reads_as_lines("/dev/null")
    (False, False)
    """
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            return False
        with open(name, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return False  # replaced by something else since the stat
            head = stream.read(_HEAD)
    except OSError:
        return False  # the record path reports it, as before
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if "\0" in text:
        return False
    return (fmt or format_of_extension(name) or sniff(text)) == "line"
