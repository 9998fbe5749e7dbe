// The stored content hash of decisions by id (null: not in the graph, or its last write unfinished).
UNWIND $ids AS id
OPTIONAL MATCH (d:Decision {id: id})
RETURN id, d IS NOT NULL AS exists, d.hash AS hash
