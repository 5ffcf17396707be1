"""SE's nested dynamic forcing chains (sudokit.logic.forcing, levels 2..5): the rules nested
inside a chain, SE's "rule parents" filter, names and ratings, and agreement with Sudoku
Explainer 1.2.1 on puzzles from the hardest list (``support.rated_file``: skipped when absent),
and which whole rules levels 3, 4 and 5 run inside a chain on Easter Monster (no data needed)."""

from __future__ import annotations

import pytest

from sudokit.grid import Grid
from sudokit.logic import chaining, chains, forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import default_techniques, find_step
from sudokit.logic.registry import Technique
from sudokit.shape import Shape
from sudokit.solver import solution
from support import X_CYCLE, cell, masks_of, rated_file

S9 = Shape(3, 3)


def off(name: str, digit: int) -> int:
    return 2 * (cell(name) * 9 + digit - 1)


# An X-cycle on digit 1 (columns 1 and 5 are conjugate pairs) that removes 1 from r1c9 and
# r5c8 -- but only once the outer chain has removed the third 1 of column 1, at r8c1.
CYCLE = {**X_CYCLE, "r8c1": [1, 8]}


def test_nested_cycle_uses_the_outer_chain_removal_as_parent() -> None:
    geo = chaining.geometry(S9)
    save = masks_of(CYCLE)
    now = list(save)
    now[cell("r8c1")] &= ~1
    found = forcing._nested(geo, save, now, 2)
    # the cycle first (easiest), then the forcing X-chains removing one candidate each
    assert [q for q, _, _ in found] == [off("r1c9", 1), off("r5c8", 1)] * 2
    for _, parents, _ in found:
        assert parents == (off("r8c1", 1),)  # the removal the column's strong link needs
    cycle = found[0][2]
    assert cycle is not None
    assert cycle[1] == 4
    # SE's identity of a cycle: the loop back from its end and the loop read negated
    back, negated = cycle[0].chains
    assert len(back) == 4
    assert sorted(p ^ 1 for p in negated) == sorted(back)
    assert [nest[1] for _, _, nest in found[2:] if nest] == [6, 6]


def test_nested_rule_ignores_chains_that_do_not_need_the_outer_chain() -> None:
    geo = chaining.geometry(S9)
    save = masks_of(CYCLE)
    del_r8 = dict(CYCLE)
    del del_r8["r8c1"]
    base = masks_of(del_r8)
    base[cell("r8c1")] = 1 << 7  # r8c1 no longer holds 1 at all
    now = list(base)
    now[cell("r8c1")] = 0  # the outer chain removed r8c1's 8: irrelevant to the cycle
    assert forcing._nested(geo, base, now, 2) == []  # the cycle exists without the chain
    assert forcing._nested(geo, save, list(save), 2) == []  # no cycle before the removal


@pytest.mark.parametrize(
    ("level", "name", "base"),
    [
        (2, "Dynamic Forcing Chains (+ Forcing Chains)", 9.5),
        (3, "Dynamic Forcing Chains (+ Multiple Forcing Chains)", 10.0),
        (4, "Dynamic Forcing Chains (+ Dynamic Forcing Chains)", 10.5),
        (5, "Dynamic Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", 11.0),
    ],
)
def test_nested_rules_have_se_names_and_bases(level: int, name: str, base: float) -> None:
    assert forcing.NESTED_RULES[level - 2][:2] == (name, base)


def test_nesting_level_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="levels start at 2"):
        forcing.nested_forcing_chains(1)


def _hardest(rating: float, starts: str = "") -> str:
    for line in rated_file("se_hardest_database_110626.tsv").read_text().splitlines()[1:]:
        cols = line.split("\t")
        if float(cols[1]) == rating and cols[0].startswith(starts):
            return cols[0]
    pytest.skip(f"no puzzle rated {rating} in the hardest list")


def _rate_soundly(puzzle: str, level: int, until: str = "") -> tuple[float, list[str]]:
    """Walk SE's path with the nested rules up to *level* (to the end, or up to the first step
    whose technique ends with *until*); every step is checked against the unique solution
    (found by the backtracking solver, independently of the logic)."""
    sol = solution(Grid.parse(puzzle)).cells
    techs = default_techniques(se_only=True) + [
        Technique(name, "forcing", base, finder)
        for name, base, finder in forcing.NESTED_RULES[: level - 1]
    ]
    techs.sort(key=lambda t: t.rating)
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    rating = 0.0
    names: list[str] = []
    with chains.chain_budget(300):
        while not cg.is_solved:
            found = find_step(cg, techs, unique=True)
            assert found is not None, "stuck"
            step, _ = found
            for c, d in step.placements:
                assert sol[c] == d, step.text
            for c, d in step.eliminations:
                assert sol[c] != d, step.text
            rating = max(rating, step.rating)
            names.append(step.technique)
            cg.apply(step)
            if until and step.technique.endswith(until):
                break
    return rating, names


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_nested_rules_enabled_keep_se_rating_of_a_long_dynamic_plus_chain() -> None:
    # SE rates this one 9.7 with a long Dynamic (+) chain: the nested rules must not pre-empt it
    rating, names = _rate_soundly(_hardest(9.7), 2)
    assert rating == 9.7
    assert "Dynamic Contradiction Forcing Chain (+)" in names
    assert not any(n.endswith("(+ Forcing Chains)") for n in names)


