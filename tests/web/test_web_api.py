"""The HTTP API (sudokit.web): answers checked independently, bounded work, 4xx JSON errors."""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

import sudokit
from support import LONG_GENERATION

fastapi = pytest.importorskip("fastapi")
pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

from fastapi.testclient import TestClient  # noqa: E402

from sudokit.web import Limits, create_app  # noqa: E402

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def held_back() -> list[sudokit.Grid]:
    """Puzzles the API has never seen: generated here from fixed seeds, several sizes."""
    out = [sudokit.generate(size=n, seed=100 + n).puzzle for n in (4, 6, 8, 9, 12)]
    out.append(sudokit.Grid.parse(HARD))
    return out


def grid_of(obj: dict[str, object]) -> sudokit.Grid:
    """The grid of a grid object, on the shape its box or jigsaw regions name."""
    diagonals = bool(obj.get("diagonals"))
    if obj.get("regions") is not None:
        shape = sudokit.Shape.jigsaw(obj["regions"], diagonals=diagonals)  # type: ignore[arg-type]
    else:
        shape = sudokit.Shape.parse_box(str(obj["box"]), diagonals=diagonals)
    return sudokit.Grid(bytes(obj["cells"]), shape)  # type: ignore[arg-type]


def error_of(r: object) -> str:
    body = r.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"}
    assert isinstance(body["error"], str)
    assert body["error"]
    return body["error"]


# -- correct answers --------------------------------------------------------------------------


PUZZLES = held_back()


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda g: f"{g.n}x{g.n}")
def test_solve_gives_a_checked_solution(client: TestClient, puzzle: sudokit.Grid) -> None:
    r = client.post("/api/solve", json={"puzzle": str(puzzle), "box": puzzle.shape.box_spec})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "unique"
    solution = grid_of(body["solution"])
    assert solution.is_solution(puzzle)
    assert grid_of(body["puzzle"]) == puzzle


def test_solve_reads_any_format(client: TestClient) -> None:
    puzzle = PUZZLES[3]
    for fmt in ("picture", "ss", "sdk", "json", "csv"):
        text = sudokit.formats.dumps(puzzle, fmt)
        r = client.post("/api/solve", json={"puzzle": text})
        assert r.status_code == 200, (fmt, r.text)
        assert grid_of(r.json()["solution"]).is_solution(puzzle)


def test_count_and_check_agree_with_the_library(client: TestClient) -> None:
    twelve = "...456789679813245548927136...594678857361492964782513...648957796135824485279361"
    r = client.post("/api/count", json={"puzzle": twelve, "limit": 100})
    assert r.json()["count"] == sudokit.count_solutions(twelve, limit=100) == 12
    r = client.post("/api/count", json={"puzzle": twelve, "limit": 5})
    assert r.json()["count"] == 5
    assert r.json()["at_least"]
    r = client.post("/api/check", json={"puzzle": twelve})
    assert r.json()["status"] == "multiple"
    assert r.json()["valid"]
    r = client.post("/api/check", json={"puzzle": "1..1" + "." * 12})
    body = r.json()
    assert not body["valid"]
    assert body["conflicts"][0]["cells"] == [0, 3]


def test_generate_returns_unique_checked_puzzles(client: TestClient) -> None:
    r = client.post("/api/generate", json={"size": 6, "n": 3, "seed": 5, "symmetry": "rot180"})
    assert r.status_code == 200, r.text
    puzzles = r.json()["puzzles"]
    assert len(puzzles) == 3
    for p in puzzles:
        puzzle, solution = grid_of(p["puzzle"]), grid_of(p["solution"])
        assert solution.is_solution(puzzle)
        assert sudokit.is_unique(puzzle)
    again = client.post("/api/generate", json={"size": 6, "n": 3, "seed": 5, "symmetry": "rot180"})
    assert again.json()["puzzles"] == puzzles


