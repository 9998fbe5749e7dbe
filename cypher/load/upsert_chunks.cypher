// Upsert naive 100-word chunks and link each to the units it overlaps (:COVERS).
UNWIND $rows AS r
MERGE (c:Chunk {id: r.id})
SET c += r.props, c.gen = r.gen
WITH c, r
UNWIND r.covers AS uid
MATCH (u:Unit {id: uid})
MERGE (c)-[e:COVERS]->(u)
SET e.gen = r.gen
RETURN count(DISTINCT c) AS n
