"""The C core's linear sums and groups against the reference search.

The rules compile to linear sums (arrows, little killers, zipper, region-sum and double-arrow
lines) and groups (renban, between, quadruple, sandwich, x-sum, skyscraper), whose meaning is
``sudokit.rules.primitives.group_holds`` / ``linear_holds``. The C core propagates them its own
way (bounds, windows, dynamic programmes: ``csrc/sk_props.c``), so it is held to the reference
(``sudokit._reference.search``) by results, not by states:

* random instances on 4x4, 6x6 and 9x9 (a random solved grid, raw primitives and rule kinds
  read from it, some givens): the same count up to a limit, the same solutions below it;
* the same with a total or param made wrong (often no solution at all);
* every solution the C core returns breaks none of the rules (``Constraints.violations``,
  written from the rules' words, not from their compilation);
* the binding refuses bad ``linear=`` / ``groups=`` input with one error naming the entry.

On the fallback pass the C side is skipped; the reference then meets the violation check.
"""

from __future__ import annotations

import random

import pytest

from sudokit import _backend
from sudokit.rules import GroupKind
from sudokit.rules.primitives import group_holds
from sudokit.shape import Shape
from support import require_c_backend
from support.primitives import (
    Raw,
    givens,
    lines,
    random_group,
    random_groups,
    random_kinds,
    random_linear,
    rule_shape,
    solution,
)

REFERENCE = _backend.get_engine("python")
LIMIT = 50
#: (box, share of the givens kept, instances): small grids nearly empty, 9x9 mostly given.
CASES = [((2, 2), 0.0, 60), ((2, 3), 0.3, 40), ((3, 2), 0.3, 20), ((3, 3), 0.4, 12)]


def _engine() -> _backend.Engine:
    """The C core, or the reference on the fallback pass (its checks then still run)."""
    try:
        return _backend.get_engine("c")
    except ImportError:
        return REFERENCE


def _instance(box: tuple[int, int], share: float, seed: int, *, wrong: bool = False):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    n = box[0] * box[1]
    sol = solution(Shape(*box), rng)
    linear = random_linear(sol, n, rng, rng.randint(0, 3))
    groups = random_groups(sol, n, rng, rng.randint(1, 4))
    if wrong and linear:
        cells, coefs, total = linear[0]
        linear[0] = (cells, coefs, total + rng.choice((-1, 1)))
    elif wrong:
        kind, cells, params = groups[0]
        groups[0] = (kind, cells, (params[0] + 1,)) if params and kind != 3 else groups[0]
    rules = [Raw(linear, groups), *random_kinds(sol, n, rng, rng.randint(0, 3))]
    return rule_shape(box, rules), givens(sol, rng, share), sol


def _same(shape: Shape, cells: bytes) -> int:
    """Both engines' results on one puzzle agree; the count."""
    c = _engine().search(shape, cells, LIMIT, LIMIT, 0)
    ref = REFERENCE.search(shape, cells, LIMIT, LIMIT, 0)
    assert c.complete
    assert ref.complete
    assert c.count == ref.count
    if c.count < LIMIT:
        assert sorted(c.solutions) == sorted(ref.solutions)
    rules = shape.constraints
    assert rules is not None
    for found in c.solutions:
        assert rules.violations(found, shape.n) == []
    return c.count


@pytest.mark.parametrize(("box", "share", "count"), CASES, ids=[str(c[0]) for c in CASES])
def test_counts_and_solutions_match_the_reference(
    box: tuple[int, int], share: float, count: int
) -> None:
    counts = []
    for seed in range(count):
        shape, cells, _ = _instance(box, share, seed)
        counts.append(_same(shape, cells))
        assert counts[-1] >= 1  # the grid they were read from obeys them
    assert max(counts) > 1  # some instances leave room: the search branches through the rules


@pytest.mark.parametrize(("box", "share", "count"), CASES[:3], ids=[str(c[0]) for c in CASES[:3]])
def test_wrong_totals_match_the_reference(box: tuple[int, int], share: float, count: int) -> None:
    counts = [_same(*_instance(box, share, seed, wrong=True)[:2]) for seed in range(count)]
    assert 0 in counts


