"""Chains and forcing chains (sudokit.logic.chains / forcing): hand-made cases, SE's rating
rules, soundness against the unique solution, and agreement with Sudoku Explainer 1.2.1."""

from __future__ import annotations

import time

import pytest

from sudokit.errors import BudgetExceededError
from sudokit.grid import Grid
from sudokit.logic import chaining, chains, cycles, forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import default_techniques, solve_path
from sudokit.logic.registry import by_name
from sudokit.logic.step import Step
from sudokit.shape import Shape
from sudokit.solver import solution
from support import X_CYCLE, cell, masks_of, rated_file, spec_of

S9 = Shape(3, 3)


def synthetic(spec: dict[str, list[int]]) -> CandidateGrid:
    """A 9x9 candidate state where only the named cells are open (the rest count as solved)."""
    values = [9] * 81
    for name in spec:
        values[cell(name)] = 0
    return CandidateGrid(S9, values, masks_of(spec))


# --- SE's rating rules -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "complexity", "expected"),
    [(6.6, 6, 6.6), (6.6, 7, 6.7), (7.0, 10, 7.2), (7.0, 14, 7.3), (7.0, 15, 7.4), (8.0, 26, 8.5)],
)
def test_length_bonus_matches_se_thresholds(base: float, complexity: int, expected: float) -> None:
    # SE: length = complexity - 2; +0.1 for each of 4, 6, 8, 12, 16, 24, ... it exceeds
    assert chaining.se_rating(base, complexity) == expected


# --- hand-made cycles and forcing chains -------------------------------------------------


def test_x_cycle_removes_what_sees_both_colours() -> None:
    cg = synthetic(X_CYCLE)
    steps = list(chains.forcing_chains_and_cycles(cg))
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == "Bidirectional X-Cycle"
    assert step.rating == 6.5
    assert set(step.eliminations) == {(cell("r1c9"), 1), (cell("r5c8"), 1)}
    assert "r1c1=1" in step.text


def test_x_cycle_negative_when_a_column_is_not_a_conjugate_pair() -> None:
    spec = dict(X_CYCLE)
    spec["r8c1"] = [1, 8]  # column 1 now has three 1s: no strong link there, no loop
    hints = cycles.unary_hints(synthetic(spec), exhaustive=True)
    assert not any(h.kind == "cycle" and not h.y for h, _ in hints)


def test_forcing_x_chain_turbot_is_66() -> None:
    # 1 in column 1: r1c1, r8c1, r9c1; box 7 holds 1 only in r8c1 and r9c1 (strong link)
    cg = synthetic(
        {
            "r1c1": [1, 2],
            "r1c5": [1, 3],
            "r6c5": [1, 4],
            "r6c2": [1, 5],
            "r9c1": [1, 6],
            "r3c2": [1, 7],
            "r8c1": [1, 8],
        }
    )
    step = next(iter(chains.forcing_chains_and_cycles(cg)))
    assert step.technique == "Forcing X-Chain"
    assert step.rating == 6.6
    assert step.eliminations == ((cell("r1c1"), 1),)


# r1c1{12} r1c5{23} r5c5{34} r5c1{41}: an XY loop; r9c1 sees r1c1 and r5c1 with a 1
XY_LOOP = spec_of("r1c1:12 r1c5:23 r5c5:34 r5c1:41 r9c1:19 r1c9:28 r5c7:48")


def test_y_cycle_on_bivalue_loop() -> None:
    cg = synthetic(XY_LOOP)
    hints = cycles.unary_hints(cg, exhaustive=True)
    found = [(h, s) for h, s in hints if s.technique == "Bidirectional Y-Cycle"]
    assert found
    h, s = found[0]
    assert h.complexity == 8
    assert s.rating == 6.6  # 8 potentials: length 6 > 4
    assert {(cell("r9c1"), 1), (cell("r1c9"), 2), (cell("r5c7"), 4)} <= set(s.eliminations)


def test_no_chain_in_a_state_without_strong_links() -> None:
    # a 3x3 Latin square spread over rows 1, 4, 7 and columns 1, 4, 7: every digit has three
    # places in each row and column, every cell three candidates, so no link is strong
    spec = {f"r{r}c{c}": [1, 2, 3] for r in (1, 4, 7) for c in (1, 4, 7)}
    assert list(chains.forcing_chains_and_cycles(synthetic(spec))) == []
    for rank in (forcing.RANK_NISHIO, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC):
        assert forcing.forcing_hints(synthetic(spec), rank) == []


