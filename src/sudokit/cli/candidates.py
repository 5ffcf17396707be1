"""``sudokit candidates``: the true candidates of each puzzle (what a setter checks).

One record per input puzzle, in input order: a candidate grid (``--to text``, the layout
``convert --to candgrid`` writes), a pencilmark line (``--to candidates``) or a JSON object a
line (``--to json``); a puzzle without an answer gets a marker line, as ``solve`` writes them.
"""

from __future__ import annotations

import json
from typing import IO

import click

import sudokit
from sudokit import TrueCandidates, formats

from . import common
from .common import Item, Reporter

__all__ = ["candidates"]

_MARKERS = """\b
Marker lines (one per puzzle without candidates to show, so that rows line up with inputs):
  !none      the puzzle has no solution
  !invalid   conflicting givens, or input that could not be read
  !gave-up   the --guesses bound ran out before any solution was found
"""

#: The marker of each status that has no grid to show.
_MARKER = {"none": "none", "invalid": "invalid", "gave-up": "gave-up"}
_RAISE = "raise the bound with --guesses N (0 = none)"


@click.command(epilog=_MARKERS)
@common.puzzle_input
@click.option(
    "--to",
    "to",
    type=common.AliasChoice(["text", "candidates", "json"], common.TEXT_ALIASES),
    default="text",
    show_default=True,
    help="Output: a candidate grid (text), a pencilmark line (candidates) or a JSON object "
    "a line (json).",
)
@common.guesses_option
@common.output_option
@common.guarded
def candidates(given: common.PuzzleInput, to: str, guesses: int | None, output: str) -> None:
    """Show the true candidates of each puzzle: every digit some solution puts in each cell.

    Every rule of the puzzle counts (boxes, X, jigsaw regions and the variant rules of a
    JSON puzzle). --guesses bounds the whole puzzle's searches; when it runs out the grid
    shows the digits not settled too (they may or may not be true), a line under it names
    them, and JSON lists them under "unknown" with "complete": false.
    Exit code: 0 every puzzle settled (one solution or several), 1 some puzzle has no
    solution, conflicting givens or ran out of guesses, 2 unreadable input or usage error.
    """
    reporter = Reporter()
    with (
        common.open_output(output, given.files) as stream,
        formats.Writer(stream, "candgrid" if to == "text" else "candidates") as writer,
        common.progress("settling", reporter) as advance,
    ):
        for item in given.items(reporter):
            advance(1)
            _one(item, to, guesses, writer, reporter)
            stream.flush()  # each answer as soon as it is known (also into a pipe)
    reporter.exit()


def _one(
    item: Item, to: str, guesses: int | None, writer: formats.Writer, reporter: Reporter
) -> None:
    """Settle one record, write its output row and report what it says about it."""
    say = f"puzzle {item.number}: "
    if item.grid is None:
        assert item.record.error is not None
        reporter.parse_error(item.record.error, prefix=say)
        _write(writer, to, None, "invalid", str(item.record.error))
        return
    found = sudokit.true_candidates(item.grid, budget=guesses)
    status = str(found.status)
    if status == "invalid":
        reporter.problem(item.source, item.record.line, f"{say}invalid: {found.error}")
    elif status == "none":
        reporter.problem(item.source, item.record.line, f"{say}no solution")
    elif not found.complete:
        reporter.problem(item.source, item.record.line, f"{say}{found.error}; {_RAISE}")
    _write(writer, to, found, _MARKER.get(status), found.error)


def _write(
    writer: formats.Writer,
    to: str,
    found: TrueCandidates | None,
    marker: str | None,
    error: str | None,
) -> None:
    """The output row: the JSON object, a marker line, or the candidates (with the digits
    not settled, and under a text grid the line that names them)."""
    if to == "json":
        row = found.to_json() if found is not None else {"puzzle": None, "status": marker}
        if found is None and error is not None:
            row["error"] = error
        _line(writer.stream, json.dumps(row))
        return
    if found is None or marker is not None:
        writer.marker(marker or "invalid")
        return
    text = formats.dumps_candidates(found.to_candidates(unknown=True), writer.fmt)
    if to == "text" and not found.complete:
        text += "\n" + undecided_line(found)
    writer.write_text(text)


def _line(stream: IO[str], text: str) -> None:
    stream.write(text + "\n")


def undecided_line(found: TrueCandidates) -> str:
    """The line under a text grid that names the digits the bound left undecided.

    >>> undecided_line(sudokit.true_candidates("." * 16, budget=1))[:52]
    'undecided (the --guesses bound ran out): r1c1 1234, '
    """
    shape = found.puzzle.shape
    cells = [
        f"{shape.cell_name(i)} {''.join(shape.symbol(d) for d in found.unknown_digits(i))}"
        for i, mask in enumerate(found.unknown)
        if mask
    ]
    return "undecided (the --guesses bound ran out): " + ", ".join(cells)
