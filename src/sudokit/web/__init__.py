"""The web app: a JSON HTTP API and a browser app served by one process (layer 8).

:func:`create_app` builds the ASGI application (FastAPI, the ``web`` extra, imported only when
this package is used): the API under ``/api`` (documented at ``/docs``, offline) and the
browser app (plain JavaScript modules and an SVG board, shipped as package data in
``static/``) at ``/``. ``sudokit serve`` runs it with uvicorn on ``127.0.0.1:8000``.

Every request is bounded: the body size, the grid size, counts, search budgets and a time
limit. Cheap work (searches and hints up to 9x9) runs on threads, expensive work in worker
processes that are stopped when their request times out or its client leaves; each class has
its own bounded queue. Errors are JSON ``{"error": "..."}``: 400 for text that does not parse
or a bad option, 413 for a body that is too large, 422 for a puzzle that cannot be answered
(conflicting givens, no solution, several solutions), 503 with ``Retry-After`` when the
class of work is busy, 504 past the time limit.
"""

from __future__ import annotations

from .app import create_app
from .models import Limits

__all__ = ["Limits", "create_app"]
