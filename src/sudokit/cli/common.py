"""Shared helpers of the CLI commands: input, options, error reporting, exit codes, progress.

Conventions every command follows (use these helpers rather than re-inventing them; the README's
"Conventions" section says the same for users):

* **Input**: one or more FILE arguments, or standard input when there is none; ``-`` is
  standard input. Puzzle text on the command line only through ``-p/--puzzle TEXT``
  (repeatable), never as a bare argument, so that a mistyped file name is "no such file",
  never a parse error. Records are read as a stream by :func:`sudokit.formats.read`
  (:func:`records`, :func:`items`), so a bad record is reported and the run goes on.
  The same input options everywhere, declared once by :func:`puzzle_input` and listed first
  in ``--help``: ``FILE...``, ``-p/--puzzle``, ``--from FMT``, ``--symbols SPEC``,
  ``--box RxC``, ``--x``, ``--regions MAP`` (jigsaw); the command gets them as one
  :class:`PuzzleInput` (``given``) and reads through it (``given.items(reporter)``,
  ``given.texts()``). A test checks that every reading command takes them.
* **Options**: one name, one meaning. ``--guesses N`` bounds a search (guesses per puzzle;
  the default scales with the shape, 0 = none); ``--seconds S`` bounds human-style work
  (explain, hint, rate); ``--searches N`` bounds generate's engine searches per puzzle;
  ``-o/--output FILE`` and ``--to FMT`` name the output; ``-j/--jobs N`` is worker
  processes (0 = every core); ``--seed N`` defaults to a random seed that is reported on
  stderr. The old ``--budget`` still works (hidden) with a deprecation line.
* **Output**: data goes to standard output (or ``-o FILE``), one output row (or record) per
  input puzzle, in input order: a puzzle without an answer gets a marker line (``!none``,
  ``!multiple``, ``!invalid``, ``!gave-up``) so that rows line up. Diagnostics go to
  standard error as one line each: ``sudokit: <source>:<line>: <message>``
  (:class:`Reporter`). Never a traceback: :func:`guarded` turns library errors into such a
  line.
* **Exit codes**: 0 all good, 1 a "no" answer (unsolvable, not unique, invalid, gave up),
  2 a usage or input error, 130 interrupted (Ctrl-C). The worst one seen wins
  (:attr:`Reporter.code`).
* **Progress** for long work goes to standard error, only when it is a terminal: a rich bar
  when rich is installed (the ``cli`` extra), else a plain line rewritten in place."""

from __future__ import annotations

import errno
import functools
import glob
import io
import os
import stat
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from click.shell_completion import CompletionItem

from .. import Grid, ParseError, Shape, SudokuError, formats

if TYPE_CHECKING:
    from ..batch import WorkerDied

__all__ = [
    "EXIT_NO",
    "EXIT_OK",
    "EXIT_USAGE",
    "FILE_NAME",
    "TEXT_ALIASES",
    "AliasChoice",
    "CliError",
    "Item",
    "NoAnswerError",
    "PuzzleInput",
    "Reporter",
    "at_file_names",
    "fail",
    "from_option",
    "guarded",
    "guesses_option",
    "input_files",
    "items",
    "jobs_option",
    "lost_puzzles",
    "missing_file",
    "open_output",
    "output_option",
    "progress",
    "puzzle_input",
    "puzzle_lines",
    "puzzle_option",
    "read_document",
    "records",
    "refuse_input_as_output",
    "region_shape",
    "renamed",
    "report_markers",
    "resumable",
    "resume_option",
    "seconds_option",
    "shape_options",
    "texts",
    "to_option",
]

EXIT_OK = 0
EXIT_NO = 1
EXIT_USAGE = 2

F = TypeVar("F", bound=Callable[..., Any])


# -- errors and exit codes --------------------------------------------------------------------


