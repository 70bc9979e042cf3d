"""Use cases: each takes the database, the values it needs and the clock, and returns records or raises."""
