"""Photo proof's use cases (SPEC section 34): a task's photo rule, a photo's arrival, approval and rejection, what
waits for a person's approval, the photo a member may open, and the photos past their retention.

Who approves: the task's creator or a WhatsApp admin of its group (``group_members.is_admin``, as the gateway
reports participants; never ADMIN_USERS), but never the person who sent the photo: a creator who did the task
themselves needs a group admin (or drops the rule with ``/t foto <id> no``). The same people set and clear the
rule, so an assignee cannot drop it to complete without a photo. A photo for a task with assignees comes from one of
them; for an unassigned task, from any member (who becomes its assignee when it is approved, as a completion does).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from taskcore.access import GatingMode, TaskAction, check_action
from taskcore.chores.proof import PendingPhoto, ProofState
from taskcore.completion import CompletionMode
from taskcore.errors import NotFound, TaskcoreError
from taskcore.model import Completion, Task
from taskcore.services import tasks
from taskcore.shown import shown_name
from taskcore.storage import proofs as q
from taskcore.storage import tasks as task_rows
from taskcore.storage.photo_files import PhotoFiles
from taskcore.storage.proofs import ProofRow
from taskcore.unit import Reading, UnitOfWork

__all__ = ["MAX_MEDIA_CHARS", "PendingPhoto", "ProofRefused", "approve_photo", "approvers_of", "expire_photos",
           "pending_photos", "photo_file", "proof_of", "reject_photo", "set_photo_rule", "submit_photo"]

MAX_MEDIA_CHARS = 256 * 1024  # the photo's message as received (its thumbnail included) is kept while it is fetched
PROOF_KEY = "proof_urls"  # the service_secrets row of the key that signs photo addresses


class ProofRefused(TaskcoreError):
    """A photo, an approval or a photo rule refused; ``code`` names why (``chat.photo_replies.REFUSALS``)."""

    def __init__(self, code: str, task_id: int) -> None:
        super().__init__(f"task {task_id}: {code}")
        self.code = code
        self.task_id = task_id


def _visible(uow: UnitOfWork, mode: GatingMode, user_id: str, task_id: int) -> Task:
    """The task, when the user may see it (NotFound otherwise)."""
    return tasks.get_task(uow, mode, user_id=user_id, task_id=task_id)


def photo_files(data_dir: str | None) -> PhotoFiles | None:
    """The photo folder of DATA_DIR (None without one: nothing is kept or deleted)."""
    return PhotoFiles(data_dir) if data_dir else None


def approvers_of(uow: Reading, task_id: int, *, besides: str | None = None) -> list[str]:
    """Who may approve the task's photo: its creator and its group's WhatsApp admins, less ``besides``."""
    conn = uow.conn
    creator, admins = q.approvers(conn, task_id)
    people = [creator, *admins] if creator else admins
    return [person for person in dict.fromkeys(people) if person != besides]


def proof_of(uow: Reading, task_id: int) -> ProofRow | None:
    """The task's photo rule and photo, None when it never needed one."""
    conn = uow.conn
    return q.proof_of(conn, task_id)


def _approver(uow: UnitOfWork, task: Task, user_id: str) -> None:
    if user_id not in approvers_of(uow, task.id):
        raise ProofRefused("not_approver", task.id)


def set_photo_rule(uow: UnitOfWork, mode: GatingMode, files: PhotoFiles | None, *, user_id: str, task_id: int,
                   required: bool) -> Task:
    """Make a group task need a photo to be done, or stop needing one (a photo waiting is then discarded); only its
    creator or a group admin may, and not on an each-mode task."""
    task = _visible(uow, mode, user_id, task_id)
    if task.group_id is None:
        raise ProofRefused("not_group", task_id)
    if task.completed:
        raise ProofRefused("completed", task_id)
    _approver(uow, task, user_id)
    if required and task.completion is CompletionMode.EACH:
        raise ProofRefused("each", task_id)
    found = q.proof_of(uow.conn, task_id)
    if not required and found is not None and found.file_name and files is not None:
        files.delete(found.file_name)
    if not required and found is not None:
        q.clear_photo(uow.conn, task_id)
    q.set_required(uow.conn, task_id, required)
    return task


@dataclass(frozen=True, slots=True)
class PhotoMessage:
    """A photo that arrived for a task: who sent it, where, its message's id and author, caption, and the message
    as received (``media``: JSON of its key and message, passed back whole to fetch the bytes)."""

    user_id: str
    group_id: str
    chat_id: str
    message_id: str
    participant: str | None
    caption: str | None
    media: str


