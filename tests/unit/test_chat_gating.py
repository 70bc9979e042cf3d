"""Which messages the bot acts on: redeliveries, gating modes, discovery, /admin, rate limit (SPEC sections 4, 5)."""

from __future__ import annotations

import pytest

from taskcore.chat import MetricEvent
from taskcore.ratelimit import Decision
from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import Tokens, group_status, member, policy, queued, run, task_rows, texts

ANA, ADMIN, OTHER_ADMIN = "34600111111", "34699000001", "34699000002"
BLOCKED_METRICS = (MetricEvent.MESSAGE_BLOCKED_GROUP,)


def test_a_redelivered_message_creates_nothing_twice(db: Database) -> None:
    payload = wa_text("/t nueva pan", message_id="SAME")
    first, second = run(db, payload), run(db, payload)
    assert (first.outcome, second.outcome) == ("nueva done", "duplicate")
    assert len(task_rows(db)) == 1
    assert len(queued(db)) == 1


def test_the_same_message_id_from_another_instance_is_a_different_message(db: Database) -> None:
    run(db, wa_text("/t nueva pan", message_id="SAME"))
    run(db, wa_text("/t nueva pan", message_id="SAME", instance="other"))
    assert len(task_rows(db)) == 2


def test_in_mode_off_every_group_is_served(db: Database) -> None:
    run(db, wa_text("/t nueva pan"))
    assert len(task_rows(db)) == 1
    assert member(db, GROUP, ANA).active


@pytest.mark.parametrize("mode", ["discover", "enforce"])
def test_an_unknown_groups_command_is_ignored_silently_and_counted(db: Database, mode: str) -> None:
    result = run(db, wa_text("/t nueva pan"), policy(mode))
    assert result.outcome == "blocked"
    assert MetricEvent.MESSAGE_BLOCKED_GROUP in result.metrics
    assert MetricEvent.COMMAND_BLOCKED in result.metrics
    assert task_rows(db) == []
    assert texts(db) == []
    assert member(db, GROUP, ANA) is None


def test_ordinary_chat_in_a_blocked_group_counts_only_as_a_blocked_message(db: Database) -> None:
    make_group(db, GROUP, status="blocked")
    result = run(db, wa_text("hola"), policy("enforce"))
    assert result.metrics == BLOCKED_METRICS


def test_an_allowed_group_is_served_in_enforce_mode(db: Database) -> None:
    make_group(db, GROUP, status="allowed")
    run(db, wa_text("/t nueva pan"), policy("enforce"))
    assert len(task_rows(db)) == 1


def test_enforce_mode_does_not_record_unknown_groups(db: Database) -> None:
    run(db, wa_text("hola"), policy("enforce", admins=(ADMIN,)))
    assert group_status(db, GROUP) is None
    assert queued(db) == []


def test_discover_mode_records_a_new_group_as_pending_and_tells_each_admin_once(db: Database) -> None:
    rules = policy("discover", admins=(ADMIN, OTHER_ADMIN))
    first = run(db, wa_text("hola"), rules)
    run(db, wa_text("otra vez"), rules)
    assert group_status(db, GROUP) == "pending"
    assert MetricEvent.UNKNOWN_GROUP_DISCOVERED in first.metrics
    notices = queued(db)
    assert [(n.chat_id, n.label, n.payload["chat"]) for n in notices] == [
        (f"{ADMIN}@s.whatsapp.net", "notice", f"{ADMIN}@s.whatsapp.net"),
        (f"{OTHER_ADMIN}@s.whatsapp.net", "notice", f"{OTHER_ADMIN}@s.whatsapp.net")]
    assert notices[0].text == (f"Nuevo grupo detectado: {GROUP}.\nPara permitirlo: /admin permitir {GROUP}\n"
                               f"Para bloquearlo: /admin bloquear {GROUP}")


def test_discovery_notices_are_not_sent_when_notify_admins_on_discovery_is_false(db: Database) -> None:
    result = run(db, wa_text("hola"), policy("discover", admins=(ADMIN,), notify=False))
    assert MetricEvent.UNKNOWN_GROUP_DISCOVERED in result.metrics
    assert queued(db) == []


def test_admin_commands_work_in_a_blocked_group(db: Database) -> None:
    make_group(db, GROUP, status="blocked")
    result = run(db, wa_text("/admin permitir aquí", sender=ADMIN), policy("enforce", admins=(ADMIN,)))
    assert result.metrics == (MetricEvent.ADMIN_ALLOW,)
    assert group_status(db, GROUP) == "allowed"
    assert texts(db) == [f"@{ADMIN} Grupo «Grupo {GROUP}» ({GROUP}) permitido."]


def test_admin_commands_work_in_private(db: Database) -> None:
    result = run(db, wa_text(f"/admin bloquear {GROUP}", sender=ADMIN, group=None), policy("enforce", admins=(ADMIN,)))
    assert result.metrics == (MetricEvent.ADMIN_BLOCK,)
    assert group_status(db, GROUP) == "blocked"


