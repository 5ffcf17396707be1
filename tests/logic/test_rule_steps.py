"""The rule kinds' own steps (logic/rulesteps.py, logic/rulewords.py, the Neighbour Rule).

Hand-made positions check each step's eliminations and words; the puzzles of every kind in
``tests/data/variants/rule_puzzles.jsonl`` (drawn from random solutions: support/rulepuzzles.py)
are walked with every technique below the chains, and a few are explained to the end, every
step checked against the puzzle's unique solution: no elimination removes its digit, no
placement differs from it. Each kind's own step appears on some puzzle, naming its rule. The
solution comes from the fixture (``rating._solution`` is patched), so no search runs and the
module passes on either backend.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import cache
from itertools import product

import pytest

from sudokit import rating
from sudokit import rules as R
from sudokit.constraints import Constraints
from sudokit.grid import Grid
from sudokit.logic import fillings, rulesteps, rulewords
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.path import solve_path
from sudokit.logic.registry import TECHNIQUES, by_name
from sudokit.logic.step import Step
from sudokit.logic.variants import neighbour_rule
from sudokit.rating import rating_techniques
from sudokit.rules import KINDS, Rule
from sudokit.rules.primitives import GroupKind, group_holds
from sudokit.shape import Shape
from support import rulepuzzles

FINDERS = (
    rulesteps.rule_sum,
    rulesteps.rule_group,
    rulesteps.rule_sum_fillings,
    rulesteps.outside_clue,
    neighbour_rule,
)


def position(
    rules: Sequence[Rule], givens: dict[str, int], box: tuple[int, int] = (3, 3)
) -> CandidateGrid:
    """The candidates of a grid with *rules* and the *givens* (``{"r1c2": 9}``)."""
    shape = Shape(*box, constraints=Constraints(rules=rules))
    n = shape.n
    cells = bytearray(n * n)
    for name, d in givens.items():
        cells[(int(name[1]) - 1) * n + int(name[3]) - 1] = d
    return CandidateGrid.from_grid(Grid(bytes(cells), shape))


def steps(cg: CandidateGrid) -> list[Step]:
    return [s for finder in FINDERS for s in finder(cg)]


def wrapped(step: Step) -> str:
    return textwrap.fill(step.text, 10_000)


def keeps(step: Step, sol: bytes) -> None:
    """*step* keeps the solution *sol*: no elimination of its digit, no other placement."""
    for c, d in step.eliminations:
        assert sol[c] != d, f"{step.technique} removed the solution digit: {step.text}"
    for c, d in step.placements:
        assert sol[c] == d, f"{step.technique} placed a wrong digit: {step.text}"


# -- the words ------------------------------------------------------------------------------------


@cache
def puzzles() -> tuple[tuple[str, Grid, bytes], ...]:
    return tuple(rulepuzzles.read())


def test_every_kind_has_its_words() -> None:
    tables = [rulewords.PAIR_WORDS, rulewords.SUM_WORDS, rulewords.GROUP_WORDS]
    covered = set(rulewords.UNIT_KINDS).union(*tables)
    assert covered == set(KINDS)
    assert sum(len(t) for t in tables) + len(rulewords.UNIT_KINDS) == len(KINDS)
    # each kind's words cover the forms it compiles to (on the fixture's rules)
    seen = set()
    for _, puzzle, _ in puzzles():
        assert puzzle.shape.constraints is not None
        for rule in puzzle.shape.constraints.rules:
            seen.add(rule.kind)
            form = rule.compile(puzzle.shape.n)
            assert bool(form.relations) <= (rule.kind in rulewords.PAIR_WORDS), rule
            assert bool(form.linear) == (rule.kind in rulewords.SUM_WORDS), rule
            assert bool(form.groups) <= (rule.kind in rulewords.GROUP_WORDS), rule
    assert seen == set(KINDS), "the fixture has puzzles of every kind"


def test_step_names_do_not_take_a_technique_name() -> None:
    registered = {t.name for t in TECHNIQUES}
    for kind, cls in KINDS.items():
        name = rulewords.step_name(cls.__new__(cls))
        assert name not in registered, kind
    assert rulewords.step_name(R.Skyscraper(tuple(range(9)), 3)) == "Skyscraper Clue"


def test_registered_in_the_variant_family_off_the_se_scale() -> None:
    for name, rating_ in (("Rule Sum", 1.5), ("Rule Group", 2.0), ("Rule Sum Fillings", 2.2),
                          ("Outside Clue", 2.6)):  # fmt: skip
        t = by_name(name)
        assert (t.family, t.rating, t.se) == ("variant", rating_, False)
    classic = CandidateGrid.from_grid(Grid.empty(Shape(3, 3)))
    assert all(list(f(classic)) == [] for f in FINDERS)


# -- sums -----------------------------------------------------------------------------------------


def test_arrow_bounds_its_circle_by_the_smallest_different_digits() -> None:
    cg = position([R.Arrow((0,), ((1, 2),))], {})
    (step,) = rulesteps.rule_sum(cg)
    assert step.technique == "Arrow"
    assert step.rating == rulesteps.SUM_BOUNDS
    assert (
        "The arrow from r1c2 adds up to the digit in its circle r1c1 (r1c2 + r1c3 = r1c1)"
        in step.text
    )
    assert (
        "r1c2 + r1c3 is at least 3 (they see each other, so their digits differ), so r1c1 is"
        " at least 3" in step.text
    )
    assert set(step.eliminations) == {(0, 1), (0, 2), (1, 9), (2, 9)}


def test_pill_arrow_bounds_its_tens_digit() -> None:
    cg = position([R.Arrow((40, 41), ((49, 58, 67),))], {})
    (step,) = rulesteps.rule_sum(cg)
    assert "2-digit number in its pill, read from r5c5 to r5c6" in step.text
    assert "10 × r5c5 is at most 23, and r5c5 is at most 2" in step.text
    assert {d for c, d in step.eliminations if c == 40} == set(range(3, 10))


def test_little_killer_bounds() -> None:
    cg = position([R.LittleKiller((2, 10, 18), 22)], {})
    (step,) = rulesteps.rule_sum(cg)
    assert step.technique == "Little Killer"
    assert step.text.startswith("The little killer 22 along r1c3 to r3c1 adds up to 22")
    assert set(step.eliminations) == {(c, d) for c in (2, 10, 18) for d in (1, 2, 3, 4)}


def test_sum_fillings_see_holes_and_peers() -> None:
    # r1c1 = r1c2 + r1c3 with r1c2 = 1 and r1c3 = 4: the only filling is 1 + 4 = 5
    cg = position([R.Arrow((0,), ((1, 2),))], {"r1c2": 1, "r1c3": 4})
    step = next(rulesteps.rule_sum_fillings(cg))
    assert step.rating == rulesteps.SUM_FILLINGS
    assert step.placements == ((0, 5),)
    assert "The only filling from the candidates is 1 + 4 = 5: r1c1 is 5." in step.text


def test_zipper_double_arrow_and_region_sum_words() -> None:
    cg = position(
        [
            R.Zipper((0, 1, 2, 3, 4)),
            R.DoubleArrow((27, 28, 29, 30)),
            R.RegionSum(((54, 55), (56, 57))),
        ],
        {"r1c3": 5, "r7c1": 8},
    )
    texts = " ".join(s.text for s in rulesteps.rule_sum(cg))
    assert "add up to the middle r1c3 (r1c1 + r1c5 = r1c3)" in texts
    assert "add up to the middle r1c3 (r1c2 + r1c4 = r1c3)" in texts
    assert "(r7c1 + r7c2 = r7c3 + r7c4)" in texts
    double = next(s for s in rulesteps.rule_sum(position([R.DoubleArrow((0, 1, 2))], {"r1c1": 1})))
    assert (
        "ends r1c1 and r1c3 add up to the digits between them (r1c1 + r1c3 = r1c2)" in double.text
    )


# -- groups ---------------------------------------------------------------------------------------


def test_renban_with_a_9_leaves_7_8_9() -> None:
    cg = position([R.Renban((0, 1, 2))], {"r1c2": 9})
    (step,) = rulesteps.rule_group(cg)
    assert step.technique == "Renban Line"
    assert step.rating == rulesteps.LINE_GROUP
    assert "holds 3 different digits that are consecutive" in step.text
    assert (
        "its digits can only be 7-8-9: 1, 2, 3, 4, 5 and 6 are removed from r1c1 and r1c3"
        in step.text
    )


def test_quadruple_places_its_only_place() -> None:
    cg = position([R.Quadruple((0, 1, 9, 10), (1, 2))], {"r1c5": 2, "r4c1": 2, "r1c6": 1})
    (step,) = rulesteps.rule_group(cg)
    assert step.placements == ((9, 1), (10, 2))
    assert "The quadruple 12 at r1c1 needs 1 and 2 among its four cells" in step.text
    assert "only r2c2 can take 2" in step.text


def test_between_line_ends() -> None:
    cg = position([R.Between((0, 1, 2, 3))], {"r1c1": 3})
    (step,) = rulesteps.rule_group(cg)
    assert "its ends can only hold 3 and 6, 3 and 7, 3 and 8 or 3 and 9" in step.text
    assert {d for c, d in step.eliminations if c == 3} == {1, 2, 4, 5}


def test_sandwich_sets() -> None:
    cg = position([R.Sandwich(tuple(range(18, 27)), 7)], {"r3c1": 1})
    (step,) = rulesteps.outside_clue(cg)
    assert step.technique == "Sandwich"
    assert step.rating == rulesteps.OUTSIDE_CLUE
    assert "the digits between the 1 and the 9 of row 3 add up to 7" in step.text
    assert "the digits between can only be 2+5, 3+4 or 7" in step.text


def test_skyscraper_of_one_places_the_highest_digit_first() -> None:
    cg = position([R.Skyscraper(tuple(range(0, 81, 9)), 1)], {})
    (step,) = rulesteps.outside_clue(cg)
    assert step.technique == "Skyscraper Clue"
    assert step.placements == ((0, 9),)


def test_xsum_keeps_its_solution() -> None:
    sol = bytes(int(ch) for ch in SOL9)
    rule = R.XSum(tuple(range(9)), sum(sol[: sol[0]]))
    cg = position([rule], {})
    for step in rulesteps.outside_clue(cg):
        keeps(step, sol)
        assert step.text.startswith(f"The x-sum {rule.total} of row 1 from the left")


# -- relations in the rule's own words ------------------------------------------------------------


def test_whispers_palindrome_and_indexer_words() -> None:
    cg = position(
        [R.Whispers((0, 1, 2), 5), R.Palindrome((3, 13, 23)), R.ColumnIndexer((30,))],
        {"r1c2": 3, "r1c4": 2},
    )
    texts: dict[str, str] = {}
    for step in neighbour_rule(cg):
        texts[step.technique] = texts.get(step.technique, "") + step.text
    assert (
        "r1c1 and r1c2 are joined by the whispers line at r1c1 (neighbours on it differ by at"
        " least 5). r1c2 is 3, so r1c1 can only be 8 or 9" in texts["Whispers Line"]
    )
    assert "the palindrome line at r1c4 (it reads the same both ways" in texts["Palindrome Line"]
    words = "the column indexer r4c4 (its digit says which column of row 4 holds the 4)"
    assert words in texts["Column Indexer"]


def test_a_group_of_maximum_cells_compares_only_outside_it() -> None:
    # f-puzzles' fortress cells: one maximum rule over several cells; r1c1 and r1c2 are both
    # maximum cells, so only their neighbours outside the group are compared
    cg = position([R.Maximum((0, 1, 10))], {"r2c1": 8})
    texts = " ".join(step.text for step in neighbour_rule(cg))
    words = "the maximum at r1c1 (r1c1 is higher than each orthogonal neighbour that is not a"
    assert words + " maximum cell). r2c1 is 8, so r1c1 can only be 9" in texts
    assert "r1c2 and r1c1" not in texts
    assert "r1c1 and r1c2" not in texts
    rule = R.Maximum((0, 1, 10))
    assert rulewords.rule_words(rule, Shape(3, 3)).endswith(
        "each of its cells is higher than each orthogonal neighbour that is not a maximum cell"
    )


def test_negative_rule_words_only_for_orthogonal_pairs() -> None:
    # a nabner pair two cells apart is no neighbour of the non-consecutive rule
    shape = Shape(3, 3, constraints=Constraints(nonconsecutive=True, rules=[R.Nabner((0, 10))]))
    cg = CandidateGrid.from_grid(Grid(bytes([5] + [0] * 80), shape))
    texts = [s.text for s in neighbour_rule(cg) if 10 in s.cells]
    assert texts
    assert all("non-consecutive" not in t for t in texts)
    assert all("nabner line at r1c1" in t for t in texts)


# -- fillings -------------------------------------------------------------------------------------


def brute_support(masks: Sequence[int], apart: Sequence[Sequence[int]], holds: object) -> list[int]:
    assert callable(holds)
    support = [0] * len(masks)
    for digits in product(*[[d for d in range(1, 10) if m >> (d - 1) & 1] for m in masks]):
        if any(digits[i] == digits[j] for i in range(len(digits)) for j in apart[i]):
            continue
        if holds(digits):
            for i, d in enumerate(digits):
                support[i] |= 1 << (d - 1)
    return support


@pytest.mark.parametrize("nodes", [5, 60, fillings.NODES])
def test_fillings_against_brute_force(nodes: int) -> None:
    """Listed, tried one candidate at a time or out of digits: never a used candidate lost."""
    import random

    rng = random.Random(nodes)
    bounded = 0
    for _ in range(60):
        size = rng.randint(2, 5)
        masks = [rng.randint(1, 511) for _ in range(size)]
        apart = [tuple(j for j in range(i) if rng.random() < 0.5) for i in range(size)]
        kind = rng.choice([GroupKind.RENBAN, GroupKind.BETWEEN, GroupKind.SKYSCRAPER])
        params = (rng.randint(1, 3),) if kind == GroupKind.SKYSCRAPER else ()

        def holds(
            digits: Sequence[int], kind: int = kind, params: tuple[int, ...] = params
        ) -> bool:
            return group_holds(kind, digits, params, 9)

        exact = brute_support(masks, apart, holds)
        found = fillings.fillings(masks, apart, holds, nodes=nodes, total=nodes * 4)
        assert all(f & e == e for f, e in zip(found.support, exact, strict=True))
        assert all(f & ~m == 0 for f, m in zip(found.support, masks, strict=True))
        if found.listed:
            assert list(found.support) == exact
        else:
            bounded += 1
    assert nodes == fillings.NODES or bounded, "the bound was never met"


# -- the puzzles of every kind --------------------------------------------------------------------

#: The steps a kind's rule makes: its own (named by the rule) or none (units and peers only).
OWN = {kind: kind not in rulewords.UNIT_KINDS for kind in KINDS}
SMALL = 6  # puzzles walked: 4x4 and 6x6


def walk(puzzle: Grid, sol: bytes) -> list[Step]:
    """The path below the chains, every step checked against *sol*."""
    cg = CandidateGrid.from_grid(puzzle)
    techs = [t for t in rating_techniques(puzzle.shape, se_only=False) if t.rating < 6.0]
    path = solve_path(cg, techs, unique=True)
    for step in path.steps:
        keeps(step, sol)
    if path.solved:
        assert bytes(cg.values) == sol
    return list(path.steps)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_walks_soundly_and_shows_its_rule(kind: str) -> None:
    own = []
    walked = 0
    for k, puzzle, sol in puzzles():
        if k != kind or puzzle.shape.n > SMALL:
            continue
        walked += 1
        assert puzzle.shape.constraints is not None
        names = {rulewords.step_name(r) for r in puzzle.shape.constraints.rules}
        own += [s for s in walk(puzzle, sol) if s.technique in names]
    assert walked >= 5
    if not OWN[kind]:
        return
    assert own, f"no {kind} step on its puzzles"
    rule_words = {
        "littlekiller": "little killer",
        "selftaxicab": "self-taxicab",
        "diagonalnonconsecutive": "diagonal non-consecutive",
        "knightmare": "knightmare",
    }.get(kind, KINDS[kind].title)
    assert any(rule_words in s.text.lower() for s in own), own[0].text


@pytest.mark.parametrize("kind", ["arrow", "renban", "whispers", "sandwich", "quadruple"])
def test_explain_replays_to_the_solution(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """sudokit.explain on a small puzzle of the kind (its solution from the fixture): every
    step keeps the solution, and replayed it ends there."""
    _, puzzle, sol = next(
        item for item in puzzles() if item[0] == kind and item[1].shape.n <= SMALL
    )
    solution = Grid(sol, puzzle.shape)
    monkeypatch.setattr(rating, "_solution", lambda grid: solution)
    explained = rating.explain(puzzle, budget_s=2)
    cg = CandidateGrid.from_grid(puzzle)
    for step in explained:
        keeps(step, sol)
        cg.apply(step)
    assert bytes(cg.values) == sol


SOL9 = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_related_cells_that_see_each_other_differ() -> None:
    # a slow thermometer along row 1: r1c2 >= r1c1, and they differ, so r1c1 is not 9
    cg = position([R.SlowThermo((0, 1, 2))], {})
    step = next(s for s in neighbour_rule(cg) if s.eliminations == ((0, 9),))
    assert step.technique == "Slow Thermometer"
    assert "they see each other, so their digits differ" in step.text


def test_entropic_cells_read_three_at_a_time() -> None:
    # r7c1 and r7c2 can only be low or middle: r7c3, in a row with them, is the high one
    shape = Shape(3, 3, constraints=Constraints(rules=[R.Entropic((54, 55, 56))]))
    masks = [0b111111111] * 81
    masks[54] = masks[55] = 0b000111111
    cg = CandidateGrid.from_masks(shape, [0] * 81, masks)
    assert not [s for s in neighbour_rule(cg) if 56 in {c for c, _ in s.eliminations}]
    step = next(s for s in rulesteps.rule_group(cg) if s.technique == "Entropic Line")
    assert set(step.eliminations) == {(56, d) for d in range(1, 7)}
    assert step.text.startswith(
        "The entropic line at r7c1: any three cells in a row on it hold a low (1-3), a middle"
        " (4-6) and a high (7-9) digit."
    )
