"""jinja2 with autoescape for every template, and the headers every response carries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from taskcore.dates import format_due_date
from tasksvc_run.keys import TEMPLATES

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
# Self only and no inline script or style: data can never turn into code, even if escaping were forgotten.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the login URL carries a token
    "X-Frame-Options": "DENY",
}


def make_templates() -> jinja2.Environment:
    """The page templates, autoescaped (``.html`` and strings alike), failing loudly on undefined names."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["ddmm"] = format_due_date
    return env


def render(request: web.Request, name: str, *, status: int = 200, **context: Any) -> web.Response:
    """A page from ``name`` with ``context``."""
    html = request.app[TEMPLATES].get_template(name).render(**context)
    return web.Response(status=status, text=html, content_type="text/html")


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: security headers on everything; personal pages and API answers are never cached."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if not request.path.startswith("/static/"):
        response.headers.setdefault("Cache-Control", "no-store")
