"""Convert the example puzzles of github:sigh/Interactive-Sudoku-Solver (MIT) to the records of
tests/data/variants/published.jsonl (not shipped: the conversion, kept reproducible).

Its ``data/example_puzzles.js`` and ``data/collections.js`` hold each puzzle as a constraint
string (``.Type~arg~R1C1~R1C2``, cells ``R{row}C{col}`` from 1, one base-36 character each;
``.~R1C1_5`` gives a digit, ``.~R1C1_2_4_6_8`` candidates: all even or all odd ones are read
as parity) with its solution. Each constraint type sudokit has a rule for is written as a key
of sudokit's own JSON puzzle object (sudokit.formats._rules). An example holding any other
type (or other candidates) is recorded as a gap: ``reads`` false, its constraint string as
the puzzle, and the types sudokit has no rule for as the error; a collections puzzle only
when it reads right quickly, or is converted and misread.

The kinds of a record are those the constraint types mean (their names in sudokit's variant
string), put in the order sudokit reads them; a puzzle whose reading gives other kinds, more
or fewer solutions or another solution is a gap saying so.

    python benchmarks/corpus/sigh_examples.py GIT_DIR COMMIT > records.jsonl

GIT_DIR is a clone of the repository (the files are read at COMMIT with ``git show``). Needs
``node`` (the files are JavaScript modules; node evaluates them to JSON). A puzzle is judged
in a child process with a CPU limit (20 s an example, 5 s a collections puzzle); one over it
is named on stderr and left out, and one over a second is marked ``slow``.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = "github:sigh/Interactive-Sudoku-Solver"
#: The files read: the examples (every puzzle recorded), then the collections, which add
#: theirs to the examples' index (only those that read, quickly, are recorded: the rest are
#: the benchmarks' hard cases and the examples' gaps again).
PATHS = ("data/example_puzzles.js", "data/collections.js")
LICENCE = "MIT"

#: Types that set no rule sudokit lacks (read below), and the kind each puts in the variant.
KIND = {
    "Thermo": "thermo", "Whisper": "whispers", "Renban": "renban", "Modular": "modular",
    "Entropic": "entropic", "RegionSumLine": "regionsum", "Between": "between",
    "Palindrome": "palindrome", "Zipper": "zipper", "Jigsaw": "jigsaw", "Windoku": "windoku",
    "DisjointSets": "disjointgroups", "AntiKnight": "antiknight", "AntiKing": "antiking",
    "AntiConsecutive": "nonconsecutive", "WhiteDot": "kropki", "BlackDot": "kropki",
    "StrictKropki": "kropki", "X": "xv", "V": "xv", "StrictXV": "xv", "Arrow": "arrow",
    "PillArrow": "arrow", "DoubleArrow": "doublearrow", "Cage": "killer",
    "LittleKiller": "littlekiller", "XSum": "xsum", "Sandwich": "sandwich",
    "Skyscraper": "skyscraper", "Quad": "quadruple", "Diagonal": "diagonal", "": "", "Shape": "",
    "NoBoxes": "", "AntiTaxicab": "selftaxicab", "SameValues": "clone", "Indexing": "",
    "Sum": "pairsum", "GreaterThan": "maximum", "Pair": "", "PairX": "",
}  # fmt: skip


# The types read alike: a line kind of sudokit.rules, a flag, a mark (key, colour), the strict
# rule of marks, a clue outside the grid both ways along a row or column.
_LINES = {
    "Renban": "renban", "Entropic": "entropic", "Between": "between",
    "Palindrome": "palindrome", "Zipper": "zipper", "DoubleArrow": "doublearrow",
}  # fmt: skip
_FLAGS = {
    "Windoku": "windoku", "AntiKnight": "antiknight", "AntiKing": "antiking",
    "AntiConsecutive": "nonconsecutive",
}  # fmt: skip
_MARKS = {
    "WhiteDot": ("kropki", "white"), "BlackDot": ("kropki", "black"), "X": ("xv", "x"),
    "V": ("xv", "v"),
}  # fmt: skip
_STRICT = {"StrictKropki": "kropki", "StrictXV": "xv"}
_OUTSIDE = {"XSum": "xsum", "Skyscraper": "skyscraper"}


class Gap(Exception):
    """A puzzle sudokit has no reading for (the message says why)."""


def load(git_dir: str, commit: str) -> list[tuple[str, dict[str, Any]]]:
    """``(path, puzzle)`` for every puzzle of :data:`PATHS` at *commit* of the repository at
    *git_dir* (a puzzle of both: the first path), evaluated by node."""
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "package.json").write_text('{"type": "module"}')
        for path in PATHS:
            text = subprocess.run(
                ["git", "-C", git_dir, "show", f"{commit}:{path}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            Path(tmp, Path(path).name).write_text(text)
        imports = "".join(
            f"const m{k} = await import({json.dumps(Path(tmp, Path(p).name).as_uri())});"
            f"const p{k} = [...m0.PUZZLE_INDEX.values()];"
            for k, p in enumerate(PATHS)
        )
        script = (
            "globalThis.self = {VERSION_PARAM: ''};"  # collections.js reads it
            + imports
            + f"console.log(JSON.stringify([{', '.join(f'p{k}' for k in range(len(PATHS)))}]));"
        )
        out = subprocess.run(
            ["node", "--input-type=module", "-e", script],
            check=True,
            capture_output=True,
            text=True,
            cwd=tmp,
        ).stdout
    seen: set[str] = set()
    found = []
    for path, puzzles in zip(PATHS, json.loads(out), strict=True):
        for puzzle in puzzles:
            inline = isinstance(puzzle.get("input"), str) and not puzzle["input"].startswith("/")
            if puzzle["name"] not in seen and inline and puzzle.get("solution"):
                seen.add(puzzle["name"])
                found.append((path, puzzle))
    return found


class Converter:
    """One puzzle's constraint string to sudokit's JSON puzzle object."""

    def __init__(self, text: str) -> None:
        self.items = _plain_jigsaw(text) or [
            part.strip().split("~") for part in text.split(".") if part.strip()
        ]
        self.n, self.box = 9, (3, 3)
        for kind, *args in self.items:
            if kind == "Shape":
                self._shape(args)
        self.no_boxes = any(kind == "NoBoxes" for kind, *_ in self.items)
        self.obj: dict[str, Any] = {}
        self.givens = [0] * (self.n * self.n)
        self.kinds: set[str] = set()
        self.greater: dict[int, set[int]] = {}  # GreaterThan: a cell and those it exceeds

    def _shape(self, args: list[str]) -> None:
        rows, _, cols = args[0].partition("x")
        if len(args) > 1 or rows != cols:
            raise Gap(f"Shape {'~'.join(args)} (not a square grid of digits 1..n)")
        self.n = int(rows)
        self.box = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}[self.n]

    def cell(self, name: str) -> int:
        # sigh's cell ids: "R", the row, "C", the column, each one character in base 36
        if len(name) != 4 or name[0] not in "Rr" or name[2] not in "Cc":
            raise Gap(f"cell id {name!r} (not a grid cell)")
        r, c = int(name[1], 36) - 1, int(name[3], 36) - 1
        if not (0 <= r < self.n and 0 <= c < self.n):
            raise ValueError(f"cell {name} outside the grid")
        return r * self.n + c

    def cells(self, names: list[str]) -> list[int]:
        return [self.cell(name) for name in names]

    def rule(self, rule: dict[str, Any]) -> None:
        self.obj.setdefault("rules", []).append(rule)

    def convert(self) -> dict[str, Any]:
        unknown = sorted({kind for kind, *_ in self.items if kind not in KIND})
        if unknown:
            raise Gap(", ".join(repr(u) for u in unknown) + ": no sudokit rule")
        if self.no_boxes and not any(kind == "Jigsaw" for kind, *_ in self.items):
            raise Gap("NoBoxes without a jigsaw (no boxes nor regions: no sudokit shape)")
        diagonals: set[int] = set()
        for kind, *args in self.items:
            self.kinds.add(KIND[kind])
            if kind == "Diagonal":
                diagonals.add(int(args[0]))
            elif kind in _LINES:
                self._line(_LINES[kind], args)
            elif kind in _FLAGS:
                self.obj[_FLAGS[kind]] = True
            elif kind in _MARKS:
                self._dots(*_MARKS[kind], args)
            elif kind in _STRICT:  # every mark given: the negative rule
                self.obj.setdefault(_STRICT[kind], {})["negative"] = True
            elif kind in _OUTSIDE:
                self._outside(_OUTSIDE[kind], args)
            else:
                getattr(self, "_" + (kind or "given"))(args)
        if self.greater:
            self._fortress()
        if diagonals == {1, -1}:
            self.obj["diagonals"] = True
            self.kinds.discard("diagonal")
            self.kinds.add("x")
        elif diagonals:  # sigh's 1 is the rising diagonal, f-puzzles' diagonal+: anti 1
            self.rule({"kind": "diagonal", "anti": 1 if 1 in diagonals else 0})
        self.kinds.discard("")
        if "parity" in self.obj:
            self.obj["parity"] = "".join(self.obj["parity"])
        box = f"{self.box[0]}x{self.box[1]}"
        if "regions" not in self.obj and box != "3x3":
            self.obj["box"] = box
        return {"puzzle": self.givens, **self.obj}

    # -- one method a constraint type ------------------------------------------------------

    def _given(self, args: list[str]) -> None:
        for arg in args:
            name, *values = arg.split("_")
            digits = {int(v) for v in values}
            if len(digits) == 1:
                self.givens[self.cell(name)] = digits.pop()
                continue
            parity = {0: "e", 1: "o"}
            mark = next(
                (m for r, m in parity.items() if digits == set(range(2 - r, self.n + 1, 2))), None
            )
            if mark is None:
                raise Gap(f"{name} given candidates {values} (not all odd or all even digits)")
            marks = self.obj.setdefault("parity", ["."] * (self.n * self.n))
            marks[self.cell(name)] = mark
            self.kinds.add("parity")

    def _Shape(self, args: list[str]) -> None:
        pass

    def _Jigsaw(self, args: list[str]) -> None:
        """Regions instead of the boxes with NoBoxes; else regions besides the boxes."""
        layout = args[-1]
        labels = {ch: k for k, ch in enumerate(dict.fromkeys(layout))}
        regions = [labels[ch] for ch in layout]
        if self.no_boxes:
            self.obj["regions"] = regions
            return
        self.kinds.discard("jigsaw")
        self.kinds.add("extraregion")
        for label in range(len(labels)):
            cells = [i for i, k in enumerate(regions) if k == label]
            self.rule({"kind": "extraregion", "cells": cells})

    def _NoBoxes(self, args: list[str]) -> None:
        pass

    def _line(self, kind: str, args: list[str], **more: Any) -> None:
        self.rule({"kind": kind, "cells": self.cells(args), **more})

    def _Thermo(self, args: list[str]) -> None:
        self.obj.setdefault("thermos", []).append(self.cells(args))

    def _Whisper(self, args: list[str]) -> None:
        difference = 5
        if args[0].isdigit():
            difference, args = int(args[0]), args[1:]
        # a line through a cell twice is the lines between (whispers speak of neighbours only)
        piece: list[str] = []
        for name in args:
            if name in piece:
                self._line("whispers", piece, difference=difference)
                piece = piece[-1:]
            piece.append(name)
        self._line("whispers", piece, difference=difference)

    def _Modular(self, args: list[str]) -> None:
        if args[0] != "3":
            raise Gap(f"Modular line of mod {args[0]} (sudokit's modular line is mod 3)")
        self._line("modular", args[1:])

    def _RegionSumLine(self, args: list[str]) -> None:
        region = self._region_of()
        segments: list[list[int]] = []
        for cell in self.cells(args):
            if segments and region[segments[-1][-1]] == region[cell]:
                segments[-1].append(cell)
            else:
                segments.append([cell])
        self.rule({"kind": "regionsum", "segments": segments})

    def _region_of(self) -> list[int]:
        if "regions" in self.obj:
            return list(self.obj["regions"])
        rows, cols = self.box
        n = self.n
        return [(i // n // rows) * (n // cols) + (i % n) // cols for i in range(n * n)]

    def _Arrow(self, args: list[str]) -> None:
        circle, *arrow = self.cells(args)
        self.rule({"kind": "arrow", "circle": [circle], "arrows": [arrow]})

    def _PillArrow(self, args: list[str]) -> None:
        size = int(args[0])
        cells = self.cells(args[1:])
        pill = sorted(cells[:size])  # read left to right, top to bottom
        self.rule({"kind": "arrow", "circle": pill, "arrows": [cells[size:]]})

    def _Cage(self, args: list[str]) -> None:
        total = int(args[0]) if args[0].strip() else 0
        cage: dict[str, Any] = {"cells": self.cells(args[1:])}
        if total:
            cage = {"sum": total, **cage}
        self.obj.setdefault("cages", []).append(cage)

    def _SameValues(self, args: list[str]) -> None:
        """Sets of equal size with the same values: read only as single cells (all equal),
        a clone of the first cell for each other one."""
        cells = self.cells(args[1:])
        if int(args[0]) != len(cells):
            raise Gap(f"SameValues of {args[0]} sets of {len(cells)} cells (only single cells)")
        for other in cells[1:]:
            self.rule({"kind": "clone", "cells": [cells[0]], "copy": [other]})

    def _Indexing(self, args: list[str]) -> None:
        """Column (C) or row (R) indexing cells: sudokit's column and row indexers."""
        kind = {"C": "columnindexer", "R": "rowindexer"}.get(args[0])
        if kind is None:
            raise Gap(f"Indexing~{args[0]} (only C and R)")
        self.kinds.add(kind)
        self.rule({"kind": kind, "cells": self.cells(args[1:])})

    def _Sum(self, args: list[str]) -> None:
        """A sum of two orthogonally adjacent cells: a sum mark on their edge."""
        cells = self.cells(args[1:])
        if len(cells) != 2 or not _adjacent(*cells, self.n):
            raise Gap(f"Sum over {len(cells)} cells (only two side by side)")
        self.rule({"kind": "pairsum", "cells": sorted(cells), "value": int(args[0])})

    def _GreaterThan(self, args: list[str]) -> None:
        """A cell greater than each of the others: fortress cells when the others are its
        orthogonal neighbours outside the fortress (checked once all are read, in
        :meth:`convert`)."""
        first, *others = self.cells(args)
        self.greater[first] = set(others)

    def _fortress(self) -> None:
        cells = set(self.greater)
        for cell, others in self.greater.items():
            if others != {c for c in _neighbours(cell, self.n) if c not in cells}:
                raise Gap(f"GreaterThan at {cell} (not a cell above its neighbours)")
        self.rule({"kind": "maximum", "cells": sorted(cells)})

    def _AntiTaxicab(self, args: list[str]) -> None:
        """A digit d never d cells away (rows plus columns) from another d: self-taxicab."""
        self.rule({"kind": "selftaxicab"})

    def _DisjointSets(self, args: list[str]) -> None:
        self.rule({"kind": "disjointgroups", "box": list(self.box)})

    def _Pair(self, args: list[str]) -> None:
        """A relation on each two neighbours along each group of cells, read when it is a
        dot's: a difference or a ratio (kropki's white 1 and black 2, or sudokit's dots of
        other values)."""
        relation = _relation(args[0], self.n)
        for found in (_difference, _ratio):
            kind, value = found(relation, self.n)
            if kind:
                break
        else:
            raise Gap(f"Pair {args[0]} (not a difference or a ratio)")
        for group in _groups(args[1:]):
            for a, b in itertools.pairwise(group):
                if (kind, value) in (("difference", 1), ("ratio", 2)):
                    self._dots("kropki", "white" if kind == "difference" else "black", [a, b])
                    self.kinds.add("kropki")
                else:
                    self.rule({"kind": kind, "cells": sorted(self.cells([a, b])), "value": value})
                    self.kinds.add(kind)

    def _PairX(self, args: list[str]) -> None:
        """A relation on every two cells of each group: a nabner line when two digits of it
        are never equal nor consecutive."""
        if _relation(args[0], self.n) != {
            (a, b) for a in range(1, self.n + 1) for b in range(1, self.n + 1) if abs(a - b) > 1
        }:
            raise Gap(f"PairX {args[0]} (not a nabner line)")
        for group in _groups(args[1:]):
            self._line("nabner", group)
        self.kinds.add("nabner")

    def _dots(self, key: str, colour: str, args: list[str]) -> None:
        """A mark between every two orthogonal neighbours among the cells (two, or more: sigh
        marks all of a set's neighbouring pairs at once)."""
        cells, n = self.cells(args), self.n
        marks = self.obj.setdefault(key, {}).setdefault(colour, [])
        for k, a in enumerate(cells):
            for b in cells[k + 1 :]:
                if abs(a - b) == n or (abs(a - b) == 1 and a // n == b // n):
                    marks.append([a, b])

    def _Quad(self, args: list[str]) -> None:
        top_left = self.cell(args[0])
        n = self.n
        cells = [top_left, top_left + 1, top_left + n, top_left + n + 1]
        self.rule({"kind": "quadruple", "cells": cells, "digits": [int(v) for v in args[1:]]})

    def _LittleKiller(self, args: list[str]) -> None:
        total, start = int(args[0]), args[1]
        self.rule({"kind": "littlekiller", "cells": self._diagonal(start), "total": total})

    def _diagonal(self, start: str) -> list[int]:
        """The cells of sigh's little killer keyed by its first cell: from the left side
        down-right, the right side up-left, the top down-left, the bottom up-right."""
        n = self.n
        first = self.cell(start)
        r, c = divmod(first, n)
        if c == 0 and r < n - 1:
            step = (1, 1)
        elif c == n - 1 and 0 < r < n - 1:
            step = (-1, -1)
        elif r == 0 and c > 0:
            step = (1, -1)
        elif r == n - 1 and 0 < c < n - 1:
            step = (-1, 1)
        else:
            raise ValueError(f"no little killer starts at {start}")
        cells = []
        while 0 <= r < n and 0 <= c < n:
            cells.append(r * n + c)
            r, c = r + step[0], c + step[1]
        return cells

    def _line_of(self, name: str, forward: bool) -> list[int]:
        n, k = self.n, int(name[1:]) - 1
        cells = [k * n + i for i in range(n)] if name[0] == "R" else [i * n + k for i in range(n)]
        return cells if forward else cells[::-1]

    def _outside(self, kind: str, args: list[str]) -> None:
        """XSum and Skyscraper: ``R1~forward~backward`` (either may be empty)."""
        for value, forward in ((args[1:2], True), (args[2:3], False)):
            if value and value[0]:
                cells = self._line_of(args[0], forward)
                self.rule({"kind": kind, "cells": cells, "total": int(value[0])})

    def _Sandwich(self, args: list[str]) -> None:
        total, line = int(args[0]), args[1]
        self.rule({"kind": "sandwich", "cells": self._line_of(line, True), "total": total})


#: CPU seconds a puzzle may take to read, prove unique and solve (beyond: reported, not kept).
LIMIT = 20


_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < n and 0 <= cc < n]  # fmt: skip


