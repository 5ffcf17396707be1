"""CandidateGrid.from_masks refuses bad input with a clear error naming what and where."""

from __future__ import annotations

from typing import Any

import pytest

from sudokit.logic.candidates import CandidateGrid
from sudokit.shape import Shape


def test_from_masks_checks_its_input() -> None:
    """Wrong lengths, values outside 0..n, masks outside 0..2**n - 1 (negative ones too) and
    items that are not ints are refused, naming the list, the index and the cell (a value
    above n used to pass, and the C Full House search then raised where the Python did not;
    a negative mask became every digit)."""
    shape = Shape(2, 2)
    values, masks = [0] * 16, [0b1111] * 16
    cases: list[tuple[list[Any], list[Any], type[Exception], str]] = [
        (values[:15], masks, ValueError, "^values must hold 16 items, got 15$"),
        (values, [*masks, 1], ValueError, "^masks must hold 16 items, got 17$"),
        (
            [*values[:5], 5, *values[6:]],
            masks,
            ValueError,
            r"^values\[5\] \(cell r2c2\) must be in 0..4, got 5$",
        ),
        (
            [-1, *values[1:]],
            masks,
            ValueError,
            r"^values\[0\] \(cell r1c1\) must be in 0..4, got -1$",
        ),
        (
            values,
            [*masks[:15], 16],
            ValueError,
            r"^masks\[15\] \(cell r4c4\) must be in 0..15, got 16$",
        ),
        (
            values,
            [*masks[:7], -1, *masks[8:]],
            ValueError,
            r"^masks\[7\] \(cell r2c4\) must be in 0..15, got -1$",
        ),
        (
            values,
            [*masks[:3], 1.0, *masks[4:]],
            TypeError,
            r"^masks\[3\] \(cell r1c4\) must be an int, not float$",
        ),
        (
            ["1", *values[1:]],
            masks,
            TypeError,
            r"^values\[0\] \(cell r1c1\) must be an int, not str$",
        ),
    ]
    for vals, ms, error, message in cases:
        with pytest.raises(error, match=message):
            CandidateGrid.from_masks(shape, vals, ms)
    # the bounds themselves are accepted; a solved cell's mask is cleared
    cg = CandidateGrid.from_masks(shape, [4, *values[1:]], [0b1111] * 16)
    assert (cg.values[0], cg.masks[0], cg.masks[1]) == (4, 0, 0b1111)
    big = Shape(8, 8)
    top = CandidateGrid.from_masks(big, [64] + [0] * 4095, [(1 << 64) - 1] * 4096)
    assert top.masks[1] == (1 << 64) - 1
    with pytest.raises(
        ValueError, match=r"masks\[1\] \(cell r1c2\) must be in 0..18446744073709551615"
    ):
        CandidateGrid.from_masks(big, [0] * 4096, [1, 1 << 64, *[1] * 4094])
