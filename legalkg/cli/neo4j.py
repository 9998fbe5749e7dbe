"""`legalkg neo4j` (not yet built)."""

COMMANDS: list = []
