"""Queries of rewards (SPEC section 34): the group's rewards, the requests for them, who may decide, and the points
a person earned and spent in a group (their balance's parts).

Points earned are credited as the summaries credit them (``storage.summaries``): an ``any`` task to its
``completed_by``, an ``each`` task to every assignee whose part is done, each earning the task's points.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select, true, union_all, update

from taskcore.chores.rewards import Balance, RequestState, Reward, RewardRequest
from taskcore.completion import CompletionMode
from taskcore.storage.penalties import applied_points
from taskcore.storage.reward_tables import reward_requests, rewards
from taskcore.storage.schema import group_members, groups, task_assignments, tasks, users

r, rq, t, ta, gm = rewards, reward_requests, tasks, task_assignments, group_members


def add_reward(conn: Connection, *, group_id: str, name: str, points: int, created_by: str, now: datetime) -> int:
    """Store a new reward; its id."""
    row = {"group_id": group_id, "name": name, "points": points, "created_by": created_by, "created_at": now}
    return int(conn.execute(insert(r).values(**row).returning(r.c.id)).scalar_one())


def reward_by_id(conn: Connection, reward_id: int) -> Reward | None:
    """The reward (deleted or not), None when there is no such reward."""
    row = conn.execute(select(r.c.id, r.c.group_id, r.c.name, r.c.points, r.c.deleted_at)
                       .where(r.c.id == reward_id)).one_or_none()
    return None if row is None else Reward(int(row.id), str(row.group_id), str(row.name), int(row.points),
                                           row.deleted_at is not None)


def group_rewards(conn: Connection, group_ids: Iterable[str]) -> list[Reward]:
    """The rewards on offer in the groups, by price then id."""
    query = (select(r.c.id, r.c.group_id, r.c.name, r.c.points).where(r.c.group_id.in_(list(group_ids)),
                                                                        r.c.deleted_at.is_(None))
             .order_by(r.c.points, r.c.id))
    return [Reward(int(row.id), str(row.group_id), str(row.name), int(row.points)) for row in conn.execute(query)]


def delete_reward(conn: Connection, reward_id: int, now: datetime) -> bool:
    """Take the reward off offer; False when it was already."""
    query = update(r).where(r.c.id == reward_id, r.c.deleted_at.is_(None)).values(deleted_at=now)
    return bool(conn.execute(query).rowcount)


def is_group_admin(conn: Connection, group_id: str, user_id: str) -> bool:
    """True when the user is an active member of the group that WhatsApp reports as one of its admins."""
    query = select(gm.c.user_id).where(gm.c.group_id == group_id, gm.c.user_id == user_id, gm.c.active == true(),
                                       gm.c.is_admin == true())
    return conn.execute(query).first() is not None


def admin_groups(conn: Connection, user_id: str) -> list[str]:
    """The groups where the user is an active admin."""
    query = select(gm.c.group_id).where(gm.c.user_id == user_id, gm.c.active == true(), gm.c.is_admin == true())
    return [str(group) for group in conn.execute(query).scalars()]


def earned(conn: Connection, user_id: str, group_ids: Iterable[str]) -> dict[str, int]:
    """The points the user's completions earned, by group (groups without any are absent); points that wait for
    someone else's approval are not earned yet."""
    wanted = list(group_ids)
    counted = t.c.points_held_at.is_(None)  # points waiting for someone else's approval do not (SPEC section 38)
    whole = select(t.c.group_id, t.c.points).where(
        t.c.group_id.in_(wanted), t.c.completed == true(), t.c.completion == CompletionMode.ANY.value,
        t.c.completed_by == user_id, counted)
    parts = select(t.c.group_id, t.c.points).join(ta, ta.c.task_id == t.c.id).where(
        t.c.group_id.in_(wanted), t.c.completion == CompletionMode.EACH.value, ta.c.user_id == user_id,
        ta.c.done_at.is_not(None), counted)
    done = union_all(whole, parts).subquery()
    query = select(done.c.group_id, func.sum(done.c.points)).group_by(done.c.group_id)
    return {str(group): int(points) for group, points in conn.execute(query)}


