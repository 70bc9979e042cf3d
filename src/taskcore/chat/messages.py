"""A text message, from arrival to answer: de-duplication, gating, identity, membership, rate limit, command.

The order matters and follows SPEC sections 4 and 5:
1. a message id seen before (per instance) is dropped, so a redelivery never acts twice;
2. in a group, the sighting records or discovers the group; a group that is not served drops the message silently
   (counted), except for ``/admin`` commands, which work everywhere;
3. the sender becomes a user (phone, or LID through the aliases) and, in a served group, an active member;
4. ordinary chat ends there; a command takes a token from the sender's bucket (a non-admin's ``/admin`` too, which
   is then ignored without a word, and counted as blocked in a group that is not served), and an empty bucket gets
   one notice per empty spell;
5. only then is the command parsed (a text over MAX_COMMAND_LENGTH is refused unparsed) and run; its reply quotes
   it, and a robot or warn reaction marks it. A reply quoting a message linked to a task (SPEC section 18) lends
   that task to the commands written without an id; a reply that is only ``hecho``, ``yo``... is such a command,
   and any other chat stays chat (the link is looked up only for those words, after gating).

Until step 5 only the first word is read (``command_family``), so a long message costs no parsing before gating
and the rate limit have had their say (SPEC section 16).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from taskcore.chat import replies
from taskcore.chat.admin import ADMIN_COMMANDS, is_admin
from taskcore.chat.commands import CommandSyntaxError, command_for
from taskcore.chat.grammar import parse_command
from taskcore.chat.heads import command_family
from taskcore.chat.membership import discovery
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult, Mention, MetricEvent, OutgoingText, reply_to
from taskcore.chat.tasks import CHECKED_FIRST, TASK_COMMANDS
from taskcore.chat.transaction import savepoint
from taskcore.chat.turn import Answer, Turn, rejected
from taskcore.chat.usage import MAX_COMMAND_LENGTH
from taskcore.conversation import classify_reply_word
from taskcore.errors import TaskcoreError
from taskcore.gateway.inbound import InboundMessage
from taskcore.identity import user_jid
from taskcore.reactions import ROBOT, WARN, ReactionRequest
from taskcore.services.groups import see_known_group
from taskcore.services.identities import Resolution, SenderFacts, read_sender, resolve_user
from taskcore.services.links import task_for_message
from taskcore.services.members import member_seen
from taskcore.services.sightings import first_sighting
from taskcore.services.zones import user_zone
from taskcore.storage.db import Database
from taskcore.zones import effective_zone

ADMIN_FAMILY = "admin"


def parse(msg: InboundMessage, moment: Moment, quoted_task: int | None = None) -> Any:
    """The command in the message, a CommandSyntaxError for a malformed one, or None for ordinary chat;
    ``quoted_task`` is the task the quoted message is linked to."""
    try:
        return parse_command(msg.text, today=moment.today, mentioned=msg.mentioned_digits, quoted_task=quoted_task)
    except CommandSyntaxError as exc:
        return exc


@dataclass(frozen=True, slots=True)
class Arrival:
    """A message (or reaction) let in: its resolved sender, and what the group's sighting announced and counted."""

    who: Resolution
    served: bool
    found: ChatResult
    metrics: tuple[MetricEvent, ...]
    today: date
    """Today in the sender's time zone."""

    def turn(self, db: Database, policy: ChatPolicy, moment: Moment, msg: InboundMessage, **extra: Any) -> Turn:
        """The turn of the sender's command, whose dates are the sender's (``today`` in their zone)."""
        return Turn(db, policy, moment.on_day(self.today), msg, self.who.user_id, private_chat(msg, self.who), **extra)

    def chat(self, outcome: str = "chat") -> ChatResult:
        """The message was ordinary chat: only the sighting's notices and counts."""
        return ChatResult(outcome, self.found.texts, metrics=self.metrics)

    def with_command(self, result: ChatResult) -> ChatResult:
        """A command's result, with the sighting's notices and counts."""
        return result.plus(texts=self.found.texts, metrics=self.metrics)


def handle_message(db: Database, policy: ChatPolicy, msg: InboundMessage, moment: Moment, *,
                   sighted: bool | None = None) -> ChatResult:
    """Everything one text message causes (see the module docstring), as a result to deliver and count.
    ``sighted``: whether the caller recorded the message id for the first time already (None: recorded here)."""
    if sighted is None:
        sighted = first_sighting(db, instance=msg.instance, message_id=msg.message_id, now=moment.now)
    if not sighted:
        return ChatResult("duplicate")
    family = command_family(msg.text)
    arrived = arrive(db, policy, msg, moment, family=family)
    if isinstance(arrived, ChatResult):
        return arrived
    if family is None:
        return _reply_word(db, policy, msg, moment, arrived)
    return arrived.with_command(_command(arrived.turn(db, policy, moment, msg), family, served=arrived.served))


