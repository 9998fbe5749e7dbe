// The enabling provisions an ordinance names in its Eingangsformel, and those it names that reach no unit.
MATCH (g:Gesetz {id: $law})
OPTIONAL MATCH (g)-[e:AUTHORIZED_BY]->(t:Unit)
WITH g, e, t ORDER BY t.law, t.order
RETURN g.id AS law, g.issuer AS issuer, g.enabling_unresolved AS unresolved,
       [x IN collect(CASE WHEN t IS NULL THEN null ELSE {target: t.id, citation: t.citation, role: e.role,
        text: e.text, start: e.start, end: e.end, exact: e.exact} END) WHERE x IS NOT NULL] AS edges
