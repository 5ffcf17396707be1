"""Uniqueness techniques: Unique Rectangles types 1-4 and BUG+1 (layer 2).

They assume the puzzle has exactly one solution, so the path uses them only when that is known
(:mod:`sudokit.rating` proves it with the solver first).

A *deadly pattern*: four unsolved cells in two rows, two columns and two boxes that all hold the
candidates ``x`` and ``y``. If only ``x`` and ``y`` were left there, the two digits could be
swapped and the puzzle would have two solutions; so at least one of the *extra* candidates of
the rectangle must be true. SE 1.2.1 values: type 1 (one cell has extras: remove ``x`` and ``y``
from it) 4.5; type 2 (the cells with extras share one extra digit ``z``: remove ``z`` from every
cell seeing them all) 4.5; type 3 (the two extra cells form a naked set with other cells of a
shared unit) 4.5 + 0.1 x (set size - 1); type 4 (``x`` is confined to the two extra cells in a
shared unit: remove ``y`` from them) 4.5 (types 2 and 4 checked against SE-rated puzzles).
Unique *loops* (6, 8, ... cells, each unit holding two of them) work the same way; their base
value is 4.6 (6 cells), 4.7 (8) and 5.0 (10 or more, up to :data:`MAX_LOOP`).

BUG (SE 5.6+, see :func:`bug`): with their extra candidates removed, every unsolved cell would
have two candidates and every digit two places per unit, a "bivalue universal grave" with two
solutions; so an extra candidate is true.

>>> from sudokit.grid import Grid
>>> from sudokit.logic.candidates import CandidateGrid
>>> cg = CandidateGrid.from_grid(Grid.parse(
...     "2.9.4.8.7.7.9.......1.7...9...5.4..5...3.2...6..8.1...3...8.6.......3.4.8.3.1.9.2"))
>>> isinstance(list(unique_rectangle(cg)), list)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache, partial
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

from .. import _native
from ..shape import Shape
from ._delta import Delta, Since, incremental
from ._names import cell_list, digit_list, digit_name, elim_text
from .candidates import CandidateGrid, bits, unit_bits
from .candidates import peer_bits as _peer_bits
from .step import Step

if TYPE_CHECKING:
    from .. import _core

__all__ = ["bug_plus_one", "unique_rectangle"]


#: Longest unique loop searched (cells).
MAX_LOOP = 12


def _is_deadly(cg: CandidateGrid, loop: list[int]) -> bool:
    """Every unit holds either no cell of the loop or one cell of each parity, so swapping the
    two digits along the loop keeps every unit valid."""
    seen: dict[int, int] = {}
    cell_units = cg.shape.cell_units
    for i, c in enumerate(loop):
        bit = 1 << (i & 1)
        for u in cell_units[c]:
            got = seen.get(u, 0)
            if got & bit:
                return False
            seen[u] = got | bit
    return all(v == 3 for v in seen.values())


def loops(cg: CandidateGrid, delta: Delta | None = None) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every unique loop: an even cycle of unsolved cells that all hold the two digits of the
    pattern mask, consecutive cells sharing a unit (of alternating kinds), starting from a cell
    with exactly those two candidates, at most two cells with extra candidates (more only when
    they all share the same single extra digit), and deadly (see :func:`_is_deadly`). Yields
    ``(cells in loop order, mask)``, each loop once.

    With *delta* (see :mod:`._delta`) only the loops of the digit pairs whose cells changed, or
    whose room (:func:`_room`: it depends only on those cells) has a changed peer: what the
    loops' steps find is decided by the candidates of the room's cells and of their peers."""
    shape = cg.shape
    masks = cg.masks
    units = shape.units
    kinds = shape.unit_kinds
    cell_units = shape.cell_units
    found: set[tuple[frozenset[int], int]] = set()

    cells = 0  # the cells the walk may visit (see _room)

    def walk(path: list[int], pm: int, last: str, allowed: int, extra: int) -> Iterator[list[int]]:
        cell = path[-1]
        for u in cell_units[cell]:
            if kinds[u] == last:
                continue
            for nxt in units[u]:
                if nxt == path[0] and len(path) >= 4 and not len(path) & 1:
                    yield list(path)
                elif cells >> nxt & 1 and nxt not in path and len(path) < MAX_LOOP:
                    more = masks[nxt] & ~pm
                    new_extra = extra | more
                    if not more or new_extra.bit_count() == 1 or allowed > 0:
                        path.append(nxt)
                        yield from walk(path, pm, kinds[u], allowed - (1 if more else 0), new_extra)
                        path.pop()

    with_digit = [0] * shape.n  # the cells holding each digit (index digit - 1)
    for c, m in enumerate(masks):
        while m:
            low = m & -m
            m ^= low
            with_digit[low.bit_length() - 1] |= 1 << c
    room: dict[int, int] = {}
    near = 0  # the changed cells and their peers
    held_masks: set[int] = set()  # the masks the changed cells had
    if delta is not None:
        peer_bits = _peer_bits(shape)
        rest = near = delta.cells
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            near |= peer_bits[c]
            held_masks.add(delta.before[c])
    for start, m in enumerate(masks):
        if m.bit_count() != 2:
            continue
        got = room.get(m)
        if got is None:
            x, y = bits(m)
            both = with_digit[x - 1] & with_digit[y - 1]
            got = _room(shape, both)
            if (
                delta is not None
                and not got & near
                and not both & delta.cells
                and all(h & m != m for h in held_masks)
            ):
                got = 0  # no cell holding both digits changed, nor a peer of their room
            room[m] = got
        if not got >> start & 1:
            continue
        cells = got
        for loop in walk([start], m, "", 2, 0):
            key = (frozenset(loop), m)
            if key in found or not _is_deadly(cg, loop):
                continue
            found.add(key)
            yield tuple(loop), m


