"""What ``tasksvc doctor`` says about reaching people (SPEC section 31), pure: the reach-out pause after a 463, and
who the bot cannot write to in private. Operator text, like the rest of the report (not the chat's catalogs)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from taskcore.gateway.diagnostics import Check, ok, warn

SHOWN = 10  # people named in the line; the rest counted


def reachout_check(paused_until: datetime | None) -> Check:
    """The reach-out guard: on until when, or off."""
    if paused_until is None:
        return ok("reach-out", "direct messages go to everyone")
    until = paused_until.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return warn("reach-out", f"WhatsApp refused a direct message to someone who never wrote to the bot (error 463): "
                f"direct messages to people who never wrote in private wait until {until}; group messages and "
                "replies go on",
                "nothing to do, the pause ends by itself (GATEWAY_REACHOUT_PAUSE_HOURS); ask members to send the "
                "bot one private message")


def unreachable_check(people: Sequence[tuple[str, datetime, str | None]]) -> Check:
    """Who the bot cannot write to in private (user id, since, name), longest first."""
    if not people:
        return ok("unreachable", "every direct message was delivered or is under way")
    shown = ", ".join(f"{name or 'unnamed'} ({user}) since {since.astimezone(UTC):%Y-%m-%d}"
                      for user, since, name in people[:SHOWN])
    more = f" and {len(people) - SHOWN} more" if len(people) > SHOWN else ""
    return warn("unreachable", f"{len(people)} person(s) the bot cannot write to in private: {shown}{more}",
                "each was told in a group they share to send the bot a private message; when they do, what waits "
                "for them (their last reminder, a pending nag) is sent")


def caps_check(held: dict[str, tuple[int, datetime | None]]) -> Check:
    """What the send caps and the reach-out pause hold (reason: how many, until when)."""
    if not held:
        return ok("send caps", "no message held by a cap")
    parts = [f"{count} by the {reason} until {until.astimezone(UTC):%Y-%m-%d %H:%M} UTC" if until else
             f"{count} by the {reason}" for reason, (count, until) in sorted(held.items())]
    return warn("send caps", "messages the bot started wait (held, not dropped): " + "; ".join(parts),
                "nothing to do: they go out as the caps free; raise GATEWAY_MAX_SENDS_PER_HOUR / _PER_DAY only for "
                "a number that has sent this much for weeks")
