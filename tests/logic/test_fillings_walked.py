"""The rules walked cell by cell (:func:`sudokit.logic.fillings.walked`) against brute force:
the same support and the same fillings, on random candidates and random cells that see each
other."""

from __future__ import annotations

import random
from functools import partial
from itertools import product

import pytest

from sudokit.logic.fillings import Fillings, Pools, fillings, walked
from sudokit.logic.rulesteps import _outside_walk, _sum_walk
from sudokit.rules.primitives import GroupKind, group_holds


def _brute(masks: list[int], apart: list[tuple[int, ...]], holds: object) -> list[tuple[int, ...]]:
    options = [[d for d in range(1, 10) if m >> (d - 1) & 1] for m in masks]
    out = []
    for digits in product(*options):
        if any(digits[i] == digits[j] for i, js in enumerate(apart) for j in js):
            continue
        if holds(digits):  # type: ignore[operator]
            out.append(digits)
    return out


def _support(found: list[tuple[int, ...]], size: int) -> tuple[int, ...]:
    support = [0] * size
    for f in found:
        for i, d in enumerate(f):
            support[i] |= 1 << (d - 1)
    return tuple(support)


def _case(
    rng: random.Random, n: int, size: int, row: bool
) -> tuple[list[int], list[tuple[int, ...]]]:
    masks = [rng.randrange(1, 1 << n) for _ in range(size)]
    for i in rng.sample(range(size), size // 3):  # some cells placed, some nearly
        masks[i] = 1 << rng.randrange(n)
    if row:
        return masks, [tuple(range(i)) for i in range(size)]
    return masks, [tuple(j for j in range(i) if rng.random() < 0.4) for i in range(size)]


def _agrees(got: Fillings | None, found: list[tuple[int, ...]], masks: list[int]) -> None:
    assert got is not None
    assert got.support == _support(found, len(masks))
    if got.listed:
        assert list(got.found) == found
    else:
        assert got.support == tuple(masks) or not found or len(found) > 1000


@pytest.mark.parametrize("kind", [GroupKind.SANDWICH, GroupKind.XSUM, GroupKind.SKYSCRAPER])
def test_outside_clues_agree_with_brute_force(kind: int) -> None:
    rng = random.Random(kind)
    for trial in range(40):
        n = 6 if trial % 2 else 9
        size = n if trial % 3 else rng.randrange(3, n + 1)
        masks, apart = _case(rng, n, size, trial % 4 != 0)
        total = rng.randrange(0, 30) if kind != GroupKind.SKYSCRAPER else rng.randrange(1, n + 1)
        found = _brute(masks, apart, partial(group_holds, kind, params=(total,), n=n))
        rule = _outside_walk(kind, (total,), n, size)
        assert rule is not None
        _agrees(walked(masks, apart, rule), found, masks)


def _sums_to(coefs: tuple[int, ...], total: int, digits: tuple[int, ...]) -> bool:
    return sum(k * x for k, x in zip(coefs, digits, strict=True)) == total


def test_sums_agree_with_brute_force() -> None:
    rng = random.Random(5)
    for trial in range(80):
        size = rng.randrange(2, 7)
        masks, apart = _case(rng, 9, size, trial % 3 == 0)
        coefs = tuple(rng.choice((1, 1, 1, -1, 10, -10)) for _ in range(size))
        total = rng.randrange(-20, 40)
        found = _brute(masks, apart, partial(_sums_to, coefs, total))
        _agrees(_sum_walk(masks, apart, coefs, total), found, masks)


def test_a_walk_past_its_bound_gives_up() -> None:
    rule = _outside_walk(GroupKind.SKYSCRAPER, (3,), 9, 9)
    assert rule is not None
    apart = [tuple(range(i)) for i in range(9)]
    assert walked([511] * 9, apart, rule, states=50) is None
    assert walked([511] * 9, apart, rule) is not None


@pytest.mark.parametrize("kind", [GroupKind.SANDWICH, GroupKind.SKYSCRAPER])
def test_a_pool_changes_no_answer(kind: int) -> None:
    # one rule read again and again, its candidates narrower each time (as on a solving
    # path): with a pool, the same answers, and the pool holds only fillings of the rule
    rng = random.Random(kind + 7)
    n, total = 5, 2 if kind == GroupKind.SKYSCRAPER else 5
    holds = partial(group_holds, kind, params=(total,), n=n)
    rule = _outside_walk(kind, (total,), n, n)
    assert rule is not None
    apart = [tuple(range(i)) for i in range(n)]
    for _ in range(4):
        masks, pool = [(1 << n) - 1] * n, Pools().get("rule")
        while True:
            found = _brute(masks, apart, holds)
            got = walked(masks, apart, rule, pool=pool)
            assert got == walked(masks, apart, rule)
            _agrees(got, found, masks)
            fit = [f for f in pool if all(m >> (d - 1) & 1 for m, d in zip(masks, f, strict=True))]
            assert all(f in found for f in fit)
            listed = fillings(masks, apart, holds, pool=pool)
            assert listed == fillings(masks, apart, holds)
            assert pool
            assert all(holds(f) for f in pool)
            wide = [i for i, m in enumerate(masks) if m & (m - 1)]
            if not found or not wide:
                break
            i = rng.choice(wide)
            masks[i] &= ~(1 << (rng.choice([d for d in range(n) if masks[i] >> d & 1])))
