"""Killer explanations: how long a zero-given 9x9 killer's walkthrough is, and what it costs.

    python benchmarks/bench_killer_explain.py [--data tests/data/killers9.txt] [--count N]
                                              [--no-rate] [--out DIR | --no-write]
    python benchmarks/bench_killer_explain.py --generated 120 [--budget 10] [--no-write]

For every puzzle of the data file (zero-given 9x9 killers with their solutions, format at the
file's top): ``sudokit.explain`` (CPU time of this thread), its number of steps, the path
steps behind them (a grouped walkthrough step keeps them in ``parts``; without grouping every
step is its own), the count of each technique (as steps and as path steps), the puzzles that
needed "Proof by Search", and ``sudokit.rate`` (the variant scale's number, the score and the
number of path steps) unless ``--no-rate``. Every step is checked: no elimination of the
solution's digit, no other placement, and the steps replayed end on the solution.

``--generated N`` rates the zero-given killers of ``sudokit.generate(killer=True, seed=1..N)``
instead, *budget* seconds each (the README's calibration): how many finish below the nested
chains (9.5), their range and levels, and the CPU a rating.

Run it with ``PYTHONPATH`` at another checkout to measure that code (``_commit`` names it): the
figures of two commits on the same data are then comparable, and ``--per-puzzle`` in both JSON
files gives the rating of each puzzle before and after.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import sudokit
from _commit import code_commit, write_result
from sudokit.logic.candidates import CandidateGrid

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.variants import read_killers  # noqa: E402


def measure(data: Path, count: int, rate: bool) -> dict[str, Any]:
    killers = read_killers(data)[: count or None]
    steps: list[int] = []
    parts: list[int] = []
    cpu: list[float] = []
    techniques: Counter[str] = Counter()
    path_techniques: Counter[str] = Counter()
    searched: list[int] = []
    per_puzzle: list[dict[str, Any]] = []
    for i, (grid, sol) in enumerate(killers):
        t0 = time.thread_time()
        explained = sudokit.explain(grid)
        cpu.append(time.thread_time() - t0)
        cg = CandidateGrid.from_grid(grid)
        inner = 0
        for s in explained:
            for c, d in s.eliminations:
                assert sol[c] != d, (i, s.technique, s.text)
            for c, d in s.placements:
                assert sol[c] == d, (i, s.technique, s.text)
            cg.apply(s)
            techniques[s.technique] += 1
            for p in getattr(s, "parts", ()) or (s,):
                path_techniques[p.technique] += 1
                inner += 1
        assert bytes(cg.values) == sol, f"puzzle {i}: the steps do not end on the solution"
        if any(p.technique == "Proof by Search" for p in explained):
            searched.append(i)
        steps.append(len(explained))
        parts.append(inner)
        item: dict[str, Any] = {"steps": len(explained), "path_steps": inner}
        if rate:
            r = sudokit.rate(grid)
            item.update(se=r.se, score=r.score, rated_steps=r.steps)
        per_puzzle.append(item)
    out: dict[str, Any] = {
        "puzzles": len(killers),
        "steps": summary(steps),
        "path_steps": summary(parts),
        "cpu_s": summary(cpu, 4),
        "techniques": dict(techniques.most_common()),
        "path_techniques": dict(path_techniques.most_common()),
        "proof_by_search": searched,
        "per_puzzle": per_puzzle,
    }
    if rate:
        se = [p["se"] for p in per_puzzle]
        out["se"] = summary(se, 2)
        out["se_counts"] = dict(sorted(Counter(se).items()))
    return out


def generated(count: int, budget: float) -> dict[str, Any]:
    """The ratings of ``generate(killer=True, seed=1..count)``, *budget* seconds each."""
    per_seed = []
    for seed in range(1, count + 1):
        grid = sudokit.generate(killer=True, seed=seed).puzzle
        t0 = time.thread_time()
        r = sudokit.rate(grid, budget_s=budget)
        per_seed.append({"seed": seed, "se": r.se, "level": r.level, "complete": r.complete,
                         "cpu_s": round(time.thread_time() - t0, 4)})  # fmt: skip
    done = [p for p in per_seed if p["se"] < 9.5]
    return {
        "generated": count,
        "budget_s": budget,
        "finished": len(done),
        "range": [min(p["se"] for p in done), max(p["se"] for p in done)] if done else [],
        "levels": dict(Counter(p["level"] for p in done).most_common()),
        "cpu_s": summary([p["cpu_s"] for p in per_seed], 4),
        "per_seed": per_seed,
    }


def generated_report(result: dict[str, Any]) -> str:
    levels = ", ".join(f"{k} {v}" for k, v in result["levels"].items())
    return (
        f"# Killer ratings: generate(killer=True, seed=1..{result['generated']}), "
        f"{result['budget_s']} s each\n\ncommit {result['commit']}, {result['date']}, "
        f"Python {result['python']}\n\n{result['finished']} of {result['generated']} finish below "
        f"the nested chains, rated {result['range']} ({levels}); CPU s a rating: mean "
        f"{result['cpu_s']['mean']}, median {result['cpu_s']['median']}, max "
        f"{result['cpu_s']['max']}.\n"
    )


def summary(values: list[Any], digits: int = 1) -> dict[str, float]:
    return {
        "mean": round(statistics.mean(values), digits),
        "median": round(statistics.median(values), digits),
        "max": round(max(values), digits),
        "total": round(sum(values), digits),
    }


def report(result: dict[str, Any]) -> str:
    s, p, t = result["steps"], result["path_steps"], result["cpu_s"]
    lines = [
        f"# Killer explanations: {result['puzzles']} zero-given 9x9 killers",
        "",
        f"commit {result['commit']}, {result['date']}, {platform.platform()}, Python "
        f"{result['python']}; CPU time of one thread",
        "",
        "| figure | mean | median | max |",
        "|---|---:|---:|---:|",
        f"| steps of `sudokit.explain` | {s['mean']} | {s['median']} | {s['max']} |",
        f"| path steps behind them | {p['mean']} | {p['median']} | {p['max']} |",
        f"| CPU s an explanation | {t['mean']} | {t['median']} | {t['max']} |",
    ]
    if "se" in result:
        se = result["se"]
        lines.append(f"| `sudokit.rate` (variant scale) | {se['mean']} | {se['median']} | "
                     f"{se['max']} |")  # fmt: skip
    lines += [
        "",
        f"Proof by Search in puzzles {result['proof_by_search'] or 'none'}.",
        "",
        "| technique | steps | path steps |",
        "|---|---:|---:|",
    ]
    names = list(result["path_techniques"]) + [
        k for k in result["techniques"] if k not in result["path_techniques"]
    ]
    for name in names:
        lines.append(
            f"| {name} | {result['techniques'].get(name, 0)} | "
            f"{result['path_techniques'].get(name, 0)} |"
        )
    if "se_counts" in result:
        lines += ["", "Ratings: " + ", ".join(f"{k}: {v}" for k, v in result["se_counts"].items())]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=str(ROOT / "tests" / "data" / "killers9.txt"))
    p.add_argument("--count", type=int, default=0, help="only the first N puzzles (0: all)")
    p.add_argument("--no-rate", action="store_true", help="skip sudokit.rate")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    p.add_argument("--no-write", action="store_true")
    p.add_argument("--generated", type=int, default=0, help="rate N generated killers instead")
    p.add_argument("--budget", type=float, default=10.0, help="seconds a rating (--generated)")
    args = p.parse_args(argv)
    result: dict[str, Any] = {
        "date": _dt.date.today().isoformat(),
        "commit": code_commit(),
        "machine": platform.machine(),
        "python": sys.version.split()[0],
        "data": str(Path(args.data).resolve().relative_to(ROOT))
        if ROOT in Path(args.data).resolve().parents
        else args.data,
    }
    if args.generated:
        result.update(generated(args.generated, args.budget))
        text = generated_report(result)
        name = "bench_killer_generated"
    else:
        result.update(measure(Path(args.data), args.count, not args.no_rate))
        text = report(result)
        name = "bench_killer_explain"
    print(text)
    if not args.no_write:
        write_result(Path(args.out), f"{result['date']}-{result['commit']}-{name}", text, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
