// Wait until every index is online (vector/full-text population after a bulk write).
CALL db.awaitIndexes($seconds)