@pytest.mark.parametrize("kind", list(GroupKind), ids=[k.name for k in GroupKind])
def test_each_group_kind_alone(kind: GroupKind) -> None:
    """Three groups of one kind on a 6x6 with a third of the givens, right and wrong."""
    for seed in range(8):
        rng = random.Random(seed)
        sol = solution(Shape(2, 3), rng)
        groups = [random_group(sol, 6, kind, rng) for _ in range(3)]
        shape = rule_shape((2, 3), [Raw((), groups)])
        assert _same(shape, givens(sol, rng, 0.3)) >= 1
        k, cells, params = groups[0]
        digits = [sol[i] for i in cells]
        bent = (params[0] + 1,) if params and kind != GroupKind.QUADRUPLE else params
        if not group_holds(k, digits, bent, 6):
            _same(rule_shape((2, 3), [Raw((), [(k, cells, bent), *groups[1:]])]), sol)


@pytest.mark.parametrize(
    "kind", [GroupKind.SANDWICH, GroupKind.XSUM, GroupKind.SKYSCRAPER], ids=lambda k: k.name
)
def test_wide_lines_match_the_reference(kind: GroupKind) -> None:
    """36x36 rows and columns: the sandwich programme no longer counts the digits between
    (its work bound) once the sum needs two words, so the line of the largest sandwich runs
    its plain-sum branch; a few blanks keep the reference quick."""
    rng = random.Random(int(kind))
    sol = solution(Shape(6, 6), rng)
    groups = [random_group(sol, 36, kind, rng) for _ in range(3)]
    if kind == GroupKind.SANDWICH:
        groups.append(max((_sandwich_of(sol, line) for line in lines(36)), key=lambda g: g[2]))
        assert groups[-1][2][0] >= 64
    assert _same(rule_shape((6, 6), [Raw((), groups)]), givens(sol, rng, 0.98)) >= 1


def _sandwich_of(sol: bytes, line: tuple[int, ...]) -> tuple[int, tuple[int, ...], tuple[int]]:
    digits = [sol[i] for i in line]
    i, j = sorted((digits.index(1), digits.index(len(line))))
    return int(GroupKind.SANDWICH), line, (sum(digits[i + 1 : j]),)


def test_a_full_grid_that_breaks_a_group_has_no_solution() -> None:
    """A filled group that fails is a contradiction (here every cell is given)."""
    sol = solution(Shape(2, 2), random.Random(3))
    row = tuple(range(4))
    sandwich = sum(sol[i] for i in row) - 1 - 4
    wrong = (int(GroupKind.SANDWICH), row, (sandwich + 1,))
    assert _same(rule_shape((2, 2), [Raw((), [wrong])]), sol) == 0
    right = (int(GroupKind.RENBAN), row, ())
    assert _same(rule_shape((2, 2), [Raw(((row, (1, 1, 1, 1), 10),), [right])]), sol) == 1


# -- the binding refuses bad input --------------------------------------------------------------

