// The most-cited units (incoming CITES_* edges), optionally within one law.
:param law => 'BGB';
MATCH (u:Unit)<-[c]-()
WHERE type(c) STARTS WITH 'CITES_' AND ($law IS NULL OR u.law = $law)
RETURN u.citation AS unit, count(c) AS cited_by
ORDER BY cited_by DESC
LIMIT 25;
