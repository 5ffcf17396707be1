"""Error answers: one JSON shape, ``{"error": "..."}``, for every failure of the API.

:class:`ApiError` carries a status (and headers: ``Retry-After`` on a 503);
:func:`install` maps every exception a request can raise to that shape, and
:data:`RESPONSES` describes the same bodies in the OpenAPI document.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from sudokit.errors import ParseError, SudokuError

from .models import ErrorOut

__all__ = ["RESPONSES", "ApiError", "error_response", "install", "responses", "status_of"]

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A failure answered as ``{"error": message}`` with *status* (and *headers*)."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})


def error_response(
    status: int, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The JSON answer ``{"error": message}`` with *status*."""
    return JSONResponse({"error": message}, status_code=status, headers=dict(headers or {}))


def status_of(exc: SudokuError) -> int:
    """400 for text that does not parse, 422 for a puzzle that cannot be answered."""
    return 400 if isinstance(exc, ParseError) else 422


_WHY = {
    400: "the text does not parse, or an option is wrong or out of range",
    404: "no such path",
    413: "the request body is larger than the server's limit",
    422: "the request is malformed, or the puzzle cannot be answered (conflicting givens, "
    "no solution, several solutions where one is needed)",
    501: "the server lacks an optional part (reportlab for PDF)",
    503: "the server is busy with this kind of work; retry after Retry-After seconds",
    504: "the work took longer than the server's time limit (it was stopped)",
}


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for the error *codes* an endpoint can answer."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        entry: dict[str, Any] = {"model": ErrorOut, "description": _WHY[code]}
        if code == 503:
            entry["headers"] = {
                "Retry-After": {
                    "description": "seconds to wait before trying again",
                    "schema": {"type": "integer"},
                }
            }
        out[code] = entry
    return out


#: The errors every search endpoint can answer.
RESPONSES = responses(400, 413, 422, 503, 504)


#: What FastAPI says of a JSON body it could not decode at all (not UTF-8, nested too deeply).
_UNPARSED = "There was an error parsing the body"
#: The answer to a body that is not JSON, or not a JSON object.
NOT_JSON = "the request body must be a JSON object (UTF-8, Content-Type: application/json)"


def _validation_message(error: Mapping[str, Any]) -> str:
    """One part of a 4xx message: ``field: what is wrong``, the body as a whole named in
    words (FastAPI's ``0: JSON decode error`` or a bare ``Field required`` said neither what
    nor where).

    >>> _validation_message({"loc": ("body", 0), "type": "json_invalid",
    ...                      "msg": "JSON decode error", "ctx": {"error": "Expecting value"}})
    'the request body is not JSON: Expecting value at character 0'
    >>> _validation_message({"loc": ("body",), "type": "missing", "msg": "Field required"})
    'the request body must be a JSON object (UTF-8, Content-Type: application/json)'
    >>> _validation_message({"loc": ("body", "limit"), "type": "int", "msg": "Input is bad"})
    'limit: Input is bad'
    """
    loc = tuple(error.get("loc", ()))
    msg = str(error.get("msg", "invalid"))
    if error.get("type") == "json_invalid" and loc[:1] == ("body",):
        why = str((error.get("ctx") or {}).get("error", msg))
        at = f" at character {loc[-1]}" if loc and isinstance(loc[-1], int) else ""
        return f"the request body is not JSON: {why}{at}"
    if loc == ("body",):
        return NOT_JSON
    where = ".".join(str(p) for p in loc if p != "body")
    return f"{where}: {msg}" if where else msg


def install(app: FastAPI) -> None:
    """Answer every exception a request raises as ``{"error": ...}`` (never a traceback)."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.message, exc.headers)

    @app.exception_handler(SudokuError)
    async def _sudoku_error(_request: Request, exc: SudokuError) -> JSONResponse:
        return error_response(status_of(exc), str(exc))

    @app.exception_handler(ValueError)
    async def _value_error(_request: Request, exc: ValueError) -> JSONResponse:
        return error_response(400, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [_validation_message(e) for e in exc.errors()[:5]]
        return error_response(
            400 if any("json" in str(e.get("type")) for e in exc.errors()) else 422,
            "; ".join(parts) or "invalid request",
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = str(exc.detail)
        if detail == _UNPARSED:  # FastAPI's words for a body json.loads raised on
            detail = "the request body could not be read as JSON (not UTF-8, or nested too deeply)"
        return error_response(exc.status_code, detail, exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error in a request")
        return error_response(500, f"internal error: {type(exc).__name__}")
