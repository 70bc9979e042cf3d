"""How a person is mentioned in a group (SPEC sections 31 and 32): in the form the group uses. Pure rules.

A group that addresses its members by LID (``addressingMode`` ``lid``) hides their phone numbers: a mention there
names the person's LID, never their number. A group whose form is not known yet is treated as one that hides them
whenever the person's LID is known (docs/decisions.md). A person known only by a LID is always mentioned by it.
"""

from __future__ import annotations

from taskcore.identity import LID_DOMAIN, user_jid
from taskcore.phones import is_phone_number

__all__ = ["mention_address"]


def mention_address(user_id: str, *, addressing: str | None, lid: str | None) -> tuple[str, str]:
    """The digits written after ``@`` and the JID put in ``mentioned`` for ``user_id`` in a group addressed as
    ``addressing`` ("lid", "pn" or None: unknown), given the person's ``lid`` when known (a LID paired with an id
    makes the id a phone number; an id with none that is no valid number is taken as a LID)."""
    if addressing != "pn" and lid:
        return lid, f"{lid}@{LID_DOMAIN}"
    if lid is None and not is_phone_number(user_id):  # no LID paired with it: the id is itself a LID
        return user_id, f"{user_id}@{LID_DOMAIN}"
    return user_id, user_jid(user_id)