def test_here_means_nothing_in_a_private_chat(db: Database) -> None:
    run(db, wa_text("/admin permitir aquí", sender=ADMIN, group=None), policy(admins=(ADMIN,)))
    assert texts(db) == ["«aquí» solo vale dentro de un grupo. Indica el grupo: /admin permitir <dígitos>@g.us"]


def test_admin_commands_from_anyone_else_get_no_reply_but_take_a_token(db: Database) -> None:
    tokens = Tokens()
    result = run(db, wa_text("/admin permitir aquí"), policy(admins=(ADMIN,)), tokens=tokens)
    malformed = run(db, wa_text("/admin borrar"), policy(admins=(ADMIN,)), tokens=tokens)
    assert (result.outcome, malformed.outcome) == ("admin command from a non-admin",) * 2
    assert tokens.asked == [ANA, ANA]
    assert queued(db) == []


def test_admin_groups_lists_groups_with_their_status(db: Database) -> None:
    make_group(db, "100@g.us", name="Casa", status="allowed")
    make_group(db, "200@g.us", name="Obra", status="pending")
    rules = policy("enforce", admins=(ADMIN,))
    run(db, wa_text("/admin grupos", sender=ADMIN, group=None), rules)
    run(db, wa_text("/admin grupos pendientes", sender=ADMIN, group=None), rules)
    assert texts(db) == ["Grupos (2):\n• Casa — 100@g.us — permitido\n• Obra — 200@g.us — pendiente",
                         "Grupos pendientes (1):\n• Obra — 200@g.us — pendiente"]


def test_admin_sync_asks_the_schedulers_or_says_they_are_not_running(db: Database) -> None:
    calls: list[str] = []
    run(db, wa_text("/admin sync", sender=ADMIN, group=None), policy(admins=(ADMIN,)), sync=lambda: calls.append("x"))
    run(db, wa_text("/admin sync", sender=ADMIN, group=None), policy(admins=(ADMIN,)))
    assert calls == ["x"]
    assert texts(db) == ["Sincronización de grupos y miembros en marcha.",
                         "Los procesos programados no están en marcha: no puedo sincronizar ahora."]


def test_admin_help(db: Database) -> None:
    run(db, wa_text("/admin", sender=ADMIN, group=None), policy(admins=(ADMIN,)))
    assert texts(db)[0].startswith("Órdenes de administración:\n• /admin grupos")


def test_an_empty_bucket_refuses_the_command_with_one_notice_per_empty_spell(db: Database) -> None:
    tokens = Tokens([Decision(False, 7, notify=True), Decision(False, 5, notify=False)])
    run(db, wa_text("/t nueva uno"), tokens=tokens)
    run(db, wa_text("/t nueva dos"), tokens=tokens)
    run(db, wa_text("/t nueva tres"), tokens=tokens)
    assert texts(db) == [f"@{ANA} Demasiadas órdenes, espera 7 s.", f"@{ANA} Tarea #1 creada: tres. Sin asignar"]
    assert [t.description for t in task_rows(db)] == ["tres"]


def test_ordinary_chat_takes_no_token(db: Database) -> None:
    tokens = Tokens()
    run(db, wa_text("hola"), tokens=tokens)
    assert tokens.asked == []


def test_reactions_mark_a_command_that_worked_and_one_that_was_rejected(db: Database) -> None:
    rules = policy(reactions_on=True)
    run(db, wa_text("/t nueva pan", message_id="OK1"), rules)
    run(db, wa_text("/t tomar 9", message_id="BAD1"), rules)
    marks = [(j.payload["message_id"], j.emoji, j.label) for j in queued(db) if j.kind == "reaction"]
    assert marks == [("OK1", "🤖", "robot"), ("BAD1", "⚠️", "warn")]
    assert queued(db)[1].payload["participant"] == f"{ANA}@s.whatsapp.net"


def test_completing_by_chat_queues_the_check_mark_on_the_origin_message(db: Database) -> None:
    rules = policy(reactions_on=True)
    run(db, wa_text("/t nueva pan", message_id="ORIGIN"), rules)
    run(db, wa_text("/t x 1", message_id="DONE"), rules)
    marks = [(j.payload["message_id"], j.emoji) for j in queued(db) if j.kind == "reaction"]
    assert marks == [("ORIGIN", "🤖"), ("ORIGIN", "✅"), ("DONE", "🤖")]


def test_no_reactions_in_private_chats_with_the_default_scope(db: Database) -> None:
    run(db, wa_text("/t ver", group=None), policy(reactions_on=True))
    assert [j.kind for j in queued(db)] == ["text"]


def test_no_reactions_when_reactions_are_disabled(db: Database) -> None:
    run(db, wa_text("/t nueva pan"))
    assert [j.kind for j in queued(db)] == ["text"]


def test_queued_texts_use_the_configured_attempt_limit(db: Database) -> None:
    run(db, wa_text("/t ver"))
    assert queued(db)[0].max_attempts == 6