UNITS9 = [list(range(r * 9, r * 9 + 9)) for r in range(9)]
BAD = [
    (
        {"linear": [((0, 1), (1, 1), 3)] * 3 + [((0, 99), (1, 1), 3)]},
        "linear sum 3: cell 99 is outside 0..80",
    ),
    ({"linear": [((0, 0), (1, 1), 2)]}, "linear sum 0: cell 0 is listed twice"),
    ({"linear": [((), (), 0)]}, "linear sum 0 has 0 cells, expected 1..81"),
    ({"linear": [((0, 1), (1,), 3)]}, "linear sum 0 has 2 cells and 1 coefs"),
    ({"linear": [((0, 1), (1, 0), 3)]}, "linear sum 0: coef 1 is 0 (coefs are nonzero)"),
    ({"linear": [((0,), (10**7,), 3)]}, "linear sum 0: coef 10000000 is outside -1000000..1000000"),
    ({"linear": [((0,), (1,), 2**60)]}, "is outside -1099511627776..1099511627776"),
    ({"linear": [((0,), (1,))]}, "linear sum 0 must be (cells, coefs, total), got 2 items"),
    ({"linear": [((0,), (1,), 1)] * 1297}, "linear: 1297 sums, at most 1296 for size 9"),
    ({"groups": [(1, (0, 1), ())] * 2 + [(9, (0, 1), ())]}, "group 2: unknown kind 9"),
    ({"groups": [(1, tuple(range(65)), ())]}, "group 0 has 65 cells, expected 1..64"),
    ({"groups": [(2, (0, 81), ())]}, "group 0: cell 81 is outside 0..80"),
    ({"groups": [(1, (0, 1), (2,))]}, "group 0: RENBAN takes no params, got 1"),
    ({"groups": [(3, (0, 1, 9, 10), ())]}, "group 0: QUADRUPLE takes 1 to 4 digits, got 0"),
    ({"groups": [(3, (0, 1, 9, 10), (1, 2, 3, 4, 5))]}, "QUADRUPLE takes 1 to 4 digits, got 5"),
    ({"groups": [(3, (0, 1, 9, 10), (10,))]}, "group 0: digit 10 is outside 1..9"),
    ({"groups": [(4, tuple(range(9)), ())]}, "group 0: SANDWICH takes exactly 1 param, got 0"),
    ({"groups": [(5, tuple(range(9)), (1, 2))]}, "group 0: XSUM takes exactly 1 param, got 2"),
    ({"groups": [(6, tuple(range(9)), (-1,))]}, "group 0: param -1 is outside 0..2147483647"),
    ({"groups": [(7, (0, 1), ())]}, "group 0: SUM_IN takes 1 to 16 totals, got 0"),
    ({"groups": [(7, (0, 1), tuple(range(17)))]}, "group 0: SUM_IN takes 1 to 16 totals, got 17"),
    ({"groups": [(7, (0, 1), (3, -1))]}, "group 0: param -1 is outside 0..2147483647"),
    ({"groups": [(6, (0, 1), (1,), 0)]}, "group 0 must be (kind, cells, params), got 4 items"),
]
BAD_TYPES = [
    ({"linear": 5}, "linear must be a sequence, not int"),
    ({"linear": [((0, "a"), (1, 1), 3)]}, "linear sum 0: cell must be an int, not str"),
    ({"linear": [((0,), (1,), 1.5)]}, "linear sum 0: total must be an int, not float"),
    ({"groups": [("1", (0,), ())]}, "group 0: kind must be an int, not str"),
    ({"groups": [(1, 7, ())]}, "group 0: cells must be a sequence, not int"),
    ({"groups": [5]}, "group 0 must be a sequence (kind, cells, params), not int"),
]


@pytest.mark.parametrize(("rules", "message"), BAD, ids=[m for _, m in BAD])
def test_geometry_refuses_bad_values(rules: dict[str, object], message: str) -> None:
    require_c_backend()
    from sudokit import _core

    with pytest.raises(ValueError, match="^.*" + _escape(message)):
        _core.Geometry(9, UNITS9, **rules)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "message"), BAD_TYPES, ids=[m for _, m in BAD_TYPES])
def test_geometry_refuses_bad_types(rules: dict[str, object], message: str) -> None:
    require_c_backend()
    from sudokit import _core

    with pytest.raises(TypeError, match="^" + _escape(message) + "$"):
        _core.Geometry(9, UNITS9, **rules)  # type: ignore[arg-type]


def _escape(text: str) -> str:
    import re

    return re.escape(text)


def test_geometry_takes_good_input() -> None:
    require_c_backend()
    from sudokit import _core

    geo = _core.Geometry(9, UNITS9, linear=[((0, 1), (1, -10), 0)], groups=[(4, range(9), (0,))])
    assert geo.rules
    assert not geo.standard9


def test_reference_linear_sums_keep_supports_not_only_bounds() -> None:
    """Cells {2, 6} and {1, 3} adding up to 5: the bounds keep 1 in the second cell (5 - 6 <=
    1 <= 5 - 2), but no digit of the first completes it (4 is not a candidate), so the
    supports take it; 2 + 3 is the only sum left (the C core's sk_linear_supports alike)."""
    from sudokit import _reference

    masks = [0b100010, 0b101]
    state = (masks, [0, 0])
    todo: list[tuple[int, int]] = []
    assert _reference._linear(state, (0, 1), (1, 1), 5, todo) is True
    assert masks == [0b10, 0b100]
    assert sorted(todo) == [(0, 2), (1, 3)]
    # Negative coefficients: 2 * a - b = 1 with a in {1, 2, 3}, b in {1, 2, 3}: (1, 1), (2, 3).
    masks[:] = [0b111, 0b111]
    assert _reference._linear(state, (0, 1), (2, -1), 1, todo) is True
    assert masks == [0b11, 0b101]
    masks[:] = [0b1, 0b110]  # 2 * 1 - b = 1 needs b = 1
    assert _reference._linear(state, (0, 1), (2, -1), 1, todo) is None
