"""The reminder tick's queries (SPEC sections 10 and 21): the preferences whose next look has come, their next
plans, the digest of many users at once, and the delivery ledger (one row per user and slot, claimed by whoever
queues it).

Each preference carries the instant (UTC) of its next look, indexed, so a tick reads only the rows due now whatever
zones the users live in, and a quiet minute costs one empty index search. The digests are read for a chunk of users with
two statements (their dated open tasks; the unassigned tasks of their groups), not three per user: a user with
nothing open costs nothing beyond their share of the two.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date, datetime
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import (
    BindParameter,
    Connection,
    Integer,
    Select,
    Text,
    and_,
    bindparam,
    exists,
    false,
    func,
    literal_column,
    or_,
    select,
    true,
    union_all,
    update,
)

from taskcore.access import GatingMode, GroupStatus
from taskcore.errors import ValidationError
from taskcore.reminders.slots import SavedPreference
from taskcore.storage.prepared import Prepared, dialect_insert
from taskcore.storage.schema import (
    UtcDateTime,
    allowed_groups,
    group_members,
    groups,
    reminder_deliveries,
    task_assignments,
    tasks,
    user_preferences,
)

DELIVERY_OUTCOMES = frozenset({"sent", "empty", "late"})
p, rd = user_preferences, reminder_deliveries
t, ta, gm, ag, g = tasks, task_assignments, group_members, allowed_groups, groups


class DigestTask(NamedTuple):
    """One line of a reminder digest."""

    id: int
    description: str
    due_date: date | None
    group_name: str | None


def _due_statement(*, after: bool) -> Prepared:
    due_at = p.c.next_due_at
    query = select(p.c.user_id, p.c.freq, p.c.time, p.c.tz, due_at, p.c.updated_at, p.c.quiet_from, p.c.quiet_to,
                   p.c.away_until, p.c.lang).where(
        due_at <= bindparam("now", type_=UtcDateTime()))
    keys = ["now", "limit", "skip"]  # an OFFSET bound too: SQLite's compiler adds a literal one to a bound LIMIT
    if after:
        at, user = bindparam("at", type_=UtcDateTime()), bindparam("user", type_=Text())
        query = query.where(or_(due_at > at, and_(due_at == at, p.c.user_id > user)))
        keys += ["at", "user"]
    query = query.order_by(due_at, p.c.user_id)
    return Prepared(query.limit(bindparam("limit", type_=Integer())).offset(bindparam("skip", type_=Integer())), keys)


# Prepared (storage/prepared.py): the 08:30 peak reads thousands of rows, and SQLAlchemy's result objects cost
# more than the search.
_DUE_FROM_START, _DUE_AFTER = _due_statement(after=False), _due_statement(after=True)


def due_preferences(
    conn: Connection, *, now: datetime, after: tuple[datetime, str] | None, limit: int
) -> list[SavedPreference]:
    """Up to ``limit`` preferences whose next look (``next_due_at``) has come by ``now``, in (next_due_at, user_id)
    order, from after the key ``after`` on: one range search of the index, however many users there are. Each row
    carries its quiet hours and away date (SPEC section 25), so the tick holds or skips without another query."""
    if after is None:
        rows = _DUE_FROM_START.all(conn, {"now": now, "limit": limit, "skip": 0})
    else:
        rows = _DUE_AFTER.all(conn, {"now": now, "limit": limit, "skip": 0, "at": after[0],
                                         "user": after[1]})
    return [SavedPreference(*row) for row in rows]


_PLAN_NEXT = Prepared(
    update(p)
    .where(p.c.user_id == bindparam("u", type_=Text()), p.c.updated_at == bindparam("seen", type_=UtcDateTime()))
    .values(next_due_at=bindparam("n", type_=UtcDateTime())), ["u", "seen", "n"])


def plan_next(conn: Connection, plans: Sequence[tuple[str, datetime, datetime | None]]) -> None:
    """Set the next look of each (user, updated_at as read, next_due_at), unless the row was saved again since it
    was read (its new plan starts from that save)."""
    _PLAN_NEXT.run_rows(conn, plans)


def _member_of(mode: GatingMode, group_id: Any, user_id: Any) -> Any:
    """The user is an active member of the group, and the group is allowed unless gating is off."""
    condition: Any = exists().where(gm.c.group_id == group_id, gm.c.user_id == user_id, gm.c.active == true())
    if mode is not GatingMode.OFF:
        allowed = exists().where(ag.c.group_id == group_id, ag.c.status == GroupStatus.ALLOWED.value)
        condition = and_(condition, allowed)
    return condition


# The users of a digest statement, bound one by one: statements compiled once for each size, a power of two up to
# _IN_MAX, and run lean (``Prepared``): SQLAlchemy's expanding IN renders the statement and converts its 2,000 values
# again on every call (a fifth of the digests' CPU at the peak). Each statement is built when compiled and then
# dropped: kept, its thousands of bound parameters would be walked by every full garbage collection of the process.
_IN_MAX = 2048
_IN_NAMES = tuple(f"u{i}" for i in range(_IN_MAX))


def _in_pieces(values: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """``values`` in pieces of at most _IN_MAX, each padded with its last value to a power of two (an IN list reads a
    repeated value once): its size and its parameters."""
    for first in range(0, len(values), _IN_MAX):
        piece = list(values[first : first + _IN_MAX])
        size = 1 << (len(piece) - 1).bit_length()
        yield size, dict(zip(_IN_NAMES[:size], piece + [piece[-1]] * (size - len(piece)), strict=True))


def _in_list(size: int) -> list[BindParameter[str]]:
    return [bindparam(name, type_=Text()) for name in _IN_NAMES[:size]]


@lru_cache(maxsize=48)
def _digest_statement(mode: GatingMode, size: int) -> Prepared:
    return Prepared(lambda _: _digest_query(mode, size), [*_IN_NAMES[:size], "until"])


def _digest_query(mode: GatingMode, size: int) -> Select[Any]:
    users = _in_list(size)
    # A part already done is not listed (SPEC 19); in the any mode no part is ever marked done.
    assigned = select(ta.c.user_id.label("user_id"), ta.c.task_id.label("task_id"),
                      false().label("created")).where(ta.c.user_id.in_(users), ta.c.done_at.is_(None))
    # Tasks they created and are not assigned to; whether personal is checked outside, so that the planner looks
    # them up by creator (on "group_id IS NULL" SQLite would walk every personal task of every user).
    created = select(t.c.created_by.label("user_id"), t.c.id.label("task_id"), true().label("created")).where(
        t.c.created_by.in_(users), t.c.completed == false(),
        ~exists().where(ta.c.task_id == t.c.id, ta.c.user_id == t.c.created_by))
    mine = union_all(assigned, created).subquery("mine")
    return (
        select(mine.c.user_id, t.c.id, t.c.description, t.c.due_date, g.c.name)
        .select_from(mine.join(t, t.c.id == mine.c.task_id).outerjoin(g, g.c.id == t.c.group_id))
        .where(t.c.completed == false(), t.c.due_date.is_not(None),
               t.c.due_date <= bindparam("until", type_=Text()),
               or_(t.c.group_id.is_(None), and_(mine.c.created == false(),
                                                 _member_of(mode, t.c.group_id, mine.c.user_id))))
        .order_by(mine.c.user_id, t.c.due_date, t.c.id)
    )


def digest_tasks(
    conn: Connection, user_ids: Sequence[str], mode: GatingMode, *, until: date
) -> dict[str, list[DigestTask]]:
    """Each user's open visible tasks (assigned to them, or personal and theirs) due on or before ``until``, overdue
    included, by due date then id; users with none are left out."""
    found: dict[str, list[DigestTask]] = {}
    for size, users in _in_pieces(user_ids):
        rows = _digest_statement(mode, size).all(conn, {**users, "until": until.isoformat()})
        for user_id, task_id, description, due, group_name in rows:
            found.setdefault(user_id, []).append(
                DigestTask(int(task_id), description, date.fromisoformat(due) if due else None, group_name))
    return found


@lru_cache(maxsize=48)
def _memberships_statement(mode: GatingMode, size: int) -> Prepared:
    return Prepared(lambda _: _memberships_query(mode, size), _IN_NAMES[:size])


def _memberships_query(mode: GatingMode, size: int) -> Select[Any]:
    query = select(gm.c.user_id, gm.c.group_id).where(gm.c.user_id.in_(_in_list(size)), gm.c.active == true())
    if mode is not GatingMode.OFF:
        query = query.join(ag, and_(ag.c.group_id == gm.c.group_id, ag.c.status == GroupStatus.ALLOWED.value))
    return query


@lru_cache(maxsize=16)
def _unassigned_statement(size: int) -> Prepared:
    return Prepared(lambda _: _unassigned_query(size), _IN_NAMES[:size])


def _unassigned_query(size: int) -> Select[Any]:
    # Bounding the key's second column (true of every row: any text is >= '') makes SQLite probe the primary key
    # (task_id, user_id), index only, not ix_task_assignments_task_order and its rows, twice the pages: at the peak
    # a probe for each open task of each due member's groups, a third of this statement's CPU.
    assigned = select(ta.c.task_id).where(ta.c.task_id == t.c.id, ta.c.user_id >= "").exists()
    return (select(t.c.group_id, func.count(literal_column("*")))
            .where(t.c.group_id.in_(_in_list(size)), t.c.completed == false(), ~assigned).group_by(t.c.group_id))


def unassigned_counts(conn: Connection, user_ids: Sequence[str], mode: GatingMode) -> dict[str, int]:
    """How many open tasks without assignees each user's visible groups hold; users with none are left out. Each
    group is counted once however many of the users are in it (at a peak many members of a group share a slot)."""
    members = [row for size, users in _in_pieces(user_ids) for row in _memberships_statement(mode, size).all(
        conn, users)]
    per_group: dict[str, int] = {}
    for size, ids in _in_pieces(sorted({group_id for _, group_id in members})):
        per_group.update(_unassigned_statement(size).all(conn, ids))
    counts: dict[str, int] = {}
    for user_id, group_id in members:
        if per_group.get(group_id):
            counts[user_id] = counts.get(user_id, 0) + per_group[group_id]
    return counts


_CLAIM_MAX = 64


@lru_cache(maxsize=8)
def _claim_many(count: int) -> Prepared:
    """INSERT of ``count`` delivery rows at once (parameters u0, s0, o0, r0, u1, ...), returning those inserted."""
    columns = ("user_id", "slot", "outcome", "recorded_at")
    rows = [{c: bindparam(f"{c[0]}{i}", type_=rd.c[c].type) for c in columns} for i in range(count)]
    keys = [f"{c[0]}{i}" for i in range(count) for c in columns]
    return Prepared(lambda dialect: dialect_insert(dialect, rd).values(rows).on_conflict_do_nothing(
        index_elements=["user_id", "slot"]).returning(rd.c.user_id, rd.c.slot), keys)


def claim_deliveries(
    conn: Connection, claims: Sequence[tuple[str, str, str]], *, now: datetime
) -> set[tuple[str, str]]:
    """Record the (user, slot) delivery of each (user, slot, outcome), a few statements in all; the (user, slot) pairs
    whose row this call inserted: only their claimer queues the digest (the others were recorded by someone else)."""
    if not claims:
        return set()
    if not DELIVERY_OUTCOMES.issuperset(outcome for _, _, outcome in claims):
        unknown = next(outcome for _, _, outcome in claims if outcome not in DELIVERY_OUTCOMES)
        raise ValidationError(f"unknown delivery outcome {unknown!r}")
    claimed: set[tuple[str, str]] = set()
    first = 0
    while first < len(claims):
        # Pieces of 64, 32, ... 1 rows: seven statements to compile once, not one per count a minute happens to have.
        size = 1 << (min(len(claims) - first, _CLAIM_MAX).bit_length() - 1)
        statement = _claim_many(size)
        values = [v for user_id, slot, outcome in claims[first : first + size] for v in (user_id, slot, outcome, now)]
        rows = statement.all(conn, dict(zip(statement.keys, values, strict=True)))
        claimed.update((user_id, slot) for user_id, slot in rows)
        first += size
    return claimed
