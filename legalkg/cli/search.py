"""`legalkg search` (not yet built)."""

COMMANDS: list = []
