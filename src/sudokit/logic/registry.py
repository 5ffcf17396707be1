"""The techniques the path loop may use, easiest first (layer 2).

A technique is a *finder*: ``finder(cg)`` yields every step of that technique it finds in the
candidate grid ``cg`` (it may be lazy; it must not change ``cg``). Every step it yields has a
rating ``>=`` the technique's base ``rating``, and the finder should yield its easiest steps
first. ``needs_unique`` techniques (uniqueness arguments) are used only when the puzzle is known
to have exactly one solution.

The last rules are SE's nested forcing chains (base ratings from ``forcing.NESTED_FLOOR`` =
9.5 up to 11.0); they are so slow that every path walk bounds them with a time budget.

Variant rules: the killer techniques (:mod:`.killer`), the other variants' own rules
(:mod:`.variants`) and the rule kinds' sums and groups (:mod:`.rulesteps`) are registered with
``se=False`` in the families ``"killer"`` and ``"variant"`` (:data:`VARIANT_FAMILIES`); they
find nothing on a classic shape. Every other technique is sound on the variants, because it
reasons only from units (which still hold every digit once) and peers (which include the extra
"must differ" pairs: a wider notion of "sees", so a sound one), and never from the cages or
relations: it may miss what they imply, never claim what they forbid. The exception is the
uniqueness family (Unique Rectangle / Loop, BUG): its argument "these cells could swap two
digits, so the puzzle would have two solutions" holds only for rules that every such swap
preserves. A cage sum, a dot, a thermometer, an anti-knight or anti-king neighbour, a window or
a diagonal crossing the pattern can each break the swap (a rectangle whose cells lie in
different cages no longer keeps the sums), so the pattern need not be deadly and the elimination
can remove the solution. They are therefore switched off (:func:`classic_only`) on any shape
with constraints, windows or diagonals; they stay on for standard and jigsaw shapes, where every
unit of the rectangle holds two of its cells and the swap keeps every rule.

To register a finder, add one :class:`Technique` line to the list below; the list is sorted by
base rating when the module loads, so the position of the line does not matter.

>>> [t.name for t in TECHNIQUES[:4]]
['Full House', 'Parity', 'Hidden Single (box)', 'Thermometer']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .._record import _Record
from . import (
    als,
    chains,
    exclusion,
    fish,
    forcing,
    intersections,
    killer,
    rulesteps,
    single_digit,
    singles,
    subsets,
    uniqueness,
    variants,
    wings,
)
from .candidates import CandidateGrid
from .step import Step

__all__ = ["TECHNIQUES", "VARIANT_FAMILIES", "Finder", "Technique", "by_name", "classic_only"]

Finder = Callable[[CandidateGrid], Iterable[Step]]

#: The families of the variant techniques (used with SE's own ones to rate a variant).
VARIANT_FAMILIES = frozenset({"killer", "variant"})


def classic_only(finder: Finder) -> Finder:
    """*finder* on shapes whose rules are only rows, columns and boxes or jigsaw regions; on
    any other shape (constraints, windoku windows, diagonals) it finds nothing.

    >>> from sudokit.grid import Grid
    >>> from sudokit.shape import Shape
    >>> quiet = classic_only(lambda cg: iter([Step("x", 1.0)]))
    >>> len(list(quiet(CandidateGrid.from_grid(Grid.empty(Shape(2, 2))))))
    1
    >>> len(list(quiet(CandidateGrid.from_grid(Grid.empty(Shape(2, 2, diagonals=True))))))
    0
    """

    def run(cg: CandidateGrid) -> Iterator[Step]:
        shape = cg.shape
        if shape.constraints is not None or shape.windoku or shape.diagonals:
            return
        yield from finder(cg)

    run.__name__ = getattr(finder, "__name__", "finder")
    run.__doc__ = finder.__doc__
    return run


class Technique(_Record):
    """A named technique: its family, base rating (SE 1.2.1 scale) and finder.

    ``se`` is False for the well-known techniques Sudoku Explainer does not have (Skyscraper,
    W-Wing, finned fish, ALS-XZ, ...): they make good hints and carry SE-comparable values, but
    the SE-comparable rating uses only ``se`` techniques so that it agrees with SE.
    """

    __slots__ = ("family", "finder", "name", "needs_unique", "rating", "se")
    __match_args__ = ("name", "family", "rating", "finder", "needs_unique", "se")
    name: str
    family: str
    rating: float
    finder: Finder
    needs_unique: bool
    se: bool  # one of Sudoku Explainer 1.2.1's techniques (used for the SE rating)

    def __init__(
        self,
        name: str,
        family: str,
        rating: float,
        finder: Finder,
        needs_unique: bool = False,
        se: bool = True,
    ) -> None:
        self._set(name, family, rating, finder, needs_unique, se)


def _not_se(*rows: tuple[str, str, float, Finder]) -> list[Technique]:
    """The techniques Sudoku Explainer does not have (``se=False``), one ``(name, family,
    rating, finder)`` row each, in the order given."""
    return [
        Technique(name, family, rating, finder, se=False) for name, family, rating, finder in rows
    ]


TECHNIQUES: list[Technique] = [
    # singles and SE's "direct" techniques (a placement found by a short argument)
    Technique("Full House", "singles", 1.0, singles.full_house),
    Technique("Hidden Single (box)", "singles", 1.2, singles.hidden_single_box),
    Technique("Hidden Single (row/column)", "singles", 1.5, singles.hidden_single_line),
    Technique("Direct Pointing", "singles", 1.7, singles.direct_pointing),
    Technique("Direct Claiming", "singles", 1.9, singles.direct_claiming),
    Technique("Direct Hidden Pair", "singles", 2.0, singles.direct_hidden_pair),
    Technique("Naked Single", "singles", 2.3, singles.naked_single),
    Technique("Direct Hidden Triple", "singles", 2.5, singles.direct_hidden_triple),
    # intersections
    Technique("Pointing", "intersections", 2.6, intersections.pointing),
    Technique("Claiming", "intersections", 2.8, intersections.claiming),
    # subsets
    Technique("Naked Pair", "subsets", subsets.NAKED_RATING[2], subsets.naked_pair),
    Technique("Hidden Pair", "subsets", subsets.HIDDEN_RATING[2], subsets.hidden_pair),
    Technique("Naked Triple", "subsets", subsets.NAKED_RATING[3], subsets.naked_triple),
    Technique("Hidden Triple", "subsets", subsets.HIDDEN_RATING[3], subsets.hidden_triple),
    Technique("Naked Quad", "subsets", subsets.NAKED_RATING[4], subsets.naked_quad),
    Technique("Hidden Quad", "subsets", subsets.HIDDEN_RATING[4], subsets.hidden_quad),
    # fish
    Technique("X-Wing", "fish", fish.BASIC_RATING[2], fish.x_wing),
    Technique("Swordfish", "fish", fish.BASIC_RATING[3], fish.swordfish),
    Technique("Jellyfish", "fish", fish.BASIC_RATING[4], fish.jellyfish),
    Technique("Finned X-Wing", "fish", fish.FINNED_RATING[2], fish.finned_x_wing, se=False),
    Technique("Finned Swordfish", "fish", fish.FINNED_RATING[3], fish.finned_swordfish, se=False),
    Technique("Finned Jellyfish", "fish", fish.FINNED_RATING[4], fish.finned_jellyfish, se=False),
    # wings
    Technique("XY-Wing", "wings", 4.2, wings.xy_wing),
    Technique("XYZ-Wing", "wings", 4.4, wings.xyz_wing),
    Technique("W-Wing", "wings", 4.4, wings.w_wing, se=False),
    # single-digit patterns
    Technique("Skyscraper", "single-digit", 4.0, single_digit.skyscraper, se=False),
    Technique("2-String Kite", "single-digit", 4.1, single_digit.two_string_kite, se=False),
    Technique("Turbot Fish", "single-digit", 4.2, single_digit.turbot_fish, se=False),
    Technique("Empty Rectangle", "single-digit", 4.3, single_digit.empty_rectangle, se=False),
    Technique("Simple Colouring", "single-digit", 4.5, single_digit.simple_colouring, se=False),
    # uniqueness (only when the puzzle is known to be unique)
    Technique(
        "Unique Rectangle / Loop",
        "uniqueness",
        4.5,
        classic_only(uniqueness.unique_rectangle),
        True,
    ),
    Technique("BUG", "uniqueness", 5.6, classic_only(uniqueness.bug_plus_one), True),
    # exclusion and almost locked sets
    Technique("ALS-XZ", "als", 5.5, als.als_xz, se=False),
    Technique("Aligned Pair Exclusion", "exclusion", 6.2, exclusion.aligned_pair),
    Technique("Aligned Triple Exclusion", "exclusion", 7.5, exclusion.aligned_triple),
    # chains and forcing chains (logic/chains.py, logic/forcing.py) register here; SE's chaining
    # rules in SE's order (each stays silent on a state where an earlier one found a step)
    Technique("X-Chain", "chains", 6.5, chains.x_chains, se=False),
    Technique("XY-Chain", "chains", 6.5, chains.xy_chains, se=False),
    Technique("AIC", "chains", 6.9, chains.alternating_inference_chains, se=False),
    Technique("Forcing Chains & Cycles", "chains", 6.5, chains.forcing_chains_and_cycles),
    Technique("Nishio Forcing Chains", "forcing", 7.5, forcing.nishio_forcing_chains),
    Technique("Multiple Forcing Chains", "forcing", 8.0, forcing.multiple_forcing_chains),
    Technique("Dynamic Forcing Chains", "forcing", 8.5, forcing.dynamic_forcing_chains),
    Technique("Dynamic Forcing Chains (+)", "forcing", 9.0, forcing.dynamic_forcing_chains_plus),
    # variant rules (logic/variants.py) and killer techniques (logic/killer.py): not SE's; values
    # on the SE-comparable scale, see those modules and the variant notes of sudokit.rating
    *_not_se(
        ("Parity", "variant", variants.PARITY, variants.parity),
        ("Thermometer", "variant", variants.THERMOMETER, variants.thermometer),
        ("Neighbour Rule", "variant", variants.NEIGHBOUR, variants.neighbour_rule),
        # the rule kinds' sums and groups (logic/rulesteps.py; their relations: Neighbour Rule)
        ("Rule Sum", "variant", rulesteps.SUM_BOUNDS, rulesteps.rule_sum),
        ("Rule Group", "variant", rulesteps.LINE_GROUP, rulesteps.rule_group),
        ("Rule Sum Fillings", "variant", rulesteps.SUM_FILLINGS, rulesteps.rule_sum_fillings),
        ("Outside Clue", "variant", rulesteps.OUTSIDE_CLUE, rulesteps.outside_clue),
        ("Cage Combination", "killer", killer.COMBINATION_ONE, killer.cage_combination),
        ("Rule of 45", "killer", killer.RULE45_CELL, killer.rule_of_45),
        ("Cage Pointing", "killer", killer.CAGE_POINTING, killer.cage_pointing),
        ("Hidden Cage", "killer", killer.HIDDEN_CAGE, killer.hidden_cage),
        ("Rule of 45 (sum)", "killer", killer.RULE45_SUM, killer.rule_of_45_sum),
        ("Cage Claiming", "killer", killer.CAGE_CLAIMING, killer.cage_claiming),
        ("Cage Clash", "killer", killer.CAGE_CLASH, killer.cage_clash),
        (
            "Rule of 45 (difference)",
            "killer",
            killer.RULE45_DIFFERENCE,
            killer.rule_of_45_difference,
        ),
        ("Cage Interaction", "killer", killer.CAGE_INTERACTION, killer.cage_interaction),
    ),
    # SE's nested forcing chains (levels 2-5: 9.5, 10.0, 10.5, 11.0): tried only when every
    # rule above failed; slow in pure Python (seconds to minutes a step), so a caller bounds
    # them with a time budget (solve_path's budget_s, or chains.chain_budget).
    *(Technique(name, "forcing", base, finder) for name, base, finder in forcing.NESTED_RULES),
]

TECHNIQUES.sort(key=lambda t: t.rating)


def by_name(name: str) -> Technique:
    """The registered technique called *name* (case-insensitive).

    >>> by_name("x-wing").rating
    3.2
    """
    key = name.lower()
    for t in TECHNIQUES:
        if t.name.lower() == key:
            return t
    raise KeyError(name)
