"""Generating the rule kinds drawn from a solution (arrows, little killers, outside clues,
lines, minimum/maximum cells): unique, reproducible, human-solvable, and the CLI flags."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sudokit import Grid, count_solutions, explain, generate
from sudokit.cli.app import cli
from sudokit.errors import SudokuError
from sudokit.generator import GenerateOptions
from sudokit.generator.drawn_rules import KINDS, Layout, pool
from sudokit.generator.ruled import human_walk

#: Kinds with a quick 9x9 seed (the outside clues' explainer steps are slow on 9x9).
QUICK_9 = ("palindrome", "between")


def _kinds(p: Grid) -> set[str]:
    assert p.shape.constraints is not None
    return {r.kind for r in p.shape.constraints.rules}


def _searched(p: Grid) -> bool:
    return any(s.technique == "Proof by Search" for s in explain(p))


#: The kinds whose 6x6 generation takes the pure-Python reference more than a few seconds
#: (renban: 15 s of CPU): the fallback pass leaves them to the C pass; the search parity tests
#: hold their propagators on both backends.
SLOW_ON_PYTHON = ("renban",)


@pytest.mark.parametrize(
    "kind",
    [pytest.param(k, marks=pytest.mark.c_only) if k in SLOW_ON_PYTHON else k for k in KINDS],
)
def test_each_kind_6x6_is_unique_human_and_reproducible(kind: str) -> None:
    p = generate(6, seed=4, **{kind: True})  # type: ignore[misc]
    assert count_solutions(p.puzzle, limit=2) == 1
    assert p.solution.is_solution(p.puzzle)
    want = {"minimum", "maximum"} if kind == "minmax" else {kind}
    assert _kinds(p.puzzle) & want
    assert _kinds(p.puzzle) <= want
    assert human_walk(bytes(p.puzzle.cells), p.puzzle.shape) == []
    assert generate(6, seed=4, **{kind: True}) == p  # type: ignore[misc]


@pytest.mark.c_only  # the pure-Python reference took 53 s of CPU on the between line
@pytest.mark.parametrize("kind", QUICK_9)
def test_quick_kinds_9x9(kind: str) -> None:
    p = generate(9, seed=1, **{kind: True})  # type: ignore[misc]
    assert count_solutions(p.puzzle, limit=2) == 1
    assert not _searched(p.puzzle)


def test_explained_without_search_unless_any() -> None:
    p = generate(6, seed=2, arrow=True, renban=True)
    assert not _searched(p.puzzle)
    assert {"arrow", "renban"} <= _kinds(p.puzzle)


def test_any_keeps_just_unique() -> None:
    p = generate(6, seed=2, xsum=True, any_unique=True)
    assert count_solutions(p.puzzle, limit=2) == 1
    assert p.minimal  # no given added for the walk


def test_combines_with_todays_kinds() -> None:
    p = generate(6, seed=3, sandwich=True, kropki=True, antiking=False)
    rules = p.puzzle.shape.constraints
    assert rules is not None
    assert rules.kropki_negative
    assert _kinds(p.puzzle) == {"sandwich"}
    assert count_solutions(p.puzzle, limit=2) == 1


@pytest.mark.slow  # the CP-SAT import and models take ~3 s
def test_cpsat_agrees_unique() -> None:
    support = pytest.importorskip("tests.support.variants")
    pytest.importorskip("ortools")
    for kind in ("littlekiller", "between"):
        p = generate(6, seed=5, **{kind: True})  # type: ignore[misc]
        found = support.cpsat_solutions(p.puzzle, 2)
        assert found == [bytes(p.solution.cells)]


def test_pool_rules_keep_the_solution() -> None:
    import random

    g = generate(6, seed=1).solution
    cells = bytes(g.cells)
    layout = Layout(6)
    rules = pool(KINDS, cells, 6, random.Random(3), layout)
    assert {r.kind for r in rules} >= {"arrow", "sandwich", "xsum", "skyscraper"}
    assert all(not r.broken(cells, 6) for r in rules)
    lines = [r for r in rules if r.kind not in ("sandwich", "xsum", "skyscraper", "littlekiller")]
    used = [c for r in lines for c in r.cells_of()]
    assert len(used) == len(set(used))  # lines and arrows share no cell


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"size": 12, "arrow": True}, "4x4 to 9x9"),
        ({"size": 6, "any_unique": True}, "--any"),
        ({"size": 6, "arrow": True, "clues": 10}, "clue range"),
        ({"size": 6, "whispers": True, "minimal": False}, "--no-minimal"),
        ({"arrow": True, "difficulty": "hard"}, "--arrow: a difficulty"),
        ({"renban": True, "rating": (3.0, 4.0)}, "--renban: a difficulty"),
        ({"size": 6, "sandwich": True, "require": "X-Wing"}, "required technique"),
    ],
)
def test_refusals(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(SudokuError, match=words):
        GenerateOptions(**kwargs)  # type: ignore[arg-type]


def test_cli_flags_and_refusals() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["generate", "--size", "6", "--arrow", "--palindrome", "--seed", "1"])
    assert ok.exit_code == 0, ok.output
    record = json.loads(ok.output.splitlines()[0])
    assert {r["kind"] for r in record["rules"]} == {"arrow", "palindrome"}
    again = runner.invoke(
        cli, ["generate", "--size", "6", "--arrow", "--palindrome", "--seed", "1"]
    )
    assert again.output == ok.output
    bad = runner.invoke(cli, ["generate", "--size", "16", "--sandwich"])
    assert bad.exit_code == 2
    assert len(bad.output.strip().splitlines()) == 1
    aimed = runner.invoke(cli, ["generate", "--arrow", "--difficulty", "hard"])
    assert aimed.exit_code == 2
    assert aimed.output.count("\n") == 1
    assert "--arrow" in aimed.output
    lone = runner.invoke(cli, ["generate", "--size", "6", "--any"])
    assert lone.exit_code == 2
    assert "--any" in lone.output


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["arrow", "whispers"])
def test_more_kinds_9x9(kind: str) -> None:
    p = generate(9, seed=1, **{kind: True})  # type: ignore[misc]
    assert count_solutions(p.puzzle, limit=2) == 1
    assert not _searched(p.puzzle)