def test_finders_do_not_change_the_grid() -> None:
    cg = synthetic(X_CYCLE)
    before = (cg.values[:], cg.masks[:])
    list(chains.forcing_chains_and_cycles(cg))
    for rank in (forcing.RANK_NISHIO, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC):
        forcing.forcing_hints(cg, rank, exhaustive=True)
    assert (cg.values, cg.masks) == before


def test_registered_in_se_order() -> None:
    names = [
        "Forcing Chains & Cycles",
        "Nishio Forcing Chains",
        "Multiple Forcing Chains",
        "Dynamic Forcing Chains",
    ]
    ratings = [by_name(n).rating for n in names]
    assert ratings == sorted(ratings) == [6.5, 7.5, 8.0, 8.5]


def test_later_rule_is_silent_where_an_earlier_one_found_a_step() -> None:
    cg = synthetic(X_CYCLE)
    assert list(chains.forcing_chains_and_cycles(cg))
    assert chaining.earlier_rule_found(cg, forcing.RANK_NISHIO)
    assert list(forcing.nishio_forcing_chains(cg)) == []


def test_budget_raises() -> None:
    cg = CandidateGrid.from_grid(Grid.parse(HARD[0]))
    with chains.chain_budget(1e-9):
        time.sleep(0.001)
        with pytest.raises(BudgetExceededError):
            forcing.forcing_hints(cg, forcing.RANK_DYNAMIC)


# --- real puzzles: soundness and SE agreement ---------------------------------------------

# From Norvig's top95: the first two need forcing chains (about 7.1-7.2), the third Nishio and
# multiple forcing chains (about 8.5).
HARD = [
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
    "3.6.7...........518.........1.4.5...7.....6.....2......2.....4.....8.3.....5.....",
    "6..3.2....5.....1..........7.26............543.........8.15........4.2........7..",
]


def check_sound(step: Step, sol: Grid) -> None:
    for c, d in step.placements:
        assert sol.cells[c] == d, step.text
    for c, d in step.eliminations:
        assert sol.cells[c] != d, step.text


def _advance_to_chains(puzzle: str, max_rank: int) -> list[tuple[CandidateGrid, Grid]]:
    """Candidate states of *puzzle*'s path where the chain rules are tried."""
    sol = solution(Grid.parse(puzzle))
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    states = []
    techs = [t for t in default_techniques(se_only=True) if t.rating < 6.5]
    for _ in range(12):
        path = solve_path(cg, techs, unique=True)
        if path.solved:
            break
        states.append((cg.copy(), sol))
        step = next(iter(chains.forcing_chains_and_cycles(cg)), None)
        for rank in range(1, max_rank + 1):
            if step is not None:
                break
            step = next(iter(forcing.forcing_hints(cg, rank)), None)
        if step is None:
            break
        check_sound(step, sol)
        cg.apply(step)
    return states


@pytest.mark.parametrize("puzzle", HARD[:2])
def test_every_hint_is_sound_on_hard_puzzles(puzzle: str) -> None:
    states = _advance_to_chains(puzzle, forcing.RANK_DYNAMIC)
    assert states
    for cg, sol in states[:3]:
        for _, step in cycles.unary_hints(cg, exhaustive=True):
            check_sound(step, sol)
        for rank in (forcing.RANK_NISHIO, forcing.RANK_MULTIPLE):
            for step in forcing.forcing_hints(cg, rank, exhaustive=True):
                check_sound(step, sol)


def _rated(lo: float, hi: float, k: int) -> list[tuple[str, float]]:
    out = []
    for line in rated_file("se_controlled_bias_dev.tsv").read_text().splitlines()[1:]:
        cols = line.split("\t")
        se = float(cols[2])
        if lo <= se <= hi:
            out.append((cols[0], se))
            if len(out) >= k:
                break
    return out


def _rate(puzzle: str) -> tuple[float, list[Step]]:
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    path = solve_path(cg, default_techniques(se_only=True), unique=True)
    assert path.solved
    return path.rating, list(path.steps)


def _check_agreement(low: float, high: float, count: int) -> None:
    """*count* rated puzzles between *low* and *high*: every step sound, and all but one
    within 0.3 of SE's rating."""
    rows = _rated(low, high, count)
    close = 0
    for puzzle, se in rows:
        ours, steps = _rate(puzzle)
        sol = solution(Grid.parse(puzzle))
        for s in steps:
            check_sound(s, sol)
        close += abs(ours - se) <= 0.3
    assert close >= len(rows) - 1


def test_agrees_with_se_on_chain_puzzles() -> None:
    _check_agreement(6.5, 7.3, 6)


