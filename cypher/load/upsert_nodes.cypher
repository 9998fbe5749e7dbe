// Upsert one batch of nodes of one level together with the CONTAINS edge from their parent.
// __LABEL__ / __PARENT__ are filled from legalkg.model.Level only; the parents exist already
// (batches go top-down by tree depth). Text units also get the shared :Unit label.
// Row fields are projected to variables first so the planner sees no property read after a SET
// (each such read-after-write conflict plans an Eager barrier; see create_nodes.cypher).
UNWIND $rows AS r
WITH r.parent AS pid, r.id AS id, r.props AS props, r.gen AS gen
MATCH (p:__PARENT__ {id: pid})
MERGE (n:__LABEL__ {id: id})
SET n += props, n.gen = gen
MERGE (p)-[e:CONTAINS___LABEL_TYPE__]->(n)
SET e.gen = gen
FOREACH (_ IN CASE WHEN $unit THEN [1] ELSE [] END | SET n:Unit)
RETURN count(*) AS n
