"""Identity use cases: who sent a message (phone number, LID or both) and who was mentioned (SPEC section 3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from taskcore.model import SenderFacts
from taskcore.storage import identities as q
from taskcore.storage import members as member_rows
from taskcore.unit import Reading, UnitOfWork

__all__ = ["Resolution", "members_named", "resolve_user"]


@dataclass(frozen=True, slots=True)
class Resolution:
    """The user a sender is, and whether an identity alias gave it (identity_alias_resolved_total)."""

    user_id: str
    via_alias: bool


def resolve_user(
    uow: UnitOfWork, *, phone: str | None, lid: str | None, name: str | None, now: datetime,
    known: SenderFacts | None = None,
) -> Resolution:
    """Phone known: that user (a LID-only twin re-keyed to it, the pair recorded); LID only: through the aliases.

    ``known``: what ``read_sender`` read in this transaction; then only what changed is written."""
    conn = uow.conn
    user_id, via_alias = q.resolve_identity(conn, phone=phone, lid=lid, name=name, now=now, known=known)
    return Resolution(user_id, via_alias)


def members_named(uow: Reading, *, group_id: str, digits: Sequence[str]) -> dict[str, str]:
    """Of the mentioned ``digits`` (phone numbers, LIDs), those that name an active member of the group, each to
    the member's user id; a mention makes nobody a user or a member (SPEC section 38)."""
    if not digits:
        return {}
    conn = uow.conn
    return member_rows.members_named(conn, group_id, digits)
