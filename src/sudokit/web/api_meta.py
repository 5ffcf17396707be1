"""About the server and its formats: info, convert, and the offline API documentation."""

from __future__ import annotations

import html
import json
from typing import Any, get_args

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

import sudokit

from .api_generate import generated_variants
from .context import server
from .errors import ApiError, responses
from .models import ConvertIn, Level
from .validate import about_json, grid_json, meta_of, parse_record, setter_solution

__all__ = ["docs_page", "router"]

router = APIRouter()


@router.get("/api/info", tags=["meta"])
async def info(request: Request) -> dict[str, object]:
    """Version, search backend, formats, symmetries, levels, the variant switches generate
    takes, the rule kinds a request's ``rules`` may hold, and the server's limits."""
    lim = server(request).limits
    return {
        "version": sudokit.__version__,
        "backend": sudokit.BACKEND,
        "formats": list(sudokit.formats.FORMATS),
        "symmetries": list(sudokit.SYMMETRIES),
        "levels": list(get_args(Level)),
        "variants": generated_variants(),
        "rule_kinds": sorted(sudokit.rules.KINDS),
        "limits": {
            "max_body": lim.max_body,
            "max_size": lim.max_size,
            "max_generate": lim.max_generate,
            "max_generate_size": lim.max_generate_size,
            "max_count": lim.max_count,
            "max_budget": lim.max_budget,
            "timeout": lim.timeout,
        },
    }


@router.post("/api/convert", tags=["formats"], responses=responses(400, 413, 422))
async def convert(body: ConvertIn, request: Request) -> dict[str, object]:
    """Read a puzzle in any format and write it in another. The answer keeps what the text
    says about the puzzle: ``meta`` (its title, author and the setter's rules text, as an
    f-puzzles or SudokuPad link or a json object carries them), the setter's ``solution``
    (a grid object or null) and ``solution_valid`` (whether that solution keeps the givens
    and every rule sudokit reads). The request's ``meta`` and ``solution`` replace the
    text's own, and the written text carries them where its format can."""
    grid, fields = parse_record(body, server(request).limits)
    sniffed = body.format or sudokit.formats.sniff(body.puzzle)
    meta = meta_of(fields)
    if body.meta is not None:
        meta = {k: v for k, v in body.meta.model_dump().items() if v and v.strip()}
    if body.solution is not None:
        fields = {"solution": body.solution}
    solution = setter_solution(grid, fields)
    if body.solution and solution is None:
        raise ApiError(400, f"solution: expected a full {grid.n}x{grid.n} grid, as a line")
    return {
        "puzzle": grid_json(grid),
        "from": sniffed,
        "to": body.to,
        "text": sudokit.formats.dumps(grid, body.to, solution=solution, fields=meta),
        **about_json(grid, meta, solution),
    }


@router.get("/api", include_in_schema=False)
async def api_root() -> RedirectResponse:
    return RedirectResponse("/docs")


_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2.2rem;border-bottom:1px solid #ccc}code,pre{font:13px ui-monospace,monospace}
pre{background:#f4f4f4;padding:.6rem;overflow:auto}.m{font-weight:bold;color:#05a}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
"""


def _ref(schema: dict[str, Any]) -> str:
    ref = schema.get("$ref", "")
    return str(ref).rsplit("/", 1)[-1] if ref else ""


def docs_page(spec: dict[str, Any]) -> str:
    """A self-contained HTML page documenting the OpenAPI document *spec* (no script, no
    network: it works offline)."""
    esc = html.escape
    out = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(spec['info']['title'])} API</title><style>{_STYLE}</style></head><body>",
        f"<h1>{esc(spec['info']['title'])} {esc(spec['info']['version'])} — JSON API</h1>",
        f"<p>{esc(spec['info'].get('description', ''))}</p>",
        "<p>The machine-readable document is <a href='/openapi.json'>/openapi.json</a>.</p>",
    ]
    schemas = spec.get("components", {}).get("schemas", {})
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            out.append(f"<h2><span class='m'>{method.upper()}</span> <code>{esc(path)}</code></h2>")
            out.append(f"<p>{esc(op.get('description') or op.get('summary', ''))}</p>")
            rows = [
                (p["name"], p.get("schema", {}).get("type", ""), p.get("description", ""))
                for p in op.get("parameters", [])
            ]
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            model = schemas.get(_ref(body.get("schema", {})), {})
            for name, prop in model.get("properties", {}).items():
                kind = prop.get("type") or " | ".join(
                    str(a.get("type", _ref(a))) for a in prop.get("anyOf", [])
                )
                rows.append((name, kind, prop.get("description", "")))
            if rows:
                out.append("<table><tr><th>field</th><th>type</th><th>meaning</th></tr>")
                out.extend(
                    f"<tr><td><code>{esc(n)}</code></td><td>{esc(str(t))}</td>"
                    f"<td>{esc(str(d))}</td></tr>"
                    for n, t, d in rows
                )
                out.append("</table>")
            answers = ", ".join(
                f"{code} ({esc(str(r.get('description', '')))})"
                for code, r in op.get("responses", {}).items()
            )
            out.append(f"<p>Answers: {answers}.</p>")
            example = model.get("properties", {}).get("puzzle", {}).get("examples")
            if example:
                out.append(f"<pre>{esc(json.dumps({'puzzle': example[0]}))}</pre>")
    out.append("</body></html>")
    return "\n".join(out)


@router.get("/docs", include_in_schema=False)
async def docs(request: Request) -> HTMLResponse:
    """The API documentation, generated from the OpenAPI document, served offline."""
    return HTMLResponse(docs_page(request.app.openapi()))
