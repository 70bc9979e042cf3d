"""When the bot reacts to a message, and with what (seed section 6, SPEC section 5)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from taskcore.identity import is_group_jid
from taskcore.model import Completion, Origin
from taskcore.settings import Settings
from taskcore.words.registry import SHARED

ROBOT, WARN, CHECK = (SHARED[f"mark.{name}"][0] for name in ("robot", "warn", "check"))
"""The bot's marks, as the lexicons' signs write them: a command that worked, one that did not, a task done."""


@dataclass(frozen=True, slots=True)
class ReactionPolicy:
    """REACTIONS_ENABLED, REACTIONS_SCOPE, REACTIONS_TTL_DAYS and the reactions' attempt limit."""

    enabled: bool = False
    scope: str = "groups"
    ttl_days: int = 14
    max_attempts: int = 6

    @classmethod
    def from_settings(cls, settings: Settings) -> ReactionPolicy:
        """The policy the settings describe."""
        return cls(settings.reactions_enabled, settings.reactions_scope, settings.reactions_ttl_days,
                   settings.reaction_max_attempts)

    def in_scope(self, chat_id: str) -> bool:
        """Reactions are on and allowed in this chat (groups only, unless the scope is all)."""
        return self.enabled and (self.scope == "all" or is_group_jid(chat_id))

    def check_allowed(self, origin: Origin | None, now: datetime) -> bool:
        """A completion's check mark: the origin message is known, in scope and younger than the TTL."""
        if origin is None or origin.sent_at is None or not self.in_scope(origin.chat_id):
            return False
        return now - origin.sent_at <= timedelta(days=self.ttl_days)


@dataclass(frozen=True, slots=True)
class ReactionRequest:
    """A reaction to queue on a message (subject to the reactions policy)."""

    chat_id: str
    message_id: str
    participant: str | None
    emoji: str
    dedupe_key: str | None = None


def completion_check(policy: ReactionPolicy, completion: Completion, now: datetime) -> ReactionRequest | None:
    """The check mark a completion puts on the message that created the task: only for the completion that closed
    it, when the policy allows it there (``check_allowed``); at most once per task (its dedupe key)."""
    origin = completion.task.origin
    if not completion.newly_completed or origin is None or not policy.check_allowed(origin, now):
        return None
    return ReactionRequest(origin.chat_id, origin.message_id, origin.participant, CHECK,
                           dedupe_key=f"check:{completion.task.id}")
