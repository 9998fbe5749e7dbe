// The page /references/broken: one page of broken references (graph.broken), of one law ($law) or of all
// ($law null), in law and text order; each with its citing unit and that unit's text (the Satz).
MATCH (u:Unit)-[:HAS_BROKEN_REFERENCE]->(b:BrokenReference)
WHERE $law IS NULL OR b.law = $law
RETURN u.id AS unit, u.citation AS citation, u.text AS satz, b.reference AS reference, b.target AS target,
       b.status AS status, b.reason AS reason
ORDER BY b.law, u.order, u.id, b.target
SKIP $skip LIMIT $limit
