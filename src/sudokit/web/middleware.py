"""ASGI middleware: request body size, the Host header check, and the CORS policy.

CORS: the API is same-origin only. No ``Access-Control-Allow-Origin`` header is sent, so a
page from another origin cannot read answers (and its JSON POSTs fail their preflight), unless
the server names that origin (``sudokit serve --cors ORIGIN``).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from .errors import error_response

__all__ = ["BodyLimit", "HostCheck", "loopback_hosts"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Answer 413 when a request body exceeds *limit* bytes, 408 when it has not arrived
    within *seconds* (a client trickling its body cannot hold a request open)."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = error_response(413, f"request body larger than {self.limit} bytes")
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await error_response(400, "bad content-length")(scope, receive, send)
                    return
                if declared > self.limit:
                    await too_big(scope, receive, send)
                    return
        # Read the whole body first (it is small by then), counting; replay it to the app.
        chunks: list[bytes] = []
        seen = 0
        deadline = asyncio.get_running_loop().time() + self.seconds
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, left))
            except TimeoutError:
                slow = f"request body not received within {self.seconds:g} s"
                await error_response(408, slow)(scope, receive, send)
                return
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await too_big(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def loopback_hosts(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` header values a server bound to *host*:*port* accepts: ``localhost``,
    ``127.0.0.1`` and ``[::1]`` with the port (or without it on port 80) when *host* is a
    loopback address; None (any Host) otherwise.

    >>> sorted(loopback_hosts("127.0.0.1", 8000))
    ['127.0.0.1:8000', '[::1]:8000', 'localhost:8000']
    >>> loopback_hosts("0.0.0.0", 8000) is None
    True
    """
    name = host.strip("[]")
    try:
        loop = name == "localhost" or ipaddress.ip_address(name).is_loopback
    except ValueError:
        loop = False
    if not loop:
        return None
    names = ("localhost", "127.0.0.1", "[::1]")
    out = {f"{n}:{port}" for n in names}
    if port == 80:
        out.update(names)
    return frozenset(out)


class HostCheck:
    """Answer 400 to a request whose ``Host`` header is not one of *allowed* (DNS
    rebinding: a page from a hostile name resolving to 127.0.0.1 must not reach the API)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(h.lower() for h in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = next((v for k, v in scope.get("headers", ()) if k == b"host"), b"")
            if host.decode("latin-1").lower() not in self.allowed:
                shown = host.decode("latin-1")[:60]
                await error_response(400, f"host {shown!r} is not served here")(
                    scope, receive, send
                )
                return
        await self.app(scope, receive, send)
