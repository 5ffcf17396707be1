"""Fuzzing the HTTP API from its own OpenAPI schema: whatever is sent, never a 500.

Request bodies are drawn by hypothesis from the JSON schemas FastAPI publishes (so a new field
is fuzzed as soon as it exists), mixed with puzzle-like text of several sizes, out-of-range
numbers, wrong types, unknown fields and arbitrary JSON.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from support.tiers import examples

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import Shape
from sudokit.web import Limits, create_app

SYMBOLS = ".123456789ABCDEFG"
# Small work limits keep the run short; the bounds themselves are part of what is fuzzed.
LIMITS = Limits(timeout=3.0, logic_seconds=0.5, max_generate=4, max_generate_size=9)
APP = create_app(LIMITS)
SCHEMA: dict[str, Any] = APP.openapi()
POSTS = sorted(p for p, ops in SCHEMA["paths"].items() if "post" in ops)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


@st.composite
def puzzle_text(draw: st.DrawFn) -> str:
    """Grid-like text: mostly blank cells of a square size, sometimes broken or decorated."""
    n = draw(st.sampled_from([1, 2, 4, 6, 9, 12, 16]))
    density = draw(st.sampled_from([0.0, 0.05, 0.1, 0.2, 1.0]))
    rng = random.Random(draw(st.integers(0, 2**32)))  # cheap bulk randomness, still replayable
    text = "".join(
        rng.choice(SYMBOLS[1 : n + 1]) if rng.random() < density else "." for _ in range(n * n)
    )
    style = draw(st.sampled_from(["line", "rows", "junk", "cut"]))
    if style == "rows":
        text = "\n".join(text[i : i + n] for i in range(0, len(text), n))
    elif style == "junk":
        text = text[:5] + draw(st.text(max_size=5)) + text[5:]
    elif style == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    return text


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref:
        return resolve(SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[1]])
    return schema


def from_schema(name: str, schema: dict[str, Any], loose: bool) -> st.SearchStrategy[Any]:
    """A strategy for values of *schema* (a JSON schema FastAPI wrote); *loose* adds near
    misses (out-of-range numbers, strings off the pattern or enum)."""
    schema = resolve(schema)
    if "anyOf" in schema:
        return st.one_of([from_schema(name, s, loose) for s in schema["anyOf"]])
    if "enum" in schema:
        values = st.sampled_from(schema["enum"])
        return values | st.text(max_size=8) if loose else values
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {k: from_schema(k, v, loose) for k, v in props.items() if k in required},
            optional={k: from_schema(k, v, loose) for k, v in props.items() if k not in required},
        )
    if kind == "string":
        if name == "puzzle":
            return puzzle_text() | st.text(max_size=40) if loose else puzzle_text()
        if "pattern" in schema:
            fits = st.from_regex(re.compile(schema["pattern"]), fullmatch=True)
            return fits | st.text(max_size=6) if loose else fits
        return st.text(max_size=30)
    if kind == "integer":
        lo = int(schema.get("minimum", -(10**6)))
        hi = int(min(schema.get("maximum", 10**6), 10**6))
        near = st.integers(lo, min(hi, lo + 12))
        return near | st.integers(lo - 5, hi + 5) | st.integers() if loose else near
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = from_schema(name, schema.get("items", {}), loose)
        cells = st.integers(0, 9) if not loose else st.integers(-2, 30)
        return st.lists(items, max_size=int(schema.get("maxItems", 10)) + 2) | st.sampled_from(
            [16, 36, 81]
        ).flatmap(lambda k: st.lists(cells, min_size=k, max_size=k))
    if kind == "null":
        return st.none()
    return JSON


def body_strategy(path: str) -> st.SearchStrategy[Any]:
    content = SCHEMA["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    strict = from_schema("body", content["schema"], loose=False)
    valid = from_schema("body", content["schema"], loose=True)
    broken = valid.flatmap(
        lambda body: st.dictionaries(st.text(max_size=8), JSON, max_size=2).map(
            lambda extra: {**body, **extra}
        )
    )
    return st.one_of(strict, strict, strict, valid, broken, JSON)


REQUESTS = st.sampled_from(POSTS).flatmap(lambda p: st.tuples(st.just(p), body_strategy(p)))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(APP) as c:
        yield c


def test_schema_lists_every_endpoint() -> None:
    for name in ("solve", "count", "check", "generate", "rate", "hint", "explain", "convert"):
        assert f"/api/{name}" in POSTS


def test_openapi_document_is_valid() -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(SCHEMA)
    # the jigsaw field is published on every puzzle request and on generate
    for name in ("PuzzleIn", "SolveIn", "GenerateIn"):
        assert "regions" in SCHEMA["components"]["schemas"][name]["properties"]


@pytest.mark.slow
@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(request=REQUESTS)
def test_no_request_gets_a_500(client: TestClient, request: tuple[str, Any]) -> None:
    path, body = request
    r = client.post(path, json=body)
    # 504 is the server's own answer when the work outlives its time limit (a loaded machine can
    # stretch a jigsaw generation past it); any other 5xx is a fault
    timed_out = r.status_code == 504 and "longer than the server's limit" in r.json()["error"]
    assert r.status_code < 500 or timed_out, (path, body, r.text)
    payload = r.json()
    if r.status_code >= 400:
        assert isinstance(payload.get("error"), str), payload
        assert payload["error"], payload
    else:
        assert isinstance(payload, dict)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(path=st.sampled_from(POSTS), raw=st.binary(max_size=200))
def test_raw_bytes_get_4xx(client: TestClient, path: str, raw: bytes) -> None:
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert r.status_code < 500, (path, raw, r.text)


@st.composite
def region_maps(draw: st.DrawFn) -> tuple[int, list[int]]:
    """A size and a region map with every region the right size, connected or not (shuffled
    labels, or the boxes with two cells of different regions swapped)."""
    n = draw(st.sampled_from([4, 6]))
    labels = [c // n for c in range(n * n)] if draw(st.booleans()) else list(boxes(n))
    if draw(st.booleans()):
        labels = draw(st.permutations(labels))
    else:
        i, j = draw(st.integers(0, n * n - 1)), draw(st.integers(0, n * n - 1))
        labels[i], labels[j] = labels[j], labels[i]
    return n, labels


def boxes(n: int) -> tuple[int, ...]:
    return Shape.from_size(n).box_of


def _connected(n: int, labels: list[int]) -> bool:
    """Every region one orthogonally connected piece (checked here by union-find)."""
    parent = list(range(n * n))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(n * n):
        for j in (i + 1, i + n):
            if (j == i + 1 and j % n == 0) or j >= n * n or labels[i] != labels[j]:
                continue
            parent[root(i)] = root(j)
    return len({root(i) for i in range(n * n)}) == n


@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(region=region_maps())
def test_region_maps_are_accepted_exactly_when_connected(
    client: TestClient, region: tuple[int, list[int]]
) -> None:
    n, labels = region
    r = client.post("/api/solve", json={"puzzle": "." * (n * n), "regions": labels, "budget": 50})
    if _connected(n, labels):
        assert r.status_code == 200, r.text
        assert r.json()["puzzle"]["regions"] == labels
    else:
        assert r.status_code == 400, r.text
        assert "not connected" in r.json()["error"]
