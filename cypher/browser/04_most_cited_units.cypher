// The units most cited by other statute units (incoming CITES_* edges from units; the decisions of
// `legalkg ingest-cases` are counted in 09_units_most_cited_by_bag.cypher), optionally within one law.
:param law => 'BGB';
MATCH (u:Unit)<-[c]-(:Unit)
WHERE type(c) STARTS WITH 'CITES_' AND ($law IS NULL OR u.law = $law)
RETURN u.citation AS unit, count(c) AS cited_by
ORDER BY cited_by DESC
LIMIT 25;
