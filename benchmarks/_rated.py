"""Shared by the rating benchmarks: the SE-rated puzzle sets and how to compare with them.

The rated TSV files live in ``$SUDOKIT_RATED``, else ../shared/rated (never copied into the
repository: some are GPL-licensed). Each has one header line; the first column is the puzzle
and the SE rating column is found by name (``SER``, ``se_rating`` or ``ER``; see the README there).

    >>> ranks([3.0, 1.0, 3.0])
    [2.5, 1.0, 2.5]
    >>> round(spearman([1.0, 2.0, 3.0], [10.0, 30.0, 20.0]), 2)
    0.5
    >>> read_rated(["puzzle\\tclues\\tSER", "1.3...\\t20\\t7.1"])
    [('1.3...', 7.1)]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from _commit import code_commit

#: Where the SE-rated sets are: ``$SUDOKIT_RATED`` (as the tests read it), else next to the
#: repository's checkout.
RATED = Path(
    os.environ.get("SUDOKIT_RATED") or Path(__file__).resolve().parents[2] / "shared" / "rated"
)

#: The names of the SE rating column in the rated files.
RATING_COLUMNS = ("SER", "se_rating", "ER")


def read_rated(lines: Sequence[str]) -> list[tuple[str, float]]:
    """(puzzle, SE rating) per data line of a rated TSV's *lines* (header first), in file
    order; lines too short to hold the rating are skipped."""
    header = lines[0].split("\t")
    col = next(i for i, name in enumerate(header) if name in RATING_COLUMNS)
    out = []
    for line in lines[1:]:
        parts = line.split("\t")
        if len(parts) > col:
            out.append((parts[0], float(parts[col])))
    return out


def parse_or_skip(ap: argparse.ArgumentParser, name: str, script: str) -> argparse.Namespace | None:
    """The options of *script* (*ap* gets ``--json`` here), or None when the rated set *name*
    is absent, which is said on stderr (the benchmark skips cleanly)."""
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args()
    if (RATED / name).is_file():
        return args
    print(f"{script}: skipped: {RATED / name} not found", file=sys.stderr)
    return None


def load_rated(name: str) -> list[tuple[str, float]]:
    """(puzzle, SE rating) per data line of the rated file *name* in :data:`RATED`."""
    return read_rated((RATED / name).read_text().splitlines())


def ranks(xs: list[float]) -> list[float]:
    """Average ranks (1-based), ties sharing the mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation (Pearson on average ranks); NaN when undefined."""
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va and vb else float("nan")


def agreement(pairs: list[tuple[float, float]], exact_tol: float = 1e-9) -> dict[str, float]:
    """Agreement of (SE, ours) *pairs*: count, Spearman, share equal within *exact_tol*, share
    within 0.3."""
    n = len(pairs)
    if not n:
        return {"n": 0}
    se = [a for a, _ in pairs]
    ours = [b for _, b in pairs]
    return {
        "n": n,
        "spearman": round(spearman(se, ours), 4),
        "exact": round(sum(abs(a - b) < exact_tol for a, b in pairs) / n, 4),
        "within_0.3": round(sum(abs(a - b) <= 0.3 + 1e-9 for a, b in pairs) / n, 4),
    }


def run_info() -> dict[str, str]:
    """The machine, Python and commit a result was measured on."""
    return {
        "machine": platform.platform(),
        "python": platform.python_version(),
        "commit": code_commit(),
    }


def add_sample_options(ap: argparse.ArgumentParser) -> None:
    """The options that choose the rated puzzles: ``--file`` (in :data:`RATED`), ``--min-se``
    and ``--max-se`` (SE range), ``--limit`` (a sample of that many, 0 = all) and ``--seed``."""
    ap.add_argument("--file", default="se_controlled_bias_dev.tsv", help="a file of RATED")
    ap.add_argument("--min-se", type=float, default=0.0, help="only puzzles rated at least this")
    ap.add_argument("--max-se", type=float, default=99.0, help="only puzzles rated at most this")
    ap.add_argument("--limit", type=int, default=0, help="sample this many puzzles (0 = all)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sample")


#: The SE-rated development set the rating profiles sample.
DEV = "se_controlled_bias_dev.tsv"


def add_dev_set_options(ap: argparse.ArgumentParser) -> None:
    """The options that choose the dev sets of :func:`dev_sets`: ``--random``, ``--hardest``
    and ``--seed``."""
    ap.add_argument("--random", type=int, default=1000, help="random dev puzzles (0 = none)")
    ap.add_argument("--hardest", type=int, default=300, help="hardest dev puzzles by SER")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random samples")


def dev_sets(
    rows: list[tuple[str, float]], random_k: int, hardest_k: int, rng: random.Random
) -> list[tuple[str, list[tuple[str, float]]]]:
    """Named sets of the rated *rows*: *random_k* of them drawn by *rng*, then the *hardest_k*
    highest rated (a set of 0 is left out).

    >>> rows = [("a", 1.0), ("b", 9.0), ("c", 5.0)]
    >>> dev_sets(rows, 0, 2, random.Random(1))
    [('dev hardest 2 by SER', [('b', 9.0), ('c', 5.0)])]
    """
    sets = []
    if random_k:
        k = min(random_k, len(rows))
        sets.append((f"dev random {k}", rng.sample(rows, k)))
    if hardest_k:
        hardest = sorted(rows, key=lambda r: -r[1])[:hardest_k]
        sets.append((f"dev hardest {len(hardest)} by SER", hardest))
    return sets
