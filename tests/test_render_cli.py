"""``sudokit render`` and ``sudokit print``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import sudokit
from sudokit.cli.app import main
from sudokit.grid import Grid
from sudokit.shape import Shape
from test_render import _puzzle
from test_render_pdf import PDFTOPPM

pypdf = pytest.importorskip("pypdf")


def _unique_puzzle(seed: int) -> Grid:
    """A puzzle with one solution: blank cells of a full grid while the solution stays unique."""
    puzzle, _ = _puzzle(Shape(3, 3), seed=seed, keep=1.0)
    cells = bytearray(puzzle.cells)
    import random

    rng = random.Random(seed)
    for i in rng.sample(range(81), 81):
        old = cells[i]
        cells[i] = 0
        if sudokit.count_solutions(Grid(bytes(cells)), limit=2) != 1:
            cells[i] = old
    return Grid(bytes(cells))


@pytest.fixture(scope="module")
def puzzles() -> list[Grid]:
    return [_unique_puzzle(seed) for seed in range(8)]


def test_render_text_and_svg(
    puzzles: list[Grid], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = str(puzzles[0])
    assert main(["render", line]) == 0
    out = capsys.readouterr().out
    assert Grid.parse(out) == puzzles[0]
    svg = tmp_path / "p.svg"
    assert main(["render", line, "-o", str(svg), "--candidates", "--solution"]) == 0
    root = ET.parse(svg).getroot()
    assert len(root.findall(".//{http://www.w3.org/2000/svg}rect")) >= 81
    users = [
        t
        for t in root.iter("{http://www.w3.org/2000/svg}text")
        if "user" in t.attrib.get("class", "")
    ]
    assert len(users) == 81 - puzzles[0].clues


def test_render_file_index_and_pdf(puzzles: list[Grid], tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("".join(f"{p}  easy\n" for p in puzzles))
    out = tmp_path / "p.pdf"
    assert main(["render", str(src), "--index", "3", "-o", str(out)]) == 0
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text().split()
    assert len(text) == puzzles[2].clues or len("".join(text)) == puzzles[2].clues


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm not installed")
def test_render_png(puzzles: list[Grid], tmp_path: Path) -> None:
    out = tmp_path / "p.png"
    assert main(["render", str(puzzles[0]), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "12x4" + "." * 12]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("sudokit: ")
    assert "unexpected character 'x'" in err[0]
    assert main(["render", "." * 81, "-o", str(tmp_path / "x.bmp")]) == 2
    assert "cannot tell the format" in capsys.readouterr().err
    assert main(["render", "." * 81, "--index", "2"]) == 2


def test_print_book_with_answers(
    puzzles: list[Grid], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.txt"
    src.write_text("# a comment line\n" + "".join(f"{p}  Medium\n" for p in puzzles))
    out = tmp_path / "book.pdf"
    code = main(
        ["print", str(src), "-o", str(out), "--per-page", "4", "--answers", "--title", "My Book"]
    )
    assert code == 0
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 1 + 2 + 1  # title, 8 puzzles at 4 per page, one answer page
    assert "My Book" in reader.pages[0].extract_text()
    assert "Medium" in reader.pages[1].extract_text()
    assert "Answers" in reader.pages[3].extract_text()
    assert "4 pages" in capsys.readouterr().err


def test_print_rate_degrades_or_labels(
    puzzles: list[Grid], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.txt"
    src.write_text("".join(f"{p}\n" for p in puzzles[:2]))
    out = tmp_path / "book.pdf"
    assert main(["print", str(src), "-o", str(out), "--rate", "--no-title-page"]) == 0
    err = capsys.readouterr().err
    if getattr(sudokit, "rate", None) is None:
        assert "--rate needs sudokit.rate" in err
    else:
        level = str(sudokit.rate(puzzles[0]).level).capitalize()
        assert level in pypdf.PdfReader(out).pages[0].extract_text()


def test_print_refuses_a_puzzle_without_a_unique_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.txt"
    src.write_text("." * 81 + "\n")
    assert main(["print", str(src), "-o", str(tmp_path / "b.pdf"), "--answers"]) == 1
    assert "puzzle 1 (line 1)" in capsys.readouterr().err
    assert not (tmp_path / "b.pdf").exists()
