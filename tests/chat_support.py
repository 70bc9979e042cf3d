"""Reading what the chat left behind: queued outbound rows, tasks, memberships, aliases; and running one event."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.chat import ChatPolicy, ChatResult, Moment
from taskcore.chat.commands import CommandSyntaxError
from taskcore.chat.usage import refusal
from taskcore.gateway.events import DeliveryStatus, Echo, SentMessage, StatusUpdate
from taskcore.gateway.evolution.decode import CODEC as EVOLUTION
from taskcore.gateway.evolution.decode import decode as evolution_decode
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.ratelimit import Decision
from taskcore.reactions import ReactionPolicy
from taskcore.services.conversation.registry import accepted
from taskcore.services.conversation.road import chat_key, handle_arrived, handle_inbox
from taskcore.services.inbox import NewEvent
from taskcore.storage import inbox as inbox_rows
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.unit import SqlUnit
from taskcore.storage.users import ensure_user
from tests.builders import GROUP, NOW, make_group

T = TypeVar("T")
CODECS = {EVOLUTION.name: EVOLUTION}
"""The decoders the road reads stored events with (Evolution API's: the tests' webhook bodies are its)."""


@dataclass(frozen=True)
class Queued:
    """One outbound_queue row, payload decoded."""

    id: int
    chat_id: str
    kind: str
    label: str | None
    payload: dict[str, Any]
    max_attempts: int

    @property
    def text(self) -> str:
        """The text of a text job."""
        return str(self.payload["text"])

    @property
    def emoji(self) -> str:
        """The emoji of a reaction job."""
        return str(self.payload["emoji"])


def queued(db: Database, *, after: int = 0) -> list[Queued]:
    """Every queued job with an id above ``after``, in order."""
    oq = schema.outbound_queue
    with db.read() as conn:
        rows = conn.execute(select(oq).where(oq.c.id > after).order_by(oq.c.id)).all()
    return [Queued(r.id, r.chat_id, r.kind, r.label, json.loads(r.payload), r.max_attempts) for r in rows]


def texts(db: Database, *, after: int = 0) -> list[str]:
    """The texts of the queued text jobs."""
    return [job.text for job in queued(db, after=after) if job.kind == "text"]


def reactions(db: Database, *, after: int = 0) -> list[str]:
    """The emoji of the queued reaction jobs."""
    return [job.emoji for job in queued(db, after=after) if job.kind == "reaction"]


def last_id(db: Database) -> int:
    """The highest queue id so far (0 when empty)."""
    jobs = queued(db)
    return jobs[-1].id if jobs else 0


def task_rows(db: Database) -> list[Any]:
    """Every task row, by id."""
    with db.read() as conn:
        return list(conn.execute(select(schema.tasks).order_by(schema.tasks.c.id)).all())


def assignees(db: Database, task_id: int) -> set[str]:
    """The user ids assigned to a task."""
    ta = schema.task_assignments
    with db.read() as conn:
        return set(conn.execute(select(ta.c.user_id).where(ta.c.task_id == task_id)).scalars())


def member(db: Database, group_id: str, user_id: str) -> Any:
    """The membership row, or None."""
    gm = schema.group_members
    with db.read() as conn:
        return conn.execute(select(gm).where(gm.c.group_id == group_id, gm.c.user_id == user_id)).one_or_none()


def group_status(db: Database, group_id: str) -> str | None:
    """The stored access status of a group, or None."""
    ag = schema.allowed_groups
    with db.read() as conn:
        return conn.execute(select(ag.c.status).where(ag.c.group_id == group_id)).scalar_one_or_none()


def alias_of(db: Database, alias: str) -> str | None:
    """The user an alias stands for."""
    ia = schema.identity_aliases
    with db.read() as conn:
        return conn.execute(select(ia.c.user_id).where(ia.c.alias == alias)).scalar_one_or_none()


def policy(mode: str = "off", *, admins: tuple[str, ...] = (), web: str | None = "https://tareas.example",
           reactions_on: bool = False, notify: bool = True) -> ChatPolicy:
    """A chat policy with the usual test values."""
    return ChatPolicy(mode=GatingMode(mode), admins=frozenset(admins), notify_admins_on_discovery=notify,
                      web_base_url=web, max_attempts=6, reactions=ReactionPolicy(enabled=reactions_on))


@dataclass
class Tokens:
    """A stand-in for the bot's rate limiter: allows everything until told otherwise; records who asked."""

    answers: list[Decision] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)

    def take(self, user_id: str) -> Decision:
        """The next scripted decision, else allowed."""
        self.asked.append(user_id)
        return self.answers.pop(0) if self.answers else Decision(allowed=True)


