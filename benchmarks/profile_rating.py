"""Profile of rating: where ``sudokit.rate`` spends its CPU, by technique and by SE tier.

Rates SE-rated puzzles of ``../shared/rated/se_controlled_bias_dev.tsv`` (never copied into the
repository) with the public ``sudokit.rate`` and its finders wrapped so that each records its
CPU (``time.process_time`` around every step asked of it), how often the path called it and how
many steps it gave. Prints, per set (``--random N`` puzzles drawn with ``--seed``, and the
``--hardest M`` by SER):

* per technique: calls, steps given, CPU s, share of the set's CPU, microseconds per call, and
  whether the technique is part of the chaining engine (families ``chains`` and ``forcing``:
  ``logic/cycles.py`` and ``logic/forcing.py``) or not;
* per SE tier of the puzzle (SER < 6.1, 6.1-7.5, 7.6-8.9, >= 9.0): puzzles, CPU, and that CPU
  split into non-chaining finders, chaining finders and the rest (uniqueness proof by the
  solver, the path loop, applying steps).

The wrappers add a little CPU of their own (counted in the finders' figures); compare shares and
ratios within one run, not absolute seconds across runs (the machine is shared).
``--cprofile N`` instead runs the set under :mod:`cProfile` and prints the N functions with the
most own time. ``--json PATH`` writes the figures.

    python benchmarks/profile_rating.py --random 1000 --hardest 300
    python benchmarks/profile_rating.py --random 200 --hardest 0 --cprofile 30
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import sudokit
import sudokit.rating
from _rated import DEV, add_dev_set_options, dev_sets, load_rated, parse_or_skip, run_info
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.registry import Technique
from sudokit.logic.step import Step

#: The chaining engine's families (logic/cycles.py, logic/forcing.py).
CHAINING = frozenset({"chains", "forcing"})
#: SE tiers of a puzzle: (label, upper bound on SER).
TIERS = (("< 6.1", 6.05), ("6.1-7.5", 7.55), ("7.6-8.9", 8.95), (">= 9.0", 99.0))


@dataclass
class Usage:
    """What one technique cost over a set: finder calls, steps given, CPU seconds."""

    family: str
    calls: int = 0
    steps: int = 0
    cpu: float = 0.0


@dataclass
class Profile:
    """The per-technique usage of a set and the CPU of each puzzle."""

    usage: dict[str, Usage] = field(default_factory=dict)
    # per puzzle: total CPU, CPU in non-chaining finders, CPU in chaining finders
    puzzle_cpu: list[tuple[float, float, float]] = field(default_factory=list)


def instrumented(profile: Profile) -> Callable[..., list[Technique]]:
    """A stand-in for ``rating.rating_techniques`` whose finders record into *profile*."""
    original = sudokit.rating.rating_techniques

    def wrap(t: Technique) -> Technique:
        use = profile.usage.setdefault(t.name, Usage(t.family))

        def finder(cg: CandidateGrid) -> Iterator[Step]:
            use.calls += 1
            start = time.process_time()
            steps = iter(t.finder(cg))
            use.cpu += time.process_time() - start
            while True:  # time each step the path asks for (it may stop early)
                start = time.process_time()
                try:
                    step = next(steps, None)
                finally:
                    use.cpu += time.process_time() - start
                if step is None:
                    return
                use.steps += 1
                yield step

        return t._replace(finder=finder)

    def techniques(*args: object, **kwargs: object) -> list[Technique]:
        return [wrap(t) for t in original(*args, **kwargs)]  # type: ignore[arg-type]

    return techniques


def split(profile: Profile) -> tuple[float, float]:
    """CPU so far in non-chaining and in chaining finders."""
    plain = sum(u.cpu for u in profile.usage.values() if u.family not in CHAINING)
    chain = sum(u.cpu for u in profile.usage.values() if u.family in CHAINING)
    return plain, chain


def run(puzzles: list[str], budget: float) -> Profile:
    """Rate *puzzles* with instrumented finders."""
    profile = Profile()
    original = sudokit.rating.rating_techniques
    sudokit.rating.rating_techniques = instrumented(profile)  # type: ignore[assignment]
    try:
        for p in puzzles:
            plain0, chain0 = split(profile)
            start = time.process_time()
            sudokit.rate(p, budget_s=budget)
            total = time.process_time() - start
            plain1, chain1 = split(profile)
            profile.puzzle_cpu.append((total, plain1 - plain0, chain1 - chain0))
    finally:
        sudokit.rating.rating_techniques = original  # type: ignore[assignment]
    return profile


def tier_of(se: float) -> str:
    """The label of the SE tier of *se*."""
    return next(label for label, bound in TIERS if se <= bound)


def report(name: str, rows: list[tuple[str, float]], profile: Profile) -> dict[str, object]:
    """Print the two tables of one set and return them as data."""
    total = sum(t for t, _, _ in profile.puzzle_cpu)
    plain, chain = split(profile)
    print(f"\n## {name}: {len(rows)} puzzles, {total:.2f} s CPU")
    print(
        f"non-chaining finders {plain:.2f} s ({100 * plain / total:.1f}%), chaining finders "
        f"{chain:.2f} s ({100 * chain / total:.1f}%), rest {total - plain - chain:.2f} s\n"
    )
    print("| technique | engine | calls | steps | CPU s | share | us/call |")
    print("|---|---|---:|---:|---:|---:|---:|")
    techs = {}
    for tname, u in sorted(profile.usage.items(), key=lambda kv: -kv[1].cpu):
        if not u.calls:
            continue
        engine = "chaining" if u.family in CHAINING else "plain"
        per = 1e6 * u.cpu / u.calls
        print(
            f"| {tname} | {engine} | {u.calls} | {u.steps} | {u.cpu:.2f} | "
            f"{100 * u.cpu / total:.1f}% | {per:.0f} |"
        )
        techs[tname] = {"engine": engine, "calls": u.calls, "steps": u.steps, "cpu_s": u.cpu}
    print("\n| SE tier | puzzles | CPU s | share | non-chaining | chaining | rest |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    tiers = {}
    for label, _ in TIERS:
        cpu = zip(rows, profile.puzzle_cpu, strict=True)
        mine = [c for (_, se), c in cpu if tier_of(se) == label]
        if not mine:
            continue
        t = sum(c[0] for c in mine)
        p = sum(c[1] for c in mine)
        ch = sum(c[2] for c in mine)
        print(
            f"| {label} | {len(mine)} | {t:.2f} | {100 * t / total:.1f}% | {p:.2f} | {ch:.2f} | "
            f"{t - p - ch:.2f} |"
        )
        tiers[label] = {"puzzles": len(mine), "cpu_s": t, "plain_s": p, "chaining_s": ch}
    return {"set": name, "cpu_s": total, "techniques": techs, "tiers": tiers}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_dev_set_options(ap)
    ap.add_argument("--budget", type=float, default=0.0, help="seconds per puzzle (0 = none)")
    ap.add_argument("--cprofile", type=int, default=0, help="print the N costliest functions")
    args = parse_or_skip(ap, DEV, "profile_rating")
    if args is None:
        return 0
    dev = load_rated(DEV)
    sets = dev_sets(dev, args.random, args.hardest, random.Random(args.seed))
    sudokit.rate(dev[0][0])  # imports and per-shape tables outside the clock
    results = []
    print(f"# rating profile, {run_info()}, backend {sudokit.BACKEND}")
    for name, rows in sets:
        puzzles = [p for p, _ in rows]
        if args.cprofile:
            prof = cProfile.Profile(time.process_time)
            prof.runcall(lambda ps=puzzles: [sudokit.rate(p, budget_s=args.budget) for p in ps])
            print(f"\n## {name}")
            pstats.Stats(prof).sort_stats("tottime").print_stats(args.cprofile)
            continue
        results.append(report(name, rows, run(puzzles, args.budget)))
    if args.json:
        args.json.write_text(json.dumps({"run": run_info(), "sets": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
