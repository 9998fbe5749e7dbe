"""`legalkg stats` (not yet built)."""

COMMANDS: list = []
