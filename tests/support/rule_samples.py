"""One rule of every kind of :data:`sudokit.rules.KINDS`, valid on 9x9, for drawing tests."""

from __future__ import annotations

from sudokit import rules
from sudokit.rules import Rule

#: A rule of each kind by kind name; the cells keep apart, so all of them fit one 9x9 grid.
SAMPLES: dict[str, Rule] = {
    "arrow": rules.Arrow((10,), ((11, 12, 13),)),
    "doublearrow": rules.DoubleArrow((27, 28, 29, 30)),
    "littlekiller": rules.LittleKiller((2, 10, 18), 12),
    "sandwich": rules.Sandwich(tuple(range(9, 18)), 10),
    "xsum": rules.XSum(tuple(range(8, 81, 9)), 15),
    "skyscraper": rules.Skyscraper(tuple(range(80, 71, -1)), 3),
    "renban": rules.Renban((36, 37, 38)),
    "whispers": rules.Whispers((45, 46, 47)),
    "palindrome": rules.Palindrome((54, 55, 56)),
    "regionsum": rules.RegionSum(((19, 20), (21, 22))),
    "zipper": rules.Zipper((63, 64, 65)),
    "entropic": rules.Entropic((72, 73, 74)),
    "modular": rules.Modular((66, 67, 68)),
    "between": rules.Between((39, 40, 41)),
    "nabner": rules.Nabner((48, 49, 50)),
    "slowthermo": rules.SlowThermo((57, 58, 59)),
    "quadruple": rules.Quadruple((3, 4, 12, 13), (1, 2)),
    "sumcage": rules.SumCage((33, 34), (10, 15)),
    "minimum": rules.Minimum((5,)),
    "maximum": rules.Maximum((6,)),
    "difference": rules.Difference((14, 15), 3),
    "ratio": rules.Ratio((23, 24), 3),
    "pairsum": rules.PairSum((31, 32), 7),
    "clone": rules.Clone((42, 43), (51, 52)),
    "columnindexer": rules.ColumnIndexer((0, 9, 18)),
    "rowindexer": rules.RowIndexer((1,)),
    "boxindexer": rules.BoxIndexer((40,), (3, 3)),
    "diagonal": rules.Diagonal(anti=1),
    "disjointgroups": rules.DisjointGroups((3, 3)),
    "extraregion": rules.ExtraRegion((60, 61, 69, 70)),
    "knightmare": rules.Knightmare(),
    "taxicab": rules.Taxicab(3),
    "selftaxicab": rules.SelfTaxicab(),
    "diagonalnonconsecutive": rules.DiagonalNonconsecutive(),
}
