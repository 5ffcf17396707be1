"""``sudokit hint``, ``sudokit explain`` and ``sudokit rate``: the human-style solver on the CLI.

``rate`` streams any number of puzzles in input order; ``--jobs N`` rates them in N worker
processes (rating is pure Python, so threads would not help), and ``--resume`` is the bulk mode
of ``solve --resume`` for one file of puzzle lines (:func:`sudokit.batch.map_file`).
"""

from __future__ import annotations

import collections
import functools
import itertools
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

import sudokit
from sudokit import Candidates, Grid, Shape, formats
from sudokit.errors import ParseError, SudokuError

from . import common
from .common import CliError, Item, NoAnswerError, Reporter

if TYPE_CHECKING:
    from sudokit import Rating

__all__ = ["explain", "hint", "rate"]

#: Puzzles sent to a worker at a time by ``rate --jobs N`` (one when a person types them in).
CHUNK = 16
#: Lines per resumable shard of ``rate --resume``: an interrupted run loses at most the shards
#: in flight, and the bar moves once a shard is done (rating takes milliseconds to seconds).
SHARD_ROWS = 200


def _shape(box: str | None) -> Shape | None:
    if not box:
        return None
    try:
        return Shape.parse_box(box)
    except ParseError as exc:
        raise CliError(str(exc)) from None


def _text_of(source: str) -> str:
    """The argument itself, or the contents of the file it names ('-' is standard input)."""
    if source == "-":
        return sys.stdin.read()
    try:
        is_file = Path(source).is_file()
    except (OSError, ValueError):  # a long puzzle string is not a valid path
        is_file = False
    if not is_file:
        return source
    try:
        return Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {source!r}: {exc}") from None


def _one(source: str, shape: Shape | None, marks: bool) -> Grid | Candidates:
    """One puzzle, or a user's pencil marks (``--marks`` or sniffed candidate formats)."""
    text = _text_of(source)
    try:
        fmt = formats.sniff(text)
        if marks or fmt in ("candidates", "candgrid"):
            return formats.parse_candidates(text, shape=shape)
        return formats.parse_one(text, shape=shape)
    except ParseError as exc:
        raise CliError(str(exc)) from None
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _output(to: str, payload: object, text: str) -> None:
    if to == "json":
        click.echo(json.dumps(payload))
    else:
        click.echo(text)


