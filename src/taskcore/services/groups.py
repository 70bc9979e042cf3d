"""Group registry use cases: sightings and discovery, ALLOWED_GROUPS seeds, admin allow/block, group sync (SPEC 4)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from taskcore.access import GatingMode, GroupStatus, Sighting, known_sighting
from taskcore.errors import NotFound, ValidationError
from taskcore.identity import normalize_group_id
from taskcore.model import GroupRecord
from taskcore.storage import groups as q
from taskcore.unit import Reading, UnitOfWork

LISTING_CHUNK = 200  # groups per write transaction in the group sync, so other writers are not held up


@dataclass(frozen=True, slots=True)
class ListingResult:
    """What a group sync changed: groups discovered (announce them), skipped (not served), deactivated."""

    discovered: tuple[str, ...]
    skipped: tuple[str, ...]
    deactivated: tuple[str, ...]


def see_group(uow: UnitOfWork, mode: GatingMode, *, group_id: str, name: str | None = None, now: datetime) -> Sighting:
    """A group seen by a webhook: recorded (discover: as pending, announced once); enforce ignores unknown ones.
    Written only when its snapshot says something must be."""
    conn = uow.conn
    snap = q.snapshot(conn, group_id)
    known = known_sighting(mode, group_id, snap, name)
    if known is not None:
        return known
    return q.sight(uow.conn, mode, group_id, name=name, now=now)


def seed_allowed_groups(uow: UnitOfWork, group_ids: Iterable[str], *, now: datetime) -> int:
    """Insert ALLOWED_GROUPS as allowed where they have no status; a recorded status (a block) is kept."""
    added = 0
    for group_id in dict.fromkeys(group_ids):
        q.ensure_group(uow.conn, group_id, now)
        added += q.insert_status(uow.conn, group_id, GroupStatus.ALLOWED, now)
    return added


def set_group_status(
    uow: UnitOfWork, *, group_id: str, status: GroupStatus, by: str | None, now: datetime
) -> GroupRecord:
    """An admin allows or blocks a group (rows created when absent); who and when are recorded."""
    try:
        gid = normalize_group_id(group_id)
    except ValueError as exc:
        raise ValidationError(str(exc), field="group_id") from exc
    wanted = GroupStatus(status)

    conn = uow.conn
    q.ensure_group(conn, gid, now)
    q.set_status(conn, gid, wanted, by=by, now=now)
    record = q.load_group(conn, gid)
    if record is None:  # pragma: no cover - created just above, in this transaction
        raise NotFound(f"group {gid} not found")
    return record


def list_groups(uow: Reading, *, status: GroupStatus | None = None) -> list[GroupRecord]:
    """Known groups, optionally with one status, ordered by name then id."""
    conn = uow.conn
    return q.list_groups(conn, status)


def status_counts(uow: Reading) -> dict[GroupStatus, int]:
    """Groups per status, zeros included (the allowed_groups_total_* gauges)."""
    conn = uow.conn
    return q.status_counts(conn)


def apply_group_listing(
    uow: UnitOfWork, mode: GatingMode, *, listed: Sequence[tuple[str, str | None]], community_id: str | None,
    now: datetime,
) -> ListingResult:
    """The group sync: record each listed group per the discovery rules, deactivate the groups no longer listed."""
    names = dict(listed)
    ids = list(names)
    sightings: list[Sighting] = []
    for start in range(0, len(ids), LISTING_CHUNK):
        chunk = {gid: names[gid] for gid in ids[start : start + LISTING_CHUNK]}
        sightings += _sight_chunk(uow, mode, chunk, community_id, now)
    gone = q.deactivate_unlisted(uow.conn, names.keys())
    return ListingResult(
        discovered=tuple(s.group_id for s in sightings if s.newly_discovered),
        skipped=tuple(s.group_id for s in sightings if not s.allowed),
        deactivated=tuple(gone),
    )


def _sight_chunk(
    uow: UnitOfWork, mode: GatingMode, chunk: dict[str, str | None], community_id: str | None, now: datetime
) -> list[Sighting]:
    conn = uow.conn
    return [
        q.sight(conn, mode, gid, name=name, now=now, community_id=community_id, synced=True)
        for gid, name in chunk.items()
    ]
