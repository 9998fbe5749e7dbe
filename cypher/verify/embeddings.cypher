// verify: the stored vectors of the resolved units, for the vector part of the support score.
UNWIND $ids AS id
MATCH (n:Unit {id: id})
WHERE n.embedding IS NOT NULL
RETURN n.id AS id, n.level AS level, n.embedding AS embedding
