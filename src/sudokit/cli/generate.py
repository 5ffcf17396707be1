"""``sudokit generate``: unique puzzles of every shape, reproducible from one seed.

Thin: it parses options, calls :func:`sudokit.generate_many`, and writes the puzzles with
:mod:`sudokit.formats`. Puzzle ``j`` of a run depends only on the seed, the options and ``j``,
so ``--jobs`` and ``--shard`` never change what comes out.
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import IO, cast

import click

from .. import (
    SYMMETRIES,
    SYMMETRY_ALIASES,
    Cage,
    Constraints,
    GeneratedPuzzle,
    GenerateOptions,
    Grid,
    Shape,
    formats,
    generate_many,
)
from . import common, targets
from .common import Reporter

__all__ = ["generate"]

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def _clue_range(text: str | None, option: str = "--clues") -> tuple[int, int] | None:
    if text is None:
        return None
    m = _RANGE.match(text)
    if not m:
        common.fail(f"{option} must look like A-B or A (e.g. 24-28), got {text!r}")
    lo = int(m.group(1))
    return lo, int(m.group(2) or lo)


def _read_text(path: str, what: str) -> str:
    """The text of a pattern or region-map file (``-``: stdin), at most 1 MiB (a 64x64 grid
    with separators fits many times): ``/dev/zero`` is an error, not a memory exhaustion."""
    return common.read_document(path, 1 << 20, what)


def _jigsaw_shape(value: str, diagonals: bool) -> Shape:
    """A region map from a file, or given inline (one symbol per cell)."""
    text = _read_text(value, "--jigsaw") if os.path.exists(value) or value == "-" else value
    try:
        return Shape.jigsaw(text, diagonals=diagonals)
    except ValueError as exc:
        common.fail(f"--jigsaw: {exc}")


_SAMPLE = Grid.parse("1234341221434321")


def _writes_solution(fmt: str) -> bool:
    """True when *fmt* writes a solution next to the puzzle (found by writing a small one)."""
    return formats.dumps(_SAMPLE, fmt, solution=_SAMPLE) != formats.dumps(_SAMPLE, fmt)


def _writes_regions(fmt: str) -> bool:
    """True when *fmt* records a jigsaw region map (found by writing two maps)."""
    one = Grid(_SAMPLE.cells, Shape.jigsaw("AABBAABBCCDDCCDD"))
    two = Grid(_SAMPLE.cells, Shape.jigsaw("AAABABBBCCCDCDDD"))
    return formats.dumps(one, fmt) != formats.dumps(two, fmt)


def _writes_rules(fmt: str, options: GenerateOptions) -> bool:
    """True when *fmt* records the variant rules the puzzles of *options* carry (found by
    writing an empty grid with and without them; always True for classic puzzles)."""
    shape = options.resolved_shape
    if options.plan.drawn is not None:
        shape = shape.with_constraints(Constraints(cages=[Cage((0, 1), 3)]))
    if shape.windoku or shape.constraints is not None:
        empty = bytes(shape.ncells)
        return formats.dumps(Grid(empty, shape), fmt) != formats.dumps(
            Grid(empty, shape.classic()), fmt
        )
    return True


#: The rule switches of ``generate`` after --killer and --cage-sizes, in their --help order:
#: (flag, help).
_RULE_FLAGS = (
    ("--windoku", "Windoku: four (k-1)^2 extra windows as units."),
    ("--antiknight", "Cells a knight's move apart differ."),
    ("--antiking", "Cells a king's move apart differ."),
    ("--nonconsecutive", "Side-by-side cells never hold consecutive digits."),
    ("--kropki", "Every kropki dot of the solution (and no dot: no relation)."),
    ("--xv", "Every X and V of the solution (and none: no 5 or 10)."),
    ("--parity", "Even/odd marks on half of the cells."),
    ("--thermo", "A few thermometers drawn from the solution."),
    ("--arrow", "Arrows drawn from the solution (a circle and a short path summing to it)."),
    ("--littlekiller", "Little killer diagonals (sums along diagonals from outside the grid)."),
    ("--sandwich", "Sandwich clues: sums between the 1 and the largest digit of rows/columns."),
    ("--renban", "Renban lines: short paths of consecutive digits in any order."),
    ("--whispers", "Whispers lines: neighbours differ by at least (n+1)//2 (5 on 9x9)."),
    ("--palindrome", "Palindrome lines: short paths reading the same both ways."),
    ("--between", "Between lines: inner digits strictly between the two ends."),
    ("--minmax", "Minimum/maximum cells: lower/higher than their orthogonal neighbours."),
    ("--xsum", "X-sum clues: the first X digits from a side add up to the clue."),
    ("--skyscraper", "Skyscraper clues: how many digits are seen from a side."),
)


def _rule_flags(command: Callable[..., None]) -> Callable[..., None]:
    """*command* with the :data:`_RULE_FLAGS` switches, in the table's order."""
    for flag, help_ in reversed(_RULE_FLAGS):
        command = click.option(flag, is_flag=True, help=help_)(command)
    return command


