"""The reminder tick's query: who is due for a slot and has no delivery recorded for it (SPEC section 10).

One anti-join per (time, slot) lets the database skip the recorded slots itself, so a tick in the busiest hour
does not bring every recorded (user, slot) pair back to Python.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, exists, select

from taskcore.storage.schema import reminder_deliveries, user_preferences

p, rd = user_preferences, reminder_deliveries


def undelivered_users(conn: Connection, *, time: str, freqs: Sequence[str], slot: str) -> list[str]:
    """Users whose preference is one of ``freqs`` at ``time`` and who have no delivery recorded for ``slot``."""
    if not freqs:
        return []
    recorded = exists().where(rd.c.user_id == p.c.user_id, rd.c.slot == slot)
    query = select(p.c.user_id).where(p.c.time == time, p.c.freq.in_(list(freqs)), ~recorded)
    return list(conn.execute(query).scalars())
