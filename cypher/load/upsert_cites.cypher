// CITES_<target level> edges of one batch (source and target are text units); starts/ends: the
// offsets of the chains in the source unit's text that cite the target. Row fields are
// projected first to keep Eager barriers out of the plan (see create_nodes.cypher).
UNWIND $rows AS r
WITH r.source AS sid, r.target AS tid, r.gen AS gen, r.kind AS kind, r.text AS text, r.starts AS starts,
     r.ends AS ends
MATCH (s:Unit {id: sid})
MATCH (t:__TARGET__ {id: tid})
MERGE (s)-[e:CITES___TARGET_TYPE__]->(t)
SET e.gen = gen, e.kind = kind, e.text = text, e.starts = starts, e.ends = ends
RETURN count(*) AS n
