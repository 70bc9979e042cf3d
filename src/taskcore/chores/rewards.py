"""Rewards (SPEC section 34), the pure rules: a reward's name and price, a request's states, and a person's balance in
a group: the points of their completed tasks there, less what they redeemed, never below zero.

Choices the SPEC leaves open (docs/decisions.md, "Issue 42: rewards"):

- A price is a whole number of points from 1 to ``MAX_REWARD_POINTS``; a name is plain text (as a task's
  description is cleaned) of at most ``MAX_REWARD_NAME`` characters.
- The balance is ``earned - spent`` (all time, in that group), shown as 0 when points earned went away (a task's
  points lowered after a reward was approved); a pending request *reserves* its price: a new request must fit in
  what is ``available`` (the balance less what pending requests hold), and an approval re-checks the balance alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _
from taskcore.text import clean_text

MAX_REWARD_POINTS = 10_000
MAX_REWARD_NAME = 80


class RequestState(StrEnum):
    """Where a reward request stands: asked for, then approved or refused by a group admin (or withdrawn by the
    person who asked: refused, with them as who decided)."""

    REQUESTED = "requested"
    APPROVED = "approved"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Reward:
    """A reward on offer in a group, with its price in points."""

    id: int
    group_id: str
    name: str
    points: int
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class RewardRequest:
    """One person's request for a reward, at the price it had when they asked."""

    id: int
    reward_id: int
    reward_name: str
    group_id: str
    group_name: str | None
    requester: str
    requester_name: str | None
    points: int
    state: RequestState
    requested_at: datetime
    decided_by: str | None = None
    decided_at: datetime | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Balance:
    """A person's points in one group: ``earned`` by their completions, ``spent`` on approved rewards, ``reserved``
    by their pending requests, ``penalties`` taken by missed chores a group admin applied (SPEC section 41)."""

    earned: int = 0
    spent: int = 0
    reserved: int = 0
    penalties: int = 0

    @property
    def points(self) -> int:
        """The balance: earned less spent and less the applied penalties, never below zero."""
        return max(0, self.earned - self.spent - self.penalties)

    @property
    def available(self) -> int:
        """What a new request may cost: the balance less what pending requests reserve, never below zero."""
        return max(0, self.points - self.reserved)

    def fits(self, price: int) -> bool:
        """True when a new request of ``price`` points fits in what is available."""
        return price <= self.available

    def approvable(self, price: int) -> bool:
        """True when approving a request of ``price`` (one of the pending ones) keeps the balance at zero or above."""
        return price <= self.points


def check_reward_points(points: object) -> int:
    """A whole number from 1 to MAX_REWARD_POINTS -> itself; InvalidChoreSetting (field ``points``) otherwise."""
    if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_REWARD_POINTS:
        raise InvalidChoreSetting(_("el precio va de 1 a {high} puntos", high=MAX_REWARD_POINTS), field="points")
    return points


def reward_name(text: str) -> str:
    """The name as it is kept (plain text, one line); InvalidChoreSetting (field ``name``) when empty or too long."""
    cleaned = clean_text(text)
    if not cleaned:
        raise InvalidChoreSetting(_("falta el nombre del premio"), field="name")
    if len(cleaned) > MAX_REWARD_NAME:
        raise InvalidChoreSetting(_("el nombre del premio pasa de {limit} caracteres", limit=MAX_REWARD_NAME),
                                  field="name")
    return cleaned