def _room(shape: Shape, cells: int) -> int:
    """The cells of *cells* (a bit set) that can be in a deadly loop made of them: in a deadly
    loop each unit of a cell holds another cell of the loop (:func:`_is_deadly`), so a cell
    with a unit holding no other such cell is dropped, until none is. A pre-check: the walk
    from a start outside the result, or through a cell outside it, finds no deadly loop."""
    ubits = unit_bits(shape)
    cell_units = shape.cell_units
    dropped = True
    while dropped:
        dropped = False
        rest = cells
        while rest:
            low = rest & -rest
            rest ^= low
            for u in cell_units[low.bit_length() - 1]:
                if not ubits[u] & cells & ~low:
                    cells ^= low
                    dropped = True
                    break
    return cells


def loop_rating(length: int) -> float:
    """SE's base value of a unique rectangle (4 cells, 4.5) or loop (6: 4.6, 8: 4.7, 10+: 5.0).

    >>> [loop_rating(k) for k in (4, 6, 8, 10, 12)]
    [4.5, 4.6, 4.7, 5.0, 5.0]
    """
    if length >= 10:
        return 5.0
    if length >= 8:
        return 4.7
    if length >= 6:
        return 4.6
    return 4.5


def _common_units(cg: CandidateGrid, cells: Sequence[int]) -> list[int]:
    """The units that hold every one of *cells*, ascending."""
    cu = cg.shape.cell_units
    common = set(cu[cells[0]])
    for c in cells[1:]:
        common.intersection_update(cu[c])
    return sorted(common)


#: The last state the unique rectangle finder found nothing on (see :mod:`._delta`).
_SINCE = Since()


def unique_rectangle(cg: CandidateGrid) -> Iterator[Step]:
    """Unique Rectangles types 1 to 4 (SE 4.5-4.8), easiest first."""
    return incremental(_SINCE, _sorted_ur_steps, cg)


def _sorted_ur_steps(cg: CandidateGrid, delta: Delta | None) -> Iterator[Step]:
    steps = list(_ur_steps(cg, delta))
    steps.sort(key=lambda s: s.rating)
    return iter(steps)


