"""Set-bit helpers for the whole logic package (layer 2).

Candidate masks (bit ``d - 1`` = digit ``d``), cell sets (bit = cell) and potential sets (bit =
potential, see :mod:`sudokit.logic.chaining`) are Python ints used as bit sets. Every technique
reads them through these helpers; masks below ``2**12`` (every digit mask up to 12x12) are read
from precomputed tables.

>>> digits(0b1010), bit_indices(0b1010), low_bits(0b1010), bit_set([1, 3])
([2, 4], [1, 3], (2, 8), 10)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations

from ..marks import bit_indices as _bit_indices

__all__ = ["bit_indices", "bit_set", "digits", "locked_sets", "low_bits"]

_SMALL = 1 << 12


def _low_bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return tuple(out)


_LOWS: list[tuple[int, ...]] = [_low_bits(m) for m in range(_SMALL)]
_INDICES: list[tuple[int, ...]] = [tuple(low.bit_length() - 1 for low in lows) for lows in _LOWS]
_DIGITS: list[tuple[int, ...]] = [tuple(i + 1 for i in idx) for idx in _INDICES]


def bit_indices(mask: int) -> list[int]:
    """The indices of the set bits of *mask*, ascending (0-based: cells, digits - 1, potentials).

    >>> bit_indices(0b100101), bit_indices(1 << 100)
    ([0, 2, 5], [100])
    """
    if mask < _SMALL:
        return list(_INDICES[mask])
    return _bit_indices(mask)


def digits(mask: int) -> list[int]:
    """The digits (1-based) whose bits are set in *mask*, ascending.

    >>> digits(0b1010)
    [2, 4]
    """
    if mask < _SMALL:
        return list(_DIGITS[mask])
    return [i + 1 for i in _bit_indices(mask)]


def low_bits(mask: int) -> tuple[int, ...]:
    """The single-bit masks of *mask*, lowest first.

    >>> low_bits(0b10110)
    (2, 4, 16)
    """
    return _LOWS[mask] if mask < _SMALL else _low_bits(mask)


def bit_set(indices: Iterable[int]) -> int:
    """The bit set with the bits *indices* set.

    >>> bin(bit_set((0, 2, 2)))
    '0b101'
    """
    out = 0
    for i in indices:
        out |= 1 << i
    return out


def locked_sets(
    masks: Sequence[int] | Mapping[int, int], keys: Sequence[int], k: int
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each *k* of *keys* (in :func:`itertools.combinations` order) whose *masks* together hold
    exactly *k* bits, with that union: *k* cells locked to *k* digits (a naked set), *k* digits
    to *k* cells (a hidden set), *k* lines to *k* cross lines (a fish).

    >>> list(locked_sets([0b011, 0b110, 0b011, 0b100], [0, 1, 2, 3], 2))
    [((0, 2), 3), ((1, 3), 6)]
    """
    for combo in combinations(keys, k):
        union = 0
        for key in combo:
            union |= masks[key]
        if union.bit_count() == k:
            yield combo, union
