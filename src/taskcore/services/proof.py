"""Photo proof as use cases (SPEC section 34).

A placeholder of the rewards branch: the photo branch replaces this module with the real one; ``pending_photos``
keeps its signature.
"""

from __future__ import annotations

from taskcore.chores.proof import PendingPhoto
from taskcore.storage.db import Database


def pending_photos(db: Database, user_id: str) -> list[PendingPhoto]:
    """The photos waiting for ``user_id``'s approval (as a task's creator or a group admin), oldest first.

    Placeholder: no photo is ever kept in this branch, so none waits; the photo branch replaces it."""
    del db, user_id
    return []
