"""Admitting a message (or an acting reaction) once: everything the road knows of it before deciding what it asks.

The order follows SPEC sections 4, 5, 16 and 18:
1. a message id seen before (per instance) is dropped, so a redelivery never acts twice;
2. in a group, the sighting records or discovers the group; a group that is not served drops the message silently
   (counted), except for ``/admin`` commands, which work everywhere;
3. the sender becomes a user (phone, or LID through the aliases) and, in a served group, an active member; sender,
   alias, membership and group are read in one statement first, and only what changed is written;
4. today is computed in the sender's zone (their ``hoy``, ``mañana``, a rule's first date), and the language of the
   answer: the group's when it chose one, else the sender's (SPEC section 24);
5. the task linked to the quoted (or reacted) message is looked up, only for a command or a reply word;
6. a message that acts (a command, a reply word or reaction on a task's message) takes one token from the sender's
   bucket; a non-admin's ``/admin`` takes its token too and ends here without a word.

Only the first word has been read so far (``chat.decide.family``), so a long message costs no parsing before gating
and the rate limit have had their say.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from taskcore.access import known_sighting
from taskcore.chat.decide import ADMIN_FAMILY
from taskcore.chat.notices import discovery
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult, MetricEvent
from taskcore.conversation import Reply
from taskcore.gateway.events import InboundMessage
from taskcore.identity import needs_rekey, user_jid
from taskcore.languages import effective_language
from taskcore.model import SenderFacts
from taskcore.ratelimit import Decision
from taskcore.services.conversation.store import ConversationStore
from taskcore.zones import ZoneSource, effective_zone, zone_named


@dataclass(frozen=True, slots=True)
class Admitted:
    """A message let in: its sender, their direct chat, the language the reply is written in (the group's, else the
    sender's) and the sender's own (for what they get privately), their today, the quoted message's task, the token the
    message took (None when it does not act), and the group sighting's notices and counts."""

    user_id: str
    private_chat: str
    language: str
    own_language: str
    today: date
    quoted_task: int | None
    token: Decision | None
    found: ChatResult
    metrics: tuple[MetricEvent, ...]
    zone_note: str | None = None  # the zone their dates and times use, to name once (SPEC section 30)


def admit(store: ConversationStore, policy: ChatPolicy, msg: InboundMessage, moment: Moment, *,
          family: str | None, reply: Reply | None, sighted: bool | None = None,
          linked: str | None = None) -> Admitted | ChatResult:
    """Steps 1-6 of the module docstring: the message admitted, or the result it ends with. ``family`` is the
    command family of its first word, ``reply`` what its reply word or reaction asks; ``sighted`` whether the
    caller recorded its id already (None: recorded here); ``linked`` the message whose task it acts on."""
    if sighted is None:
        [sighted] = store.first_sightings([(msg.instance, msg.message_id, moment.now)])
    if not sighted:
        return ChatResult("duplicate")
    phone, lid = msg.sender.phone, msg.sender.lid
    facts = store.sender_facts(phone=phone, lid=lid, group_id=msg.group_id)
    served, found = _sighting(store, policy, msg, moment, facts)
    if not served and family != ADMIN_FAMILY:
        return ChatResult("blocked", found.texts, metrics=found.metrics + blocked(family))
    user_id, via_alias = store.resolve_identity(phone=phone, lid=lid, name=msg.push_name, now=moment.now,
                                                known=facts)
    metrics = found.metrics + ((MetricEvent.IDENTITY_ALIAS_RESOLVED,) if via_alias else ())
    rekeyed = facts.lid_is_user and needs_rekey(facts.lid_is_user, phone, lid)  # most senders are known by phone
    if msg.group_id is not None and served:
        # After a re-key the membership read above may have been merged into another row: it is read afresh.
        store.member_seen(group_id=msg.group_id, user_id=user_id, now=moment.now, known=None if rekeyed else facts)
    chosen = facts.time_zone if user_id == facts.user_id else store.chosen_zone(user_id)
    # Without a choice and a number that tells (a person known only by a LID): the group's zone (SPEC section 32).
    group_zone = facts.group.time_zone if msg.group_id is not None and facts.group is not None else None
    zone = effective_zone(chosen, user_id, zone_named(group_zone, policy.zone))
    today = moment.now.astimezone(zone.zone).date()
    told = user_id != facts.user_id or facts.zone_told or zone.source is ZoneSource.USER  # they know it then
    chosen_language = facts.language if user_id == facts.user_id else store.chosen_languages([user_id]).get(user_id)
    group_language = facts.group.language if msg.group_id is not None and facts.group is not None else None
    # Chosen, else the number's country's, else (a person known only by a LID: SPEC 32) the group's, else the default.
    own = effective_language(chosen_language, user_id, group_language or policy.language)[0]
    quoted = store.task_of_message(linked) if linked and (family or reply) else None
    if family == ADMIN_FAMILY and user_id not in policy.admins:
        moment.tokens.take(user_id)
        return ChatResult("admin command from a non-admin", found.texts,
                          metrics=metrics + (() if served else blocked(family)))
    acts = family is not None or (reply is not None and quoted is not None)
    token = moment.tokens.take(user_id) if acts else None
    return Admitted(user_id, private_chat(msg, user_id, via_alias), group_language or own, own, today, quoted, token,
                    found, metrics, None if told else zone.name)


def _sighting(store: ConversationStore, policy: ChatPolicy, msg: InboundMessage, moment: Moment,
              facts: SenderFacts) -> tuple[bool, ChatResult]:
    """Whether the message's chat is served, and the sighting's notices (a direct chat is always served)."""
    if msg.group_id is None:
        return True, ChatResult("direct")
    sighting = (known_sighting(policy.mode, msg.group_id, facts.group)
                or store.sight_group(policy.mode, msg.group_id, now=moment.now))
    chosen = store.chosen_languages(policy.admins) if sighting.newly_discovered and policy.admins else {}
    if not sighting.newly_discovered:
        return sighting.allowed, ChatResult("known")
    return sighting.allowed, discovery(policy, sighting, languages=chosen)


def blocked(family: str | None) -> tuple[MetricEvent, ...]:
    """What a message ignored in a group that is not served counts: always the message, and the command if any."""
    return (MetricEvent.MESSAGE_BLOCKED_GROUP, *((MetricEvent.COMMAND_BLOCKED,) if family else ()))


def private_chat(msg: InboundMessage, user_id: str, via_alias: bool) -> str:
    """The sender's direct chat: their phone JID when known (directly or through an alias), else their LID JID."""
    if msg.group_id is None:
        return msg.chat_id
    if user_id != msg.sender.lid or via_alias:
        return user_jid(user_id)
    return f"{user_id}@lid"

