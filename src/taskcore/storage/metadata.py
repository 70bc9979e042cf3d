"""The one ``MetaData`` every table of ``storage.schema`` is defined on, and the column type of every instant."""

from __future__ import annotations

from sqlalchemy import MetaData

from taskcore.storage.utc import UtcDateTime

__all__ = ["TS", "metadata"]

metadata = MetaData()
TS = UtcDateTime
