// Citation expansion: one CITES_* hop out of each seed's text. Edges start at the most specific unit
// that writes the reference, so the hop starts from the seed and everything inside it.
UNWIND $ids AS seed
MATCH (n:Unit {id: seed})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(d:Unit)
MATCH (d)-[r]->(t:Unit)
WHERE type(r) STARTS WITH 'CITES_'
RETURN DISTINCT seed, t.id AS id, t.citation AS citation, t.text AS text, t.words AS words,
       t.title AS title, 'citation' AS via
