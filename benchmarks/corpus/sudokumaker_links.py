"""Convert the SudokuMaker links of a repository's Markdown files to the records of
tests/data/variants/published.jsonl (not shipped: the conversion, kept reproducible).

A link ``https://sudokumaker.app/?puzzle=DATA`` carries its puzzle as lz-string in the URI
form (``-`` for ``/``, percent-escaped ``+``) of a JSON object: ``puzzle.cells`` one object a
cell (``value`` its digit, ``given`` true for a given: the values of the others are the
setter's solution, entered with the puzzle) and ``puzzle.constraints`` one object a rule,
keyed by a numbered ``type``. The types read here are those sudokit has a rule for, as the
puzzles' own rules text names them; how a type places its clues was read off the puzzles
(every clue of those links holds in its solution):

- 0 rows and columns, 1 the regions (the boxes, or a jigsaw), 10 and 11 the falling and the
  rising diagonal, 12 anti-king, 13 anti-knight, 14 disjoint groups, 15 non-consecutive;
- 100 even and 101 odd cells, 102 minimum and 103 maximum cells;
- 200 difference, 201 ratio and 202 sum marks on an edge (of a row, ``18 * r``: the
  ``c + 1``-th is left of cell (r, c), the ``9 + c``-th below it), ``negative`` the values
  whose marks are all given;
- 300 thermometers (``slow``), 301 killer cages, 303 quadruples (at corner ``10 * r + c``,
  the top left of cell (r, c)), 305 extra regions;
- 401 whispers (``minDifference``), 402 palindromes, 403 between lines, 408 arrows, 409
  double arrows;
- 500 little killers, 501 sandwiches, 502 X-sums (at an ``outerCell`` of the grid with a
  frame, ``11 * (r + 1) + c + 1``; a little killer's ``diagonal`` -1 runs along the falling
  diagonal, 1 along the rising one);
- 600 row and 601 column indexers.

Any other type (SudokuMaker's custom code, lines and symbols, fog, chaos construction, ...),
a grid other than 9x9 or a link without a full solution is left out, and so is a link
sudokit reads to other kinds, more or fewer solutions or another solution (named on
stderr: the setter's experiments need not be unique, so it is no gap of sudokit's).

    python benchmarks/corpus/sudokumaker_links.py GIT_DIR COMMIT REPO LICENCE > records.jsonl

GIT_DIR is a clone of REPO (owner/name); its ``*.md`` files are read at COMMIT with
``git show``. A puzzle is judged as sigh_examples.py judges one (a child process, 20 CPU
seconds at most; over a second: ``slow``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.parse
from typing import Any

from sigh_examples import Gap, _judge

from sudokit.formats.lzstring import decompress

N = 9
LINK = re.compile(r"sudokumaker\.app/\?puzzle=([^)\s\"'>]+)")
#: Flags and whole-board rules: the key or rule, and its kind.
FLAGS = {12: "antiking", 13: "antiknight", 15: "nonconsecutive"}
LINES = {402: "palindrome", 403: "between", 409: "doublearrow"}
INDEXERS = {600: "rowindexer", 601: "columnindexer"}
EXTREMES = {102: "minimum", 103: "maximum"}
OUTSIDE = {501: "sandwich", 502: "xsum"}
#: The marks a dot type reads as kropki or XV (sudokit's key and colour), else as a rule.
MARKS = {200: {1: ("kropki", "white")}, 201: {2: ("kropki", "black")},
         202: {10: ("xv", "x"), 5: ("xv", "v")}}  # fmt: skip
DOTS = {200: "difference", 201: "ratio", 202: "pairsum"}


def data_of(link: str) -> dict[str, Any]:
    """The JSON object of a SudokuMaker link's ``puzzle`` parameter."""
    data = urllib.parse.unquote(link).replace("-", "/")
    return dict(json.loads(decompress(data + "=" * (-len(data) % 4))))


def edge(index: int) -> list[int]:
    """The two cells either side of SudokuMaker's edge *index* (see the module's words)."""
    r, k = divmod(index, 2 * N)
    if 1 <= k < N and r < N:
        return [r * N + k - 1, r * N + k]
    if k >= N and r < N - 1:
        return [r * N + k - N, (r + 1) * N + k - N]
    raise Gap(f"edge {index} (on the grid's border)")


def outside(cell: int) -> tuple[int, int]:
    """Row and column (-1 to 9) of an ``outerCell``: the grid with a frame, row by row."""
    r, c = divmod(cell, N + 2)
    return r - 1, c - 1


def line_from(cell: int) -> list[int]:
    """The row or column an outside clue looks along, from the clue's side."""
    r, c = outside(cell)
    if r in (-1, N):
        cells = [i * N + c for i in range(N)]
        return cells if r == -1 else cells[::-1]
    cells = [r * N + i for i in range(N)]
    return cells if c == -1 else cells[::-1]