def _ur_steps(cg: CandidateGrid, delta: Delta | None = None) -> Iterator[Step]:
    """The steps of :func:`_ur_finds` (found by the C core when it is there: same finds, same
    order), each made a :class:`Step` with its text."""
    core = _c_uniq(cg.shape)
    if core is None:
        finds: Iterable[_Find] = _ur_finds(cg, delta)
    else:
        if delta is None:
            raw = core.steps(cg.masks, None, None)
        else:
            nbytes = (cg.shape.ncells + 7) // 8
            raw = core.steps(cg.masks, delta.cells.to_bytes(nbytes, "little"), delta.before)
        finds = map(_Find._make, raw)
    for f in finds:
        yield _BUILD[f.kind](cg, f)


class _Find(NamedTuple):
    """One unique rectangle/loop step as found, before its text: the loop's *cells* (loop
    order) and digits *pm*; its *kind* (1..4; *hidden* 1 for a type 3 with a hidden set);
    *bonus* tenths on the loop's rating; the *unit* (types 3 and 4, else -1); the *group*
    (type 1: the extra cell; type 2: the extra cells; type 3: the set's other cells; type 4:
    the two extra cells) and *digits* (type 2: the extra digit; type 3: the set's digits;
    type 4: the digit kept), as masks; the eliminations *elims*. The C core
    (``_core.Uniq.steps``, csrc/sk_uniq.c) gives the same tuples."""

    cells: tuple[int, ...]
    pm: int
    kind: int
    hidden: int
    bonus: int
    unit: int
    group: tuple[int, ...]
    digits: int
    elims: tuple[tuple[int, int], ...]


class _Rect(NamedTuple):
    """A loop (*cells*, digits *pm*) with exactly two cells holding other digits: those
    *extra_cells*, the other digits they hold (*extra_union*, a mask) and the units they both
    belong to (*shared*); what types 3 and 4 look at."""

    cells: tuple[int, ...]
    pm: int
    extra_cells: tuple[int, int]
    extra_union: int
    shared: list[int]


def _ur_finds(cg: CandidateGrid, delta: Delta | None = None) -> Iterator[_Find]:
    """Every unique rectangle/loop step: type 1 when one cell has extra candidates, else types
    2, 4 and 3 (the last two only with two extra cells); only of the loops :func:`loops`
    gives for *delta*."""
    for cells, pm in loops(cg, delta):
        extras = [c for c in cells if cg.masks[c] & ~pm]
        if len(extras) == 1:
            x, y = bits(pm)
            e = extras[0]
            yield _Find(cells, pm, 1, 0, 0, -1, (e,), 0, ((e, x), (e, y)))
            continue
        if not extras:
            continue
        extra_union = 0
        for c in extras:
            extra_union |= cg.masks[c] & ~pm
        yield from _ur_type2(cg, cells, pm, extras, extra_union)
        if len(extras) != 2:
            continue
        e1, e2 = extras
        rect = _Rect(cells, pm, (e1, e2), extra_union, _common_units(cg, extras))
        yield from _ur_type4(cg, rect)
        # type 3: the extra digits of e1 and e2 act as one cell in a naked or hidden set of a
        # unit they share. SE's limits, kept exactly: the set's degree starts at the number of
        # extra digits and stops below n - 1 (7 on 9x9); a naked set needs 2 x degree <= the
        # unit's empty cells, a hidden set 2 x degree < them.
        if extra_union.bit_count() >= 2:
            yield from _ur_type3(cg, rect)


@lru_cache(maxsize=64)
def _c_uniq_for(shape: Shape) -> _core.Uniq:
    """The C core's finders for *shape* (made once per shape; unit kinds become small ints),
    whether it serves or not (:func:`sudokit._native.require`)."""
    kinds: dict[str, int] = {}
    return _native.require().Uniq(
        shape.n,
        shape.units,
        shape.cell_units,
        [kinds.setdefault(k, len(kinds)) for k in shape.unit_kinds],
        shape.peers,
    )


#: The last answer of :func:`_c_uniq`: (shape, finders). A Shape hashes slowly and every state
#: asks for its shape's finders twice; one record, replaced in one assignment, so threads can
#: only miss it.
_LAST: tuple[Shape, _core.Uniq] | None = None


