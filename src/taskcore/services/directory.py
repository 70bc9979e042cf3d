"""Who and what the database knows, for the development mode's local gateway and chat simulator: each list read in
one read transaction."""

from __future__ import annotations

from typing import Any

from taskcore.storage import directory
from taskcore.unit import Reading


def active_groups(uow: Reading) -> tuple[list[Any], list[Any]]:
    """Active groups (id, name) by id, and every active membership (group id, user id, is_admin)."""
    conn = uow.conn
    return directory.active_groups(conn)


def people_and_groups(uow: Reading) -> tuple[list[Any], list[Any]]:
    """Every user (id, name) by id and every group (id, name, status or None) by name."""
    conn = uow.conn
    return directory.people_and_groups(conn)
