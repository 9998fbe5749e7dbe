// Block until every index is ONLINE and eventually consistent full-text indexes caught up.
CALL db.awaitIndexes($seconds)