def _c_uniq(shape: Shape) -> _core.Uniq | None:
    """The C core's finders for *shape* (``_core.Uniq``, csrc/sk_uniq.h), or None when the core
    does not serve (then this module's code, their specification, runs) or the shape has more
    than 64 digits."""
    global _LAST
    if _native.core() is None or shape.n > 64:
        return None
    last = _LAST
    if last is not None and last[0] is shape:
        return last[1]
    found = _c_uniq_for(shape)
    _LAST = (shape, found)
    return found


def _loop(cg: CandidateGrid, cells: tuple[int, ...], pm: int) -> _Loop:
    """The rectangle/loop of *cells* with the digits of *pm*: its pattern and its text."""
    shape = cg.shape
    x, y = bits(pm)
    xn, yn = digit_name(shape, x), digit_name(shape, y)
    kind = "rectangle" if len(cells) == 4 else "loop"
    text = (
        f"The cells {cell_list(shape, cells)} form a {kind} that all hold {xn} and {yn}, "
        f"each unit it touches holding two of them. If none of them had another option, "
        f"{xn} and {yn} could be swapped and the puzzle would have two solutions"
    )
    return _Loop(cells, tuple((c, d) for c in cells for d in (x, y)), text, loop_rating(len(cells)))


def _ur_type1_step(cg: CandidateGrid, f: _Find) -> Step:
    """Type 1: the one cell with extra candidates loses the loop's digits."""
    shape = cg.shape
    x, y = bits(f.pm)
    xn, yn = digit_name(shape, x), digit_name(shape, y)
    why = (
        f"; so {shape.cell_name(f.group[0])} must be one of its other candidates "
        f"and {xn} and {yn} are removed from it."
    )
    return _step(cg, f, why)


def _ur_type2(
    cg: CandidateGrid, cells: tuple[int, ...], pm: int, extras: list[int], extra_union: int
) -> Iterator[_Find]:
    """Type 2: every extra cell has the same one extra digit z; z leaves every cell seeing
    them all."""
    shape = cg.shape
    masks = cg.masks
    if extra_union.bit_count() != 1 or any(masks[c] & ~pm != extra_union for c in extras):
        return
    z = extra_union.bit_length()
    common = set(shape.peers[extras[0]])
    for c in extras[1:]:
        common.intersection_update(shape.peers[c])
    elims = tuple((c, z) for c in sorted(common) if masks[c] & extra_union)
    if elims:
        yield _Find(cells, pm, 2, 0, 0, -1, tuple(extras), extra_union, elims)


def _ur_type2_step(cg: CandidateGrid, f: _Find) -> Step:
    shape = cg.shape
    zn = digit_name(shape, f.digits.bit_length())
    why = (
        f"; so one of {cell_list(shape, f.group, 'or')} is {zn}, and {zn} "
        f"is removed from every cell that sees them all: {elim_text(shape, f.elims)}."
    )
    return _step(cg, f, why)


def _ur_type4(cg: CandidateGrid, rect: _Rect) -> Iterator[_Find]:
    """Type 4: one loop digit is confined to the two extra cells in a unit they share; the
    other leaves both."""
    cells, pm, extra_cells, _, shared = rect
    e1, e2 = extra_cells
    x, y = bits(pm)
    for u in shared:
        for keep, drop in ((x, y), (y, x)):
            if sorted(cg.cells_with(u, keep)) != sorted(extra_cells):
                continue
            elims = ((e1, drop), (e2, drop))
            yield _Find(cells, pm, 4, 0, 0, u, extra_cells, 1 << (keep - 1), elims)


def _ur_type4_step(cg: CandidateGrid, f: _Find) -> Step:
    shape = cg.shape
    e1, e2 = f.group
    keep = f.digits.bit_length()
    drop = (f.pm & ~f.digits).bit_length()
    kn, dn = digit_name(shape, keep), digit_name(shape, drop)
    why = (
        f". In {shape.unit_name(f.unit)} the {kn} can only go in "
        f"{shape.cell_name(e1)} or {shape.cell_name(e2)}, so one of them is "
        f"{kn}; if either were {dn} the rectangle would be deadly, so {dn} "
        f"is removed from both."
    )
    return _step(cg, f, why)