@pytest.mark.slow
def test_rating_above_ten_with_nested_rules_enabled() -> None:
    # SE's 10.1 here is a very long Dynamic (+) chain (9.0 + 1.1 for its length)
    rating, names = _rate_soundly(_hardest(10.1), 3)
    assert rating == 10.1
    assert "Dynamic Contradiction Forcing Chain (+)" in names


@pytest.mark.slow
def test_level_2_nested_step_is_sound_where_se_needs_it() -> None:
    # SE rates this one 10.4 and needs nested forcing chains on the way: the first of them is
    # a "(+ Forcing Chains)" step, sound, rated from 9.5 up
    puzzle = _hardest(10.4, "12.4..3..3")
    rating, names = _rate_soundly(puzzle, 2, until="(+ Forcing Chains)")
    assert names[-1] == "Dynamic Region Forcing Chains (+ Forcing Chains)"
    assert 9.5 <= rating <= 10.4


# -- levels 3 to 5 on a real stuck state ------------------------------------------------------

# Easter Monster (SE 11.9): every rule below 9.0 is stuck on it after a few steps.
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def _stuck_easter() -> tuple[list[int], list[int]]:
    """Easter Monster's candidate masks once every SE rule below 9.0 is stuck, and its solution."""
    grid = Grid.parse(EASTER)
    cg = CandidateGrid.from_grid(grid)
    basic = [t for t in default_techniques(se_only=True) if t.rating < 9.0]
    while (found := find_step(cg, basic, unique=True)) is not None:
        cg.apply(found[0])
    assert not cg.is_solved
    return list(cg.masks), list(solution(grid).cells)


def _nested_levels(
    monkeypatch: pytest.MonkeyPatch, name: str, digit: int
) -> dict[int, tuple[list[int], list[int]]]:
    """``_nested`` at levels 2..5 after an outer chain removed *digit* (not the solution's) from
    cell *name* of the stuck Easter Monster: per level, the potentials found and the ranks of
    the whole chaining rules it ran. Every potential found must agree with the solution."""
    save, sol = _stuck_easter()
    c = cell(name)
    assert save[c] >> (digit - 1) & 1
    assert sol[c] != digit  # a true removal: what is deduced from it must hold
    now = list(save)
    now[c] &= ~(1 << (digit - 1))
    ranks: list[int] = []
    rule = forcing._nested_rule

    def spy(geo: chaining.Geometry, s: list[int], m: list[int], rank: int) -> object:
        ranks.append(rank)
        return rule(geo, s, m, rank)

    monkeypatch.setattr(forcing, "_nested_rule", spy)
    out: dict[int, tuple[list[int], list[int]]] = {}
    for level in (2, 3, 4, 5):
        ranks.clear()
        with chains.chain_budget(120):
            found = [q for q, _, _ in forcing._nested(chaining.geometry(S9), save, now, level)]
        for q in found:
            at, d = divmod(q >> 1, 9)
            assert (sol[at] == d + 1) == bool(q & 1), (level, at, d + 1)
        out[level] = (found, list(ranks))
    return out


def test_nested_level_3_runs_multiple_forcing_chains_and_level_4_dynamic_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    levels = _nested_levels(monkeypatch, "r1c2", 4)
    assert levels[2] == ([], [])  # no forcing chain or cycle needs the removal
    assert levels[3] == ([], [forcing.RANK_MULTIPLE])  # so level 3 tries multiple chains
    found, ranks = levels[4]
    assert found  # dynamic forcing chains inside the chain find what levels 2-3 cannot
    assert ranks == [forcing.RANK_DYNAMIC]
    assert levels[5] == (found, [forcing.RANK_DYNAMIC])  # level 5 stops at the first finder


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_nested_level_5_nests_dynamic_forcing_chains_of_level_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    levels = _nested_levels(monkeypatch, "r1c4", 6)  # pure Python: a few seconds
    assert [found for found, _ in (levels[2], levels[3], levels[4])] == [[], [], []]
    found, ranks = levels[5]
    assert found  # only the doubly nested rule finds something
    assert ranks == [forcing.RANK_DYNAMIC, forcing.RANK_DYNAMIC + 2]
