"""Storage on SQLAlchemy Core: schema, migrations, engine and queries."""

from taskcore.storage import proof_tables as _proof_tables  # noqa: F401 - its tables join the schema's metadata
from taskcore.storage import reward_tables as reward_tables  # the rewards' tables on the schema's metadata
