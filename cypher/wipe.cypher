// Delete every node and relationship in batches (tests and `legalkg ingest --wipe`).
MATCH (n)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
