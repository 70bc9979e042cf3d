"""The project's generators of shipped data (run by nox sessions, not shipped themselves)."""
