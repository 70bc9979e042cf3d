"""The store of echoes (gateway_echoes), on every backend: record once, which sends were echoed, the echo of a send
whose id is unknown, forgetting old ones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from taskcore.gateway.echo import text_digest
from taskcore.gateway.events import SentMessage
from taskcore.gateway.outbound import text_payload
from taskcore.services import echoes, queue
from taskcore.storage.db import Database
from tasksvc_run import units

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
CHAT = "120363000000000001@g.us"


def echo(ident: str, text: str = "hola", quoted: str | None = None) -> SentMessage:
    return SentMessage(ident, CHAT, text_digest(text), quoted)


def test_an_echo_is_kept_once_and_reported_among_the_sends(db: Database) -> None:
    assert units.run(db, echoes.record_echo, echo("A"), now=T0)
    assert not units.run(db, echoes.record_echo, echo("A"), now=T0)
    assert units.look(db, echoes.echoed_among, ["A", "B"]) == {"A"}
    assert units.look(db, echoes.echoed_among, []) == set()


def test_the_echo_of_an_unknown_send_is_found_by_chat_text_and_quoted_id(db: Database) -> None:
    units.run(db, echoes.record_echo, echo("A", quoted="Q1"), now=T0)
    def found(db: Database, **where: Any) -> str | None:
        return units.look(db, echoes.unclaimed_echo, **where)

    assert found(db, chat_id=CHAT, digest=text_digest("hola"), quoted_id="Q1", since=T0) == "A"
    assert found(db, chat_id=CHAT, digest=text_digest("hola"), quoted_id=None, since=T0) is None
    assert found(db, chat_id=CHAT, digest=text_digest("adiós"), quoted_id="Q1", since=T0) is None
    assert found(db, chat_id=CHAT, digest=text_digest("hola"), quoted_id="Q1", since=T0 + timedelta(seconds=1)) is None


def test_an_echo_a_sent_job_already_names_is_not_found_again(db: Database) -> None:
    units.run(db, echoes.record_echo, echo("A"), now=T0)
    job = units.run(db, queue.enqueue_message, chat_id=CHAT, kind="text",
                    payload=text_payload(chat_id=CHAT, text="hola"), max_attempts=6, now=T0)
    assert job is not None
    [claimed] = units.run(db, queue.claim_jobs, owner="me", now=T0, lease=timedelta(seconds=30), limit=1)
    units.run(db, queue.mark_sent, job_id=claimed.id, owner="me", now=T0, gateway_message_id="A")
    assert units.look(db, echoes.unclaimed_echo, chat_id=CHAT, digest=text_digest("hola"), quoted_id=None,
                      since=T0) is None


def test_old_echoes_are_forgotten(db: Database) -> None:
    units.run(db, echoes.record_echo, echo("A"), now=T0)
    units.run(db, echoes.record_echo, echo("B"), now=T0 + timedelta(days=2))
    assert units.run(db, echoes.forget_echoes, before=T0 + timedelta(days=1)) == 1
    assert units.look(db, echoes.echoed_among, ["A", "B"]) == {"B"}
