// BrokenReference nodes of one batch (graph.broken): one per citation of a unit that points to a missing
// or repealed unit, with the reference as written, its target, status and reason, linked from the citing
// unit. Row fields are projected first.
UNWIND $rows AS r
WITH r.id AS bid, r.unit AS uid, r.gen AS gen, r.props AS props
MATCH (u:Unit {id: uid})
MERGE (b:BrokenReference {id: bid})
SET b += props, b.gen = gen
MERGE (u)-[e:HAS_BROKEN_REFERENCE]->(b)
SET e.gen = gen
RETURN count(*) AS n
