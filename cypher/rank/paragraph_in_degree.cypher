// Graph prior (legalkg.rank): in-degree of every Paragraph of one law in the CITES_* graph, i.e.
// how many distinct OTHER Paragraphs contain a unit that cites this Paragraph or a unit inside it.
// Same definition as legalkg.rank.graph.in_degree over legalkg.cite.statute_edges.
// Parameters: $law (law key, e.g. 'BGB').
MATCH (p:Paragraph {law: $law})
MATCH (p)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(t:Unit)
MATCH (s:Unit)-[r]->(t)
WHERE type(r) STARTS WITH 'CITES_'
MATCH (sp:Paragraph)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(s)
WHERE sp <> p
RETURN p.id AS id, count(DISTINCT sp) AS in_degree
