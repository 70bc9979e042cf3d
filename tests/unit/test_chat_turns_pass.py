"""Missed turns (SPEC section 25) through the road and the scheduler's use case, with ``now`` passed in: ``/t pasar``
by the holder hands the occurrence to the next person in turn (the away skipped), and a turn still open two days
after its date passes on by itself once, the group told."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from taskcore.services.turns import AutoPassTick
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group, wa_text
from tests.chat_support import assignees, queued, run, texts

ANA, BEA, LUIS = "34600111111", "34600222222", "34600333333"
MADRID = ZoneInfo("Europe/Madrid")


def say(db: Database, text: str, sender: str = ANA, **kw: Any) -> str:
    mentioned = tuple(f"{word[1:]}@s.whatsapp.net" for word in text.split() if word[1:].isdigit() and word[0] == "@")
    run(db, wa_text(text, sender=sender, mentioned=mentioned, **kw))
    return texts(db)[-1]


def auto(db: Database, at: datetime) -> int:
    return units.run_batched(db, AutoPassTick(now=at, zone=MADRID, max_attempts=6, default_language="es"))


def turn_of(db: Database, task_id: int = 1) -> Any:
    t = schema.tasks
    with db.read() as conn:
        return conn.execute(select(t.c.rotation_turn, t.c.turn_passed_at).where(t.c.id == task_id)).one()


@pytest.fixture
def rotation(db: Database) -> int:
    make_group(db, GROUP, name="Casa", members=(ANA, BEA, LUIS))
    say(db, f"/t nueva sacar la basura cada domingo @{ANA} @{BEA} @{LUIS} !turnos")  # first: Sunday 22/11, today
    assert assignees(db, 1) == {ANA}
    return 1


def test_the_holder_passes_to_the_next_in_turn_who_is_mentioned(db: Database, rotation: int) -> None:
    reply = say(db, "/t pasar 1")
    assert reply == f"@{ANA} ↪️ «sacar la basura» (#1): ahora le toca a @{BEA}."
    assert queued(db)[-1].payload["mentioned"] == [f"{ANA}@s.whatsapp.net", f"{BEA}@s.whatsapp.net"]
    assert assignees(db, 1) == {BEA}
    assert turn_of(db).rotation_turn == 1
    say(db, "/t x 1", sender=BEA)
    assert assignees(db, 2) == {LUIS}  # the next occurrence follows the one who took it


def test_only_the_holder_passes_and_only_a_rotation(db: Database, rotation: int) -> None:
    assert say(db, "/t pasar 1", sender=LUIS) == f"@{LUIS} #1 no es tu turno: solo quien lo tiene puede pasarlo."
    say(db, f"/t nueva regar hoy @{ANA}")
    assert say(db, "/t pasar 2") == f"@{ANA} #2 no va por turnos (!turnos): no hay turno que pasar."
    assert say(db, "/t pass 1").endswith(f"ahora le toca a @{BEA}.")


def test_the_away_are_skipped(db: Database, rotation: int) -> None:
    with db.write() as conn:
        conn.execute(schema.user_preferences.insert().values(user_id=BEA, freq="off", time="08:30", updated_at=NOW,
                                                             away_until="2026-11-30"))
    assert say(db, "/t pasar 1").endswith(f"ahora le toca a @{LUIS}.")
    assert assignees(db, 1) == {LUIS}


def test_a_turn_two_days_late_passes_on_once_and_the_group_is_told(db: Database, rotation: int) -> None:
    tuesday = datetime(2026, 11, 23, 23, 0, tzinfo=UTC)  # 00:00 of Tuesday 24/11 in Madrid: two days after Sunday
    assert auto(db, tuesday - timedelta(minutes=1)) == 0
    before = len(queued(db))
    assert auto(db, tuesday) == 1
    [notice] = queued(db)[before:]
    assert notice.chat_id == GROUP
    assert notice.text == f"↪️ «sacar la basura» (#1) lleva dos días vencida: el turno pasa de @{ANA} a @{BEA}."
    assert notice.payload["mentioned"] == [f"{ANA}@s.whatsapp.net", f"{BEA}@s.whatsapp.net"]
    assert assignees(db, 1) == {BEA}
    assert auto(db, tuesday + timedelta(days=3)) == 0  # once: the next holder's turn never passes on by itself
    assert assignees(db, 1) == {BEA}
    assert turn_of(db).turn_passed_at == tuesday


def test_a_turn_not_yet_late_in_its_holders_calendar_costs_no_write(db: Database, rotation: int,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[object] = []
    real = db.unit
    monkeypatch.setattr(db, "unit", lambda **kw: writes.append(kw) or real(**kw))
    tuesday = datetime(2026, 11, 23, 23, 0, tzinfo=UTC)  # late in UTC's calendar since Tuesday 00:00 UTC
    assert auto(db, tuesday - timedelta(minutes=1)) == 0
    assert writes == []  # read every minute until then, decided without a transaction
    assert auto(db, tuesday) == 1
    assert len(writes) == 1


def test_a_completed_turn_does_not_pass_on(db: Database, rotation: int) -> None:
    say(db, "/t x 1")
    assert auto(db, datetime(2026, 11, 25, 12, 0, tzinfo=UTC)) == 0
    assert assignees(db, 1) == {ANA}


def away(db: Database, user: str, until: str) -> None:
    with db.write() as conn:
        conn.execute(schema.user_preferences.insert().values(user_id=user, freq="off", time="08:30", updated_at=NOW,
                                                             away_until=until))


@pytest.mark.parametrize("flag", ["!turnos", "!reparto"])
def test_the_first_occurrence_skips_who_is_away_on_its_date(db: Database, flag: str) -> None:
    """SPEC section 30 (measured: ``!reparto`` gave the first occurrence to the away person)."""
    make_group(db, GROUP, name="Casa", members=(ANA, BEA, LUIS))
    away(db, ANA, "2026-11-30")
    say(db, f"/t nueva sacar la basura cada domingo @{ANA} @{BEA} @{LUIS} {flag}")  # first: Sunday 22/11
    assert assignees(db, 1) == {BEA}
    assert turn_of(db).rotation_turn == 1


def test_back_by_the_first_date_takes_the_first_turn(db: Database) -> None:
    make_group(db, GROUP, name="Casa", members=(ANA, BEA))
    away(db, ANA, "2026-11-21")  # back the day before Sunday 22/11
    say(db, f"/t nueva sacar la basura cada domingo @{ANA} @{BEA} !turnos")
    assert assignees(db, 1) == {ANA}
