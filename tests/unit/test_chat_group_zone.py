"""A group's zone (SPEC section 30): ``/t zona <lugar>`` in a group sets the group's (any member), the member's own
is unchanged; until then the weekly summary takes the zone of whoever sets it, and its confirmation names it."""

from __future__ import annotations

from sqlalchemy import select

from taskcore.storage import schema
from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import run, texts

ANA, BR = "34600111111", "5521987654321"


def say(db: Database, text: str, sender: str = ANA, group: str | None = GROUP) -> str:
    run(db, wa_text(text, sender=sender, group=group))
    return texts(db)[-1]


def group_zone(db: Database) -> str | None:
    with db.read() as conn:
        return conn.execute(select(schema.groups.c.time_zone).where(schema.groups.c.id == GROUP)).scalar_one()


def own_zone(db: Database, user: str) -> str | None:
    p = schema.user_preferences
    with db.read() as conn:
        return conn.execute(select(p.c.tz).where(p.c.user_id == user)).scalar_one_or_none()


def test_a_member_sets_the_group_s_zone_and_keeps_their_own(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    assert "El grupo aún no tiene zona horaria" in say(db, "/t zona")
    assert "La zona horaria del grupo es ahora America/Bogota" in say(db, "/t zona Bogota")
    assert group_zone(db) == "America/Bogota"
    assert own_zone(db, ANA) is None
    assert "La zona horaria del grupo es America/Bogota" in say(db, "/t zona")
    assert "ya no tiene zona horaria propia" in say(db, "/t zona sin")
    assert group_zone(db) is None


def test_the_weekly_summary_runs_in_the_group_s_zone_and_names_it(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    say(db, "/t zona Lima")
    assert "(America/Lima)" in say(db, "/t resumen semanal domingo 20:00")


def test_without_a_group_zone_the_summary_takes_its_setter_s(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, BR))
    say(db, "/t zona Lisbon", group=None)  # Ana's own zone, in private
    reply = say(db, "/t resumen semanal domingo 20:00")
    assert "(Europe/Lisbon)" in reply
    assert group_zone(db) == "Europe/Lisbon"


def test_a_person_known_only_by_a_lid_dates_in_the_group_s_zone(db: Database) -> None:
    """SPEC section 32: without a choice of their own and a number that tells, the group's zone."""
    make_group(db, GROUP, members=(ANA,))
    say(db, "/t zona Pacific/Kiritimati")  # UTC+14: at 10:00 UTC on 22/11 it is already 23/11 there
    lid_only = wa_text("/t nueva regar hoy", sender=ANA)
    lid_only["data"]["key"]["participant"] = "123456789012345@lid"  # type: ignore[index]
    lid_only["data"]["key"]["addressingMode"] = "lid"  # type: ignore[index]
    run(db, lid_only)
    with db.read() as conn:
        rows = conn.execute(select(schema.tasks.c.due_date)).scalars().all()
    assert [str(day) for day in rows] == ["2026-11-23"]
