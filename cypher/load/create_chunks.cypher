// Create naive 100-word chunks for laws new to the graph in this run (see create_nodes.cypher;
// upsert_chunks.cypher is the MERGE form for laws that existed). The units a chunk overlaps are its
// `covers` list (no edges: docs/architecture.md, "Chunks").
UNWIND $rows AS r
CREATE (c:Chunk)
SET c = r.props, c.id = r.id, c.gen = r.gen
RETURN count(c) AS n
