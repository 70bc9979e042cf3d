"""Storage on SQLAlchemy Core: schema, migrations, engine and queries."""
