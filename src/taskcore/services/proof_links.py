"""The signed, expiring addresses of the photos of photo proof (SPEC section 34), under a key the service keeps.

An address is ``<WEB_BASE_URL>/api/tasks/<id>/proof?exp=<unix seconds>&sig=<hex>``: it opens the task's photo until
``exp``, and only for a member of the task's group (the web checks the session or token too). Its expiry is rounded
up to the next 10 minutes, so a page shown twice within them links the same address (browsers cache it).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from taskcore.chores.proof import proof_signature, signature_ok
from taskcore.services.people import KeptKey

__all__ = ["LINK_TTL", "ProofLinks"]

LINK_TTL = timedelta(hours=1)
_ROUND = 600  # seconds


class ProofLinks:
    """Signs and checks photo addresses; the key is read (or made) on first use and remembered."""

    def __init__(self, key: Callable[[], bytes], now: Callable[[], datetime], *, base_url: str | None = None,
                 ttl: timedelta = LINK_TTL) -> None:
        self._now, self._ttl = now, ttl
        self._base = (base_url or "").rstrip("/")
        self.key = KeptKey(key)

    def url(self, task_id: int, file_name: str) -> str:
        """The address of the task's photo kept as ``file_name``, valid for about LINK_TTL from now."""
        return self._base + self.path(task_id, file_name)

    def path(self, task_id: int, file_name: str) -> str:
        """``url`` without WEB_BASE_URL (what a page links: the same origin)."""
        expires = self.expires()
        signature = proof_signature(self.key(), task_id, file_name, expires)
        return f"/api/tasks/{task_id}/proof?exp={expires}&sig={signature}"

    def expires(self) -> int:
        """When an address signed now expires (a Unix time, rounded up to 10 minutes: the same for every address
        signed within those 10 minutes)."""
        return -(-int((self._now() + self._ttl).timestamp()) // _ROUND) * _ROUND

    def valid(self, task_id: int, file_name: str, expires: int, signature: str) -> bool:
        """Whether the address signs this photo and has not expired."""
        return signature_ok(self.key(), task_id, file_name, expires, signature, now=self._now())
