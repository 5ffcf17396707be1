"""Fixtures for the browser tests: the app on a loopback port and Debian's headless Chromium.

Every test here is marked ``browser`` and skips cleanly when ``/usr/bin/chromium`` (or the
``playwright`` package, or the web extra) is missing. Playwright's own browser downloads are
never used: the system Chromium is launched with a fresh profile directory.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """The app served by uvicorn in a thread on a free 127.0.0.1 port."""
    pytest.importorskip("fastapi")
    uvicorn = pytest.importorskip("uvicorn")
    from sudokit.web import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            pytest.fail("the web server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """The Playwright driver (one for the session); skips without Chromium or playwright."""
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser_context(
    playwright: Any, base_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """One Chromium with a fresh user-data-dir for the session."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-profile")),
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        headless=True,
        viewport={"width": 1280, "height": 860},
    )
    context.set_default_timeout(20_000)
    yield context
    context.close()


@pytest.fixture(scope="session")
def phone_browser(playwright: Any) -> Iterator[Any]:
    """One Chromium for the session's phone contexts: launching one per test cost about a
    second of CPU each (a touch context needs a browser of its own, not the persistent one)."""
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    yield browser
    browser.close()


@pytest.fixture
def phone(phone_browser: Any, base_url: str) -> Iterator[Any]:
    """A tab in a fresh touch-only phone context (390x844, touch events, mobile viewport)."""
    context = phone_browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(20_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, errors


@pytest.fixture
def page(browser_context: Any, base_url: str) -> Iterator[Any]:
    """A fresh tab with empty localStorage; page errors fail the test."""
    tab = browser_context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(f"{base_url}/favicon.svg")
    tab.evaluate("localStorage.clear()")
    yield tab
    tab.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
