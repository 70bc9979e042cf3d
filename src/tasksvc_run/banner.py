"""No answer names the server's software or version (SPEC section 32): aiohttp's ``Server`` header is removed."""

from __future__ import annotations

from aiohttp import web


async def drop_server_header(_: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare (runs after aiohttp set its default headers): remove ``Server``."""
    response.headers.popall("Server", None)


def no_banner(app: web.Application) -> None:
    """Remove the ``Server`` header from every answer of ``app``."""
    app.on_response_prepare.append(drop_server_header)
