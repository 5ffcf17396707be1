"""``sudokit render`` (one picture: text, SVG, PDF or PNG) and ``sudokit print`` (a PDF book)."""

from __future__ import annotations

import io
import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NoReturn

import click

import sudokit

from .. import Grid, SudokuError, formats
from . import common
from .common import CliError, Reporter

__all__ = ["print_book", "render"]

_FORMATS = ("text", "svg", "pdf", "png")
#: Record fields read as a difficulty label, first found wins (CSV/JSON columns, line comment).
_LABEL_FIELDS = ("difficulty", "level", "rating", "se", "comment")


@dataclass(frozen=True, slots=True)
class _Entry:
    grid: Grid
    where: str
    comment: str
    number: int  # the puzzle's number in the input, as every message names it


def _label_of(fields: Mapping[str, str]) -> str:
    for key in _LABEL_FIELDS:
        for name, value in fields.items():
            if name.lower() == key and value.strip():
                return value.lstrip("#").strip()
    return ""


def _finite(value: float) -> float:
    """*value* when it is a number; click's ranges let ``nan`` through."""
    if math.isnan(value):
        raise click.BadParameter(f"{value} is not a number")
    return value


def _read(given: common.PuzzleInput, reporter: Reporter) -> list[_Entry]:
    """The puzzles of the ``--puzzle`` texts and FILEs (standard input when neither is
    given); bad records are reported and skipped."""
    entries = []
    for item in given.items(reporter):
        if item.grid is None:
            assert item.record.error is not None
            reporter.parse_error(item.record.error, prefix=f"puzzle {item.number}: ")
            continue
        entries.append(_Entry(item.grid, item.where, _label_of(item.record.fields), item.number))
    if not entries:
        if reporter.code != common.EXIT_OK:  # each bad input has had its line already
            reporter.exit()
        raise CliError("no puzzle to draw")
    return entries


def _no_answer(reporter: Reporter, entry: _Entry, why: object) -> NoReturn:
    """End the command on a puzzle that cannot be drawn as asked: one line naming it, and
    the worst exit code seen (a bad record read before it makes it 2, as everywhere)."""
    reporter.problem(entry.where, None, f"puzzle {entry.number}: {why}")
    reporter.exit()


def _solution(entry: _Entry, reporter: Reporter) -> Grid:
    try:
        return sudokit.solution(entry.grid)
    except SudokuError as exc:
        _no_answer(reporter, entry, exc)


#: The largest PNG drawn (pixels; 4000x4000): beyond, pdftoppm needs gigabytes of memory, and
#: writes a 1x1 image when it cannot have them.
_MAX_PIXELS = 16_000_000


