"""``sudokit hint``, ``sudokit explain`` and ``sudokit rate``: the human-style solver on the CLI."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

import sudokit
from sudokit import Candidates, Grid, Shape, formats
from sudokit.errors import MultipleSolutionsError, ParseError, SudokuError

from .common import CliError, NoAnswerError

__all__ = ["explain", "hint", "rate"]


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


@click.command()
@click.argument("file")
@_TO
@_BOX
@click.option("--budget", type=float, default=60.0, show_default=True, help="Seconds per puzzle.")
def rate(file: str, to: str, box: str | None, budget: float) -> int:
    """Rate every puzzle of FILE (or - for stdin) on the Sudoku Explainer scale.

    Text output: one line per puzzle (rating, level, score, puzzle), then tables of how many
    puzzles used each technique family and each technique, with the steps taken and the cells
    filled. JSON output: one object per
    line, {"puzzle", "rating", "level", "score", "techniques"}.

    When the budget runs out (or no rule applies) the rating is a lower bound: ">=10.5" in
    text, "lower_bound": true (with "budget_s" and "stopped_at") in JSON.
    """
    shape = _shape(box)
    try:
        records = list(formats.read(file, shape=shape))
    except OSError as exc:
        raise CliError(f"cannot read {file!r}: {exc}") from None
    except ValueError as exc:
        raise CliError(str(exc)) from None
    failed = 0
    puzzles: dict[str, int] = {}
    steps: dict[str, int] = {}
    cells: dict[str, int] = {}
    family_puzzles: dict[str, int] = {}
    family_steps: dict[str, int] = {}
    rated = 0
    for rec in records:
        if rec.grid is None:
            click.echo(f"sudokit: {rec.error}", err=True)
            failed += 1
            continue
        try:
            r = sudokit.rate(rec.grid, budget_s=budget)
        except (MultipleSolutionsError, SudokuError) as exc:
            click.echo(f"sudokit: puzzle {rec.index} (line {rec.line}): {exc}", err=True)
            failed += 1
            continue
        rated += 1
        for name, count in r.techniques.items():
            puzzles[name] = puzzles.get(name, 0) + 1
            steps[name] = steps.get(name, 0) + count
        for name, count in r.cells.items():
            cells[name] = cells.get(name, 0) + count
        for name, count in r.families.items():
            family_puzzles[name] = family_puzzles.get(name, 0) + 1
            family_steps[name] = family_steps.get(name, 0) + count
        if to == "json":
            click.echo(json.dumps(r.to_json(rec.grid)))
        else:
            bound = ""
            if r.lower_bound:
                why = f"{r.budget_s:g} s budget ran out" if r.stopped_at else "no rule applied"
                at = f" in {r.stopped_at}" if r.stopped_at else ""
                bound = f" (lower bound: {why}{at})"
            click.echo(f"{r.se_text:>4}  {r.level:<8} {r.score:5d}  {rec.grid}{bound}")
    if to == "text" and rated:
        click.echo("")
        click.echo(f"{'family':<32} {'puzzles':>8} {'steps':>8}")
        for name in sorted(family_puzzles, key=lambda k: (-family_puzzles[k], k)):
            click.echo(f"{name:<32} {family_puzzles[name]:>8} {family_steps[name]:>8}")
        click.echo("")
        click.echo(f"{'technique':<32} {'puzzles':>8} {'steps':>8} {'cells':>8}")
        for name in sorted(puzzles, key=lambda k: (-puzzles[k], k)):
            click.echo(f"{name:<32} {puzzles[name]:>8} {steps[name]:>8} {cells.get(name, 0):>8}")
        click.echo(f"{rated} puzzles rated")
    return 1 if failed else 0
