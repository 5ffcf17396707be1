"""The variant rule kinds, each one value class registered once (layer 1).

:data:`KINDS` maps every kind's name to its class; :class:`~sudokit.rules.base.Rule` is the
contract every kind keeps (check, describe, broken, compile, JSON). A :class:`Constraints
<sudokit.constraints.Constraints>` holds any number of them in ``rules``, next to the older
fields (cages, kropki, XV, parity, thermometers, anti-knight, anti-king, non-consecutive).

>>> sorted(KINDS)[:4]
['arrow', 'between', 'boxindexer', 'clone']
"""

from __future__ import annotations

from .base import KINDS, Compiled, Rule, register
from .board import (
    Diagonal,
    DiagonalNonconsecutive,
    DisjointGroups,
    ExtraRegion,
    Knightmare,
    SelfTaxicab,
    Taxicab,
)
from .cells import (
    BoxIndexer,
    Clone,
    ColumnIndexer,
    Difference,
    Maximum,
    Minimum,
    PairSum,
    Quadruple,
    Ratio,
    RowIndexer,
)
from .lines import (
    Between,
    DoubleArrow,
    Entropic,
    Modular,
    Nabner,
    Palindrome,
    RegionSum,
    Renban,
    SlowThermo,
    Whispers,
    Zipper,
)
from .primitives import GroupKind
from .sums import Arrow, LittleKiller, Sandwich, Skyscraper, SumCage, XSum

__all__ = [
    "KINDS",
    "Arrow",
    "Between",
    "BoxIndexer",
    "Clone",
    "ColumnIndexer",
    "Compiled",
    "Diagonal",
    "DiagonalNonconsecutive",
    "Difference",
    "DisjointGroups",
    "DoubleArrow",
    "Entropic",
    "ExtraRegion",
    "GroupKind",
    "Knightmare",
    "LittleKiller",
    "Maximum",
    "Minimum",
    "Modular",
    "Nabner",
    "PairSum",
    "Palindrome",
    "Quadruple",
    "Ratio",
    "RegionSum",
    "Renban",
    "RowIndexer",
    "Rule",
    "Sandwich",
    "SelfTaxicab",
    "Skyscraper",
    "SlowThermo",
    "SumCage",
    "Taxicab",
    "Whispers",
    "XSum",
    "Zipper",
    "register",
]
