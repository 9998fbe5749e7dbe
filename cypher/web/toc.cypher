// The table of contents of a law (Gesetz id = law key) or of one Gliederung: the node itself, its
// path from the Gesetz (breadcrumbs) and every Gliederung and § below it with its parent, in
// document order. Repealed §§ are listed (flagged) as the official contents list them.
// law_loaded: whether the law finished loading (ingest sets Gesetz.hash last).
CALL () {
  MATCH (t:Gesetz {id: $id}) RETURN t
  UNION
  MATCH (t:Gliederung {id: $id}) RETURN t
}
WITH t AS top
MATCH (g:Gesetz {id: top.law})
RETURN g.hash IS NOT NULL AS law_loaded, top.id AS id, top.law AS law, top:Gesetz AS is_law,
       top.kind AS kind, top.label AS label, top.title AS title, g.title AS law_title, g.jurabk AS jurabk,
       g.slug AS slug, g.stand AS stand,
       COLLECT {
         MATCH path = (g)-[:CONTAINS_GLIEDERUNG*0..12]->(top)
         UNWIND nodes(path) AS a
         RETURN {id: a.id, kind: a.kind, label: a.label, title: a.title, level: CASE WHEN a:Gesetz THEN 'Gesetz' ELSE 'Gliederung' END}
       } AS path,
       COLLECT {
         MATCH (top)-[:CONTAINS_GLIEDERUNG*0..12]->(p)-[:CONTAINS_GLIEDERUNG|CONTAINS_PARAGRAPH]->(d)
         WITH DISTINCT p, d ORDER BY d.order
         RETURN {id: d.id, parent: p.id, level: CASE WHEN d:Gliederung THEN 'Gliederung' ELSE 'Paragraph' END,
                 kind: d.kind, label: d.label, title: d.title, citation: d.citation,
                 repealed: coalesce(d.repealed, false)}
       } AS entries
