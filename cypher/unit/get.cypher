// get_unit: one unit with its parent, children (document order), the units its text cites and
// the units citing it. Citation edges start at the most specific unit that writes the reference
// and end at the most specific one cited, so both lists look inside the unit (descendants);
// each is capped at $limit rows. law_loaded: whether the unit's law finished loading (ingest sets
// Gesetz.hash last), so a unit of a half-loaded law is refused, not shown with missing neighbours.
MATCH (n:Unit {id: $id})
OPTIONAL MATCH (p)-[pr]->(n) WHERE type(pr) STARTS WITH 'CONTAINS_'
OPTIONAL MATCH (g:Gesetz {id: n.law})
RETURN g.hash IS NOT NULL AS law_loaded, n.id AS id, n.law AS law, n.level AS level, n.citation AS citation, n.title AS title, n.text AS text,
       n.words AS words, coalesce(n.repealed, false) AS repealed,
       p.id AS parent, coalesce(p.citation, p.title) AS parent_citation,
       COLLECT {
         MATCH (n)-[r]->(c:Unit) WHERE type(r) STARTS WITH 'CONTAINS_'
         WITH c ORDER BY c.order
         RETURN {id: c.id, citation: c.citation}
       } AS children,
       COLLECT {
         MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(d:Unit)-[r]->(t:Unit)
         WHERE type(r) STARTS WITH 'CITES_'
         WITH DISTINCT t LIMIT $limit
         RETURN {id: t.id, citation: t.citation}
       } AS cites,
       COLLECT {
         MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(d:Unit)<-[r]-(s:Unit)
         WHERE type(r) STARTS WITH 'CITES_'
         WITH DISTINCT s LIMIT $limit
         RETURN {id: s.id, citation: s.citation}
       } AS cited_by
