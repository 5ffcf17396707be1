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
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--open", "open_browser", is_flag=True, help="Open the app in a web browser.")
def serve(host: str, port: int, open_browser: bool) -> None:
    """Serve the browser app at / and the JSON API under /api (docs at /docs).

    Binds to loopback by default; pass --host 0.0.0.0 to serve other machines too.
    """
    try:
        import uvicorn

        from ..web import create_app
    except ImportError as exc:
        fail(f"the web app needs its extra: pip install 'sudokit[web]' ({exc.name} is missing)")
    try:  # fail in one line now rather than in uvicorn's log after start-up
        family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    click.echo(f"sudokit: serving on {url} (Ctrl+C stops)", err=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
