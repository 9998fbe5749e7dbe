"""`legalkg eval` (not yet built)."""

COMMANDS: list = []