def redeemed(conn: Connection, user_id: str, group_ids: Iterable[str]) -> dict[str, tuple[int, int]]:
    """By group: the points of the user's approved requests and of their pending ones."""
    query = (select(rq.c.group_id, rq.c.state, func.sum(rq.c.points))
             .where(rq.c.requester == user_id, rq.c.group_id.in_(list(group_ids)),
                    rq.c.state.in_([RequestState.APPROVED.value, RequestState.REQUESTED.value]))
             .group_by(rq.c.group_id, rq.c.state))
    found: dict[str, tuple[int, int]] = {}
    for group, state, points in conn.execute(query):
        spent, reserved = found.get(str(group), (0, 0))
        if state == RequestState.APPROVED.value:
            spent = int(points)
        else:
            reserved = int(points)
        found[str(group)] = (spent, reserved)
    return found


def balances(conn: Connection, user_id: str, group_ids: Iterable[str]) -> dict[str, Balance]:
    """The user's balance in each of the groups."""
    wanted = list(group_ids)
    got, used = earned(conn, user_id, wanted), redeemed(conn, user_id, wanted)
    taken = applied_points(conn, user_id, wanted)
    return {group: Balance(got.get(group, 0), *used.get(group, (0, 0)), taken.get(group, 0)) for group in wanted}


def lock_person(conn: Connection, user_id: str, group_id: str) -> None:
    """Lock the person's requests in the group until the transaction ends (PostgreSQL: FOR UPDATE; SQLite's write
    transaction holds the database's lock already), so that two approvals or requests of theirs run one after the
    other and the second reads the balance the first left."""
    conn.execute(select(rq.c.id).where(rq.c.requester == user_id, rq.c.group_id == group_id)
                 .order_by(rq.c.id).with_for_update()).all()


def add_request(conn: Connection, reward: Reward, *, requester: str, now: datetime) -> int:
    """Store a pending request for the reward at its current price; its id."""
    row = {"reward_id": reward.id, "group_id": reward.group_id, "requester": requester, "points": reward.points,
           "state": RequestState.REQUESTED.value, "requested_at": now}
    return int(conn.execute(insert(rq).values(**row).returning(rq.c.id)).scalar_one())


def decide(conn: Connection, request_id: int, state: RequestState, *, by: str, now: datetime,
           reason: str | None) -> bool:
    """Move a pending request to ``state``; False when it was no longer pending."""
    query = update(rq).where(rq.c.id == request_id, rq.c.state == RequestState.REQUESTED.value).values(
        state=state.value, decided_by=by, decided_at=now, reason=reason)
    return bool(conn.execute(query).rowcount)


def _requests(*conditions: Any) -> Any:
    who = users.alias("requester_user")
    return (select(rq.c.id, rq.c.reward_id, r.c.name.label("reward_name"), rq.c.group_id,
                   groups.c.name.label("group_name"), rq.c.requester, who.c.display_name, rq.c.points, rq.c.state,
                   rq.c.requested_at, rq.c.decided_by, rq.c.decided_at, rq.c.reason)
            .join(r, r.c.id == rq.c.reward_id).join(groups, groups.c.id == rq.c.group_id)
            .outerjoin(who, who.c.id == rq.c.requester).where(*conditions))


def _request(row: Any) -> RewardRequest:
    return RewardRequest(int(row.id), int(row.reward_id), str(row.reward_name), str(row.group_id), row.group_name,
                         str(row.requester), row.display_name, int(row.points), RequestState(row.state),
                         row.requested_at, row.decided_by, row.decided_at, row.reason)


def request_by_id(conn: Connection, request_id: int) -> RewardRequest | None:
    """The request with its reward's, group's and requester's names; None when there is no such request."""
    row = conn.execute(_requests(rq.c.id == request_id)).one_or_none()
    return None if row is None else _request(row)


def pending_in(conn: Connection, group_ids: Iterable[str]) -> list[RewardRequest]:
    """The pending requests of the groups, oldest first."""
    query = _requests(rq.c.group_id.in_(list(group_ids)), rq.c.state == RequestState.REQUESTED.value)
    return [_request(row) for row in conn.execute(query.order_by(rq.c.id))]


def requests_of(conn: Connection, user_id: str, *, limit: int) -> list[RewardRequest]:
    """The user's own requests, newest first."""
    query = _requests(rq.c.requester == user_id).order_by(rq.c.id.desc()).limit(limit)
    return [_request(row) for row in conn.execute(query)]
