"""``sudokit solve | count | check | convert``: bulk solving and format conversion.

Every command streams its input (any number of puzzles, any format), keeps input order, and
goes on past bad records: each is reported on stderr as ``sudokit: <file>:<line>: ...``.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Iterator

import click

from .. import Candidates, Grid, Shape, SolveResult, Status, formats, solve_many
from . import common
from .common import Item, Reporter

__all__ = ["check", "convert", "count", "solve"]

#: Puzzles handed to the solver at a time (bounds memory; keeps input order).
CHUNK = 1024

_MARKERS = """\b
Marker lines (one per puzzle that gets no solution; filter with grep -v '^!'):
  !none      the puzzle has no solution
  !invalid   conflicting givens, or input that could not be read
  !multiple  several solutions, with --unique (without it the first one is printed)
  !gave-up   the --budget of guesses ran out before a solution was found
"""


#: ``--budget N``: the guesses a puzzle may take (solve, count and check share it).
_budget_option = click.option(
    "--budget",
    type=click.IntRange(min=0),
    default=0,
    help="Give up on a puzzle after N guesses (0 = never).",
)


def _chunk_size() -> int:
    """Puzzles per solver call: one at a time when a person types them in."""
    return 1 if sys.stdin.isatty() else CHUNK


def _solved(
    items: Iterable[Item], *, limit: int, budget: int, jobs: int
) -> Iterator[tuple[Item, SolveResult | None]]:
    """Each item with its solver result (``None`` for a record that did not parse), in order."""
    stream = iter(items)
    size = _chunk_size()
    while chunk := list(itertools.islice(stream, size)):
        grids = [item.grid for item in chunk if item.grid is not None]
        results = iter(solve_many(grids, limit=limit, budget=budget, jobs=jobs))
        for item in chunk:
            yield item, (next(results) if item.grid is not None else None)


def _read_error(reporter: Reporter, item: Item) -> None:
    assert item.record.error is not None
    reporter.parse_error(item.record.error, prefix=f"puzzle {item.number}: ")


def _structured(fmt: str) -> bool:
    return fmt in ("csv", "json", "jsonl")


def _inputs(
    files: tuple[str, ...],
    fmt: str | None,
    shape: Shape | None,
    diagonals: bool,
    reporter: Reporter,
) -> Iterator[Item]:
    return common.records(files, fmt, shape, reporter, diagonals=diagonals)


@click.command(epilog=_MARKERS)
@common.input_files
@common.from_option
@common.to_option("line")
@common.shape_options
@click.option("--unique", is_flag=True, help="A puzzle with several solutions gets !multiple.")
@_budget_option
@common.jobs_option
@common.resume_option
@common.output_option
@common.guarded
def solve(
    files: tuple[str, ...],
    fmt: str | None,
    to: str,
    shape: Shape | None,
    diagonals: bool,
    unique: bool,
    budget: int,
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
    if resume:
        from ..batch import solve_file

        with common.resumable(
            "solving",
            files,
            output,
            reporter,
            to=to,
            needs="line",
            shape=shape,
            diagonals=diagonals,
        ) as (source, advance):
            _, markers = solve_file(
                source, output, budget=budget, unique=unique, jobs=jobs, progress=advance
            )
        if markers:
            reporter.problem(source, None, f"{markers} puzzles without a unique solution")
        reporter.exit()
    structured = _structured(to)
    with (
        common.open_output(output, files) as stream,
        formats.Writer(stream, to) as writer,
        common.progress("solving", reporter) as advance,
    ):
        items = _inputs(files, fmt, shape, diagonals, reporter)
        for item, result in _solved(items, limit=2, budget=budget, jobs=jobs):
            advance(1)
            where, line, n = item.source, item.record.line, item.number
            if result is None:
                _read_error(reporter, item)
                writer.marker("invalid", {"error": str(item.record.error)})
                continue
            status = result.status
            fields = {**item.record.fields, "status": str(status)}
            if status is Status.MULTIPLE and not unique:
                reporter.problem(where, line, f"puzzle {n}: several solutions; printed the first")
            elif status is not Status.UNIQUE:
                reporter.problem(where, line, f"puzzle {n}: {_why(result)}")
            puzzle = item.grid
            assert puzzle is not None  # a result exists only for a parsed puzzle
            if result.solution is not None and (status is Status.UNIQUE or not unique):
                if structured:
                    writer.write(puzzle, solution=result.solution, fields=fields)
                else:
                    writer.write(result.solution)
            elif structured:
                writer.write(puzzle, fields=fields)
            else:
                writer.marker(str(status))
    reporter.exit()


def _why(result: SolveResult) -> str:
    if result.status is Status.NONE:
        return "no solution"
    if result.status is Status.MULTIPLE:
        return "several solutions (--unique)"
    if result.status is Status.INVALID:
        return f"invalid: {result.error}"
    return result.error or str(result.status)


@click.command()
@common.input_files
@common.from_option
@common.shape_options
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Count up to N solutions; more prints '>N'.",
)
@_budget_option
@common.jobs_option
@common.output_option
@common.guarded
def count(
    files: tuple[str, ...],
    fmt: str | None,
    shape: Shape | None,
    diagonals: bool,
    limit: int,
    budget: int,
    jobs: int,
    output: str,
) -> None:
    """Count the solutions of each puzzle: one line per puzzle, in input order.

    \b
    A line is the exact count, '>N' when there are more than --limit N, '0' for conflicting
    givens, '!invalid' for input that could not be read, '!gave-up' when --budget ran out.
    Exit code: 0 every puzzle counted, 1 conflicting givens or a budget ran out,
    2 unreadable input or usage error.
    """
    reporter = Reporter()
    with (
        common.open_output(output, files) as stream,
        common.progress("counting", reporter) as advance,
    ):
        items = _inputs(files, fmt, shape, diagonals, reporter)
        for item, result in _solved(items, limit=max(2, limit + 1), budget=budget, jobs=jobs):
            advance(1)
            if result is None:
                _read_error(reporter, item)
                text = "!invalid"
            elif result.status is Status.INVALID:
                reporter.problem(
                    item.source, item.record.line, f"puzzle {item.number}: {_why(result)}"
                )
                text = "0"
            elif result.status is Status.GAVE_UP:
                reporter.problem(
                    item.source, item.record.line, f"puzzle {item.number}: {_why(result)}"
                )
                text = "!gave-up"
            else:
                text = str(result.count) if result.count <= limit else f">{limit}"
            stream.write(text + "\n")
    reporter.exit()


@click.command()
@common.input_files
@common.from_option
@common.shape_options
@_budget_option
@common.jobs_option
@common.output_option
@common.guarded
def check(
    files: tuple[str, ...],
    fmt: str | None,
    shape: Shape | None,
    diagonals: bool,
    budget: int,
    jobs: int,
    output: str,
) -> None:
    """Say whether each puzzle is proper: unique, multiple, none, invalid (or gave-up).

    One line per puzzle, in input order; with several puzzles the puzzle number follows in a
    second, tab-separated column. Input that could not be read is 'invalid' (and reported).
    Exit code: 0 every puzzle unique, 1 some puzzle is not, 2 unreadable input or usage error.
    """
    reporter = Reporter()
    items = _inputs(files, fmt, shape, diagonals, reporter)
    head = list(itertools.islice(items, 2))
    several = len(head) > 1
    with (
        common.open_output(output, files) as stream,
        common.progress("checking", reporter) as advance,
    ):
        for item, result in _solved(
            itertools.chain(head, items), limit=2, budget=budget, jobs=jobs
        ):
            advance(1)
            if result is None:
                _read_error(reporter, item)
                status = "invalid"
            else:
                status = str(result.status)
                if result.status is not Status.UNIQUE:
                    reporter.code = max(reporter.code, common.EXIT_NO)
                if result.status in (Status.INVALID, Status.GAVE_UP):
                    reporter.warn(
                        item.source, item.record.line, f"puzzle {item.number}: {_why(result)}"
                    )
            stream.write(f"{status}\t{item.number}\n" if several else f"{status}\n")
    reporter.exit()


@click.command()
@common.input_files
@common.from_option
@common.to_option("line")
@common.shape_options
@click.option(
    "--marks",
    is_flag=True,
    help="With --to candidates/candgrid: leave out the candidates the givens rule out.",
)
@common.output_option
@common.guarded
def convert(
    files: tuple[str, ...],
    fmt: str | None,
    to: str,
    shape: Shape | None,
    diagonals: bool,
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
        common.open_output(output, files) as stream,
        formats.Writer(stream, to) as writer,
        common.progress("converting", reporter) as advance,
    ):
        for item in _inputs(files, fmt, shape, diagonals, reporter):
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
