"""Missed chores, reviewed (SPEC section 41), as use cases: a group admin sets the group's penalty; the chores tick
finds the occurrences missed (``MissedTick``: each looked at once, in bounded batches, written one by one with a
compare-and-set); a group admin applies one (its points deducted from the person's balance there) or excuses it.
When an occurrence counts as missed: ``taskcore.chores.missed``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from taskcore.access import GatingMode
from taskcore.chores import missed_texts as texts
from taskcore.chores.missed import MAX_REASON, Missed, MissedState, check_penalty, counts_as_missed
from taskcore.errors import Conflict, Forbidden, NotFound, TaskcoreError
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import speaking
from taskcore.queue_rules import JobKind
from taskcore.services.languages import languages_of
from taskcore.services.people import group_mentions
from taskcore.services.rewards import require_admin, require_member
from taskcore.storage import penalties as q
from taskcore.storage import task_lists as lists
from taskcore.storage.penalties import Candidate
from taskcore.storage.queue import enqueue
from taskcore.storage.rewards import admin_groups
from taskcore.storage.tasks import load_tasks
from taskcore.text import clean_text
from taskcore.unit import Batch, Reading, UnitOfWork
from taskcore.zones import parse_time_zone

NOTICE_LABEL = "notice"
BATCH = 200
BATCHES_PER_TICK = 5  # at most BATCH * BATCHES_PER_TICK occurrences read a tick; the rest at the next one


class AlreadyDecided(Conflict):
    """The missed occurrence was applied or excused already."""

    def __init__(self, missed: Missed) -> None:
        super().__init__(f"missed {missed.id} is {missed.state.value}")
        self.missed = missed


def set_penalty(uow: UnitOfWork, *, group_id: str, user_id: str, points: int, now: datetime) -> int:
    """A group admin sets the group's penalty (0: off); InvalidChoreSetting or NotGroupAdmin first."""
    chosen = check_penalty(points)
    conn = uow.conn
    require_admin(conn, group_id, user_id)
    q.set_penalty(conn, group_id=group_id, points=chosen, by=user_id, now=now)
    return chosen


def group_penalty(uow: Reading, *, group_id: str) -> int:
    """The group's penalty in points (0: off)."""
    found = q.penalty_of(uow.conn, group_id)
    return 0 if found is None else found.points


def _zone(name: str | None, fallback: ZoneInfo) -> ZoneInfo:
    try:
        return fallback if name is None else parse_time_zone(name)
    except TaskcoreError:  # pragma: no cover - a stored zone was valid when it was chosen
        return fallback


_Cursor = tuple[int, int]  # (the last task id read, batches read so far)


@dataclass(frozen=True, slots=True)
class MissedTick:
    """Look at the recurring occurrences past their date in groups with a penalty on, each in a unit of its own (a
    batched use case); ``result``: how many missed occurrences were found. ``zone``: TZ, for groups without one."""

    now: datetime
    zone: ZoneInfo

    def read(self, uow: Reading, after: _Cursor | None) -> Batch[Candidate, _Cursor]:
        """The next BATCH occurrences past their date in UTC's tomorrow (nobody's today is later), less those whose
        date has not passed in their group's calendar yet: those are read again at later minutes but cost no unit."""
        last, batches = after or (0, 0)
        found = q.candidates(uow.conn, due_before=self.now.date() + timedelta(days=1), after=last, limit=BATCH)
        more = len(found) == BATCH and batches + 1 < BATCHES_PER_TICK
        past = [part for part in found if part.due < self._today(part)]
        return Batch(past, (found[-1].task_id, batches + 1) if more else None)

    def _today(self, part: Candidate) -> date:
        return self.now.astimezone(_zone(part.zone, self.zone)).date()

    def write(self, uow: UnitOfWork, part: Candidate, before: Sequence[int]) -> int:
        """Look at one occurrence whose group's day after its date has come: the missed rows it made."""
        zone = _zone(part.zone, self.zone)
        today = self.now.astimezone(zone).date()
        conn = uow.conn
        if not q.mark_looked(conn, part.task_id, self.now):
            return 0
        if not counts_as_missed(part.due, today=today, since=part.since.astimezone(zone).date()):
            return 0
        task = next(iter(load_tasks(conn, [part.task_id])), None)
        if task is None:  # pragma: no cover - marked in this unit, so it exists
            return 0
        who = [person.id for person in task.assignees if not (task.each and person.done)]
        for user_id in who:
            q.add_missed(conn, task_id=task.id, group_id=part.group_id, user_id=user_id, due=part.due,
                         points=part.points, now=self.now)
        return len(who)

    def result(self, outcomes: Sequence[int]) -> int:
        """How many missed occurrences were found."""
        return sum(outcomes)


def waiting_missed(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str | None = None) -> list[Missed]:
    """The missed occurrences waiting for the user's decision: those of the groups they are an admin of (one group,
    or every one of theirs with ``None``), oldest first."""
    conn = uow.conn
    seen = {group.id for group in lists.my_groups(conn, user_id, mode)}
    mine = [group for group in admin_groups(conn, user_id) if group in seen and group_id in (None, group)]
    return q.waiting_in(conn, mine) if mine else []


def _decidable(uow: UnitOfWork, mode: GatingMode, user_id: str, missed_id: int) -> Missed:
    conn = uow.conn
    found = q.missed_by_id(conn, missed_id)
    if found is None:
        raise NotFound("no such missed chore")
    try:
        require_member(conn, mode, found.group_id, user_id)
    except Forbidden as exc:
        raise NotFound("no such missed chore") from exc
    require_admin(conn, found.group_id, user_id)
    if found.state is not MissedState.WAITING:
        raise AlreadyDecided(found)
    return found


def decide_missed(uow: UnitOfWork, mode: GatingMode, *, user_id: str, missed_id: int, apply: bool,
                  reason: str | None, now: datetime) -> Missed:
    """A group admin applies (the points deducted) or excuses (``reason`` optional) a waiting missed occurrence:
    NotFound, NotGroupAdmin, AlreadyDecided."""
    why = None if apply else clean_text(reason or "")[:MAX_REASON] or None
    found = _decidable(uow, mode, user_id, missed_id)
    state = MissedState.APPLIED if apply else MissedState.EXCUSED
    conn = uow.conn
    if not q.decide(conn, missed_id, state, by=user_id, now=now, reason=why):  # pragma: no cover - read above
        raise AlreadyDecided(found)
    return replace(found, state=state, reason=why)



def notice(uow: Reading, done: Missed, *, default_language: str) -> tuple[str, str]:
    """What the person is told of a decided missed chore, in their language, mentioning them as its group does, and
    the JID the mention names."""
    conn = uow.conn
    digits, jid = group_mentions(conn, done.group_id, [done.user_id])[done.user_id]
    with speaking(languages_of(conn, [done.user_id], default_language)[done.user_id]):
        return texts.decided(done, f"@{digits}"), jid


def decide_and_tell(uow: UnitOfWork, mode: GatingMode, *, user_id: str, missed_id: int, apply: bool,
                    reason: str | None, now: datetime, max_attempts: int, default_language: str) -> Missed:
    """``decide_missed`` from the web: the person is told in the group by the bot, queued with the decision."""
    done = decide_missed(uow, mode, user_id=user_id, missed_id=missed_id, apply=apply, reason=reason, now=now)
    text, jid = notice(uow, done, default_language=default_language)
    enqueue(uow.conn, chat_id=done.group_id, kind=JobKind.TEXT, label=NOTICE_LABEL, now=now,
            payload=text_payload(chat_id=done.group_id, text=text, mentioned=[jid]), max_attempts=max_attempts)
    return done