_TO = click.option(
    "--to",
    "to",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
_BOX = click.option("--box", default=None, help="Box shape RxC for sizes that need it (2x3).")
_MARKS = click.option(
    "--marks", is_flag=True, help="Read the input as pencil marks (candidates / candgrid)."
)


@click.command()
@click.argument("puzzle")
@_TO
@_BOX
@_MARKS
def hint(puzzle: str, to: str, box: str | None, marks: bool) -> int:
    """Show the easiest next step for PUZZLE (text, a file, or - for stdin).

    The input may be a user's pencil marks (a 729-character candidate string or a candidate
    grid): the hint then starts from those marks.
    """
    item = _one(puzzle, _shape(box), marks)
    try:
        step = sudokit.hint(item)
    except SudokuError as exc:
        raise NoAnswerError(str(exc)) from None
    if step is None:
        values = item.cells if isinstance(item, Grid) else item.values
        if 0 not in values:
            _output(to, None, "the grid is already solved")
            return 0
        raise NoAnswerError("no technique applies here (the puzzle has more than one solution)")
    _output(to, step.to_json(), f"{step.technique} ({step.rating:.1f}): {step.text}")
    return 0


@click.command()
@click.argument("puzzle")
@_TO
@_BOX
@_MARKS
@click.option("--budget", type=float, default=60.0, show_default=True, help="Seconds.")
def explain(puzzle: str, to: str, box: str | None, marks: bool, budget: float) -> int:
    """Explain PUZZLE step by step, easiest step first."""
    item = _one(puzzle, _shape(box), marks)
    try:
        steps = sudokit.explain(item, budget_s=budget)
    except SudokuError as exc:
        raise NoAnswerError(str(exc)) from None
    if to == "json":
        click.echo(json.dumps([s.to_json() for s in steps]))
    else:
        for i, s in enumerate(steps, 1):
            click.echo(f"{i:3d}. {s.technique} ({s.rating:.1f}): {s.text}")
        hardest = max((s.rating for s in steps), default=0.0)
        searched = any(s.technique == "Proof by Search" for s in steps)
        note = " (includes Proof by Search: not a Sudoku Explainer rating)" if searched else ""
        click.echo(f"{len(steps)} steps, hardest {hardest:.1f}{note}")
    return 0


def _rate_grids(grids: list[Grid], budget_s: float) -> list[Rating | str]:
    """A worker's job: each puzzle's rating, or the message of why it has none."""
    out: list[Rating | str] = []
    for grid in grids:
        try:
            out.append(sudokit.rate(grid, budget_s=budget_s))
        except SudokuError as exc:
            out.append(str(exc))
    return out


def _rated(
    items: Iterable[Item], budget_s: float, jobs: int, *, size: int = CHUNK
) -> Iterator[tuple[Item, Rating | str | None]]:
    """Each item with its rating, or why it has none (``None``: the record did not parse),
    the items going to the workers *size* at a time."""
    stream = iter(items)
    chunks = iter(lambda: list(itertools.islice(stream, size)), [])
    tasks = ((chunk, [i.grid for i in chunk if i.grid is not None]) for chunk in chunks)
    from sudokit.batch import ordered_map

    work = functools.partial(_rate_grids, budget_s=budget_s)
    for chunk, ratings in ordered_map(work, tasks, jobs):
        answers = iter(ratings)
        for item in chunk:
            yield item, (next(answers) if item.grid is not None else None)


class _Tally:
    """The technique tables of ``rate``'s text output, summed over the rated puzzles."""

    def __init__(self) -> None:
        self.rated = 0
        self.puzzles: collections.Counter[str] = collections.Counter()
        self.steps: collections.Counter[str] = collections.Counter()
        self.cells: collections.Counter[str] = collections.Counter()
        self.family_puzzles: collections.Counter[str] = collections.Counter()
        self.family_steps: collections.Counter[str] = collections.Counter()

    def add(self, r: Rating) -> None:
        self.rated += 1
        self.puzzles.update(r.techniques.keys())
        self.steps.update(r.techniques)
        self.cells.update(r.cells)
        self.family_puzzles.update(r.families.keys())
        self.family_steps.update(r.families)

    def write(self, out: IO[str]) -> None:
        fp, fs = self.family_puzzles, self.family_steps
        print(f"\n{'family':<32} {'puzzles':>8} {'steps':>8}", file=out)
        for name in sorted(fp, key=lambda k: (-fp[k], k)):
            print(f"{name:<32} {fp[name]:>8} {fs[name]:>8}", file=out)
        print(f"\n{'technique':<32} {'puzzles':>8} {'steps':>8} {'cells':>8}", file=out)
        for name in sorted(self.puzzles, key=lambda k: (-self.puzzles[k], k)):
            counts = f"{self.puzzles[name]:>8} {self.steps[name]:>8} {self.cells[name]:>8}"
            print(f"{name:<32} {counts}", file=out)
        print(f"{self.rated} puzzles rated", file=out)


def _text_line(r: Rating, grid: Grid) -> str:
    bound = ""
    if r.lower_bound:
        why = f"{r.budget_s:g} s budget ran out" if r.stopped_at else "no rule applied"
        at = f" in {r.stopped_at}" if r.stopped_at else ""
        bound = f" (lower bound: {why}{at})"
    return f"{r.se_text:>4}  {r.level:<8} {r.score:5d}  {grid}{bound}"


def _jobs_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return common.jobs_option(fn, help="Worker processes for rating (0 = every core).")


@click.command()
@common.input_files
@common.from_option
@_TO
@common.shape_options
@click.option("--budget", type=float, default=60.0, show_default=True, help="Seconds per puzzle.")
@_jobs_option
@common.resume_option
@common.output_option
@common.guarded
def rate(
    files: tuple[str, ...],
    fmt: str | None,
    to: str,
    shape: Shape | None,
    diagonals: bool,
    budget: float,
    jobs: int,
    resume: bool,
    output: str,
) -> None:
    """Rate every puzzle of the FILEs (- or none: stdin) on the Sudoku Explainer scale.

    Text output: one line per puzzle (rating, level, score, puzzle), then tables of how many
    puzzles used each technique family and each technique, with the steps taken and the cells
    filled. JSON output: one object per line and puzzle, in input order,
    {"puzzle", "rating", "level", "score", "techniques"}, or {"puzzle", "error"} for a puzzle
    that cannot be rated (null puzzle: the input could not be read).

    When the budget runs out (or no rule applies) the rating is a lower bound: ">=10.5" in
    text, "lower_bound": true (with "budget_s" and "stopped_at") in JSON.

    --jobs N rates on N processes. --resume (one FILE of puzzle lines, --to json, -o OUT)
    writes resumable shards: after an interruption, the same command continues the run.
    Neither changes a rating, except a lower bound: where the budget runs out depends on
    the machine's speed.

    Exit code: 0 every puzzle rated, 1 some puzzle has no solution, several or conflicting
    givens, 2 unreadable input or usage error.
    """
    reporter = Reporter()
    if resume:
        _rate_resumable(files, output, reporter, to, shape, diagonals, budget, jobs)
        reporter.exit()
    tally = _Tally()
    with (
        common.open_output(output, files) as stream,
        common.progress("rating", reporter) as advance,
    ):
        items = common.records(files, fmt, shape, reporter, diagonals=diagonals)
        typed = sys.stdin.isatty() and (not files or "-" in files)  # a person types puzzles in
        for item, r in _rated(items, budget, jobs, size=1 if typed else CHUNK):
            advance(1)
            row: dict[str, object]
            if r is None:
                assert item.record.error is not None
                reporter.parse_error(item.record.error, prefix=f"puzzle {item.number}: ")
                row = {"puzzle": None, "error": item.record.error.message}
            elif isinstance(r, str):
                reporter.problem(item.source, item.record.line, f"puzzle {item.number}: {r}")
                row = {"puzzle": str(item.grid), "error": r}
            else:
                assert item.grid is not None
                tally.add(r)
                row = r.to_json(item.grid)
                if to == "text":
                    stream.write(_text_line(r, item.grid) + "\n")
            if to == "json":
                stream.write(json.dumps(row) + "\n")
        if to == "text" and tally.rated:
            tally.write(stream)
    reporter.exit()


def _rate_resumable(
    files: tuple[str, ...],
    output: str,
    reporter: Reporter,
    to: str,
    shape: Shape | None,
    diagonals: bool,
    budget: float,
    jobs: int,
) -> None:
    """``rate --resume``: :func:`sudokit.batch.rate_lines` over the file in resumable shards,
    then one stderr line for each row that has an error instead of a rating."""
    from sudokit.batch import map_file, rate_lines

    with common.resumable(
        "rating", files, output, reporter, to=to, needs="json", shape=shape, diagonals=diagonals
    ) as (source, advance):
        map_file(
            functools.partial(rate_lines, budget_s=budget),
            source,
            output,
            params={"budget_s": budget},
            shard_rows=SHARD_ROWS,
            jobs=jobs,
            resume=True,
            progress=advance,
        )
    with open(output, encoding="utf-8") as rows:
        for number, line in enumerate(rows, 1):
            if '"error": ' not in line:  # cheap test first: a rating row has no such key
                continue
            row = json.loads(line)
            if "error" not in row:
                continue
            try:
                Grid.parse(row["puzzle"])
            except ParseError:
                where = ParseError(row["error"], source=source)
                reporter.parse_error(where, prefix=f"puzzle {number}: ")
            else:
                reporter.problem(source, None, f"puzzle {number}: {row['error']}")
