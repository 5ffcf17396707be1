"""The player's notes against a hint: where they leave out a digit the hint still counts.

Centre marks come in two kinds. A full candidate list (the app's auto notes, or cells a hint's
Apply filled) is the cell's candidates: the hint starts from it, and one that leaves out the
digit that belongs there is a mistake. Notes (a pair written Snyder style, or any marks typed
into an unmarked cell) only say where the player is looking: the hint never reads them, and
starts from the real candidates instead. Where notes leave out a digit the hint uses, the
answer says so, as information, beside the hint (:func:`left_out`).
"""

from __future__ import annotations

from collections.abc import Sequence

import sudokit

__all__ = ["left_out"]


def _digits(mask: int) -> list[int]:
    return [d + 1 for d in range(mask.bit_length()) if mask >> d & 1]


def left_out(
    step: sudokit.Step,
    current: sudokit.Grid,
    lists: sudokit.Candidates | None,
    notes: Sequence[int],
) -> list[dict[str, list[int]]]:
    """Where *notes* (a digit mask per cell, 0 = none) leave out a digit *step* uses that is
    still possible: for each open cell the step looks at, the digits it names there
    (placements, highlights, links; all of the cell's for a cell it names without digits)
    that the cell's candidates still hold (no placed peer rules them out, nor its full
    list in *lists*) and its notes lack, less those the step itself removes there. Cells in
    row-major order, as ``{"cell": [row, col], "digits": [...]}`` (1-based).

    >>> grid = sudokit.Grid.parse("1..." "..3." "...." "...4")
    >>> step = sudokit.Step("Naked Single", 1.0, placements=((1, 4),), cells=(1,), size=4)
    >>> notes = [0, 0b0011] + [0] * 14  # r1c2 noted "1 2", not the 4 the step places
    >>> left_out(step, grid, None, notes)
    [{'cell': [1, 2], 'digits': [4]}]
    """
    shape = current.shape
    named: dict[int, int] = dict.fromkeys(step.cells, 0)
    for c, d in (*step.placements, *step.highlights):
        named[c] = named.get(c, 0) | 1 << (d - 1)
    for a, da, b, db, _ in step.links:
        named[a] = named.get(a, 0) | 1 << (da - 1)
        named[b] = named.get(b, 0) | 1 << (db - 1)
    removed: dict[int, int] = {}
    for c, d in step.eliminations:
        removed[c] = removed.get(c, 0) | 1 << (d - 1)
    possible = sudokit.Candidates.from_grid(current).masks
    out = []
    for c in sorted(named):
        if current[c] or not notes[c]:
            continue
        still = possible[c] & (lists.masks[c] if lists is not None else ~0)
        missing = still & (named[c] or ~0) & ~notes[c] & ~removed.get(c, 0)
        if missing:
            out.append({"cell": [c // shape.n + 1, c % shape.n + 1], "digits": _digits(missing)})
    return out
