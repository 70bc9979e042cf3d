"""The echo watchdog's and the connection's rules (SPEC section 26), pure: time is passed in."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from taskcore.gateway.echo import body_fingerprint, fingerprint
from taskcore.gateway.errors import UnreadableAnswer
from taskcore.gateway.evolution.answers import found_messages, owner_jid
from taskcore.gateway.evolution.models import canonical_event
from taskcore.gateway.evolution.records import sent_message
from taskcore.gateway.outbound import OutboundText, Quote
from taskcore.services.alerts import duration
from taskcore.watchdog import Act, ConnectionWatch, EchoWatch, Health, WatchTimes, tell_admins
from tests.chat_support import parse_echo

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
ECHO = timedelta(seconds=120)


def watch() -> EchoWatch:
    return EchoWatch(WatchTimes(ECHO, timedelta(minutes=60), timedelta(minutes=10)), started=T0)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_send_echoed_in_time_leaves_nothing_to_do() -> None:
    w = watch()
    w.accepted("A", at(0))
    assert w.echoed({"A"}, at(3)) is Act.NOTHING
    assert w.overdue(at(500)) == []
    assert w.tick(at(500), connected=True, late=False) is Act.NOTHING


def test_a_late_echo_repairs_then_alerts_once_then_recovers() -> None:
    w = watch()
    w.accepted("A", at(0))
    assert w.overdue(at(119)) == []
    assert w.overdue(at(120)) == ["A"]
    assert w.tick(at(120), connected=True, late=True) is Act.REPAIR
    assert w.tick(at(200), connected=True, late=False) is Act.NOTHING  # the repair's probe may still be echoed
    assert w.tick(at(240), connected=True, late=False) is Act.ALERT
    assert w.health is Health.DOWN
    assert w.tick(at(300), connected=True, late=False) is Act.NOTHING  # told once
    assert w.tick(at(240 + 600), connected=True, late=False) is Act.REPAIR  # the outage is probed again
    assert w.tick(at(240 + 700), connected=True, late=False) is Act.NOTHING
    assert w.echoed({"probe"}, at(900)) is Act.RECOVERED
    assert w.health is Health.OK


def test_an_echo_after_the_repair_ends_the_doubt_without_an_alert() -> None:
    w = watch()
    w.accepted("A", at(0))
    assert w.tick(at(130), connected=True, late=True) is Act.REPAIR
    assert w.echoed({"probe"}, at(131)) is Act.NOTHING
    assert w.tick(at(400), connected=True, late=False) is Act.NOTHING


def test_an_idle_hour_sends_a_probe_whose_echo_settles_it() -> None:
    w = watch()
    w.inbound(at(10))
    assert w.tick(at(10 + 3599), connected=True, late=False) is Act.NOTHING
    assert w.tick(at(10 + 3600), connected=True, late=False) is Act.PROBE
    assert w.echoed({"probe"}, at(3620)) is Act.NOTHING
    assert w.health is Health.OK


def test_an_unanswered_idle_probe_repairs_then_alerts() -> None:
    w = watch()
    assert w.tick(at(3600), connected=True, late=False) is Act.PROBE
    assert w.tick(at(3720), connected=True, late=False) is Act.REPAIR
    assert w.tick(at(3840), connected=True, late=False) is Act.ALERT


def test_nothing_is_judged_while_disconnected() -> None:
    w = watch()
    w.accepted("A", at(0))
    assert w.tick(at(7200), connected=False, late=True) is Act.NOTHING


def test_the_connection_reports_how_long_an_outage_lasted_on_reopening() -> None:
    link = ConnectionWatch()
    assert link.changed("open", at(0)) is None
    assert link.changed("close", at(10)) is None
    assert link.changed("close", at(20)) is None  # a repeated close keeps the first instant
    assert link.changed("connecting", at(30)) is None
    assert link.changed("open", at(10 + 400)) == timedelta(seconds=400)
    assert link.connected


def test_only_an_outage_longer_than_five_minutes_is_told() -> None:
    assert not tell_admins(timedelta(minutes=5))
    assert tell_admins(timedelta(minutes=5, seconds=1))


@pytest.mark.parametrize(("seconds", "said"), [(40, "40 s"), (720, "12 min"), (3600, "1 h"), (11100, "3 h 5 min")])
def test_durations_read_as_people_say_them(seconds: int, said: str) -> None:
    assert duration(timedelta(seconds=seconds)) == said


ANSWER = {"key": {"remoteJid": "120363000000000001@g.us", "fromMe": True, "id": "3EB0AA"},
          "message": {"conversation": "hola"}, "contextInfo": {"stanzaId": "QUOTED1"}}


@pytest.mark.parametrize("name", ["send.message", "SEND_MESSAGE", "send-message"])
def test_the_echo_is_recognised_in_every_spelling(name: str) -> None:
    assert canonical_event(name) == "send.message"
    echo = parse_echo({"event": name, "data": ANSWER})
    assert echo is not None
    assert (echo.message_id, echo.chat_id, echo.quoted_id) == ("3EB0AA", "120363000000000001@g.us", "QUOTED1")


def test_other_events_and_unreadable_echoes_are_not_echoes() -> None:
    assert parse_echo({"event": "messages.upsert", "data": ANSWER}) is None
    assert parse_echo({"event": "send.message", "data": {"key": {"id": 5}}}) is None
    assert parse_echo({"event": "send.message", "data": ANSWER | {"key": ANSWER["key"] | {"fromMe": False}}}) is None
    assert parse_echo({"data": ANSWER}, path_event="send-message") is not None


def test_a_queued_text_and_its_echo_have_the_same_fingerprint() -> None:
    text = OutboundText("120363000000000001@g.us", "hola", Quote("QUOTED1", "120363000000000001@g.us"))
    echo = sent_message(ANSWER)
    assert echo is not None
    assert body_fingerprint(text) == fingerprint(echo)
    assert body_fingerprint(replace(text, text="adiós")) != fingerprint(echo)


def test_the_owner_jid_is_read_from_fetch_instances() -> None:
    rows = [{"name": "other", "ownerJid": "1@s.whatsapp.net"}, {"name": "taskbot", "ownerJid": "2@s.whatsapp.net"}]
    assert owner_jid(rows, "taskbot") == "2@s.whatsapp.net"
    assert owner_jid([{"name": "taskbot", "ownerJid": None}], "taskbot") is None
    assert owner_jid("<html>", "taskbot") is None


def test_find_messages_records_are_read_and_a_malformed_answer_refused() -> None:
    record = ANSWER | {"id": "cm1", "MessageUpdate": [{"status": "SERVER_ACK"}]}
    answer = {"messages": {"total": 2, "pages": 1, "currentPage": 1, "records": [record, {"key": "bad"}]}}
    assert [m.message_id for m in found_messages(answer)] == ["3EB0AA"]
    with pytest.raises(UnreadableAnswer, match="records"):
        found_messages({"messages": None})
