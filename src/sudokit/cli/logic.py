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
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

import click

import sudokit
from sudokit import Candidates, Grid, Shape, formats
from sudokit.errors import ParseError, SudokuError

from . import common
from .common import Item, Reporter

if TYPE_CHECKING:
    from sudokit import Rating, Step

__all__ = ["explain", "hint", "rate"]

_MARKERS = """\b
Marker lines (one per puzzle without an answer, so that output rows line up with inputs):
  !none      the puzzle has no solution
  !multiple  several solutions: hints and ratings need exactly one
  !invalid   conflicting givens, or input that could not be read
  !gave-up   the --guesses bound of the uniqueness check ran out
  !error     another reason, given on stderr (rate)
"""

#: Puzzles sent to a worker at a time by ``rate --jobs N`` (one when a person types them in).
CHUNK = 16
#: Lines per resumable shard of ``rate --resume``: an interrupted run loses at most the shards
#: in flight, and the bar moves once a shard is done (rating takes milliseconds to seconds).
SHARD_ROWS = 200


def _puzzles(
    given: common.PuzzleInput, marks: bool, reporter: Reporter
) -> Iterator[tuple[str, Grid | Candidates | None]]:
    """``(where, puzzle)`` for each input puzzle, in order: a grid, a user's pencil marks
    (``--marks``, or ``--from candidates``/``candgrid``; one document per input), or
    ``None`` for a record that could not be read (reported here). *where* is
    ``source:line: puzzle N``, as every command names a puzzle in its messages."""
    if marks or given.marks:
        for number, (label, text) in enumerate(given.texts(), 1):
            try:
                yield (
                    f"{label}: puzzle {number}",
                    formats.parse_candidates(text, given.fmt, given.shape),
                )
            except SudokuError as exc:
                reporter.line(f"{label}: puzzle {number}: {exc}")
                reporter.code = common.EXIT_USAGE
                yield label, None
        return
    for item in given.items(reporter):
        if item.grid is None:
            assert item.record.error is not None
            reporter.parse_error(item.record.error, prefix=f"puzzle {item.number}: ")
        yield f"{item.where}: puzzle {item.number}", item.grid


#: ``--seconds`` by default: the time bound per puzzle of hint, explain and rate.
SECONDS = 60.0

#: Marker of each "no" answer of the uniqueness check (as ``solve`` writes them).
_MARKER = {"none": "!none", "multiple": "!multiple", "invalid": "!invalid", "gave-up": "!gave-up"}


def _not_unique(puzzle: Grid | Candidates, guesses: int | None) -> tuple[str, str] | None:
    """``(marker, why)`` when the givens of *puzzle* do not have exactly one solution (a
    bounded search, microseconds for usual puzzles), else ``None``: hints and explanations
    assume a unique solution, and a puzzle with several would make them stall and mislead."""
    grid = puzzle if isinstance(puzzle, Grid) else puzzle.to_grid()
    result = sudokit.solve(grid, limit=2, budget=guesses)
    status = str(result.status)
    if status == "unique":
        return None
    why = {
        "none": "no solution",
        "multiple": "several solutions: hints need a puzzle with exactly one",
        "invalid": f"invalid: {result.error}",
    }.get(status, f"{result.error}; raise the bound with --guesses N (0 = none)")
    return _MARKER[status], why


def _answerable(
    inputs: Iterable[tuple[str, Grid | Candidates | None]],
    guesses: int | None,
    to: str,
    stream: IO[str],
    reporter: Reporter,
) -> Iterator[Grid | Candidates]:
    """The puzzles that have exactly one solution; each other one gets its marker row on
    *stream* (and a stderr line, exit code 1) here, so that output rows line up with inputs."""
    for where, puzzle in inputs:
        if puzzle is None:
            _no_answer(to, "!invalid", "could not be read", stream)
            continue
        bad = _not_unique(puzzle, guesses)
        if bad is not None:
            reporter.problem(where, None, bad[1])
            _no_answer(to, *bad, stream)
            continue
        yield puzzle


def _output(to: str, payload: object, text: str, stream: IO[str]) -> None:
    stream.write((json.dumps(payload) if to == "json" else text) + "\n")
    stream.flush()  # one answer per puzzle, as soon as it is known (also in a pipe)


def _no_answer(to: str, marker: str, why: str, stream: IO[str]) -> None:
    """The output row of a puzzle without an answer: its marker line, or a JSON error."""
    _output(to, {"status": marker[1:], "error": why}, marker, stream)