@click.command()
@targets.count_option(1, "How many puzzles.")
@click.option(
    "--size",
    type=click.IntRange(2, 64),
    default=None,
    help="Grid size (default 9, or the size of --box / --jigsaw).",
)
@common.shape_options
@click.option(
    "--jigsaw",
    metavar="MAP|random",
    default=None,
    type=common.FILE_NAME,
    help="Jigsaw regions: a region map (file or inline, one symbol per cell) or "
    "'random' for a fresh connected map per puzzle.",
)
@click.option("--killer", is_flag=True, help="Killer: cages drawn from the solution, no givens.")
@click.option(
    "--cage-sizes",
    metavar="A-B",
    default=None,
    help="Cells per killer cage (default 2-5; 1-5 allows single-cell cages).",
)
@_rule_flags
@click.option(
    "--any",
    "any_unique",
    is_flag=True,
    help="With rules (--killer, --antiknight, --x, --arrow, ...): any unique puzzle "
    "(default: one the explainer solves without search).",
)
@click.option(
    "--symmetry",
    type=click.Choice([*SYMMETRIES, *SYMMETRY_ALIASES]),
    default="none",
    show_default=True,
    help="Symmetry of the clue positions (must fit the boxes or regions): mirror-tb "
    "reflects top-bottom, mirror-lr left-right; mirror-h and mirror-v are their older names.",
)
@click.option(
    "--clues",
    metavar="A-B",
    default=None,
    help="Target clue count or range, best effort within the budget.",
)
@click.option(
    "--minimal/--no-minimal",
    default=None,
    help="Require that no clue can be removed (default: on for sizes up to 9 "
    "without --clues, --pattern or a symmetry; with a difficulty target, clues may then be "
    "added to reach the rating window unless --minimal is given).",
)
@click.option(
    "--pattern",
    "pattern_file",
    metavar="FILE",
    default=None,
    type=common.FILE_NAME,
    help="Fill this clue mask (x or a digit = clue, . = empty) so the puzzle is unique.",
)
@targets.seed_option
@targets.difficulty_option
@targets.rating_option
@click.option(
    "--require",
    metavar="TECHNIQUE",
    multiple=True,
    help="A technique (e.g. X-Wing) or family (e.g. wings) that must appear on the rated "
    "solving path; repeat for several.",
)
@click.option(
    "--ratings",
    "ratings",
    type=click.IntRange(min=1),
    default=None,
    help="Most rating walks per puzzle with a difficulty target before giving up.",
)
@functools.partial(common.renamed, "--searches", "--budget", "searches")
@click.option(
    "--searches",
    type=click.IntRange(min=1, max=common.MAX_COUNT),
    default=None,
    help="Most uniqueness searches per puzzle before giving up (default: the generator's).",
)
@click.option(
    "--with-solution",
    is_flag=True,
    help="Write each solution too (csv unless --to names another format that can).",
)
@click.option(
    "--to",
    "to",
    type=click.Choice(list(formats.FORMATS)),
    default=None,
    help="Output format (default line; csv with --with-solution).",
)
@functools.partial(
    common.jobs_option, help="Worker processes (0 = one per core); the output does not change."
)
@click.option(
    "--shard",
    metavar="i/k",
    default=None,
    help="Write only the i-th of k equal slices of the run (1-based).",
)
@common.output_option
@common.guarded
def generate(
    count: int,
    size: int | None,
    shape: Shape | None,
    diagonals: bool,
    jigsaw: str | None,
    symmetry: str,
    clues: str | None,
    minimal: bool | None,
    pattern_file: str | None,
    seed: str,
    difficulty: str | None,
    rating: str | None,
    require: tuple[str, ...],
    ratings: int | None,
    searches: int | None,
    with_solution: bool,
    to: str | None,
    jobs: int,
    shard: str | None,
    output: str,
    **variants: bool | str | None,
) -> None:
    """Generate puzzles with exactly one solution, one per line (or record).

    \b
    Examples:
      sudokit generate -n 100 --seed 7                  minimal 9x9 puzzles
      sudokit generate --box 2x3 --symmetry rot180      a 6x6 puzzle
      sudokit generate --size 16 --clues 100-120        a 16x16 puzzle
      sudokit generate --jigsaw random --to json        a jigsaw with its region map
      sudokit generate -n 1000 --seed 7 --shard 2/4     the second quarter of a run
      sudokit generate -n 10 --difficulty hard          SE 4.0-6.0 puzzles
      sudokit generate --rating 6.2-7.5 --require XY-Wing
      sudokit generate --killer -n 100 --to jsonl       zero-given killers (JSON lines)
      sudokit generate --antiknight --kropki --to json  rules combine

    Variant puzzles are written as JSON lines unless --to names another format that
    records their rules (json, fpuzzles, sudokupad).

    Exit code: 0 all generated, 2 bad options or a target not reached within the budget.
    """
    reporter = Reporter()
    random_jigsaw = jigsaw is not None and jigsaw.lower() == "random"
    if jigsaw is not None and not random_jigsaw:
        if shape is not None:
            common.fail("--jigsaw MAP and --box both give the shape: use one")
        shape = _jigsaw_shape(jigsaw, diagonals)
    if shape is not None and size is not None and shape.n != size:
        common.fail(f"--size {size} does not match the shape's size {shape.n}")
    cage_sizes = _clue_range(cast("str | None", variants.pop("cage_sizes")), "--cage-sizes")
    rules = {name: bool(value) for name, value in variants.items()}
    ruled = any(value for name, value in rules.items() if name != "any_unique")
    fmt = to or ("jsonl" if ruled else "csv" if with_solution else "line")
    if with_solution and not _writes_solution(fmt):
        common.fail(f"--with-solution needs a format that writes solutions, not {fmt!r}")
    if random_jigsaw and not _writes_regions(fmt):
        common.fail(f"--jigsaw random needs a format that writes the region map, not {fmt!r}")
    pattern = _read_text(pattern_file, "--pattern") if pattern_file is not None else None
    seed_value = targets.run_seed(seed)
    options = GenerateOptions(
        size,
        shape=shape,
        symmetry=symmetry,
        clues=_clue_range(clues),
        minimal=minimal,
        pattern=pattern,
        jigsaw=random_jigsaw,
        diagonals=diagonals,
        difficulty=targets.difficulty_target(difficulty),
        rating=targets.rating_range(rating),
        require=require or None,
        ratings=ratings,
        budget=searches,
        cage_sizes=cage_sizes or (2, 5),
        **rules,  # type: ignore[arg-type]  # the switches, checked by GenerateOptions
    )
    if not _writes_rules(fmt, options):
        common.fail(f"variant puzzles need a format that writes their rules, not {fmt!r}")
    puzzles = generate_many(
        count, options=options, seed=seed_value, shard=common.parse_shard(shard), jobs=jobs
    )
    targets.report_seed(reporter, seed, seed_value)
    # A CSV header is that of the first record: with a rating target every record gets the
    # rating column (empty when unknown), so every chunk has the same header.
    rated = fmt == "csv" and (difficulty, rating, require) != (None, None, ())
    render = functools.partial(_render, fmt, with_solution, rated)
    with (
        common.open_output(output) as stream,
        common.progress("generating", reporter, total=len(puzzles)) as advance,
    ):
        _write_chunks(stream, fmt, puzzles.chunks(render), advance)
    reporter.exit()


