"""/api/hint beside the player's notes: partial centre marks are never read as candidates.

A full candidate list (``candidates``) is trusted: one that leaves out the digit that belongs
there is a mistake. Notes (``notes``, a pair written Snyder style) only say where the player
looks: the hint comes from the real candidates, and ``left_out`` says where the notes leave
out a digit the hint uses. Expected steps come from the library, never from the server.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import sudokit

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from sudokit.web import create_app

#: A 9x9 whose first hint is a Hidden Single (7 in r1c5, a cell of six candidates).
PUZZLE = sudokit.generate(size=9, seed=2024, symmetry="rot180").puzzle
FIRST = sudokit.hint(PUZZLE)
((CELL, DIGIT),) = FIRST.placements
REAL = sudokit.Candidates.from_grid(PUZZLE).digits(CELL)
PAIR = [d for d in REAL if d != DIGIT][:2]  # true notes that leave out the answer


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def marks_at(cell: int, digits: list[int]) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(81)]
    out[cell] = digits
    return out


def test_notes_get_the_real_hint_and_say_what_they_leave_out(client: TestClient) -> None:
    r = client.post("/api/hint", json={"puzzle": str(PUZZLE), "notes": marks_at(CELL, PAIR)})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["step"]["technique"] == FIRST.technique
    assert body["step"]["text"] == FIRST.text
    assert body["left_out"] == [{"cell": [CELL // 9 + 1, CELL % 9 + 1], "digits": [DIGIT]}]


def test_the_same_marks_as_a_full_list_are_a_mistake(client: TestClient) -> None:
    r = client.post("/api/hint", json={"puzzle": str(PUZZLE), "candidates": marks_at(CELL, PAIR)})
    body = r.json()
    assert body["step"]["technique"] == "Mistake"
    assert body["step"]["cells"] == [[CELL // 9 + 1, CELL % 9 + 1]]
    assert body["left_out"] == []


def test_notes_that_hold_what_the_hint_uses_say_nothing(client: TestClient) -> None:
    other = next(c for c in range(81) if not PUZZLE[c] and c != CELL)
    notes = marks_at(CELL, [DIGIT, PAIR[0]])
    notes[other] = [sudokit.Candidates.from_grid(PUZZLE).digits(other)[0]]  # not in the step
    r = client.post("/api/hint", json={"puzzle": str(PUZZLE), "notes": notes})
    assert r.json()["step"]["text"] == FIRST.text
    assert r.json()["left_out"] == []


def test_full_lists_and_notes_together(client: TestClient) -> None:
    """Full lists in every other cell: the noted cell is still read from the grid."""
    lists = sudokit.Candidates.from_grid(PUZZLE)
    candidates = [[] if PUZZLE[c] else list(lists.digits(c)) for c in range(81)]
    candidates[CELL] = []
    expected = sudokit.hint(lists)
    r = client.post(
        "/api/hint",
        json={"puzzle": str(PUZZLE), "candidates": candidates, "notes": marks_at(CELL, PAIR)},
    )
    body = r.json()
    assert body["step"]["text"] == expected.text
    assert body["left_out"] == [{"cell": [CELL // 9 + 1, CELL % 9 + 1], "digits": [DIGIT]}]


@pytest.mark.parametrize(
    ("notes", "error"),
    [
        ([[1]] * 80, "notes needs 81 lists, got 80"),
        (marks_at(CELL, [10]), "notes must be digits 1..9"),
    ],
)
def test_bad_notes_get_one_clear_400(client: TestClient, notes: object, error: str) -> None:
    r = client.post("/api/hint", json={"puzzle": str(PUZZLE), "notes": notes})
    assert r.status_code == 400
    assert r.json() == {"error": error}


def test_explain_takes_no_notes(client: TestClient) -> None:
    r = client.post("/api/explain", json={"puzzle": str(PUZZLE), "notes": marks_at(CELL, PAIR)})
    assert 400 <= r.status_code < 500
    assert "notes" in r.json()["error"]
