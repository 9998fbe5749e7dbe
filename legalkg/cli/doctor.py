"""`legalkg doctor` (not yet built)."""

COMMANDS: list = []
