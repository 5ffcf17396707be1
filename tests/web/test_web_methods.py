"""The HTTP answers about methods and time limits say what is true.

Old code: the browser app's files, mounted at ``/``, took every path first, so ``GET
/api/solve`` (a POST endpoint) answered 404 and ``OPTIONS``/``PUT`` 405 with ``Allow: GET,
HEAD``; and a request stopped at the time limit was told "limit of 19.9999 s" (what was left
of the limit when the worker was reached), not the limit the server was given.
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sudokit.web import create_app
from sudokit.web.errors import ApiError
from sudokit.web.work import ProcessLane
from support import run_coroutine


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())  # no lifespan: no worker process is needed here


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"])
@pytest.mark.parametrize("path", ["/api/solve", "/api/count", "/api/generate", "/api/rate"])
def test_a_post_endpoint_answers_405_allow_post(client: TestClient, method: str, path: str) -> None:
    r = client.request(method, path)
    assert r.status_code == 405
    assert r.headers["allow"] == "POST"
    if method != "HEAD":
        assert r.json() == {"error": "Method Not Allowed"}


@pytest.mark.parametrize("method", ["POST", "PUT", "OPTIONS"])
def test_a_get_endpoint_answers_405_allow_get(client: TestClient, method: str) -> None:
    r = client.request(method, "/api/render.svg")
    assert (r.status_code, r.headers["allow"]) == (405, "GET")


def test_the_app_and_unknown_paths_are_as_before(client: TestClient) -> None:
    assert client.get("/").status_code == 200
    assert "text/html" in client.get("/").headers["content-type"]
    assert client.get("/api/nowhere").status_code == 404
    assert client.get("/no/such/file.js").status_code == 404
    assert client.post("/api/solve", json={"puzzle": "1.3. ...2 2... .3.1"}).status_code == 200
    post = client.post("/")
    assert (post.status_code, post.headers["allow"]) == (405, "GET, HEAD")


def test_a_timed_out_request_names_the_limit_as_set() -> None:
    lane = ProcessLane(1, 0, 0.25, 1)
    try:
        lane.start()
        with pytest.raises(ApiError) as stopped:
            run_coroutine(lane.run(time.sleep, 30))
    finally:
        lane.close()
    assert stopped.value.status == 504
    assert stopped.value.message == "the work took longer than the server's limit of 0.25 s"
