"""What failed for good, as use cases (SPEC section 33): list the failed inbox events and outbound jobs, and queue
them again on an operator's word (`tasksvc failed`, `tasksvc retry`).

A failure's id names its table: ``inbox:12`` (a webhook event whose handling broke) or ``send:7`` (a message the
gateway refused until its attempts ran out). A retried event is handled again in its chat's order; a retried send
starts its attempts from zero, due at once. A login link is never sent again (its text is gone once it failed: the
person asks for a new one)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from taskcore.errors import ValidationError
from taskcore.storage import failures as store
from taskcore.storage.failures import INBOX, SEND, FailedRow
from taskcore.unit import Reading, UnitOfWork

__all__ = ["INBOX", "SEND", "FailedRow", "RetryOutcome", "list_failures", "parse_failure_id", "retry_failures"]

_ID = re.compile(r"(inbox|send):(\d{1,18})")


def parse_failure_id(text: str) -> tuple[str, int]:
    """``inbox:12`` → ``("inbox", 12)``; ValidationError naming the forms for anything else."""
    found = _ID.fullmatch(text.strip().lower())
    if found is None:
        raise ValidationError(f"not a failure id: {text!r} (inbox:<number> or send:<number>, as `tasksvc failed` "
                              "shows)", field="id")
    return found.group(1), int(found.group(2))


def format_failure_id(kind: str, row_id: int) -> str:
    """The id `tasksvc failed` shows and `tasksvc retry` takes."""
    return f"{kind}:{row_id}"


@dataclass(frozen=True)
class RetryOutcome:
    """What a retry did: ids queued again, ids that were not (or no longer) failed, login links left alone."""

    requeued: list[str] = field(default_factory=list)
    not_failed: list[str] = field(default_factory=list)
    login_links: list[str] = field(default_factory=list)


def list_failures(uow: Reading, *, limit: int = 100) -> list[FailedRow]:
    """The newest ``limit`` failures of both kinds, newest first."""
    conn = uow.conn
    return store.failed_rows(conn, limit=limit)


def retry_failures(uow: UnitOfWork, ids: Sequence[tuple[str, int]] | None, *, now: datetime) -> RetryOutcome:
    """Queue the failures ``ids`` again (None: every failure), in one transaction."""
    conn = uow.conn
    wanted = store.failed_ids(conn) if ids is None else {
        INBOX: [i for kind, i in ids if kind == INBOX], SEND: [i for kind, i in ids if kind == SEND]}
    links = store.login_link_ids(conn, wanted[SEND])
    done = {INBOX: store.requeue_events(conn, wanted[INBOX]),
            SEND: store.requeue_sends(conn, [i for i in wanted[SEND] if i not in links], now=now)}
    outcome = RetryOutcome()
    for kind in (INBOX, SEND):
        for row_id in dict.fromkeys(wanted[kind]):
            name = format_failure_id(kind, row_id)
            if row_id in done[kind]:
                outcome.requeued.append(name)
            elif kind == SEND and row_id in links:
                outcome.login_links.append(name)
            else:
                outcome.not_failed.append(name)
    return outcome
