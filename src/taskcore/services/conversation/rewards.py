"""Rewards from the chat (SPEC section 34): ``/t premio nuevo|borrar``, ``/t premios``, ``/t canjear``, ``/t puntos``
alone, and the approval and refusal of a request (``approve_request``, ``reject_request``: the use cases of ``/t
aprobar canje <n>`` and ``/t rechazar canje <n> [motivo]``).

What the group is told about a request (made, approved, refused) is the reply itself when the command was written
in that group; written elsewhere (a direct message), the reply says it is done and the group is told apart, in the
group's language, the requester mentioned as the group names them.
"""

from __future__ import annotations

from collections.abc import Callable

from taskcore.chat import reward_replies as replies
from taskcore.chat.result import Answer, Mention, OutgoingText, rejected
from taskcore.chat.reward_args import DeleteReward, ListRewards, NewReward, Redeem, ShowBalance
from taskcore.chores import reward_texts as texts
from taskcore.chores.rewards import RequestState, RewardRequest
from taskcore.errors import Forbidden, NotFound
from taskcore.gateway.outbound import text_payload
from taskcore.i18n import _, speaking
from taskcore.services import reward_requests, rewards
from taskcore.services.conversation.turn import Turn
from taskcore.services.languages import group_language_of
from taskcore.services.people import group_mentions
from taskcore.services.reward_requests import AlreadyDecided, CannotApprove, Outcome, ShortBalance
from taskcore.shown import shown_name

NOTICE_LABEL = "notice"


def new_reward(turn: Turn, cmd: NewReward) -> Answer:
    """/t premio nuevo <nombre> <puntos> (a group's admins; the parser checked the name and the price)."""
    return _by_admin(turn, 0, lambda group_id: replies.reward_created(rewards.create_reward(
        turn.uow, group_id=group_id, user_id=turn.user_id, name=cmd.title, points=cmd.points, now=turn.moment.now)))


def delete_reward(turn: Turn, cmd: DeleteReward) -> Answer:
    """/t premio borrar <n> (a group's admins)."""
    return _by_admin(turn, cmd.reward_id, lambda group_id: replies.reward_deleted(rewards.delete_reward(
        turn.uow, group_id=group_id, user_id=turn.user_id, reward_id=cmd.reward_id, now=turn.moment.now)))


def _by_admin(turn: Turn, reward_id: int, change: Callable[[str], str]) -> Answer:
    """A change to the group's rewards, which only its admins make, in a group."""
    if turn.group_id is None:
        return rejected(_(replies.CREATE_IN_GROUP))
    try:
        return Answer(change(turn.group_id))
    except rewards.NotGroupAdmin:
        return rejected(_(replies.ONLY_ADMINS))
    except NotFound:
        return rejected(replies.reward_not_found(reward_id))


def list_rewards(turn: Turn, _cmd: ListRewards) -> Answer:
    """/t premios: the group's rewards and the sender's balance; in a direct message, each of their groups'."""
    if turn.group_id is not None:
        found = rewards.group_rewards(turn.uow, turn.policy.mode, user_id=turn.user_id, group_id=turn.group_id)
        return Answer(replies.group_rewards(found.items, found.balance))
    mine = rewards.my_rewards(turn.uow, turn.policy.mode, user_id=turn.user_id)
    return Answer(replies.every_group_rewards([(group.group_name, group.items, group.balance) for group in mine]))


def show_balance(turn: Turn, cmd: ShowBalance) -> Answer:
    """/t puntos alone: the sender's balance here, or in each of their groups from a direct message."""
    if turn.group_id is not None:
        return Answer(replies.balance_here(rewards.balance(turn.uow, user_id=turn.user_id, group_id=turn.group_id)))
    mine = rewards.my_rewards(turn.uow, turn.policy.mode, user_id=turn.user_id)
    return Answer(replies.balances([(group.group_name, group.balance) for group in mine]))


def redeem(turn: Turn, cmd: Redeem) -> Answer:
    """/t canjear <n>: a request for the reward if it fits in what the sender has, refused naming their balance."""
    try:
        made = reward_requests.redeem(turn.uow, turn.policy.mode, user_id=turn.user_id, reward_id=cmd.reward_id,
                                      group_id=turn.group_id, now=turn.moment.now)
    except (NotFound, Forbidden):
        return rejected(replies.reward_not_found(cmd.reward_id))
    except ShortBalance as short:
        return rejected(texts.too_few(short.balance, short.price, short.reward))
    request = made.request
    if turn.group_id == request.group_id:
        return Answer(texts.requested(request, shown_name(request.requester_name)))
    return _told_elsewhere(turn, request, lambda who: texts.requested(request, who),
                           replies.requested_elsewhere(request))


def approve_request(turn: Turn, request_id: int) -> Answer:
    """/t aprobar canje <n>: a group admin approves the request when the requester's balance still covers it."""
    return _decide(turn, request_id, lambda: reward_requests.approve(
        turn.uow, turn.policy.mode, user_id=turn.user_id, request_id=request_id, now=turn.moment.now))


def reject_request(turn: Turn, request_id: int, reason: str) -> Answer:
    """/t rechazar canje <n> [motivo]: a group admin refuses the request, or the person who asked withdraws it."""
    return _decide(turn, request_id, lambda: reward_requests.refuse(
        turn.uow, turn.policy.mode, user_id=turn.user_id, request_id=request_id, reason=reason,
        now=turn.moment.now))


def _decide(turn: Turn, request_id: int, decide: Callable[[], Outcome]) -> Answer:
    try:
        done = decide()
    except NotFound:
        return rejected(replies.request_not_found(request_id))
    except rewards.NotGroupAdmin:
        return rejected(_(replies.ONLY_ADMINS_DECIDE))
    except AlreadyDecided as exc:
        return rejected(texts.already_decided(exc.request))
    except CannotApprove as short:
        return rejected(texts.cannot_approve(short.request, shown_name(short.request.requester_name), short.balance))
    request = done.request

    def notice(who: str) -> str:
        if request.state is RequestState.APPROVED:
            return texts.approved(request, who, done.balance)
        return texts.refused(request, who, request.reason, withdrawn=done.withdrawn)

    if turn.group_id == request.group_id:
        mention = _mention(turn, request)
        return Answer(notice(mention.tag), mentions=(mention,))
    return _told_elsewhere(turn, request, notice, replies.decided_elsewhere(request))


def _mention(turn: Turn, request: RewardRequest) -> Mention:
    """The requester as the group mentions them (SPEC section 31)."""
    conn = turn.uow.conn
    digits, jid = group_mentions(conn, request.group_id, [request.requester])[request.requester]
    return Mention(digits, jid)


def _told_elsewhere(turn: Turn, request: RewardRequest, notice: Callable[[str], str], reply: str) -> Answer:
    """The reply to the sender, and the group's notice apart, in the group's language."""
    mention = _mention(turn, request)
    conn = turn.uow.conn
    lang = group_language_of(conn, request.group_id, turn.policy.language)
    with speaking(lang):
        text = notice(mention.tag)
    body = text_payload(chat_id=request.group_id, text=text, mentioned=[mention.jid])
    return Answer(reply, extra=(OutgoingText(request.group_id, body, NOTICE_LABEL),))