def test_rate_hint_explain(client: TestClient) -> None:
    easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    r = client.post("/api/rate", json={"puzzle": easy})
    assert r.json()["level"] == sudokit.rate(easy).level
    r = client.post("/api/hint", json={"puzzle": easy})
    step = r.json()["step"]
    ((row, col, digit),) = step["placements"]
    solution = sudokit.solution(easy)
    assert solution[(row - 1) * 9 + col - 1] == digit
    r = client.post("/api/explain", json={"puzzle": easy})
    body = r.json()
    assert body["complete"]
    cells = bytearray(sudokit.Grid.parse(easy).cells)
    for s in body["steps"]:
        for row, col, digit in s["placements"]:
            cells[(row - 1) * 9 + col - 1] = digit
    assert sudokit.Grid(bytes(cells)).is_solution(sudokit.Grid.parse(easy))


def test_hint_points_at_a_players_mistake(client: TestClient) -> None:
    puzzle = sudokit.Grid.parse("1.3. ...2 2... .3.1")
    solution = sudokit.solution(puzzle)
    values = [0] * 16
    values[1] = solution[1] % 4 + 1  # a wrong digit in r1c2
    r = client.post("/api/hint", json={"puzzle": str(puzzle), "values": values})
    step = r.json()["step"]
    assert step["technique"] == "Mistake"
    assert step["cells"] == [[1, 2]]
    values[1] = solution[1]  # a right one: the hint goes on from there
    r = client.post("/api/hint", json={"puzzle": str(puzzle), "values": values})
    assert r.json()["step"]["technique"] != "Mistake"


def test_convert_round_trips(client: TestClient) -> None:
    puzzle = PUZZLES[1]
    for fmt in sudokit.formats.FORMATS:
        r = client.post("/api/convert", json={"puzzle": str(puzzle), "box": "2x3", "to": fmt})
        assert r.status_code == 200, (fmt, r.text)
        text = r.json()["text"]
        back = client.post("/api/convert", json={"puzzle": text, "box": "2x3", "format": fmt})
        assert grid_of(back.json()["puzzle"]) == puzzle, fmt


