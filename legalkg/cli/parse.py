"""`legalkg parse` (not yet built)."""

COMMANDS: list = []
