"""jinja2 with autoescape for every template, its texts from the tasksvc_run catalogs, and the headers every
response carries.

Templates mark their texts with ``{% trans %}…{% endtrans %}`` (no variables inside) or ``{{ _("… {name} …",
name=value) }}``: one placeholder style, ``{name}``, as in the Python code, so the catalogs' check compares them.
The values are escaped, the catalog's text is trusted (it is ours). The language is the one in force at render
time (the request's, set by the language middleware)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web
from markupsafe import Markup

from taskcore.dates import format_due_date
from taskcore.i18n import current_language
from taskcore.recurrence import rule_text
from tasksvc_run.i18n import catalog
from tasksvc_run.keys import TEMPLATES
from tasksvc_run.web.script_texts import script_texts

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
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True  # as the catalogs' extraction reads them
    env.install_gettext_callables(gettext=gettext, ngettext=ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.globals["lang"] = current_language
    env.globals["script_texts"] = script_texts
    env.filters["ddmm"] = format_due_date
    env.filters["rule_text"] = rule_text  # a series in the reader's words (SPEC sections 24 and 41)
    return env


def gettext(message: str, /, **params: object) -> Markup:
    """A template's text in the language in force, its ``{name}`` placeholders filled with escaped values."""
    text = Markup(catalog().gettext(message))  # noqa: S704 - the catalog's texts are ours, not a visitor's
    return text.format(**params) if params else text


def ngettext(singular: str, plural: str, number: int, /, **params: object) -> Markup:
    """``gettext`` for a text that depends on ``number`` (``{num}`` is the number)."""
    text = Markup(catalog().ngettext(singular, plural, number))  # noqa: S704 - ours, as above
    return text.format(num=number, **params)


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
