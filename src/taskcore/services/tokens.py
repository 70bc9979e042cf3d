"""Personal API tokens (SPEC section 22): create (shown once), list, revoke, and authenticate a request.

A token is ``tsk_`` and 32 random bytes, URL-safe: the prefix lets people and secret scanners tell it from other
secrets. Only its SHA-256 hash is stored; it never appears in a log line, an exception message or a repr.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from taskcore.errors import LimitReached, NotFound, Unauthorized, ValidationError
from taskcore.i18n import _
from taskcore.services.web_auth import SECRET_BYTES, hash_secret
from taskcore.storage import tokens as q
from taskcore.storage.tokens import LAST_USE_EVERY, TokenRow
from taskcore.storage.users import ensure_user
from taskcore.text import clean_text
from taskcore.unit import Reading, UnitOfWork

__all__ = [
    "LAST_USE_EVERY",
    "MAX_TOKENS",
    "MAX_TOKEN_NAME",
    "TOKEN_PREFIX",
    "NewApiToken",
    "TokenRow",
    "TokenUse",
    "authenticate_api_token",
    "create_api_token",
    "list_api_tokens",
    "record_token_use",
    "revoke_api_token",
    "token_name",
]

TOKEN_PREFIX = "tsk_"  # noqa: S105 - the public prefix of every token, not a secret
MAX_TOKEN_NAME = 60
MAX_TOKENS = 20  # per person (SPEC section 28): the list and the page stay short
_TOKEN_SHAPE = re.compile(r"tsk_[A-Za-z0-9_-]{43}")
_REJECTED = "the API token is invalid or revoked"


@dataclass(frozen=True, slots=True)
class NewApiToken:
    """A token just created: the only time ``token`` is known, kept out of the repr."""

    id: int
    name: str
    token: str = field(repr=False)
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TokenUse:
    """A request's token: its owner, and whether its last use is old enough to record again."""

    user_id: str
    token_id: int
    touch_due: bool


def token_name(text: str) -> str:
    """The name as plain text (markup, invisible characters and extra whitespace removed): at most 60 characters as
    written, and not empty once cleaned (the API document's ``maxLength`` and pattern say the same)."""
    if len(text) > MAX_TOKEN_NAME:
        too_long = _("el nombre pasa de {limit} caracteres ({length})", limit=MAX_TOKEN_NAME, length=len(text))
        raise ValidationError(too_long, field="name")
    name = clean_text(text)
    if not name:
        raise ValidationError(_("el nombre está vacío"), field="name")
    return name


def create_api_token(uow: UnitOfWork, *, user_id: str, name: str, now: datetime) -> NewApiToken:
    """A new named token for the user (created if absent); LimitReached when they already hold MAX_TOKENS."""
    clean = token_name(name)
    token = TOKEN_PREFIX + secrets.token_urlsafe(SECRET_BYTES)
    conn = uow.conn
    ensure_user(conn, user_id, now)
    if q.lock_user_tokens(conn, user_id=user_id) >= MAX_TOKENS:
        raise LimitReached(_("ya tienes {limit} tokens, el máximo; revoca uno para crear otro", limit=MAX_TOKENS))
    token_id = q.insert_token(conn, user_id=user_id, name=clean, token_hash=hash_secret(token), now=now)
    return NewApiToken(id=token_id, name=clean, token=token, created_at=now)


def list_api_tokens(uow: Reading, *, user_id: str) -> list[TokenRow]:
    """The user's tokens (name, created, last used), oldest first."""
    conn = uow.conn
    return q.user_tokens(conn, user_id=user_id)


def revoke_api_token(uow: UnitOfWork, *, user_id: str, token_id: int) -> None:
    """Revoke one of the user's tokens at once; NotFound when they have none with that id."""
    if not q.delete_token(uow.conn, user_id=user_id, token_id=token_id):
        raise NotFound("no such API token")


def authenticate_api_token(uow: Reading, *, token: str, now: datetime) -> TokenUse:
    """Read only: who a presented token belongs to; Unauthorized for a malformed, revoked or unknown token."""
    if _TOKEN_SHAPE.fullmatch(token) is None:
        raise Unauthorized(_REJECTED)
    conn = uow.conn
    owner = q.token_owner(conn, token_hash=hash_secret(token))
    if owner is None:
        raise Unauthorized(_REJECTED)
    due = owner.last_used_at is None or now - owner.last_used_at >= LAST_USE_EVERY
    return TokenUse(user_id=owner.user_id, token_id=owner.token_id, touch_due=due)


def record_token_use(uow: UnitOfWork, *, token_id: int, now: datetime) -> None:
    """Set the token's last use to ``now`` (a short write, at most once per LAST_USE_EVERY)."""
    q.touch_token(uow.conn, token_id=token_id, now=now)
