// related: the one-hop neighbourhood of a unit; every list is capped at $limit rows and has its full
// count beside it. parent and children are the tree (CONTAINS_*); cites and cited_by follow the
// CITES_* edges that start or end at the unit or at a unit inside it (an edge starts at the most
// specific unit that writes the reference and ends at the most specific one cited, as in
// unit/get.cypher); cited_by_laws counts the distinct citing units per law (the backlink view);
// path is the tree from the Gesetz down to the unit (the page's breadcrumbs). law_loaded: whether
// the unit's law finished loading (ingest sets Gesetz.hash last), as in unit/get.cypher.
MATCH (n:Unit {id: $id})
OPTIONAL MATCH (p)-[pr]->(n) WHERE type(pr) STARTS WITH 'CONTAINS_'
OPTIONAL MATCH (g:Gesetz {id: n.law})
CALL (n) {
  MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(:Unit)-[r]->(t:Unit)
  WHERE type(r) STARTS WITH 'CITES_'
  WITH DISTINCT t ORDER BY t.law, t.id
  RETURN collect({id: t.id, citation: t.citation, law: t.law, repealed: coalesce(t.repealed, false)}) AS cites
}
CALL (n) {
  MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(:Unit)<-[r]-(s:Unit)
  WHERE type(r) STARTS WITH 'CITES_'
  WITH DISTINCT s ORDER BY s.law, s.id
  RETURN collect({id: s.id, citation: s.citation, law: s.law, repealed: coalesce(s.repealed, false)}) AS cited_by
}
CALL (cited_by) {
  UNWIND cited_by AS c
  WITH c.law AS law, count(*) AS units ORDER BY units DESC, law
  RETURN collect({law: law, count: units}) AS cited_by_laws
}
RETURN g.hash IS NOT NULL AS law_loaded, n.id AS id, n.law AS law, n.level AS level, n.citation AS citation, n.title AS title,
       coalesce(n.repealed, false) AS repealed,
       CASE WHEN p IS NULL THEN null ELSE {id: p.id, citation: coalesce(p.citation, p.title), unit: p:Unit} END AS parent,
       COLLECT {
         MATCH path = (:Gesetz)-[:CONTAINS_GLIEDERUNG|CONTAINS_PARAGRAPH|CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..12]->(n)
         UNWIND nodes(path) AS a
         RETURN {id: a.id, label: coalesce(a.citation, a.label, a.jurabk, a.id), title: a.title, unit: a:Unit}
       } AS path,
       COUNT { MATCH (n)-[r]->(:Unit) WHERE type(r) STARTS WITH 'CONTAINS_' } AS children_count,
       COLLECT {
         MATCH (n)-[r]->(c:Unit) WHERE type(r) STARTS WITH 'CONTAINS_'
         WITH c ORDER BY c.order LIMIT $limit
         RETURN {id: c.id, citation: c.citation, title: c.title, repealed: coalesce(c.repealed, false)}
       } AS children,
       size(cites) AS cites_count, cites[0..$limit] AS cites,
       size(cited_by) AS cited_by_count, cited_by[0..$limit] AS cited_by, cited_by_laws
