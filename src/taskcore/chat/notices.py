"""Notices the conversation sends on its own: a newly discovered group, announced to the admins (SPEC section 4)."""

from __future__ import annotations

from collections.abc import Mapping

from taskcore.access import Sighting
from taskcore.chat.admin_replies import discovered
from taskcore.chat.policy import ChatPolicy
from taskcore.chat.result import ChatResult, MetricEvent, direct_message
from taskcore.i18n import speaking
from taskcore.identity import user_jid
from taskcore.languages import effective_language


def discovery(policy: ChatPolicy, sighting: Sighting, name: str | None = None, *,
              languages: Mapping[str, str] | None = None) -> ChatResult:
    """A newly discovered group is counted and, when configured, announced once to each admin by direct message,
    in the admin's language (``languages``: the ones admins chose)."""
    if not sighting.newly_discovered:
        return ChatResult("known")
    metrics = (MetricEvent.UNKNOWN_GROUP_DISCOVERED,)
    if not policy.notify_admins_on_discovery:
        return ChatResult("discovered", metrics=metrics)
    gid = sighting.group_id
    chosen = languages or {}
    texts = []
    for admin in sorted(policy.admins):
        with speaking(effective_language(chosen.get(admin), admin, policy.language)[0]):
            texts.append(direct_message(user_jid(admin), discovered(gid, name), label="notice",
                                        dedupe_key=f"discovery:{gid}:{admin}"))
    return ChatResult("discovered", texts=tuple(texts), metrics=metrics)
