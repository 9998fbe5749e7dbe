// Store one batch of vectors (as float32 vector properties) and the text hash they were made from.
UNWIND $rows AS r
MATCH (n:__LABEL__ {id: r.id})
CALL db.create.setNodeVectorProperty(n, 'embedding', r.vec)
SET n.embedding_hash = n.hash
RETURN count(*) AS n
