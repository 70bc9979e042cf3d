"""RFC 9457 problem details responses, shared by the shells."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from aiohttp import web

PROBLEM_JSON = "application/problem+json"


def problem_body(status: int, detail: str, *, errors: Sequence[Mapping[str, Any]] = (), kind: str | None = None,
                 ) -> dict[str, Any]:
    """The problem object: type, title, status, detail and, for field errors, errors."""
    title = HTTPStatus(status).phrase
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
