"""How step texts name digits (the board's symbols above 9x9, or numbers on request), and the
one "Mistake" step (a wrong placed digit or a lost candidate) that the library makes for the
CLI and the web app alike."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

import sudokit
import support
from sudokit import mistake
from sudokit.cli.app import cli
from sudokit.logic._names import digit_labels, digit_list, digit_name, elim_text
from sudokit.shape import SYMBOLS, Shape

DATA = support.DATA


@pytest.fixture(scope="module")
def sixteen() -> tuple[sudokit.Grid, sudokit.Step]:
    """A 16x16 puzzle whose first hint places a digit above 9, and that hint."""
    for seed in range(5, 40):
        puzzle = sudokit.generate(size=16, seed=seed).puzzle
        step = sudokit.hint(puzzle)
        assert step is not None
        if step.placements and step.placements[0][1] > 9:
            return puzzle, step
    pytest.fail("no 16x16 puzzle of seeds 5..39 starts with a digit above 9")


def _placed(step: sudokit.Step) -> tuple[str, int]:
    cell, d = step.placements[0]
    return Shape(4, 4).cell_name(cell), d


# -- naming -------------------------------------------------------------------------------------


def test_digit_name_follows_the_line_formats_alphabet() -> None:
    assert [digit_name(9, d) for d in range(1, 10)] == list("123456789")
    assert (
        "".join(digit_name(16, d) for d in range(1, 17))
        == sudokit.Grid.parse(SYMBOLS[:16] + "." * 240).to_line()[:16]
    )
    assert digit_name(Shape(4, 4), 16) == "G"
    assert digit_name(64, 64) == "64"  # beyond 61 the line format writes numbers too
    with digit_labels("numbers"):
        assert digit_name(16, 11) == "11"
        assert digit_list(16, [10, 12], "or") == "10 or 12"
    assert digit_list(16, [10, 12], "or") == "A or C"
    assert elim_text(Shape(4, 4), [(0, 11), (1, 11)]) == "B is removed from r1c1 and r1c2"


def test_unknown_labels_are_refused() -> None:
    with pytest.raises(ValueError, match="labels must be one of symbols, numbers"):
        sudokit.hint("1.3....22....3.1", labels="letters")  # type: ignore[arg-type]


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.slow
def test_api_hint_names_a_16x16_digit_both_ways(sixteen: tuple[sudokit.Grid, sudokit.Step]) -> None:
    puzzle, step = sixteen
    cell, d = _placed(step)
    letter = SYMBOLS[d - 1]
    assert f"{cell} is {letter}." in step.text or f"digit {letter}." in step.text, step.text
    assert not re.search(rf"(?<![rc\d]){d}\b", step.text), step.text
    numbers = sudokit.hint(puzzle, labels="numbers")
    assert numbers is not None
    assert re.search(rf"(?<![rc\d]){d}\b", numbers.text), numbers.text
    assert not re.search(rf"\b{letter}\b", numbers.text), numbers.text
    # Only the text differs: the step's data keeps digits as numbers.
    assert numbers.to_json() | {"text": ""} == step.to_json() | {"text": ""}
    assert step.to_json()["placements"][0][2] == d
    explained = sudokit.explain(puzzle, labels="numbers")
    assert explained[0].text == numbers.text


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_cli_hint_names_a_16x16_digit_as_the_board_does(
    sixteen: tuple[sudokit.Grid, sudokit.Step],
) -> None:
    puzzle, step = sixteen
    cell, d = _placed(step)
    result = CliRunner().invoke(cli, ["hint", "-p", str(puzzle)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    line = result.output.strip()
    assert line == f"{step.technique} ({step.rating:.1f}): {step.text}"
    assert cell in line
    assert re.search(rf"\b{SYMBOLS[d - 1]}\b", line), line
    assert not re.search(rf"(?<![rc\d]){d}\b", line), line


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_9x9_texts_are_unchanged() -> None:
    """Golden texts written before digit naming went through one function: every 9x9 step of
    these puzzles (27 techniques between them) must read exactly as it did."""
    rows = [
        json.loads(line)
        for line in (DATA / "logic_golden_9x9.jsonl").read_text().split("\n")
        if line
    ]
    assert len(rows) == 6
    for row in rows:
        steps = sudokit.explain(row["puzzle"])
        got = [f"{s.technique} ({s.rating:.1f}): {s.text}" for s in steps]
        assert got == row["steps"], row["puzzle"]


# -- the Mistake step ---------------------------------------------------------------------------

PUZZLE = "1.3....22....3.1"


def test_mistake_of_a_wrong_placed_digit_and_of_a_lost_candidate() -> None:
    puzzle = sudokit.Grid.parse(PUZZLE)
    solution = sudokit.solution(puzzle)
    assert solution is not None
    assert mistake(puzzle, solution) is None
    cells = bytearray(puzzle.cells)
    cells[1] = solution[1] % 4 + 1
    wrong = mistake(sudokit.Grid(bytes(cells), puzzle.shape), solution)
    assert wrong is not None
    assert wrong.technique == "Mistake"
    assert wrong.cells == (1,)
    assert wrong.text == f"r1c2 holds {cells[1]}, but that leads to no solution."
    # Pencil marks that lost the solution's digit: the library's hint says so, from the same
    # function.
    masks = [1 << (v - 1) if v else 0b1111 for v in puzzle.cells]
    masks[1] &= ~(1 << (solution[1] - 1))
    marks = sudokit.Candidates(puzzle.shape, tuple(masks), puzzle.cells)
    lost = mistake(marks, solution)
    assert lost is not None
    assert lost.cells == (1,)
    assert "a candidate was removed by mistake" in lost.text
    assert sudokit.hint(marks) == lost


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_mistake_names_the_digit_as_asked(sixteen: tuple[sudokit.Grid, sudokit.Step]) -> None:
    puzzle, _step = sixteen
    solution = sudokit.solution(puzzle)
    assert solution is not None
    cell = next(c for c in range(256) if not puzzle[c] and solution[c] != 11)
    cells = bytearray(puzzle.cells)
    cells[cell] = 11
    player = sudokit.Grid(bytes(cells), puzzle.shape)
    name = puzzle.shape.cell_name(cell)
    symbols = mistake(player, solution)
    numbers = mistake(player, solution, labels="numbers")
    assert symbols is not None
    assert symbols.text.startswith(f"{name} holds B,")
    assert numbers is not None
    assert numbers.text.startswith(f"{name} holds 11,")


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_web_mistake_comes_from_the_library() -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from sudokit.web import create_app, validate

    assert not hasattr(validate, "mistake")  # one producer: sudokit.rating.mistake
    puzzle = sudokit.Grid.parse(PUZZLE)
    solution = sudokit.solution(puzzle)
    assert solution is not None
    values = [0] * 16
    values[1] = solution[1] % 4 + 1
    cells = bytes(g or v for g, v in zip(puzzle.cells, values, strict=True))
    expected = mistake(sudokit.Grid(cells, puzzle.shape), solution)
    assert expected is not None
    with TestClient(create_app()) as client:
        r = client.post("/api/hint", json={"puzzle": PUZZLE, "values": values})
        assert r.status_code == 200, r.text
        assert r.json()["step"]["text"] == expected.text
        r = client.post("/api/explain", json={"puzzle": PUZZLE, "values": values})
        assert r.status_code == 422
        assert expected.text in r.json()["error"]
        # Marks that lost a digit: the same function, through the same route.
        marks = [[] if v else [1, 2, 3, 4] for v in puzzle.cells]
        marks[1] = [x for x in marks[1] if x != solution[1]]
        r = client.post("/api/hint", json={"puzzle": PUZZLE, "candidates": marks})
        assert r.json()["step"]["text"].startswith("The candidates of r1c2 no longer include")


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_web_hint_labels(sixteen: tuple[sudokit.Grid, sudokit.Step]) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from sudokit.web import create_app

    puzzle, step = sixteen
    with TestClient(create_app()) as client:
        texts = {}
        for labels in ("symbols", "numbers"):
            body = {"puzzle": str(puzzle), "labels": labels}
            r = client.post("/api/hint", json=body)
            assert r.status_code == 200, r.text
            texts[labels] = r.json()["step"]["text"]
        assert (
            client.post("/api/hint", json={"puzzle": str(puzzle)}).json()["step"]["text"]
            == texts["symbols"]
        )
        r = client.post("/api/hint", json={"puzzle": str(puzzle), "labels": "roman"})
        assert r.status_code in (400, 422)
    assert texts["symbols"] == step.text
    numbers = sudokit.hint(puzzle, labels="numbers")
    assert numbers is not None
    assert texts["numbers"] == numbers.text != step.text


def test_cli_hint_marks_reports_the_mistake_from_the_library() -> None:
    from sudokit.formats.candidates import dumps_candidates

    puzzle = sudokit.Grid.parse(PUZZLE)
    solution = sudokit.solution(puzzle)
    assert solution is not None
    masks = [1 << (v - 1) if v else 0b1111 for v in puzzle.cells]
    masks[1] &= ~(1 << (solution[1] - 1))
    marks = sudokit.Candidates.from_masks(puzzle.shape, masks)
    expected = mistake(marks, solution)
    assert expected is not None
    args = ["hint", "--marks", "-p", dumps_candidates(marks)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"Mistake (0.0): {expected.text}"
