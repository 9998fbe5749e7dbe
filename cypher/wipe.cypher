// Delete every node and relationship in batches (tests and benchmarks; no legalkg command wipes a graph).
MATCH (n)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
