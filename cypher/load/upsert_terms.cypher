// Term nodes (one per term and scope) and the DEFINES edge from each defining unit, of one batch.
UNWIND $rows AS r
WITH r.id AS tid, r.unit AS uid, r.gen AS gen, r.props AS props, r.edge AS edge
MERGE (t:Term {id: tid})
SET t += props, t.gen = gen
WITH t, uid, gen, edge
MATCH (u:Unit {id: uid})
MERGE (u)-[e:DEFINES {pattern: edge.pattern}]->(t)
SET e.text = edge.text, e.gen = gen
RETURN count(*) AS n
