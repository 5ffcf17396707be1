"""The technique pages of the docs site: one page a family, each technique with a real step.

Every picture is a step the project's own solver takes, drawn by its own renderer
(:func:`sudokit.render.model.draw` with the step's units, cells, highlights, links,
placements and eliminations; :func:`sudokit.render.svg.to_svg`). The puzzles are pinned in
``docs/techniques.json``: for each technique a puzzle (a JSON line, its rules too) and the
number of path steps to take before the technique's step. Building the pages replays those
paths, so the pictures always show what today's code does; a pin whose step no longer is that
technique fails the build, naming it.

``python docs/gen_techniques.py --find`` searches for the pins again: the easiest-first paths
of the puzzles in ``tests/data`` (and of the shared corpora in ``$SUDOKIT_DATA``, when present),
then seeded generated puzzles (``sudokit.generate(require=..., seed=...)``) for what is still
missing; a technique that the path never takes in them is pinned where its finder first fires
on a state of a path (``"direct": true``: a real state, the step the technique finds there).
``--more FILE... --budget S`` keeps the pins and searches the paths of more puzzles, *S*
seconds a step, for the techniques still missing (the nested forcing chains need the hardest
puzzles and long steps).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import sudokit
from sudokit import formats
from sudokit.errors import BudgetExceededError
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chains import chain_budget
from sudokit.logic.path import find_step, is_effective
from sudokit.logic.registry import TECHNIQUES, Technique
from sudokit.logic.step import Step
from sudokit.render.model import draw
from sudokit.render.svg import to_svg

ROOT = Path(__file__).resolve().parent.parent
PINS = Path(__file__).with_name("techniques.json")
#: The families in the order a solver meets them, with the title of their page.
TITLES = {
    "singles": "Singles",
    "intersections": "Intersections",
    "subsets": "Subsets",
    "fish": "Fish",
    "wings": "Wings",
    "single-digit": "Single-digit patterns",
    "uniqueness": "Uniqueness",
    "als": "Almost locked sets",
    "exclusion": "Aligned exclusion",
    "chains": "Chains",
    "forcing": "Forcing chains",
    "variant": "Variant rules",
    "killer": "Killer cages",
}
#: One step of a path: the state before it (a copy), the step and its technique.
_Taken = tuple[CandidateGrid, Step, Technique]

#: Seconds a path may spend in one step (find mode; the replay allows more).
FIND_BUDGET = 5.0
REPLAY_BUDGET = 120.0


def slug(name: str) -> str:
    """A page anchor: ``"Forcing Chains & Cycles"`` -> ``forcing-chains-and-cycles``."""
    text = name.lower().replace("+", " plus ").replace("&", " and ")
    return "-".join("".join(ch if ch.isalnum() else " " for ch in text).split())


def _unique(grid: sudokit.Grid) -> bool:
    return sudokit.is_unique(grid)


def walk(
    grid: sudokit.Grid, budget: float, max_steps: int = 0
) -> Iterator[tuple[CandidateGrid, Step, Technique]]:
    """The easiest-first path of *grid*: each step with the state before it and its technique
    (the state is the caller's to keep: a copy). Stops when stuck or past *budget* in a step."""
    cg = CandidateGrid.from_grid(grid)
    unique = _unique(grid)
    taken = 0
    while not cg.is_solved and (not max_steps or taken < max_steps):
        try:
            with chain_budget(budget):
                found = find_step(cg, unique=unique)
        except BudgetExceededError:
            return
        if found is None:
            return
        step, technique = found
        yield cg.copy(), step, technique
        cg.apply(step)
        taken += 1


def _direct(cg: CandidateGrid, technique: Technique, unique: bool) -> Step | None:
    """The first effective step *technique* finds in *cg* (bounded), or None."""
    if technique.needs_unique and not unique:
        return None
    try:
        with chain_budget(FIND_BUDGET):
            return next((s for s in technique.finder(cg) if is_effective(cg, s)), None)
    except BudgetExceededError:
        return None


class Replays:
    """The paths of the pinned puzzles, each walked once and only as far as a pin needs: a
    puzzle pins several techniques (one has seven), and a late step of a hard path costs
    seconds of forcing chains, so replaying it once per pin made the site's build twice as
    long."""

    def __init__(self) -> None:
        self._paths: dict[str, tuple[sudokit.Grid, Iterator[_Taken], list[_Taken]]] = {}

    def step(self, puzzle: str, index: int) -> tuple[sudokit.Grid, _Taken | None]:
        """The puzzle of *puzzle* (a JSON line) and step *index* of its path (None when the
        path stops before it)."""
        if puzzle not in self._paths:
            grid = formats.parse_one(puzzle, "jsonl")
            self._paths[puzzle] = (grid, walk(grid, REPLAY_BUDGET), [])
        grid, steps, taken = self._paths[puzzle]
        taken.extend(itertools.islice(steps, max(0, index + 1 - len(taken))))
        return grid, taken[index] if index < len(taken) else None


def example(
    pin: dict[str, object], replays: Replays | None = None
) -> tuple[sudokit.Grid, CandidateGrid, Step]:
    """Replay a pin: the puzzle, the state of its path and the step of the technique there
    (*replays* shares the walks of the pins of one puzzle)."""
    name = str(pin["technique"])
    index = int(str(pin["step"]))
    grid, found = (replays or Replays()).step(str(pin["puzzle"]), index)
    if found is None:
        raise RuntimeError(f"{name}: the pinned path stops before step {index}")
    state, step, technique = found
    if pin.get("direct"):
        technique = next(t for t in TECHNIQUES if t.name == name)
        step = _direct(state, technique, _unique(grid))
        if step is None:
            raise RuntimeError(f"{name}: its finder no longer fires at step {index} of its pin")
    if technique.name != name:
        raise RuntimeError(f"{name}: step {index} of its pinned path is now a {technique.name}")
    return grid, state, step


def picture(grid: sudokit.Grid, state: CandidateGrid, step: Step) -> str:
    """The SVG of *step* on *state*: the givens, the digits placed so far, the candidates."""
    scene = draw(grid, user=state.values, candidates=state.masks, step=step)
    return to_svg(scene, cell=36, title=step.technique) + "\n"


def _puzzle(grid: sudokit.Grid) -> str:
    variant = grid.shape.variant
    if variant == "standard":
        return f"puzzle `{grid}`"
    return f"a {variant} puzzle of `docs/techniques.json`"


def _value(value: float) -> str:
    return f"{value:.1f}"


def pages() -> dict[str, str]:
    """The generated files of the techniques section: path (under the site) -> text."""
    pins = {p["technique"]: p for p in json.loads(PINS.read_text(encoding="utf-8"))}
    out: dict[str, str] = {}
    replays = Replays()
    index = [
        "# Techniques",
        "",
        "Every technique of the human-style solver (`sudokit hint`, `explain`, `rate`), by family,",
        "easiest first. Each picture is a real step of the solver on a real puzzle, drawn by",
        "`sudokit.render`: the shaded houses and cells are the step's pattern, ringed candidates",
        "its highlights, red candidates are removed and a green one is placed; chain links are",
        "solid when strong and dashed when weak. *SE* marks the techniques of Sudoku Explainer",
        "1.2.1, the only ones the SE rating uses; the others are shown in hints with",
        "SE-comparable values. Values are the base rating; a step may rate higher (a longer",
        "chain, a further house). See [the rating scales](../rating-scales.md).",
        "",
        "| family | techniques |",
        "|---|---|",
    ]
    for family, title in TITLES.items():
        members = sorted((t for t in TECHNIQUES if t.family == family), key=lambda t: t.rating)
        if not members:
            continue
        names = ", ".join(f"[{t.name}]({family}.md#{slug(t.name)})" for t in members)
        index.append(f"| [{title}]({family}.md) | {names} |")
        page = [f"# {title}", ""]
        for t in members:
            variant = family in ("variant", "killer")
            scale = "SE" if t.se else "variant scale" if variant else "hint only"
            page += [
                f"## {t.name} {{#{slug(t.name)}}}",
                "",
                f"Base value **{_value(t.rating)}** ({scale})"
                + ("; needs a unique puzzle." if t.needs_unique else "."),
                "",
            ]
            pin = pins.get(t.name)
            if pin is None:
                page += ["No step of this technique was found in the pinned puzzles.", ""]
                continue
            grid, state, step = example(pin, replays)
            image = f"img/{slug(t.name)}.svg"
            out[f"techniques/{image}"] = picture(grid, state, step)
            how = "a state of the path where" if pin.get("direct") else "step"
            where = (
                f"{how} {int(str(pin['step'])) + 1}"
                if not pin.get("direct")
                else f"{how} its finder fires (after {pin['step']} steps of the path)"
            )
            page += [
                f"![{t.name}]({image})",
                "",
                "> " + step.text.replace("\n", "  \n> "),  # a chain's branches: a line each
                "",
                f"<small>This step: {step.technique}, rated {_value(step.rating)}; "
                f"{_puzzle(grid)}, {where}.</small>",
                "",
            ]
        out[f"techniques/{family}.md"] = "\n".join(page)
    out["techniques/index.md"] = "\n".join(index) + "\n"
    return out


# -- find mode ------------------------------------------------------------------------------


def _corpora() -> Iterator[str]:
    """Puzzle texts (one JSON line or puzzle line each), the repository's first."""
    data = Path(os.environ.get("SUDOKIT_DATA", ROOT.parent / "shared" / "data"))
    paths = [
        ROOT / "tests/data/logic_puzzles.txt",
        ROOT / "tests/data/variants/killers_logic.jsonl",
    ]

    paths += [data / name for name in ("top1465.txt", "hardest.txt", "forum_hardest_1106.txt")]
    for path in paths:
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.startswith("#"):
                    yield line.strip()


def _generated(missing: set[str]) -> Iterator[str]:
    variants = [{"parity": True}, {"thermo": True}, {"kropki": True}, {"xv": True},
                {"nonconsecutive": True}, {"killer": True}]  # fmt: skip
    for seed in range(1, 6):
        for opts in variants:
            yield formats.dumps(sudokit.generate(seed=seed, **opts).puzzle, "jsonl")  # type: ignore[arg-type]
    for name in sorted(missing):
        try:
            puzzle = sudokit.generate(require=name, seed=1, ratings=40).puzzle
            yield formats.dumps(puzzle, "jsonl")
        except sudokit.SudokuError:
            continue


def find(
    seconds: float,
    budget: float = FIND_BUDGET,
    files: list[Path] | None = None,
    known: list[dict[str, object]] | None = None,
) -> list[dict[str, object]]:
    """Pins for as many techniques as *seconds* of searching find, *budget* seconds a step;
    *files* instead of the default corpora (then no generated puzzles); *known* pins kept."""
    start = time.monotonic()
    names = {t.name for t in TECHNIQUES}
    kept = {str(p["technique"]): p for p in known or []}
    pins = {name: p for name, p in kept.items() if not p.get("direct")}
    direct = {name: p for name, p in kept.items() if p.get("direct")}

    def scan(text: str) -> None:
        grid = formats.parse_one(text)
        record = formats.dumps(grid, "jsonl")
        unique = _unique(grid)
        for k, (cg, _, technique) in enumerate(walk(grid, budget)):
            if technique.name not in pins:
                pins[technique.name] = {"technique": technique.name, "puzzle": record, "step": k}
                direct.pop(technique.name, None)
            for t in TECHNIQUES:
                if t.name in pins or t.name in direct or t.rating >= 7.0:
                    continue
                if _direct(cg, t, unique) is not None:
                    direct[t.name] = {
                        "technique": t.name, "puzzle": record, "step": k, "direct": True
                    }  # fmt: skip

    texts = _corpora() if files is None else _lines(files)
    for text in texts:
        if time.monotonic() - start > seconds / 2 or not names - set(pins):
            break
        scan(text)
    for text in _generated(names - set(pins)) if files is None else ():
        if time.monotonic() - start > seconds or not names - set(pins):
            break
        scan(text)
    found = {**direct, **pins}
    print(f"pinned {len(found)} of {len(names)}; none for: {sorted(names - set(found))}",
          file=sys.stderr)  # fmt: skip
    order = [t.name for t in TECHNIQUES]
    return sorted(found.values(), key=lambda p: order.index(str(p["technique"])))


def _lines(files: list[Path]) -> Iterator[str]:
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                yield line.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--find", action="store_true", help="search the pins again")
    parser.add_argument("--seconds", type=float, default=600, help="find mode: time to spend")
    parser.add_argument("--budget", type=float, default=FIND_BUDGET, help="seconds a step")
    parser.add_argument(
        "--more", type=Path, nargs="+", help="find mode: keep the pins, search these files too"
    )
    args = parser.parse_args()
    if args.find:
        known = json.loads(PINS.read_text(encoding="utf-8")) if args.more else None
        pins = find(args.seconds, args.budget, args.more, known)
        PINS.write_text(json.dumps(pins, indent=1) + "\n", encoding="utf-8")
    else:
        for path, text in pages().items():
            print(path, len(text))


if __name__ == "__main__":
    main()