def _ur_type3(cg: CandidateGrid, rect: _Rect) -> Iterator[_Find]:
    """Unique rectangle/loop type 3 steps of *rect*, in the units its extra cells share: naked
    sets first, then hidden ones."""
    degrees = range(rect.extra_union.bit_count(), cg.shape.n - 1)
    for u in rect.shared:
        yield from _ur_type3_naked(cg, rect, u, degrees)
    for u in rect.shared:
        yield from _ur_type3_hidden(cg, rect, u, degrees)


def _ur_type3_naked(cg: CandidateGrid, rect: _Rect, u: int, degrees: range) -> Iterator[_Find]:
    """Type 3 with a naked set: the extra cells count as one cell holding *extra_union*; with
    ``degree - 1`` other cells of unit *u* they hold *degree* digits, which leave the rest."""
    shape = cg.shape
    masks = cg.masks
    cells, pm, extra_cells, extra_union, _ = rect
    e1, e2 = extra_cells
    # Digits of the naked set that e1 and e2 vouch for together: an extra digit held by only
    # one of them must also be held by another cell of the set (SE's second cardinality test).
    both_extra = extra_union & masks[e1] & masks[e2]
    empty = [c for c in shape.units[u] if masks[c]]
    others = [c for c in empty if c not in extra_cells]
    for degree in degrees:
        if 2 * degree > len(empty):
            break
        for combo in combinations(others, degree - 1):
            if any(masks[c].bit_count() < 2 for c in combo):
                continue
            combo_union = 0
            for c in combo:
                combo_union |= masks[c]
            union = extra_union | combo_union
            if union.bit_count() != degree or both_extra | combo_union != union:
                continue
            elims = tuple((c, d) for c in others if c not in combo for d in bits(masks[c] & union))
            if elims:
                yield _Find(cells, pm, 3, 0, degree - 1, u, combo, union, elims)


def _ur_type3_hidden(cg: CandidateGrid, rect: _Rect, u: int, degrees: range) -> Iterator[_Find]:
    """Type 3 with a hidden set: the extra cells give unit *u* at most one of the loop's
    digits, so they count as one cell in a hidden set made of those digits and ``degree - 2``
    other digits that are not extras; the set's cells lose their other candidates."""
    shape = cg.shape
    masks = cg.masks
    cells, pm, extra_cells, extra_union, _ = rect
    pm_extra = pm | extra_union
    free = [d for d in range(1, shape.n + 1) if not pm_extra >> (d - 1) & 1]
    empty = [c for c in shape.units[u] if masks[c]]
    rest = [c for c in empty if c not in extra_cells]
    for degree in degrees:
        if 2 * degree >= len(empty):
            break
        for extra_digits in combinations(free, degree - 2):
            hidden = pm
            for d in extra_digits:
                hidden |= 1 << (d - 1)
            spots = [c for c in rest if masks[c] & hidden]
            if len(spots) != degree - 1:
                continue
            if any(not any(masks[c] >> (d - 1) & 1 for c in spots) for d in extra_digits):
                continue
            elims = tuple((c, d) for c in spots for d in bits(masks[c] & ~hidden))
            if elims:
                yield _Find(cells, pm, 3, 1, degree - 2, u, tuple(spots), hidden, elims)


def _ur_type3_step(cg: CandidateGrid, f: _Find) -> Step:
    shape = cg.shape
    masks = cg.masks
    e1, e2 = (c for c in f.cells if masks[c] & ~f.pm)
    unit = shape.unit_name(f.unit)
    if f.hidden:
        xn, yn = (digit_name(shape, v) for v in bits(f.pm))
        why = (
            f"; so {shape.cell_name(e1)} and {shape.cell_name(e2)} "
            f"hold at most one of {xn} and {yn}. In {unit} the digits "
            f"{digit_list(shape, bits(f.digits))} must then go in these two cells and "
            f"{cell_list(shape, f.group)}, so {elim_text(shape, f.elims)}."
        )
    else:
        extra_union = (masks[e1] | masks[e2]) & ~f.pm
        why = (
            f"; so one of {shape.cell_name(e1)} and "
            f"{shape.cell_name(e2)} holds one of "
            f"{digit_list(shape, bits(extra_union), 'or')}. "
            f"Together with {cell_list(shape, f.group)} they form a naked set of "
            f"{digit_list(shape, bits(f.digits))} in {unit}, so "
            f"{elim_text(shape, f.elims)}."
        )
    return _step(cg, f, why)