def test_render_svg_and_pdf(client: TestClient) -> None:
    r = client.get("/api/render.svg", params={"puzzle": "1.3....22....3.1"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.count("data-cell=") >= 16
    pytest.importorskip("reportlab")
    r = client.get("/api/print.pdf", params={"puzzle": "1.3....22....3.1"})
    assert r.status_code == 200
    assert r.content.startswith(b"%PDF")


def test_app_and_docs_are_served(client: TestClient) -> None:
    assert '<svg id="board"' in client.get("/").text
    assert (
        client.get("/js/main.js")
        .headers["content-type"]
        .startswith(("text/javascript", "application/javascript"))
    )
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for name in ("solve", "count", "check", "generate", "rate", "hint", "explain", "convert"):
        assert f"/api/{name}" in paths


# -- bad requests: 4xx JSON, quickly ------------------------------------------------------------

BAD = [
    ("/api/solve", {"puzzle": "1.3"}, 400),  # not a square number of cells
    ("/api/solve", {"puzzle": "x" * 81}, 400),  # bad symbols
    ("/api/solve", {}, 422),  # missing field
    ("/api/solve", {"puzzle": 5}, 422),  # wrong type
    ("/api/solve", {"puzzle": "." * 81, "extra": 1}, 422),  # unknown field
    ("/api/solve", {"puzzle": "." * 81, "budget": -1}, 422),
    ("/api/solve", {"puzzle": "." * 4096}, 400),  # 64x64: above the size cap
    ("/api/solve", {"puzzle": "." * 36, "box": "9x9"}, 400),
    ("/api/count", {"puzzle": "." * 81, "limit": 10**9}, 422),
    ("/api/generate", {"size": 25}, 400),
    ("/api/generate", {"size": 9, "n": 51}, 422),
    ("/api/generate", {"size": 6, "symmetry": "rot90"}, 422),  # does not fit 2x3 boxes
    ("/api/generate", {"size": 9, "box": "2x3"}, 400),
    ("/api/rate", {"puzzle": "." * 16}, 422),  # several solutions
    ("/api/hint", {"puzzle": "11" + "." * 14}, 422),  # conflicting givens
    ("/api/hint", {"puzzle": "." * 16, "values": [1, 2]}, 400),
    ("/api/hint", {"puzzle": "." * 16, "values": [9] * 16}, 400),
    ("/api/explain", {"puzzle": "......34...23..."}, 422),  # no solution
    ("/api/convert", {"puzzle": "." * 81, "to": "png"}, 422),
]


@pytest.mark.parametrize(("path", "body", "status"), BAD)
def test_bad_requests_get_4xx_json(
    client: TestClient, path: str, body: dict[str, object], status: int
) -> None:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    error_of(r)


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    r = client.post(
        "/api/solve", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    error_of(r)
    big = json.dumps({"puzzle": "." * 200_000}).encode()
    r = client.post("/api/solve", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert "larger than" in error_of(r)

    def chunks() -> Iterator[bytes]:  # no content-length: counted while streaming
        yield b'{"puzzle": "'
        for _ in range(100):
            yield b"." * 1000
        yield b'"}'

    r = client.post("/api/solve", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.get("/api/nowhere").status_code == 404
    assert client.put("/api/solve").status_code == 405


def test_pathological_searches_are_bounded(client: TestClient) -> None:
    """The node budget bounds the work: the answers say they gave up (no timing here)."""
    r = client.post("/api/solve", json={"puzzle": "." * 625, "budget": 50})
    assert r.status_code == 200
    assert r.json()["status"] in ("gave-up", "multiple")
    r = client.post("/api/count", json={"puzzle": "." * 256, "limit": 10_000, "budget": 1000})
    assert r.status_code == 200
    assert r.json()["count"] == 10_000 or not r.json()["complete"]


# Easter Monster (SE 11.9): rating it runs into the 0.5 s logic budget, far past the 1 ms
# limit, so the time-out cannot lose a race against a worker thread that finishes first.
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def test_time_limit_answers_504() -> None:
    with TestClient(create_app(Limits(timeout=0.001, logic_seconds=0.5))) as c:
        r = c.post("/api/rate", json={"puzzle": EASTER_MONSTER})
        assert r.status_code == 504
        assert "limit" in error_of(r)


def test_timed_out_work_is_stopped_and_its_worker_replaced() -> None:
    """Old code: a timed-out request kept its worker thread busy (422, then 503 for the next).
    Now the worker process is terminated at the time limit and a fresh one takes its place."""
    import os

    limits = Limits(timeout=0.5, logic_seconds=30.0, slow_workers=1, slow_queue=0)
    with TestClient(create_app(limits)) as c:
        lane = c.app.state.server.slow  # type: ignore[attr-defined]
        lane.start()  # wait for the workers (started in the background)
        before = lane.pids()
        assert len(before) == 1
        start = time.perf_counter()
        first = c.post("/api/generate", json=LONG_GENERATION)
        assert first.status_code == 504, first.text
        assert time.perf_counter() - start < 5
        for pid in before:  # the worker that ran it is gone (reaped), not busy
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        after = lane.pids()
        assert len(after) == 1
        assert after != before
        r = c.post("/api/rate", json={"puzzle": "1.3. ...2 2... .3.1"})
        assert r.status_code == 200, r.text


@pytest.mark.slow
def test_a_full_lane_answers_503_with_retry_after() -> None:
    limits = Limits(timeout=2.0, logic_seconds=30.0, slow_workers=1, slow_queue=0)
    with TestClient(create_app(limits)) as c, ThreadPoolExecutor(1) as pool:
        lane = c.app.state.server.slow  # type: ignore[attr-defined]
        running = pool.submit(c.post, "/api/generate", json=LONG_GENERATION)
        deadline = time.monotonic() + 5
        while lane._gate.held == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        r = c.post("/api/generate", json=LONG_GENERATION)
        assert r.status_code == 503
        assert "busy" in error_of(r)
        assert int(r.headers["retry-after"]) >= 1
        # cheap work has its own lane: a 9x9 solve is answered while the long lane is full
        quick = c.post("/api/solve", json={"puzzle": PUZZLES[3].__str__()})
        assert quick.status_code == 200
        assert running.result().status_code in (200, 504)


# -- many clients on loopback ---------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def live_server() -> Iterator[str]:
    port = free_port()
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_hundred_concurrent_requests(live_server: str) -> None:
    import httpx

    puzzles = PUZZLES
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=0)
    http = httpx.Client(timeout=30, limits=limits)

    def one(i: int) -> tuple[int, bool]:
        p = puzzles[i % len(puzzles)]
        r = http.post(f"{live_server}/api/solve", json={"puzzle": str(p), "box": p.shape.box_spec})
        ok = r.status_code == 200 and grid_of(r.json()["solution"]).is_solution(p)
        return r.status_code, ok

    with http, ThreadPoolExecutor(100) as pool:
        results = list(pool.map(one, range(100)))
    assert len(results) == 100
    assert all(ok for _, ok in results), results


def test_serve_command_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    from sudokit.cli.app import main

    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--host" in out
    assert "127.0.0.1" in out
    assert "--open" in out


def test_diagonals_keep_the_jigsaw_regions_of_a_json_puzzle(client: TestClient) -> None:
    regions = "1112122233343444"
    shape = sudokit.Shape.jigsaw(regions, diagonals=True)
    puzzle = sudokit.Grid.parse(".............412", shape)
    # Unique only as a jigsaw-X: with the regions dropped it is a different puzzle.
    assert sudokit.is_unique(puzzle)
    text = json.dumps({"puzzle": str(puzzle), "regions": regions})
    r = client.post("/api/solve", json={"puzzle": text, "format": "json", "diagonals": True})
    assert r.status_code == 200
    assert r.json()["status"] == "unique"
    solution = sudokit.Grid(bytes(r.json()["solution"]["cells"]), shape)
    assert solution.is_solution(puzzle)


# -- jigsaw region maps -----------------------------------------------------------------------

# A 6x6 region map (each region one connected piece, not the 2x3 boxes), as symbols.
REGIONS6 = "AABBBBAACCBBAACCDDEECCDDEEFFDDEEFFFF"
# Region 0 in two pieces (r1c1-r1c3 and r6c1-r6c3): every size fits, but it is not connected.
SPLIT6 = "AAABBBCCCBBBCCCDDDEEEDDDEEEFFFAAAFFF"


def jigsaw_puzzle(seed: int) -> sudokit.Grid:
    """A unique 6x6 jigsaw puzzle made by the library on :data:`REGIONS6`."""
    return sudokit.generate(shape=sudokit.Shape.jigsaw(REGIONS6), seed=seed).puzzle


def test_region_maps_are_valid_fixtures() -> None:
    shape = sudokit.Shape.jigsaw(REGIONS6)
    assert shape.variant == "jigsaw"
    assert shape.box_of != sudokit.Shape(2, 3).box_of
    assert sudokit.Shape.jigsaw(SPLIT6).variant == "jigsaw"  # the library accepts the cut map


@pytest.mark.parametrize("form", ["symbols", "indices"])
def test_solve_a_jigsaw(client: TestClient, form: str) -> None:
    puzzle = jigsaw_puzzle(21)
    regions = list(puzzle.shape.regions or ())
    sent: object = REGIONS6 if form == "symbols" else regions
    r = client.post("/api/solve", json={"puzzle": str(puzzle), "regions": sent})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "unique"
    assert body["puzzle"]["regions"] == body["solution"]["regions"] == regions
    assert grid_of(body["puzzle"]) == puzzle
    cells = bytes(body["solution"]["cells"])
    assert sudokit.Grid(cells, sudokit.Shape.jigsaw(REGIONS6)).is_solution(puzzle)
    # the regions were used: the answer breaks the 2x3 boxes the same text would have
    assert not sudokit.Grid(cells, sudokit.Shape(2, 3)).is_solution()


def test_generate_a_jigsaw_on_given_regions(client: TestClient) -> None:
    body = {"size": 6, "n": 2, "seed": 8, "regions": REGIONS6}
    r = client.post("/api/generate", json=body)
    assert r.status_code == 200, r.text
    shape = sudokit.Shape.jigsaw(REGIONS6)
    for p in r.json()["puzzles"]:
        assert p["puzzle"]["regions"] == list(shape.regions or ())
        puzzle = sudokit.Grid(bytes(p["puzzle"]["cells"]), shape)
        solution = sudokit.Grid(bytes(p["solution"]["cells"]), shape)
        assert solution.is_solution(puzzle)
        assert sudokit.count_solutions(puzzle, limit=2) == 1
    assert client.post("/api/generate", json=body).json() == r.json()  # seeded: reproducible


def test_generate_a_random_jigsaw(client: TestClient) -> None:
    r = client.post("/api/generate", json={"size": 6, "jigsaw": True, "seed": 3})
    assert r.status_code == 200, r.text
    (p,) = r.json()["puzzles"]
    regions = p["puzzle"]["regions"]
    assert regions is not None
    shape = sudokit.Shape.jigsaw(regions)
    assert shape.box_of != sudokit.Shape(2, 3).box_of
    puzzle = sudokit.Grid(bytes(p["puzzle"]["cells"]), shape)
    assert sudokit.Grid(bytes(p["solution"]["cells"]), shape).is_solution(puzzle)
    # the map it answers with is accepted back (connected regions) and gives the same solution
    again = client.post("/api/solve", json={"puzzle": str(puzzle), "regions": regions})
    assert again.status_code == 200, again.text
    assert again.json()["solution"]["cells"] == p["solution"]["cells"]


def test_rate_check_and_render_a_jigsaw(client: TestClient) -> None:
    puzzle = jigsaw_puzzle(22)
    r = client.post("/api/rate", json={"puzzle": str(puzzle), "regions": REGIONS6})
    assert r.status_code == 200, r.text
    assert r.json()["rating"] == sudokit.rate(puzzle).se
    r = client.post("/api/check", json={"puzzle": str(puzzle), "regions": REGIONS6})
    assert r.json()["unique"]
    r = client.get("/api/render.svg", params={"puzzle": str(puzzle), "regions": REGIONS6})
    assert r.status_code == 200
    boxes = client.get("/api/render.svg", params={"puzzle": str(puzzle)})
    assert r.text != boxes.text  # region borders, not box borders


BAD_REGIONS = [
    ("/api/solve", {"puzzle": "." * 36, "regions": REGIONS6[:-1]}, "needs a square number"),
    (
        "/api/solve",
        {"puzzle": "." * 36, "regions": ([0, 1, 2] * 2 + [3, 4, 5] * 2) * 3},
        "region 0",
    ),
    ("/api/solve", {"puzzle": "." * 36, "regions": [0] * 36}, "exactly 6 cells"),
    ("/api/solve", {"puzzle": "." * 36, "regions": [7] * 36}, "outside 0..5"),
    ("/api/solve", {"puzzle": "." * 36, "regions": SPLIT6}, "region 0 (r1c1, r1c2, r1c3, r6c1"),
    ("/api/solve", {"puzzle": "." * 81, "regions": REGIONS6}, "expected 36 cells"),
    ("/api/solve", {"puzzle": "." * 36, "regions": REGIONS6, "box": "2x3"}, "not both"),
    ("/api/rate", {"puzzle": "." * 36, "regions": "AB"}, "square number"),
    ("/api/generate", {"size": 9, "regions": REGIONS6}, "regions does not make a 9x9"),
    ("/api/generate", {"size": 6, "regions": SPLIT6}, "not connected"),
    ("/api/generate", {"size": 6, "regions": REGIONS6, "jigsaw": True}, "random region map"),
]


@pytest.mark.parametrize(("path", "body", "words"), BAD_REGIONS)
def test_bad_region_maps_get_400(
    client: TestClient, path: str, body: dict[str, object], words: str
) -> None:
    r = client.post(path, json=body)
    assert r.status_code == 400, r.text
    assert words in error_of(r)


def test_regions_inside_a_json_puzzle_are_checked_too(client: TestClient) -> None:
    text = json.dumps({"puzzle": "." * 36, "regions": SPLIT6})
    r = client.post("/api/solve", json={"puzzle": text, "format": "json"})
    assert r.status_code == 400
    assert "not connected" in error_of(r)
    puzzle = jigsaw_puzzle(23)
    text = json.dumps({"puzzle": str(puzzle), "regions": REGIONS6})
    r = client.post("/api/solve", json={"puzzle": text})
    assert r.status_code == 200, r.text
    assert grid_of(r.json()["solution"]).is_solution(puzzle)


def test_region_maps_too_long_get_422(client: TestClient) -> None:
    r = client.post("/api/solve", json={"puzzle": "." * 36, "regions": [0] * 700})
    assert r.status_code == 422
    assert "regions" in error_of(r)


def test_generate_extreme(client: TestClient) -> None:
    """The new-game dialog's Extreme: a unique puzzle rated above SE 7.5 (checked here by the
    library's own rating, independently of what the server says)."""
    r = client.post("/api/generate", json={"difficulty": "extreme", "seed": 4})
    assert r.status_code == 200, r.text
    (p,) = r.json()["puzzles"]
    puzzle = grid_of(p["puzzle"])
    assert sudokit.is_unique(puzzle)
    assert sudokit.rate(puzzle).level == "extreme"


def test_a_worker_that_died_while_idle_is_replaced() -> None:
    """A worker killed from outside (OOM killer, a crash) breaks its pipe: the request that
    meets it gets one JSON error (not a 500 traceback from the pipe), the lane replaces it,
    and the next request is answered."""
    limits = Limits(timeout=10.0, slow_workers=1)
    with TestClient(create_app(limits)) as c:
        lane = c.app.state.server.slow  # type: ignore[attr-defined]
        lane.start()
        (pid,) = lane.pids()
        os.kill(pid, signal.SIGKILL)  # its pipe ends at once (the kernel closes its files)
        time.sleep(0.2)
        first = c.post("/api/rate", json={"puzzle": "1.3. ...2 2... .3.1"})
        assert first.status_code == 500, first.text
        assert error_of(first) == "internal error: a worker process ended"
        second = c.post("/api/rate", json={"puzzle": "1.3. ...2 2... .3.1"})
        assert second.status_code == 200, second.text
        assert lane.pids()
        assert lane.pids() != [pid]


def test_convert_keeps_the_rule_kinds_it_read(client: TestClient) -> None:
    """A puzzle with rule kinds of sudokit.rules (an arrow here) comes back with them in its
    ``rules``, so a client that cannot play them sees them: never the puzzle without them."""
    from sudokit.formats import lzstring

    obj = {
        "size": 9,
        "grid": [[{} for _ in range(9)] for _ in range(9)],
        "arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C3"]]}],
    }
    link = "https://www.f-puzzles.com/?load=" + lzstring.compress(json.dumps(obj))
    r = client.post("/api/convert", json={"puzzle": link, "to": "line"})
    assert r.status_code == 200, r.text
    puzzle = r.json()["puzzle"]
    assert puzzle["variant"] == "arrow"
    assert puzzle["rules"] == [{"kind": "arrow", "circle": [0], "arrows": [[1, 2]]}]
