"""``sudokit bench``: the search benchmark (tdoku-style) of a source checkout.

Thin: the harness is ``benchmarks/bench_solve.py`` of the repository (benchmarks are not
library code and are not installed). This command finds that file next to the package
source (or at ``$SUDOKIT_BENCH_SCRIPT``), runs its ``main`` with the options given here, and
prints its report; results are written to ``benchmarks/results/`` unless ``--no-write``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import click

import sudokit

from .common import NoAnswerError, fail

__all__ = ["bench", "harness_path"]


HARNESS = Path("benchmarks") / "bench_solve.py"


def harness_path(cwd: Path | None = None) -> Path | None:
    """The benchmark harness file, or None when this is not a source checkout:
    ``$SUDOKIT_BENCH_SCRIPT``, else the checkout the package runs from (an editable
    install), else the clone that *cwd* (default: the current directory) is in, so that
    ``sudokit bench`` works from a clone after a normal ``pip install .`` too.

    >>> p = harness_path()
    >>> p is None or p.name == "bench_solve.py"
    True
    """
    env = os.environ.get("SUDOKIT_BENCH_SCRIPT")
    candidates = [Path(env)] if env else []
    # src/sudokit/__init__.py -> the repository root is three levels up
    candidates.append(Path(sudokit.__file__).resolve().parents[2] / HARNESS)
    here = (cwd or Path.cwd()).resolve()
    candidates += [folder / HARNESS for folder in (here, *here.parents)]
    return next((p for p in candidates if p.is_file()), None)


@click.command()
@click.option("--sets", default="", help="Comma-separated set names (default: every set found).")
@click.option("--quick", is_flag=True, help="At most 2,000 puzzles a set and one timed run.")
@click.option(
    "--runs",
    type=click.IntRange(1, 100),
    default=3,
    show_default=True,
    help="Timed passes per figure (the median is reported).",
)
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Seed of the random isomorphs."
)
@click.option(
    "--data",
    type=click.Path(file_okay=False),
    default=None,
    help="Directory of puzzle sets (default: ../shared/data or $SUDOKIT_DATA).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Where result files go (default: benchmarks/results).",
)
@click.option("--no-write", is_flag=True, help="Print the report only.")
@click.option(
    "--tdoku",
    type=click.Path(file_okay=False),
    default=None,
    help="tdoku's source, built to compare with (default: ../shared/baselines/tdoku or"
    " $SUDOKIT_TDOKU; skipped when absent).",
)
@click.option("--no-tdoku", is_flag=True, help="Skip the comparison with tdoku.")
@click.option("--no-million", is_flag=True, help="Skip the 1,000,000-line file of the CLI runs.")
def bench(
    sets: str,
    quick: bool,
    runs: int,
    seed: int,
    data: str | None,
    out: str | None,
    no_write: bool,
    tdoku: str | None,
    no_tdoku: bool,
    no_million: bool,
) -> int:
    """Time the search engine on the benchmark puzzle sets (random isomorphs, limits 1 and
    2), against tdoku in the same run when its source is found: the C core, the Python batch
    API and `sudokit solve` on a file."""
    path = harness_path()
    if path is None:
        fail(
            "bench runs in a clone of the repository: benchmarks/bench_solve.py was not found "
            "here or above (or set SUDOKIT_BENCH_SCRIPT)"
        )
    spec = importlib.util.spec_from_file_location("sudokit_bench_solve", path)
    if spec is None or spec.loader is None:
        fail(f"cannot load the benchmark harness {str(path)!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    argv = ["--sets", sets, "--runs", str(runs), "--seed", str(seed)]
    argv += ["--quick"] * quick + ["--no-write"] * no_write
    argv += ["--no-tdoku"] * no_tdoku + ["--no-million"] * no_million
    argv += ["--tdoku", tdoku] if tdoku else []
    argv += ["--data", data] if data else []
    argv += ["--out", out] if out else []
    problems: list[str] = []
    try:
        code = module.main(argv, echo=click.echo, err=problems.append)
    except SystemExit as exc:  # the harness stops on a wrong answer: a "no" (exit code 1)
        raise NoAnswerError(f"bench: {exc.code}") from None
    if code:
        fail(problems[0] if problems else "bench: nothing was measured")
    return 0
