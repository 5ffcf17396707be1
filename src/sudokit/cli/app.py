"""The top-level click group with lazily imported subcommands."""

from __future__ import annotations

import errno
import importlib
import io
import os
import sys
from typing import NoReturn

import click

# command name -> "module:attribute" inside sudokit.cli; a module that is missing (an area not
# built yet) simply leaves its commands out of the listing.
COMMANDS: dict[str, str] = {
    "solve": "solve:solve",
    "count": "solve:count",
    "check": "solve:check",
    "convert": "solve:convert",
    "candidates": "candidates:candidates",
    "generate": "generate:generate",
    "hint": "logic:hint",
    "explain": "logic:explain",
    "rate": "logic:rate",
    "render": "render:render",
    "print": "render:print_book",
    "serve": "serve:serve",
    "bench": "bench:bench",
    "dataset": "dataset:dataset",
}


def _load(name: str) -> click.Command | None:
    module_name, _, attr = COMMANDS[name].partition(":")
    try:
        module = importlib.import_module(f"sudokit.cli.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"sudokit.cli.{module_name}":
            return None
        raise
    command = getattr(module, attr)
    assert isinstance(command, click.Command)
    return command


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMANDS if _load(name) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _load(cmd_name) if cmd_name in COMMANDS else None

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand; Ctrl-C ends it with one line and exit code 130 (click's own
        handling would print an empty line first)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("sudokit: interrupted", err=True)
            raise click.exceptions.Exit(130) from None


def _version_text() -> str:
    from .. import BACKEND, __version__, build_info

    return f"sudokit {__version__} (backend: {BACKEND})\n{build_info()}"


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(_version_text())
        ctx.exit(0)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version, the search backend, the C core's compiler and flags and the "
    "Python, then exit.",
)
def cli() -> None:
    """Solve, count, check, generate, explain, rate and print Sudoku puzzles of every size."""


class _ClosedStream(io.TextIOBase):
    """Stands in for a standard stream closed before sudokit started (``>&-``, ``<&-``:
    Python then sets it to None): using it is an :class:`OSError` naming the stream, as
    the shell's own tools say ``Bad file descriptor``, instead of an internal error; a run
    that does not use it is not disturbed."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def _fail(self) -> NoReturn:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF), self.label)

    def write(self, _text: str, /) -> int:
        self._fail()

    def read(self, _size: int | None = -1, /) -> str:
        self._fail()

    def readline(self, _size: int | None = -1, /) -> str:  # type: ignore[override]
        self._fail()

    def fileno(self) -> int:
        self._fail()

    @property
    def buffer(self) -> NoReturn:
        self._fail()

    def isatty(self) -> bool:
        return False

    def flush(self) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the CLI on *argv* (default ``sys.argv[1:]``) and return the exit code."""
    streams = sys.stdin, sys.stdout
    if sys.stdin is None:
        sys.stdin = _ClosedStream("standard input")
    if sys.stdout is None:
        sys.stdout = _ClosedStream("standard output")
    try:
        return _run(argv)
    finally:
        sys.stdin, sys.stdout = streams


def _run(argv: list[str] | None) -> int:
    try:
        result = cli.main(args=argv, prog_name="sudokit", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.Abort:  # Ctrl-C (click turns KeyboardInterrupt into Abort)
        click.echo("sudokit: interrupted", err=True)
        return 130
    except click.UsageError as exc:
        # One line, not click's three: what was wrong, and where to look for the right way.
        # "sudokit: <command>: ...", the prefix of every other error line.
        where = exc.ctx.command_path if exc.ctx is not None else "sudokit"
        command = where.partition(" ")[2]
        prefix = f"sudokit: {command}:" if command else "sudokit:"
        click.echo(f"{prefix} {exc.format_message()} (see '{where} --help')", err=True)
        return 2
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
    except OSError as exc:  # --help or --version onto a closed standard output, say
        name = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"sudokit: {name}{exc.strerror or exc}", err=True)
        return 2
    return int(result) if isinstance(result, int) else 0
