"""Properties of the webhook over a real bot app: no input makes it fail, and nothing happens twice."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskcore.chat.commands import NewTask
from taskcore.chat.grammar import parse_command
from taskcore.gateway.events import InboundMessage
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.services.conversation.registry import SYNTAX
from taskcore.storage.db import Database
from tests.builders import TODAY, wa_text
from tests.chat_support import queued, task_rows
from tests.integration.bot_harness import Bot, running_bot
from tests.strategies import odd_texts

EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ENV = {"RATE_LIMIT_PER_MIN": "100000", "REACTIONS_ENABLED": "true", "GROUP_GATING_MODE": "off"}

# Texts include lone surrogates (SPEC section 28): no content makes a well-formed event fail.
scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
           | odd_texts)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=12), inner, max_size=5), max_leaves=25)
jids = st.one_of(st.text(max_size=20),
                 st.from_regex(r"[0-9]{5,15}(:[0-9])?@(s\.whatsapp\.net|lid|g\.us)", fullmatch=True),
                 st.sampled_from(["120363300000000010@g.us", "status@broadcast", "34600111111@s.whatsapp.net"]))
texts = st.one_of(st.text(max_size=40), odd_texts,
                  st.sampled_from(["/t", "/t nueva pan", "/t x 1", "/t ver", "/admin", "/t web"]),
                  st.builds(lambda t: f"/t nueva {t}", st.text(max_size=30)))


@st.composite
def near_events(draw: st.DrawFn) -> dict[str, Any]:
    """Envelopes shaped like the gateway's, with fields sometimes missing, mistyped or odd."""
    good_jids = st.sampled_from(["120363300000000010@g.us", "34600111111@s.whatsapp.net", "900111@lid"])
    key = draw(st.fixed_dictionaries({
        "remoteJid": good_jids | jids, "participant": good_jids | jids,
        "id": st.text("AB12", min_size=1, max_size=8) | st.integers() | json_values,
    }, optional={"participantAlt": jids, "remoteJidAlt": jids, "senderPn": jids,
                 "fromMe": st.booleans() | json_values}))
    message = draw(st.fixed_dictionaries({"conversation": texts | json_values}, optional={
        "extendedTextMessage": st.fixed_dictionaries({}, optional={
            "text": texts, "contextInfo": st.fixed_dictionaries({}, optional={"mentionedJid": st.lists(jids)})})}))
    data = draw(st.fixed_dictionaries({"key": st.just(key) | json_values, "message": st.just(message) | json_values},
                                      optional={
        "pushName": st.text() | odd_texts | json_values, "messageTimestamp": st.integers() | st.text() | json_values,
        "contextInfo": st.fixed_dictionaries({"mentionedJid": st.lists(jids) | json_values}),
        "participants": st.lists(jids | json_values), "action": st.text() | st.sampled_from(["add", "remove"]),
        "id": jids}))
    event = draw(st.sampled_from(["messages.upsert", "messages.upsert", "group-participants.update", "groups.upsert",
                                  "connection.update", "MESSAGES_UPSERT", "other"]) | json_values)
    return {"event": event, "instance": draw(st.text(max_size=8) | json_values),
            "data": draw(st.just(data) | st.lists(st.just(data)) | json_values)}


def may_create_a_task(payload: object, path: str = "/webhook") -> bool:
    """A well-formed ``/t nueva`` message from someone else is the only thing that creates a task (the event named
    by the per-event URL when the body does not name one)."""
    if not isinstance(payload, dict):
        return False
    parsed = parse_event(payload, path_event=path.removeprefix("/webhook").strip("/") or None)
    if not isinstance(parsed, InboundMessage):
        return False
    try:
        return isinstance(parse_command(parsed.text, SYNTAX, today=TODAY, mentioned=parsed.mentioned_digits), NewTask)
    except ValueError:
        return False


def with_bot(db: Database, work: Callable[[Bot], Awaitable[None]]) -> None:
    async def go() -> None:
        async with running_bot(db, ENV) as bot:
            await work(bot)

    asyncio.run(go())


@EXAMPLES
@given(payload=json_values | near_events(),
       path=st.sampled_from(["/webhook", "/webhook/messages-upsert", "/webhook/x"]))
def test_no_json_makes_the_webhook_fail_or_creates_a_task_unless_it_is_a_command(
    sqlite_db: Database, payload: object, path: str
) -> None:
    before = len(task_rows(sqlite_db))

    async def work(bot: Bot) -> None:
        response = await bot.client.post(path, data=json.dumps(payload), headers={"Content-Type": "application/json"})
        assert response.status in (200, 400), await response.text()
        await bot.settle()

    with_bot(sqlite_db, work)
    created = len(task_rows(sqlite_db)) - before
    assert created <= (1 if may_create_a_task(payload, path) else 0)


@EXAMPLES
@given(description=st.text(min_size=1, max_size=60).filter(lambda t: t.strip() and '"' not in t),
       group=st.sampled_from(["120363300000000010@g.us", None]), times=st.integers(min_value=2, max_value=4))
def test_a_redelivered_event_creates_nothing_new(sqlite_db: Database, description: str, group: str | None,
                                                  times: int) -> None:
    payload = wa_text(f'/t nueva "{description}"', group=group)
    tasks_before, jobs_before = len(task_rows(sqlite_db)), len(queued(sqlite_db))

    async def work(bot: Bot) -> None:
        for _ in range(times):
            response = await bot.client.post("/webhook", json=payload)
            assert response.status == 200
        await bot.settle()

    with_bot(sqlite_db, work)
    created = len(task_rows(sqlite_db)) - tasks_before
    assert created == (1 if may_create_a_task(payload) else 0)
    assert len(queued(sqlite_db)) - jobs_before in (1, 2)  # one reply (and its reaction in a group), once
