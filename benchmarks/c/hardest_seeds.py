"""The 11 "hardest" under several isomorph draws: the C core against tdoku, seed by seed.

    python benchmarks/c/hardest_seeds.py [--seeds 1-8] [--runs 7] [--driver PATH] [--tdoku DIR]

``benchmarks/bench_solve.py`` times the 11 puzzles of ``hardest.txt`` as ONE seeded random
isomorph each, so its "hardest" row says as much about the draw as about the solvers (one
puzzle can need 10 or 40 guesses depending on the isomorph). This script redraws the
isomorphs exactly as ``bench_solve.py --seed S`` does for each seed S (the same functions,
the same order of sets and the same calls on one ``random.Random(S)``: seed 1 is the default
run's draw), writes the 11 and their 1,100-isomorph companion (``hardest_x100``) under
``build/bench-c/seeds/S/``, and runs ``bench_fast9_tdoku -T -P`` (our C core and tdoku in one
process, rounds alternating, CPU time, medians) on them. It prints a markdown table: one row
per seed and limit, with the guesses a puzzle of both solvers and the ratio of CPU times.

The driver is built as bench_solve.py builds it (``make bench_tdoku`` into build/bench-c/),
from ``../shared/baselines/tdoku`` unless ``--tdoku`` says otherwise; ``--driver`` uses a
driver already built (e.g. one linked with a variant of ``csrc/sk_fast9.c``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_solve as bs  # noqa: E402  (the draw must be bench_solve's own)


def draw(seed: int, data: Path, out: Path) -> list[Path]:
    """Write the 11 "hardest" isomorphs and the 1,100 of ``hardest_x100`` that
    ``bench_solve.py --seed SEED`` draws (its own :func:`bench_solve.draw_sets`); returns the
    two files."""
    available = {name: data / f"{name}.txt" for name in bs.DEFAULT_ORDER}
    grids, extra = bs.draw_sets(available, bs.DEFAULT_ORDER, ["hardest"], random.Random(seed))[
        "hardest"
    ]
    out.mkdir(parents=True, exist_ok=True)
    return [
        bs.write_lines(out / "hardest.txt", [g.to_line() for g in grids]),
        bs.write_lines(out / "hardest_x100.txt", bs.apply_maps(grids, extra)),
    ]


def seed_list(text: str) -> list[int]:
    """``"1-3,7"`` -> [1, 2, 3, 7]."""
    seeds: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", default="1-8", help="seeds, e.g. 1-8 or 1,4,9")
    p.add_argument("--runs", type=int, default=7, help="rounds of -T (median)")
    p.add_argument("--driver", help="a bench_fast9_tdoku already built")
    p.add_argument(
        "--tdoku",
        default=os.environ.get(
            "SUDOKIT_TDOKU", str(ROOT.parent / "shared" / "baselines" / "tdoku")
        ),
    )
    p.add_argument(
        "--data", default=os.environ.get("SUDOKIT_DATA", str(ROOT.parent / "shared" / "data"))
    )
    args = p.parse_args(argv)
    driver: Path | None = Path(args.driver) if args.driver else None
    if driver is None:
        driver, note = bs.build_tdoku_driver(Path(args.tdoku), bs.BUILD)
        if driver is None:
            print(f"hardest_seeds: {note}", file=sys.stderr)
            return 2
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores)\n")
    print("| seed | set | limit | C µs | C guesses | tdoku µs | tdoku guesses | C / tdoku |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for seed in seed_list(args.seeds):
        for path in draw(seed, Path(args.data), bs.BUILD / "seeds" / str(seed)):
            found = bs.compare_in_c(driver, path, args.runs)
            for limit, (c_us, c_g, t_us, t_g, ratio) in sorted(found.items()):
                print(
                    f"| {seed} | {path.stem} | {limit} | {c_us:.2f} | {c_g:.2f} | {t_us:.2f} "
                    f"| {t_g:.2f} | {ratio:.2f}x |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
