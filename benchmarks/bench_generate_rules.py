"""Benchmark: generating the rule kinds (target: >= 5 puzzles a second per kind on one core
at the default level, human-solvable).

For each kind -- the drawn rule kinds (``--arrow``, ``--littlekiller``, ...), built by the
human walk, and today's older kinds (``killer``, ``windoku``, ``antiknight``, ``antiking``,
``nonconsecutive``, ``kropki``, ``xv``, ``parity``, ``thermo``, ``x`` for Sudoku-X, and
combinations such as ``antiknight+kropki``), whose default adds givens until the walk solves
(:func:`sudokit.generator.walked.climb`) -- and size (6x6, 9x9): puzzles a CPU second
(one process, seeds 0, 1, ... until ``--seconds`` of CPU are spent; one puzzle that runs past
that alone is stopped and counted as not made), mean givens and rules, the mean and the
longest line (cells of an arrow with its circle, or of a line: renban, whispers, palindrome,
between), and, for the same
seeds with ``any_unique`` (``--any``), the rate and the share the explainer's human walk
solves (:func:`sudokit.generator.ruled.human_walk`, outside the timed part).

Usage: ``python benchmarks/bench_generate_rules.py [--seconds 10] [--sizes 6,9]
[--kinds arrow,killer,antiknight+kropki]`` (default: every kind of both); writes
``results/generate_rules-<sizes>.md`` (``--out`` names another file). The machine is shared:
CPU time, not wall time.
"""

from __future__ import annotations

import argparse
import signal
import time
from pathlib import Path
from types import FrameType

from sudokit import generate
from sudokit.generator.drawn_rules import KINDS
from sudokit.generator.ruled import human_walk

#: Today's older kinds (the classic pipeline and sudokit.generator.variants build them), by
#: the generate keyword of each; a "+" joins kinds.
OLDER = ("killer", "windoku", "antiknight", "antiking", "nonconsecutive", "kropki", "xv")
OLDER += ("parity", "thermo", "x", "antiknight+kropki", "thermo+parity")
#: The rule kinds drawn as paths of cells (their lengths are reported).
LINES = ("arrow", "renban", "whispers", "palindrome", "between")


def _keywords(kind: str) -> dict[str, bool]:
    return {"diagonals" if k == "x" else k: True for k in kind.split("+")}


class _Late(BaseException):
    """A puzzle ran past the CPU time left (a BaseException: the walks catch Exception)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Late


def _run(kind: str, n: int, seconds: float, any_unique: bool) -> dict[str, float]:
    made = givens = rules = human = 0
    lines: list[int] = []
    spent = 0.0
    seed = 0
    while spent < seconds:
        left = seconds - spent
        signal.setitimer(signal.ITIMER_PROF, max(left, 0.01))
        start = time.process_time()
        try:
            p = generate(n, seed=seed, any_unique=any_unique, **_keywords(kind))  # type: ignore[misc]
        except _Late:
            spent = seconds
            break
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            spent += time.process_time() - start
        seed += 1
        made += 1
        givens += p.clues
        own = p.puzzle.shape.constraints
        rules += len(own.rules) if own is not None else 0
        lines += [len(r.cells_of()) for r in own.rules if r.kind in LINES] if own else []
        human += not human_walk(bytes(p.puzzle.cells), p.puzzle.shape)
    return {
        "rate": made / spent if spent else 0.0,
        "made": made,
        "givens": givens / made if made else float("nan"),
        "rules": rules / made if made else float("nan"),
        "line": sum(lines) / len(lines) if lines else float("nan"),
        "longest": max(lines, default=0),
        "human": human / made if made else float("nan"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--sizes", default="6,9")
    ap.add_argument("--kinds", default=",".join(KINDS + OLDER))
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    signal.signal(signal.SIGPROF, _alarm)
    lines = [
        "| kind | size | puzzles/s | made | givens | rules | line cells (longest) |"
        " --any puzzles/s | --any human |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for kind in args.kinds.split(","):
        for n in map(int, args.sizes.split(",")):
            if "windoku" in kind and round(n**0.5) ** 2 != n:
                continue  # windoku needs square boxes
            d = _run(kind, n, args.seconds, False)
            a = _run(kind, n, args.seconds, True)
            line = (
                f"| {kind} | {n}x{n} | {d['rate']:.2f} | {d['made']:.0f} | {d['givens']:.1f} |"
                f" {d['rules']:.1f} | {d['line']:.1f} ({d['longest']}) | {a['rate']:.2f} |"
                f" {a['human']:.0%} |"
            )
            print(line, flush=True)
            lines.append(line)
    name = args.out or "generate_rules-" + args.sizes.replace(",", "_") + ".md"
    out = Path(__file__).parent / "results" / name
    out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
