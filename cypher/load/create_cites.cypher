// CITES_<target level> edges of one batch whose source units were created in this run (so no
// edge of theirs exists yet); upsert_cites.cypher is the MERGE form for everything else.
UNWIND $rows AS r
WITH r.source AS sid, r.target AS tid, r.gen AS gen, r.kind AS kind, r.text AS text, r.starts AS starts,
     r.ends AS ends
MATCH (s:Unit {id: sid})
MATCH (t:__TARGET__ {id: tid})
CREATE (s)-[:CITES___TARGET_TYPE__ {gen: gen, kind: kind, text: text, starts: starts, ends: ends}]->(t)
RETURN count(*) AS n