def submit_photo(uow: UnitOfWork, mode: GatingMode, *, task_id: int, photo: PhotoMessage, now: datetime) -> Task:
    """Record a photo to fetch for the task (the fetch runs apart: ``services.photo_intake``); ProofRefused when the
    task is another group's, is done, needs no photo, has one waiting, or the sender is not its assignee."""
    try:
        task = _visible(uow, mode, photo.user_id, task_id)
    except TaskcoreError as exc:
        raise ProofRefused("not_found", task_id) from exc
    if task.group_id != photo.group_id:
        raise ProofRefused("other_group", task_id)
    if task.completed:
        raise ProofRefused("completed", task_id)
    found = q.proof_of(uow.conn, task_id)
    if found is None or not found.required:
        raise ProofRefused("not_required", task_id)
    if found.state in (ProofState.FETCHING, ProofState.WAITING):
        raise ProofRefused("waiting", task_id)
    if task.assignees and photo.user_id not in task.assignee_ids:
        raise ProofRefused("not_assignee", task_id)
    if len(photo.media) > MAX_MEDIA_CHARS:
        raise ProofRefused("unreadable", task_id)
    q.record_fetch(uow.conn, task_id, sent_by=photo.user_id, chat_id=photo.chat_id, message_id=photo.message_id,
                   participant=photo.participant, caption=photo.caption, media=photo.media, now=now)
    return task


@dataclass(frozen=True, slots=True)
class Approval:
    """An approved photo: the completion it made (the next occurrence of a series needs a photo too) and who sent
    it."""

    done: Completion
    sent_by: str | None


def _waiting(uow: UnitOfWork, mode: GatingMode, user_id: str, task_id: int) -> tuple[Task, ProofRow]:
    """The task and its waiting photo, when ``user_id`` may approve or reject it (ProofRefused otherwise)."""
    task = _visible(uow, mode, user_id, task_id)
    if task.completed:
        raise ProofRefused("completed", task_id)
    found = q.proof_of(uow.conn, task_id)
    if found is not None and found.state == ProofState.FETCHING:
        raise ProofRefused("fetching", task_id)
    if found is None or found.state != ProofState.WAITING:
        raise ProofRefused("nothing_waiting", task_id)
    _approver(uow, task, user_id)
    if found.sent_by == user_id:
        raise ProofRefused("own_photo", task_id)
    return task, found


def approve_photo(uow: UnitOfWork, mode: GatingMode, *, user_id: str, task_id: int, now: datetime,
                  today: date | None = None) -> Approval:
    """Approve the task's waiting photo: the task is completed by whoever sent it, through the one completion use
    case (recurrence, points and turns as for any completion); the next occurrence needs a photo as well."""
    _task, found = _waiting(uow, mode, user_id, task_id)
    q.mark_approved(uow.conn, task_id, now=now)
    completer = found.sent_by if found.sent_by is not None else user_id
    done = tasks.complete_task(uow, mode, user_id=completer, task_id=task_id, now=now,
                               today=today, proven=True)
    if done.next_task is not None:
        q.set_required(uow.conn, done.next_task.id, True)
    return Approval(done, found.sent_by)


def reject_photo(uow: UnitOfWork, mode: GatingMode, files: PhotoFiles | None, *, user_id: str,
                 task_id: int) -> tuple[Task, str | None]:
    """Send the task's waiting photo back: its file is deleted and the task stays open for another photo; the task
    and who sent the photo."""
    task, found = _waiting(uow, mode, user_id, task_id)
    q.clear_photo(uow.conn, task_id)
    if files is not None:
        files.delete(found.file_name)
    return task, found.sent_by


def pending_photos(uow: Reading, user_id: str) -> list[PendingPhoto]:
    """The photos waiting for this person's approval (tasks they created, or in groups where they are a WhatsApp
    admin), never their own, oldest first; the sender by name (unknown: the neutral label in the language in force,
    never a number)."""
    conn = uow.conn
    rows = q.pending_for(conn, user_id)
    return [PendingPhoto(int(row[0]), str(row[1]), row[2], str(row[3]), shown_name(row[4]), row[6]) for row in rows]


def photo_file(uow: Reading, mode: GatingMode, files: PhotoFiles, *, user_id: str, task_id: int,
               file_name: str) -> bytes:
    """The photo a member of the task's group opens (NotFound for anyone else, or when it is gone)."""
    conn = uow.conn
    found = task_rows.task_facts(conn, task_id, user_id)
    proof = q.proof_of(conn, task_id)
    if found is None or found[0].group_id is None:
        raise NotFound(f"task {task_id} not found")
    check_action(TaskAction.VIEW, user_id, found[0], mode, found[1])
    if found[1] is None or not found[1].user_is_active_member:
        raise NotFound(f"task {task_id} not found")
    if proof is None or proof.file_name != file_name:
        raise NotFound(f"task {task_id} has no such photo")
    data = files.read(file_name)
    if data is None:
        raise NotFound(f"task {task_id}: the photo is gone")
    return data


def expire_photos(uow: UnitOfWork, files: PhotoFiles, *, now: datetime, retention_days: int,
                  batch: int = 500) -> int:
    """Delete the photos approved more than ``retention_days`` ago, and photo files no row keeps (older than a
    day: a write cut short, a row deleted with its task); the number of files deleted."""
    conn = uow.conn
    expired = q.expired_photos(conn, approved_before=now - timedelta(days=retention_days), limit=batch)
    for task_id, name in expired:
        q.forget_file(conn, task_id, name)
        files.delete(name)  # a commit that then fails leaves a row whose photo is gone, which the next run forgets
    kept = q.kept_files(conn)
    leftovers = files.leftovers(kept, older_than_seconds=timedelta(days=1).total_seconds(), now=now.timestamp())
    for name in leftovers:
        files.remove_leftover(name)
    return len(expired) + len(leftovers)
