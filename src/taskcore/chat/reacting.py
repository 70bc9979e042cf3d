"""A reaction in the conversation (SPEC section 18): ✅ on a task's message completes it, ✋ claims it.

Only the reactions that act are handled: removing a reaction, any other emoji and the bot's own reactions (the
gateway parsing drops those) do nothing at all, and nothing is written. An acting one goes the way of a command:
de-duplication, gating, the sender and their membership, the task linked to the reacted message (none: nothing
happens), the rate limit, the use case; the reply quotes the reacted message and mentions the reactor.
"""

from __future__ import annotations

from typing import Any

from taskcore.chat.commands import command_for
from taskcore.chat.messages import act, arrive
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult
from taskcore.conversation import classify_reaction_emoji
from taskcore.gateway.inbound import InboundMessage, InboundReaction
from taskcore.gateway.wire import quoted_reference
from taskcore.identity import user_jid
from taskcore.services.links import task_for_message
from taskcore.services.sightings import first_sighting
from taskcore.storage.db import Database


def handle_reaction(db: Database, policy: ChatPolicy, reaction: InboundReaction, moment: Moment) -> ChatResult:
    """Everything one reaction causes (see the module docstring)."""
    if not policy.reaction_commands:
        return ChatResult("reaction commands off")
    action = classify_reaction_emoji(reaction.emoji)
    if action is None:
        return ChatResult("reaction removed" if not reaction.emoji else "reaction ignored")
    if not first_sighting(db, instance=reaction.instance, message_id=reaction.message_id, now=moment.now):
        return ChatResult("duplicate")
    msg = as_message(reaction)
    arrived = arrive(db, policy, msg, moment, family=None)
    if isinstance(arrived, ChatResult):
        return arrived
    task_id = task_for_message(db, message_id=reaction.reacted.message_id)
    if task_id is None:
        return arrived.chat("reaction on a message of no task")
    turn = arrived.turn(db, policy, moment, msg, quote=reacted_quote(reaction), marks=False)
    return arrived.with_command(act(turn, command_for(action, task_id)))


def as_message(reaction: InboundReaction) -> InboundMessage:
    """The reaction as a message without text: its sender, chat and id, quoting the reacted message."""
    return InboundMessage(
        instance=reaction.instance, message_id=reaction.message_id, chat_id=reaction.chat_id,
        group_id=reaction.group_id, sender=reaction.sender, participant=reaction.participant,
        push_name=reaction.push_name, text="", mentioned=(), sent_at=reaction.sent_at, bot_id=reaction.bot_id,
        quoted_id=reaction.reacted.message_id,
    )


def reacted_quote(reaction: InboundReaction) -> dict[str, Any]:
    """The sendText ``quoted`` of the reacted message: its key (the bot's own when ``fromMe``; in a group, its
    author as the key names them, else the bot's number)."""
    reacted = reaction.reacted
    author = reacted.participant
    if author is None and reacted.from_me and reaction.group_id and reaction.bot_id:
        author = user_jid(reaction.bot_id)
    return quoted_reference(chat_id=reaction.chat_id, message_id=reacted.message_id, from_me=reacted.from_me,
                            participant=author if reaction.group_id else None)
