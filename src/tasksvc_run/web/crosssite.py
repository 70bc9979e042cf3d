"""What keeps another site from acting for a signed-in user through the API (SPEC sections 6 and 16).

The session cookie is SameSite=Lax, and on top of that every write under /api must say its body is JSON, with a
body or without one: an HTML form on another site can only send form data or plain text, and a script there
cannot send ``Content-Type: application/json`` to this origin without a CORS grant, which this service never
gives. This is the one place that decides whether a write may proceed.

A request authenticated by an ``Authorization: Bearer`` API token (SPEC section 22) is exempt: no browser attaches
that header by itself, another site's page cannot read the token, and a script there cannot set the header on a
request to this origin without a CORS preflight, which is never granted. Such a request carries no session cookie
(the token guard refuses the two together), so nothing ambient acts for the user. A body it sends must still be
JSON (``parsing.require_json_type``); a write without a body needs no Content-Type (``curl -X POST`` works).

The one write whose body is not JSON, a CSV file to import (SPEC section 35), declares ``text/csv``: like JSON, not
a type a form can send nor one a script of another site can send here without a CORS grant, so it protects alike.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web

from tasksvc_run.i18n import N_
from tasksvc_run.keys import SETTINGS, VIA_TOKEN
from tasksvc_run.web.errors import RequestProblem

JSON_TYPE = "application/json"
OTHER_WRITE_TYPES = frozenset({"text/csv"})  # not CORS-safelisted either (module docstring)
OUR_FETCH_SITES = frozenset({"same-origin", "none"})  # "none": typed in the address bar, a bookmark
WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})


def media_type(request: web.Request) -> str | None:
    """The Content-Type's media type in lower case (parameters such as charset dropped), None without one. Read
    here rather than by aiohttp, whose parser fails on some malformed values instead of answering."""
    raw = request.headers.get("Content-Type")
    return None if raw is None else raw.partition(";")[0].strip().lower()


def declares_json(request: web.Request) -> bool:
    """True when the request's Content-Type is application/json (parameters such as charset allowed)."""
    return media_type(request) == JSON_TYPE


def require_same_site_write(request: web.Request) -> None:
    """415 for a POST, PATCH, PUT or DELETE that does not declare JSON, whether or not it has a body, unless an API
    token authenticated it."""
    if (request.method in WRITE_METHODS and not request.get(VIA_TOKEN) and not declares_json(request)
            and media_type(request) not in OTHER_WRITE_TYPES):
        raise RequestProblem(415, "unsupported-media-type",
                             N_("Las escrituras en /api deben enviarse con Content-Type: application/json."))


def foreign_site(request: web.Request) -> bool:
    """True when the browser says the request comes from another site (SPEC section 32): ``Sec-Fetch-Site`` other
    than same-origin (or none), or an ``Origin`` whose host is not this service's (``null`` and no Origin, as curl
    and scripts send, are not another site)."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site.strip().lower() not in OUR_FETCH_SITES:
        return True
    origin = request.headers.get("Origin", "null").strip()
    if origin == "null":
        return False
    base = request.app[SETTINGS].web_base_url or ""
    ours = {request.host, request.headers.get("X-Forwarded-Host"), urlsplit(str(base)).netloc or None}
    return urlsplit(origin).netloc not in ours


def require_our_site(request: web.Request) -> None:
    """403 problem details for a write under /api that a browser says comes from another site."""
    if request.method in WRITE_METHODS and foreign_site(request):
        raise RequestProblem(403, "forbidden", N_("Esta escritura viene de otro sitio web y no se acepta."))
