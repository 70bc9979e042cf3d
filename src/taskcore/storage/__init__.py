"""Storage on SQLAlchemy Core: schema, migrations, engine and queries."""

from taskcore.storage import penalty_tables as _penalty_tables  # noqa: F401 - the missed chores' and displays' tables
from taskcore.storage import proof_tables as _proof_tables  # noqa: F401 - its tables join the schema's metadata
from taskcore.storage import reward_tables as reward_tables  # the rewards' tables on the schema's metadata
