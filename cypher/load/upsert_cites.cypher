// CITES_<target level> edges of one batch (source and target are text units).
UNWIND $rows AS r
MATCH (s:Unit {id: r.source})
MATCH (t:__TARGET__ {id: r.target})
MERGE (s)-[e:CITES___TARGET_TYPE__]->(t)
SET e.gen = r.gen, e.kind = r.kind, e.text = r.text
RETURN count(*) AS n
