"""Validity-preserving symmetries of Sudoku grids, random isomorphs and a canonical form (layer 2).

A :class:`Transform` moves cells and relabels digits so that every unit of the source shape
lands on a unit of the target shape: a valid grid stays valid, a puzzle keeps its number of
solutions, and applying the same transform to a puzzle and its solution gives a puzzle and its
solution. Every constructor checks this against the units of the shapes (geometry as data),
so a permutation that breaks a box, a diagonal or a jigsaw region is refused with
:class:`ValueError`.

Which transforms apply:

* every shape: :func:`relabel` (permute the digits);
* standard boxes: row permutations inside a band and band permutations (:func:`permute`,
  :func:`swap_rows`, :func:`swap_bands`), the same for columns and stacks, and the eight
  rotations and mirrors (:func:`transpose`, :func:`rotate`, :func:`mirror`). Transposing
  (and the quarter turns and the anti-diagonal mirror) turns ``r x c`` boxes into ``c x r``
  boxes: the target shape of a 2x3 grid is 3x2. Use ``keep_shape=True`` in
  :func:`random_transform` for transforms that keep the shape;
* Sudoku-X: the rotations and mirrors (they map the two diagonals onto each other), and the
  permutations that apply one row order to rows and columns alike and commute with reversing
  the order (row ``i`` and row ``n-1-i`` move together), e.g. swapping rows 1 and 3 together
  with rows 7 and 9 and the same columns;
* jigsaw: relabelling, and the rotations and mirrors with the region map carried along (the
  target is the jigsaw of the moved region map, with the same region numbers).

>>> from sudokit.grid import Grid
>>> g = Grid.parse("12.." "...." "...." "...4")
>>> str(transpose(g.shape).apply(g)), str(relabel(g.shape, [2, 1, 3, 4]).apply(g))
('1...2..........4', '21.............4')
>>> t = swap_bands(g.shape, 0, 1).then(mirror(g.shape, "horizontal"))
>>> str(t.apply(g)), t.inverse().apply(t.apply(g)) == g
('....4.....21....', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import permutations, product

from . import _native
from ._record import _Record
from .grid import Grid
from .shape import Shape

__all__ = [
    "GEOMETRIC",
    "MIRRORS",
    "Transform",
    "canonical",
    "cell_map",
    "identity",
    "mirror",
    "permute",
    "random_isomorph",
    "random_transform",
    "relabel",
    "rotate",
    "swap_bands",
    "swap_columns",
    "swap_rows",
    "swap_stacks",
    "transpose",
]

#: The axes :func:`mirror` reflects in.
MIRRORS = ("horizontal", "vertical", "diagonal", "anti-diagonal")


@lru_cache(maxsize=64)
def _unit_sets(shape: Shape) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(u) for u in shape.units)


class Transform(_Record):
    """A validity-preserving map from grids of shape ``source`` to grids of shape ``target``.

    The new grid's cell ``i`` takes the value of the old grid's cell ``cells[i]``, relabelled
    by ``digits`` (``digits[v]`` is the new value of old value ``v``; ``digits[0] == 0``).
    Build transforms with the functions of this module, which check that units map to
    units; compose with :meth:`then`.
    """

    __slots__ = ("cells", "digits", "source", "target")
    __match_args__ = ("source", "target", "cells", "digits")
    source: Shape
    target: Shape
    cells: tuple[int, ...]
    digits: tuple[int, ...]

    def _check(self) -> None:
        n, ncells = self.source.n, self.source.ncells
        if self.target.ncells != ncells or sorted(self.cells) != list(range(ncells)):
            raise ValueError(f"cells must be a permutation of 0..{ncells - 1}")
        if self.digits[0] != 0 or sorted(self.digits) != list(range(n + 1)):
            raise ValueError(f"digits must fix 0 and permute 1..{n}")
        units = _unit_sets(self.source)
        for unit in self.target.units:
            if frozenset(self.cells[i] for i in unit) not in units:
                raise ValueError(
                    f"the map does not send the units of {self.source!r} to units of "
                    f"{self.target!r}"
                )

    def apply(self, grid: Grid) -> Grid:
        """The image of *grid*, which must have shape ``source``.

        >>> g = Grid.parse("1..." "...." "...." "....")
        >>> str(rotate(g.shape).apply(g))
        '...1............'
        """
        if grid.shape != self.source:
            raise ValueError(f"the transform maps {self.source!r}, not {grid.shape!r}")
        old, digits = grid.cells, self.digits
        return Grid(bytes(digits[old[j]] for j in self.cells), self.target)

    __call__ = apply

    def then(self, other: Transform) -> Transform:
        """The transform that applies this one and then *other*.

        >>> s = Shape(2, 2)
        >>> rotate(s).then(rotate(s)) == rotate(s, 2)
        True
        """
        if other.source != self.target:
            raise ValueError(f"cannot follow a map to {self.target!r} by one from {other.source!r}")
        cells = tuple(self.cells[j] for j in other.cells)
        digits = tuple(other.digits[d] for d in self.digits)
        return Transform(self.source, other.target, cells, digits)

    def inverse(self) -> Transform:
        """The transform that undoes this one."""
        cells = [0] * len(self.cells)
        for i, j in enumerate(self.cells):
            cells[j] = i
        digits = [0] * len(self.digits)
        for v, d in enumerate(self.digits):
            digits[d] = v
        return Transform(self.target, self.source, tuple(cells), tuple(digits))


def _same_digits(shape: Shape) -> tuple[int, ...]:
    return tuple(range(shape.n + 1))


def identity(shape: Shape) -> Transform:
    """The transform that changes nothing.

    >>> identity(Shape(2, 2)).cells[:5]
    (0, 1, 2, 3, 4)
    """
    return Transform(shape, shape, tuple(range(shape.ncells)), _same_digits(shape))


def relabel(shape: Shape, mapping: Sequence[int]) -> Transform:
    """Rename the digits: digit ``d`` becomes ``mapping[d - 1]`` (a permutation of ``1..n``).

    >>> g = Grid.parse("1234" "3412" "2143" "4321")
    >>> str(relabel(g.shape, [4, 3, 2, 1]).apply(g))
    '4321214334121234'
    """
    if len(mapping) != shape.n:
        raise ValueError(
            f"a relabelling of size {shape.n} needs {shape.n} digits, got {len(mapping)}"
        )
    return Transform(shape, shape, tuple(range(shape.ncells)), (0, *mapping))


#: The rotations (clockwise quarter turns) and mirrors :func:`cell_map` knows, by name.
GEOMETRIC = ("rot90", "rot180", "rot270", *MIRRORS)
# For each name: the old (row, col) a new cell (r, c) takes its value from (m = n - 1), and
# whether the map swaps rows and columns (turning r x c boxes into c x r boxes).
_SOURCES: dict[str, tuple[Callable[[int, int, int], tuple[int, int]], bool]] = {
    "rot90": (lambda r, c, m: (m - c, r), True),
    "rot180": (lambda r, c, m: (m - r, m - c), False),
    "rot270": (lambda r, c, m: (c, m - r), True),
    "horizontal": (lambda r, c, m: (r, m - c), False),
    "vertical": (lambda r, c, m: (m - r, c), False),
    "diagonal": (lambda r, c, m: (c, r), True),
    "anti-diagonal": (lambda r, c, m: (m - c, m - r), True),
}


@lru_cache(maxsize=128)
def cell_map(n: int, name: str) -> tuple[int, ...]:
    """The cell permutation of the rotation or mirror *name* (one of :data:`GEOMETRIC`) of an
    ``n x n`` grid, whatever its boxes: new cell ``i`` takes the value of old cell
    ``cell_map(n, name)[i]`` (the convention of :attr:`Transform.cells`).

    The positions alone, checked against no shape: :func:`rotate` and :func:`mirror` build
    their transforms from it, and the generator's clue-pattern symmetries use it directly.

    >>> cell_map(2, "rot90"), cell_map(2, "horizontal"), cell_map(2, "vertical")
    ((2, 0, 3, 1), (1, 0, 3, 2), (2, 3, 0, 1))
    """
    if name not in _SOURCES:
        raise ValueError(f"unknown map {name!r}, expected one of {', '.join(GEOMETRIC)}")
    source, _ = _SOURCES[name]
    m = n - 1
    return tuple(r * n + c for r, c in (source(i // n, i % n, m) for i in range(n * n)))


def _geometric(shape: Shape, name: str) -> Transform:
    """The transform of the rotation or mirror *name* of *shape* (see :func:`cell_map`)."""
    cells = cell_map(shape.n, name)
    if shape.regions is not None:
        regions = tuple(shape.regions[j] for j in cells)
        target = Shape(shape.box_rows, shape.box_cols, diagonals=shape.diagonals, regions=regions)
    elif _SOURCES[name][1]:
        target = Shape(shape.box_cols, shape.box_rows, diagonals=shape.diagonals)
    else:
        target = shape
    return Transform(shape, target, cells, _same_digits(shape))


def transpose(shape: Shape) -> Transform:
    """Mirror in the main diagonal: row ``i`` becomes column ``i``. ``r x c`` boxes become
    ``c x r`` boxes.

    >>> transpose(Shape(2, 3)).target
    Shape(3, 2)
    """
    return mirror(shape, "diagonal")


def mirror(shape: Shape, axis: str = "horizontal") -> Transform:
    """Reflect the grid: ``"horizontal"`` (left-right: columns reversed), ``"vertical"``
    (top-bottom: rows reversed), ``"diagonal"`` (transpose) or ``"anti-diagonal"``.

    >>> g = Grid.parse("12.." "...." "...." "....")
    >>> str(mirror(g.shape).apply(g)), str(mirror(g.shape, "vertical").apply(g))
    ('..21............', '............12..')
    """
    if axis not in MIRRORS:
        raise ValueError(f"axis must be one of {', '.join(MIRRORS)}, got {axis!r}")
    return _geometric(shape, axis)


def rotate(shape: Shape, quarter_turns: int = 1) -> Transform:
    """Rotate clockwise by *quarter_turns* quarter turns (negative: anticlockwise).

    >>> rotate(Shape(2, 3)).target, rotate(Shape(2, 3), 2).target
    (Shape(3, 2), Shape(2, 3))
    """
    turns = quarter_turns % 4
    if turns == 0:
        return identity(shape)
    return _geometric(shape, ("rot90", "rot180", "rot270")[turns - 1])


def _dihedral(shape: Shape) -> list[Transform]:
    """The eight rotations and mirrors."""
    return [rotate(shape, k) for k in range(4)] + [mirror(shape, axis) for axis in MIRRORS]


def permute(
    shape: Shape, rows: Sequence[int] | None = None, cols: Sequence[int] | None = None
) -> Transform:
    """Reorder rows and columns: new row ``i`` is old row ``rows[i]``, new column ``j`` is old
    column ``cols[j]`` (``None`` keeps the order).

    Valid for standard boxes when rows stay in their band as a group (bands may move) and
    columns likewise in stacks; for Sudoku-X when also ``rows == cols`` and row ``n-1-i``
    moves with row ``i``. Anything else raises :class:`ValueError`.

    >>> g = Grid.parse("12.." "...." "...." "....")
    >>> str(permute(g.shape, rows=[1, 0, 2, 3], cols=[2, 3, 0, 1]).apply(g))
    '......12........'
    >>> permute(g.shape, rows=[0, 2, 1, 3])
    Traceback (most recent call last):
    ...
    ValueError: the map does not send the units of Shape(2, 2) to units of Shape(2, 2)
    """
    n = shape.n
    row_map = list(range(n)) if rows is None else list(rows)
    col_map = list(range(n)) if cols is None else list(cols)
    if sorted(row_map) != list(range(n)) or sorted(col_map) != list(range(n)):
        raise ValueError(f"rows and cols must be permutations of 0..{n - 1}")
    if shape.regions is not None and (row_map != list(range(n)) or col_map != list(range(n))):
        raise ValueError("jigsaw shapes allow only relabelling, rotations and mirrors")
    cells = tuple(row_map[r] * n + col_map[c] for r in range(n) for c in range(n))
    return Transform(shape, shape, cells, _same_digits(shape))


def _swap(n: int, size: int, a: int, b: int) -> list[int]:
    """The order of 0..n-1 with the blocks ``a`` and ``b`` of *size* exchanged."""
    order = list(range(n))
    order[a * size : (a + 1) * size], order[b * size : (b + 1) * size] = (
        order[b * size : (b + 1) * size],
        order[a * size : (a + 1) * size],
    )
    return order


def swap_rows(shape: Shape, a: int, b: int) -> Transform:
    """Exchange rows *a* and *b* (0-based; they must share a band).

    >>> str(swap_rows(Shape(2, 2), 0, 1).apply(Grid.parse("12.." + "." * 12)))
    '....12..........'
    """
    return permute(shape, rows=_swap(shape.n, 1, a, b))


def swap_columns(shape: Shape, a: int, b: int) -> Transform:
    """Exchange columns *a* and *b* (0-based; they must share a stack).

    >>> str(swap_columns(Shape(2, 2), 0, 1).apply(Grid.parse("12.." + "." * 12)))
    '21..............'
    """
    return permute(shape, cols=_swap(shape.n, 1, a, b))


def swap_bands(shape: Shape, a: int, b: int) -> Transform:
    """Exchange bands *a* and *b* (0-based; a band is ``box_rows`` rows).

    >>> str(swap_bands(Shape(2, 2), 0, 1).apply(Grid.parse("12.." + "." * 12)))
    '........12......'
    """
    return permute(shape, rows=_swap(shape.n, shape.box_rows, a, b))


def swap_stacks(shape: Shape, a: int, b: int) -> Transform:
    """Exchange stacks *a* and *b* (0-based; a stack is ``box_cols`` columns).

    >>> str(swap_stacks(Shape(2, 2), 0, 1).apply(Grid.parse("12.." + "." * 12)))
    '..12............'
    """
    return permute(shape, cols=_swap(shape.n, shape.box_cols, a, b))


def _block_order(n: int, size: int, rng: random.Random) -> list[int]:
    """A random order of 0..n-1 that moves blocks of *size* whole and shuffles inside them."""
    blocks = list(range(n // size))
    rng.shuffle(blocks)
    order: list[int] = []
    for b in blocks:
        inner = list(range(b * size, (b + 1) * size))
        rng.shuffle(inner)
        order += inner
    return order


def _x_order(shape: Shape, rng: random.Random) -> list[int]:
    """A random order for rows and columns alike that keeps boxes and both diagonals.

    A random walk over swaps of two rows (or two bands) together with their mirror images,
    each step kept when it passes the unit check: not uniform over the group, but it reaches
    every element that such swaps generate.
    """
    n = shape.n
    order = list(range(n))
    sizes = sorted({1, shape.box_rows, shape.box_cols})
    for _ in range(4 * n):
        size = rng.choice(sizes)
        blocks = n // size
        if blocks < 2:
            continue
        a, b = rng.sample(range(blocks), 2)
        step = _swap(n, size, a, b)
        ma, mb = blocks - 1 - a, blocks - 1 - b
        if {ma, mb}.isdisjoint({a, b}):  # swap the mirror images too (else it is self-mirrored)
            mirrored = _swap(n, size, ma, mb)
            step = [step[i] for i in mirrored]
        candidate = [order[i] for i in step]
        try:
            permute(shape, rows=candidate, cols=candidate)
        except ValueError:
            continue
        order = candidate
    return order


def random_transform(shape: Shape, rng: random.Random, *, keep_shape: bool = True) -> Transform:
    """A random validity-preserving transform of *shape*, drawn with *rng*.

    Standard boxes: random band, row, stack and column orders, one of the rotations and
    mirrors, and a random relabelling. Sudoku-X: a random diagonal-keeping row/column order
    (see :func:`permute`), a rotation or mirror and a relabelling. Jigsaw: a relabelling, and
    a rotation or mirror. With *keep_shape* (the default) only rotations and mirrors whose
    target is *shape* itself are drawn (for ``r x c`` boxes with ``r != c`` that excludes the
    quarter turns and diagonal mirrors).

    >>> t = random_transform(Shape(3, 3), random.Random(5))
    >>> t.source == t.target == Shape(3, 3)
    True
    """
    n = shape.n
    if shape.regions is not None:
        geometry = identity(shape)
    elif shape.diagonals:
        order = _x_order(shape, rng)
        geometry = permute(shape, rows=order, cols=order)
    else:
        geometry = permute(
            shape,
            rows=_block_order(n, shape.box_rows, rng),
            cols=_block_order(n, shape.box_cols, rng),
        )
    choices = [d for d in _dihedral(shape) if not keep_shape or d.target == shape]
    geometry = geometry.then(rng.choice(choices))
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    return geometry.then(relabel(geometry.target, digits))


def random_isomorph(grid: Grid, rng: random.Random, *, keep_shape: bool = True) -> Grid:
    """A random grid equivalent to *grid* (same number of solutions), drawn with *rng*.

    >>> g = Grid.parse("1234" "3412" "2143" "4321")
    >>> h = random_isomorph(g, random.Random(1))
    >>> h.is_solution(), h.shape == g.shape
    (True, True)
    """
    return random_transform(grid.shape, rng, keep_shape=keep_shape).apply(grid)


# -- canonical form (9x9) ------------------------------------------------------------------


_NO_LABELS = (0,) * 10
_NINE = Shape(3, 3)  # built once: constructing a Shape per call would cost more than the C form

# The column order of a candidate is built lazily: a tuple of groups of columns in output
# order, where the columns inside one group are still tied (every row so far is blank in all
# of them, so any order of them gives the same output so far).
_Groups = tuple[tuple[int, ...], ...]
# A candidate while the canonical form is built: which orientation of the grid (0, or 1 for
# transposed), the rows used so far in order, the column groups, the label of each old digit
# so far (0 = not met yet) and the next free label.
_State = tuple[int, tuple[int, ...], _Groups, tuple[int, ...], int]


def _c_canonical9() -> Callable[[bytes], bytes] | None:
    """The C core's canonical form (``_core.canonical9``), or None when the core does not
    serve (then the pure-Python code, its specification, runs)."""
    core = _native.core()
    return None if core is None else core.canonical9


def canonical(grid: Grid) -> Grid:
    """The canonical form of a standard 9x9 grid: the minlex representative.

    Of all grids equivalent to *grid* under the Sudoku symmetry group (transposition, band
    and row-in-band orders, stack and column-in-stack orders: 3,359,232 geometric maps, each
    with the digits then relabelled in order of first appearance), the one whose cells, read
    row by row with an empty cell as 0, are lexicographically smallest. Two grids are
    equivalent exactly when their canonical forms are equal.

    The form is built a row at a time, keeping only the candidates (orientation, rows so far,
    column order, labels) whose output so far is smallest. Column orders are kept lazy:
    columns that have been blank in every row so far stay tied, and each new row splits them
    into its lex-smallest arrangement (blanks, then known labels in order, then new digits,
    whose order is the only real branch).

    The C core does this (``csrc/sk_canon.c``, the same steps) in about 15 us for a typical
    puzzle, a few ms for a complete grid (every order of new digits in the first row is a
    candidate); the pure-Python code here, the specification it is tested against, takes
    about a hundred times longer and serves when the core is not built or
    ``SUDOKIT_BACKEND=python``.

    :raises ValueError: for any shape other than standard 9x9.

    >>> g = Grid.parse(
    ...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    ... )
    >>> str(canonical(g))  # its second column is empty: the first row of the form
    '...........1..2..324.56.78............2..3..735.68.94.....7..5.52.3.84.671.4.52.8'
    >>> canonical(random_isomorph(g, random.Random(7))) == canonical(g)
    True
    """
    if grid.shape != _NINE:
        raise ValueError(f"canonical forms are defined for standard 9x9 grids, not {grid.shape!r}")
    fast = _c_canonical9()
    if fast is not None:
        return Grid(fast(grid.cells), grid.shape)
    return _canonical_python(grid)


def _canonical_python(grid: Grid) -> Grid:
    """:func:`canonical` in pure Python, for a standard 9x9 *grid* (the specification)."""
    cells = grid.cells
    rows = tuple(cells[r * 9 : r * 9 + 9] for r in range(9))
    columns = tuple(bytes(cells[c::9]) for c in range(9))
    grids = (rows,) if rows == columns else (rows, columns)
    states: list[_State] = [
        (k, (), tuple(tuple(range(3 * s, 3 * s + 3)) for s in stacks), _NO_LABELS, 1)
        for k in range(len(grids))
        for stacks in permutations(range(3))
    ]
    out: list[int] = []
    for _ in range(9):
        best: tuple[int, ...] | None = None
        kept: dict[tuple[object, ...], _State] = {}
        for k, used, groups, labels, nxt in states:
            for r in _next_rows(used):
                row = grids[k][r]
                key = _row_key(row, groups, labels, nxt, best)
                if key is None:
                    continue
                if best is None or key < best:
                    best, kept = key, {}
                used_next = (*used, r)
                rest = frozenset(used_next)
                for split, lab, after in _split(row, groups, labels, nxt):
                    # Candidates with the same rows left, columns and labels have the same
                    # future: keep one of them.
                    kept.setdefault((k, rest, split, lab), (k, used_next, split, lab, after))
        assert best is not None
        out += best
        states = list(kept.values())
    return Grid(bytes(out), grid.shape)


def _row_key(
    row: bytes,
    groups: _Groups,
    labels: tuple[int, ...],
    nxt: int,
    best: tuple[int, ...] | None,
) -> tuple[int, ...] | None:
    """The smallest relabelled *row* the column groups allow, or None as soon as it is known
    to be larger than *best* (most candidates are dropped after a cell or two)."""
    key: list[int] = []
    smaller = best is None
    for group in groups:
        blanks = 0
        known = []
        new = 0
        for c in group:
            v = row[c]
            if not v:
                blanks += 1
            elif labels[v]:
                known.append(labels[v])
            else:
                new += 1
        known.sort()
        for x in [0] * blanks + known + list(range(nxt, nxt + new)):
            if not smaller:
                b = best[len(key)]  # type: ignore[index]
                if x > b:
                    return None
                smaller = x < b
            key.append(x)
        nxt += new
    return tuple(key)


def _split(
    row: bytes, groups: _Groups, labels: tuple[int, ...], nxt: int
) -> list[tuple[_Groups, tuple[int, ...], int]]:
    """Every way to arrange the tied columns for *row* in its smallest form: the new groups,
    labels and next label of each. Blanks stay tied, known digits go in label order, and each
    order of the new digits is its own candidate (it decides their labels)."""
    choices: list[list[tuple[_Groups, tuple[int, ...]]]] = []
    for group in groups:
        blanks = tuple(c for c in group if not row[c])
        known = sorted(
            (c for c in group if row[c] and labels[row[c]]), key=lambda c: labels[row[c]]
        )
        new = [c for c in group if row[c] and not labels[row[c]]]
        head: _Groups = ((blanks,) if blanks else ()) + tuple((c,) for c in known)
        choices.append([(head + tuple((c,) for c in order), order) for order in permutations(new)])
    found = []
    for combo in product(*choices):
        lab = list(labels)
        after = nxt
        split: list[tuple[int, ...]] = []
        for parts, order in combo:
            split += parts
            for c in order:
                lab[row[c]] = after
                after += 1
        found.append((tuple(split), tuple(lab), after))
    return found


def _next_rows(used: tuple[int, ...]) -> tuple[int, ...]:
    """The rows that may come next after *used*: the rest of the current band, or any row
    of an unused band."""
    if len(used) % 3:
        band = used[-1] // 3
        return tuple(r for r in range(3 * band, 3 * band + 3) if r not in used)
    bands_used = {r // 3 for r in used}
    return tuple(r for r in range(9) if r // 3 not in bands_used)
