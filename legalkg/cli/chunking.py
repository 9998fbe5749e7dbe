"""`legalkg chunking` (not yet built)."""

COMMANDS: list = []
