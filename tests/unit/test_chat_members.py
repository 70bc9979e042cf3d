"""Who is who and who is in which group: senders, aliases, participant changes, groups created (SPEC section 3)."""

from __future__ import annotations

from sqlalchemy import select

from taskcore.chat import MetricEvent
from taskcore.gateway.port import GatewayParticipant
from taskcore.services.sync import apply_participants
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.members import active_members
from taskcore.storage.people import bot_user_ids
from tasksvc_run import units
from tests.builders import BOT_PHONE, GROUP, NOW, make_group, wa_envelope, wa_participants, wa_text
from tests.chat_support import alias_of, group_status, member, policy, queued, run, task_rows

ANA, LID_ANA = "34600111111", "900111"
ADMIN = "34699000001"


def display_name(db: Database, user_id: str) -> str | None:
    with db.read() as conn:
        return conn.execute(select(schema.users.c.display_name).where(schema.users.c.id == user_id)).scalar_one()


def test_a_sender_with_phone_and_lid_is_the_phone_user_and_the_pair_is_recorded(db: Database) -> None:
    result = run(db, wa_text("hola", lid=LID_ANA, push_name="Ana G."))
    assert alias_of(db, LID_ANA) == ANA
    assert display_name(db, ANA) == "Ana G."
    assert MetricEvent.IDENTITY_ALIAS_RESOLVED not in result.metrics


def test_a_lid_only_sender_is_resolved_through_the_alias_and_counted(db: Database) -> None:
    run(db, wa_text("hola", lid=LID_ANA))
    payload = wa_text("/t nueva pan")
    payload["data"]["key"] |= {"participant": f"{LID_ANA}@lid", "addressingMode": "lid"}
    result = run(db, payload)
    assert MetricEvent.IDENTITY_ALIAS_RESOLVED in result.metrics
    assert task_rows(db)[0].created_by == ANA


def test_a_lid_only_user_is_rekeyed_when_the_phone_becomes_known(db: Database) -> None:
    payload = wa_text("/t nueva pan")
    payload["data"]["key"] |= {"participant": f"{LID_ANA}@lid"}
    run(db, payload)
    assert task_rows(db)[0].created_by == LID_ANA
    run(db, wa_text("hola", lid=LID_ANA))
    assert task_rows(db)[0].created_by == ANA


def test_a_group_message_makes_the_sender_an_active_member_again(db: Database) -> None:
    make_group(db, GROUP, inactive=(ANA,))
    run(db, wa_text("hola"))
    row = member(db, GROUP, ANA)
    assert (row.active, row.inactive_since) == (True, None)


def test_participants_added_become_active_members_with_their_aliases(db: Database) -> None:
    run(db, wa_participants("add", [{"id": "900333@lid", "phoneNumber": "34600333333@s.whatsapp.net", "admin": None}]))
    assert member(db, GROUP, "34600333333").active
    assert alias_of(db, "900333") == "34600333333"


def test_participants_removed_become_inactive_even_when_named_only_by_lid(db: Database) -> None:
    run(db, wa_text("hola", lid=LID_ANA))
    result = run(db, wa_participants("remove", [f"{LID_ANA}@lid"]))
    row = member(db, GROUP, ANA)
    assert (row.active, row.inactive_since is not None) == (False, True)
    assert MetricEvent.IDENTITY_ALIAS_RESOLVED in result.metrics


def test_promote_and_demote_set_the_admin_flag(db: Database) -> None:
    run(db, wa_participants("promote", [f"{ANA}@s.whatsapp.net"]))
    assert member(db, GROUP, ANA).is_admin
    run(db, wa_participants("demote", [f"{ANA}@s.whatsapp.net"]))
    assert not member(db, GROUP, ANA).is_admin


def test_modify_keeps_the_member_active(db: Database) -> None:
    run(db, wa_participants("modify", [f"{ANA}@s.whatsapp.net"]))
    assert member(db, GROUP, ANA).active


def test_an_unknown_participants_action_changes_nothing(db: Database) -> None:
    result = run(db, wa_participants("explode", [f"{ANA}@s.whatsapp.net"]))
    assert result.outcome == "unknown action explode"
    assert member(db, GROUP, ANA) is None


def test_the_bot_itself_is_never_recorded_as_a_member(db: Database) -> None:
    run(db, wa_participants("add", ["15550100000@s.whatsapp.net"]))
    assert member(db, GROUP, "15550100000") is None


def test_participant_changes_in_a_group_not_served_are_not_recorded(db: Database) -> None:
    make_group(db, GROUP, status="blocked")
    run(db, wa_participants("add", [f"{ANA}@s.whatsapp.net"]), policy("enforce"))
    assert member(db, GROUP, ANA) is None


def test_the_bot_added_to_a_new_group_in_discover_mode_announces_it(db: Database) -> None:
    run(db, wa_participants("add", ["15550100000@s.whatsapp.net"]), policy("discover", admins=(ADMIN,)))
    assert group_status(db, GROUP) == "pending"
    assert [j.chat_id for j in queued(db)] == [f"{ADMIN}@s.whatsapp.net"]


def group_created(*participants: dict[str, object]) -> dict[str, object]:
    return wa_envelope("groups.upsert", [{"id": "120363300000000011@g.us", "subject": "Obra",
                                          "participants": list(participants)}])


def test_a_group_created_with_the_bot_records_its_name_and_every_member(db: Database) -> None:
    run(db, group_created({"id": "900444@lid", "phoneNumber": "34600444444@s.whatsapp.net", "admin": "superadmin"},
                          {"id": "34600555555@s.whatsapp.net", "admin": None}))
    assert member(db, "120363300000000011@g.us", "34600444444").is_admin
    assert not member(db, "120363300000000011@g.us", "34600555555").is_admin
    with db.read() as conn:
        name = conn.execute(select(schema.groups.c.name).where(schema.groups.c.id == "120363300000000011@g.us"))
        assert name.scalar_one() == "Obra"


def test_a_group_created_in_discover_mode_is_announced_by_name(db: Database) -> None:
    run(db, group_created(), policy("discover", admins=(ADMIN,)))
    assert queued(db)[0].text.startswith("Nuevo grupo detectado: «Obra» (120363300000000011@g.us).")


def test_a_connection_update_changes_nothing(db: Database) -> None:
    result = run(db, wa_envelope("connection.update", {"state": "close", "statusReason": 401}))
    assert result.outcome == "connection close"
    assert queued(db) == []


def test_the_bot_among_the_participants_is_recorded_as_itself_and_never_a_member(db: Database) -> None:
    run(db, wa_participants("add", [{"id": "900999@lid", "phoneNumber": f"{BOT_PHONE}@s.whatsapp.net"},
                                    {"id": "900333@lid", "phoneNumber": "34600333333@s.whatsapp.net"}]))
    with db.read() as conn:
        assert bot_user_ids(conn) == {BOT_PHONE, "900999"}
    units.run(db, apply_participants, group_id=GROUP, participants=[
        GatewayParticipant(phone=None, lid="900999", admin=False),
        GatewayParticipant(phone="34600333333", lid="900333", admin=False)], now=NOW)
    with db.read() as conn:
        assert [person.id for person in active_members(conn, GROUP)] == ["34600333333"]
