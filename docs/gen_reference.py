"""The generated parts of the docs site's reference pages, made from the code's own lists.

Each function returns Markdown that ``docs/hooks.py`` puts where a page says
``<!-- generated: NAME -->``: the formats of :data:`sudokit.formats.FORMATS`, the JSON rule
keys of :data:`sudokit.formats._rules.KEYS`, the f-puzzles keys read and written, and the
recorded benchmark tables. A key, a format or a rule added to the code without its line here
fails the build, naming it, so the pages cannot fall behind.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from sudokit import formats
from sudokit.constraints import Cage, Constraints
from sudokit.formats import _rules, fpuzzles, fpuzzles_rules
from sudokit.grid import Grid
from sudokit.shape import Shape

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

#: What each rule key of a JSON puzzle object holds (checked against ``_rules.KEYS``).
RULE_SCHEMA = {
    "cages": (
        'list of `{"sum": int, "cells": [int, ...]}`',
        "killer cages; a cage without `sum` only keeps its digits distinct",
        '[{"sum": 11, "cells": [0, 9]}, {"cells": [1, 2]}]',
    ),
    "windoku": ("`true`", "the windoku windows are houses too (square boxes only)", "true"),
    "antiknight": ("`true`", "cells a knight's move apart differ", "true"),
    "antiking": ("`true`", "cells a king's move apart differ", "true"),
    "nonconsecutive": ("`true`", "side-by-side cells never hold consecutive digits", "true"),
    "kropki": (
        "object: `white`, `black` (lists of `[cell, cell]`), `negative` (bool)",
        "white dot: consecutive digits; black dot: one is twice the other; `negative`: "
        "every other orthogonal pair is neither",
        '{"white": [[3, 4]], "black": [[4, 13]], "negative": false}',
    ),
    "xv": (
        "object: `x`, `v` (lists of `[cell, cell]`), `negative` (bool)",
        "X: the two digits add up to 10; V: to 5; `negative`: every other orthogonal pair "
        "adds up to neither",
        '{"x": [[5, 6]], "v": [[6, 15]], "negative": false}',
    ),
    "parity": (
        "string, one symbol a cell",
        "`e` even, `o` odd, `.` free",
        '"e.o....."',
    ),
    "thermos": (
        "list of cell paths",
        "thermometers, bulb first: digits increase from the bulb",
        "[[20, 21, 31]]",
    ),
    "rules": (
        'list of `{"kind": name, field: value, ...}`',
        "any rule kind of `sudokit.rules` (arrows, little killers, sandwiches, renban, "
        "whispers, ...) as `Rule.to_json` writes it: its kind and its fields",
        '[{"kind": "renban", "cells": [0, 1, 2]}]',
    ),
}

#: What each f-puzzles key read as a rule means here (checked against ``fpuzzles.RULE_KEYS``).
FPUZZLES_RULES = {
    "diagonal+": "the anti-diagonal (both diagonals: Sudoku-X; one alone: a `diagonal` rule)",
    "diagonal-": "the main diagonal (with `diagonal+`; alone: a `diagonal` rule)",
    "extraregion": "windoku when the regions are exactly the windows; else `extraregion` rules",
    "killercage": "killer cages (`value` is the sum; none: digits distinct only)",
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "nonconsecutive": "non-consecutive",
    "difference": "kropki white dots (value 1 or none); other values: `difference` rules",
    "ratio": "kropki black dots (value 2 or none); other values: `ratio` rules",
    "xv": "X and V",
    "negative": "the negative rules of `ratio`, `difference` and `xv`",
    "odd": "odd cells",
    "even": "even cells",
    "thermometer": "thermometers",
} | {
    key: f"`{kind}` rules of `sudokit.rules` (`sudokit.formats.fpuzzles_rules`)"
    for kind, entry in fpuzzles_rules.TABLE.items()
    for key in entry.keys
    if key not in ("diagonal+", "diagonal-", "extraregion", "difference", "ratio")
}


def markdown(text: str) -> str:
    """reST of a docstring as Markdown: ``x`` and :role:`~a.b` become `x` and `b`."""
    text = re.sub(r":[a-z]+:`~?(?:[\w.]*\.)?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def _first_line(doc: str | None) -> str:
    line = (doc or "").strip().splitlines()[0] if doc else ""
    line = re.sub(r"\s*\(layer \d\)\.?$", "", line).rstrip(".")
    return markdown(line)  # a `|` inside a code span does not split a table cell


def _check_same(what: str, code: set[str], documented: set[str]) -> None:
    missing, stale = sorted(code - documented), sorted(documented - code)
    if missing or stale:
        raise RuntimeError(f"{what}: undocumented {missing}, documented but gone {stale}")


def formats_table() -> str:
    """Every format of :data:`sudokit.formats.FORMATS`: what it is, its file endings."""
    modules = {name: getattr(formats, name) for name in formats.FORMATS if hasattr(formats, name)}
    rows = [
        "| `--from` / `--to` | what it is | file endings | solution and fields | records |",
        "|---|---|---|---|---|",
    ]
    for name, fmt in formats.FORMATS.items():
        module = modules.get(name)
        summary = _first_line(module.__doc__ if module else "")
        endings = ", ".join(f"`{e}`" for e in fmt.extensions) or "(sniffed)"
        rows.append(
            f"| `{name}` | {summary} | {endings} | {'yes' if fmt.structured else 'no'} | "
            f"{'several lines each' if fmt.multiline else 'one a line'} |"
        )
    return "\n".join(rows)


def rule_keys_table() -> str:
    """The rule keys of a JSON / JSON Lines puzzle object, in the order they are written."""
    _check_same("JSON rule keys", set(_rules.KEYS), set(RULE_SCHEMA))
    rows = ["| key | value | meaning | example |", "|---|---|---|---|"]
    for key in _rules.KEYS:
        value, meaning, example = RULE_SCHEMA[key]
        rows.append(f"| `{key}` | {value} | {meaning} | `{example}` |")
    return "\n".join(rows)


def _written_fpuzzles_keys() -> set[str]:
    """The keys :func:`sudokit.formats.fpuzzles.to_object` writes for grids with every rule."""
    n = 9
    rich = [
        Shape(3, 3, diagonals=True, windoku=True),
        Shape(
            3,
            3,
            constraints=Constraints(
                cages=[Cage([0, 1], 3), Cage([9, 10])],
                antiknight=True,
                antiking=True,
                white=[(20, 21)],
                black=[(30, 31)],
                kropki_negative=True,
                x=[(40, 41)],
                v=[(50, 51)],
                xv_negative=True,
                parity="eo" + "." * (n * n - 2),
                thermos=[[60, 61, 62]],
            ),
        ),
        # f-puzzles reads non-consecutive next to kropki dots as "all white dots given": apart
        Shape(3, 3, constraints=Constraints(nonconsecutive=True)),
        Shape.jigsaw([(i // 9 + (i % 9 // 3) * 3) % 9 for i in range(81)]),
    ]
    keys: set[str] = set()
    for shape in rich:
        keys |= set(fpuzzles.to_object(Grid(bytes(shape.ncells), shape)))
    return keys | fpuzzles_rules.rule_keys()  # each kind's writer writes its keys


def fpuzzles_table() -> str:
    """Which f-puzzles / SudokuPad keys are read, kept, dropped or written."""
    _check_same("f-puzzles rule keys", set(fpuzzles.RULE_KEYS), set(FPUZZLES_RULES))
    written = _written_fpuzzles_keys()
    rows = ["| key | read as | written |", "|---|---|---|"]
    basics = {
        "size": "the grid size (up to 64 read, 16 written)",
        "grid": "the givens (`value` with `given: true`) and, per cell, `region` (jigsaw)",
        "solution": "the solution, kept as the `solution` field",
    }
    for key, meaning in basics.items():
        out = "yes" if key in written else "with a solution" if key == "solution" else "no"
        rows.append(f"| `{key}` | {meaning} | {out} |")
    for key in sorted(fpuzzles.RULE_KEYS):
        rows.append(f"| `{key}` | {FPUZZLES_RULES[key]} | {'yes' if key in written else 'no'} |")
    for key in fpuzzles.FIELD_KEYS:
        rows.append(f"| `{key}` | kept as the `{key}` field | from the field |")
    for key in fpuzzles.DRAWING_KEYS:
        note = "; with a `value` it states a rule and is refused" if key == "cage" else ""
        rows.append(f"| `{key}` | a drawing: left out, named in the `dropped` field{note} | no |")
    rows.append("| any other key that sets a rule | refused, every one named in one line | - |")
    unexpected = written - set(basics) - set(fpuzzles.RULE_KEYS)
    if unexpected:
        raise RuntimeError(f"f-puzzles keys written but not in the table: {sorted(unexpected)}")
    return "\n".join(rows)


#: The recorded benchmark results the performance page shows whole, newest kind first.
PERFORMANCE = (
    "2026-11-25-8add88d.md",
    "2026-11-24-b2b3581.md",
    "generate.md",
    "tdoku-gen-2026-11-24-1beff38.md",
    "rating_se_2026-11-25_a5bbc14.md",
    "rating_hardest_2026-11-25_6a2d821.md",
    "levels-2026-11-25-ed9bf0d.md",
    "dataset.md",
    "canonical.md",
    "killer.md",
)


def _demoted(text: str) -> str:
    """A results file as a section: headings one level down, relative links as plain text."""
    text = re.sub(r"^(#{1,5}) ", r"#\1 ", text, flags=re.MULTILINE)
    text = re.sub(r"!?\[([^\]]*)\]\((?![a-z]+:)[^)]*\)", r"\1", text)
    return text.replace("<", "&lt;")


def benchmarks() -> str:
    """The benchmark tables of :data:`PERFORMANCE`, then a list of every recorded result."""
    out = []
    for name in PERFORMANCE:
        text = (RESULTS / name).read_text(encoding="utf-8")
        out.append(f"<small>`benchmarks/results/{name}`</small>\n\n{_demoted(text).strip()}\n")
    listing = ["## Every recorded result", "", "| file | title |", "|---|---|"]
    for path in sorted(RESULTS.glob("*.md")):
        head = next((ln for ln in path.read_text(encoding="utf-8").splitlines() if ln), "")
        listing.append(f"| `{path.name}` | {head.lstrip('# ').replace('|', '/')} |")
    return "\n".join([*out, *listing]) + "\n"


#: Generated blocks by the name a page gives them.
BLOCKS: dict[str, Callable[[], str]] = {
    "formats": formats_table,
    "rule-keys": rule_keys_table,
    "fpuzzles": fpuzzles_table,
    "benchmarks": benchmarks,
}
