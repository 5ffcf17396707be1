"""The pure-Python reference solver (layer 2; standard library only).

Norvig-style constraint propagation on candidate bitmasks (bit ``d-1`` set when digit ``d``
is still possible) for any :class:`~sudokit.shape.Shape`, with minimum-remaining-values
search. Short enough to verify by reading; it is the oracle the C core is tested against.

Propagation repeats two rules until nothing changes:

* naked single: a cell with one candidate gets that digit, which leaves every peer;
* hidden single: a digit with one place left in a unit goes there.

A contradiction (a cell with no candidate, or a digit with no place in a unit) ends the
branch. Search picks an unsolved cell with the fewest candidates and tries each in
ascending order, on a copy of the state. Counting never stops before *limit* solutions or
the end of the tree, so ``count < limit`` proves there are exactly ``count`` solutions.

>>> from sudokit.shape import Shape
>>> count, sols, guesses, complete = search(Shape(2, 2), bytes(16), limit=1000, keep=0, budget=0)
>>> count, complete  # every 4x4 Sudoku grid
(288, True)
"""

from __future__ import annotations

from .shape import Shape

__all__ = ["search"]

_State = tuple[list[int], list[int]]  # (masks, values)


def _place(shape: Shape, state: _State, todo: list[tuple[int, int]]) -> bool:
    """Place every (cell, digit) in *todo* and all their consequences; False on contradiction."""
    masks, values = state
    peers, units, full = shape.peers, shape.units, (1 << shape.n) - 1
    while todo:
        while todo:
            cell, digit = todo.pop()
            if values[cell] == digit:
                continue
            bit = 1 << (digit - 1)
            if values[cell] or not masks[cell] & bit:
                return False
            values[cell] = digit
            masks[cell] = bit
            for p in peers[cell]:
                m = masks[p]
                if m & bit:
                    if values[p]:
                        return False
                    m &= ~bit
                    if not m:
                        return False
                    masks[p] = m
                    if not m & (m - 1):
                        todo.append((p, m.bit_length()))
        # Hidden singles and missing digits, one pass over the units.
        for unit in units:
            once = twice = placed = 0
            for i in unit:
                if values[i]:
                    placed |= masks[i]
                else:
                    m = masks[i]
                    twice |= once & m
                    once |= m
            if (once | placed) != full:
                return False
            single = once & ~twice & ~placed
            while single:
                bit = single & -single
                single ^= bit
                cell = next(i for i in unit if not values[i] and masks[i] & bit)
                todo.append((cell, bit.bit_length()))
    return True


def _start(shape: Shape, cells: bytes) -> _State | None:
    """The propagated state of the givens, or None when they contradict."""
    full = (1 << shape.n) - 1
    state = ([full] * shape.ncells, [0] * shape.ncells)
    givens = [(i, v) for i, v in enumerate(cells) if v]
    # Conflicting givens are caught here: the second copy of a digit finds it eliminated.
    if not _place(shape, state, givens):
        return None
    return state


def search(
    shape: Shape, cells: bytes, limit: int, keep: int, budget: int
) -> tuple[int, list[bytes], int, bool]:
    """Count the solutions of *cells* up to *limit*, keeping the first *keep* of them.

    Returns ``(count, solutions, guesses, complete)``: ``guesses`` counts the digits tried at
    branching cells; ``complete`` is False when more than *budget* guesses (0 = no bound)
    were needed, and then ``count`` is only a lower bound.
    """
    if len(cells) != shape.ncells or any(v > shape.n for v in cells):
        raise ValueError(f"expected {shape.ncells} cell values in 0..{shape.n}")
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    if budget < 0:
        raise ValueError(f"budget must be >= 0 (0 = unbounded), got {budget}")
    found: list[bytes] = []
    count = guesses = 0
    root = _start(shape, cells)
    stack: list[_State] = [] if root is None else [root]
    while stack:
        masks, values = stack.pop()
        open_cells = [i for i, v in enumerate(values) if not v]
        if not open_cells:
            count += 1
            if len(found) < keep:
                found.append(bytes(values))
            if count >= limit:
                break
            continue
        cell = min(open_cells, key=lambda i: masks[i].bit_count())
        m = masks[cell]
        digits = [d for d in range(1, shape.n + 1) if m >> (d - 1) & 1]
        # Push in reverse so the smallest digit is explored first (a stable search order).
        for digit in reversed(digits):
            guesses += 1
            child = (masks.copy(), values.copy())
            if _place(shape, child, [(cell, digit)]):
                stack.append(child)
        if budget and guesses > budget and stack:
            return count, found, guesses, False
    return count, found, guesses, True
