// The enabling provisions an ordinance names in its Eingangsformel, and those it names that reach no unit:
// `unresolved` (status|citation|words, every one) and `outside` (the unresolved AUTHORIZED_BY edges to
// the CitedLaw nodes of laws outside the graph, with their status).
MATCH (g:Gesetz {id: $law})
OPTIONAL MATCH (g)-[e:AUTHORIZED_BY]->(t:Unit)
WITH g, e, t ORDER BY t.law, t.order
WITH g, [x IN collect(CASE WHEN t IS NULL THEN null ELSE {target: t.id, citation: t.citation, role: e.role,
         text: e.text, start: e.start, end: e.end, exact: e.exact} END) WHERE x IS NOT NULL] AS edges
OPTIONAL MATCH (g)-[o:AUTHORIZED_BY]->(c:CitedLaw)
WITH g, edges, o, c ORDER BY o.start, o.citation
RETURN g.id AS law, g.issuer AS issuer, g.enabling_unresolved AS unresolved, edges,
       [x IN collect(CASE WHEN c IS NULL THEN null ELSE {law: c.name, status: o.status, citation: o.citation,
        role: o.role, text: o.text, start: o.start, end: o.end} END) WHERE x IS NOT NULL] AS outside
