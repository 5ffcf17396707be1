"""Rule-kind puzzles built by the human walk (:mod:`sudokit.generator.walked`): unique by an
independent check, explained without a search step, and built only from sound steps."""

from __future__ import annotations

import pytest

from sudokit import count_solutions, explain, generate
from sudokit.generator import walked
from sudokit.generator.drawn_rules import KINDS
from sudokit.generator.ruled import human_walk

pytestmark = pytest.mark.backend

#: 9x9 kinds quick enough for the quick tier (a second or two with the explainer); the rest:
#: slow.
QUICK_9 = ("arrow", "renban", "whispers", "palindrome", "between")


def _check(n: int, kind: str, seed: int) -> None:
    p = generate(n, seed=seed, **{kind: True})  # type: ignore[misc]
    assert count_solutions(p.puzzle, limit=2) == 1
    assert p.solution.is_solution(p.puzzle)
    assert human_walk(bytes(p.puzzle.cells), p.puzzle.shape) == []
    assert all(s.technique != "Proof by Search" for s in explain(p.puzzle))


@pytest.mark.c_only
@pytest.mark.parametrize("kind", QUICK_9)
def test_quick_kinds_9x9_unique_and_human(kind: str) -> None:
    _check(9, kind, 11)


#: 9x9 kinds whose walk costs seconds a puzzle (outside clues, min/max): one seed each.
SLOW_9 = ("sandwich", "xsum", "skyscraper", "minmax")


@pytest.mark.slow
@pytest.mark.parametrize("n", [6, 9])
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_agrees_with_cpsat(kind: str, n: int) -> None:
    pytest.importorskip("ortools")
    from support.variants import cpsat_solutions

    for seed in (21,) if n == 9 and kind in SLOW_9 else (21, 22, 23):
        p = generate(n, seed=seed, **{kind: True})  # type: ignore[misc]
        assert cpsat_solutions(p.puzzle, 2) == [bytes(p.solution.cells)]
        assert all(s.technique != "Proof by Search" for s in explain(p.puzzle))


def test_the_walk_that_builds_assumes_no_uniqueness() -> None:
    techniques = walked._techniques(6.6)
    assert techniques
    assert not any(t.needs_unique for t in techniques)
    assert "Unique Rectangle / Loop" not in {t.name for t in techniques}


def test_any_still_searches_and_human_walks() -> None:
    seen = generate(6, seed=7, palindrome=True)
    just = generate(6, seed=7, palindrome=True, any_unique=True)
    assert seen != just  # two builders: the walk, the search
    assert generate(6, seed=7, palindrome=True) == seen
