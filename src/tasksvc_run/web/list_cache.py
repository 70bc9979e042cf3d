"""`GET /api/me/tasks` at the database's cost (SPEC section 42): each answer kept, as the bytes sent, with the
person's list stamp it was read at, and sent again while the stamp has not moved.

The stamp is the database's (migration 0019): the triggers move it in the transaction of every write that changes
what the person's lists show, in whichever process writes, so a kept answer is never older than the snapshot that
read the stamp. The stamp and, when it moved, the page are read in one snapshot
(``task_lists.my_task_items_since``), on the event loop like every short read. An answer that shows a photo also
keeps when its signed addresses expire: it is read again once addresses signed now would expire later. The
recent tasks (a window that moves with the clock) are not kept. Only the event loop uses a cache (not thread-safe).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import orjson

from taskcore.pagination import Page

DEFAULT_BUDGET = 4 * 1024 * 1024  # bytes of kept answers per web process, least recently used dropped first


@dataclass(frozen=True, slots=True)
class Kept:
    """One kept answer: the stamp it was read at, when its photo addresses expire (None: it shows none), its body."""

    stamp: int
    expires: int | None
    body: bytes


class ListCache:
    """Answers by request (person, gating, query, day), least recently used dropped beyond ``budget`` bytes."""

    def __init__(self, expires: Callable[[], int], budget: int = DEFAULT_BUDGET) -> None:
        self._expires = expires  # when addresses signed now expire (ProofLinks.expires)
        self.budget = budget
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()
        self._size = 0

    def stamp_of(self, key: Hashable) -> int | None:
        """The stamp of the answer kept for ``key`` (None: none, or its photo addresses would be out of date)."""
        kept = self._kept.get(key)
        if kept is None or (kept.expires is not None and kept.expires != self._expires()):
            return None
        return kept.stamp

    def body(self, key: Hashable) -> bytes:
        """The answer kept for ``key`` (whose stamp ``stamp_of`` gave), now the most recently used."""
        self._kept.move_to_end(key)
        return self._kept[key].body

    def answer(self, key: Hashable, stamp: int | None, page: Page[dict[str, Any]],
               render: Callable[[Page[dict[str, Any]]], dict[str, Any]]) -> bytes:
        """The body of ``page`` (rendered now), kept for ``key`` when it has a stamp."""
        photos = any(item["proof"] is not None for item in page.items)  # read before render names them
        expires = self._expires() if photos else None
        body = orjson.dumps(render(page))
        if stamp is not None and len(body) <= self.budget:
            self._keep(key, Kept(stamp, expires, body))
        return body

    def _keep(self, key: Hashable, kept: Kept) -> None:
        old = self._kept.pop(key, None)
        self._size += len(kept.body) - (len(old.body) if old is not None else 0)
        self._kept[key] = kept
        while self._size > self.budget:
            _, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped.body)

    def __len__(self) -> int:
        return len(self._kept)