def _png(pdf: bytes, dpi: int) -> bytes:
    tool = shutil.which("pdftoppm")
    if tool is None:
        raise CliError(
            "PNG output needs pdftoppm (Debian: apt-get install poppler-utils); use .svg or .pdf"
        )
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "grid.pdf")
        Path(src).write_bytes(pdf)
        stem = os.path.join(tmp, "grid")
        done = subprocess.run(
            [tool, "-png", "-r", str(dpi), "-singlefile", src, stem],
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            raise CliError(f"pdftoppm failed: {done.stderr.decode(errors='replace').strip()}")
        return Path(stem + ".png").read_bytes()


def _pdf_or_fail() -> Any:
    try:
        from sudokit.render import pdf
    except ImportError as exc:  # pragma: no cover - the module itself imports no extra
        raise CliError(str(exc)) from None
    try:
        import reportlab  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise CliError("PDF output needs reportlab: pip install 'sudokit[pdf]'") from None
    return pdf


def _draw_options(fn: Any) -> Any:
    """``--numbers``, next to the shared ``--box``/``--regions``/``--x``."""
    return click.option(
        "--numbers",
        is_flag=True,
        help="Write digits above 9 as numbers (10, 11...) instead of A, B...",
    )(fn)


@click.command()
@common.puzzle_input
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    type=common.FILE_NAME,
    help="Write here (.txt .svg .pdf .png); default stdout.",
)
@click.option(
    "--to",
    "-f",
    "--format",
    "out_fmt",
    type=common.AliasChoice(_FORMATS, common.TEXT_ALIASES),
    help="Output format (default: from -o; -f/--format are the older names).",
)
@click.option(
    "--index",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Which puzzle of a file (1-based).",
)
@click.option("--candidates", is_flag=True, help="Show pencil marks (digits no peer holds).")
@click.option("--hint", is_flag=True, help="Show the next logical step, highlighted.")
@click.option(
    "--solution", "show_solution", is_flag=True, help="Fill in the solution (in the user colour)."
)
@click.option(
    "--cell",
    type=click.FloatRange(min=4, max=400),
    callback=lambda _ctx, _param, value: _finite(value),
    default=40.0,
    show_default=True,
    help="Cell size in CSS pixels (1/96 inch); PDF and PNG keep the same physical size.",
)
@click.option(
    "--dpi",
    type=click.IntRange(min=18, max=1200),
    default=150,
    show_default=True,
    help="PNG resolution.",
)
@_draw_options
@common.guarded
def render(
    given: common.PuzzleInput,
    output: str | None,
    out_fmt: str | None,
    index: int,
    candidates: bool,
    hint: bool,
    show_solution: bool,
    cell: float,
    dpi: int,
    numbers: bool,
) -> None:
    """Draw one puzzle of the FILEs (standard input when none; -p TEXT for a puzzle given as
    text; --index picks one of several) as a text picture, SVG, PDF or PNG. Without -o the
    text picture (or --to svg) goes to standard output (so does -o -, PDF and PNG too)."""
    from ..render import PRINT_THEME, SCREEN_THEME, draw, to_svg, to_text

    if out_fmt is None:
        suffix = Path(output).suffix.lower().lstrip(".") if output not in (None, "-") else "text"
        out_fmt = common.TEXT_ALIASES.get(suffix, suffix)
        if out_fmt not in _FORMATS:
            raise CliError(f"cannot tell the format of {output!r}; use --to {'|'.join(_FORMATS)}")
    if out_fmt in ("pdf", "png") and not output:
        raise CliError(f"{out_fmt} output needs -o FILE (- for standard output)")
    if output is not None:
        common.refuse_input_as_output(output, given.files)
    reporter = Reporter()
    marks: tuple[int, ...] | None = None
    if given.marks:  # pencil marks in, pencil marks drawn
        for label, text in given.texts():
            try:
                cands = formats.parse_candidates(text, given.fmt, given.shape)
            except SudokuError as exc:
                raise CliError(f"{label}: {exc}") from None
            marks = cands.masks
            entries = [_Entry(Grid(cands.values, cands.shape), label, "", 1)]
            break
    else:
        entries = _read(given, reporter)
    if not 1 <= index <= len(entries):
        raise CliError(f"--index {index} is outside 1..{len(entries)}")
    entry = entries[index - 1]
    step = None
    if hint:
        try:
            step = sudokit.hint(entry.grid)
        except SudokuError as exc:
            _no_answer(reporter, entry, exc)
        if step is None:
            _no_answer(reporter, entry, "no logical step found for this puzzle")
        click.echo(step.text or step.technique, err=True)
    scene = draw(
        entry.grid,
        user=_solution(entry, reporter) if show_solution else None,
        candidates=marks if marks is not None else "auto" if candidates or step else None,
        step=step,
        labels="numbers" if numbers else "symbols",
        theme=SCREEN_THEME if out_fmt == "svg" else PRINT_THEME,
    )
    if out_fmt in ("text", "svg"):
        data = (to_text(scene) if out_fmt == "text" else to_svg(scene, cell=cell)) + "\n"
        with common.open_output(output or "-") as stream:
            stream.write(data)
        reporter.exit()  # a bad record among the inputs was reported: exit code 2
    n = entry.grid.n
    top, right, bottom, left = scene.margins  # room for clues outside the grid, in cells
    across = n + max(left + right, top + bottom)
    side = round(across * cell * dpi / 96 * 1.12)  # the grid and its margin, in pixels
    if out_fmt == "png" and side * side > _MAX_PIXELS:
        raise CliError(
            f"--dpi {dpi}: a {side}x{side} image is more than {_MAX_PIXELS:,} pixels; "
            "use a lower --dpi or a smaller --cell"
        )
    pdf = _pdf_or_fail()
    buf = io.BytesIO()
    pdf.to_pdf(scene, buf, cell=cell * 0.75, title=f"sudokit {n}x{n}")
    assert output is not None
    image = buf.getvalue() if out_fmt == "pdf" else _png(buf.getvalue(), dpi)
    with formats.output_bytes(output) as target:  # "-": standard output
        target.write(image)
    reporter.exit()


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _label(entry: _Entry, rate: Any) -> tuple[str, float]:
    """The difficulty label of a puzzle and its rating number (0 when unknown)."""
    if rate is None:
        return entry.comment, 0.0
    rating = rate(entry.grid)
    se = getattr(rating, "se", None)
    return _label_text(rating), float(se) if isinstance(se, (int, float)) else 0.0


