"""Photo proof (SPEC section 34), the pure rules: what a photo waiting for approval is, what kind of image some bytes
are (by their content, never by a name or a declared type), the names the service gives its photo files, and the
signature of a photo's expiring address.

Choices the SPEC leaves open (docs/decisions.md, "Photo proof"):

- Only JPEG, PNG and WebP are kept, recognised by their first bytes; anything else is refused, whatever its
  ``mimetype`` says.
- A photo file's name is made here (``<task id>-<random hex>.<ext>``): nothing a person or the gateway wrote ever
  reaches a path.
- A photo's address is signed with HMAC-SHA256 over the task, the file and the moment it expires; it opens only
  until then, and only for a member of the task's group (the web checks that part).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

__all__ = ["ImageKind", "PendingPhoto", "Proof", "ProofState", "file_name_for", "image_kind", "is_file_name",
           "proof_signature", "signature_ok"]


class ProofState(StrEnum):
    """Where a task's photo is: being fetched from the gateway, waiting for approval, or approved."""

    FETCHING = "fetching"
    WAITING = "waiting"
    APPROVED = "approved"


@dataclass(frozen=True, slots=True)
class Proof:
    """A photo the service keeps for a task: its state (waiting or approved), when it was kept, its file's name."""

    state: ProofState
    at: datetime
    file_name: str


@dataclass(frozen=True, slots=True)
class PendingPhoto:
    """A photo waiting for someone's approval: the task's number (as people write it in the chat), its group, what
    the task says, who sent the photo (their name, never a number) and when it was kept (UTC)."""

    task_id: int
    group_id: str
    group_name: str | None
    description: str
    assignee_name: str
    at: datetime


class ImageKind(StrEnum):
    """The kinds of image kept, by their file extension."""

    JPEG = "jpg"
    PNG = "png"
    WEBP = "webp"

    @property
    def content_type(self) -> str:
        """The HTTP content type of this kind."""
        return {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"}[self.value]


_PNG = b"\x89PNG\r\n\x1a\n"


def image_kind(data: bytes) -> ImageKind | None:
    """The kind of image ``data`` is by its first bytes (JPEG, PNG or WebP), None for anything else."""
    if len(data) >= 4 and data[:3] == b"\xff\xd8\xff":
        return ImageKind.JPEG
    if data[:8] == _PNG and len(data) > 8:
        return ImageKind.PNG
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ImageKind.WEBP
    return None


_FILE_NAME = re.compile(r"[0-9]{1,18}-[0-9a-f]{32}\.(jpg|png|webp)")


def file_name_for(task_id: int, kind: ImageKind, *, token: str | None = None) -> str:
    """A new photo file's name: the task, 16 random bytes in hex (``token`` for tests) and the kind's extension."""
    return f"{int(task_id)}-{token or secrets.token_hex(16)}.{kind.value}"


def is_file_name(name: str) -> bool:
    """Whether ``name`` is one ``file_name_for`` makes (nothing else is ever opened or deleted)."""
    return _FILE_NAME.fullmatch(name) is not None


def proof_signature(key: bytes, task_id: int, file_name: str, expires: int) -> str:
    """The signature of a photo's address: HMAC-SHA256 of the task, the file and the expiry (unix seconds), hex."""
    message = f"{int(task_id)}:{file_name}:{int(expires)}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def signature_ok(key: bytes, task_id: int, file_name: str, expires: int, signature: str, *, now: datetime) -> bool:
    """Whether ``signature`` signs this photo's address and ``expires`` is still ahead of ``now`` (constant-time)."""
    if now.timestamp() >= expires or not signature.isascii():
        return False
    return hmac.compare_digest(proof_signature(key, task_id, file_name, expires), signature)
