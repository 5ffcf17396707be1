"""A pytest plugin for the HTTP campaign: tally the answers the in-process test client got.

    PYTHONPATH=src:benchmarks/campaigns HYPOTHESIS_PROFILE=nightly \\
        python -m pytest --full tests/web/test_web_fuzz.py -p http_tally -p no:cacheprovider

Every request a ``fastapi.testclient.TestClient`` (starlette's) sends is counted by its
answer's status code, and the session ends with one line, ``http_tally: N requests; by
status {...}; 5xx: M``, then one line per 5xx answer (route, seconds, its error, the body
sent, cut short). The tests' own assertions stay the verdict (a 504 that is the server's
time limit is allowed by them); the tally gives the figures: requests sent, 5xx answers.
Requests to a real server started by a test (the hostile and load tests) are not seen.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from starlette.testclient import TestClient

_codes: Counter[int] = Counter()
_faults: list[str] = []
_request = TestClient.request


def _counted(self: TestClient, *args: Any, **kwargs: Any) -> Any:
    start = time.monotonic()
    response = _request(self, *args, **kwargs)
    _codes[response.status_code] += 1
    if response.status_code >= 500:
        sent = kwargs.get("json", kwargs.get("content"))
        _faults.append(
            f"{response.status_code} {response.request.method} {response.request.url.path} "
            f"after {time.monotonic() - start:.2f} s: {response.text[:200]!r}; "
            f"body {str(sent)[:300]!r}"
        )
    return response


TestClient.request = _counted  # type: ignore[method-assign]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The tally, as the last line of the session."""
    errors = sum(n for code, n in _codes.items() if code >= 500)
    terminalreporter.write_line(
        f"http_tally: {sum(_codes.values())} requests; by status "
        f"{dict(sorted(_codes.items()))}; 5xx: {errors}"
    )
    for fault in _faults:
        terminalreporter.write_line(f"http_tally: {fault}")