def _label_text(rating: Any) -> str:
    level = str(getattr(rating, "level", "") or "").capitalize()
    se = getattr(rating, "se", None)
    if not isinstance(se, (int, float)):
        return level
    bound = "" if getattr(rating, "complete", True) else "+"  # a lower bound: "8.4+"
    return f"{level} · {se:.1f}{bound}" if level else f"{se:.1f}{bound}"


@click.command("print")
@common.puzzle_input
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="BOOK.pdf",
    type=common.FILE_NAME,
    help="The PDF to write.",
)
@click.option(
    "--per-page",
    type=click.Choice(["1", "2", "4", "6"]),
    default="6",
    show_default=True,
    help="Puzzles per page (fewer when big grids would be unreadable).",
)
@click.option("--answers", is_flag=True, help="Add answer-key pages at the end.")
@click.option(
    "--title", default="Sudoku", show_default=True, help="Book title (title page, headers)."
)
@click.option(
    "--subtitle", default="", help="Second line of the title page (default: count, sizes)."
)
@click.option(
    "--page-size",
    type=click.Choice(["A4", "letter"]),
    default="A4",
    show_default=True,
    help="Paper size of the book.",
)
@click.option(
    "--title-page/--no-title-page",
    default=True,
    show_default=True,
    help="Begin with a title page: the title, what the book holds, where the answers are.",
)
@click.option(
    "--rate", is_flag=True, help="Rate every puzzle and print its difficulty (needs sudokit.rate)."
)
@click.option("--sort", "sort_easy_first", is_flag=True, help="With --rate: easiest puzzles first.")
@_draw_options
@common.guarded
def print_book(
    given: common.PuzzleInput,
    output: str,
    per_page: str,
    answers: bool,
    title: str,
    subtitle: str,
    page_size: Literal["A4", "letter"],
    title_page: bool,
    rate: bool,
    sort_easy_first: bool,
    numbers: bool,
) -> None:
    """Print the puzzles of the FILEs (standard input when none; any format; a line comment
    or a difficulty/level/rating column is the puzzle's label) as a PDF book: a title page,
    numbered puzzles with their difficulty, and with --answers an answer key. Unreadable
    records are reported and left out."""
    common.refuse_input_as_output(output, given.files)
    pdf = _pdf_or_fail()
    reporter = Reporter()
    entries = []
    for entry in _read(given, reporter):
        clash = entry.grid.conflicts()
        if clash:  # a book holds only puzzles that can be played
            first = clash[0]
            where = ", ".join(entry.grid.shape.cell_name(c) for c in first.cells)
            # A broken variant rule (digit 0) names itself: "cage of sum 3 at r1c1 adds up to 4".
            what = f"{first.digit} in {first.unit}" if first.digit else first.unit
            reporter.problem(
                entry.where,
                None,
                f"puzzle {entry.number}: conflicting givens ({what}: {where}); left out",
            )
        else:
            entries.append(entry)
    if not entries:
        reporter.exit()
    rate_fn = None
    if rate:
        rate_fn = getattr(sudokit, "rate", None)
        if rate_fn is None:
            reporter.line(
                "--rate needs sudokit.rate, which this build does not have; "
                "printing without difficulty labels"
            )
    rated: list[tuple[float, _Entry, str]] = []
    with common.progress("rating", reporter, enabled=None if rate_fn else False) as advance:
        for entry in entries:
            try:
                label, se = _label(entry, rate_fn)
            except SudokuError as exc:
                _no_answer(reporter, entry, exc)
            rated.append((se, entry, label))
            advance(1)
    if sort_easy_first:
        if rate_fn is None:
            raise CliError("--sort needs --rate (and sudokit.rate)")
        rated.sort(key=lambda t: t[0])  # stable: equal ratings keep the file order
    items = []
    for _, entry, label in rated:
        solution = _solution(entry, reporter) if answers else None
        items.append(pdf.BookItem(entry.grid, solution, label))
    with formats.output_bytes(output) as target:  # "-": standard output
        info = pdf.write_book(
            items,
            target,
            title=title,
            subtitle=subtitle,
            per_page=int(per_page),
            answers=answers,
            page_size=page_size,
            title_page=title_page,
            labels="numbers" if numbers else "symbols",
        )
    if info.per_page < int(per_page):
        reporter.line(f"{per_page} per page would be too small to read; used {info.per_page}")
    reporter.line(f"{output}: {_plural(info.puzzles, 'puzzle')}, {_plural(info.pages, 'page')}")
    reporter.exit()