def arrive(
    db: Database, policy: ChatPolicy, msg: InboundMessage, moment: Moment, *, family: str | None
) -> Arrival | ChatResult:
    """Steps 2 and 3: the group's sighting (a ChatResult when the message stops there) and the sender.

    Sender, alias, membership and group are read in one statement first; only what changed is written then."""
    phone, lid = msg.sender.phone, msg.sender.lid
    facts = read_sender(db, phone=phone, lid=lid, group_id=msg.group_id)
    served, found = True, ChatResult("direct")
    if msg.group_id is not None:
        sighting = see_known_group(db, policy.mode, group_id=msg.group_id, snap=facts.group, now=moment.now)
        served, found = sighting.allowed, discovery(policy, sighting)
        if not served and family != ADMIN_FAMILY:
            return ChatResult("blocked", found.texts, metrics=found.metrics + _blocked(family))
    who = resolve_user(db, phone=phone, lid=lid, name=msg.push_name, now=moment.now, known=facts)
    metrics = found.metrics + ((MetricEvent.IDENTITY_ALIAS_RESOLVED,) if who.via_alias else ())
    if msg.group_id is not None and served:
        # After a re-key the membership read above may have been merged into another row: read it afresh.
        known = None if facts.needs_rekey(phone, lid) else facts
        member_seen(db, group_id=msg.group_id, user_id=who.user_id, now=moment.now, known=known)
    # A command's dates (hoy, mañana, a rule's first date) are the sender's: today in their zone (SPEC section 21).
    return Arrival(who, served, found, metrics, _sender_today(db, policy, moment, facts, who.user_id))


def _reply_word(db: Database, policy: ChatPolicy, msg: InboundMessage, moment: Moment, arrived: Arrival) -> ChatResult:
    """Ordinary chat, unless it is a whole-message word (``hecho``, ``yo``...) replying to a task's message."""
    action = classify_reply_word(msg.text) if msg.quoted_id else None
    task_id = task_for_message(db, message_id=msg.quoted_id) if action and msg.quoted_id else None
    if action is None or task_id is None:
        return arrived.chat()
    return arrived.with_command(act(arrived.turn(db, policy, moment, msg), command_for(action, task_id)))


def _sender_today(db: Database, policy: ChatPolicy, moment: Moment, facts: SenderFacts, user_id: str) -> date:
    """Today in the sender's zone, from the facts read first; after a re-key, read afresh."""
    if user_id == facts.user_id:
        zone = effective_zone(facts.time_zone, user_id, policy.zone)
    else:
        zone = user_zone(db, user_id=user_id, fallback=policy.zone)
    return moment.now.astimezone(zone.zone).date()


def _blocked(family: str | None) -> tuple[MetricEvent, ...]:
    """What a message ignored in a group that is not served counts: always the message, and the command if any."""
    return (MetricEvent.MESSAGE_BLOCKED_GROUP, *((MetricEvent.COMMAND_BLOCKED,) if family else ()))


def private_chat(msg: InboundMessage, who: Resolution) -> str:
    """The sender's direct chat: their phone JID when known (directly or through an alias), else their LID JID."""
    if msg.group_id is None:
        return msg.chat_id
    if who.user_id != msg.sender.lid or who.via_alias:
        return user_jid(who.user_id)
    return f"{who.user_id}@lid"


def _command(turn: Turn, family: str, *, served: bool) -> ChatResult:
    if family == ADMIN_FAMILY and not is_admin(turn):
        turn.moment.take_token(turn.user_id)
        return ChatResult("admin command from a non-admin", metrics=() if served else _blocked(family))
    return _answered(turn, lambda: _answer(turn))


def act(turn: Turn, command: Any) -> ChatResult:
    """A command already known (a reply word or a reaction on a task's message): the rate limit, then as parsed."""
    return _answered(turn, lambda: (command.name, _run(turn, command)))


def _answered(turn: Turn, answer_of: Callable[[], tuple[str, Answer]]) -> ChatResult:
    """Take the sender's token; then the answer, its reply (quoting the command, or ``turn.quote``) and its mark."""
    decision = turn.moment.take_token(turn.user_id)
    if not decision.allowed:
        notice = (_reply(turn, replies.throttled(decision.retry_after)),) if decision.notify else ()
        return ChatResult("throttled", notice)
    name, answer = answer_of()
    mark = ReactionRequest(turn.msg.chat_id, turn.msg.message_id, turn.msg.participant, ROBOT if answer.ok else WARN,
                           dedupe_key=f"command:{turn.msg.instance}:{turn.msg.message_id}")
    reply = reply_to(turn.msg, answer.text, answer.mentions, quote=turn.quote, label=answer.label,
                     task_id=answer.task_id)
    return ChatResult(
        f"{name} {'done' if answer.ok else 'rejected'}",
        texts=(reply, *answer.extra),
        reactions=(*answer.reactions, *((mark,) if turn.marks else ())),
        metrics=answer.metrics,
    )


def _reply(turn: Turn, text: str, mentions: tuple[Mention, ...] = ()) -> OutgoingText:
    return reply_to(turn.msg, text, mentions, quote=turn.quote)


def _answer(turn: Turn) -> tuple[str, Answer]:
    """The command's name (for the outcome) and its answer; a text too long to be a command is not parsed at all."""
    if len(turn.msg.text) > MAX_COMMAND_LENGTH:
        return "too long", rejected(replies.TOO_LONG)
    quoted = turn.msg.quoted_id
    parsed = parse(turn.msg, turn.moment, task_for_message(turn.db, message_id=quoted) if quoted else None)
    if isinstance(parsed, CommandSyntaxError):
        return "syntax", rejected(str(parsed))
    return parsed.name, _run(turn, parsed)


def _run(turn: Turn, command: Any) -> Answer:
    run = TASK_COMMANDS.get(type(command)) or ADMIN_COMMANDS[type(command)]
    try:
        if type(command) in CHECKED_FIRST:
            return run(turn, command)
        with savepoint(turn.db):
            return run(turn, command)
    except TaskcoreError:
        return rejected(replies.FAILED)
