"""`legalkg ingest` (not yet built)."""

COMMANDS: list = []
