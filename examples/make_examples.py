"""Write the example files of this folder again (from the top of a clone:
``python examples/make_examples.py``); every puzzle comes from sudokit's own generator with a
fixed seed, and every file from its own writers, so the same version writes the same bytes."""

from __future__ import annotations

from pathlib import Path

import sudokit
from sudokit import formats
from sudokit.marks import Candidates

HERE = Path(__file__).resolve().parent


def _write(name: str, lines: list[str]) -> None:
    (HERE / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    classic = [sudokit.generate(seed=seed) for seed in (1, 2, 3)]
    _write("puzzle.txt", [formats.dumps(classic[0].puzzle)])
    csv = formats.dumps(classic[0].puzzle, "csv", solution=classic[0].solution).splitlines()
    for p in classic[1:]:
        csv.append(formats.dumps(p.puzzle, "csv", solution=p.solution).splitlines()[1])
    _write("kaggle.csv", csv)
    killers = [sudokit.generate(killer=True, seed=seed) for seed in (1, 2)]
    _write("killer.jsonl", [formats.dumps(k.puzzle, "jsonl") for k in killers])
    _write("hexadoku.txt", [formats.dumps(sudokit.generate(size=16, seed=1).puzzle)])
    small_killer = sudokit.generate(size=4, killer=True, seed=1).puzzle
    links = [formats.dumps(small_killer, "fpuzzles"), formats.dumps(classic[1].puzzle, "fpuzzles")]
    links += [
        formats.dumps(killers[0].puzzle, "fpuzzles"),
        formats.dumps(killers[0].puzzle, "sudokupad"),
    ]
    _write("links.txt", links)
    marks = formats.dumps_candidates(Candidates.from_grid(classic[2].puzzle))
    _write("marks.txt", marks.splitlines())


if __name__ == "__main__":
    main()
