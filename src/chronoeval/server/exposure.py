"""``chronoeval serve`` exposure: a warning when bound beyond loopback, an optional API key
(``--api-key`` or ``$CHRONOEVAL_SERVE_API_KEY``) checked on every ``/v1`` request, and a busy port
as one clear line."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable

from aiohttp import web

API_KEY_ENV = "CHRONOEVAL_SERVE_API_KEY"


def is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: may resolve anywhere


def exposure_warning(host: str, api_key: str | None) -> str | None:
    """The warning to print when ``host`` is reachable from other machines (None on loopback)."""
    if is_loopback(host):
        return None
    if api_key:
        return (
            f"warning: serving on {host}, reachable beyond this machine (requests need the API "
            "key; traffic is plain HTTP)"
        )
    return (
        f"warning: serving on {host}, reachable beyond this machine, WITHOUT authentication: "
        f"anybody who reaches it can use it; set --api-key (or ${API_KEY_ENV}) or bind 127.0.0.1"
    )


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def api_key_middleware(
    api_key: str,
) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    """Refuse (401) any request without ``Authorization: Bearer <api_key>``."""
    expected = f"Bearer {api_key}".encode()

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        given = request.headers.get("Authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            return web.json_response(
                {
                    "error": {
                        "message": "missing or wrong API key (Authorization: Bearer …)",
                        "type": "invalid_request_error",
                        "code": "invalid_api_key",
                    }
                },
                status=401,
            )
        return await handler(request)

    return check
