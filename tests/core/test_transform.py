"""Symmetries: every transform keeps validity; composition and inverses; the canonical form."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit import transform as tf
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.solver import count_solutions
from support import CORPUS, Case, read_puzzles
from support.tiers import examples

SOLVED = [c for c in CORPUS if c.solution is not None and c.shape.n >= 4]
SOLVED_IDS = [c.id for c in SOLVED]


def all_simple_transforms(shape: Shape) -> list[tf.Transform]:
    """Every constructor of the module that applies to *shape*, once."""
    out = [tf.identity(shape), tf.relabel(shape, [*range(2, shape.n + 1), 1])]
    out += [tf.rotate(shape, k) for k in range(-1, 4)]
    out += [tf.mirror(shape, axis) for axis in tf.MIRRORS]
    out.append(tf.transpose(shape))
    if shape.is_standard:
        out += [
            tf.swap_rows(shape, 0, shape.box_rows - 1),
            tf.swap_columns(shape, 0, shape.box_cols - 1),
        ]
        if shape.n // shape.box_rows > 1:
            out.append(tf.swap_bands(shape, 0, shape.n // shape.box_rows - 1))
        if shape.n // shape.box_cols > 1:
            out.append(tf.swap_stacks(shape, 0, shape.n // shape.box_cols - 1))
    return out


@pytest.mark.parametrize("solved", SOLVED, ids=SOLVED_IDS)
def test_every_transform_maps_solutions_to_solutions(solved: Case) -> None:
    case = solved
    assert case.solution is not None
    for t in all_simple_transforms(case.shape):
        image = t.apply(case.solution)
        assert image.shape == t.target
        assert image.is_solution(t.apply(case.puzzle))
        assert t.inverse().apply(image) == case.solution
        assert t.apply(case.puzzle).clues == case.puzzle.clues


@pytest.mark.parametrize("solved", SOLVED, ids=SOLVED_IDS)
def test_random_transforms_keep_validity_and_counts(solved: Case) -> None:
    case = solved
    assert case.solution is not None
    rng = random.Random(case.lineno)
    for keep in (True, False):
        t = tf.random_transform(case.shape, rng, keep_shape=keep)
        if keep:
            assert t.target == case.shape
        image = t.apply(case.solution)
        assert image.is_solution(t.apply(case.puzzle))
        assert tf.random_isomorph(case.solution, rng, keep_shape=keep).is_solution()
    if case.shape.n <= 9:
        assert count_solutions(t.apply(case.puzzle), limit=2) == 1


def test_transpose_turns_boxes_and_stays_an_involution() -> None:
    for shape in (Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3), Shape(1, 5)):
        t = tf.transpose(shape)
        assert t.target == Shape(shape.box_cols, shape.box_rows)
        assert t.then(tf.transpose(t.target)).cells == tuple(range(shape.ncells))


def test_rotations_form_a_cycle() -> None:
    s = Shape(3, 3)
    r = tf.rotate(s)
    assert r.then(r).then(r).then(r) == tf.identity(s)
    assert tf.rotate(s, -1) == tf.rotate(s, 3)
    assert tf.rotate(s, 2) == tf.mirror(s, "horizontal").then(tf.mirror(s, "vertical"))
    assert tf.rotate(s) == tf.transpose(s).then(tf.mirror(s, "horizontal"))


def test_invalid_permutations_are_refused() -> None:
    s = Shape(3, 3)
    with pytest.raises(ValueError, match="units"):
        tf.swap_rows(s, 0, 3)  # rows of different bands
    with pytest.raises(ValueError, match="units"):
        tf.swap_columns(s, 2, 3)
    with pytest.raises(ValueError, match="permutation"):
        tf.permute(s, rows=[0] * 9)
    with pytest.raises(ValueError, match="relabelling"):
        tf.relabel(s, [1, 2])
    with pytest.raises(ValueError, match="axis"):
        tf.mirror(s, "sideways")
    with pytest.raises(ValueError, match="maps"):
        tf.identity(s).apply(Grid.empty(Shape(2, 2)))
    with pytest.raises(ValueError, match="follow"):
        tf.transpose(Shape(2, 3)).then(tf.transpose(Shape(2, 3)))


def test_x_keeps_only_diagonal_preserving_maps() -> None:
    x = Shape(3, 3, diagonals=True)
    with pytest.raises(ValueError, match="units"):
        tf.swap_rows(x, 0, 1)  # moves the diagonal cell r1c1 off the diagonal
    with pytest.raises(ValueError, match="units"):
        tf.swap_bands(x, 0, 1)
    # Rows 1,3 swapped with rows 7,9 mirrored, the same for the columns: diagonals kept.
    order = [2, 1, 0, 3, 4, 5, 8, 7, 6]
    t = tf.permute(x, rows=order, cols=order)
    case = next(c for c in CORPUS if c.shape == x and c.solution is not None)
    assert t.apply(case.solution).is_solution()  # type: ignore[arg-type]
    for d in (tf.rotate(x), tf.mirror(x, "anti-diagonal"), tf.transpose(x)):
        assert d.target == x


def test_jigsaw_carries_the_region_map() -> None:
    jig = next(c for c in CORPUS if c.shape.variant == "jigsaw" and c.solution is not None)
    with pytest.raises(ValueError, match="jigsaw"):
        tf.swap_rows(jig.shape, 0, 1)
    t = tf.rotate(jig.shape)
    assert t.target.variant == "jigsaw"
    assert t.target.regions is not None
    assert jig.shape.regions is not None
    n = jig.shape.n
    for r in range(n):
        for c in range(n):  # new (r, c) comes from old (n-1-c, r), region and all
            assert t.target.regions[r * n + c] == jig.shape.regions[(n - 1 - c) * n + r]
    assert t.apply(jig.solution).is_solution(t.apply(jig.puzzle))  # type: ignore[arg-type]
    assert count_solutions(t.apply(jig.puzzle)) == 1
    # keep_shape: only relabelling (this map has no symmetry of its own)
    assert tf.random_transform(jig.shape, random.Random(3)).target == jig.shape


@settings(max_examples=examples(50), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, len(SOLVED) - 1))
def test_composition_and_inverse_laws(seed: int, index: int) -> None:
    case = SOLVED[index]
    rng = random.Random(seed)
    a = tf.random_transform(case.shape, rng, keep_shape=False)
    b = tf.random_transform(a.target, rng, keep_shape=False)
    c = tf.random_transform(b.target, rng, keep_shape=False)
    g = case.puzzle
    assert a.then(b).apply(g) == b.apply(a.apply(g))
    assert a.then(b).then(c) == a.then(b.then(c))
    assert a.then(a.inverse()) == tf.identity(case.shape)
    assert a.inverse().inverse() == a


# -- canonical form --------------------------------------------------------------------------

NINES = [c for c in CORPUS if c.shape == Shape(3, 3)]


def first_appearance(grid: Grid) -> bytes:
    """The cells with digits relabelled in order of first appearance (the minlex relabelling)."""
    labels: dict[int, int] = {0: 0}
    for v in grid.cells:
        labels.setdefault(v, len(labels))
    return bytes(labels[v] for v in grid.cells)


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, len(NINES) - 1))
def test_canonical_is_invariant_minimal_and_equivalent(seed: int, index: int) -> None:
    g = NINES[index].puzzle
    rng = random.Random(seed)
    h = tf.random_isomorph(g, rng, keep_shape=False)
    form = tf.canonical(g)
    assert tf.canonical(h) == form
    assert tf.canonical(form) == form
    # minimal: no isomorph read with its own first-appearance labels is smaller
    for _ in range(20):
        assert form.cells <= first_appearance(tf.random_isomorph(g, rng, keep_shape=False))
    # equivalent: same clues and the same number of solutions
    assert form.clues == g.clues
    assert sorted(g.cells.count(d) for d in range(1, 10)) == sorted(
        form.cells.count(d) for d in range(1, 10)
    )
    limit = NINES[index].count + 1
    assert count_solutions(form, limit=limit) == count_solutions(g, limit=limit)


def test_canonical_tells_inequivalent_grids_apart() -> None:
    uniques = [c.puzzle for c in NINES if c.count == 1 and not c.invalid]
    forms = {tf.canonical(p) for p in uniques}
    assert len(forms) == len(set(uniques))
    solved = Grid.parse(
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    )
    form = tf.canonical(solved)
    assert form.is_solution()
    assert str(form).startswith("123456789")  # a full first row is relabelled in order


# Checked once against a brute force over all 3,359,232 maps of the group (a few minutes of
# pure Python per grid, too slow to run here: tests/data/minlex_brute_force.py): puzzle ->
# its minlex form.
BRUTE_FORCE_CHECKED = {
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..": (
        "...........1..2..324.56.78............2..3..735.68.94.....7..5.52.3.84.671.4.52.8"
    ),
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......": (
        "........1.....1.23..4.5..........5.....6..74.38............2.....7...6...1...8..."
    ),
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179": (
        "123456789457189263698273514271895346539764128864312957345928671786531492912647835"
    ),
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...": (
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
    ),
    "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3": (
        ".............12.34.15....67..1..83...831....656.7..1...5..8.2..7..2.16..8...59.4."
    ),
    # a line of the published 17-clue list that is not written in its minlex form
    "........1.....2.....1....34......5.....14.....6....2...2...67...5.8....97........": (
        "........1.....1.23..4............5......6.4..13..........7.......6.4.7..8...5...9"
    ),
}


@pytest.mark.parametrize(("puzzle", "form"), BRUTE_FORCE_CHECKED.items())
def test_canonical_matches_the_brute_force(puzzle: str, form: str) -> None:
    # tf.canonical is the C core when it is built; the pure-Python specification must agree
    assert str(tf.canonical(Grid.parse(puzzle))) == form
    assert str(tf._canonical_python(Grid.parse(puzzle))) == form
    with pytest.raises(ValueError, match="9x9"):
        tf.canonical(Grid.empty(Shape(2, 2)))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["17clue_49158.txt", "top1465.txt", "serg.txt"])
def test_canonical_on_benchmark_puzzles(name: str) -> None:
    rng = random.Random(name)
    puzzles = [Grid.parse(line) for line in read_puzzles(name, 150)]
    forms = [tf.canonical(p) for p in puzzles]
    for p, form in zip(puzzles, forms, strict=True):
        assert tf.canonical(tf.random_isomorph(p, rng, keep_shape=False)) == form
        assert form.cells <= first_appearance(p)
    assert len(set(forms)) == len(set(puzzles))  # these sets hold no two equivalent puzzles


@pytest.mark.slow
def test_canonical_agrees_with_the_published_17_clue_list() -> None:
    """The 17-clue list was published in minlex form (by other software): almost every line
    is its own canonical form, and none is smaller than ours (a few later additions are
    written in another labelling, and ours is smaller there)."""
    lines = read_puzzles("17clue_49158.txt")
    sample = lines[:200] + random.Random(17).sample(lines, 200)
    forms = [str(tf.canonical(Grid.parse(line))) for line in sample]
    assert all(form <= line for form, line in zip(forms, sample, strict=True))
    same = sum(form == line for form, line in zip(forms, sample, strict=True))
    assert same >= 0.95 * len(sample)