class CliError(click.ClickException):
    """A usage or input problem shown as one line ``sudokit: <message>`` (exit code 2)."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"sudokit: {self.format_message()}", err=True, file=file)


class NoAnswerError(CliError):
    """A "no" answer (unsolvable, not unique, invalid): one stderr line, exit code 1."""

    exit_code = EXIT_NO


def fail(message: str) -> NoReturn:
    """Stop the command with one stderr line and exit code 2."""
    raise CliError(message)


def describe(error: ParseError) -> tuple[str, str]:
    """``(where, what)`` of a parse error: ``"file:3"`` and ``"column 5: message"``."""
    where = error.source or "<input>"
    if error.line is not None:
        where += f":{error.line}"
    what = error.message if error.column is None else f"column {error.column}: {error.message}"
    return where, what


class Reporter:
    """Writes diagnostics to stderr, one line each, and keeps the exit code (worst wins).

    >>> r = Reporter(stream=sys.stdout)
    >>> r.problem("in.txt", 4, "puzzle 2: no solution")
    sudokit: in.txt:4: puzzle 2: no solution
    >>> r.parse_error(ParseError("bad", line=7, column=3, source="in.txt"))
    sudokit: in.txt:7: column 3: bad
    >>> r.code
    2
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.code = EXIT_OK
        self.problems = 0
        self.stream = stream
        #: Sources already warned that they look written in another alphabet.
        self.hinted: set[str] = set()
        #: Replaced while a progress bar is live, so that messages print above it.
        self.echo: Callable[[str], None] = self._echo

    def _echo(self, text: str) -> None:
        click.echo(text, err=self.stream is None, file=self.stream)

    def line(self, message: str) -> None:
        """Write ``sudokit: <message>``."""
        self.echo(f"sudokit: {message}")

    def warn(self, where: str, line: int | None, message: str) -> None:
        """A diagnostic that does not change the exit code."""
        self.line(f"{where}:{line}: {message}" if line is not None else f"{where}: {message}")

    def problem(self, where: str, line: int | None, message: str) -> None:
        """A "no" answer (exit code at least 1)."""
        self.warn(where, line, message)
        self.problems += 1
        self.code = max(self.code, EXIT_NO)

    def parse_error(self, error: ParseError, prefix: str = "") -> None:
        """An input that could not be read (exit code 2)."""
        where, what = describe(error)
        self.line(f"{where}: {prefix}{what}")
        self.problems += 1
        self.code = EXIT_USAGE

    def usage(self, message: str) -> None:
        """A usage problem found while running, e.g. a missing file (exit code 2)."""
        self.line(message)
        self.code = EXIT_USAGE

    def exit(self) -> NoReturn:
        """End the command with the collected exit code."""
        raise click.exceptions.Exit(self.code)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def guarded(fn: F) -> F:
    """Run a command body so that no error reaches the user as a traceback: a
    :class:`~sudokit.errors.SudokuError`, :class:`OSError` (a worker process that died too:
    :class:`sudokit.batch.WorkerDied`) or :class:`ValueError` becomes one stderr line and exit
    code 2; anything else (a bug) too, as an "internal error" line, unless the environment
    variable ``SUDOKIT_DEBUG`` is set."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            # The reader went away (`sudokit solve big.txt | head`): stop quietly, as Unix tools
            # do; point stdout at /dev/null so that the final flush cannot fail again.
            _silence_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None
        except ParseError as exc:
            where, what = describe(exc)
            raise CliError(f"{where}: {what}") from None
        except (SudokuError, ValueError) as exc:
            raise CliError(str(exc)) from None
        except OSError as exc:
            if exc.filename:
                raise CliError(missing_file(str(exc.filename), exc.strerror or str(exc))) from None
            place = _full_output(exc, kwargs)
            name = f"{place}: " if place else ""
            raise CliError(f"{name}{exc.strerror or exc}") from None
        except Exception as exc:
            # A bug, but still one line for the user; SUDOKIT_DEBUG=1 shows the traceback.
            if os.environ.get("SUDOKIT_DEBUG"):
                raise
            raise CliError(
                f"internal error: {type(exc).__name__}: {exc} (SUDOKIT_DEBUG=1 shows details)"
            ) from None

    return wrapper  # type: ignore[return-value]


def lost_puzzles(exc: WorkerDied, doing: str) -> WorkerDied:
    """*exc* -- a worker process of a ``--jobs`` run died -- naming the puzzles lost with it
    (its keys: the chunks of :class:`Item` in flight, in input order; the first one is where
    the output stops), for the one stderr line :func:`guarded` makes of it (exit code 2)."""
    chunks = [chunk for chunk in exc.keys if chunk]
    if not chunks:
        return exc.doing(doing)
    first, last = chunks[0][0], chunks[-1][-1]
    return exc.doing(
        f"{doing} puzzles {first.number}-{last.number} (from {first.source}:"
        f"{first.record.line}); nothing from puzzle {first.number} on was written"
    )


#: The errors only a write gives (a full disk, a file too large, a quota): the output's.
_FULL = frozenset(
    code for code in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", None)) if code
)


def _full_output(exc: OSError, kwargs: dict[str, Any]) -> str | None:
    """The output a write error without a file name came from (``-o FILE``, or standard
    output), so that ``-o /dev/full`` says which file is full; ``None`` for other errors."""
    if exc.errno not in _FULL:
        return None
    output = kwargs.get("output", kwargs.get("out", "-"))
    return "standard output" if output in ("-", None) else str(output)


# -- options ----------------------------------------------------------------------------------


#: The type of every option or argument that names a file: the shell completes file names
#: for it (click's completion), and nothing is checked here: a missing file or a directory is
#: reported when it is opened, as one ``sudokit:`` line.
FILE_NAME = click.Path(allow_dash=True, readable=False)


def at_file_names(
    _ctx: click.Context, _param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Completion of an ``@FILE`` value (``--regions @map.txt``): the file names that begin
    with what follows the ``@``, each written with it (directories end in ``/``)."""
    if not incomplete.startswith("@"):
        return []
    names = sorted(glob.glob(glob.escape(incomplete[1:]) + "*"))
    return [CompletionItem("@" + name + ("/" if os.path.isdir(name) else "")) for name in names]


