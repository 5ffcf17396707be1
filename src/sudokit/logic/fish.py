"""Fish: X-Wing, Swordfish, Jellyfish and their finned forms (layer 2).

For one digit, when in ``k`` rows (the *base*) it can only go in the same ``k`` columns (the
*cover*), those ``k`` rows take the digit in those ``k`` columns, so it is removed from the rest
of the cover columns; the same with rows and columns swapped. SE 1.2.1 values: X-Wing 3.2,
Swordfish 3.8, Jellyfish 5.2.

*Finned* fish (not in SE; rated 4.3, 4.6 and 5.4, after the single-digit patterns that many
finned X-Wings also are, such as the Skyscraper): some extra base candidates (the
*fins*) all lie in one box. Either a fin holds the digit, and it sees its whole box, or the fish
is a basic fish; the cover cells inside the fins' box outside the base lose the digit either way.
Rows and columns exist in every shape, so fish work on every shape.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> cg = CandidateGrid.from_grid(Grid.parse(
...     "1.....569492.561.8.561.924...964.8.1.64.1....218.356.4.4.5...169.5.614.2621.....5"))
>>> next(iter(x_wing(cg))).technique
'X-Wing'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import combinations

from . import _human
from ._bits import bit_indices, bit_set, locked_sets
from ._delta import Delta, Since, by_digits, changed_digits
from ._names import cell_list, digit_name, join_words
from .candidates import CandidateGrid, bits
from .step import Step, named_finder

__all__ = [
    "finned_jellyfish",
    "finned_swordfish",
    "finned_x_wing",
    "jellyfish",
    "swordfish",
    "x_wing",
]

_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
BASIC_RATING = {2: 3.2, 3: 3.8, 4: 5.2}
FINNED_RATING = {2: 4.3, 3: 4.6, 4: 5.4}


def _lines(cg: CandidateGrid, digit: int, by_rows: bool) -> list[int]:
    """For each row (or column), the mask of columns (rows) where *digit* can go."""
    n = cg.shape.n
    masks = cg.masks
    bit = 1 << (digit - 1)
    out = [0] * n
    for cell in range(n * n):
        if masks[cell] & bit:
            r, c = divmod(cell, n)
            if by_rows:
                out[r] |= 1 << c
            else:
                out[c] |= 1 << r
    return out


def _cell(n: int, line: int, cross: int, by_rows: bool) -> int:
    return line * n + cross if by_rows else cross * n + line


#: The last state each basic fish finder (by size) found nothing on (see :mod:`._delta`).
_SINCE = {k: Since() for k in _NAMES}


def _basic(cg: CandidateGrid, k: int) -> Iterator[Step]:
    """The steps of :func:`_basic_search`, from the C core's search when there is one, else
    for the digits whose places changed since the last state where it found nothing (a fish
    of digit d is decided by the places of d alone)."""
    return _human.steps(cg, _human.FISH, k, _basic_step, _SINCE[k], _basic_search)


def _basic_elims(
    cg: CandidateGrid, d: int, by_rows: bool, base: tuple[int, ...], cover: list[int]
) -> tuple[tuple[int, int], ...]:
    """The places of *d* in the *cover* lines (1-based) outside the *base* lines."""
    n = cg.shape.n
    masks = cg.masks
    bit = 1 << (d - 1)
    return tuple(
        (cell, d)
        for x in cover
        for line in range(n)
        if line not in base
        for cell in (_cell(n, line, x - 1, by_rows),)
        if masks[cell] & bit
    )


def _basic_hits(
    cg: CandidateGrid, delta: Delta | None, k: int
) -> Iterator[tuple[int, bool, int, int]]:
    """(digit, by_rows, base lines, cover lines) of every basic fish of size *k* that
    eliminates something (line sets as bit masks); only the digits changed in *delta*."""
    n = cg.shape.n
    digits = range(1, n + 1) if delta is None else bits(changed_digits(cg, delta))
    for d in digits:
        for by_rows in (True, False):
            lines = _lines(cg, d, by_rows)
            eligible = [i for i in range(n) if 2 <= lines[i].bit_count() <= k]
            for base, union in locked_sets(lines, eligible, k):
                if _basic_elims(cg, d, by_rows, base, bits(union)):
                    yield d, by_rows, bit_set(base), union


def _basic_step(cg: CandidateGrid, k: int, hit: tuple[int, bool, int, int]) -> Step:
    d, by_rows, base_lines, union = hit
    base = tuple(bit_indices(base_lines))
    cover = bits(union)  # 1-based cross indices
    elims = _basic_elims(cg, d, bool(by_rows), base, cover)
    return _fish_step(cg, _NAMES[k], BASIC_RATING[k], d, bool(by_rows), base, cover, (), elims)


def _basic_search(cg: CandidateGrid, delta: Delta | None, k: int) -> Iterator[Step]:
    for hit in _basic_hits(cg, delta, k):
        yield _basic_step(cg, k, hit)


def _fish_step(
    cg: CandidateGrid,
    name: str,
    rating: float,
    d: int,
    by_rows: bool,
    base: tuple[int, ...],
    cover: list[int],
    fins: tuple[int, ...],
    elims: tuple[tuple[int, int], ...],
) -> Step:
    shape = cg.shape
    n = shape.n
    bit = 1 << (d - 1)
    base_kind, cover_kind = ("rows", "columns") if by_rows else ("columns", "rows")
    base_names = join_words([str(i + 1) for i in base])
    cover_names = join_words([str(x) for x in cover])
    cells = tuple(
        c for i in base for x in range(n) for c in (_cell(n, i, x, by_rows),) if cg.masks[c] & bit
    )
    removed = cell_list(shape, [c for c, _ in elims])
    dn = digit_name(shape, d)
    if fins:
        box = shape.box_of[fins[0]]
        text = (
            f"{name} on {dn}: in {base_kind} {base_names} the {dn} can only go in {cover_kind} "
            f"{cover_names}, apart from the fin{'s' if len(fins) > 1 else ''} "
            f"{cell_list(shape, fins)} in box {box + 1}. Either a fin is {dn}, or the {base_kind} "
            f"take their {dn}s in those {cover_kind}; both ways {removed} cannot be {dn}."
        )
    else:
        text = (
            f"{name} on {dn}: in {base_kind} {base_names} the {dn} can only go in {cover_kind} "
            f"{cover_names}, so those {cover_kind} get their {dn} in these {base_kind} and {dn} "
            f"is removed from the rest of {cover_kind} {cover_names} ({removed})."
        )
    units = tuple((i if by_rows else n + i) for i in base)
    units += tuple(((x - 1 + n) if by_rows else x - 1) for x in cover)
    return Step(
        name,
        rating,
        eliminations=elims,
        text=text,
        cells=cells,
        units=units,
        highlights=tuple((c, d) for c in cells),
        size=n,
    )


def _finned(cg: CandidateGrid, digits: Sequence[int], k: int) -> Iterator[Step]:
    """The finned fish of size *k* of the *digits*, in order."""
    return map(partial(_finned_step, cg, k), _finned_hits(cg, digits, k))


def _finned_hits(
    cg: CandidateGrid, digits: Sequence[int], k: int
) -> Iterator[tuple[int, bool, int, int]]:
    """(digit, by_rows, base lines, cover lines) of every finned fish of size *k* of the
    *digits* that eliminates something (line sets as bit masks, 0-based)."""
    n = cg.shape.n
    box_of = cg.shape.box_of
    for d in digits:
        for by_rows in (True, False):
            lines = _lines(cg, d, by_rows)
            eligible = [i for i in range(n) if 0 < lines[i].bit_count() <= k + 2]
            for base in combinations(eligible, k):
                union = 0
                for i in base:
                    union |= lines[i]
                size = union.bit_count()
                if size <= k or size > k + 2:
                    continue
                for cover_idx in combinations(bits(union), k):
                    cover_mask = 0
                    for x in cover_idx:
                        cover_mask |= 1 << (x - 1)
                    fins = _fins(n, box_of, lines, base, cover_mask, by_rows)
                    if fins and _finned_elims(cg, d, by_rows, base, cover_idx, box_of[fins[0]]):
                        yield d, by_rows, bit_set(base), cover_mask


def _finned_elims(
    cg: CandidateGrid,
    d: int,
    by_rows: bool,
    base: tuple[int, ...],
    cover_idx: tuple[int, ...],
    box: int,
) -> tuple[tuple[int, int], ...]:
    """The places of *d* in the fins' *box* in the cover lines (1-based) outside the base."""
    shape = cg.shape
    n = shape.n
    masks = cg.masks
    bit = 1 << (d - 1)
    return tuple(
        (c, d)
        for c in shape.units[shape.box_units[box]]
        if masks[c] & bit
        and (c % n if by_rows else c // n) + 1 in cover_idx
        and (c // n if by_rows else c % n) not in base
    )


def _finned_step(cg: CandidateGrid, k: int, hit: tuple[int, bool, int, int]) -> Step:
    d, by_rows, base_lines, cover_mask = hit
    by_rows = bool(by_rows)
    n = cg.shape.n
    box_of = cg.shape.box_of
    base = tuple(bit_indices(base_lines))
    cover_idx = tuple(x + 1 for x in bit_indices(cover_mask))
    fins = _fins(n, box_of, _lines(cg, d, by_rows), base, cover_mask, by_rows)
    elims = _finned_elims(cg, d, by_rows, base, cover_idx, box_of[fins[0]])
    name = f"Finned {_NAMES[k]}"
    return _fish_step(cg, name, FINNED_RATING[k], d, by_rows, base, list(cover_idx), fins, elims)


#: The finned fish finders by size: a finned fish of digit d is decided by the places of d
#: alone, so each searches only the digits whose places changed since it last found nothing.
_FINNED = {k: by_digits(partial(_finned, k=k)) for k in _NAMES}


def _finned_steps(cg: CandidateGrid, k: int) -> Iterator[Step]:
    """The finned fish of size *k*: from the C core's search where it serves (every digit),
    else from the Python search of the digits changed since it last found nothing."""
    table = _human.core(cg)
    if table is not None:
        hits = _human.lazy_hits(table, _human.FINNED_FISH, k, cg.masks)
        return map(partial(_finned_step, cg, k), hits)
    return _FINNED[k](cg)


def _fins(
    n: int,
    box_of: tuple[int, ...],
    lines: list[int],
    base: tuple[int, ...],
    cover_mask: int,
    by_rows: bool,
) -> tuple[int, ...]:
    """The base cells outside the cover when they all lie in one box, else ()."""
    fins: list[int] = []
    box = -1
    for i in base:
        extra = lines[i] & ~cover_mask
        while extra:
            low = extra & -extra
            extra ^= low
            x = low.bit_length() - 1
            c = i * n + x if by_rows else x * n + i
            b = box_of[c]
            if box < 0:
                box = b
            elif b != box:
                return ()
            fins.append(c)
    return tuple(fins)


def _fish(k: int, finned: bool) -> Callable[[CandidateGrid], Iterator[Step]]:
    """The finder of the (finned) fish of size *k*, named and rated by the tables."""
    name = _NAMES[k]
    plural = name if name.endswith("fish") else name + "s"
    ident = name.lower().replace("-", "_")
    if finned:
        doc = f"Finned (and sashimi) {plural} (not in SE; rated {FINNED_RATING[k]})."
        return named_finder(f"finned_{ident}", doc, _finned_steps, k)
    return named_finder(ident, f"{plural} (SE {BASIC_RATING[k]}).", _basic, k)


x_wing, swordfish, jellyfish = (_fish(k, False) for k in _NAMES)
finned_x_wing, finned_swordfish, finned_jellyfish = (_fish(k, True) for k in _NAMES)
