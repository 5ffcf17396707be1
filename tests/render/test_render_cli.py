"""``sudokit render`` and ``sudokit print``."""

from __future__ import annotations

import random
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import sudokit
from sudokit.cli.app import main
from sudokit.grid import Grid
from sudokit.shape import Shape
from support.render import puzzle_pair

pypdf = pytest.importorskip("pypdf")
PDFTOPPM = shutil.which("pdftoppm")


def _unique_puzzle(seed: int) -> Grid:
    """A puzzle with one solution: blank cells of a full grid while the solution stays unique."""
    puzzle, _ = puzzle_pair(Shape(3, 3), seed=seed, keep=1.0)
    cells = bytearray(puzzle.cells)
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
    assert main(["render", "-p", line]) == 0
    out = capsys.readouterr().out
    assert Grid.parse(out) == puzzles[0]
    svg = tmp_path / "p.svg"
    assert main(["render", "-p", line, "-o", str(svg), "--candidates", "--solution"]) == 0
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
    assert main(["render", "-p", str(puzzles[0]), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "-p", "12x4" + "." * 12]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("sudokit: ")
    assert "unexpected character 'x'" in err[0]
    assert main(["render", "-p", "." * 81, "-o", str(tmp_path / "x.bmp")]) == 2
    assert "cannot tell the format" in capsys.readouterr().err
    assert main(["render", "-p", "." * 81, "--index", "2"]) == 2


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
    args = ["print", str(src), "-o", str(out), "--rate", "--no-title-page", "--per-page", "1"]
    if getattr(sudokit, "rate", None) is None:
        assert main(args) == 0
        assert "--rate needs sudokit.rate" in capsys.readouterr().err
        return
    assert main([*args, "--sort"]) == 0
    ratings = sorted((sudokit.rate(p).se, k) for k, p in enumerate(puzzles[:2]))
    pages = pypdf.PdfReader(out).pages
    for page, (se, k) in zip(pages, ratings, strict=True):
        text = page.extract_text()
        assert f"{se:.1f}" in text
        assert str(sudokit.rate(puzzles[k]).level).capitalize() in text


def test_print_refuses_a_puzzle_without_a_unique_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.txt"
    src.write_text("." * 81 + "\n")
    assert main(["print", str(src), "-o", str(tmp_path / "b.pdf"), "--answers"]) == 1
    err = capsys.readouterr().err
    assert "in.txt:1: puzzle 1: the puzzle has more than one solution" in err
    assert not (tmp_path / "b.pdf").exists()


def test_print_reads_csv_labels_and_skips_bad_records(
    puzzles: list[Grid], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.csv"
    rows = [f"{p},{'Gentle' if k % 2 else 'Tough'}" for k, p in enumerate(puzzles[:3])]
    src.write_text("puzzle,difficulty\n" + "\n".join([rows[0], "12x,Bad", *rows[1:]]) + "\n")
    out = tmp_path / "book.pdf"
    assert main(["print", str(src), "-o", str(out), "--no-title-page", "--per-page", "4"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert any("in.csv:3" in line and "puzzle 2" in line for line in err)
    text = pypdf.PdfReader(out).pages[0].extract_text()
    assert "Puzzles 1–3" in text
    assert "Tough" in text
    assert "Gentle" in text


def test_render_draws_pencil_marks_read_from_a_candidate_file(
    puzzles: list[Grid], tmp_path: Path
) -> None:
    from sudokit.formats import dumps_candidates
    from sudokit.marks import Candidates

    start = Candidates.from_grid(puzzles[0])
    masks = list(start.masks)
    cell = next(i for i in range(81) if not puzzles[0][i] and masks[i].bit_count() >= 3)
    masks[cell] &= masks[cell] - 1  # remove the lowest candidate: two or more are left
    src = tmp_path / "marks.txt"
    src.write_text(dumps_candidates(Candidates(start.shape, tuple(masks), start.values)))
    out = tmp_path / "m.svg"
    assert main(["render", str(src), "--from", "candgrid", "-o", str(out)]) == 0
    shown: dict[int, int] = {}
    for t in ET.parse(out).getroot().iter("{http://www.w3.org/2000/svg}text"):
        if t.attrib.get("class", "").startswith("cand"):
            r, c = map(int, t.attrib["data-cell"].split(","))
            shown[r * 9 + c] = shown.get(r * 9 + c, 0) | 1 << (int(t.attrib["data-digit"]) - 1)
    # a cell with a single candidate reads as placed (candgrid format): no pencil marks there
    assert shown == {i: m for i, m in enumerate(masks) if not puzzles[0][i] and m & (m - 1)}
