"""``sudokit solve | count | check | convert``: bulk solving and format conversion.

Every command streams its input (any number of puzzles, any format), keeps input order, and
goes on past bad records: each is reported on stderr as ``sudokit: <file>:<line>: ...``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, Any

import click

from .. import (
    Candidates,
    Grid,
    ParseError,
    SolveResult,
    Status,
    blocks,
    formats,
    solve_many,
)
from . import common
from .common import Item, Reporter

__all__ = ["check", "convert", "count", "solve"]

#: Puzzles handed to the solver at a time (bounds memory; keeps input order).
CHUNK = 1024
#: Records per worker task of ``solve --jobs N`` (N != 1): enough that a task's round trip
#: is negligible, few enough that the bar moves and the workers finish together.
JOB_CHUNK = 1024

_MARKERS = """\b
Marker lines (one per puzzle that gets no solution; filter with grep -v '^!'):
  !none      the puzzle has no solution
  !invalid   conflicting givens, or input that could not be read
  !multiple  several solutions, with --unique (without it the first one is printed)
  !gave-up   the --guesses bound ran out before the answer was known
"""


def _jobs_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return common.jobs_option(fn, help="Solve on N cores at once (0 = every core).")


def _chunk_size() -> int:
    """Puzzles per solver call: one at a time when a person types them in."""
    return 1 if sys.stdin.isatty() else CHUNK


def _solved(
    items: Iterable[Item], *, limit: int, guesses: int | None, jobs: int
) -> Iterator[tuple[Item, SolveResult | None]]:
    """Each item with its solver result (``None`` for a record that did not parse), in order;
    *guesses* bounds each search (``None``: the default for the shape)."""
    stream = iter(items)
    size = _chunk_size()
    while chunk := list(itertools.islice(stream, size)):
        grids = [item.grid for item in chunk if item.grid is not None]
        results = iter(solve_many(grids, limit=limit, budget=guesses, jobs=jobs))
        for item in chunk:
            yield item, (next(results) if item.grid is not None else None)


def _read_error(reporter: Reporter, item: Item) -> None:
    assert item.record.error is not None
    reporter.parse_error(item.record.error, prefix=f"puzzle {item.number}: ")


def _structured(fmt: str) -> bool:
    return formats.carries_fields(fmt)


@click.command(epilog=_MARKERS)
@common.puzzle_input
@common.to_option("line")
@click.option("--unique", is_flag=True, help="A puzzle with several solutions gets !multiple.")
@common.guesses_option
@_jobs_option
@common.resume_option
@common.output_option
@common.guarded
def solve(
    given: common.PuzzleInput,
    to: str,
    unique: bool,
    guesses: int | None,
    jobs: int,
    resume: bool,
    output: str,
) -> None:
    """Solve puzzles: one output line (or record) per input puzzle, in input order.

    A puzzle with several solutions gets its first solution and a warning (exit code 1).
    With --to csv/json/jsonl each record holds the puzzle, its solution and a status.
    Exit code: 0 every puzzle solved with a unique solution, 1 some puzzle has none, several
    or conflicting givens, 2 unreadable input or usage error.
    """
    reporter = Reporter()
    if resume and given.symbols is not None:
        common.fail("--resume reads the default symbols: give --symbols without --resume")
    if resume:
        from ..batch import solve_file

        with common.resumable(
            "solving",
            given.files,
            output,
            reporter,
            to=to,
            needs="line",
            shape=given.shape,
            diagonals=given.diagonals,
        ) as (source, advance):
            several: set[int] = set()
            _, markers = solve_file(
                source,
                output,
                budget=guesses,
                unique=unique,
                jobs=jobs,
                progress=advance,
                several=several.add,
            )
        if markers or several:  # one line per bad record, on its line, as in plain mode
            common.report_markers(reporter, source, output, several)
        reporter.exit()
    with (
        common.open_output(output, given.files) as stream,
        formats.Writer(stream, to) as writer,
        common.progress("solving", reporter) as advance,
    ):
        fast = _fast_files(given, to)
        if fast is not None:

            def solve_one(item: Item) -> None:
                _solve_items(
                    [item], writer, reporter, advance, unique=unique, guesses=guesses, jobs=1
                )

            def written(records: int) -> None:
                writer.count += records

            run = _FastRun(reporter, advance, stream, solve_one, guesses, jobs, "solve")
            run.unique, run.written = unique, written
            run.files(given, fast)
        else:
            items = given.items(reporter)
            _solve_items(
                items, writer, reporter, advance, unique=unique, guesses=guesses, jobs=jobs
            )
    reporter.exit()


def _fast_files(given: common.PuzzleInput, to: str = "line") -> list[str] | None:
    """The input files when the whole input can go the bulk path (:mod:`sudokit.blocks`),
    else ``None``: the C core is in use, the input is one or more regular files (no
    ``--puzzle``, no standard input) that read as lines (:func:`sudokit.blocks.reads_as_lines`),
    with no ``--box``/``--x``/``--regions``/``--symbols``, and the output is ``--to line``.
    The bulk path writes the same bytes and messages; anything else goes through the records
    as before."""
    if (
        not blocks.native()
        or to != "line"
        or given.puzzles
        or not given.files
        or given.shape is not None
        or given.diagonals
        or given.symbols is not None
        or given.fmt not in (None, "line")
    ):
        return None
    if not all(blocks.reads_as_lines(name, given.fmt) for name in given.files):
        return None
    return list(given.files)


def _bytes_writer(stream: IO[str]) -> Callable[[bytes], object]:
    """A writer of the C core's ASCII output bytes to the text *stream*: straight to its
    binary buffer (after what the text layer holds, so the order stays), or decoded when the
    stream has none (e.g. a test's StringIO)."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        return lambda data: stream.write(data.decode("ascii"))

    def write(data: bytes) -> None:
        stream.flush()
        buffer.write(data)

    return write


class _FastRun:
    """One run of ``solve``/``check``/``count`` over line files on the bulk path: the C core
    writes the output of the plain lines (:func:`sudokit.blocks.scan_stream`, on *jobs*
    threads); a line it hands back is read as :func:`sudokit.formats.read` reads it and done
    by *one* (the command's own per-record code, so its output and messages are today's);
    the lines it reports get the messages of the command (:meth:`note`)."""

    def __init__(
        self,
        reporter: Reporter,
        advance: Callable[[int], None],
        stream: IO[str],
        one: Callable[[Item], None],
        guesses: int | None,
        jobs: int,
        mode: str,
        limit: int = 1000,
    ) -> None:
        self.reporter, self.advance, self.one = reporter, advance, one
        self.write = _bytes_writer(stream)
        self.guesses, self.jobs, self.mode, self.limit = guesses, jobs, mode, limit
        self.unique = False
        self.written: Callable[[int], None] = lambda records: None
        self.number = 0

    def files(self, given: common.PuzzleInput, names: list[str]) -> None:
        """Run every file of *names* in turn (numbered across files, as ``records``)."""
        for name in names:
            label = name or "''"
            try:
                stream = open(name, "rb")  # noqa: SIM115  (closed below; only open's errors are caught)
            except OSError as exc:
                self.reporter.usage(common.missing_file(label, exc.strerror or str(exc)))
                continue
            with stream:
                seen = self.file(stream, name, label, given)
            if not seen:
                self.reporter.usage(f"{label}: no puzzles found")

    def file(
        self, stream: io.BufferedIOBase, source: str, label: str, given: common.PuzzleInput
    ) -> int:
        """Run one file; return its number of records."""
        pieces = blocks.scan_stream(
            stream,  # type: ignore[arg-type]
            jobs=self.jobs,
            mode=self.mode,
            limit=self.limit,
            budget=self.guesses,
            unique=self.unique,
        )
        with contextlib.closing(pieces):  # an error here stops the worker threads at once
            return self._pieces(pieces, source, label, given)

    def _pieces(
        self,
        pieces: Iterable[blocks.Piece],
        source: str,
        label: str,
        given: common.PuzzleInput,
    ) -> int:
        """Write and report the pieces of one file; return its number of records."""
        seen = 0
        for first, data, block in pieces:
            if isinstance(block, ParseError):  # a line too long to hold
                seen += 1
                self.number += 1
                error = block.located(line=block.line or first, source=source)
                record = formats.Record(seen, first, None, error)
                self.one(common._item(self.number, label, record, self.reporter, given))
                continue
            extra, at = 0, 0  # records of handed-back lines; output written so far
            for note in block.notes:
                lineno = first + note.line
                number = self.number + note.record + extra
                if note.kind != "python":
                    self.note(data, note, label, lineno, number + 1)
                    continue
                self.write(block.output[at : note.out])
                at = note.out
                read = blocks.read_line(data[note.start : note.end + 1], lineno, source)
                if read is None:
                    continue
                extra += 1
                index = seen + note.record + extra
                found = formats.Record(index, lineno, read.grid, read.error, read.fields)
                self.one(common._item(number + 1, label, found, self.reporter, given))
            self.write(block.output[at:])
            done = block.records + extra
            self.number += done
            seen += done
            self.written(block.records)
            self.advance(block.records)
        return seen

    def note(self, data: bytes, note: blocks.Note, label: str, lineno: int, number: int) -> None:
        """Report a puzzle of the C core's output as the command does (a result's status)."""
        if note.kind == "gave-up":  # its message names the guesses and the bound
            result = blocks.note_result(
                data, note, mode=self.mode, limit=self.limit, budget=self.guesses
            )
        else:  # no solution, several: the status is all the messages need
            result = SolveResult(None, Status(note.kind), None, note.count, note.guesses, True)
        say = f"puzzle {number}: "
        if self.mode == "solve":
            message = _message(result, self.unique)
            if message is not None:
                self.reporter.problem(label, lineno, say + message)
        elif self.mode == "check":
            self.reporter.code = max(self.reporter.code, common.EXIT_NO)
            if result.status is Status.GAVE_UP:
                self.reporter.warn(label, lineno, say + _why(result))
        elif not result.complete:  # a count that gave up (its row says >=N or !gave-up)
            self.reporter.problem(label, lineno, say + _gave_up(result))


def _write_solved(
    writer: formats.Writer,
    grid: Grid | None,
    fields: Mapping[str, str],
    error: str | None,
    result: SolveResult | None,
    unique: bool,
) -> str | None:
    """Write one record's output (its solution, or a marker); return what to report about
    it (``None``: nothing, or a record that did not parse, reported by the caller)."""
    if result is None:
        writer.marker("invalid", {"error": error or ""})
        return None
    assert grid is not None  # a result exists only for a parsed puzzle
    status = result.status
    message = _message(result, unique)
    structured = _structured(writer.fmt)
    out_fields = {**fields, "status": str(status)}
    if result.solution is not None and (status is Status.UNIQUE or not unique):
        if structured:
            writer.write(grid, solution=result.solution, fields=out_fields)
        else:
            writer.write(result.solution)
    elif structured:
        writer.write(grid, fields=out_fields)
    else:
        writer.marker(str(status))
    return message


def _message(result: SolveResult, unique: bool) -> str | None:
    """What ``solve`` reports about a solved puzzle (``None``: nothing)."""
    if result.status is Status.MULTIPLE and not unique:
        return "several solutions; printed the first"
    if result.status is not Status.UNIQUE:
        return _why(result)
    return None


def _report(reporter: Reporter, item: Item, message: str | None) -> None:
    if item.grid is None:
        _read_error(reporter, item)
    elif message is not None:
        reporter.problem(item.source, item.record.line, f"puzzle {item.number}: {message}")


#: A worker's task in ``solve --jobs N``: (output format, unique, budget, the writer's CSV
#: columns, the records as (grid, fields, error text)).
_Task = tuple[
    str, bool, int | None, list[str] | None, list[tuple[Grid | None, Mapping[str, str], str | None]]
]


def _solve_chunk(task: _Task) -> tuple[str, list[tuple[int, str]]]:
    """A worker's job in ``solve --jobs N``: solve a chunk of records and write them as a
    writer that has already written a record would (so the texts of the chunks, in order,
    follow the first record); return the text and the (index, message) pairs to report.

    >>> g = Grid.parse("..34..1...4..3.1")
    >>> _solve_chunk(("jsonl", True, 0, None, [(g, {}, None), (None, {}, "bad")]))[1]
    [(0, 'several solutions (--unique)')]
    """
    fmt, unique, budget, columns, records = task
    results = iter(solve_many([g for g, _, _ in records if g is not None], limit=2, budget=budget))
    buf = io.StringIO()
    writer = formats.Writer(buf, fmt, follows=(1, columns))  # after the first record
    problems = []
    for index, (grid, fields, error) in enumerate(records):
        result = next(results) if grid is not None else None
        message = _write_solved(writer, grid, fields, error, result, unique)
        if message is not None:
            problems.append((index, message))
    return buf.getvalue(), problems


def _solve_items(
    items: Iterable[Item],
    writer: formats.Writer,
    reporter: Reporter,
    advance: Callable[[int], None],
    *,
    unique: bool,
    guesses: int | None,
    jobs: int,
) -> None:
    """``solve``: in this process when *jobs* is 1 (or chunks are one record), else on
    *jobs* worker processes (:func:`sudokit.batch.ordered_map`): this process reads the
    records, workers solve and format chunks of :data:`JOB_CHUNK` of them.

    Input that makes a single chunk is done here too (no pool start-up). The first record
    is always done here, so that the writer's state (a CSV header, the opening of
    a JSON list) is settled before any chunk is formatted elsewhere: the output is the same,
    byte for byte, as in one process.
    """
    if jobs == 1 or _chunk_size() == 1:
        for item, result in _solved(items, limit=2, guesses=guesses, jobs=jobs):
            advance(1)
            error = None if item.record.error is None else str(item.record.error)
            message = _write_solved(writer, item.grid, item.record.fields, error, result, unique)
            _report(reporter, item, message)
        return
    from ..batch import WorkerDied, ordered_map

    stream = iter(items)
    _solve_items(
        itertools.islice(stream, 1),
        writer,
        reporter,
        advance,
        unique=unique,
        guesses=guesses,
        jobs=1,
    )
    _, columns = writer.state
    chunks = iter(lambda: list(itertools.islice(stream, JOB_CHUNK)), [])
    head = list(itertools.islice(chunks, 2))
    if len(head) < 2:
        jobs = 1  # one chunk of work is done sooner here than a pool starts
    chunks = itertools.chain(head, chunks)
    tasks = (
        (
            chunk,
            (
                writer.fmt,
                unique,
                guesses,
                columns,
                [
                    (i.grid, i.record.fields, None if i.grid is not None else str(i.record.error))
                    for i in chunk
                ],
            ),
        )
        for chunk in chunks
    )
    out = writer.stream
    try:
        for chunk, (text, problems) in ordered_map(_solve_chunk, tasks, jobs):
            messages = dict(problems)
            for index, item in enumerate(chunk):
                if item.grid is None or index in messages:
                    _report(reporter, item, messages.get(index))
            out.write(text)
            writer.count += len(chunk)
            advance(len(chunk))
    except WorkerDied as exc:
        raise common.lost_puzzles(exc, "solving") from None


def _why(result: SolveResult) -> str:
    if result.status is Status.NONE:
        return "no solution"
    if result.status is Status.MULTIPLE:
        return "several solutions (--unique)"
    if result.status is Status.INVALID:
        return f"invalid: {result.error}"
    if result.status is Status.GAVE_UP:
        return _gave_up(result)
    return result.error or str(result.status)


def _gave_up(result: SolveResult) -> str:
    """The message of a search that ran out of guesses, with what it found so far (a count's
    lower bound).

    >>> _gave_up(SolveResult(None, Status.MULTIPLE, None, 58, 100, False, "gave up after 100"))
    'gave up after 100 with 58 solutions found so far; raise the bound with --guesses N (0 = none)'
    """
    found = result.count
    so_far = f" with {found} solution{'s' * (found != 1)} found so far" if found else ""
    return f"{result.error or 'gave up'}{so_far}; raise the bound with --guesses N (0 = none)"


@click.command()
@common.puzzle_input
@click.option(
    "--limit",
    type=click.IntRange(min=1, max=common.MAX_COUNT - 1),  # the search counts to limit + 1
    default=1000,
    show_default=True,
    help="Count up to N solutions; more prints '>N'.",
)
@common.guesses_option
@_jobs_option
@common.output_option
@common.guarded
def count(
    given: common.PuzzleInput,
    limit: int,
    guesses: int | None,
    jobs: int,
    output: str,
) -> None:
    """Count the solutions of each puzzle: one line per puzzle, in input order.

    \b
    A line is the exact count, '>N' when there are more than --limit N, '0' for conflicting
    givens, '!invalid' for input that could not be read, '>=N' when the --guesses bound ran
    out after N solutions (a lower bound; '!gave-up' when it found none). Exit code: 0 every
    puzzle counted, 1 conflicting givens or a bound ran out, 2 unreadable input or usage error.
    """
    reporter = Reporter()
    with (
        common.open_output(output, given.files) as stream,
        common.progress("counting", reporter) as advance,
    ):

        def count_one(item: Item, result: SolveResult | None) -> None:
            advance(1)
            stream.write(_count_text(reporter, item, result, limit) + "\n")

        fast = _fast_files(given)
        if fast is not None:

            def one(item: Item) -> None:
                for found in _solved([item], limit=max(2, limit + 1), guesses=guesses, jobs=1):
                    count_one(*found)

            _FastRun(reporter, advance, stream, one, guesses, jobs, "count", limit).files(
                given, fast
            )
        else:
            items = given.items(reporter)
            for found in _solved(items, limit=max(2, limit + 1), guesses=guesses, jobs=jobs):
                count_one(*found)
    reporter.exit()


def _count_text(reporter: Reporter, item: Item, result: SolveResult | None, limit: int) -> str:
    """``count``'s line for one record (reporting what it says about it)."""
    if result is None:
        _read_error(reporter, item)
        return "!invalid"
    say = f"puzzle {item.number}: "
    if result.status is Status.INVALID:
        reporter.problem(item.source, item.record.line, say + _why(result))
    elif not result.complete and result.count <= limit:  # the row is >=N or !gave-up
        reporter.problem(item.source, item.record.line, say + _gave_up(result))
    return blocks.count_text(result, limit)


@click.command()
@common.puzzle_input
@common.guesses_option
@_jobs_option
@common.output_option
@common.guarded
def check(
    given: common.PuzzleInput,
    guesses: int | None,
    jobs: int,
    output: str,
) -> None:
    """Say whether each puzzle is proper: unique, multiple, none, invalid (or gave-up).

    One line per puzzle, in input order, the same for one puzzle as for many (line k is
    puzzle k). Input that could not be read is 'invalid' (and reported).
    Exit code: 0 every puzzle unique, 1 some puzzle is not, 2 unreadable input or usage error.
    """
    reporter = Reporter()
    fast = _fast_files(given)
    items = given.items(reporter) if fast is None else iter(())
    with (
        common.open_output(output, given.files) as stream,
        common.progress("checking", reporter) as advance,
    ):

        def check_one(item: Item, result: SolveResult | None) -> None:
            advance(1)
            stream.write(f"{_check_text(reporter, item, result)}\n")

        if fast is not None:

            def one(item: Item) -> None:
                for found in _solved([item], limit=2, guesses=guesses, jobs=1):
                    check_one(*found)

            _FastRun(reporter, advance, stream, one, guesses, jobs, "check").files(given, fast)
        for found in _solved(items, limit=2, guesses=guesses, jobs=jobs):
            check_one(*found)
    reporter.exit()


def _check_text(reporter: Reporter, item: Item, result: SolveResult | None) -> str:
    """``check``'s line for one record (reporting what it says about it)."""
    if result is None:
        _read_error(reporter, item)
        return "invalid"
    if result.status is not Status.UNIQUE:
        reporter.code = max(reporter.code, common.EXIT_NO)
    if result.status in (Status.INVALID, Status.GAVE_UP):
        reporter.warn(item.source, item.record.line, f"puzzle {item.number}: {_why(result)}")
    return str(result.status)


@click.command()
@common.puzzle_input
@common.to_option("line")
@click.option(
    "--marks",
    is_flag=True,
    help="With --to candidates/candgrid: leave out the candidates the givens rule out.",
)
@common.output_option
@common.guarded
def convert(
    given: common.PuzzleInput,
    to: str,
    marks: bool,
    output: str,
) -> None:
    """Convert puzzles between formats (fields such as a CSV solution column are kept).

    Records that cannot be read are reported and left out.
    Exit code: 0 all converted, 2 some input could not be read or usage error.
    """
    if marks and to not in ("candidates", "candgrid"):
        common.fail("--marks needs --to candidates or --to candgrid")
    reporter = Reporter()
    with (
        common.open_output(output, given.files) as stream,
        formats.Writer(stream, to) as writer,
        common.progress("converting", reporter) as advance,
    ):
        for item in given.items(reporter):
            advance(1)
            grid: Grid | None = item.grid
            if grid is None:
                _read_error(reporter, item)
                continue
            if marks:
                writer.write_text(formats.dumps_candidates(Candidates.from_grid(grid), to))
            else:
                writer.write(grid, fields=item.record.fields)
    reporter.exit()
