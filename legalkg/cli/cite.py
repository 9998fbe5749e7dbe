"""`legalkg cite` (not yet built)."""

COMMANDS: list = []
