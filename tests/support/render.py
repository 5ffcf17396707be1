"""Helpers of the render tests: puzzles to draw, the expected thick lines, PDF rasters."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudokit._backend import engine
from sudokit.grid import Grid
from sudokit.shape import Shape

JIGSAW9 = "AAABBBCCCAAABBBCCCAADBBBCCCADDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII"


def puzzle_pair(shape: Shape, seed: int, keep: float = 0.4) -> tuple[Grid, Grid]:
    """(puzzle, solution): a solved grid with a seeded random part of its cells blanked."""
    rng = random.Random(seed)
    relabel = [0, *rng.sample(range(1, shape.n + 1), shape.n)]  # keeps the grid valid
    full = Grid(bytes(relabel[v] for v in search_solution(shape).cells), shape)
    cells = bytes(v if rng.random() < keep else 0 for v in full.cells)
    return Grid(cells, shape), full


def expected_thick(shape: Shape) -> set[tuple[str, int, int]]:
    """Region edges from the unit lists (not box_of) plus the frame."""
    n = shape.n
    region = {}
    for u, kind in enumerate(shape.unit_kinds):
        if kind in ("box", "region"):
            for i in shape.units[u]:
                region[i] = u
    out = set()
    for r in range(n):
        for c in range(n + 1):
            if c in (0, n) or region[r * n + c - 1] != region[r * n + c]:
                out.add(("v", r, c))
    for r in range(n + 1):
        for c in range(n):
            if r in (0, n) or region[(r - 1) * n + c] != region[r * n + c]:
                out.add(("h", r, c))
    return out


PDFTOPPM = shutil.which("pdftoppm")


needs_poppler = pytest.mark.skipif(
    PDFTOPPM is None, reason="pdftoppm (poppler-utils) not installed"
)


def pgm(pdf: Path | bytes, page: int, dpi: int, tmp: Path) -> tuple[int, int, bytes]:
    """Rasterise one page (1-based) with pdftoppm -gray; returns width, height, pixels."""
    src = tmp / "in.pdf"
    if isinstance(pdf, bytes):
        src.write_bytes(pdf)
    else:
        src = pdf
    assert PDFTOPPM is not None
    out = tmp / "page"
    subprocess.run(
        [
            PDFTOPPM,
            "-gray",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(src),
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    data = (tmp / "page.pgm").read_bytes()
    head = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert head is not None
    w, h = int(head.group(1)), int(head.group(2))
    pixels = data[head.end() :]
    assert len(pixels) == w * h
    return w, h, pixels


def search_solution(shape: Shape) -> Grid:
    """A full grid of *shape* found by the search engine (nothing hard-coded)."""
    found = engine().search(shape, bytes(shape.ncells), 1, 1, 0)
    assert found.count == 1
    return Grid(found.solutions[0], shape)
