// Create naive 100-word chunks with their :COVERS edges, for laws new to the graph in this run
// (see create_nodes.cypher; upsert_chunks.cypher is the MERGE form for laws that existed).
UNWIND $rows AS r
WITH r.id AS id, r.props AS props, r.gen AS gen, r.covers AS covers
CREATE (c:Chunk)
SET c = props, c.id = id, c.gen = gen
WITH c, covers, gen
UNWIND covers AS uid
MATCH (u:Unit {id: uid})
CREATE (c)-[:COVERS {gen: gen}]->(u)
RETURN count(DISTINCT c) AS n
