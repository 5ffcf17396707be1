"""The server's rules beyond answers: Host check, CORS, OpenAPI error bodies, offline docs,
print pages with every constraint, refused shapes, hints from the player's pencil marks."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

import sudokit

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from sudokit.web import create_app
from sudokit.web.middleware import loopback_hosts
from support import run_coroutine

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def test_loopback_server_checks_the_host_header() -> None:
    app = create_app(hosts=loopback_hosts("127.0.0.1", 8000))
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/info").status_code == 200
        for ok in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
            assert c.get("/api/info", headers={"host": ok}).status_code == 200
        for bad in ("evil.example:8000", "localhost:9000", "127.0.0.1", "attacker.localhost"):
            r = c.get("/api/info", headers={"host": bad})
            assert r.status_code == 400, bad
            assert "is not served here" in r.json()["error"]


def test_cors_is_same_origin_unless_named() -> None:
    origin = {"origin": "https://elsewhere.example"}
    with TestClient(create_app()) as c:
        r = c.post("/api/solve", json={"puzzle": EASY}, headers=origin)
        assert "access-control-allow-origin" not in r.headers
        pre = c.options(
            "/api/solve",
            headers={**origin, "access-control-request-method": "POST"},
        )
        assert "access-control-allow-origin" not in pre.headers
    with TestClient(create_app(cors=["https://elsewhere.example"])) as c:
        r = c.post("/api/solve", json={"puzzle": EASY}, headers=origin)
        assert r.headers["access-control-allow-origin"] == "https://elsewhere.example"
        other = c.post("/api/solve", json={"puzzle": EASY}, headers={"origin": "https://x.example"})
        assert "access-control-allow-origin" not in other.headers


def test_openapi_describes_the_error_bodies_returned(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    error = spec["components"]["schemas"]["ErrorOut"]
    assert error["required"] == ["error"]
    for path in ("/api/solve", "/api/count", "/api/check", "/api/generate", "/api/hint"):
        answers = spec["paths"][path]["post"]["responses"]
        for code in ("400", "413", "422", "503", "504"):
            ref = answers[code]["content"]["application/json"]["schema"]["$ref"]
            assert ref.endswith("/ErrorOut"), (path, code)
        assert "Retry-After" in answers["503"]["headers"]
    # and the bodies really have that shape
    r = client.post("/api/solve", json={})
    assert r.status_code == 422
    assert set(r.json()) == {"error"}


def test_docs_work_offline(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    page = r.text
    assert "/api/solve" in page
    assert "/api/print.pdf" in page
    assert "<script" not in page
    assert "cdn" not in page.lower()
    assert "https://" not in page
    assert "src=" not in page


def _pdf_page(client: TestClient, **params: object) -> tuple[str, bytes]:
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("reportlab")
    r = client.get("/api/print.pdf", params=params)
    assert r.status_code == 200, r.text
    reader = pypdf.PdfReader(io.BytesIO(r.content))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    return page.extract_text(), page.get_contents().get_data()


def test_print_pdf_draws_diagonals_title_and_difficulty(client: TestClient) -> None:
    """Old code: a Sudoku-X printed without its diagonals, and without title or level."""
    puzzle = str(sudokit.generate(size=9, seed=3, diagonals=True).puzzle)
    text, plain = _pdf_page(client, puzzle=puzzle, title="Daily X")
    _, with_x = _pdf_page(client, puzzle=puzzle, title="Daily X", diagonals=True)
    assert with_x != plain
    text_x, _ = _pdf_page(
        client, puzzle=puzzle, title="Daily X", difficulty="expert", diagonals=True
    )
    assert "Daily X" in text_x
    assert "expert" in text_x
    assert "Daily X" in text


def test_print_pdf_draws_jigsaw_regions(client: TestClient) -> None:
    made = sudokit.generate(size=6, seed=2, jigsaw=True).puzzle
    regions = "".join("ABCDEF"[r] for r in made.shape.regions or ())
    _, jigsaw = _pdf_page(client, puzzle=str(made), regions=regions)
    _, boxes = _pdf_page(client, puzzle=str(made), box="2x3")
    assert jigsaw != boxes


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/solve", {"puzzle": "." * 4096}, "64x64"),
        ("/api/generate", {"size": 7}, "1x7"),
        ("/api/generate", {"size": 11}, "1x11"),
        ("/api/solve", {"puzzle": "." * 49}, "1x7"),
    ],
)
def test_shapes_the_app_cannot_show_are_refused_clearly(
    client: TestClient, path: str, body: dict[str, object], words: str
) -> None:
    """Old code: "expected a square number ... got 4096", and size 7 made a 1x7 Latin square."""
    r = client.post(path, json=body)
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert words in message
    assert "4, 6, 8, 9, 10, 12" in message  # which sizes are accepted
    assert "square number" not in message


def test_a_jigsaw_of_a_prime_size_is_still_served(client: TestClient) -> None:
    r = client.post("/api/generate", json={"size": 7, "jigsaw": True, "seed": 1})
    assert r.status_code == 200, r.text


def _state_before(puzzle: sudokit.Grid, steps: list[sudokit.Step]) -> tuple[bytes, list[int]]:
    """The values and candidate masks after *steps* (placements, then eliminations)."""
    cells = bytearray(puzzle.cells)
    for s in steps:
        for c, d in s.placements:
            cells[c] = d
    grid = sudokit.Grid(bytes(cells), puzzle.shape)
    masks = list(sudokit.Candidates.from_grid(grid).masks)
    for s in steps:
        for c, d in s.eliminations:
            masks[c] &= ~(1 << (d - 1))
    return bytes(cells), masks


def _marks(values: bytes, masks: list[int], n: int) -> list[list[int]]:
    return [
        [] if v else [d for d in range(1, n + 1) if m >> (d - 1) & 1]
        for v, m in zip(values, masks, strict=True)
    ]


def test_hints_start_from_the_players_pencil_marks(client: TestClient) -> None:
    """Old code: after applying a hint that only removes candidates, the next hint was the
    same step (the request carried only placed digits)."""
    puzzle = sudokit.generate(size=9, seed=0, difficulty="hard").puzzle
    steps = sudokit.explain(puzzle)
    k = next(i for i, s in enumerate(steps) if s.eliminations and not s.placements)
    values, masks = _state_before(puzzle, steps[:k])
    body = {"puzzle": str(puzzle), "values": list(values)}
    first = client.post("/api/hint", json={**body, "candidates": _marks(values, masks, 9)})
    assert first.status_code == 200, first.text
    step = first.json()["step"]
    assert step["eliminations"]
    assert not step["placements"]
    for c_r, c_c, d in step["eliminations"]:
        masks[(c_r - 1) * 9 + c_c - 1] &= ~(1 << (d - 1))
    again = client.post("/api/hint", json={**body, "candidates": _marks(values, masks, 9)})
    assert again.status_code == 200, again.text
    assert again.json()["step"] != step
    # Without the marks the same elimination would come back (the old behaviour).
    assert client.post("/api/hint", json=body).json()["step"]["eliminations"]


def test_a_removed_candidate_that_belongs_is_a_mistake(client: TestClient) -> None:
    puzzle = sudokit.Grid.parse(EASY)
    solution = sudokit.solution(puzzle)
    masks = list(sudokit.Candidates.from_grid(puzzle).masks)
    cell = puzzle.cells.index(0)
    masks[cell] &= ~(1 << (solution.cells[cell] - 1))
    marks = _marks(puzzle.cells, masks, 9)
    r = client.post("/api/hint", json={"puzzle": EASY, "candidates": marks})
    assert r.status_code == 200, r.text
    step = r.json()["step"]
    assert step["technique"] == "Mistake"
    assert "candidate" in step["text"]


def test_bad_pencil_marks_get_400(client: TestClient) -> None:
    r = client.post("/api/hint", json={"puzzle": EASY, "candidates": [[1]] * 80})
    assert r.status_code == 400
    r = client.post("/api/hint", json={"puzzle": EASY, "candidates": [[10]] * 81})
    assert r.status_code == 400


def test_a_trickled_body_times_out_with_408() -> None:
    import asyncio

    from sudokit.web.middleware import BodyLimit

    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("the app must not be reached")

    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        await asyncio.sleep(10)  # the client never sends the rest of its body
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "headers": [(b"content-length", b"100")]}
    limit = BodyLimit(app, 1000, seconds=0.2)
    run_coroutine(asyncio.wait_for(limit(scope, receive, send), 5))  # type: ignore[arg-type]
    assert sent[0]["status"] == 408
