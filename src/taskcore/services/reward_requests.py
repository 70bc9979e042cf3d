"""Reward requests as use cases (SPEC section 34): a member asks for a reward, a group admin approves or refuses it,
and what waits for someone's approval (requests and photos) in one list.

A balance never goes below zero (Donetick #489 drove points negative with two approvals that each fit alone): a
request must fit in what the person has available (their balance less what their pending requests reserve), and an
approval re-reads the balance inside its transaction after locking the person's requests in that group
(``storage.rewards.lock_person``), so of two approvals that together do not fit, the second is refused naming the
balance. The chat tells the group through its own answer; the web asks for the group's notice (``Telling``), queued
in the same transaction as the change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import Connection

from taskcore.access import GatingMode
from taskcore.chores import reward_texts as texts
from taskcore.chores.missed import Missed
from taskcore.chores.proof import PendingPhoto
from taskcore.chores.rewards import Balance, RequestState, RewardRequest
from taskcore.chores.witness import HeldPoints
from taskcore.errors import Conflict, Forbidden, NotFound
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import SOURCE, speaking
from taskcore.queue_rules import JobKind
from taskcore.services.held_points import held_for
from taskcore.services.languages import group_language_of
from taskcore.services.penalties import waiting_missed
from taskcore.services.people import group_mentions
from taskcore.services.proof import pending_photos
from taskcore.services.rewards import offered, require_admin, require_member
from taskcore.storage import rewards as q
from taskcore.storage import task_lists as lists
from taskcore.storage.queue import enqueue
from taskcore.text import clean_text
from taskcore.unit import Reading, UnitOfWork

NOTICE_LABEL = "notice"
MAX_REASON = 300
MY_REQUESTS = 50


class ShortBalance(Conflict):
    """A new request costs more than the person has available (their balance less their pending requests)."""

    def __init__(self, balance: Balance, price: int, reward: str) -> None:
        super().__init__(f"not enough points: {balance.points} ({balance.reserved} reserved) for {price}")
        self.balance, self.price, self.reward = balance, price, reward


class CannotApprove(Conflict):
    """Approving the request would take its requester's balance below zero."""

    def __init__(self, request: RewardRequest, balance: Balance) -> None:
        super().__init__(f"request {request.id} costs {request.points}; the balance is {balance.points}")
        self.request, self.balance = request, balance


class AlreadyDecided(Conflict):
    """The request was approved or refused already."""

    def __init__(self, request: RewardRequest) -> None:
        super().__init__(f"request {request.id} is {request.state.value}")
        self.request = request


@dataclass(frozen=True, slots=True)
class Telling:
    """How the web has the group told (the chat answers there itself): the queue's attempts, and the language of a
    group that chose none (DEFAULT_LANGUAGE)."""

    max_attempts: int
    lang: str = SOURCE


@dataclass(frozen=True, slots=True)
class Outcome:
    """A request as it stands after the change, and the requester's balance then; ``withdrawn`` when the person who
    asked refused it themselves."""

    request: RewardRequest
    balance: Balance
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Waiting:
    """What waits for one person's approval: reward requests in groups where they are admin, and photos."""

    requests: list[RewardRequest]
    photos: list[PendingPhoto]
    points: list[HeldPoints] = field(default_factory=list)  # a self-made task's points (SPEC section 38)
    missed: list[Missed] = field(default_factory=list)  # missed chores to apply or excuse (SPEC section 41)

    @property
    def count(self) -> int:
        """How many things wait."""
        return len(self.requests) + len(self.photos) + len(self.points) + len(self.missed)


def redeem(uow: UnitOfWork, mode: GatingMode, *, user_id: str, reward_id: int, group_id: str | None, now: datetime,
           tell: Telling | None = None) -> Outcome:
    """Ask for a reward: a pending request at its current price. With ``group_id`` (a group's chat or path):
    Forbidden unless the user sees it, NotFound unless the reward is on offer there; without: NotFound too for a
    reward of a group the user is not in. ShortBalance when the price is over what the user has available."""

    conn = uow.conn
    if group_id is not None:
        require_member(conn, mode, group_id, user_id)
    reward = offered(conn, reward_id, group_id)
    if group_id is None:
        try:
            require_member(conn, mode, reward.group_id, user_id)
        except Forbidden as exc:
            raise NotFound("no such reward") from exc
    q.lock_person(conn, user_id, reward.group_id)
    balance = q.balances(conn, user_id, [reward.group_id])[reward.group_id]
    if not balance.fits(reward.points):
        raise ShortBalance(balance, reward.points, reward.name)
    made = _read(conn, q.add_request(conn, reward, requester=user_id, now=now))
    _tell(conn, tell, made, lambda who: texts.requested(made, who), now)
    return Outcome(made, replace(balance, reserved=balance.reserved + reward.points))