@pytest.mark.slow
def test_agrees_with_se_on_forcing_chain_puzzles() -> None:
    _check_agreement(7.6, 8.9, 4)


# --- named chains (X-Chain, XY-Chain, AIC) ------------------------------------------------


def test_xy_chain_on_bivalue_loop() -> None:
    cg = synthetic(XY_LOOP)
    steps = list(chains.xy_chains(cg))
    assert steps
    assert steps[0].technique == "XY-Chain"
    # r1c1 is 2 or r1c5 is 2: r1c9 sees both
    assert ((cell("r1c9"), 2),) in [s.eliminations for s in steps]
    assert all(s.rating >= 6.5 for s in steps)
    assert list(chains.x_chains(cg)) == []  # no digit has three strong links in a row


def test_x_chain_with_three_strong_links() -> None:
    # 1: r1c1=r8c1 (column 1) - r8c5=r3c5 (column 5) - r3c8=r1c9 (box 3); r1c4 sees both ends
    spec = {"r1c1": [1, 2], "r8c1": [1, 3], "r8c5": [1, 4], "r3c5": [1, 5], "r3c8": [1, 6]}
    spec |= {"r1c9": [1, 7], "r1c4": [1, 8]}
    steps = list(chains.x_chains(synthetic(spec)))
    assert [s.eliminations for s in steps] == [((cell("r1c4"), 1),)]
    assert steps[0].rating == 6.5
    assert sum(1 for link in steps[0].links if link[4]) == 3
    # without r3c8 the chain breaks off after two strong links: no X-Chain
    del spec["r3c8"]
    assert list(chains.x_chains(synthetic(spec))) == []


@pytest.mark.parametrize("puzzle", HARD[:2])
def test_named_chains_are_sound(puzzle: str) -> None:
    sol = solution(Grid.parse(puzzle))
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    techs = [t for t in default_techniques(se_only=True) if t.rating < 6.5]
    checked = 0
    for _ in range(8):
        path = solve_path(cg, techs, unique=True)
        if path.solved:
            break
        for finder in (chains.x_chains, chains.xy_chains, chains.alternating_inference_chains):
            for step in finder(cg):
                check_sound(step, sol)
                checked += 1
        step = next(iter(chains.forcing_chains_and_cycles(cg)))
        cg.apply(step)
    assert checked > 0


def test_dynamic_plus_uses_pointing_made_by_the_chain() -> None:
    # before the chain: 1 in box 1 at r1c1, r1c2, r2c1; the chain removed it from r2c1, so 1
    # in box 1 now points along row 1 and leaves r1c5, with the removal as its parent
    save = synthetic({"r1c1": [1, 2], "r1c2": [1, 3], "r2c1": [1, 4], "r1c5": [1, 5]}).masks
    now = list(save)
    now[cell("r2c1")] &= ~1
    geo = chaining.geometry(S9)
    found = forcing._advanced(geo, save, now, 1)
    off = 2 * (cell("r1c5") * 9 + 0)
    assert found == [(off, (2 * (cell("r2c1") * 9 + 0),), None)]
    assert forcing._advanced(geo, save, list(save), 1) == []  # nothing new without the chain


@pytest.mark.slow
def test_forcing_hints_are_sound_where_they_are_needed() -> None:
    puzzle = HARD[2]
    sol = solution(Grid.parse(puzzle))
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    easier = [t for t in default_techniques(se_only=True) if t.rating < 7.5]
    for _ in range(30):  # walk to the first state the easier rules cannot handle
        path = solve_path(cg, easier, unique=True)
        assert not path.solved
        if not list(chains.forcing_chains_and_cycles(cg)):
            break
    checked = 0
    for rank in (forcing.RANK_NISHIO, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC):
        for step in forcing.forcing_hints(cg, rank, exhaustive=True):
            check_sound(step, sol)
            checked += 1
    assert checked > 0


def test_other_sizes_are_sound() -> None:
    import sudokit

    gp = sudokit.generate(size=12, seed=1)
    cg = CandidateGrid.from_grid(gp.puzzle)
    solve_path(cg, [t for t in default_techniques() if t.rating < 4.0], unique=True)
    assert not cg.is_solved
    steps = [s for _, s in cycles.unary_hints(cg)]
    for rank in (forcing.RANK_NISHIO, forcing.RANK_MULTIPLE, forcing.RANK_DYNAMIC):
        steps += forcing.forcing_hints(cg, rank)
    steps += list(chains.alternating_inference_chains(cg))[:10]
    assert steps
    for step in steps:
        check_sound(step, gp.solution)
