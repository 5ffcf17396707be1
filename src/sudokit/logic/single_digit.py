"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle and Simple
Colouring (layer 2).

None of these is in Sudoku Explainer (it finds the same eliminations as X-chains, 6.5+); they are
what people learn and make better hints, so they get SE-comparable values below the wings:
Skyscraper 4.0, 2-String Kite 4.1, Turbot Fish 4.2, Empty Rectangle 4.3, Simple Colouring 4.5.
The SE-comparable rating of a puzzle does not use them.

A *strong link* on a digit is a unit where it has exactly two places: one of them is the digit.
Two strong links ``a=b`` and ``c=e`` joined by ``b`` seeing ``c`` (a *weak link*) prove that
``a`` or ``e`` is the digit, so every cell that sees both ``a`` and ``e`` loses it: a Skyscraper
when both links are parallel lines, a 2-String Kite when a row link and a column link meet in a
box, a Turbot Fish otherwise. Work on every shape (rows, columns and boxes come from the shape).

>>> from sudokit.shape import Shape
>>> from sudokit.logic.candidates import CandidateGrid
>>> masks = [0b111111111] * 81
>>> for cell in range(81):
...     if cell // 9 in (0, 4) and cell % 9 not in (1, 6, 7):   # 1 only in r1c2 r1c7, r5c2 r5c8
...         masks[cell] &= ~1
>>> masks[7] &= ~1; masks[42] &= ~1
>>> step = next(skyscraper(CandidateGrid.from_masks(Shape(3, 3), [0] * 81, masks)))
>>> step.technique, sorted(c for c, _ in step.eliminations)
('Skyscraper', [16, 25, 33, 51])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial

from ..shape import Shape
from . import _human
from ._delta import by_digits
from ._names import cell_list, digit_name, elim_text
from .candidates import CandidateGrid
from .intersections import is_box
from .step import Step

__all__ = [
    "empty_rectangle",
    "simple_colouring",
    "skyscraper",
    "strong_links",
    "turbot_fish",
    "two_string_kite",
]


def strong_links(cg: CandidateGrid, digit: int) -> list[tuple[int, int, int]]:
    """Every unit where *digit* has exactly two places: ``(unit, cell1, cell2)``."""
    bit = 1 << (digit - 1)
    masks = cg.masks
    out = []
    for u, unit in enumerate(cg.shape.units):
        cells = [c for c in unit if masks[c] & bit]
        if len(cells) == 2:
            out.append((u, cells[0], cells[1]))
    return out