def approve(uow: UnitOfWork, mode: GatingMode, *, user_id: str, request_id: int, now: datetime,
            tell: Telling | None = None) -> Outcome:
    """A group admin approves a pending request: NotFound, Forbidden (NotGroupAdmin), AlreadyDecided, or
    CannotApprove when the requester's balance, read under the lock, is below its price."""

    conn = uow.conn
    found = _decidable(conn, mode, user_id, request_id)
    require_admin(conn, found.group_id, user_id)
    q.lock_person(conn, found.requester, found.group_id)
    found = _pending(_read(conn, request_id))  # as it is once the lock is ours
    balance = q.balances(conn, found.requester, [found.group_id])[found.group_id]
    if not balance.approvable(found.points):
        raise CannotApprove(found, balance)
    if not q.decide(conn, request_id, RequestState.APPROVED, by=user_id, now=now, reason=None):
        raise AlreadyDecided(_read(conn, request_id))  # pragma: no cover - the lock keeps it pending
    done = _read(conn, request_id)
    left = replace(balance, spent=balance.spent + found.points, reserved=balance.reserved - found.points)
    _tell(conn, tell, done, lambda who: texts.approved(done, who, left), now)
    return Outcome(done, left)


def refuse(uow: UnitOfWork, mode: GatingMode, *, user_id: str, request_id: int, reason: str | None, now: datetime,
           tell: Telling | None = None) -> Outcome:
    """A group admin refuses a pending request (``reason`` optional), or the person who asked withdraws it:
    NotFound, Forbidden (NotGroupAdmin) for anyone else, AlreadyDecided."""
    why = clean_text(reason or "")[:MAX_REASON] or None

    conn = uow.conn
    found = _decidable(conn, mode, user_id, request_id)
    withdrawn = found.requester == user_id and not q.is_group_admin(conn, found.group_id, user_id)
    if not withdrawn:
        require_admin(conn, found.group_id, user_id)
    if not q.decide(conn, request_id, RequestState.REFUSED, by=user_id, now=now, reason=why):
        raise AlreadyDecided(_read(conn, request_id))
    done = _read(conn, request_id)
    _tell(conn, tell, done, lambda who: texts.refused(done, who, why, withdrawn=withdrawn), now)
    return Outcome(done, q.balances(conn, found.requester, [found.group_id])[found.group_id], withdrawn)


def _read(conn: Connection, request_id: int) -> RewardRequest:
    found = q.request_by_id(conn, request_id)
    if found is None:
        raise NotFound("no such reward request")
    return found


def _pending(found: RewardRequest) -> RewardRequest:
    if found.state is not RequestState.REQUESTED:
        raise AlreadyDecided(found)
    return found


def _decidable(conn: Connection, mode: GatingMode, user_id: str, request_id: int) -> RewardRequest:
    """The request, pending, of a group the user sees (NotFound for one of a group they are not in)."""
    found = _read(conn, request_id)
    try:
        require_member(conn, mode, found.group_id, user_id)
    except Forbidden as exc:
        raise NotFound("no such reward request") from exc
    return _pending(found)


def _tell(conn: Connection, tell: Telling | None, request: RewardRequest, compose: Callable[[str], str],
          now: datetime) -> None:
    """Queue the group's notice (composed in its language, the requester mentioned) when the web asked for it."""
    if tell is None:
        return
    digits, jid = group_mentions(conn, request.group_id, [request.requester])[request.requester]
    with speaking(group_language_of(conn, request.group_id, tell.lang)):
        text = compose(f"@{digits}")
    enqueue(conn, chat_id=request.group_id, kind=JobKind.TEXT, label=NOTICE_LABEL, now=now,
            payload=text_payload(chat_id=request.group_id, text=text, mentioned=[jid]),
            max_attempts=tell.max_attempts)


def waiting(uow: Reading, mode: GatingMode, *, user_id: str, group_id: str | None = None) -> Waiting:
    """What waits for the user's approval, in one group or (``None``) in all theirs: the pending requests of the
    groups where they are admin, oldest first, the photos ``services.proof.pending_photos`` names, and the held
    points of self-made tasks others completed in their groups (SPEC section 38)."""
    conn = uow.conn
    seen = {group.id for group in lists.my_groups(conn, user_id, mode)}
    mine = [group for group in q.admin_groups(conn, user_id) if group in seen]
    requests = q.pending_in(conn, [group for group in mine if group_id in (None, group)])
    photos = [photo for photo in pending_photos(uow, user_id) if group_id in (None, photo.group_id)]
    points = held_for(uow, user_id=user_id, group_ids=[group for group in seen if group_id in (None, group)])
    return Waiting(requests, photos, points, waiting_missed(uow, mode, user_id=user_id, group_id=group_id))


def my_requests(uow: Reading, *, user_id: str, limit: int = MY_REQUESTS) -> list[RewardRequest]:
    """The user's own requests, newest first."""
    conn = uow.conn
    return q.requests_of(conn, user_id, limit=limit)
