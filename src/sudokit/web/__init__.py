"""The web app: a JSON HTTP API and a browser app served by one process (layer 8).

:func:`create_app` builds the ASGI application (FastAPI, the ``web`` extra, imported only when
this package is used): the API under ``/api`` (OpenAPI at ``/docs``) and the browser app (plain
JavaScript modules and an SVG board, shipped as package data in ``static/``) at ``/``.
``sudokit serve`` runs it with uvicorn on ``127.0.0.1:8000``.

Every request is bounded: the body size, the grid size, counts, search budgets and a time limit
per request (the work runs in a thread pool). Errors are JSON ``{"error": "..."}`` with a 4xx
status: 400 for text that does not parse or a bad option, 413 for a body that is too large,
422 for a puzzle that cannot be answered (conflicting givens, no solution, several solutions,
budget or time limit reached).
"""

from __future__ import annotations

from .app import Limits, create_app

__all__ = ["Limits", "create_app"]