#: The step of each kind of find (by _Find.kind).
_BUILD = {1: _ur_type1_step, 2: _ur_type2_step, 3: _ur_type3_step, 4: _ur_type4_step}


class _Loop(NamedTuple):
    """A unique rectangle or loop: its cells, its candidates (x and y in each cell), the
    text that introduces it and its base rating (:func:`loop_rating`)."""

    cells: tuple[int, ...]
    pattern: tuple[tuple[int, int], ...]
    text: str
    rating: float


def _step(cg: CandidateGrid, f: _Find, why: str) -> Step:
    """The step of find *f* (*why* completes its loop's text)."""
    ur = _loop(cg, f.cells, f.pm)
    name = "Unique Rectangle" if len(ur.cells) == 4 else "Unique Loop"
    return Step(
        f"{name} type {f.kind}",
        round(ur.rating + 0.1 * f.bonus, 1),
        eliminations=f.elims,
        text=ur.text + why,
        cells=ur.cells,
        highlights=ur.pattern,
        size=cg.shape.n,
    )


def _bug_extras(cg: CandidateGrid) -> dict[int, int] | None:
    """The BUG cells of :func:`bug` and their extra digits (masks), or None when the grid is
    no BUG pattern: :func:`_bug_extras_py`, by the C core when it is there."""
    core = _c_uniq(cg.shape)
    if core is None:
        return _bug_extras_py(cg)
    return core.bug_extras(cg.masks)


def _bug_extras_py(cg: CandidateGrid) -> dict[int, int] | None:
    """The BUG cells and their extra digits (the specification of ``_core.Uniq.bug_extras``).
    Per unit, the digits by number of places are read with a few bit
    operations (the plain reading, a list of places per unit and digit, is the reference in
    tests/test_rating_fast.py)."""
    shape = cg.shape
    masks = cg.masks
    extra: dict[int, int] = {}
    for unit in shape.units:
        # the digits with one, two, three or more places, and with places in one cell of
        # three or more candidates (a "big" cell), with more than one
        once = twice = more = big = bigs = 0
        for c in unit:
            m = masks[c]
            more |= twice & m
            twice |= once & m
            once |= m
            if m.bit_count() >= 3:
                bigs |= big & m
                big |= m
        odd = once & ~(twice & ~more)  # not zero or two places
        if odd & ~big:
            return None  # such a digit needs a big cell
        lone = odd & ~bigs
        while lone:
            bit = lone & -lone
            lone ^= bit
            cell = next(c for c in unit if masks[c] & bit and masks[c].bit_count() >= 3)
            extra[cell] = extra.get(cell, 0) | bit
    if not extra:
        return None
    temp = list(masks)
    for c, e in extra.items():
        temp[c] &= ~e
    if any(m and m.bit_count() != 2 for m in temp):
        return None
    for unit in shape.units:  # every digit has now zero or two places in every unit
        once = twice = more = 0
        for c in unit:
            m = temp[c]
            more |= twice & m
            twice |= once & m
            once |= m
        if once & ~(twice & ~more):
            return None
    return extra


