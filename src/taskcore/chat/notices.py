"""Notices the conversation sends on its own: a newly discovered group, announced to the admins (SPEC section 4)."""

from __future__ import annotations

from taskcore.chat.policy import ChatPolicy
from taskcore.chat.replies import discovered
from taskcore.chat.result import ChatResult, MetricEvent, direct_message
from taskcore.identity import user_jid
from taskcore.model import Sighting


def discovery(policy: ChatPolicy, sighting: Sighting, name: str | None = None) -> ChatResult:
    """A newly discovered group is counted and, when configured, announced once to each admin by direct message."""
    if not sighting.newly_discovered:
        return ChatResult("known")
    metrics = (MetricEvent.UNKNOWN_GROUP_DISCOVERED,)
    if not policy.notify_admins_on_discovery:
        return ChatResult("discovered", metrics=metrics)
    gid = sighting.group_id
    texts = tuple(
        direct_message(user_jid(admin), discovered(gid, name), label="notice", dedupe_key=f"discovery:{gid}:{admin}")
        for admin in sorted(policy.admins)
    )
    return ChatResult("discovered", texts=texts, metrics=metrics)
