"""Use cases: each takes the database, the values it needs and the clock, and returns records or raises.

The shells name the database handle the use cases take, and tell its failures apart, through this package
(``Database``, ``is_unavailable``...): only the composition roots, which open the database and migrate it, import the
storage engine itself (SPEC section 29).
"""

from taskcore.storage.db import Database, is_busy_error, is_schema_error, is_unavailable, unavailable_reason

__all__ = ["Database", "is_busy_error", "is_schema_error", "is_unavailable", "unavailable_reason"]
