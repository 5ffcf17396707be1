"""The words about a puzzle through the API: a link's title, author and rules text and the
setter's solution come back from /api/convert, are written again where a format keeps them,
and print on the PDF page."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

import sudokit
from sudokit.formats import fpuzzles, lzstring

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from sudokit.web import create_app

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
META = {
    "title": "Tiny Steps",
    "author": "A. Setter",
    "ruleset": "Normal sudoku rules apply.\nEnjoy!",
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def _easy() -> tuple[sudokit.Grid, sudokit.Grid]:
    puzzle = sudokit.Grid.parse(EASY)
    return puzzle, sudokit.solution(puzzle)


def _sudokupad(cells: list[list[dict[str, int]]], *cages: dict[str, object]) -> str:
    """A SudokuPad link of *cells* whose *cages* hold its metadata (cages without cells)."""
    return "https://sudokupad.app/scl" + lzstring.compress(
        json.dumps({"cells": cells, "cages": list(cages)})
    )


def test_convert_answers_a_links_title_author_rules_and_solution(client: TestClient) -> None:
    """Old code: the answer had the grid alone, so an imported puzzle lost its name, its
    setter, its rules and its published solution."""
    puzzle, solution = _easy()
    link = fpuzzles.dumps(puzzle, solution=solution, fields=META)
    body = client.post("/api/convert", json={"puzzle": link}).json()
    assert body["meta"] == META
    assert body["solution"]["line"] == str(solution)
    assert body["solution_valid"] is True
    bare = client.post("/api/convert", json={"puzzle": EASY}).json()
    assert (bare["meta"], bare["solution"], bare["solution_valid"]) == ({}, None, None)


def test_sudokupad_metadata_comes_back_as_the_same_keys(client: TestClient) -> None:
    """SudokuPad names the rules text ``rules``; the answer names it ``ruleset`` as f-puzzles
    does (``rules`` is the variant's rule kinds in every request and answer)."""
    cells: list[list[dict[str, int]]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": 1}
    link = _sudokupad(
        cells,
        {"value": "title: Four"},
        {"value": "author: B. Setter"},
        {"value": "rules: Normal sudoku rules."},
        {"value": "solution: 1234341221434321"},
    )
    body = client.post("/api/convert", json={"puzzle": link}).json()
    meta = {"title": "Four", "author": "B. Setter", "ruleset": "Normal sudoku rules."}
    assert body["meta"] == meta
    assert body["solution"]["line"] == "1234341221434321"
    assert body["solution_valid"] is True


def test_a_published_solution_that_breaks_a_rule_is_flagged(client: TestClient) -> None:
    """A wrong published solution must not make a player lose silently: the answer says it
    breaks the rules (here the cage r1c2+r2c2 = 5 that 2 + 4 does not keep)."""
    cells: list[list[dict[str, int]]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": 1}
    link = _sudokupad(
        cells,
        {"cells": [[0, 1], [1, 1]], "value": 5},
        {"value": "solution: 1234341221434321"},
    )
    body = client.post("/api/convert", json={"puzzle": link}).json()
    assert body["solution"]["line"] == "1234341221434321"
    assert body["solution_valid"] is False


@pytest.mark.parametrize("fmt", ["fpuzzles", "sudokupad", "json"])
def test_meta_and_solution_round_trip_through_export(client: TestClient, fmt: str) -> None:
    """The app exports a game with the words it was imported with: the request's ``meta``
    and ``solution`` are written, and reading the text back gives them again."""
    _, solution = _easy()
    sent = {"puzzle": EASY, "to": fmt, "meta": META, "solution": str(solution)}
    out = client.post("/api/convert", json=sent)
    assert out.status_code == 200, out.text
    back = client.post("/api/convert", json={"puzzle": out.json()["text"]}).json()
    assert back["meta"] == META
    assert back["solution"]["line"] == str(solution)
    assert back["puzzle"]["line"] == EASY


def test_the_requests_meta_replaces_the_texts_own(client: TestClient) -> None:
    puzzle, solution = _easy()
    link = fpuzzles.dumps(puzzle, solution=solution, fields=META)
    body = client.post(
        "/api/convert", json={"puzzle": link, "to": "fpuzzles", "meta": {"title": "Renamed"}}
    ).json()
    assert body["meta"] == {"title": "Renamed"}
    again = client.post("/api/convert", json={"puzzle": body["text"]}).json()
    assert again["meta"] == {"title": "Renamed"}
    assert again["solution"]["line"] == str(solution)  # the text's own solution stays


def test_a_solution_that_is_not_a_full_grid_is_refused(client: TestClient) -> None:
    r = client.post("/api/convert", json={"puzzle": EASY, "solution": EASY})
    assert r.status_code == 400
    assert "solution: expected a full 9x9 grid" in r.json()["error"]


def test_print_pdf_prints_the_title_author_and_rules_text(client: TestClient) -> None:
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("reportlab")
    rules = "Normal sudoku rules apply. " + "Each arrow sums its circle. " * 40
    r = client.get(
        "/api/print.pdf",
        params={"puzzle": EASY, "title": "Tiny Steps", "author": "A. Setter", "ruleset": rules},
    )
    assert r.status_code == 200, r.text
    reader = pypdf.PdfReader(io.BytesIO(r.content))
    assert len(reader.pages) == 1  # a long text shrinks the grid; it never adds a page
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Tiny Steps by A. Setter" in text
    assert "Normal sudoku rules apply." in text
    assert text.count("Each arrow sums its circle.") == 40
    assert reader.metadata is not None
    assert reader.metadata.author == "A. Setter"
