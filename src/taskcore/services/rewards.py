"""Rewards as use cases (SPEC section 34): a group's admins put rewards on offer and take them off; its members see
them with their balance. Requests and their approval are in ``services.reward_requests``.

Who is a group admin is what WhatsApp reports (``group_members.is_admin`` of an active member), not ADMIN_USERS.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection

from taskcore.access import GatingMode, sees_group
from taskcore.chores.rewards import Balance, Reward, check_reward_points, reward_name
from taskcore.errors import Forbidden, NotFound
from taskcore.storage import rewards as q
from taskcore.storage import task_lists as lists
from taskcore.storage.tasks import group_facts
from taskcore.unit import Reading, UnitOfWork


class NotGroupAdmin(Forbidden):
    """Only an admin of the group (as WhatsApp reports them) may do this."""


@dataclass(frozen=True, slots=True)
class GroupRewards:
    """A group's rewards on offer and the asking person's balance there."""

    group_id: str
    group_name: str | None
    items: list[Reward]
    balance: Balance


def require_admin(conn: Connection, group_id: str, user_id: str) -> None:
    """NotGroupAdmin unless the user is an active admin of the group."""
    if not q.is_group_admin(conn, group_id, user_id):
        raise NotGroupAdmin("only a group admin may do this")


def require_member(conn: Connection, mode: GatingMode, group_id: str, user_id: str) -> None:
    """Forbidden unless the group is effectively allowed and the user an active member (the group endpoints' rule)."""
    if not sees_group(mode, group_facts(conn, group_id, user_id)):
        raise Forbidden("the group is not available to this user")


def create_reward(uow: UnitOfWork, *, group_id: str, user_id: str, name: str, points: int, now: datetime) -> Reward:
    """Put a reward on offer in the group; InvalidChoreSetting (``name``, ``points``) or NotGroupAdmin first."""
    clean, price = reward_name(name), check_reward_points(points)

    conn = uow.conn
    require_admin(conn, group_id, user_id)
    made = q.add_reward(conn, group_id=group_id, name=clean, points=price, created_by=user_id, now=now)
    return Reward(made, group_id, clean, price)


def delete_reward(uow: UnitOfWork, *, group_id: str | None, user_id: str, reward_id: int, now: datetime) -> Reward:
    """Take a reward off offer (its pending requests may still be decided); NotFound when there is no such reward
    on offer (in ``group_id``, when given), NotGroupAdmin unless the user is an admin of its group."""

    conn = uow.conn
    found = offered(conn, reward_id, group_id)
    require_admin(conn, found.group_id, user_id)
    q.delete_reward(conn, reward_id, now)
    return found


def offered(conn: Connection, reward_id: int, group_id: str | None) -> Reward:
    """The reward on offer (in ``group_id`` when given); NotFound otherwise."""
    found = q.reward_by_id(conn, reward_id)
    if found is None or found.deleted or (group_id is not None and found.group_id != group_id):
        raise NotFound("no such reward")
    return found


def group_rewards(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str) -> GroupRewards:
    """The group's rewards and the user's balance there; Forbidden as the other group endpoints."""
    conn = uow.conn
    require_member(conn, mode, group_id, user_id)
    name = next((g.name for g in lists.my_groups(conn, user_id, mode) if g.id == group_id), None)
    return GroupRewards(group_id, name, q.group_rewards(conn, [group_id]),
                        q.balances(conn, user_id, [group_id])[group_id])


def my_rewards(uow: Reading, mode: GatingMode, *, user_id: str) -> list[GroupRewards]:
    """In each of the user's active groups (by name): its rewards and the user's balance."""
    conn = uow.conn
    mine = [group for group in lists.my_groups(conn, user_id, mode) if group.active]
    ids = [group.id for group in mine]
    offers, money = q.group_rewards(conn, ids), q.balances(conn, user_id, ids)
    return [GroupRewards(group.id, group.name, [item for item in offers if item.group_id == group.id],
                         money[group.id]) for group in mine]


def balance(uow: Reading, *, user_id: str, group_id: str) -> Balance:
    """The user's balance in the group."""
    conn = uow.conn
    return q.balances(conn, user_id, [group_id])[group_id]
