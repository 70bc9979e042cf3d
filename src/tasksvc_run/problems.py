"""RFC 9457 problem details responses, shared by the shells."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from aiohttp import web

from tasksvc_run.i18n import N_, _

PROBLEM_JSON = "application/problem+json"
# The titles are the registered HTTP reason phrases (RFC 9457 4.2.1: "about:blank" types take them), localised to
# the reader in every language, Spanish too (SPEC section 30): the message ids are the English phrases.
TITLES = {
    # Translators: the title of a problem details answer, the HTTP reason phrase.
    400: N_("Bad Request"), 401: N_("Unauthorized"), 403: N_("Forbidden"), 404: N_("Not Found"),
    405: N_("Method Not Allowed"), 406: N_("Not Acceptable"), 408: N_("Request Timeout"), 409: N_("Conflict"),
    410: N_("Gone"), 411: N_("Length Required"), 413: N_("Request Entity Too Large"), 414: N_("Request-URI Too Long"),
    415: N_("Unsupported Media Type"), 422: N_("Unprocessable Entity"), 429: N_("Too Many Requests"),
    431: N_("Request Header Fields Too Large"), 500: N_("Internal Server Error"), 501: N_("Not Implemented"),
    502: N_("Bad Gateway"), 503: N_("Service Unavailable"), 504: N_("Gateway Timeout"),
}


def problem_title(status: int) -> str:
    """The status's title in the language in force; a status without a title of its own gets its class's (a client
    error, a server error), also in that language."""
    if status in TITLES:
        return _(TITLES[status])
    return _("Error del cliente ({status})", status=status) if status < 500 else _("Error del servidor ({status})",
                                                                                    status=status)


def problem_body(status: int, detail: str, *, errors: Sequence[Mapping[str, Any]] = (), kind: str | None = None,
                 ) -> dict[str, Any]:
    """The problem object: type, title, status, detail and, for field errors, errors."""
    title = problem_title(status)
    body: dict[str, Any] = {
        "type": f"about:blank#{kind}" if kind else "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
    }
    if errors:
        body["errors"] = [dict(error) for error in errors]
    return body


def problem(status: int, detail: str, *, errors: Sequence[Mapping[str, Any]] = (), kind: str | None = None,
            headers: Mapping[str, str] | None = None) -> web.Response:
    """An ``application/problem+json`` response."""
    body = json.dumps(problem_body(status, detail, errors=errors, kind=kind), ensure_ascii=False)
    return web.Response(status=status, text=body, content_type=PROBLEM_JSON, headers=headers)