def input_files(fn: F) -> F:
    """The ``FILE...`` argument (none: standard input; :data:`FILE_NAME`)."""
    return click.argument("files", metavar="[FILE]...", nargs=-1, type=FILE_NAME)(fn)


def from_option(fn: F) -> F:
    """``--from FMT``: the input format (sniffed from the text when not given), and
    ``--symbols SPEC``: the cell alphabet (e.g. ``0-9A-F`` for a 16x16 written with ``0``)."""
    fn = click.option(
        "--symbols",
        metavar="SPEC",
        default=None,
        callback=_check_symbols,
        help="The cell symbols in digit order, e.g. 0-9A-F for a 16x16 that writes its digits "
        "0-F (default 1-9 then A-Z; 0 and . are blanks).",
    )(fn)
    return click.option(
        "--from",
        "fmt",
        type=click.Choice(list(formats.FORMATS)),
        default=None,
        help="Input format (default: from the file name ending, else detected from the text).",
    )(fn)


def _check_symbols(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """Refuse a bad ``--symbols`` declaration before any input is read."""
    if value is not None:
        try:
            formats.parse("", "line", symbols=value)
        except SudokuError as exc:
            fail(f"--symbols {value}: {exc}")
        except ValueError as exc:
            fail(f"--symbols {value}: {exc}")
    return value


def _shift_warning(reporter: Reporter, item: Item, symbols: str | None) -> None:
    """Warn once per source when a puzzle read with the default symbols looks written in
    another alphabet (:func:`sudokit.formats.shifted_alphabet_hint`)."""
    grid = item.record.grid
    if symbols is not None or grid is None or item.source in reporter.hinted:
        return
    hint = formats.shifted_alphabet_hint(grid)
    if hint is not None:
        reporter.hinted.add(item.source)
        reporter.warn(item.source, item.record.line, hint)


class AliasChoice(click.Choice):  # type: ignore[type-arg]  # generic from click 8.2 only
    """A choice whose names may also be written another way, e.g. ``txt`` for ``text``:
    the alias gives the canonical name, and help and completion list the canonical ones.

    >>> AliasChoice(["text", "json"], {"txt": "text"}).convert("txt", None, None)
    'text'
    """

    def __init__(self, choices: Iterable[str], aliases: dict[str, str]) -> None:
        super().__init__(list(choices))
        self.aliases = aliases

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(self.aliases.get(value, value), param, ctx)


#: The text picture of ``hint``, ``explain``, ``rate`` and ``render`` is ``--to text``; ``txt``
#: (its file ending) is the same.
TEXT_ALIASES = {"txt": "text"}


def to_option(default: str = "line", *, help: str | None = None) -> Callable[[F], F]:
    """``--to FMT``: the output format."""

    def decorate(fn: F) -> F:
        return click.option(
            "--to",
            "to",
            type=click.Choice(list(formats.FORMATS)),
            default=default,
            show_default=True,
            help=help or "Output format.",
        )(fn)

    return decorate


def output_option(fn: F) -> F:
    """``-o/--output FILE``: where data goes (default standard output)."""
    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, allow_dash=True),
        default="-",
        help="Write the output to FILE instead of standard output.",
    )(fn)


#: The largest count an option takes (``--guesses``, ``--searches``, ``-n``): the C core's
#: bounds are 64-bit, so a larger number is a usage error, never an overflow deeper down.
MAX_COUNT = 2**63 - 1

#: The most workers ``--jobs`` may ask for, per core of the machine: more only adds processes
#: (a pool starts them all at once), so a typo such as ``--jobs 10000`` is refused, not obeyed.
JOBS_PER_CORE = 4


def _check_jobs(_ctx: click.Context, _param: click.Parameter, value: int) -> int:
    most = JOBS_PER_CORE * (os.cpu_count() or 1)
    if value > most:
        raise click.BadParameter(
            f"{value} is more than {most} ({JOBS_PER_CORE} per core of this machine); "
            "0 means every core"
        )
    return value


