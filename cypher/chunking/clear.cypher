// Remove one strategy's study units (before a rebuild), in batches.
MATCH (n:StudyUnit {strategy: $strategy})
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
