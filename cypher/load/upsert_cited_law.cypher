// Unresolved AUTHORIZED_BY edges of one batch: from an ordinance's Gesetz node to the CitedLaw node of a
// law its Eingangsformel names that is outside the graph (one node per ordinance and law), with the
// reference's status, citation and words (one edge per role and citation). Row fields are projected first.
UNWIND $rows AS r
WITH r.source AS sid, r.target AS cid, r.cited AS name, r.gen AS gen, r.props AS props
MATCH (g:Gesetz {id: sid})
MERGE (c:CitedLaw {id: cid})
SET c.name = name, c.law = sid, c.gen = gen
MERGE (g)-[e:AUTHORIZED_BY {role: props.role, citation: props.citation}]->(c)
SET e += props, e.gen = gen
RETURN count(*) AS n