def _adjacent(a: int, b: int, n: int) -> bool:
    return b in _neighbours(a, n)


def _plain_jigsaw(text: str) -> list[list[str]] | None:
    """sigh's plain jigsaw (the givens, then the layout, one character a cell; on 16x16 the
    digits are letters, A for 1) as constraint items; None for any other text."""
    parts = text.split()
    if len(parts) != 2 or len(parts[0]) != len(parts[1]) or "~" in text:
        return None
    n = round(len(parts[0]) ** 0.5)
    if n * n != len(parts[0]) or n not in (4, 6, 9, 16):
        return None
    givens = [
        f"R{_BASE36[r + 1]}C{_BASE36[c + 1]}_{_value(ch, n)}"
        for r in range(n)
        for c in range(n)
        if (ch := parts[0][r * n + c]) != "." and _value(ch, n)
    ]
    return [["Shape", f"{n}x{n}"], ["NoBoxes"], ["Jigsaw", parts[1]], ["", *givens]]


def _value(ch: str, n: int) -> int:
    """A digit as sigh writes it in plain text: letters from A for 1 above 9x9."""
    if n < 10:
        return int(ch) if ch.isdigit() else 0
    return ord(ch) - ord("A") + 1 if "A" <= ch <= "Z" else 0


def _relation(key: str, n: int) -> set[tuple[int, int]]:
    """The digit pairs (a, b) sigh's binary key allows: bit (a - 1) * n + (b - 1) set, six bits
    a character of its URL-safe base 64, the low bit first."""
    bits = [_BASE64.index(ch) for ch in key]
    return {
        (a, b)
        for a in range(1, n + 1)
        for b in range(1, n + 1)
        if (k := (a - 1) * n + b - 1) // 6 < len(bits) and bits[k // 6] >> (k % 6) & 1
    }


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _difference(relation: set[tuple[int, int]], n: int) -> tuple[str, int]:
    """("difference", d) when *relation* is two digits d apart (else ("", 0))."""
    for d in range(1, n):
        if relation == {
            (a, b) for a in range(1, n + 1) for b in range(1, n + 1) if abs(a - b) == d
        }:
            return "difference", d
    return "", 0


