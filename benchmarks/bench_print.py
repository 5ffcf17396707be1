"""Benchmark: a printable puzzle book (target: 600 puzzles with answers, 6 per page,
<= 3 s on one core, file <= 2 MB).

Puzzles come from ../shared/data/top1465.txt when present (else from the generator); their
solutions are computed before the clock starts, as is the drawing model's import. The same run
measures two baselines on the same machine, so the figures can be compared across machines as
ratios:

* ``blank``: reportlab writing the same number of pages with only the header text (the fixed
  cost of reportlab per page);
* ``naive``: the same book drawn with reportlab's ordinary calls (``drawCentredString`` per
  digit, ``line`` per grid line), i.e. what the PDF backend would cost without writing PDF
  operators directly.

``--killer`` prints a killer book instead (100 puzzles by default, with answers):
zero-given 9x9 killers from ``sudokit.generate(9, seed=k, killer=True)``, k = 0, 1, ...,
generated before the clock starts. It reports pages per second and the cost against the
classic book of the same size measured in the same run.

Usage: ``python benchmarks/bench_print.py [--count 600] [--per-page 6] [--repeat 3] [--killer]
[--json benchmarks/results/print.jsonl]``
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import sys
import time
from pathlib import Path

import sudokit
from _commit import code_commit
from sudokit.grid import Grid
from sudokit.render import PRINT_THEME, draw
from sudokit.render.pdf import PAGE_SIZES, BookItem, write_book

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "top1465.txt"


def _items(count: int) -> tuple[list[BookItem], str]:
    if DATA.exists():
        lines = DATA.read_text().split()
        grids = [Grid.parse(lines[k % len(lines)]) for k in range(count)]
        source = DATA.name
    else:
        grids = [g.puzzle for g in sudokit.generate_many(count, seed=7)]
        source = "generated (seed 7)"
    return [BookItem(g, sudokit.solution(g), "Hard") for g in grids], source


def _killer_items(count: int) -> tuple[list[BookItem], str]:
    """*count* zero-given 9x9 killers from the generator, with their solutions (not timed)."""
    made = [sudokit.generate(9, seed=seed, killer=True) for seed in range(count)]
    return [BookItem(g.puzzle, g.solution) for g in made], "sudokit.generate(killer=True)"


def _best(fn: object, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def _naive(items: list[BookItem], pages: int) -> None:
    """Reportlab's ordinary API for the same content (the comparison baseline)."""
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO(), pagesize=PAGE_SIZES["A4"], pageCompression=1, invariant=1)
    per_page = max(1, len(items) * 2 // pages)
    for k, item in enumerate(items * 2):
        scene = draw(
            item.puzzle, user=item.solution if k >= len(items) else None, theme=PRINT_THEME
        )
        x, y, cell = 60.0, 780.0, 25.0
        for p in scene.layer("grid"):
            canvas.setLineWidth(1.5 if p.weight == "thick" else 0.5)  # type: ignore[union-attr]
            canvas.line(x + p.x1 * cell, y - p.y1 * cell, x + p.x2 * cell, y - p.y2 * cell)  # type: ignore[union-attr]
        for t in scene.layer("digits"):
            canvas.setFont("Helvetica-Bold" if t.bold else "Helvetica", 14)  # type: ignore[union-attr]
            canvas.drawCentredString(x + t.x * cell, y - t.y * cell - 5, t.text)  # type: ignore[union-attr]
        if k % per_page == per_page - 1:
            canvas.showPage()
    canvas.save()


def _blank(pages: int) -> None:
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO(), pagesize=PAGE_SIZES["A4"], pageCompression=1, invariant=1)
    for p in range(pages):
        canvas.setFont("Helvetica", 9)
        canvas.drawString(40, 800, f"page {p + 1}")
        canvas.showPage()
    canvas.save()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--per-page", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="append the result as one JSON line to this file")
    ap.add_argument("--killer", action="store_true", help="a killer book (default count 100)")
    args = ap.parse_args()
    if args.killer:
        return _killer_main(args)

    items, source = _items(args.count)
    buf = io.BytesIO()
    info = write_book(items, buf, title="Benchmark", per_page=args.per_page, answers=True)
    size = len(buf.getvalue())

    def book() -> None:
        write_book(items, io.BytesIO(), title="Benchmark", per_page=args.per_page, answers=True)

    t_book = _best(book, args.repeat)
    t_blank = _best(lambda: _blank(info.pages), args.repeat)
    t_naive = _best(lambda: _naive(items, info.pages), args.repeat)
    commit = code_commit()
    result = {
        "bench": "print",
        "puzzles": args.count,
        "per_page": info.per_page,
        "pages": info.pages,
        "source": source,
        "seconds": round(t_book, 3),
        "ms_per_page": round(1000 * t_book / info.pages, 2),
        "bytes": size,
        "target_ok": t_book <= 3.0 and size <= 2_000_000,
        "blank_pages_seconds": round(t_blank, 3),
        "naive_reportlab_seconds": round(t_naive, 3),
        "ratio_vs_blank": round(t_book / t_blank, 2),
        "ratio_vs_naive": round(t_book / t_naive, 2),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "backend": sudokit.BACKEND,
        "commit": commit,
    }
    line = json.dumps(result)
    print(line)
    if args.json:
        with open(args.json, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    return 0 if result["target_ok"] else 1


def _killer_main(args: argparse.Namespace) -> int:
    """A killer book against a classic book of as many puzzles, timed in the same run."""
    count = args.count if args.count != 600 else 100
    items, source = _killer_items(count)
    classic, _ = _items(count)
    buf = io.BytesIO()
    info = write_book(items, buf, title="Killer", per_page=args.per_page, answers=True)

    def book(which: list[BookItem]) -> None:
        write_book(which, io.BytesIO(), title="Killer", per_page=args.per_page, answers=True)

    t_killer = _best(lambda: book(items), args.repeat)
    t_classic = _best(lambda: book(classic), args.repeat)
    result = {
        "bench": "print-killer",
        "puzzles": count,
        "per_page": info.per_page,
        "pages": info.pages,
        "source": source,
        "seconds": round(t_killer, 3),
        "pages_per_second": round(info.pages / t_killer, 1),
        "ms_per_page": round(1000 * t_killer / info.pages, 2),
        "bytes": len(buf.getvalue()),
        "classic_book_seconds": round(t_classic, 3),
        "ratio_vs_classic": round(t_killer / t_classic, 2),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "backend": sudokit.BACKEND,
        "commit": code_commit(),
    }
    line = json.dumps(result)
    print(line)
    if args.json:
        with open(args.json, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
