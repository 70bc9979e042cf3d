"""Users (the people rows): created when first seen, their name and when they were last seen. The statements live
with the identities' (``storage.identities``), which the road reads and writes in the same steps."""

from __future__ import annotations

from taskcore.storage.identities import (
    SEEN_RESOLUTION,
    display_names,
    ensure_user,
    ensure_users,
    refresh_user,
    seen_lately,
)

__all__ = ["SEEN_RESOLUTION", "display_names", "ensure_user", "ensure_users", "refresh_user", "seen_lately"]