def _ratio(relation: set[tuple[int, int]], n: int) -> tuple[str, int]:
    """("ratio", r) when *relation* is one digit r times the other (else ("", 0))."""
    for r in range(2, n + 1):
        pairs = {
            (a, b) for a in range(1, n + 1) for b in range(1, n + 1) if a == r * b or b == r * a
        }
        if pairs and relation == pairs:
            return "ratio", r
    return "", 0


def _groups(items: list[str]) -> list[list[str]]:
    """sigh's named cell groups: cells, ended by an empty item or a name (``_`` first)."""
    groups: list[list[str]] = [[]]
    for item in items:
        if not item or item.startswith("_"):
            groups.append([])
        else:
            groups[-1].append(item)
    return [group for group in groups if group]


def published_line(solution: str) -> str:
    """sigh's solution as sudokit's line writes it (16x16: A..P for 1..16, as 1..9A..G)."""
    n = round(len(solution) ** 0.5)
    if n < 10:
        return solution
    return "".join("123456789ABCDEFG"[_value(ch, n) - 1] for ch in solution)


def _verdict(text: str, published: str, kinds: set[str]) -> tuple[list[str], str | None]:
    """What sudokit makes of a converted puzzle: the kinds it reads (in its order) and what
    is wrong (None: reads to *kinds*, unique, the published solution)."""
    from sudokit import SudokuError, count_solutions, formats, solution

    try:
        grid = formats.parse_one(text)
    except SudokuError as exc:
        return sorted(kinds), str(exc)
    variant = grid.shape.variant
    read = [] if variant == "standard" else variant.split("-")
    if set(read) != kinds:
        return sorted(kinds), f"reads as {variant!r}, means {sorted(kinds)}"
    if count_solutions(grid, limit=2) != 1:
        return read, "not unique as read"
    if solution(grid).to_line() != published:
        return read, "solves to another solution"
    return read, None


