"""``/t pendientes`` (SPEC section 34, "Approvals in one place"): what waits for the sender's approval. In a group,
that group's: its reward requests when the sender is one of its admins, its photos the sender may approve and the
points of self-made tasks others completed (SPEC section 38); in a direct message, the same across every group of
theirs."""

from __future__ import annotations

from taskcore.chat import reward_replies as replies
from taskcore.chat.result import Answer
from taskcore.chat.reward_args import ListPending
from taskcore.services.conversation.turn import Turn
from taskcore.services.reward_requests import waiting


def list_pending(turn: Turn, _cmd: ListPending) -> Answer:
    """/t pendientes: reward requests and photos, each with the command that approves it."""
    found = waiting(turn.uow, turn.policy.mode, user_id=turn.user_id, group_id=turn.group_id)
    return Answer(replies.pending(found.requests, found.photos, found.points, in_group=turn.group_id is not None,
                                 missed=found.missed))
