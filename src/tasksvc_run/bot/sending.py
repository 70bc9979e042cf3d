"""What the outbound worker is sending at this moment, for a reply that quotes it (SPEC section 31), and the jittered
gap of sending like a person.

A person can reply to the bot's message (or react on it) before the worker wrote down the id the gateway answered
with. The webhook asks ``awaiting``: whether the quoted id was answered and is not recorded yet, or a text with the
quoted text's fingerprint is being sent, or (a reaction, which carries no text: SPEC section 39) a text is being
sent to the reaction's chat and its answer has not come; only then does the reply wait for the record.
"""

from __future__ import annotations

import random

from taskcore.gateway.echo import text_digest
from taskcore.pacing import JITTER_HIGH, JITTER_LOW
from taskcore.queue_rules import QueueJob


def gap_factor() -> float:
    """A send gap's factor, uniform between half and one and a half times the mean pace."""
    return random.uniform(JITTER_LOW, JITTER_HIGH)  # noqa: S311 - looking like a person, not a secret


class Sending:
    """The worker's sends from claim to recorded outcome: their texts' fingerprints and the ids answered so far."""

    def __init__(self) -> None:
        self._texts: dict[int, str | None] = {}
        self._chats: dict[int, str] = {}  # the chat of each text whose send is not answered yet
        self._answered: dict[str, int] = {}

    def started(self, job: QueueJob) -> None:
        """A job was claimed for sending."""
        text = job.payload.get("text")
        self._texts[job.id] = text_digest(text) if isinstance(text, str) else None
        if isinstance(text, str):
            self._chats[job.id] = job.chat_id

    def answered(self, job_id: int, message_id: str | None) -> None:
        """The gateway accepted the job's send with ``message_id`` (not recorded yet)."""
        self._chats.pop(job_id, None)
        if message_id:
            self._answered[message_id] = job_id

    def done(self, job_id: int) -> None:
        """The job's outcome is recorded (or it ended otherwise)."""
        self._texts.pop(job_id, None)
        self._chats.pop(job_id, None)
        for message_id in [ident for ident, job in self._answered.items() if job == job_id]:
            del self._answered[message_id]

    def awaiting(self, message_id: str, digest: str | None, chat: str | None = None) -> bool:
        """Whether the message ``message_id`` (text fingerprint ``digest``, when known; else sent to ``chat``) may be
        one being sent now."""
        if message_id in self._answered or (digest is not None and digest in self._texts.values()):
            return True
        return digest is None and chat is not None and chat in self._chats.values()