def run(db: Database, payload: dict[str, Any], rules: ChatPolicy | None = None, *, now: datetime = NOW,
        tokens: Tokens | None = None, sync: Callable[[], None] | None = None) -> ChatResult:
    """Parse one webhook payload and handle it as the bot would: through the road's arrival (stored and handled in
    one unit of work), or, behind a chat's pending events, through the inbox."""
    moment = Moment(now, tokens or Tokens(), sync)
    [result] = run_all(db, [payload], rules, moment=moment)
    if isinstance(result, Exception):
        raise result
    return result


def run_all(db: Database, payloads: list[dict[str, Any]], rules: ChatPolicy | None = None, *,
            moment: Moment | None = None) -> list[ChatResult | Exception]:
    """Events that arrive together, as the webhook's group commit hands them to the road; those stored pending (a
    chat with earlier events waiting, or a batch one of whose events broke) are then handled as the processor
    would. The result of each, in their order: what it produced, or the exception it failed with."""
    at = moment or Moment(NOW, Tokens())
    items = [(NewEvent(chat_key(event), "messages.upsert", None, json.dumps(p)), event, at)
             for p, event in ((p, parse_event(p)) for p in payloads)]
    arrived = handle_arrived(db, rules or policy(), items)
    results: dict[int, ChatResult | Exception] = {h.row.id: h.result for h in arrived.handled}
    for _ in range(len(payloads)):
        if len(results) == len(payloads):
            break
        results.update((h.row.id, h.result) for h in handle_inbox(db, rules or policy(), lambda _row: at,
                                                                  limit=len(payloads), codecs=CODECS))
    return [results[row_id] for row_id in arrived.ids]


def in_one_unit(db: Database, work: Callable[[SqlUnit], T]) -> T:
    """``work`` in one unit of work of ``db``, committed, as the road runs an event."""
    with db.unit() as uow:
        done = work(uow)
        uow.commit()
        return done


def said(error: CommandSyntaxError) -> str:
    """The reply a malformed command gets, as the conversation writes it: why, then the accepted form."""
    return refusal(error, accepted(error.command))


def accepted_of(error: CommandSyntaxError) -> str:
    """The accepted form the reply to ``error`` shows: the command's usage, with the date or rule forms it asks."""
    return said(error).split("\nUso: ", 1)[1]


def store_events(db: Database, events: list[NewEvent], *, now: datetime, wait_ms: int | None = None) -> list[int]:
    """Store ``events`` pending in the inbox, as the webhook leaves the events of a chat with earlier ones waiting,
    in one unit of work that waits at most ``wait_ms`` for the database; their ids."""
    with db.unit(wait_ms=wait_ms) as uow:
        ids = inbox_rows.insert_events(uow.conn, events, now=now)
        uow.commit()
        return ids


def parse_status(payload: dict[str, Any], *, path_event: str | None = None) -> tuple[StatusUpdate, ...]:
    """The statuses an Evolution API webhook body reports (none for any other event)."""
    event = evolution_decode(payload, path_event=path_event)
    return event.updates if isinstance(event, DeliveryStatus) else ()


def parse_echo(payload: dict[str, Any], *, path_event: str | None = None) -> SentMessage | None:
    """The sent message an Evolution API ``send.message`` body reports (None for any other event)."""
    event = evolution_decode(payload, path_event=path_event)
    return event.sent if isinstance(event, Echo) and event.api else None


def household(db: Database, people: tuple[tuple[str, str], ...], *, group: str = GROUP,
              name: str = "Casa") -> Database:
    """A group named ``name`` whose members are ``people`` (id, name), each known by that name."""
    make_group(db, group, name=name, members=tuple(user for user, _name in people))
    with db.write() as conn:
        for user, shown in people:
            ensure_user(conn, user, NOW, name=shown)
    return db
