// Remove the vectors of one level (model switch with --reembed), in batches.
MATCH (n:__LABEL__) WHERE n.embedding IS NOT NULL
CALL (n) { REMOVE n.embedding, n.embedding_hash } IN TRANSACTIONS OF 10000 ROWS