def _fields(fmt: str, p: GeneratedPuzzle, rated: bool = False) -> Mapping[str, str]:
    """What formats with fields (csv, json, jsonl) record besides the grids (*rated*: a
    ``rating`` field even when the puzzle has none). JSON gets JSON types: ``clues`` a
    number, ``minimal`` a boolean, ``rating`` a number or null; the per-puzzle ``seed`` is
    a string on purpose (64 bits do not fit a JSON number exactly)."""
    typed: dict[str, object] = {"clues": p.clues, "seed": str(p.seed), "minimal": p.minimal}
    if p.se is not None or rated:
        typed["rating"] = p.se
    if fmt in ("json", "jsonl"):
        return cast(Mapping[str, str], typed)  # the JSON writer keeps the values' types
    return {
        k: "" if v is None else str(v).lower() if v is True or v is False else str(v)
        for k, v in typed.items()
    }


def _render(
    fmt: str, with_solution: bool, rated: bool, puzzles: list[GeneratedPuzzle], offset: int
) -> tuple[int, str]:
    """Worker body: a chunk's records as a :class:`formats.Writer` continuing the *offset*
    records before them writes them, and how many there are (the chunks' texts, in order,
    are the file but for the closing of a JSON list).

    >>> from sudokit import generate_many
    >>> _render("json", False, False, list(generate_many(2, size=4, seed=1)), 0)[1][:13]
    '[\\n{"puzzle": '
    >>> _render("json", False, False, list(generate_many(2, size=4, seed=1)), 5)[1][:3]
    ',\\n{'
    """
    buf = io.StringIO()
    writer = formats.Writer(buf, fmt, follows=(offset, None))
    for p in puzzles:
        writer.write(
            p.puzzle, solution=p.solution if with_solution else None, fields=_fields(fmt, p, rated)
        )
    return len(puzzles), buf.getvalue()


def _write_chunks(
    stream: IO[str], fmt: str, chunks: Iterable[tuple[int, str]], advance: Callable[[int], None]
) -> None:
    """Write the rendered chunks of a run in order, then close the file as the writer of the
    last record would (the parent only joins texts: the workers did the formatting)."""
    total = 0
    for count, text in chunks:
        stream.write(text)
        advance(count)
        total += count
    formats.Writer(stream, fmt, follows=(total, None)).close()
