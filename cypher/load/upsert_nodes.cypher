// Upsert one batch of nodes of one level together with the CONTAINS edge from their parent.
// __LABEL__ / __PARENT__ are filled from legalkg.model.Level only; the parents exist already
// (batches go top-down by tree depth). Text units also get the shared :Unit label.
UNWIND $rows AS r
MATCH (p:__PARENT__ {id: r.parent})
MERGE (n:__LABEL__ {id: r.id})
SET n += r.props, n.gen = r.gen
MERGE (p)-[e:CONTAINS___LABEL_TYPE__]->(n)
SET e.gen = r.gen
FOREACH (_ IN CASE WHEN $unit THEN [1] ELSE [] END | SET n:Unit)
RETURN count(*) AS n