_TO = click.option(
    "--to",
    "to",
    type=common.AliasChoice(["text", "json"], common.TEXT_ALIASES),
    default="text",
    show_default=True,
    help="Output format.",
)
_MARKS = click.option(
    "--marks", is_flag=True, help="Read each input as pencil marks (candidates / candgrid)."
)
_SE_ONLY = click.option(
    "--se-only",
    is_flag=True,
    help="Use only Sudoku Explainer's own techniques, so that step values are those of "
    "'sudokit rate'.",
)


def _logic_command(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The options ``hint`` and ``explain`` share, in the order --help lists them."""
    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        common.puzzle_input,
        _TO,
        _MARKS,
        _SE_ONLY,
        common.seconds_option(SECONDS, "the hardest techniques"),
        functools.partial(common.guesses_option, legacy=False),  # --budget was seconds
        common.output_option,
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def _seconds(value: float | None) -> float:
    return SECONDS if value is None else value


def _step_command(name: str, doc: str, show: _Show) -> click.Command:
    """A command that shows *show*'s output for each puzzle with exactly one solution (a
    marker line for the others), with the options of :func:`_logic_command`."""

    def run(
        given: common.PuzzleInput,
        to: str,
        marks: bool,
        se_only: bool,
        seconds: float | None,
        guesses: int | None,
        output: str,
    ) -> None:
        reporter = Reporter()
        with common.open_output(output, given.files) as stream:
            inputs = _puzzles(given, marks, reporter)
            for puzzle in _answerable(inputs, guesses, to, stream, reporter):
                show(puzzle, to, se_only, _seconds(seconds), stream)
        reporter.exit()

    run.__doc__ = doc
    return click.command(name, epilog=_MARKERS)(_logic_command(common.guarded(run)))


#: What a step command does with one puzzle: (puzzle, --to, --se-only, seconds, stream).
_Show = Callable[[Grid | Candidates, str, bool, float, IO[str]], None]


def step_line(step: Step, indent: str | None = None) -> str:
    """The text line of *step*: its technique, its value and its words, naming the
    technique once (many step texts start with it, e.g. ``XY-Wing: ...`` or ``X-Wing on 6:
    ...``; their head then stands in for the name).

    A text of several lines (a forcing chain's: each branch on a line of its own) is one line
    joined by spaces, or (*indent*) its lines each after the first behind *indent*.

    >>> from sudokit import Step
    >>> step_line(Step("XY-Wing", 4.2, text="XY-Wing: the pivot r1c5 is 2 or 9"))
    'XY-Wing (4.2): the pivot r1c5 is 2 or 9'
    >>> step_line(Step("X-Wing", 3.2, text="X-Wing on 6: in rows 1 and 6 ..."))
    'X-Wing on 6 (3.2): in rows 1 and 6 ...'
    >>> step_line(Step("Hidden Single", 1.2, text="In box 1 the 6 can only go in r2c2."))
    'Hidden Single (1.2): In box 1 the 6 can only go in r2c2.'
    >>> s = Step("Cell Forcing Chains", 8.2, text="Cell Forcing Chains: ...\\nIf a: b.\\nIf c: d.")
    >>> step_line(s)
    'Cell Forcing Chains (8.2): ... If a: b. If c: d.'
    >>> print(step_line(s, "  "))
    Cell Forcing Chains (8.2): ...
      If a: b.
      If c: d.
    """
    text = step.text
    if "\n" in text:
        text = text.replace("\n", " " if indent is None else "\n" + indent)
    head, colon, rest = text.partition(": ")
    if colon and head.startswith(step.technique):
        return f"{head} ({step.rating:.1f}): {rest}"
    return f"{step.technique} ({step.rating:.1f}): {text}"


def _show_hint(
    puzzle: Grid | Candidates, to: str, se_only: bool, budget_s: float, stream: IO[str]
) -> None:
    """``hint``'s line for *puzzle*."""
    step = sudokit.hint(puzzle, se_only=se_only, budget_s=budget_s)
    if step is None:
        _output(to, None, "the grid is already solved", stream)
    else:
        _output(to, step.to_json(), step_line(step), stream)


hint = _step_command(
    "hint",
    """Show the easiest next step of each puzzle of the FILEs (standard input when none;
    -p TEXT for a puzzle given as text): one line per puzzle, in input order.

    The input may be a user's pencil marks (--marks, or --from candidates/candgrid): the hint
    then starts from those marks. A puzzle without exactly one solution gets a marker line.
    Exit code: 0 every puzzle got a hint, 1 some puzzle has none or several solutions,
    2 unreadable input or usage error.
    """,
    _show_hint,
)


_SCALE = (
    "step values on the SE scale; steps beyond Sudoku Explainer's set count, so the hardest "
    "may be below the rating of 'sudokit rate' (use --se-only for that)"
)
_SCALE_SE = "SE scale, Sudoku Explainer's techniques only: the rating of 'sudokit rate'"


#: Where ``explain``'s text puts each further line of a step (a forcing chain's branches):
#: past the step's number.
_BRANCH_INDENT = " " * 7


def _show_steps(
    puzzle: Grid | Candidates, to: str, se_only: bool, budget_s: float, stream: IO[str]
) -> None:
    """``explain``'s lines for *puzzle*."""
    steps = sudokit.explain(puzzle, se_only=se_only, budget_s=budget_s)
    if to == "json":
        _output(to, [s.to_json() for s in steps], "", stream)
        return
    for i, s in enumerate(steps, 1):
        stream.write(f"{i:3d}. {step_line(s, _BRANCH_INDENT)}\n")
    hardest = max((s.rating for s in steps), default=0.0)
    searched = any(s.technique == "Proof by Search" for s in steps)
    note = "; includes Proof by Search: not a Sudoku Explainer rating" if searched else ""
    scale = _SCALE_SE if se_only else _SCALE
    _output(to, None, f"{len(steps)} steps, hardest {hardest:.1f} ({scale}{note})", stream)


explain = _step_command(
    "explain",
    """Explain each puzzle of the FILEs (standard input when none; -p TEXT for a puzzle given
    as text) step by step, easiest step first.

    Text: the numbered steps, then a summary line saying which scale its numbers are on.
    JSON: one list of steps per line and puzzle. A puzzle without exactly one solution gets
    a marker line. Exit code: 0 every puzzle explained, 1 some puzzle has none or several
    solutions, 2 unreadable input or usage error.
    """,
    _show_steps,
)


#: The marker of a puzzle that ``rate`` cannot rate, by the kind of error.
_ERROR_MARKERS: tuple[tuple[type[SudokuError], str], ...] = (
    (sudokit.NoSolutionError, "!none"),
    (sudokit.MultipleSolutionsError, "!multiple"),
    (sudokit.InvalidPuzzleError, "!invalid"),
    (sudokit.BudgetExceededError, "!gave-up"),
)


def _marker_of(error: SudokuError) -> str:
    """``!none``, ``!multiple``, ... for *error* (``!error`` for any other reason)."""
    return next((m for kind, m in _ERROR_MARKERS if isinstance(error, kind)), "!error")


#: Why a puzzle has no rating: its marker line and the message.
_Unrated = tuple[str, str]


def _rate_grids(grids: list[Grid], budget_s: float) -> list[Rating | _Unrated]:
    """A worker's job: each puzzle's rating, or its marker and the message of why it has
    none."""
    out: list[Rating | _Unrated] = []
    for grid in grids:
        try:
            out.append(sudokit.rate(grid, budget_s=budget_s))
        except SudokuError as exc:
            out.append((_marker_of(exc), str(exc)))
    return out


def _rated(
    items: Iterable[Item], budget_s: float, jobs: int, *, size: int = CHUNK
) -> Iterator[tuple[Item, Rating | _Unrated | None]]:
    """Each item with its rating, or why it has none (``None``: the record did not parse),
    the items going to the workers *size* at a time."""
    stream = iter(items)
    chunks = iter(lambda: list(itertools.islice(stream, size)), [])
    tasks = ((chunk, [i.grid for i in chunk if i.grid is not None]) for chunk in chunks)
    from sudokit.batch import WorkerDied, ordered_map

    work = functools.partial(_rate_grids, budget_s=budget_s)
    try:
        for chunk, ratings in ordered_map(work, tasks, jobs):
            answers = iter(ratings)
            for item in chunk:
                yield item, (next(answers) if item.grid is not None else None)
    except WorkerDied as exc:
        raise common.lost_puzzles(exc, "rating") from None


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
        """The family table, then the technique table, each as wide as its longest name."""
        fp, fs = self.family_puzzles, self.family_steps
        wide = max([32, *map(len, fp)])
        print(f"\n{'family':<{wide}} {'puzzles':>8} {'steps':>8}", file=out)
        for name in sorted(fp, key=lambda k: (-fp[k], k)):
            print(f"{name:<{wide}} {fp[name]:>8} {fs[name]:>8}", file=out)
        wide = max([32, *map(len, self.puzzles)])
        print(f"\n{'technique':<{wide}} {'puzzles':>8} {'steps':>8} {'cells':>8}", file=out)
        for name in sorted(self.puzzles, key=lambda k: (-self.puzzles[k], k)):
            counts = f"{self.puzzles[name]:>8} {self.steps[name]:>8} {self.cells[name]:>8}"
            print(f"{name:<{wide}} {counts}", file=out)
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


@click.command(epilog=_MARKERS)
@common.puzzle_input
@_TO
@common.seconds_option(SECONDS, "the hardest techniques")
@_jobs_option
@common.resume_option
@common.output_option
@common.guarded
def rate(
    given: common.PuzzleInput,
    to: str,
    seconds: float | None,
    jobs: int,
    resume: bool,
    output: str,
) -> None:
    """Rate every puzzle of the FILEs (- or none: stdin) on the Sudoku Explainer scale.

    Text output: one line per puzzle (rating, level, score, puzzle; a marker line and the
    puzzle for one that cannot be rated), written as soon as it is known, then tables of how many
    puzzles used each technique family and each technique, with the steps taken and the cells
    filled. JSON output: one object per line and puzzle, in input order,
    {"puzzle", "rating", "level", "score", "techniques"}, or {"puzzle", "error"} for a puzzle
    that cannot be rated (null puzzle: the input could not be read).

    When --seconds runs out (or no rule applies) the rating is a lower bound: ">=10.5" in
    text, "lower_bound": true (with "budget_s" and "stopped_at") in JSON.

    --jobs N rates on N processes. --resume (one FILE of puzzle lines, --to json, -o OUT)
    writes resumable shards: after an interruption, the same command continues the run.
    Neither changes a rating, except a lower bound: where the time runs out depends on
    the machine's speed.

    Exit code: 0 every puzzle rated, 1 some puzzle has no solution, several or conflicting
    givens, 2 unreadable input or usage error.
    """
    reporter = Reporter()
    if resume and given.symbols is not None:
        common.fail("--resume reads the default symbols: give --symbols without --resume")
    budget = _seconds(seconds)
    if resume:
        if given.puzzles:
            common.fail("--resume reads one FILE, not --puzzle")
        _rate_resumable(
            given.files, output, reporter, to, given.shape, given.diagonals, budget, jobs
        )
        reporter.exit()
    tally = _Tally()
    with (
        common.open_output(output, given.files) as stream,
        common.progress("rating", reporter) as advance,
    ):
        items = given.items(reporter)
        # One puzzle at a time in this process (each line is written as soon as it is known,
        # also in a pipe), or chunks for the worker processes.
        for item, r in _rated(items, budget, jobs, size=1 if jobs == 1 else CHUNK):
            advance(1)
            row: dict[str, object]
            if r is None:
                assert item.record.error is not None
                reporter.parse_error(item.record.error, prefix=f"puzzle {item.number}: ")
                row = {"puzzle": None, "error": item.record.error.message}
                line = "!invalid"
            elif isinstance(r, tuple):
                marker, why = r
                reporter.problem(item.source, item.record.line, f"puzzle {item.number}: {why}")
                row = {"puzzle": str(item.grid), "error": why}  # as --resume writes it
                line = f"{marker:<8} {item.grid}"
            else:
                assert item.grid is not None
                tally.add(r)
                row = r.to_json(item.grid)
                line = _text_line(r, item.grid)
            stream.write((json.dumps(row) if to == "json" else line) + "\n")
            stream.flush()
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
        # row k is the k-th puzzle line of the source (rate_lines skips blank and # lines)
        # (no number rather than a wrong one, should the two ever disagree)
        lines = itertools.chain(common.puzzle_lines(source), itertools.repeat((None, None)))
        for number, (line, (line_no, text)) in enumerate(zip(rows, lines, strict=False), 1):
            if '"error": ' not in line:  # cheap test first: a rating row has no such key
                continue
            row = json.loads(line)
            if "error" not in row:
                continue
            prefix = f"puzzle {number}: "
            if isinstance(text, ParseError):  # a line that is not text
                reporter.parse_error(text.located(line=line_no, source=source), prefix=prefix)
                continue
            try:
                Grid.parse(row["puzzle"])
            except ParseError:
                where = ParseError(row["error"], line=line_no, source=source)
                reporter.parse_error(where, prefix=prefix)
            else:
                reporter.problem(source, line_no, prefix + row["error"])
