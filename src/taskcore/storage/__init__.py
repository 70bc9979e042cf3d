"""Storage on SQLAlchemy Core: schema, migrations, engine and queries."""

from taskcore.storage import proof_tables as _proof_tables  # noqa: F401 - its tables join the schema's metadata