def _kind(shape: Shape, u1: int, u2: int, b: int, c: int) -> str:
    k1, k2 = shape.unit_kinds[u1], shape.unit_kinds[u2]
    lines = ("row", "column")
    n = shape.n
    # parallel lines, the weak link b-c along the other direction
    parallel = (k1 == "row" and b % n == c % n) or (k1 == "column" and b // n == c // n)
    if k1 == k2 and parallel:
        return "Skyscraper"
    if {k1, k2} == set(lines) and shape.box_of[b] == shape.box_of[c]:
        return "2-String Kite"
    return "Turbot Fish"


_RATING = {"Skyscraper": 4.0, "2-String Kite": 4.1, "Turbot Fish": 4.2}
#: The patterns of :func:`_two_link_hits` in the order of the core's ``k`` (_human.TWO_LINKS).
_PATTERNS = tuple(_RATING)

#: A two-link hit: (digit, u1, a, b, u2, c, e): the strong links a=b in unit u1 and c=e in u2,
#: b seeing c. The C core's search (csrc/sk_human.c, sk_two_links) gives the same hits in order.
Hit = tuple[int, ...]


def _two_link_hits(cg: CandidateGrid, digits: Sequence[int], wanted: str) -> Iterator[Hit]:
    """The hits of the pattern *wanted* (a key of ``_RATING``) of the *digits*, in order."""
    shape = cg.shape
    peers = shape.peers
    for d in digits:
        links = strong_links(cg, d)
        seen: set[tuple[int, int, int, int]] = set()
        for i, (u1, x1, y1) in enumerate(links):
            for u2, x2, y2 in links[i + 1 :]:
                if len({x1, y1, x2, y2}) < 4:
                    continue
                for a, b in ((x1, y1), (y1, x1)):
                    for c, e in ((x2, y2), (y2, x2)):
                        if c not in peers[b]:
                            continue
                        if _kind(shape, u1, u2, b, c) != wanted:
                            continue
                        key = (min(a, e), max(a, e), min(b, c), max(b, c))
                        if key in seen:
                            continue
                        seen.add(key)
                        if _two_link_elims(cg, d, a, b, c, e):
                            yield (d, u1, a, b, u2, c, e)


def _two_link_elims(
    cg: CandidateGrid, d: int, a: int, b: int, c: int, e: int
) -> tuple[tuple[int, int], ...]:
    """The *d* of the cells that see both ends *a* and *e* (not the pattern's own cells)."""
    peers = cg.shape.peers
    masks = cg.masks
    bit = 1 << (d - 1)
    targets = set(peers[a]).intersection(peers[e]) - {a, b, c, e}
    return tuple((t, d) for t in sorted(targets) if masks[t] & bit)


def _two_link_step(cg: CandidateGrid, hit: Hit, wanted: str) -> Step:
    """The step of one hit of the pattern *wanted*."""
    shape = cg.shape
    d, u1, a, b, u2, c, e = hit
    elims = _two_link_elims(cg, d, a, b, c, e)
    dn = digit_name(shape, d)
    text = (
        f"{wanted} on {dn}: in {shape.unit_name(u1)} the {dn} is in "
        f"{shape.cell_name(a)} or {shape.cell_name(b)}, in "
        f"{shape.unit_name(u2)} in {shape.cell_name(c)} or "
        f"{shape.cell_name(e)}; {shape.cell_name(b)} and "
        f"{shape.cell_name(c)} see each other, so they are not both {dn}, "
        f"and one of {shape.cell_name(a)} and {shape.cell_name(e)} is {dn}. "
        f"So {elim_text(shape, elims)}."
    )
    return Step(
        wanted,
        _RATING[wanted],
        eliminations=elims,
        text=text,
        cells=(a, b, c, e),
        units=(u1, u2),
        highlights=((a, d), (b, d), (c, d), (e, d)),
        links=((a, d, b, d, True), (b, d, c, d, False), (c, d, e, d, True)),
        size=shape.n,
    )


# Every pattern of this module is decided by the places of its digit alone, so each finder
# searches only the digits whose places changed since it last found nothing (by_digits), or
# every digit in the C core (_human.by_digits_or_core).
_TWO_LINKS = {
    kind: _human.by_digits_or_core(
        _human.TWO_LINKS,
        k,
        partial(_two_link_step, wanted=kind),
        partial(_two_link_hits, wanted=kind),
    )
    for k, kind in enumerate(_PATTERNS)
}


def skyscraper(cg: CandidateGrid) -> Iterator[Step]:
    """Skyscrapers (not in SE; rated 4.0)."""
    return _TWO_LINKS["Skyscraper"](cg)


def two_string_kite(cg: CandidateGrid) -> Iterator[Step]:
    """2-String Kites (not in SE; rated 4.1)."""
    return _TWO_LINKS["2-String Kite"](cg)


def turbot_fish(cg: CandidateGrid) -> Iterator[Step]:
    """Other Turbot Fish: two strong links joined by a weak link (not in SE; rated 4.2)."""
    return _TWO_LINKS["Turbot Fish"](cg)


def empty_rectangle(cg: CandidateGrid) -> Iterator[Step]:
    """Empty Rectangles (not in SE; rated 4.3).

    In a box the digit lies only on one row ``r`` and one column ``c`` (not on one line alone).
    With a strong link in a column ``x`` from ``(r, x)`` outside the box to ``(q, x)``, the
    cell ``(q, c)`` cannot be the digit (and the same with rows and columns swapped).
    """
    return _EMPTY_RECTANGLE(cg)


def _places(cg: CandidateGrid, box: int, d: int) -> list[int]:
    """The cells of unit *box* holding *d*, in the unit's order."""
    bit = 1 << (d - 1)
    masks = cg.masks
    return [c for c in cg.shape.units[box] if masks[c] & bit]


def _er_hits(cg: CandidateGrid, digits: Sequence[int]) -> Iterator[Hit]:
    """The empty rectangles of the *digits*, box by box: (box, digit, row, column, the link's
    two ends, its unit, the target); the C core's search (sk_empty_rectangles) gives the same
    hits in order."""
    shape = cg.shape
    n = shape.n
    for b, unit in enumerate(shape.units):
        if not is_box(shape, b):
            continue
        inside = set(unit)
        for d in digits:
            pos = _places(cg, b, d)
            if len(pos) < 2:
                continue
            rows = {p // n for p in pos}
            cols = {p % n for p in pos}
            if len(rows) == 1 or len(cols) == 1:
                continue
            for r in sorted(rows):
                for c in sorted(cols):
                    if any(p // n != r and p % n != c for p in pos):
                        continue
                    for link, link_unit, target in _er_links(cg, d, r, c, inside):
                        yield (b, d, r, c, *link, link_unit, target)


def _er_links(
    cg: CandidateGrid, d: int, r: int, c: int, inside: set[int]
) -> Iterator[tuple[tuple[int, int], int, int]]:
    shape = cg.shape
    n = shape.n
    masks = cg.masks
    bit = 1 << (d - 1)
    # strong link in a column x: ends (r, x) and (q, x); target (q, c)
    for x in range(n):
        col = [q * n + x for q in range(n) if masks[q * n + x] & bit]
        if len(col) != 2 or x == c:
            continue
        for end_r, end_q in ((col[0], col[1]), (col[1], col[0])):
            if end_r // n != r or end_r in inside or end_q // n == r:
                continue
            target = (end_q // n) * n + c
            if target in inside or not masks[target] & bit or target == end_q:
                continue
            yield (end_r, end_q), shape.column_units[x], target
    # strong link in a row y: ends (y, c) and (y, p); target (r, p)
    for y in range(n):
        row = [y * n + p for p in range(n) if masks[y * n + p] & bit]
        if len(row) != 2 or y == r:
            continue
        for end_c, end_p in ((row[0], row[1]), (row[1], row[0])):
            if end_c % n != c or end_c in inside or end_p % n == c:
                continue
            target = r * n + end_p % n
            if target in inside or not masks[target] & bit or target == end_p:
                continue
            yield (end_c, end_p), shape.row_units[y], target


def _er_step(cg: CandidateGrid, hit: Hit) -> Step:
    """The step of one empty rectangle hit."""
    shape = cg.shape
    box, d, r, c, a, e, link_unit, target = hit
    pos = _places(cg, box, d)
    dn = digit_name(shape, d)
    text = (
        f"Empty Rectangle on {dn}: in {shape.unit_name(box)} the {dn} lies only in row {r + 1} "
        f"and column {c + 1}. In {shape.unit_name(link_unit)} the {dn} is in {shape.cell_name(a)} "
        f"or {shape.cell_name(e)}. If {shape.cell_name(target)} were {dn}, the box would need its "
        f"{dn} in row {r + 1}, so {shape.cell_name(a)} would not be {dn}, making "
        f"{shape.cell_name(e)} {dn}, which sees {shape.cell_name(target)}. So {dn} is removed "
        f"from {shape.cell_name(target)}."
    )
    return Step(
        "Empty Rectangle",
        4.3,
        eliminations=((target, d),),
        text=text,
        cells=(*pos, a, e),
        units=(box, link_unit),
        highlights=tuple((p, d) for p in (*pos, a, e)),
        size=shape.n,
    )


_EMPTY_RECTANGLE = _human.by_digits_or_core(_human.EMPTY_RECTANGLES, 0, _er_step, _er_hits)


def simple_colouring(cg: CandidateGrid) -> Iterator[Step]:
    """Simple Colouring (not in SE; rated 4.5): colour the chains of strong links of a digit
    in two alternating colours; one colour is the digit. A colour that meets itself in a unit
    is false (colour wrap); a cell that sees both colours loses the digit (colour trap)."""
    table = _human.core(cg)
    if table is not None:
        hits = table.find(_human.COLOURING, 0, cg.masks, ())
        if not hits or hits[0][0]:  # (0, 0, 0): an odd cycle of strong links (see _colour_hits)
            return map(partial(_colour_step, cg), hits)
    return _SIMPLE_COLOURING(cg)


def _link_graph(cg: CandidateGrid, d: int) -> dict[int, set[int]]:
    """The graph of the strong links of *d*: each cell of one, the cells it is linked to."""
    graph: dict[int, set[int]] = {}
    for _, a, b in strong_links(cg, d):
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    return graph


def _colour_groups(graph: dict[int, set[int]], start: int) -> tuple[list[int], list[int]]:
    """The cells of the two colours (sorted) of the component of *start* in *graph*, *start*
    of colour A."""
    colour = {start: 0}
    queue = [start]
    while queue:
        cell = queue.pop()
        for nxt in graph[cell]:
            if nxt not in colour:
                colour[nxt] = 1 - colour[cell]
                queue.append(nxt)
    return (
        sorted(c for c, k in colour.items() if k == 0),
        sorted(c for c, k in colour.items() if k == 1),
    )


def _colour_hits(cg: CandidateGrid, digits: Sequence[int]) -> Iterator[Hit]:
    """The colourings of the *digits* that remove something: (digit, start, what), *start* the
    smallest cell of the component, *what* 0 or 1 for a wrap of colour A or B, 2 for a trap.
    The C core's search (sk_colouring) gives the same hits in order, where every digit's graph
    has two colours; where some graph has an odd cycle of strong links (the colours then
    depend on the order its sets are walked in; no solution has such a state), it gives the
    one hit (0, 0, 0) and this search decides."""
    shape = cg.shape
    peers = shape.peers
    masks = cg.masks
    for d in digits:
        bit = 1 << (d - 1)
        graph = _link_graph(cg, d)
        done: set[int] = set()
        for start in sorted(graph):
            if start in done:
                continue
            groups = _colour_groups(graph, start)
            inside = {*groups[0], *groups[1]}
            done |= inside
            if len(inside) < 4:
                continue
            for k, group in enumerate(groups):  # colour wrap
                if any(b in peers[a] for i, a in enumerate(group) for b in group[i + 1 :]):
                    yield (d, start, k)
                    break
            if any(  # colour trap
                masks[c] & bit
                and c not in inside
                and any(p in peers[c] for p in groups[0])
                and any(p in peers[c] for p in groups[1])
                for c in range(shape.ncells)
            ):
                yield (d, start, 2)


_SIMPLE_COLOURING = by_digits(lambda cg, ds: map(partial(_colour_step, cg), _colour_hits(cg, ds)))


def _colour_step(cg: CandidateGrid, hit: Hit) -> Step:
    """The step of one colouring hit."""
    shape = cg.shape
    d, start, what = hit
    groups = _colour_groups(_link_graph(cg, d), start)
    if what < 2:
        elims = tuple((c, d) for c in groups[what])
        reason = f"two cells of colour {'AB'[what]} see each other, so that colour is false"
    else:
        peers = shape.peers
        bit = 1 << (d - 1)
        elims = tuple(
            (c, d)
            for c in range(shape.ncells)
            if cg.masks[c] & bit
            and c not in groups[0]
            and c not in groups[1]
            and any(p in peers[c] for p in groups[0])
            and any(p in peers[c] for p in groups[1])
        )
        reason = "these cells see a cell of each colour"
    dn = digit_name(shape, d)
    text = (
        f"Simple Colouring on {dn}: following the units where {dn} has only two places, the cells "
        f"{cell_list(shape, groups[0])} (colour A) and {cell_list(shape, groups[1])} (colour B) "
        f"alternate, so all of one colour are {dn}. Here {reason}: {elim_text(shape, elims)}."
    )
    return Step(
        "Simple Colouring",
        4.5,
        eliminations=elims,
        text=text,
        cells=(*groups[0], *groups[1]),
        highlights=tuple((c, d) for c in (*groups[0], *groups[1])),
        size=shape.n,
    )
