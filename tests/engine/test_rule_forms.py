"""The search forms a rule set hands the engines, computed once per size and kept on the value
(``Constraints.search_forms``), and the hashes the form caches key on (kept on rules and rule
sets after the first call): the cached answers must be the ones computed afresh."""

from __future__ import annotations

import pickle
import random

import pytest

from sudokit import _cengine, _core
from sudokit.constraints import Constraints
from sudokit.rules import KINDS
from sudokit.shape import Shape
from support.rule_instances import GLOBAL, clues, global_rule, plain_grid

BOX = (2, 3)
N = 6


def _rules(kind: str, seed: int) -> Constraints:
    rng = random.Random(f"{kind}-{seed}")
    if kind in GLOBAL:
        return Constraints(rules=[global_rule(kind, N, BOX, rng)])
    return Constraints(rules=clues(kind, plain_grid(BOX, rng), N, BOX, rng, 4))


def _merged(relations):  # type: ignore[no-untyped-def]
    """Relations as the C core merges them: per ordered pair, both directions (the table
    a -> b and the transpose of b -> a), the tables that restrict nothing left out."""
    full = (1 << N) - 1
    tables: dict[tuple[int, int], list[int]] = {}
    for a, b, table in relations:
        ab = tables.setdefault((a, b), [full] * N)
        ba = tables.setdefault((b, a), [full] * N)
        for x in range(N):
            ab[x] &= table[x]
            for y in range(N):
                if not table[x] >> y & 1:
                    ba[y] &= ~(1 << x)
    return tuple(
        (a, b, tuple(t)) for (a, b), t in sorted(tables.items()) if any(m != full for m in t)
    )


def _pairs(different, cages):  # type: ignore[no-untyped-def]
    """The pairs that differ as the C core merges them: each once, oriented, plus the mates
    of every cage (the core adds those itself)."""
    mates = {(a, b) for cells, _ in cages for a in cells for b in cells if a < b}
    return tuple(sorted({(min(a, b), max(a, b)) for a, b in different} | mates))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_search_forms_are_the_forms_computed_one_by_one(kind: str) -> None:
    rules = _rules(kind, 1)
    forms = rules.search_forms(N)
    # a copy that shares no cache with *rules*: each form computed through its own method
    fresh = pickle.loads(pickle.dumps(rules))
    assert fresh == rules
    assert fresh is not rules
    assert _pairs(forms["different"], forms["cages"]) == fresh.different_pairs(N)
    assert forms["allowed"] == fresh.allowed(N)
    assert _merged(forms["relations"]) == fresh.relations(N)
    assert forms["linear"] == fresh.linear(N)
    assert forms["groups"] == fresh.groups(N)
    assert forms["cages"] == tuple((cage.cells, cage.total) for cage in fresh.cages)
    assert rules.search_forms(N) is forms  # kept: the second call computes nothing
    other = rules.search_forms(2 * N)  # another size has its own forms
    assert other is not forms
    assert rules.search_forms(N) is forms


def test_search_forms_keep_the_relations_of_the_older_fields() -> None:
    rules = Constraints(v=[(0, 1)], thermos=[(2, 3)], antiknight=True)
    forms = rules.search_forms(4)
    assert [pair[:2] for pair in forms["relations"]] == [(0, 1), (1, 0), (2, 3), (3, 2)]
    assert _pairs(forms["different"], ()) == Constraints(antiknight=True).different_pairs(4)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_kept_hashes_are_the_hashes_of_the_fields(kind: str) -> None:
    rules = _rules(kind, 2)
    for rule in rules.rules:
        assert hash(rule) == hash(rule._key())
        assert hash(rule) == hash(rule)  # the kept value, read again
        twin = pickle.loads(pickle.dumps(rule))
        assert twin == rule
        assert hash(twin) == hash(rule)
    assert hash(rules) == hash(rules._key()) == hash(pickle.loads(pickle.dumps(rules)))


@pytest.mark.parametrize("kind", ["quadruple", "renban", "between", "sandwich", "xsum"])
def test_the_geometry_of_cached_forms_counts_as_a_fresh_one(kind: str) -> None:
    """The core's geometry from the kept forms and one from forms computed afresh give the
    same counts (the exact group supports are exercised on the way)."""
    rules = _rules(kind, 3)
    shape = Shape(*BOX, constraints=rules)
    cached = _cengine.geometry.__wrapped__(shape)
    fresh = pickle.loads(pickle.dumps(rules))
    direct = _core.Geometry(
        N,
        shape.units,
        different=fresh.different_pairs(N),
        allowed=fresh.allowed(N),
        relations=fresh.relations(N),
        cages=[(cage.cells, cage.total) for cage in fresh.cages],
        **({"groups": fresh.groups(N)} if fresh.groups(N) else {}),
        **({"linear": fresh.linear(N)} if fresh.linear(N) else {}),
    )
    empty = bytes(N * N)
    assert _core.search(cached, empty, 500, 0, 0)[0] == _core.search(direct, empty, 500, 0, 0)[0]
