"""The named chains people learn: X-Chain, XY-Chain and AIC (layer 2).

Not Sudoku Explainer techniques, so not used for the SE rating: hints prefer them because they
are what people know, and they carry SE-comparable values just below the forcing chains they
are equivalent to. SE's own "Forcing Chains & Cycles" rule is :mod:`sudokit.logic.cycles`
(re-exported here as :func:`forcing_chains_and_cycles`, and :func:`chain_budget` from
:mod:`sudokit.logic.chaining`, for the callers that name them through this module).

>>> from sudokit.grid import Grid
>>> cg = CandidateGrid.from_grid(Grid.parse(
...     "..8..1.5...1.4.8..4.......3....87.1.....9.....7.34....5.......9..2.6.4...3.7..2.."))
>>> [s.technique for s in x_chains(cg)][:1]
['X-Chain']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from . import _human
from ._bits import bit_indices
from ._delta import by_digits
from ._names import elim_text
from .candidates import CandidateGrid
from .chaining import (
    Geometry,
    Links,
    cell_digit,
    chain_budget,
    check_budget,
    geometry,
    off_potential,
    path_names,
    path_step,
    potential_name,
    se_rating,
)
from .cycles import forcing_chains_and_cycles
from .step import Step

__all__ = [
    "alternating_inference_chains",
    "chain_budget",
    "forcing_chains_and_cycles",
    "x_chains",
    "xy_chains",
]

# An alternating inference chain starts with a strong link out of "A is false" and alternates
# weak and strong links up to "B is true": so A or B is true. Then a candidate of A's digit that
# sees both ends goes (same digit); the other candidates of the cell go (same cell); or, for
# different digits in peer cells, each end's digit leaves the other end's cell.

_ALT_KINDS = {
    # name: (base rating, strong link kinds (y, x), weak link kinds (y, x), minimum strong links)
    "X-Chain": (6.5, (False, True), (False, True), 3),
    "XY-Chain": (6.5, (True, False), (False, True), 3),
    "AIC": (6.9, (True, True), (True, True), 3),
}

# eliminations -> (chain length in links, the chain's potentials from "A is false" to "B is true")
_Found = dict[tuple[tuple[int, int], ...], tuple[int, list[int]]]


def _alt_eliminations(
    geo: Geometry, masks: Sequence[int], a: int, b: int
) -> tuple[tuple[int, int], ...]:
    """What "A or B is true" removes, for the potentials *a* ("A is false") and *b* ("B is
    true")."""
    n = geo.n
    ca, da = cell_digit(n, a)
    cb, db = cell_digit(n, b)
    out: list[tuple[int, int]] = []
    if ca == cb:
        if da != db:
            out = [(ca, e + 1) for e in range(n) if masks[ca] >> e & 1 and e not in (da, db)]
    elif da == db:
        seen_b = set(geo.peers[cb])
        out = [(c, da + 1) for c in geo.peers[ca] if c in seen_b and masks[c] >> da & 1]
    elif cb in geo.peers[ca]:
        if masks[cb] >> da & 1:
            out.append((cb, da + 1))
        if masks[ca] >> db & 1:
            out.append((ca, db + 1))
    return tuple(sorted(out))


def _link_table(links: Links, strong: bool, y: bool, x: bool) -> list[tuple[int, ...]]:
    """Per candidate, its strong (off -> on) or weak (on -> off) links of the kinds *y* / *x*."""
    ys = links.off_on_y if strong else links.on_off_y
    xs = links.off_on_x if strong else links.on_off_x
    rs = (links.off_on_r if strong else links.on_off_r) if y and x else None
    if rs is not None:  # the pair relations' weak links (X+Y chains only)
        return [ys[c] + xs[c] + rs[c] for c in range(len(ys))]
    return [(ys[c] if y else ()) + (xs[c] if x else ()) for c in range(len(ys))]


def _alt_search(
    geo: Geometry,
    masks: Sequence[int],
    start: int,
    tables: tuple[list[tuple[int, ...]], list[tuple[int, ...]]],
    min_strong: int,
    same_digit: bool,
    found: _Found,
) -> None:
    """Breadth-first alternating chains from the "off" potential *start* (strong links first,
    *tables* = (strong, weak)); each chain of at least *min_strong* strong links (ending on
    *start*'s digit when *same_digit*) that removes something is kept in *found* when it is
    the shortest for its eliminations."""
    strong, weak = tables
    d = cell_digit(geo.n, start)[1]
    parent: dict[int, int] = {start: -1}
    frontier = [start]
    strong_links = 0
    while frontier and strong_links < 2 * geo.ncells:
        ons = _alt_step(frontier, strong, parent)
        strong_links += 1
        for r in ons if strong_links >= min_strong else ():
            if same_digit and cell_digit(geo.n, r)[1] != d:
                continue
            elims = _alt_eliminations(geo, masks, start, r)
            if elims and (elims not in found or found[elims][0] > 2 * strong_links):
                path = [r]
                while parent[path[-1]] != -1:
                    path.append(parent[path[-1]])
                found[elims] = (2 * strong_links, path[::-1])
        frontier = _alt_step(ons, weak, parent)


def _alt_step(
    frontier: list[int], table: list[tuple[int, ...]], parent: dict[int, int]
) -> list[int]:
    """The potentials one link of *table* away from *frontier* not yet reached (neither they nor
    their conjugates), noting their *parent*."""
    out: list[int] = []
    for p in frontier:
        for q in table[p >> 1]:
            if q not in parent and q ^ 1 not in parent:
                parent[q] = p
                out.append(q)
    return out


#: The last links built: (geometry, masks, links). The three kinds are tried in turn on one
#: state, so they share its links (one record, replaced in one assignment: thread-safe).
_LAST_LINKS: tuple[Geometry, tuple[int, ...], Links] | None = None


def _links(geo: Geometry, masks: Sequence[int]) -> Links:
    """The :class:`Links` of *masks* (read only: shared by the chain kinds of one state)."""
    global _LAST_LINKS
    key = tuple(masks)
    last = _LAST_LINKS
    if last is not None and last[0] is geo and last[1] == key:
        return last[2]
    links = Links(geo, masks)
    _LAST_LINKS = (geo, key, links)
    return links


def _alt_found(
    geo: Geometry, masks: Sequence[int], name: str, digits: Sequence[int] | None
) -> _Found:
    """The shortest alternating chain of the kind *name* for each set of eliminations (the
    first found of equal length), from every start; for X-Chains (one digit each) only those
    of the *digits* when given. The C core's search (csrc/sk_alt.c) keeps the same chains."""
    n = geo.n
    wanted = ~0 if digits is None else sum(1 << (d - 1) for d in digits)
    found: _Found = {}
    if not wanted:
        return found
    links = _links(geo, masks)
    _, (sy, sx), (wy, wx), min_strong = _ALT_KINDS[name]
    tables = (_link_table(links, True, sy, sx), _link_table(links, False, wy, wx))
    for cell in range(geo.ncells):
        m = masks[cell]
        if m & (m - 1) == 0:
            continue
        check_budget()
        for d in bit_indices(m & wanted):
            start = off_potential(n, cell, d)  # "A is false"
            _alt_search(geo, masks, start, tables, min_strong, name != "AIC", found)
    return found


#: The core's ``k`` of each kind (HumanShape.find kind _human.ALT_CHAINS).
_ALT_CORE = {name: k for k, name in enumerate(_ALT_KINDS)}


def _core_found(cg: CandidateGrid, geo: Geometry, name: str) -> _Found | None:
    """:func:`_alt_found` of every digit by the C core, or None where it does not serve (no
    core, or an AIC on a shape with pair relations, whose links it does not build)."""
    table = _human.core(cg)
    if table is None or (name == "AIC" and geo.pairs is not None):
        return None
    masks = cg.masks
    found: _Found = {}
    for links, size, *rest in table.find(_human.ALT_CHAINS, _ALT_CORE[name], masks, ()):
        path = rest[:size]
        found[_alt_eliminations(geo, masks, path[0], path[-1])] = (links, path)
    return found


def _alt_chain_steps(
    cg: CandidateGrid, name: str, digits: Sequence[int] | None = None
) -> Iterator[Step]:
    """Shortest alternating chains of one kind, one per set of eliminations, shortest first;
    for X-Chains (one digit each) only those of the *digits* when given (the core searches
    every digit: a digit's chains do not change while its places do not)."""
    geo = geometry(cg.shape)
    n = geo.n
    base = _ALT_KINDS[name][0]
    if digits is not None and not digits:
        return
    found = _core_found(cg, geo, name)
    if found is None:
        found = _alt_found(geo, cg.masks, name, digits)
    shape = cg.shape
    for elims, (length, path) in sorted(found.items(), key=lambda kv: (kv[1][0], kv[0])):
        names = path_names(geo, path)
        a_name = potential_name(n, path[0] | 1)
        b_name = potential_name(n, path[-1])
        text = (
            f"{name}: {' -> '.join(names)}. If {a_name} is false then {b_name} is true, so at "
            f"least one of them holds; therefore {elim_text(shape, elims)}."
        )
        yield path_step(name, se_rating(base, length), n, path, text, eliminations=elims)


def x_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for X-Chains (not an SE technique; 6.5 + length bonus): strong and weak links of
    one digit alternate from A to B (at least three strong links), so the digit is in A or B;
    it leaves every cell that sees both."""
    return _X_CHAINS(cg)


def _x_chain_steps(cg: CandidateGrid, digits: Sequence[int]) -> Iterator[Step]:
    return _alt_chain_steps(cg, "X-Chain", digits)


# An X-Chain's links and eliminations are all of its digit, so it is decided by the places of
# that digit alone: search only the digits whose places changed since none was found.
_X_CHAINS = by_digits(_x_chain_steps)


def xy_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for XY-Chains (not an SE technique; 6.5 + length bonus): a chain of bivalue cells
    linked by shared digits whose two ends hold the same digit, which leaves the cells that see
    both ends."""
    return _alt_chain_steps(cg, "XY-Chain")


def alternating_inference_chains(cg: CandidateGrid) -> Iterator[Step]:
    """Finder for AICs (not an SE technique; 6.9 + length bonus): strong and weak links of any
    kind alternate from "A is false" to "B is true"."""
    return _alt_chain_steps(cg, "AIC")
