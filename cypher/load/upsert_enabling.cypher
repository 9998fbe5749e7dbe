// AUTHORIZED_BY edges of one batch: from an ordinance's Gesetz node to a unit its Eingangsformel
// names as enabling provision (one edge per role and target). Row fields are projected first.
UNWIND $rows AS r
WITH r.source AS sid, r.target AS tid, r.gen AS gen, r.props AS props
MATCH (g:Gesetz {id: sid})
MATCH (t:Unit {id: tid})
MERGE (g)-[e:AUTHORIZED_BY {role: props.role}]->(t)
SET e += props, e.gen = gen
RETURN count(*) AS n
