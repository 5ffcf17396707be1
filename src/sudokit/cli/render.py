"""``sudokit render`` (one picture: text, SVG, PDF or PNG) and ``sudokit print`` (a PDF book)."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import click

import sudokit
from sudokit.errors import ParseError, SudokuError
from sudokit.formats.line import split_comment
from sudokit.grid import Grid
from sudokit.shape import Shape

__all__ = ["print_book", "render"]

log = logging.getLogger(__name__)

_FORMATS = ("txt", "svg", "pdf", "png")


class _Fail(click.ClickException):
    """One line on stderr and an exit code (2 for bad input, 1 for a "no" answer)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = code

    def show(self, file: Any = None) -> None:
        click.echo(f"sudokit: {self.message}", err=True)


@dataclass(frozen=True, slots=True)
class _Entry:
    grid: Grid
    line: int
    comment: str


def _shape_option(box: str | None, x: bool, regions: str | None) -> Shape | None:
    if regions:
        try:
            return Shape.jigsaw(regions, diagonals=x)
        except ValueError as exc:
            raise _Fail(f"--regions: {exc}") from None
    if box:
        try:
            return Shape.parse_box(box, diagonals=x)
        except ParseError as exc:
            raise _Fail(str(exc)) from None
    return None


def _read(source: str, shape: Shape | None, x: bool) -> list[_Entry]:
    """Puzzles from a file (one per line, text after the puzzle kept as a label; or a single
    multi-line picture) or from the argument itself."""
    path = Path(source)
    try:
        is_file = path.is_file() or source == "-"
    except OSError:  # a long puzzle string is not a valid path
        is_file = False
    if is_file:
        try:
            text = sys.stdin.read() if source == "-" else path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise _Fail(f"cannot read {source!r}: {exc}") from None
    else:
        text = source
    entries: list[_Entry] = []
    bad: tuple[int, ParseError] | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        body = raw.strip()
        if not body or body.startswith("#"):
            continue
        puzzle, comment = split_comment(body, shape)
        try:
            grid = Grid.parse(puzzle, shape)
        except ParseError as exc:
            bad = bad or (lineno, exc)
            continue
        if x and shape is None:
            grid = Grid(grid.cells, Shape(grid.shape.box_rows, grid.shape.box_cols, diagonals=True))
        entries.append(_Entry(grid, lineno, comment.lstrip("#").strip()))
    if bad is not None:
        try:  # maybe the whole text is one picture
            grid = Grid.parse(text, shape)
        except ParseError:
            where, error = bad
            raise _Fail(f"line {where}: {error}" if is_file else str(error)) from None
        if x and shape is None:
            grid = Grid(grid.cells, Shape(grid.shape.box_rows, grid.shape.box_cols, diagonals=True))
        entries = [_Entry(grid, 1, "")]
    if not entries:
        raise _Fail(f"no puzzle in {source!r}")
    return entries


def _solution(entry: _Entry, number: int) -> Grid:
    try:
        return sudokit.solution(entry.grid)
    except SudokuError as exc:
        raise _Fail(f"puzzle {number} (line {entry.line}): {exc}", 1) from None