def bug(cg: CandidateGrid) -> Iterator[Step]:
    """Bivalue Universal Grave, types 1 to 4 (SE 5.6-5.9+).

    Find the *BUG cells*: in each unit a digit must have zero or two places; where it has more,
    exactly one of its cells must have three or more candidates, and that digit is an extra
    digit of that cell. Without their extra digits every unsolved cell must have two
    candidates and every digit two places per unit: a pattern with two solutions, so at least
    one BUG cell holds one of its extra digits. Type 1 (one BUG cell, 5.6): it holds one of its
    extra digits. Type 2 (several cells, one extra digit ``z``, 5.7): ``z`` goes from every cell
    that sees them all. Type 3 (5.7 + 0.1 x (set size - 1)): the extra digits form a naked set
    with other cells of a unit the BUG cells share. Type 4 (two BUG cells in one unit sharing one
    other digit, 5.7): each keeps only its extra digits and that digit.
    """
    shape = cg.shape
    masks = cg.masks
    peers = shape.peers
    extra = _bug_extras(cg)
    if extra is None:
        return
    cells = sorted(extra)
    step = partial(Step, cells=tuple(cells), size=shape.n)
    all_extra = 0
    for e in extra.values():
        all_extra |= e
    common = set(peers[cells[0]])
    for c in cells[1:]:
        common.intersection_update(peers[c])
    common.difference_update(cells)
    names = cell_list(shape, cells)
    intro = (
        f"Without their extra candidates ({_extras_text(shape, extra)}), every unsolved cell "
        f"would have two candidates and every digit two places in each unit: a pattern with two "
        f"solutions. So one of {cell_list(shape, cells, 'or')} holds an extra candidate"
    )
    if len(cells) == 1:
        c = cells[0]
        digits = bits(extra[c])
        if len(digits) == 1:
            yield step(
                "BUG+1",
                5.6,
                text=intro + f": {names} is {digit_name(shape, digits[0])}.",
                placements=((c, digits[0]),),
            )
        else:
            elims = tuple((c, d) for d in bits(masks[c] & ~extra[c]))
            yield step(
                "BUG type 1",
                5.6,
                text=intro + f"; so {elim_text(shape, elims)}.",
                eliminations=elims,
            )
        return
    if all_extra.bit_count() == 1:
        z = all_extra.bit_length()
        elims = tuple((c, z) for c in sorted(common) if masks[c] & all_extra)
        zn = digit_name(shape, z)
        if elims:
            yield step(
                "BUG type 2",
                5.7,
                text=intro
                + f", which is {zn} in each: {zn} is removed from every cell that sees them "
                f"all: {elim_text(shape, elims)}.",
                eliminations=elims,
            )
    units = _common_units(cg, cells)
    if len(cells) == 2:
        c1, c2 = cells
        other = masks[c1] & masks[c2] & ~all_extra
        if other.bit_count() == 1:
            v = other.bit_length()
            vn = digit_name(shape, v)
            elims = tuple((c, d) for c in cells for d in bits(masks[c] & ~extra[c] & ~other))
            if elims and units:
                yield step(
                    "BUG type 4",
                    5.7,
                    text=intro
                    + f"; they share {shape.unit_name(units[0])} and the digit {vn}, so each "
                    f"is one of its extra candidates or {vn}: {elim_text(shape, elims)}.",
                    eliminations=elims,
                )
    if all_extra.bit_count() < 2:
        return
    for u in units:
        region = [c for c in shape.units[u] if c in common and masks[c]]
        for size in range(1, min(5, len(region)) + 1):
            for combo in combinations(region, size):
                union = 0
                for c in combo:
                    union |= masks[c]
                if union.bit_count() != size + 1 or any(masks[c].bit_count() < 2 for c in combo):
                    continue
                if all_extra & ~union:
                    continue
                elims = tuple(
                    (c, d) for c in region if c not in combo for d in bits(masks[c] & union)
                )
                if elims:
                    yield step(
                        "BUG type 3",
                        round(5.7 + 0.1 * size, 1),
                        text=intro + f"; with {cell_list(shape, combo)} that makes a naked set of "
                        f"{digit_list(shape, bits(union))} in {shape.unit_name(u)}: "
                        f"{elim_text(shape, elims)}.",
                        eliminations=elims,
                    )


def _extras_text(shape: Shape, extra: dict[int, int]) -> str:
    return "; ".join(
        f"{digit_list(shape, bits(e), 'or')} in {shape.cell_name(c)}"
        for c, e in sorted(extra.items())
    )


def bug_plus_one(cg: CandidateGrid) -> Iterator[Step]:
    """The BUG steps, easiest first (registered as "BUG")."""
    steps = list(bug(cg))
    steps.sort(key=lambda s: s.rating)
    return iter(steps)
