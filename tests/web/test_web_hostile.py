"""The HTTP API under hostile use (brief HUNT): bodies that are not JSON, not an object, not
UTF-8 or nested too deeply, and wrong types, each answered ``{"error": ...}`` in words that
say what is wrong with the request (FastAPI's own words said ``0: JSON decode error``,
``Field required`` or ``There was an error parsing the body``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

fastapi = pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from sudokit.web import create_app  # noqa: E402

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
OBJECT = "the request body must be a JSON object (UTF-8, Content-Type: application/json)"
UNREAD = "the request body could not be read as JSON (not UTF-8, or nested too deeply)"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


@pytest.mark.parametrize(
    ("body", "content_type", "status", "error"),
    [
        (
            b"hello",
            "application/json",
            400,
            "the request body is not JSON: Expecting value at character 0",
        ),
        (
            b'{"puzzle": "1"',
            "application/json",
            400,
            "the request body is not JSON: Expecting ',' delimiter at character 14",
        ),
        (b"", "application/json", 422, OBJECT),
        (b"[]", "application/json", 422, OBJECT),
        (b"null", "application/json", 422, OBJECT),
        (b'{"puzzle": "."}', "text/plain", 422, OBJECT),
        (b'{"puzzle": "\xff"}', "application/json", 400, UNREAD),
        (b"[" * 30_000 + b"]" * 30_000, "application/json", 400, UNREAD),
        (b'{"puzzle": 5}', "application/json", 422, "puzzle: Input should be a valid string"),
    ],
    ids=["text", "cut", "empty", "array", "null", "text-plain", "latin1", "deep", "wrong-type"],
)
@pytest.mark.parametrize("endpoint", ["solve", "count", "hint", "generate"])
def test_a_body_that_is_not_a_json_object_is_named(
    client: TestClient, endpoint: str, body: bytes, content_type: str, status: int, error: str
) -> None:
    if endpoint == "generate" and b"puzzle" in body and b"\xff" not in body:
        pytest.skip("generate has no puzzle field")
    answer = client.post(f"/api/{endpoint}", content=body, headers={"content-type": content_type})
    assert (answer.status_code, answer.json()) == (status, {"error": error})


def test_a_bad_query_json_is_still_named_by_its_field(client: TestClient) -> None:
    """The GET pictures' ``rules`` is JSON in the query: its error names the field, not the
    body."""
    answer = client.get("/api/render.svg", params={"puzzle": PUZZLE, "rules": "nope"})
    assert answer.status_code == 422
    assert answer.json()["error"].startswith("rules: Invalid JSON")
