"""``sudokit serve``: the web app and JSON API on a loopback port (needs the ``web`` extra)."""

from __future__ import annotations

import socket
import threading
import webbrowser

import click

from .common import fail

__all__ = ["serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="TCP port to listen on.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the app in a web browser.")
@click.option(
    "--cors",
    "origins",
    multiple=True,
    metavar="ORIGIN",
    help="Let pages from ORIGIN (e.g. https://example.org) call the API; repeatable. "
    "Without it the API is same-origin only.",
)
def serve(host: str, port: int, open_browser: bool, origins: tuple[str, ...]) -> None:
    """Serve the browser app at / and the JSON API under /api (docs at /docs).

    Binds to loopback by default (and then answers only Host: localhost, 127.0.0.1 or
    [::1] with the port); pass --host 0.0.0.0 to serve other machines too.
    """
    try:
        from ..web.serving import serve as run
    except ImportError as exc:
        fail(f"the web app needs its extra: pip install 'sudokit[web]' ({exc.name} is missing)")
    try:  # fail in one line now rather than in uvicorn's log after start-up
        family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
    for origin in origins:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            fail(f"--cors needs an origin like https://example.org, got {origin!r}")
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    click.echo(f"sudokit: serving on {url} (Ctrl+C stops)", err=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    run(host, port, origins)
