// Create one batch of nodes of one level with the CONTAINS edge from their parent, for laws that
// had no Gesetz node before this run (nothing of theirs can exist yet, so nothing to MERGE).
// The row fields are projected to plain variables first: reading r.x after a SET counts as a
// possible read of a node property, and each such conflict plans an Eager barrier (three of them
// in upsert_nodes.cypher). CREATE needs no MERGE look-up; the uniqueness constraint still guards.
UNWIND $rows AS r
WITH r.parent AS pid, r.id AS id, r.props AS props, r.gen AS gen
MATCH (p:__PARENT__ {id: pid})
CREATE (n:__LABEL__)
SET n = props, n.id = id, n.gen = gen
CREATE (p)-[:CONTAINS___LABEL_TYPE__ {gen: gen}]->(n)
FOREACH (_ IN CASE WHEN $unit THEN [1] ELSE [] END | SET n:Unit)
RETURN count(*) AS n