def jobs_option(fn: F, help: str = "Work on N cores at once (0 = every core).") -> F:
    """``-j/--jobs N``: how many cores work at once (0 = every core, at most
    :data:`JOBS_PER_CORE` per core), in every command; the workers are threads or processes
    as the work needs (*help* may say which)."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=0),
        default=1,
        show_default=True,
        callback=_check_jobs,
        help=help,
    )(fn)


def resume_option(fn: F) -> F:
    """``--resume``: the resumable bulk mode for one file of puzzle lines (:func:`resumable`)."""
    return click.option(
        "--resume",
        is_flag=True,
        help="Bulk mode for one FILE of one puzzle per line and -o OUT: resumable shards on "
        "--jobs processes; run it again to continue an interrupted run (sudokit.batch).",
    )(fn)


def _box_shape(value: str | None, diagonals: bool) -> Shape | None:
    if value is None:
        return None
    try:
        return Shape.parse_box(value, diagonals=diagonals)
    except ParseError as exc:
        raise CliError(f"--box: {exc.message}") from None


def region_shape(value: str, diagonals: bool, option: str = "--regions") -> Shape:
    """The jigsaw shape of a region map given inline (one symbol per cell, row by row; spaces
    and newlines are ignored) or as ``@FILE`` (the map is read from FILE).

    >>> region_shape("AABB AABB CCDD CCDD", False).variant
    'jigsaw'
    >>> region_shape("@no-such-map.txt", False)
    Traceback (most recent call last):
    ...
    sudokit.cli.common.CliError: --regions: no-such-map.txt: no such file
    """
    text = value
    if not value.startswith("@") and os.path.isfile(value):
        fail(f"{option}: {value} is a file; write @{value} to read the map from it")
    if value.startswith("@"):
        text = read_document(value[1:], MAP_LIMIT, option)
    try:
        return Shape.jigsaw(text, diagonals=diagonals)
    except (SudokuError, ValueError) as exc:
        raise CliError(f"{option}: {exc}") from None


#: The most characters a region map file may have (a 64x64 map as numbers with separators).
MAP_LIMIT = 64 * 64 * 8


def shape_options(fn: F) -> F:
    """``--box RxC``, ``--regions MAP`` (jigsaw) and ``--x``, passed to the command as one
    ``shape`` argument (``None`` when none is given: the shape comes from each puzzle's size),
    and ``diagonals``.

    ``--x`` alone makes every puzzle a Sudoku-X of its own size.
    """

    @functools.wraps(fn)
    def wrapper(
        *args: Any, box: str | None, regions: str | None, diagonals: bool, **kwargs: Any
    ) -> Any:
        if box is not None and regions is not None:
            fail("--box and --regions both give the shape: use one")
        shape = region_shape(regions, diagonals) if regions else _box_shape(box, diagonals)
        kwargs["shape"] = shape
        kwargs["diagonals"] = diagonals
        return fn(*args, **kwargs)

    wrapper = click.option(
        "--regions",
        metavar="MAP|@FILE",
        default=None,
        shell_complete=at_file_names,
        help="Jigsaw: the region of every cell, one symbol per cell row by row "
        "(e.g. AABB...), or @FILE to read the map from FILE.",
    )(wrapper)
    wrapper = click.option(
        "--x",
        "diagonals",
        is_flag=True,
        help="Sudoku-X: both main diagonals hold every digit too.",
    )(wrapper)
    wrapper = click.option(
        "--box",
        metavar="RxC",
        default=None,
        help="Box shape, e.g. 2x3 for 6x6; needed only when the size does not say it.",
    )(wrapper)
    return wrapper  # type: ignore[return-value]


def _deprecated(
    old: str, new: str, check: Callable[[click.Context, click.Parameter, Any], Any] | None
) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback that checks a value of the old spelling *old* as the new option's *check*
    does, then prints one deprecation line."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if check is not None:
            value = check(ctx, param, value)
        if value is not None and not ctx.resilient_parsing:
            click.echo(f"sudokit: {old} is deprecated; use {new}", err=True)
        return value

    return callback


def renamed(new: str, old: str, dest: str, fn: F) -> F:
    """Accept the hidden old spelling *old* of the option *new* (both land in *dest*), with
    the new option's type and checks: the same values are refused, with the same words.
    Apply it over the new option (it reads *new*'s declaration from *fn*)."""
    declared = getattr(fn, "__click_params__", ())
    option = next(p for p in declared if p.name == dest)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        legacy = kwargs.pop(f"_old_{dest}")
        if legacy is not None:
            if kwargs[dest] is not None:
                fail(f"{old} is the old name of {new}: give one")
            kwargs[dest] = legacy
        return fn(*args, **kwargs)

    return click.option(  # type: ignore[return-value]
        old,
        f"_old_{dest}",
        type=option.type,
        default=None,
        hidden=True,
        expose_value=True,
        callback=_deprecated(old, new, option.callback),
    )(wrapper)


def guesses_option(fn: F, *, legacy: bool = True) -> F:
    """``--guesses N``: the search bound per puzzle (``None``: the library's
    :func:`sudokit.default_budget` of the puzzle's shape; 0 = none); with *legacy*,
    ``--budget N`` is its deprecated old name."""
    fn = click.option(
        "--guesses",
        type=click.IntRange(min=0, max=MAX_COUNT),
        default=None,
        help="Give up on a puzzle after N guesses (default: scales with the size, ~12 "
        "million for 9x9, ~244,000 for 64x64; 0 = never). A puzzle that hits it gets !gave-up.",
    )(fn)
    return renamed("--guesses", "--budget", "guesses", fn) if legacy else fn


def seconds_option(default: float, what: str) -> Callable[[F], F]:
    """``--seconds S``: the time bound per puzzle of human-style work (0 = none);
    ``--budget S`` is its deprecated old name."""

    def decorate(fn: F) -> F:
        fn = click.option(
            "--seconds",
            type=click.FloatRange(min=0),
            callback=_finite_or_none,
            default=None,
            help=f"Stop {what} after S seconds per puzzle (default {default:g}; 0 = never).",
        )(fn)
        return renamed("--seconds", "--budget", "seconds", fn)

    return decorate


def _finite_or_none(ctx: click.Context, param: click.Parameter, value: float | None) -> Any:
    if value is not None and value != value:  # NaN passes click's range check
        raise click.BadParameter("nan is not a number")
    return value


#: ``-p/--puzzle TEXT``: a puzzle given on the command line (repeatable), read before the
#: FILEs; with ``-p`` no standard input is read unless ``-`` is named.
puzzle_option = click.option(
    "-p",
    "--puzzle",
    "puzzles",
    metavar="TEXT",
    multiple=True,
    help="A puzzle as text (any format), instead of or before the FILEs; repeatable.",
)


def puzzle_input(fn: F) -> F:
    """The input of every command that reads puzzles, declared once: the ``FILE...``
    argument, ``-p/--puzzle``, ``--from``, ``--symbols``, ``--box``, ``--x`` and
    ``--regions`` (listed first in ``--help``, in that order), passed to the command as one
    ``given`` argument, a :class:`PuzzleInput`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        fields = [kwargs.pop(name) for name in PuzzleInput.__match_args__]
        kwargs["given"] = PuzzleInput(*fields)
        return fn(*args, **kwargs)

    decorated: F = wrapper  # type: ignore[assignment]
    for option in (shape_options, from_option, puzzle_option, input_files):
        decorated = option(decorated)
    return decorated


# -- input ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Item:
    """One input record with its place: the global puzzle number and the source name."""

    number: int
    source: str
    record: formats.Record

    @property
    def grid(self) -> Grid | None:
        """The parsed puzzle, or ``None`` when the record has an error."""
        return self.record.grid

    @property
    def where(self) -> str:
        """``source:line`` for messages."""
        return f"{self.source}:{self.record.line}"


@dataclass(frozen=True, slots=True)
class PuzzleInput:
    """What a command reads (:func:`puzzle_input`): the FILEs, the ``--puzzle`` texts, the
    format (``None``: sniffed), the declared symbols, the shape (``None``: from each
    puzzle's size) and whether ``--x`` was given."""

    files: tuple[str, ...]
    puzzles: tuple[str, ...]
    fmt: str | None
    symbols: str | None
    shape: Shape | None
    diagonals: bool

    @property
    def marks(self) -> bool:
        """Whether ``--from`` names a pencil-mark format (one document per input)."""
        return self.fmt in ("candidates", "candgrid")

    def items(self, reporter: Reporter) -> Iterator[Item]:
        """The input records in order (:func:`items`)."""
        return items(self, reporter)

    def texts(self) -> Iterator[tuple[str, str]]:
        """Each input read whole (:func:`texts`), for pencil marks."""
        return texts(self.files, self.puzzles)


def _item(
    number: int, label: str, record: formats.Record, reporter: Reporter, given: PuzzleInput
) -> Item:
    """Input record *number* of *label*, made a Sudoku-X when ``--x`` came without a shape,
    after warning when it looks written in another alphabet or left drawings undrawn."""
    grid = record.grid
    x = given.diagonals and given.shape is None
    if x and grid is not None and not grid.shape.diagonals:
        grid = Grid(grid.cells, grid.shape.with_diagonals())
        record = formats.Record(record.index, record.line, grid, record.error, record.fields)
    item = Item(number, label, record)
    _shift_warning(reporter, item, given.symbols)
    dropped = record.fields.get("dropped")
    if dropped:  # f-puzzles drawings that set no rule (formats.fpuzzles)
        reporter.warn(label, record.line, f"puzzle {number}: left undrawn: {dropped}")
    return item


def missing_file(name: str, why: str) -> str:
    """The one line for a FILE argument that cannot be opened, with the way to pass a
    puzzle when the name is itself one (a bare argument is always a file name).

    >>> missing_file("1.3....22....3.1", "No such file or directory")
    '1.3....22....3.1: No such file or directory; to pass a puzzle as text use -p'
    >>> missing_file("pzles.txt", "No such file or directory")
    'pzles.txt: No such file or directory'
    """
    try:
        Grid.parse(name)
    except (ParseError, ValueError):
        return f"{name}: {why}"
    return f"{name}: {why}; to pass a puzzle as text use -p"


def records(given: PuzzleInput, reporter: Reporter) -> Iterator[Item]:
    """The records of every FILE of *given* in turn (``-`` is standard input; none: standard
    input), numbered across files.

    A file that cannot be opened, or holds no puzzle, is reported (exit code 2) and skipped.
    """
    number = 0
    for name in list(given.files) or ["-"]:
        label = "<stdin>" if name == "-" else name or "''"  # an empty name still shows
        seen = 0
        try:
            for record in formats.read(name, given.fmt, given.shape, symbols=given.symbols):
                seen += 1
                number += 1
                yield _item(number, label, record, reporter, given)
        except OSError as exc:
            reporter.usage(missing_file(label, exc.strerror or str(exc)))
            continue
        if not seen:
            reporter.usage(f"{label}: no puzzles found")


def items(given: PuzzleInput, reporter: Reporter) -> Iterator[Item]:
    """The records of the ``--puzzle`` texts of *given*, then of its FILEs (standard input
    when neither is given), numbered in one sequence. A text that does not parse is one bad
    record."""
    number = 0
    for k, text in enumerate(given.puzzles, 1):
        label = "--puzzle" if k == 1 else f"--puzzle#{k}"
        try:
            found = formats.parse_records(
                text, given.fmt, given.shape, source=label, symbols=given.symbols
            )
            if not found:
                raise ParseError("no puzzle in the text", line=1, source=label)
        except ParseError as exc:
            found = [formats.Record(1, 1, None, exc)]
        for read in found:
            number += 1
            record = formats.Record(number, 1, read.grid, read.error, read.fields)
            yield _item(number, label, record, reporter, given)
    if given.files or not number:
        for item in records(given, reporter):
            yield Item(item.number + number, item.source, item.record)


#: The most characters read whole from one input (pencil marks: a 64x64 candidate grid as
#: numbers is about 2 MB).
TEXT_LIMIT = 8 << 20


def texts(files: Iterable[str], puzzles: Iterable[str]) -> Iterator[tuple[str, str]]:
    """``(label, text)`` of each ``--puzzle`` text, then of each FILE read whole (standard
    input when neither is given), for inputs that are one document (pencil marks). A file
    that cannot be read, or is longer than :data:`TEXT_LIMIT`, stops the command (exit 2).

    >>> list(texts(["no-such-file.txt"], ["1..."]))
    Traceback (most recent call last):
    ...
    sudokit.cli.common.CliError: no-such-file.txt: no such file
    """
    given = list(puzzles)
    names = list(files) or ([] if given else ["-"])
    for name in names:  # check every file before any work is done
        if name != "-" and not os.path.exists(name):
            fail(missing_file(name, "no such file"))
    for k, text in enumerate(given, 1):
        yield ("--puzzle" if k == 1 else f"--puzzle#{k}"), text
    for name in names:
        label = "<stdin>" if name == "-" else name
        yield label, read_document(name, TEXT_LIMIT)


def read_document(path: str, limit: int, what: str = "") -> str:
    """The whole text of the small file *path* (:func:`sudokit.formats.read_text_limited`), or
    one error line naming *what* (an option, when given) and exit code 2; text that is not
    UTF-8 is reported as every puzzle reader reports it, on its line and column.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".txt") as f:
    ...     _ = f.write(b"AABB\\nAA\\xffB\\n"); f.flush()
    ...     read_document(f.name, 100, "--regions")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.cli.common.CliError: --regions: /...txt:2: column 3: not UTF-8 text (byte 0xff)
    """
    try:
        return formats.read_text_limited(path, limit, what)
    except ParseError as exc:
        where, why = describe(exc)
        raise CliError(f"{where}: {why}") from None
    except SudokuError as exc:
        raise CliError(str(exc)) from None


def refuse_input_as_output(path: str, inputs: Iterable[str]) -> None:
    """Fail (exit code 2) when the output *path* is one of the *inputs*: opening it for
    writing would empty the input before it is read.

    >>> refuse_input_as_output("out.txt", ["-", "no-such-file.txt"])
    """
    if path == "-":
        return
    for name in inputs:
        try:
            same = name != "-" and os.path.samefile(name, path)
        except OSError:  # either does not exist (yet): not the same file
            same = False
        if same:
            fail(f"{path}: the output file is also an input; write to another file")


@contextmanager
def open_output(path: str, inputs: Iterable[str] = ()) -> Iterator[IO[str]]:
    """The output stream: standard output for ``-``; a regular file is written to a
    temporary file renamed onto it when the command ends without an exception (a failed run
    or a full disk leaves the old file, never a truncated one); a symlink's target is
    replaced that way (the link stays); a device or pipe is written through
    (:func:`sudokit.formats.output`).

    A file that is also one of the *inputs* is refused (see :func:`refuse_input_as_output`).
    """
    if path == "-":
        yield sys.stdout
        return
    refuse_input_as_output(path, inputs)
    ended: click.exceptions.Exit | NoAnswerError | None = None
    with formats.output(path) as stream:
        try:
            yield stream
        except (click.exceptions.Exit, NoAnswerError) as exc:  # a complete run's exit code
            ended = exc
    if ended is not None:
        raise ended


@contextmanager
def resumable(
    label: str,
    files: tuple[str, ...],
    output: str,
    reporter: Reporter,
    *,
    to: str,
    needs: str,
    shape: Shape | None,
    diagonals: bool,
) -> Iterator[tuple[str, Callable[[int], None]]]:
    """The input file of a ``--resume`` run and a progress callback for it (a bar with the
    rate and the time left on a terminal, the total being the file's line count).

    Fails (exit code 2) unless there is one input FILE, an output file ``-o OUT`` that is not
    the input, the output format *needs* (``--to``) and no ``--box``/``--x``: the bulk mode
    reads one puzzle per line of a size that says its shape. Undecodable input becomes one
    error line too.

    >>> with resumable("solving", ("-",), "out.txt", Reporter(), to="line", needs="line",
    ...                shape=None, diagonals=False) as (source, advance):
    ...     pass
    Traceback (most recent call last):
    ...
    sudokit.cli.common.CliError: --resume needs one input FILE, -o OUT and --to line (9x9, 4x4, ...)
    """
    if len(files) != 1 or "-" in (files[0], output) or to != needs or shape or diagonals:
        fail(f"--resume needs one input FILE, -o OUT and --to {needs} (9x9, 4x4, ...)")
    source = files[0]
    refuse_input_as_output(output, files)
    if not _regular_or_missing(source):
        fail(f"{source}: --resume reads a regular file (again on resume), not a pipe or device")
    try:
        with open(source, "rb") as stream:
            binary = formats.looks_binary(stream.read(1 << 16))
    except OSError:
        binary = None  # reported when the run opens it
    if binary is not None:  # a few bad lines are bad records; a binary file is refused
        reporter.parse_error(ParseError(binary, line=1, source=source), prefix="puzzle 1: ")
        reporter.exit()  # as the record path reports it
    try:
        with progress(label, reporter, total=functools.partial(_count_lines, source)) as advance:
            yield source, advance
    except UnicodeDecodeError:
        fail(f"{source}: not UTF-8 text; --resume reads puzzle lines")


def _regular_or_missing(path: str) -> bool:
    """Whether *path* is a regular file (or cannot be looked at: opening it reports that).
    A pipe can be read only once, and a reader that opens it again waits for a writer that
    is gone.

    >>> _regular_or_missing("/dev/null"), _regular_or_missing("no-such-file.txt")
    (False, True)
    """
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """The ``--shard i/k`` of ``generate`` and ``dataset`` (:func:`sudokit.batch.parse_part`,
    the one rule), or ``None`` without one; a bad value fails with one usage line.

    >>> parse_shard(" 2/4 "), parse_shard(None)
    ((2, 4), None)
    """
    from ..batch import parse_part

    if text is None:
        return None
    try:
        return parse_part(text)
    except SudokuError:
        fail(f"--shard must look like i/k with 1 <= i <= k (e.g. 2/4), got {text!r}")


#: What a marker line of a ``--resume`` output says about its puzzle.
_MARKER_TEXT = {
    "none": "no solution",
    "multiple": "several solutions",
    "gave-up": "gave up (search bound reached)",
}


def report_markers(
    reporter: Reporter, source: str, output: str, several: Collection[int] = ()
) -> None:
    """Report each marker row of a ``--resume`` run's *output* on the line of *source* it
    came from, as plain mode does: one stderr line per bad record (a puzzle that does not
    parse: exit code 2; no solution, several, conflicting givens: exit code 1), and one per
    row in *several* (0-based: a puzzle with several solutions that got its first, exit
    code 1), in input order."""
    for line, number, text, status in _marker_rows(source, output, several):
        prefix = f"puzzle {number}: "
        if status == "":
            reporter.problem(source, line, prefix + "several solutions; printed the first")
        elif status == "invalid":
            if isinstance(text, ParseError):  # a line that is not text
                reporter.parse_error(text.located(line=line, source=source), prefix=prefix)
                continue
            try:
                Grid.parse(text)  # as solve_lines read it
            except ParseError as exc:
                reporter.parse_error(exc.located(line=line, source=source), prefix=prefix)
                continue
            reporter.problem(source, line, prefix + "conflicting givens")
        else:
            reporter.problem(source, line, prefix + _MARKER_TEXT.get(status, status))


def _marker_rows(
    source: str, output: str, several: Collection[int] = ()
) -> Iterator[tuple[int, int, str | ParseError, str]]:
    """The rows of *output* -- a ``--resume`` run of :func:`sudokit.batch.solve_lines` over
    *source* -- that are marker lines (``!none``, ``!invalid``, ...) or in *several* (0-based
    rows; status ``""``), as ``(input line number, puzzle number, input line, status)``.
    Streams both files (one output row per puzzle line, :func:`puzzle_lines`).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     src, dst = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
    ...     _ = open(src, "w").write("# x\\n...43...2......1\\n\\n11" + "." * 14 + "\\n")
    ...     _ = open(dst, "w").write("1234341221434321\\n!invalid\\n")
    ...     list(_marker_rows(src, dst))
    [(4, 2, '11..............', 'invalid')]
    """
    with open(output, encoding="utf-8") as rows:
        for number, (lineno, text) in enumerate(puzzle_lines(source), 1):
            row = rows.readline()
            if not row:
                return
            if row.startswith("!"):
                yield lineno, number, text, row[1:].strip()
            elif number - 1 in several:
                yield lineno, number, text, ""


def puzzle_lines(path: str) -> Iterator[tuple[int, str | ParseError]]:
    """``(line number, text)`` of each puzzle line of the file *path* as a ``--resume`` run
    reads it (:func:`sudokit.batch.split_lines`; blank lines and ``#`` comments skipped; a
    lone CR ends a line on the same line number), with the :class:`ParseError` of a line that
    is not text in place of its text.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".txt") as f:
    ...     _ = f.write(b"# x\\n1.3\\r4..\\n\\n# \\xe9\\n"); f.flush()
    ...     list(puzzle_lines(f.name))
    [(2, '1.3'), (2, '4..'), (4, ParseError('column 3: not UTF-8 text (byte 0xe9)'))]
    """
    from ..batch import split_lines

    with open(path, "rb") as lines:  # in bounded memory, as the record readers read
        for lineno, (raw, total) in enumerate(formats.bounded_lines(lines), 1):
            if total is not None:
                yield lineno, formats.long_line_error(total)
                continue
            found = split_lines(raw)
            if isinstance(found, ParseError):
                yield lineno, found
                continue
            for text in found:
                if text.strip() and not text.lstrip().startswith("#"):
                    yield lineno, text


def _count_lines(path: str) -> int | None:
    """The number of lines of the file *path* (``None`` when it cannot be read)."""
    count, last = 0, b"\n"
    try:
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                count += block.count(b"\n")
                last = block[-1:]
    except OSError:
        return None
    return count + (last != b"\n")


# -- progress ---------------------------------------------------------------------------------


def _no_progress(n: int = 1) -> None:
    """The progress callback when there is no bar."""


@contextmanager
def _plain_progress(
    label: str, reporter: Reporter | None, total: int | None, stream: IO[str] | None = None
) -> Iterator[Callable[[int], None]]:
    """Progress without rich: one stderr line ``label: done/total`` rewritten in place (at
    most five times a second) and erased at the end; *reporter*'s messages print above it.

    >>> out = io.StringIO()
    >>> with _plain_progress("solving", None, 3, out) as advance:
    ...     advance(3)
    >>> out.getvalue().rsplit(chr(13), 1)[-1]
    'solving: 0/3'
    """
    import time

    err = stream if stream is not None else sys.stderr
    done, shown, width = 0, -1.0, 0

    def show() -> None:
        nonlocal shown, width
        text = f"{label}: {done}" + (f"/{total}" if total else "")
        err.write("\r" + text.ljust(width))
        err.flush()
        width, shown = len(text), time.monotonic()

    def erase() -> None:
        if width:
            err.write("\r" + " " * width + "\r")
            err.flush()

    def advance(n: int = 1) -> None:
        nonlocal done
        done += n
        if time.monotonic() - shown >= 0.2:
            show()

    previous = reporter.echo if reporter is not None else None
    if reporter is not None:

        def echo(text: str) -> None:
            erase()
            click.echo(text, err=True)
            show()

        reporter.echo = echo
    show()
    try:
        yield advance
    finally:
        if reporter is not None and previous is not None:
            reporter.echo = previous
        if stream is None:
            erase()


@contextmanager
def progress(
    label: str,
    reporter: Reporter | None = None,
    *,
    enabled: bool | None = None,
    total: int | Callable[[], int | None] | None = None,
) -> Iterator[Callable[[int], None]]:
    """A callback ``advance(n)`` driving a progress bar on stderr.

    The bar exists only when stderr is a terminal (or *enabled* says so); it is rich's
    when rich is installed (imported only then), else a plain line. While it is
    live, *reporter*'s messages print above it. With a *total* (when the amount of work
    is known) it shows the rate, the bar and the time left; *total* may be a function,
    called only when the bar is shown (counting a big file's lines is then paid only on a
    terminal).
    """
    if enabled is None:
        enabled = sys.stderr.isatty() and not os.environ.get("SUDOKIT_NO_PROGRESS")
    if not enabled:
        yield _no_progress
        return
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:  # the default install: a plain line instead of rich's bar
        with _plain_progress(label, reporter, total() if callable(total) else total) as advance:
            yield advance
        return
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class _RateColumn(ProgressColumn):
        """Items per second, once rich has measured a speed."""

        def render(self, task: Task) -> Text:
            return Text(f"{task.speed:,.0f}/s" if task.speed else "")

    if callable(total):
        total = total()
    console = Console(stderr=True)
    columns = [
        SpinnerColumn(),
        TextColumn("{task.description}"),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
    ]
    if total:
        columns[2:2] = [BarColumn(), TaskProgressColumn()]
        columns.append(TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        previous = reporter.echo if reporter is not None else None
        if reporter is not None:
            reporter.echo = lambda text: console.print(text, markup=False, highlight=False)
        try:
            yield functools.partial(bar.advance, task)
        finally:
            if reporter is not None and previous is not None:
                reporter.echo = previous
