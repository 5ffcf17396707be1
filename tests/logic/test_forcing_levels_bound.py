"""The nested chainers kept for the path's state (``forcing._LEVELS``) stay within their bound
(``forcing._LEVELS_KEEP``; each holds a run per potential, megabytes at 9x9), and dropping them
early changes no rating: they are a cache. The in-chain rules kept per geometry
(``forcing._INCHAIN``) are bounded too."""

from __future__ import annotations

from typing import Any

import pytest

import sudokit
from sudokit.logic import chaining, forcing
from sudokit.shape import Shape

#: Two puzzles of the hardest list (se_hardest_database_110626.tsv) with their published ER:
#: the first needs nesting level 1, the second levels 1 and 2 (a level-2 chainer continues
#: the runs of the level-1 chainer of the same state, which it adds first).
PUZZLES = {
    "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4": 9.7,
    "...4......5...9...6...2..1.2...7.9.1..5....7......8.3...6....9.7...3.1......9.327": 10.3,
}


def _rate_watching(
    monkeypatch: pytest.MonkeyPatch, keep: int
) -> tuple[list[Any], list[int], set[int]]:
    """The ratings of PUZZLES with the bound set to *keep*; the size of ``_LEVELS`` after each
    call for a nested chainer, and the levels asked for."""
    monkeypatch.setattr(forcing, "_LEVELS_KEEP", keep)
    forcing._LEVELS.clear()
    sizes: list[int] = []
    levels: list[int] = []
    real = forcing._level_chainer

    def watched(geo: Any, masks: Any, y: bool, level: int) -> Any:
        chainer = real(geo, masks, y, level)
        sizes.append(len(forcing._LEVELS))
        levels.append(level)
        return chainer

    monkeypatch.setattr(forcing, "_level_chainer", watched)
    ratings = [sudokit.rate(p) for p in PUZZLES]
    monkeypatch.undo()
    return ratings, sizes, set(levels)


@pytest.mark.slow
@pytest.mark.c_only  # ~2 s with the C core's chains, ~100 s with the Python ones
def test_levels_stay_bounded_and_ratings_do_not_change(monkeypatch: pytest.MonkeyPatch) -> None:
    kept, sizes, levels = _rate_watching(monkeypatch, forcing._LEVELS_KEEP)
    assert [r.se for r in kept] == list(PUZZLES.values())
    assert levels == {1, 2}, "the puzzles no longer reach nesting levels 1 and 2"
    assert max(sizes) <= forcing._LEVELS_KEEP
    assert max(sizes) >= 2  # a level and its base were held together
    # a bound of one: each new chainer drops the older ones, yet every rating is the same
    tight, sizes, _ = _rate_watching(monkeypatch, 1)
    assert max(sizes) == 1
    assert tight == kept
    forcing._LEVELS.clear()


def test_in_chain_rules_per_geometry_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """One entry per geometry met, at most _INCHAIN_KEEP (it held every geometry it met): the
    newest kept, an evicted geometry rebuilt when met again."""
    if forcing._c_rules(chaining.geometry(Shape(3, 3))) is None:
        pytest.skip("no C in-chain rules (the core is not built or the backend is Python)")
    monkeypatch.setattr(forcing, "_INCHAIN_KEEP", 3)
    monkeypatch.setattr(forcing, "_INCHAIN", {})
    geos = [chaining.geometry(Shape(r, c)) for r, c in ((2, 2), (2, 3), (3, 2), (3, 3), (2, 4))]
    for i, geo in enumerate(geos):
        rules = forcing._c_rules(geo)
        assert rules is not None
        assert forcing._c_rules(geo) is rules  # kept while it is among the newest
        assert len(forcing._INCHAIN) == min(i + 1, 3)
    assert [g for g, _ in forcing._INCHAIN.values()] == geos[-3:]
    forcing._c_rules(geos[0])  # made again, the oldest of the others dropped
    assert [g for g, _ in forcing._INCHAIN.values()] == [*geos[-2:], geos[0]]
