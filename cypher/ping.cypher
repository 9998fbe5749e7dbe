// Connectivity check used by every command before it works.
RETURN 1 AS ok
