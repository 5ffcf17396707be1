"""The JSON API takes the rule kinds of sudokit.rules in ``rules``: solved under them, handed
back in grid objects, a bad rule one 422 naming its index, documented in the OpenAPI."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from sudokit.web import create_app

#: Rules on an empty 4x4: the tests check that the answer keeps them.
RULES = [
    {"kind": "arrow", "circle": [0], "arrows": [[1, 4]]},
    {"kind": "renban", "cells": [5, 6, 7]},
    {"kind": "littlekiller", "cells": [1, 6, 11], "total": 6},
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


@pytest.mark.backend  # solved under the rules by the engine in use
def test_rules_round_trip_and_hold_in_the_solution(client: TestClient) -> None:
    r = client.post("/api/solve", json={"puzzle": "." * 16, "rules": RULES})
    assert r.status_code == 200, r.text
    out = r.json()
    assert sorted(out["puzzle"]["rules"], key=str) == sorted(RULES, key=str)
    cells = out["solution"]["cells"]
    assert cells[0] == cells[1] + cells[4]
    assert sorted(cells[5:8]) == list(range(min(cells[5:8]), min(cells[5:8]) + 3))
    assert cells[1] + cells[6] + cells[11] == 6


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"kind": "arow", "cells": [0]}, "unknown rule kind 'arow'"),
        ({"kind": "renban", "cells": [0, 2]}, "not a path"),
        ({"kind": "renban", "cells": [0, 99]}, "outside 0..15"),
        ({"kind": "renban", "cell": [0, 1]}, "unknown field 'cell'"),
    ],
)
def test_a_bad_rule_is_one_422_naming_its_index(
    client: TestClient, bad: dict[str, object], words: str
) -> None:
    r = client.post("/api/check", json={"puzzle": "." * 16, "rules": [RULES[0], bad]})
    assert r.status_code == 422
    message = r.json()["error"]
    assert message.startswith("rules.1: "), message
    assert words in message, message


def test_rules_are_bounded(client: TestClient) -> None:
    long = {"kind": "renban", "cells": list(range(2000))}
    r = client.post("/api/check", json={"puzzle": "." * 16, "rules": [long]})
    assert r.status_code == 422, r.text
    assert "rules.0" in r.json()["error"]
    many = [RULES[1]] * 401
    r = client.post("/api/check", json={"puzzle": "." * 16, "rules": many})
    assert r.status_code == 422, r.text
    assert "rules" in r.json()["error"]


def test_openapi_documents_rules(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    field = schemas["SolveIn"]["properties"]["rules"]
    assert "littlekiller" in field["description"]


def test_info_lists_the_rule_kinds(client: TestClient) -> None:
    import sudokit

    assert client.get("/api/info").json()["rule_kinds"] == sorted(sudokit.rules.KINDS)


def test_rules_layer_draws_only_the_kinds(client: TestClient) -> None:
    body = {"puzzle": "." * 16, "rules": RULES, "thermos": [[12, 13]]}
    r = client.post("/api/rules-layer", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["margins"] == [1.0, 0.0, 0.0, 0.0]  # the little killer's clue above r1c2
    svg = out["svg"]
    assert 'class="arrow circle"' in svg
    assert 'class="line renban line"' in svg
    assert 'class="littlekiller clue"' in svg
    assert "thermo" not in svg  # the app draws the older rules itself
    assert len(out["sentences"]) == 3
