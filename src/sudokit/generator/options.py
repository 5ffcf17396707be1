"""The options of a generation run, validated once: :class:`GenerateOptions`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TypedDict

from .. import _backend
from ..constraints import Constraints
from ..errors import SudokuError, quote
from ..grid import Grid
from ..shape import Shape
from . import lowclue
from .difficulty import _DETERMINISTIC, _RATINGS, _RATINGS_SLOW, _Target, _target
from .drawn_rules import KINDS as RULE_KINDS
from .patterns import _MARKS, parse_pattern
from .symmetry import check_symmetry
from .variants import DRAWN_RULES, Drawn, _extended

__all__ = ["GenerateOptions", "min_clues"]

# Fewest clues a unique puzzle can have, where it is known (standard shapes only): 4x4 has 4,
# 6x6 (2x3 boxes) 8, 9x9 17 (McGuire, Tugemann and Civario 2012). Elsewhere n - 1 (at most
# one digit can be absent from the givens) is the bound used.
_KNOWN_MIN_CLUES = {(2, 2): 4, (2, 3): 8, (3, 2): 8, (3, 3): 17}


def min_clues(shape: Shape) -> int:
    """A lower bound on the clues of a unique puzzle of *shape* (exact where it is known).

    >>> min_clues(Shape(3, 3)), min_clues(Shape(4, 4)), min_clues(Shape(3, 3, diagonals=True))
    (17, 15, 8)
    """
    if shape.is_standard:
        known = _KNOWN_MIN_CLUES.get((shape.box_rows, shape.box_cols))
        if known is not None:
            return known
    rules = shape.constraints
    if rules is not None and rules != Constraints(
        antiknight=rules.antiknight, antiking=rules.antiking
    ):
        return 0  # rules that tell digits apart (sums, dots, parity): givens may be none
    return max(shape.n - 1, 0)


@dataclass(frozen=True, slots=True)
class _Plan:
    """Validated generation options (picklable, for worker processes)."""

    shape: Shape  # for a random jigsaw: the base shape (size, diagonals)
    random_jigsaw: bool
    symmetry: str
    target: tuple[int, int] | None
    minimal: bool
    mask: tuple[int, ...] | None
    budget: int
    backend: str | None
    goal: _Target | None = None  # a difficulty target
    minimal_required: bool = False  # minimal asked for explicitly (no clues may be added)
    ratings: int = 0  # rating walks per puzzle (with a difficulty target)
    drawn: Drawn | None = None  # rules drawn from each solution (killer, kropki, ...)
    human: bool = False  # givens added until the explainer's walk solves (walked.climb)


class OptionArgs(TypedDict, total=False):
    """The keyword arguments :func:`~sudokit.generate` and :func:`~sudokit.generate_many` pass
    on to :class:`GenerateOptions` (for type checkers)."""

    shape: Shape | None
    symmetry: str
    clues: int | tuple[int, int] | None
    minimal: bool | None
    pattern: Grid | str | Sequence[int] | None
    jigsaw: bool
    diagonals: bool
    difficulty: str | tuple[float, float] | None
    rating: tuple[float, float] | None
    require: str | Sequence[str] | None
    budget: int | None
    ratings: int | None
    backend: str | None
    killer: bool
    windoku: bool
    antiknight: bool
    antiking: bool
    nonconsecutive: bool
    kropki: bool
    xv: bool
    parity: bool
    thermo: bool
    cage_sizes: tuple[int, int]
    arrow: bool
    littlekiller: bool
    sandwich: bool
    renban: bool
    whispers: bool
    palindrome: bool
    between: bool
    minmax: bool
    xsum: bool
    skyscraper: bool
    any_unique: bool


@dataclass(frozen=True, slots=True)
class GenerateOptions:
    """What to generate, checked once: the options of :func:`~sudokit.generate`,
    :func:`~sudokit.generate_many` and ``sudokit generate`` in one immutable, hashable,
    picklable value. Building one raises :class:`SudokuError` for options that cannot go
    together, so a run fails before any work starts.

    :param size: the grid size (default 9) with the most square boxes; or pass *shape*
        (rectangular boxes, Sudoku-X, a jigsaw region map).
    :param symmetry: clue-position symmetry, one of :data:`SYMMETRIES` (or an alias of
        :data:`SYMMETRY_ALIASES`); it must map the shape's units onto units (see
        :func:`applicable_symmetries`).
    :param clues: a clue count or an inclusive ``(lo, hi)`` range, reached best effort.
        Plain 9x9 ranges ending at 23 clues or below (17 at the least) are reached exactly
        (a count drawn from the range) with minimal puzzles; 17-19 clues are seeded from a
        catalogue of known 17-clue puzzles (see :mod:`sudokit.generator.lowclue`).
    :param minimal: require that no single clue can be removed. ``None`` (the default) means
        True for sizes up to 9 without a clue range, pattern or symmetry. Otherwise clues are
        still removed orbit by orbit while the puzzle stays unique (so a symmetric puzzle has
        no removable orbit: puzzles both symmetric and minimal are rare), but above 9x9 each
        uniqueness search has a guess bound (:func:`search_budget`) and clues it cannot
        decide stay. Sizes above 9x9 are therefore near-minimal, not proven minimal.
        With a difficulty target 9x9 puzzles stay minimal by default; elsewhere (smaller
        sizes, a symmetry, a clue range) clues may be added to a candidate to bring it into
        the window (the result's ``minimal`` then says False). Non-consecutive puzzles are
        near-minimal by default above 6x6 (proving minimality there often exceeds the budget).
    :param pattern: clue positions to fill (a pattern text, a Grid whose non-empty cells
        mark them, or cell indices); the digits are chosen so the puzzle is unique.
    :param jigsaw: use a fresh random region map (:func:`random_jigsaw`) of the given size.
    :param diagonals: add the two diagonals as units (Sudoku-X).
    :param difficulty: a level of :data:`sudokit.rating.LEVELS` (``"hard"``: SE 4.0-6.0), or
        an inclusive range of SE ratings ``(lo, hi)`` like *rating*.
    :param rating: an inclusive range of SE ratings ``(lo, hi)``, as :func:`sudokit.rate`
        computes them (with *difficulty* too, the puzzle must meet both). The result's ``se``
        is the puzzle's rating (None when only *require* was given and the path goes on above
        the required techniques).
    :param require: a technique name (``"X-Wing"``, ``"Forcing Chains & Cycles"``), the first
        words of technique names (``"Unique Rectangle"``, ``"Hidden Single"``) or a family
        (``"wings"``), or a list of them: each must appear on the rated easiest-first path.
        Only Sudoku Explainer's techniques (those the rating uses) can be required.
    :param budget: the most engine searches to spend per puzzle (default
        ``2000 + 40 * cells``, twenty times that for a pattern, a hundred times with a
        difficulty target).
    :param ratings: with a difficulty target, the most rating walks to spend per puzzle
        (default 1000; 300 for windows above SE 7.5, whose walks run forcing chains).
    :param backend: the search engine, ``"c"`` or ``"python"`` (default: the chosen one).
    :param windoku: add the windoku windows (square boxes only) as units.
    :param antiknight: cells a knight's move apart differ; *antiking*: cells a king's move
        apart differ; *nonconsecutive*: side-by-side cells never hold consecutive digits.
        These rules ride on the shape and combine with every other option. Puzzles with any
        rule (these, *windoku*, *diagonals*, the drawn rules below) are human-solvable by
        default up to 9x9: where the explainer's walk stops on the unique puzzle, givens are
        added (:func:`sudokit.generator.walked.climb`; the puzzle is then not minimal). A pattern,
        a clue range, ``minimal=True`` or a difficulty target keep the givens as they ask,
        and *any_unique* keeps any unique puzzle.
    :param killer: draw killer cages from each puzzle's solution (connected, *cage_sizes*
        cells, default 2-5, about 26-30 on 9x9), with zero givens unless the cages alone
        cannot be made unique (see :mod:`sudokit.generator.variants`).
    :param kropki: draw every kropki dot of the solution, with the negative rule;
        *xv*: every X and V, with the negative rule; *parity*: the parity of half the cells;
        *thermo*: a few thermometers. Rules drawn from the solution take the fewest givens
        that make the puzzle unique; they do not combine with a pattern, a clue range or
        ``minimal=False``. A difficulty target on a variant uses the variant scale of
        :func:`sudokit.rate` (SE's techniques plus the killer and variant ones).
    :param cage_sizes: the least and most cells of a killer cage (``(1, 5)`` allows
        single-cell cages).
    :param arrow: and *littlekiller*, *sandwich*, *renban*, *whispers*, *palindrome*,
        *between*, *minmax*, *xsum*, *skyscraper*: draw rules of these kinds from each
        solution (:mod:`sudokit.generator.drawn_rules`), as many as uniqueness needs and one
        of each at least, then the fewest givens; 4x4 to 9x9. By default the puzzle is also
        solvable by the explainer's human walk (no search step); *any_unique* keeps any
        unique puzzle (``--any``), for every rule (it is refused without one).

    The fields keep the values as given (sequences become tuples), so
    :func:`dataclasses.replace` works on them; what they resolve to (the shape, the clue
    range, the budgets) is worked out once, when the value is built.

    >>> opts = GenerateOptions(6, symmetry="mirror-h")
    >>> opts.symmetry, opts.resolved_symmetry, opts.resolved_shape
    ('mirror-h', 'mirror-tb', Shape(2, 3))
    >>> GenerateOptions(6, symmetry="rot90")
    Traceback (most recent call last):
      ...
    sudokit.errors.SudokuError: symmetry 'rot90' does not fit a 6x6 grid with 2x3 boxes (it \
does not map units onto units); symmetries that fit: none, rot180, mirror-tb, mirror-lr
    """

    size: int | None = None
    _: KW_ONLY
    shape: Shape | None = None
    symmetry: str = "none"
    clues: int | tuple[int, int] | None = None
    minimal: bool | None = None
    pattern: Grid | str | Sequence[int] | None = None
    jigsaw: bool = False
    diagonals: bool = False
    difficulty: str | tuple[float, float] | None = None
    rating: tuple[float, float] | None = None
    require: str | Sequence[str] | None = None
    budget: int | None = None
    ratings: int | None = None
    backend: str | None = None
    killer: bool = False
    windoku: bool = False
    antiknight: bool = False
    antiking: bool = False
    nonconsecutive: bool = False
    kropki: bool = False
    xv: bool = False
    parity: bool = False
    thermo: bool = False
    cage_sizes: tuple[int, int] = (2, 5)
    arrow: bool = False
    littlekiller: bool = False
    sandwich: bool = False
    renban: bool = False
    whispers: bool = False
    palindrome: bool = False
    between: bool = False
    minmax: bool = False
    xsum: bool = False
    skyscraper: bool = False
    any_unique: bool = False
    plan: _Plan = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("clues", "pattern", "require", "rating", "difficulty", "cage_sizes"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        pattern = self.pattern
        if pattern is not None and not isinstance(pattern, Grid | str | tuple):
            object.__setattr__(self, "pattern", tuple(pattern))
        plan = _plan(
            self.size,
            self.shape,
            symmetry=self.symmetry,
            clues=self.clues,
            minimal=self.minimal,
            pattern=self.pattern,
            jigsaw=self.jigsaw,
            diagonals=self.diagonals,
            difficulty=self.difficulty,
            rating=self.rating,
            require=self.require,
            ratings=self.ratings,
            budget=self.budget,
            backend=self.backend,
            windoku=self.windoku,
            rules=Constraints(
                antiknight=self.antiknight,
                antiking=self.antiking,
                nonconsecutive=self.nonconsecutive,
            ),
            drawn=_drawn(self),
            any_unique=self.any_unique,
        )
        object.__setattr__(self, "plan", plan)

    @property
    def resolved_shape(self) -> Shape:
        """The shape puzzles get (for a random jigsaw: the base shape, size and diagonals)."""
        return self.plan.shape

    @property
    def resolved_symmetry(self) -> str:
        """The symmetry's name in :data:`SYMMETRIES` (an alias replaced)."""
        return self.plan.symmetry


def _drawn(options: GenerateOptions) -> Drawn | None:
    """The rules *options* draw from each solution (None: none), the cage sizes checked."""
    sizes = options.cage_sizes
    if sizes != (2, 5) and not options.killer:
        raise SudokuError("cage sizes are for killer cages: add killer=True (--killer)")
    kinds = tuple(name for name in RULE_KINDS if getattr(options, name))
    if not kinds and not any(getattr(options, name) for name in DRAWN_RULES):
        return None
    if (
        len(sizes) != 2
        or not all(isinstance(k, int) for k in sizes)
        or not 1 <= sizes[0] <= sizes[1]
    ):
        raise SudokuError(f"cage sizes must be A-B with 1 <= A <= B, got {quote(sizes)}")
    return Drawn(
        options.killer,
        options.kropki,
        options.xv,
        options.parity,
        options.thermo,
        (sizes[0], sizes[1]),
        kinds,
        not options.any_unique,
    )


def _plan(
    size: int | None,
    shape: Shape | None,
    *,
    symmetry: str,
    clues: int | tuple[int, int] | None,
    minimal: bool | None,
    pattern: Grid | str | Sequence[int] | None,
    jigsaw: bool,
    diagonals: bool,
    difficulty: str | tuple[float, float] | None,
    rating: tuple[float, float] | None = None,
    require: str | Sequence[str] | None = None,
    ratings: int | None = None,
    budget: int | None,
    backend: str | None,
    windoku: bool = False,
    rules: Constraints | None = None,
    drawn: Drawn | None = None,
    any_unique: bool = False,
) -> _Plan:
    goal = _target(difficulty, rating, require)
    if shape is None and size is None:  # a pattern tells the size
        if isinstance(pattern, Grid):
            shape = pattern.shape
        elif isinstance(pattern, str):
            shape = Grid.parse(pattern.translate(_MARKS)).shape
    if shape is None:
        if size is None:
            size = 9
        if not isinstance(size, int) or not 1 <= size <= 64:
            raise SudokuError(f"size must be an integer in 1..64, got {quote(size)}")
        shape = Shape.from_size(size, diagonals=diagonals)
    else:
        if size is not None and size != shape.n:
            raise SudokuError(f"size {size} does not match the shape's size {shape.n}")
        if diagonals and not shape.diagonals:
            shape = Shape(
                shape.box_rows,
                shape.box_cols,
                diagonals=True,
                regions=shape.regions,
                windoku=shape.windoku,
                constraints=shape.constraints,
            )
    if jigsaw and shape.regions is not None:
        raise SudokuError("a random jigsaw was asked for, but the shape already has a region map")
    if shape.n < 2:
        raise SudokuError("puzzles need a size of at least 2")
    shape = _variant_shape(shape, windoku, rules, jigsaw)
    if drawn is not None:
        _check_drawn(shape, drawn, pattern, clues, minimal, goal)
    symmetry = check_symmetry(shape, symmetry)
    mask: tuple[int, ...] | None = None
    if pattern is not None:
        if symmetry != "none":
            raise SudokuError(
                "a pattern fixes the clue positions: it cannot be combined with a symmetry"
            )
        if clues is not None:
            raise SudokuError(
                "a pattern fixes the clue count: it cannot be combined with a clue range"
            )
        if isinstance(pattern, str):
            mask = parse_pattern(pattern, shape)
        elif isinstance(pattern, Grid):
            if pattern.shape.n != shape.n:
                raise SudokuError(
                    f"the pattern is {pattern.n}x{pattern.n}, the puzzle {shape.n}x{shape.n}"
                )
            mask = tuple(i for i, v in enumerate(pattern.cells) if v)
        else:
            mask = tuple(sorted(set(pattern)))
            if mask and not 0 <= mask[0] <= mask[-1] < shape.ncells:
                raise SudokuError(f"pattern cells must be in 0..{shape.ncells - 1}")
        if len(mask) < min_clues(shape):
            raise SudokuError(
                f"the pattern has {len(mask)} clue positions; a unique {shape.n}x{shape.n} "
                f"puzzle needs at least {min_clues(shape)}"
            )
    target = _clue_range(clues, shape)
    minimal_required = explicit_minimal = minimal is True
    if minimal is None:
        minimal = shape.n <= 9 and mask is None and target is None and symmetry == "none"
        # Proving a non-consecutive 9x9 puzzle minimal took 15-28 s and ran out of the
        # search budget on 2 of seeds 1-3; near-minimal ones take 0.02-0.3 s (10-12 givens
        # against 8-9). So non-consecutive 9x9 is near-minimal unless --minimal asks.
        rules = shape.constraints
        minimal = minimal and not (rules is not None and rules.nonconsecutive and shape.n > 6)
        # 9x9 stays minimal with a difficulty target too (no clues added to climb); smaller
        # grids have too few minimal puzzles of a given level, so they may climb.
        minimal_required = minimal and shape.n == 9
    # The human default of the kinds the classic pipeline and the drawn rules of
    # sudokit.generator.variants build (the drawn rule kinds have their own builder): givens
    # added until the explainer's walk solves the puzzle, where nothing fixes the givens
    # (a pattern, a clue range, --minimal asked) or aims at a level (a difficulty target).
    # Up to 9x9, as the drawn rule kinds: above, the walk's steps cost seconds (a 16x16
    # killer took 4.2 s and 8.1 s with the climb) and the web app waits on them.
    own = shape.constraints
    ruled = drawn is not None or shape.diagonals or shape.windoku
    ruled = ruled or (own is not None and not own.is_empty())
    if any_unique and not ruled:
        raise SudokuError(
            "any_unique (--any) is for puzzles with rules: add one (--killer, --antiknight, "
            "--x, --arrow, ...)"
        )
    human = (
        not any_unique
        and ruled
        and shape.n <= 9
        and (drawn is None or not drawn.kinds)
        and mask is None
        and target is None
        and goal is None
        and not explicit_minimal
    )
    if budget is None:
        # Filling a sparse pattern takes many attempts of a few searches each; a difficulty
        # target is bounded by its rating walks instead.
        budget = (2000 + 40 * shape.ncells) * (20 if mask is not None else 1)
        if lowclue.applies(shape, symmetry, mask, target):
            budget *= 4  # sparse 9x9 targets: descents of a few thousand searches
        if goal is not None:
            budget *= 100
    if budget < 1:
        raise SudokuError(f"budget must be >= 1 search, got {budget}")
    if ratings is None:
        ratings = _RATINGS if goal is None or goal.cap <= _DETERMINISTIC else _RATINGS_SLOW
    if ratings < 1:
        raise SudokuError(f"ratings must be >= 1 rating walk, got {ratings}")
    if backend is not None:
        _backend.get_engine(backend)  # fail early on an unknown or unavailable engine
    return _Plan(
        shape,
        jigsaw,
        symmetry,
        target,
        minimal,
        mask,
        budget,
        backend,
        goal,
        minimal_required,
        ratings,
        drawn,
        human,
    )


def _variant_shape(shape: Shape, windoku: bool, rules: Constraints | None, jigsaw: bool) -> Shape:
    """*shape* with the windoku windows and the solution-independent *rules* added."""
    if windoku and not shape.windoku:
        if jigsaw or shape.regions is not None:
            raise SudokuError("windoku windows need boxes: they cannot go with a jigsaw")
        try:
            shape = Shape(
                shape.box_rows,
                shape.box_cols,
                diagonals=shape.diagonals,
                windoku=True,
                constraints=shape.constraints,
            )
        except ValueError as exc:
            raise SudokuError(f"windoku: {exc}") from None
    if rules is not None and not rules.is_empty():
        shape = shape.with_constraints(_extended(shape.constraints, rules))
    return shape


def _check_drawn(
    shape: Shape,
    drawn: Drawn,
    pattern: object,
    clues: object,
    minimal: bool | None,
    goal: _Target | None = None,
) -> None:
    """Refuse what rules drawn from the solution do not go with."""
    asked = [name for name in DRAWN_RULES if getattr(drawn, name)] + list(drawn.kinds)
    names = ", ".join(f"--{name}" for name in asked)
    if drawn.kinds and goal is not None:
        # The rule kinds are laid out to make the solution unique, with no climb toward a
        # level: asking for one searched without end (no seed of a 9x9 arrow reached "hard"
        # in 40 s), so it is refused until the layout can aim at the variant scale.
        raise SudokuError(
            f"{', '.join(f'--{kind}' for kind in drawn.kinds)}: a difficulty, rating or "
            "required technique cannot be asked of drawn rule kinds yet (drop it)"
        )
    if pattern is not None or clues is not None:
        raise SudokuError(
            f"{names} take the fewest givens that make the puzzle unique: they cannot be "
            "combined with a pattern or a clue range"
        )
    if minimal is False:
        raise SudokuError(f"{names} always remove every given they can (drop --no-minimal)")
    own = shape.constraints
    if own is not None and (own.cages or own.white or own.black or own.x or own.v):
        raise SudokuError(f"{names} draw their rules: the shape already has cages or marks")
    if drawn.kinds and not 4 <= shape.n <= 9:
        raise SudokuError(
            f"{names}: drawn rule kinds are made for 4x4 to 9x9, not {shape.n}x{shape.n}"
        )
    if own is not None and own.rules:
        raise SudokuError(f"{names} draw their rules: the shape already has rules")
    if drawn.killer and drawn.cage_sizes[0] > shape.n:
        raise SudokuError(
            f"cages of at least {drawn.cage_sizes[0]} cells do not fit a {shape.n}x{shape.n} grid"
        )


def _clue_range(clues: int | tuple[int, int] | None, shape: Shape) -> tuple[int, int] | None:
    if clues is None:
        return None
    if isinstance(clues, int):
        lo = hi = clues
    else:
        lo, hi = clues
    if lo > hi:
        raise SudokuError(f"clue range {lo}-{hi} is empty (the lower end is above the upper)")
    if lo < 0 or hi > shape.ncells:
        raise SudokuError(
            f"clue range {lo}-{hi} is outside 0-{shape.ncells} for {shape.n}x{shape.n}"
        )
    floor = min_clues(shape)
    if hi < floor:
        raise SudokuError(
            f"no unique {shape.n}x{shape.n} {shape.variant} puzzle has fewer than {floor} clues; "
            f"asked for {lo}-{hi}"
        )
    return max(lo, floor), hi
