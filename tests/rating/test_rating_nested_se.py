"""Nested forcing chains exactly as Sudoku Explainer 1.2.1 builds them (to rate the hardest list
exactly): the rules a dynamic chain applies when stuck (sudokit.logic.inchain) in SE's order with
SE's "rule parents", a nested chain's identity as SE's ``FullChain`` (its chains, not its removals),
and one level-3 step of the hardest list on a stored intermediate state, whose complexity SE 1.2.1
was traced to give (136: ER 11.1; sudokit gave 123, 11.0, before)."""

from __future__ import annotations

import re

import pytest

from sudokit.logic import chaining, forcing, inchain
from sudokit.logic.candidates import CandidateGrid
from sudokit.shape import Shape
from support import cell

S9 = Shape(3, 3)
FULL = (1 << 9) - 1


def off(name: str, digit: int) -> int:
    return 2 * (cell(name) * 9 + digit - 1)


def names(potentials: object) -> list[str]:
    return [chaining.potential_name(9, p) for p in potentials]  # type: ignore[attr-defined]


def removed(masks: list[int], digit: int, *cells: str) -> list[int]:
    out = list(masks)
    for name in cells:
        out[cell(name)] &= ~(1 << (digit - 1))
    return out


def test_locking_parents_leave_out_the_crossing_cells() -> None:
    # the chain removed 1 from box 1 except r1c1, r2c1: column 1 loses 1 below the box; what
    # the pattern relies on is the removals in the box outside column 1 (not r3c1's)
    save = [FULL] * 81
    now = removed(save, 1, "r1c2", "r1c3", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3")
    found = inchain.locking(chaining.geometry(S9), save, now)
    assert names(q for q, _ in found) == [f"r{r}c1<>1" for r in range(4, 10)]
    for _, parents in found:
        assert names(parents) == ["r1c2<>1", "r1c3<>1", "r2c2<>1", "r2c3<>1", "r3c2<>1", "r3c3<>1"]


def test_locking_finds_box_column_pairs_before_box_row_pairs() -> None:
    # box 1's 1s lie in row 1 (a box/row pair), box 9's 2s in column 9 (a box/column pair):
    # SE walks every box with its columns first, so box 9 comes first
    save = [FULL] * 81
    now = removed(save, 1, "r1c3", "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3")
    now = removed(now, 2, "r7c7", "r7c8", "r8c7", "r8c8", "r9c7", "r9c8", "r9c9")
    found = names(q for q, _ in inchain.locking(chaining.geometry(S9), save, now))
    assert found == [f"r{r}c9<>2" for r in range(1, 7)] + [f"r1c{c}<>1" for c in range(4, 10)]


def test_x_wing_columns_first_and_parents_outside_the_crossing_rows() -> None:
    # digit 3 only in rows 2 and 5 of columns 1 and 4 (the chain removed the rest): rows 2 and
    # 5 lose 3 elsewhere; the parents are the removals in columns 1 and 4 outside rows 2 and 5
    save = [FULL] * 81
    gone = [f"r{r}c{c}" for c in (1, 4) for r in range(1, 10) if r not in (2, 5)]
    now = removed(save, 3, *gone)
    found = inchain.x_wings(chaining.geometry(S9), save, now)
    targets = names(q for q, _ in found)
    assert targets[:14] == [f"r{r}c{c}<>3" for r in (2, 5) for c in range(1, 10) if c not in (1, 4)]
    assert sorted(names(found[0][1])) == sorted(f"{g}<>3" for g in gone)


def test_hidden_pair_needs_more_than_four_open_cells_in_its_unit() -> None:
    # row 1 holds a hidden pair {1, 2} in r1c1-2 once the chain removed 1 and 2 from r1c3-9;
    # with only four open cells in the row (and nothing to find elsewhere) SE does not look
    save = [0] * 81
    for c in range(9):
        save[c] = FULL
    now = removed(save, 1, *[f"r1c{c}" for c in range(3, 10)])
    now = removed(now, 2, *[f"r1c{c}" for c in range(3, 10)])
    geo = chaining.geometry(S9)
    found = inchain.hidden_pairs(geo, save, now)
    assert names(q for q, _ in found)[:2] == ["r1c1<>3", "r1c1<>4"]
    few = [m if i in (0, 1, 2, 3) else 0 for i, m in enumerate(save)]
    few_now = [m if i in (0, 1, 2, 3) else 0 for i, m in enumerate(now)]
    assert inchain.hidden_pairs(geo, few, few_now) == []


def _outcome(parents: dict[int, tuple[int, ...]], nested: dict[int, forcing._Nest]) -> object:
    bits = 0
    for q in nested:
        bits |= 1 << q
    return forcing._Outcome({}, parents, None, bits, nested)


def test_nested_chains_count_once_per_distinct_chain_not_per_removal() -> None:
    # the same nested chain (equal chains) met in two branches counts once, even where it
    # removes different candidates; two different chains removing the same candidate count twice
    same_a = (forcing._FullChain(((5, 3, 1),)), 7)
    same_b = (forcing._FullChain(((5, 3, 1),)), 7)
    other = (forcing._FullChain(((5, 2, 1),)), 11)
    a = _outcome({}, {10: same_a})
    b = _outcome({}, {12: same_b})
    c = _outcome({}, {10: other})
    assert forcing._nest_cx([(a, 1 << 10), (b, 1 << 12)]) == 7  # type: ignore[list-item]
    assert forcing._nest_cx([(a, 1 << 10), (c, 1 << 10)]) == 18  # type: ignore[list-item]


# The hardest-list puzzle of ER 11.2 that once rated 11.3 (above SE), after its first step, as
# SE 1.2.1 printed it.
STATE = (
    "{34569}{4569}{1369}{123458}{1238}{1358}{1248}{124589}7{3457}{457}2{134578}{1378}96{1458}"
    "{145}8{4579}{179}{12457}6{157}{124}{12459}3{3567}{5678}{3678}{1378}92{13478}{13468}{146}"
    "{2379}{2789}46{1378}{1378}5{1238}{129}{23679}1{36789}{378}54{2378}{2368}{269}{267}{2678}5"
    "{12378}4{13678}9{1236}{126}{2469}3{689}{12589}{128}{1568}{124}7{12456}1{24679}{679}"
    "{23579}{237}{3567}{234}{23456}8"
)


# Starts whose runs on STATE get stuck (levels >= 1 add to them): (cell, digit, on).
STARTS = (("r9c4", 3, 1), ("r1c1", 3, 0), ("r6c3", 7, 1))


def _state() -> CandidateGrid:
    values, masks = [], []
    for tok in re.findall(r"\{\d*\}|\d", STATE):
        open_cell = tok.startswith("{")
        values.append(0 if open_cell else int(tok))
        masks.append(sum(1 << (int(d) - 1) for d in tok[1:-1]) if open_cell else 0)
    return CandidateGrid.from_masks(S9, values, masks)


def test_level_3_chain_meets_ses_contradiction_and_rates_as_se() -> None:
    # SE's run from r9c4=3 on this state (traced): stuck five times, the last time pointing in
    # box 4 removes 7 from r4c1, r4c2, r5c1, r5c2, r6c1, ... and r5c2=7 then contradicts; the
    # hint (SE's choice on this state) has 62 potentials and four distinct nested chains
    cg = _state()
    chainer = forcing._Chainer(chaining.geometry(S9), cg.masks, y=True, dynamic=True, level=3)
    start = 2 * (cell("r9c4") * 9 + 2) + 1
    out = chainer.run(start)
    assert out.absurd is not None
    assert names([out.absurd[0][0], out.absurd[1][0]]) == ["r5c2=7", "r5c2<>7"]
    hints = forcing._Hints(10.0, nesting=True)
    hints.contradiction(start, out)
    (hint,) = hints.found
    assert (hint.complexity, hint.rating) == (136, 11.1)  # SE 1.2.1: 136, 11.1


def _fields(out: forcing._Outcome) -> tuple[object, ...]:
    nested = {q: (nest[0].chains, nest[1]) for q, nest in (out.nested or {}).items()}
    return (list(out.anc.items()), dict(out.parents), out.absurd, out.nest_bits, nested)


def test_levels_continue_the_runs_of_their_base_level(monkeypatch: pytest.MonkeyPatch) -> None:
    # a run of level 3 continues level 2's run from the same start, 2 and 4 continue level 1's,
    # 5 level 4's: the same outcomes as chaining each level from level 0's run
    cg = _state()
    geo = chaining.geometry(S9)
    starts = [2 * (cell(name) * 9 + d - 1) + on for name, d, on in STARTS]
    per_level = {2: starts, 3: starts, 4: starts[:1], 5: starts[:1]}  # 4, 5: slow in Python
    forcing._LEVELS.clear()
    reused = {k: forcing._level_chainer(geo, cg.masks, True, k) for k in per_level}
    got = {k: [_fields(reused[k].run(p)) for p in ps] for k, ps in per_level.items()}
    assert reused[3].base is reused[2]
    assert reused[5].base is reused[4]
    forcing._LEVELS.clear()
    monkeypatch.setattr(forcing, "_prev_level", lambda level: 0)
    for k, ps in per_level.items():
        scratch = forcing._Chainer(geo, cg.masks, y=True, dynamic=True, level=k)
        assert [_fields(scratch.run(p)) for p in ps] == got[k], k
