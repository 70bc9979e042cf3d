"""A text message or a reaction on its road: admitted, decided, acted on, answered (docs/architecture.md).

``handle_message`` reads the first word (``chat.decide.family``), admits the message (``admission.admit``: the
duplicate check, gating, the sender, their day, the quoted task and their token), decides what it asks
(``chat.decide.decide``, pure), runs its one use case (``registry.act``) and renders the answer (``chat.render``).

``handle_reaction`` does the same for a reaction (SPEC section 18): only those that act are admitted (✅ on a task's
message completes it, ✋ claims it); removing a reaction, other emoji and the bot's own reactions (the gateway
parsing drops those) do nothing at all, and nothing is written. The reply quotes the reacted message and mentions
the reactor; a reaction gets no 🤖/⚠️ of its own.
"""

from __future__ import annotations

from dataclasses import replace

from taskcore.chat import locale_replies
from taskcore.chat.chore_commands import SetAway
from taskcore.chat.commands import Command, NewTask, SetDue
from taskcore.chat.decide import Chat, Decision, Throttled, decide, head_of
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.render import render, render_throttled
from taskcore.chat.result import ChatResult
from taskcore.chat.send_cap import capped
from taskcore.conversation import classify_reaction_emoji
from taskcore.gateway.events import InboundMessage, InboundReaction
from taskcore.gateway.outbound import Quote
from taskcore.i18n import speaking
from taskcore.identity import user_jid
from taskcore.phones import phone_region
from taskcore.services.conversation.admission import Admitted, admit
from taskcore.services.conversation.registry import SYNTAX, act
from taskcore.services.conversation.store import ConversationUnit
from taskcore.services.conversation.turn import Turn


def handle_message(uow: ConversationUnit, policy: ChatPolicy, msg: InboundMessage, moment: Moment, *,
                   sighted: bool | None = None) -> ChatResult:
    """Everything one text message causes, as a result to queue and count; ``sighted``: whether the caller
    recorded the message id for the first time already (None: recorded here)."""
    head, reply = head_of(msg.text, msg.quoted_id)
    admitted = admit(uow, policy, msg, moment, family=head, reply=reply, sighted=sighted, linked=msg.quoted_id)
    if isinstance(admitted, ChatResult):
        return admitted
    with speaking(admitted.language, region=phone_region(admitted.user_id)):
        mentioned = msg.mentioned_digits if msg.mentioned else ()
        decision = decide(msg.text, head, SYNTAX, today=admitted.today, quoted_task=admitted.quoted_task, reply=reply,
                          mentioned=mentioned, token=admitted.token, in_group=msg.group_id is not None)
        return answer(Turn(uow, policy, moment, msg, admitted.user_id, admitted.private_chat, admitted.today,
                           language=admitted.language, own_language=admitted.own_language),
                      admitted, decision)


def handle_reaction(uow: ConversationUnit, policy: ChatPolicy, reaction: InboundReaction, moment: Moment) -> ChatResult:
    """Everything one reaction causes (module docstring)."""
    if not policy.reaction_commands:
        return ChatResult("reaction commands off")
    action = classify_reaction_emoji(reaction.emoji)
    if action is None:
        return ChatResult("reaction removed" if not reaction.emoji else "reaction ignored")
    msg = as_message(reaction)
    admitted = admit(uow, policy, msg, moment, family=None, reply=action, linked=reaction.reacted.message_id)
    if isinstance(admitted, ChatResult):
        return admitted
    if admitted.quoted_task is None:
        return ChatResult("reaction on a message of no task", admitted.found.texts, metrics=admitted.metrics)
    decision = decide("", None, SYNTAX, today=admitted.today, quoted_task=admitted.quoted_task, reply=action,
                      token=admitted.token)
    turn = Turn(uow, policy, moment, msg, admitted.user_id, admitted.private_chat, admitted.today,
                quote=reacted_quote(reaction), marks=False, language=admitted.language,
                own_language=admitted.own_language)
    with speaking(admitted.language, region=phone_region(admitted.user_id)):
        return answer(turn, admitted, decision)


def answer(turn: Turn, admitted: Admitted, decision: Decision) -> ChatResult:
    """The decision acted on (``turn``: the admitted sender's command) and rendered, with the sighting's notices
    and counts; ordinary chat has only those."""
    if isinstance(decision, Chat):
        return ChatResult("chat", admitted.found.texts, metrics=admitted.metrics)
    if isinstance(decision, Throttled):
        answered = render_throttled(turn.msg, decision, quote=turn.quote)
    else:
        name, result = act(turn, decision)
        if admitted.zone_note is not None and result.ok and _uses_zone(decision):
            result = replace(result, text=f"{result.text}\n{locale_replies.zone_used(admitted.zone_note)}")
            turn.uow.zone_told(user_id=turn.user_id, now=turn.moment.now)
        answered = render(turn.msg, name, result, quote=turn.quote, marks=turn.marks)
        if answered.texts or answered.reactions:
            sends = turn.moment.sends.take(turn.user_id)
            if not sends.allowed:
                changed = result.ok and isinstance(decision, Command) and decision.changes
                answered = capped(answered, sends, turn.msg, changed=changed, quote=turn.quote)
    return ChatResult(answered.outcome, answered.texts + admitted.found.texts, answered.reactions,
                      answered.metrics + admitted.metrics)


def as_message(reaction: InboundReaction) -> InboundMessage:
    """The reaction as a message without text: its sender, chat and id, quoting the reacted message."""
    return InboundMessage(
        instance=reaction.instance, message_id=reaction.message_id, chat_id=reaction.chat_id,
        group_id=reaction.group_id, sender=reaction.sender, participant=reaction.participant,
        push_name=reaction.push_name, text="", mentioned=(), sent_at=reaction.sent_at, bot_id=reaction.bot_id,
        quoted_id=reaction.reacted.message_id,
    )


def reacted_quote(reaction: InboundReaction) -> Quote:
    """The reacted message as the reply quotes it: the bot's own when ``fromMe``; in a group, its author as the key
    names them, else the bot's number."""
    reacted = reaction.reacted
    author = reacted.participant
    if author is None and reacted.from_me and reaction.group_id and reaction.bot_id:
        author = user_jid(reaction.bot_id)
    return Quote(reacted.message_id, reaction.chat_id, from_me=reacted.from_me,
                 participant=author if reaction.group_id else None)


def _uses_zone(decision: Decision) -> bool:
    """A command whose date was read in the sender's zone (``mañana`` is tomorrow there: SPEC section 30, the first
    such reply names the zone); the replies about times (reminders, quiet hours) name it every time anyway."""
    if isinstance(decision, NewTask | SetDue):
        return decision.due is not None
    return isinstance(decision, SetAway)