def _png(pdf: bytes, out: str, dpi: int) -> None:
    tool = shutil.which("pdftoppm")
    if tool is None:
        raise _Fail(
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
            raise _Fail(f"pdftoppm failed: {done.stderr.decode(errors='replace').strip()}")
        shutil.copyfile(stem + ".png", out)


def _pdf_or_fail() -> Any:
    try:
        from sudokit.render import pdf
    except ImportError as exc:  # pragma: no cover - the module itself imports no extra
        raise _Fail(str(exc)) from None
    try:
        import reportlab  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise _Fail("PDF output needs reportlab: pip install 'sudokit[pdf]'") from None
    return pdf


_shape_options = [
    click.option(
        "--box", metavar="RxC", help="Box shape when the size does not say it (6x6: 2x3)."
    ),
    click.option(
        "--x", "diagonals", is_flag=True, help="Sudoku-X: the two diagonals are units too."
    ),
    click.option("--regions", metavar="MAP", help="Jigsaw region map: one symbol per cell."),
    click.option(
        "--numbers",
        is_flag=True,
        help="Write digits above 9 as numbers (10, 11...) instead of A, B...",
    ),
]


def _with_shape_options(f: Any) -> Any:
    for option in reversed(_shape_options):
        f = option(f)
    return f


@click.command()
@click.argument("puzzle")
@click.option(
    "-o", "--output", metavar="FILE", help="Write here (.txt .svg .pdf .png); default stdout."
)
@click.option(
    "-f", "--format", "fmt", type=click.Choice(_FORMATS), help="Output format (default: from -o)."
)
@click.option("--index", default=1, show_default=True, help="Which puzzle of a file (1-based).")
@click.option("--candidates", is_flag=True, help="Show pencil marks (digits no peer holds).")
@click.option("--hint", is_flag=True, help="Show the next logical step, highlighted.")
@click.option(
    "--solution", "show_solution", is_flag=True, help="Fill in the solution (in the user colour)."
)
@click.option(
    "--cell", default=40.0, show_default=True, help="Cell size: SVG pixels, PDF points / 1.4."
)
@click.option("--dpi", default=150, show_default=True, help="PNG resolution.")
@_with_shape_options
def render(
    puzzle: str,
    output: str | None,
    fmt: str | None,
    index: int,
    candidates: bool,
    hint: bool,
    show_solution: bool,
    cell: float,
    dpi: int,
    box: str | None,
    diagonals: bool,
    regions: str | None,
    numbers: bool,
) -> None:
    """Draw one PUZZLE (cell text, or a FILE of puzzles with --index) as text, SVG, PDF or PNG."""
    from sudokit.render import PRINT_THEME, SCREEN_THEME, draw, to_svg, to_text

    if fmt is None:
        suffix = Path(output).suffix.lower().lstrip(".") if output else "txt"
        fmt = suffix if suffix in _FORMATS else None
        if fmt is None:
            raise _Fail(f"cannot tell the format of {output!r}; use -f {'|'.join(_FORMATS)}")
    if fmt in ("pdf", "png") and not output:
        raise _Fail(f"{fmt} output needs -o FILE")
    entries = _read(puzzle, _shape_option(box, diagonals, regions), diagonals)
    if not 1 <= index <= len(entries):
        raise _Fail(f"--index {index} is outside 1..{len(entries)}")
    entry = entries[index - 1]
    grid = entry.grid
    step = None
    if hint:
        hint_fn = getattr(sudokit, "hint", None)
        if hint_fn is None:
            raise _Fail(
                "--hint needs the logic solver (sudokit.hint), which this build does not have"
            )
        try:
            step = hint_fn(grid)
        except SudokuError as exc:
            raise _Fail(str(exc), 1) from None
        if step is None:
            raise _Fail("no logical step found for this puzzle", 1)
        click.echo(getattr(step, "text", "") or str(step), err=True)
    user = _solution(entry, index) if show_solution else None
    symbols: Literal["letters", "numbers"] = "numbers" if numbers else "letters"
    theme = SCREEN_THEME if fmt == "svg" else PRINT_THEME
    scene = draw(
        grid,
        user=user,
        candidates="auto" if candidates or step is not None else None,
        step=step,
        symbols=symbols,
        theme=theme,
    )
    if fmt == "txt":
        data = to_text(scene) + "\n"
    elif fmt == "svg":
        data = to_svg(scene, cell=cell) + "\n"
    else:
        pdf = _pdf_or_fail()
        import io

        buf = io.BytesIO()
        pdf.to_pdf(scene, buf, cell=cell / 1.4, title=f"sudokit {grid.n}x{grid.n}")
        assert output is not None
        if fmt == "pdf":
            Path(output).write_bytes(buf.getvalue())
        else:
            _png(buf.getvalue(), output, dpi)
        return
    if output:
        Path(output).write_text(data, encoding="utf-8")
    else:
        click.echo(data, nl=False)


def _label(entry: _Entry, rate: Any) -> str:
    if rate is None:
        return entry.comment
    rating = rate(entry.grid)
    level = str(getattr(rating, "level", "") or "").capitalize()
    se = getattr(rating, "se", None)
    return f"{level} {se:.1f}".strip() if isinstance(se, (int, float)) else level


@click.command("print")
@click.argument("file")
@click.option("-o", "--output", required=True, metavar="BOOK.pdf", help="The PDF to write.")
@click.option(
    "--per-page",
    type=click.Choice(["1", "2", "4", "6"]),
    default="6",
    show_default=True,
    help="Puzzles per page.",
)
@click.option("--answers", is_flag=True, help="Add answer-key pages at the end.")
@click.option(
    "--title", default="Sudoku", show_default=True, help="Book title (title page and headers)."
)
@click.option(
    "--subtitle", default="", help="Second line of the title page (default: count and sizes)."
)
@click.option("--page-size", type=click.Choice(["A4", "letter"]), default="A4", show_default=True)
@click.option("--title-page/--no-title-page", default=True, show_default=True)
@click.option(
    "--rate", is_flag=True, help="Rate every puzzle and print its difficulty (needs sudokit.rate)."
)
@_with_shape_options
def print_book(
    file: str,
    output: str,
    per_page: str,
    answers: bool,
    title: str,
    subtitle: str,
    page_size: Literal["A4", "letter"],
    title_page: bool,
    rate: bool,
    box: str | None,
    diagonals: bool,
    regions: str | None,
    numbers: bool,
) -> None:
    """Print the puzzles of FILE (one per line; text after a puzzle is its difficulty label)
    as a PDF book: title page, numbered puzzles, and with --answers an answer key."""
    pdf = _pdf_or_fail()
    entries = _read(file, _shape_option(box, diagonals, regions), diagonals)
    rate_fn = None
    if rate:
        rate_fn = getattr(sudokit, "rate", None)
        if rate_fn is None:
            click.echo(
                "sudokit: --rate needs sudokit.rate, which this build does not have; "
                "printing without difficulty labels",
                err=True,
            )
    items = []
    for number, entry in enumerate(entries, 1):
        solution = _solution(entry, number) if answers else None
        try:
            label = _label(entry, rate_fn)
        except SudokuError as exc:
            raise _Fail(f"puzzle {number} (line {entry.line}): {exc}", 1) from None
        items.append(pdf.BookItem(entry.grid, solution, label))
    try:
        info = pdf.write_book(
            items,
            output,
            title=title,
            subtitle=subtitle,
            per_page=int(per_page),
            answers=answers,
            page_size=page_size,
            title_page=title_page,
            symbols="numbers" if numbers else "letters",
        )
    except (OSError, ValueError) as exc:
        raise _Fail(str(exc)) from None
    if info.per_page < int(per_page):
        click.echo(
            f"sudokit: {per_page} per page would be too small to read; used {info.per_page}",
            err=True,
        )
    click.echo(f"{output}: {info.puzzles} puzzles, {info.pages} pages", err=True)