def diagonal_from(cell: int, direction: int) -> list[int]:
    """A little killer's cells from its outer cell (*direction* -1 falling, 1 rising)."""
    r, c = outside(cell)
    if direction == -1:
        dr, dc = (1, 1) if r == -1 or c == -1 else (-1, -1)
    else:
        dr, dc = (1, -1) if r == -1 or c == N else (-1, 1)
    cells = []
    r, c = r + dr, c + dc
    while 0 <= r < N and 0 <= c < N:
        cells.append(r * N + c)
        r, c = r + dr, c + dc
    return cells


class Reader:
    """One SudokuMaker puzzle object to sudokit's JSON puzzle object and its kinds."""

    def __init__(self, puzzle: dict[str, Any]) -> None:
        self.puzzle = puzzle
        self.obj: dict[str, Any] = {}
        self.kinds: set[str] = set()

    def rule(self, kind: str, **fields: Any) -> None:
        self.obj.setdefault("rules", []).append({"kind": kind, **fields})
        self.kinds.add(kind)

    def read(self) -> dict[str, Any]:
        cells = self.puzzle.get("cells", [])
        if len(cells) != N * N or any(k in self.puzzle for k in ("type", "width", "size")):
            raise Gap("not a 9x9 grid of digits 1..9")
        givens = [cell.get("value", 0) if cell.get("given") else 0 for cell in cells]
        diagonals: set[int] = set()
        for rule in self.puzzle.get("constraints", []):
            kind = rule["type"]
            if kind in (10, 11):
                diagonals.add(kind)
            else:
                getattr(self, f"_{kind}", self._other)(rule)
        if diagonals == {10, 11}:
            self.obj["diagonals"] = True
            self.kinds.add("x")
        elif diagonals:
            self.rule("diagonal", anti=1 if 11 in diagonals else 0)
        if "parity" in self.obj:
            self.obj["parity"] = "".join(self.obj["parity"])
        return {"puzzle": givens, **self.obj}

    def _other(self, rule: dict[str, Any]) -> None:
        kind = rule["type"]
        if kind in FLAGS:
            self.obj[FLAGS[kind]] = True
            self.kinds.add(FLAGS[kind])
        elif kind in LINES:
            for line in rule["lines"]:
                self.rule(LINES[kind], cells=line)
        elif kind in INDEXERS:
            self.rule(INDEXERS[kind], cells=rule["cells"])
        elif kind in EXTREMES:
            self.rule(EXTREMES[kind], cells=sorted(rule["cells"]))
        elif kind in OUTSIDE:
            for clue in rule["clues"]:
                self.rule(OUTSIDE[kind], cells=line_from(clue["outerCell"]), total=clue["value"])
        elif kind in DOTS:
            self._dots(rule)
        else:
            raise Gap(f"SudokuMaker type {kind} ({rule.get('name', 'no sudokit rule')})")

    def _0(self, rule: dict[str, Any]) -> None:
        pass

    def _1(self, rule: dict[str, Any]) -> None:
        regions = rule["regions"]
        boxes = [(i // N // 3) * 3 + (i % N) // 3 for i in range(N * N)]
        if regions != boxes:
            self.obj["regions"] = regions
            self.kinds.add("jigsaw")

    def _14(self, rule: dict[str, Any]) -> None:
        self.rule("disjointgroups", box=[3, 3])

    def _parity(self, rule: dict[str, Any], mark: str) -> None:
        marks = self.obj.setdefault("parity", ["."] * (N * N))
        for cell in rule["cells"]:
            marks[cell] = mark
        self.kinds.add("parity")

    def _100(self, rule: dict[str, Any]) -> None:
        self._parity(rule, "e")

    def _101(self, rule: dict[str, Any]) -> None:
        self._parity(rule, "o")

    def _dots(self, rule: dict[str, Any]) -> None:
        marks = MARKS[rule["type"]]
        for clue in rule["clues"]:
            cells, value = edge(clue["edge"]), clue["value"]
            if value in marks:
                key, colour = marks[value]
                self.obj.setdefault(key, {}).setdefault(colour, []).append(cells)
                self.kinds.add(key)
            else:
                self.rule(DOTS[rule["type"]], cells=cells, value=value)
        negative = set(rule.get("negative", []))
        if not negative:
            return
        if rule["type"] == 202 and negative == {10, 5}:
            self.obj.setdefault("xv", {})["negative"] = True
        elif (rule["type"], negative) in ((200, {1}), (201, {2})):
            kropki = self.obj.setdefault("kropki", {})
            colour = "white" if rule["type"] == 200 else "black"
            kropki["negative"] = True if kropki.get("negative") else colour
        else:
            raise Gap(f"type {rule['type']}: every mark of {sorted(negative)} given")
        self.kinds.add("xv" if rule["type"] == 202 else "kropki")

    def _300(self, rule: dict[str, Any]) -> None:
        for line in rule["thermometers"]:
            if rule.get("slow"):
                self.rule("slowthermo", cells=line)
            else:
                self.obj.setdefault("thermos", []).append(line)
                self.kinds.add("thermo")

    def _301(self, rule: dict[str, Any]) -> None:
        for cage in rule["cages"]:
            value = cage.get("value")
            entry: dict[str, Any] = {"cells": cage["cells"]}
            if value not in (None, "", 0, "0"):  # no sum shown: distinct digits only
                entry = {"sum": int(value), **entry}
            self.obj.setdefault("cages", []).append(entry)
        self.kinds.add("killer")

    def _303(self, rule: dict[str, Any]) -> None:
        for clue in rule["clues"]:
            r, c = divmod(clue["corner"], N + 1)
            if not (1 <= r < N and 1 <= c < N):
                raise Gap(f"quadruple at corner {clue['corner']} (on the border)")
            top = (r - 1) * N + c - 1
            self.rule(
                "quadruple", cells=[top, top + 1, top + N, top + N + 1], digits=clue["digits"]
            )

    def _305(self, rule: dict[str, Any]) -> None:
        self.rule("extraregion", cells=sorted(rule["cells"]))

    def _401(self, rule: dict[str, Any]) -> None:
        """Whispers; a line through a cell twice is the lines between (whispers speak of
        neighbours only)."""
        for line in rule["lines"]:
            piece: list[int] = []
            for cell in line:
                if cell in piece:
                    self.rule("whispers", cells=piece, difference=rule.get("minDifference", 5))
                    piece = piece[-1:]
                piece.append(cell)
            self.rule("whispers", cells=piece, difference=rule.get("minDifference", 5))

    def _408(self, rule: dict[str, Any]) -> None:
        for arrow in rule["bulbsWithArrows"]:
            bulb = arrow["bulbCells"]
            shafts = [shaft[len(bulb) :] if shaft[: len(bulb)] == bulb else shaft[1:]
                      for shaft in arrow["arrows"]]  # fmt: skip
            self.rule("arrow", circle=sorted(bulb), arrows=shafts)

    def _500(self, rule: dict[str, Any]) -> None:
        for clue in rule["clues"]:
            cells = diagonal_from(clue["outerCell"], clue["diagonal"])
            self.rule("littlekiller", cells=cells, total=clue["value"])


def records(git_dir: str, commit: str, repo: str, licence: str) -> list[dict[str, Any]]:
    """A record for each link of the Markdown files at *commit* that sudokit reads right
    (its rules, unique, the link's solution); the same puzzle once."""
    import sudokit.formats  # noqa: F401 (imported once, before the children fork)

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", git_dir, *args], check=True, capture_output=True, text=True
        ).stdout

    out, seen = [], set()
    for path in git("ls-tree", "-r", "--name-only", commit).split("\n"):
        if not path.endswith(".md") or path.startswith("failures/"):  # the setter's failures
            continue
        matches = list(LINK.finditer(git("show", f"{commit}:{path}")))
        for number, match in enumerate(matches, 1):
            puzzle = data_of(match.group(1))["puzzle"]
            solution = "".join(str(cell.get("value", 0)) for cell in puzzle.get("cells", []))
            try:
                obj = (reader := Reader(puzzle)).read()
            except (Gap, KeyError, TypeError, ValueError) as exc:
                print(f"left out: {path}: {exc}", file=sys.stderr)
                continue
            text = json.dumps(obj, separators=(",", ":"))
            if "0" in solution or len(solution) != N * N or text in seen:
                continue
            seen.add(text)
            name = puzzle.get("name") or path.rsplit("/", 1)[-1].removesuffix(".md")
            record: dict[str, Any] = {
                "name": f"{name} (link {number} of {len(matches)})" if len(matches) > 1 else name,
                "author": puzzle.get("author", ""),
                "puzzle": text,
                "source": f"github:{repo} {path} @{commit} (a SudokuMaker link's puzzle and"
                " solution, as sudokit's JSON)",
                "licence": licence,
                "kinds": sorted(reader.kinds),
                "solution": solution,
                "reads": False,
            }
            judged = _judge(text, solution, reader.kinds, 20)
            if judged is None:
                print(f"over the CPU limit, left out: {path}", file=sys.stderr)
                continue
            (record["kinds"], error), seconds = judged
            print(f"{seconds:6.2f} s  {path}: {error or 'reads'}", file=sys.stderr, flush=True)
            if error is not None:  # misread, or a setter's experiment of several solutions
                print(f"left out: {path}: {error}", file=sys.stderr)
                continue
            record["reads"] = True
            if seconds > 1:
                record["slow"] = True
            out.append(record)
    return out


def main(argv: list[str]) -> int:
    for record in records(*argv[1:5]):
        print(json.dumps(record, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