def _limited(conn: Any, limit: int, *args: Any) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
    started = time.process_time()
    verdict = _verdict(*args)
    conn.send((verdict, time.process_time() - started))


def _judge(
    text: str, published: str, kinds: set[str], limit: int
) -> tuple[tuple[list[str], str | None], float] | None:
    """:func:`_verdict` and its CPU seconds, in a child process of at most *limit* CPU
    seconds (None: over)."""
    ctx = multiprocessing.get_context("fork")
    here, there = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_limited, args=(there, limit, text, published, kinds))
    child.start()
    child.join()
    result: tuple[tuple[list[str], str | None], float] | None = here.recv() if here.poll() else None
    return result


#: CPU seconds a collections puzzle may take (it is recorded only when it reads within it).
KEEP = 0.5


def records(git_dir: str, commit: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Every example as a record (read or gap) and the collections' puzzles that read right
    within :data:`KEEP` seconds or are misread, with what sudokit makes of them; and the
    names of the examples sudokit did not finish within :data:`LIMIT` CPU seconds."""
    import sudokit.formats  # noqa: F401 (imported once, before the children fork)

    out, slow = [], []
    for path, puzzle in load(git_dir, commit):
        example = path == PATHS[0]
        record: dict[str, Any] = {
            "name": puzzle["name"],
            "author": puzzle.get("author", ""),
            "puzzle": puzzle["input"],
            "source": f"{REPO} {path} @{commit}",
            "licence": LICENCE,
            "kinds": [],
            "solution": published_line(puzzle["solution"]),
            "reads": False,
        }
        src = puzzle.get("src")
        if src:
            record["src"] = src if isinstance(src, str) else " ".join(src)
        try:
            converter = Converter(puzzle["input"])
            obj = converter.convert()
        except (Gap, ValueError, KeyError, IndexError) as exc:
            if example:
                record["error"] = f"sigh's constraint string: {exc}"
                out.append(record)
            continue
        record["puzzle"] = json.dumps(obj, separators=(",", ":"))
        judged = _judge(
            record["puzzle"], record["solution"], converter.kinds, LIMIT if example else 5
        )
        if judged is None:
            slow.append(puzzle["name"])
            continue
        (record["kinds"], error), seconds = judged
        print(f"{seconds:6.2f} s  {puzzle['name']}", file=sys.stderr, flush=True)
        if error is None:
            if not example and seconds > KEEP:
                continue
            record["reads"] = True
            if seconds > 1:
                record["slow"] = True
        else:
            record["error"] = error
        out.append(record)
    return out, slow


def main(argv: list[str]) -> int:
    git_dir, commit = argv[1], argv[2]
    found, slow = records(git_dir, commit)
    for record in found:
        print(json.dumps(record, ensure_ascii=False))
    for name in slow:
        print(f"over the CPU limit, left out: {name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
