"""``tasksvc doctor``'s lines read from the database (SPEC section 31): the reach-out pause, the people the bot cannot
write to in private, and what the send caps hold. Nothing when there is no database yet (a first install); a warning
when it cannot be read (not migrated, unreachable). And whether it takes a write, when no bot says so (SPEC 40)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from taskcore.gateway import diagnostics as dx
from taskcore.gateway.reach_checks import caps_check, reachout_check, unreachable_check
from taskcore.services import delivery
from taskcore.services.caps import held_by_caps
from taskcore.services.leases import acquire_lease
from taskcore.settings import Settings
from tasksvc_run import units
from tasksvc_run.owner import process_owner
from tasksvc_run.store_health import PROBLEM, refusal_reason, store_named

WRITES = "database writes"
PROBE_LEASE = "store-probe"  # the bot's own probe (bot/health.py): a row that expires at once


def write_check(settings: Settings, *, now: datetime | None = None) -> dx.Check | None:
    """Whether the configured database takes one write (this command's user's, as the bot would); None when there
    is no database yet or it cannot be reached (the other checks say so)."""
    from taskcore.storage.db import Database  # noqa: PLC0415 - only the doctor's reading loads SQLAlchemy here

    if settings.database_url is None and not settings.database_path.exists():
        return None
    database, fix = store_named(settings)
    db = Database.from_url(settings.sqlalchemy_url)
    try:
        units.run(db, acquire_lease, name=PROBE_LEASE, owner=process_owner(), now=now or datetime.now(UTC),
                  ttl=timedelta(0))
    except Exception as exc:
        reason = refusal_reason(exc)
        return None if reason is None else dx.problem(WRITES, f"{PROBLEM}: {database}: {reason}", fix)
    finally:
        db.dispose()
    return dx.ok(WRITES, f"{database} takes writes")


def reach_checks(settings: Settings, *, now: datetime | None = None) -> list[dx.Check]:
    """The reach-out and unreachable lines, read from the configured database."""
    from taskcore.storage.db import Database  # noqa: PLC0415 - only the doctor's reading loads SQLAlchemy here

    if settings.database_url is None and not settings.database_path.exists():
        return []
    db = Database.from_url(settings.sqlalchemy_url)
    try:
        paused = units.look(db, delivery.reachout_paused_until, now=now or datetime.now(UTC),
                            pause_hours=settings.gateway_reachout_pause_hours)
        people = units.look(db, delivery.unreachable_people)
        held = units.look(db, held_by_caps)
    except Exception as exc:  # an unmigrated or unreachable database must not break the rest of the report
        return [dx.warn("delivery", f"the database could not be read ({type(exc).__name__})",
                        "run `tasksvc migrate`, then check DATABASE_URL / DB_PATH")]
    finally:
        db.dispose()
    return [reachout_check(paused), unreachable_check([(p.user_id, p.since, p.name) for p in people]),
            caps_check(held)]
