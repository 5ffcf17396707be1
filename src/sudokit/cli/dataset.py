"""``sudokit dataset``: millions of generated puzzles with solutions, in CSV, JSON Lines or Parquet.

Thin: it parses options and calls :func:`sudokit.batch.write_dataset`. Row ``j`` depends only
on ``--seed`` and the options, so ``--jobs``, ``--shard``, ``--scheduler`` and interruptions
(``--resume``) never change what comes out.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from typing import Any

import click

from .. import SYMMETRIES, SYMMETRY_ALIASES
from ..batch import FORMATS, DatasetSpec, Lines, Mapper, write_dataset
from . import common, targets

__all__ = ["dataset"]


def _format(out: str, fmt: str | None) -> str:
    if fmt is not None:
        return fmt
    ext = os.path.splitext(out)[1].lstrip(".").lower()
    return ext if ext in FORMATS else "csv"


@contextlib.contextmanager
def _mapper(scheduler: str | None, jobs: int) -> Iterator[Mapper[Any, Lines] | None]:
    if scheduler is None:
        yield None
        return
    from .. import dask as sd

    with sd.client(scheduler, workers=jobs) as client:
        yield sd.mapper(client)


@click.command()
@targets.count_option(None, "How many puzzles to generate (rows before --augment).")
@click.option(
    "-o",
    "--output",
    "--out",
    "out",
    default="-",
    metavar="FILE",
    type=common.FILE_NAME,
    help="The dataset file to write (default: standard output; a symlink or device is written "
    "through, a regular file replaced only when the run is complete).",
)
@click.option(
    "--to",
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format (default: from the file name's extension, else csv).",
)
@targets.seed_option
@click.option(
    "--size",
    type=click.IntRange(min=2, max=64),
    default=9,
    show_default=True,
    help="Grid size (boxes as square as the size allows).",
)
@click.option(
    "--symmetry",
    type=click.Choice([*SYMMETRIES, *SYMMETRY_ALIASES]),
    default="none",
    show_default=True,
    help="Symmetry of the clue positions (as in 'sudokit generate').",
)
@functools.partial(
    common.jobs_option,
    help="Worker processes (0 = one per core; with --scheduler local, Dask workers).",
)
@click.option("--shard", "part", metavar="I/K", help="Write only the I-th of K parts of the run.")
@click.option(
    "--scheduler",
    metavar="ADDR",
    help="Run shards on Dask: 'local' (a local cluster) or tcp://HOST:PORT.",
)
@click.option("--rate", is_flag=True, help="Add the SE-comparable rating and level (slower).")
@targets.difficulty_option
@targets.rating_option
@click.option("--dedupe", is_flag=True, help="Drop puzzles equivalent to an earlier one (9x9).")
@click.option(
    "--augment", type=click.IntRange(min=0), default=0, help="Add K random isomorphs per puzzle."
)
@click.option("--resume", is_flag=True, help="Continue an interrupted run with the same options.")
@click.option(
    "--force", is_flag=True, help="Start afresh, discarding the finished shards of an earlier run."
)
@click.option(
    "--shard-rows",
    type=click.IntRange(min=1),
    default=None,
    help="Puzzles per work unit, the most an interruption loses (default: N/64, 100 to 1000).",
)
@common.guarded
def dataset(
    count: int,
    out: str,
    fmt: str | None,
    seed: str,
    size: int,
    symmetry: str,
    jobs: int,
    part: str | None,
    scheduler: str | None,
    rate: bool,
    difficulty: str | None,
    rating: str | None,
    dedupe: bool,
    augment: int,
    resume: bool,
    force: bool,
    shard_rows: int | None,
) -> None:
    """Generate a dataset of N unique puzzles: puzzle, solution, clues, guesses, symmetry, seed.

    Work is done in shards kept in OUT.parts/ with a manifest, so an interrupted run continues
    with --resume (a new run over finished shards asks for --resume or --force); the output
    replaces FILE only when complete. The same --seed gives the same
    rows whatever --jobs, --shard or --scheduler.
    """
    if difficulty is not None and rating is not None:
        common.fail("give --difficulty or --rating, not both")
    if resume and force:
        common.fail("give --resume or --force, not both")
    target = targets.rating_range(rating) or targets.difficulty_target(difficulty)
    seed_value = targets.run_seed(seed)
    spec = DatasetSpec(
        n=count,
        seed=seed_value,
        size=size,
        symmetry=symmetry,
        rate=rate,
        difficulty=target,
        augment=augment,
        dedupe=dedupe,
    )
    shard = common.parse_shard(part)
    reporter = common.Reporter()
    targets.report_seed(reporter, seed, seed_value)
    total = count * (1 + augment) if shard is None else None  # rows before de-duplication
    with (
        _mapper(scheduler, jobs) as mapper,
        common.progress("rows", reporter, total=total) as advance,
    ):
        rows = write_dataset(
            out,
            spec,
            fmt=_format(out, fmt),
            part=shard,
            mapper=mapper,
            jobs=jobs,
            resume=resume,
            force=force,
            shard_rows=shard_rows,
            progress=advance,
        )
    where = "standard output" if out == "-" else out
    reporter.line(f"wrote {rows} row{'' if rows == 1 else 's'} to {where}")
    reporter.exit()
