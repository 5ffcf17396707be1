"""The options ``generate`` and ``dataset`` share, declared once so that they take the same
forms: ``-n/--count N``, ``--seed N|random``, ``--difficulty LEVEL|A-B`` and ``--rating A-B``,
and the parsers of their values."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

from . import common

__all__ = [
    "count_option",
    "difficulty_option",
    "difficulty_target",
    "rating_option",
    "rating_range",
    "report_seed",
    "run_seed",
    "seed_option",
]

F = TypeVar("F", bound=Callable[..., Any])

_SE_RANGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$")
_SE_VALUE = re.compile(r"^\s*()(\d+(?:\.\d+)?)\s*$")


def count_option(default: int | None, what: str) -> Callable[[F], F]:
    """``-n/--count N``: how many puzzles (*default* ``None``: required)."""

    def decorate(fn: F) -> F:
        return click.option(
            "-n",
            "--count",
            "count",
            type=click.IntRange(min=0, max=common.MAX_COUNT),
            default=default,
            required=default is None,
            show_default=default is not None,
            help=what,
        )(fn)

    return decorate


#: ``--seed N|random`` (default 0): the run seed, as text for :func:`run_seed`.
seed_option = click.option(
    "--seed",
    metavar="N|random",
    default="0",
    show_default=True,
    help="Seed of the run: the same seed, the same puzzles; 'random' picks a fresh one "
    "(reported on stderr).",
)

#: ``--difficulty LEVEL|A-B``: a level name or an SE range (:func:`difficulty_target`).
difficulty_option = click.option(
    "--difficulty",
    metavar="LEVEL|A-B",
    default=None,
    help="Target level (easy, medium, hard, expert, extreme) or SE rating range (e.g. 4.0-6.0).",
)

#: ``--rating A-B``: an SE range or one value (:func:`rating_range`).
rating_option = click.option(
    "--rating",
    metavar="A-B",
    default=None,
    help="Target SE rating range (e.g. 4.0-6.0), checked by the same rating as 'sudokit rate'.",
)


def run_seed(text: str) -> int:
    """The run seed of ``--seed``: a number, or a fresh random one for ``random`` (53 bits,
    so that it is exact as a JSON number too).

    >>> run_seed("7"), 0 <= run_seed("random") < 2**53
    (7, True)
    """
    if text.strip().lower() == "random":
        return int.from_bytes(os.urandom(8), "big") >> 11
    try:
        value = int(text)
    except ValueError:
        common.fail(f"--seed must be a number >= 0 or 'random', got {text!r}")
    if value < 0:
        common.fail(f"--seed must be a number >= 0 or 'random', got {text!r}")
    return value


def report_seed(reporter: common.Reporter, text: str, seed: int) -> None:
    """Say on stderr which seed ``--seed random`` (*text*) picked, so that the run can be
    repeated; a given seed is not repeated back."""
    if text.strip().lower() == "random":
        reporter.line(f"seed {seed} (pass --seed {seed} to repeat this run)")


def difficulty_target(text: str | None) -> str | tuple[float, float] | None:
    """A level name as it is, or an SE range ``A-B`` as two numbers.

    >>> difficulty_target("hard"), difficulty_target("4.0-6.0")
    ('hard', (4.0, 6.0))
    """
    if text is None:
        return None
    m = _SE_RANGE.match(text)
    return (float(m.group(1)), float(m.group(2))) if m else text


def rating_range(text: str | None) -> tuple[float, float] | None:
    """An SE range ``A-B`` (or one value ``A``) as two numbers.

    >>> rating_range("3.0-6.5"), rating_range("7")
    ((3.0, 6.5), (7.0, 7.0))
    """
    if text is None:
        return None
    m = _SE_RANGE.match(text) or _SE_VALUE.match(text)
    if not m:
        common.fail(f"--rating must look like A-B (e.g. 4.0-6.0), got {text!r}")
    hi = float(m.group(2))
    return (float(m.group(1)) if m.group(1) else hi), hi
