"""Admitting a message (SPEC sections 4, 5, 16, 18), over the in-memory store: what it reads, what it stops, what it
lets in, and the token it takes."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from taskcore.access import GroupStatus
from taskcore.chat import ChatResult, MetricEvent, Moment
from taskcore.chat.decide import head_of
from taskcore.gateway.events import InboundMessage
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.ratelimit import Decision
from taskcore.services.conversation.admission import Admitted, admit
from tests.builders import GROUP, NOW, wa_text
from tests.chat_support import Tokens, policy
from tests.fakes.conversation_store import MemoryConversationStore

ANA, ADMIN = "34600111111", "34699000001"


def message(text: str, **kwargs: object) -> InboundMessage:
    event = parse_event(wa_text(text, **kwargs))  # type: ignore[arg-type]
    assert isinstance(event, InboundMessage)
    return event


def admitted(store: MemoryConversationStore, msg: InboundMessage, tokens: Tokens | None = None,
             mode: str = "off", admins: tuple[str, ...] = ()) -> Admitted | ChatResult:
    family, reply = head_of(msg.text, msg.quoted_id)
    moment = Moment(NOW, tokens or Tokens())
    return admit(store, policy(mode, admins=admins), msg, moment, family=family, reply=reply, linked=msg.quoted_id)


@pytest.fixture
def store() -> MemoryConversationStore:
    return MemoryConversationStore()


def test_a_message_seen_before_ends_before_anything_is_read(store: MemoryConversationStore) -> None:
    admitted(store, message("/t ver", message_id="A"))
    store.reads.clear()
    again = admitted(store, message("/t ver", message_id="A"))
    assert isinstance(again, ChatResult)
    assert again.outcome == "duplicate"
    assert store.reads == {"first_sightings": 1}


def test_a_command_in_a_group_that_is_not_served_ends_counted_without_a_token(store: MemoryConversationStore) -> None:
    tokens = Tokens()
    result = admitted(store, message("/t ver"), tokens, mode="enforce")
    assert isinstance(result, ChatResult)
    assert (result.outcome, result.metrics) == ("blocked", (MetricEvent.MESSAGE_BLOCKED_GROUP,
                                                            MetricEvent.COMMAND_BLOCKED))
    assert tokens.asked == []
    assert ANA not in store.users  # nobody is recorded from a group that is not served


def test_an_admin_s_admin_command_is_let_in_from_a_blocked_group(store: MemoryConversationStore) -> None:
    store.seed_status(GROUP, GroupStatus.BLOCKED)
    result = admitted(store, message("/admin grupos", sender=ADMIN), mode="enforce", admins=(ADMIN,))
    assert isinstance(result, Admitted)
    assert result.token == Decision(allowed=True)


def test_a_non_admin_s_admin_command_takes_a_token_and_ends_silent(store: MemoryConversationStore) -> None:
    tokens = Tokens()
    result = admitted(store, message("/admin permitir aquí"), tokens, admins=(ADMIN,))
    assert isinstance(result, ChatResult)
    assert (result.outcome, result.texts, tokens.asked) == ("admin command from a non-admin", (), [ANA])


def test_ordinary_chat_quoting_a_message_reads_no_task_and_takes_no_token(store: MemoryConversationStore) -> None:
    store.seed_link("BOT1", 7)
    tokens = Tokens()
    result = admitted(store, message("gracias, lo miro luego", quoted="BOT1"), tokens)
    assert isinstance(result, Admitted)
    assert (result.quoted_task, result.token, tokens.asked) == (None, None, [])
    assert store.reads["task_of_message"] == 0


def test_a_reply_word_on_a_task_s_message_carries_the_task_and_takes_a_token(store: MemoryConversationStore) -> None:
    store.seed_link("BOT1", 7)
    tokens = Tokens()
    result = admitted(store, message("hecho", quoted="BOT1"), tokens)
    assert isinstance(result, Admitted)
    assert (result.quoted_task, tokens.asked) == (7, [ANA])


def test_a_reply_word_on_a_message_of_no_task_takes_no_token(store: MemoryConversationStore) -> None:
    tokens = Tokens()
    result = admitted(store, message("hecho", quoted="NOTHING"), tokens)
    assert isinstance(result, Admitted)
    assert (result.quoted_task, result.token, tokens.asked) == (None, None, [])


def test_the_sender_s_today_is_in_their_chosen_zone(store: MemoryConversationStore) -> None:
    store.seed_zone(ANA, "Pacific/Kiritimati")  # UTC+14: 10:00 UTC is already tomorrow there
    result = admitted(store, message("/t ver"))
    assert isinstance(result, Admitted)
    assert result.today == date(2026, 11, 23)


def test_a_group_message_makes_the_sender_an_active_member(store: MemoryConversationStore) -> None:
    admitted(store, message("hola"))
    facts = store.sender_facts(phone=ANA, lid=None, group_id=GROUP)
    assert (facts.member_active, facts.member_seen_at, facts.display_name) == (True, NOW, "Ana")


@pytest.mark.parametrize(("lid_only", "chat"), [(False, f"{ANA}@s.whatsapp.net"), (True, "140000000000001@lid")])
def test_the_sender_s_direct_chat_is_their_phone_else_their_lid(store: MemoryConversationStore, lid_only: bool,
                                                                chat: str) -> None:
    msg = message("/t web")
    if lid_only:  # a LID-only participant: the sender is known by the LID
        msg = dataclasses.replace(msg, sender=dataclasses.replace(msg.sender, phone=None, lid="140000000000001"))
    result = admitted(store, msg)
    assert isinstance(result, Admitted)
    assert result.private_chat == chat
