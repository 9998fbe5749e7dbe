// Where a unit page stands in its law: the path from the Gesetz to the unit (every level with its
// kind and number: "Buch 2 › Abschnitt 8 › § 573 › Abs. 2"), the § that holds it ($para) and the
// previous and next § of the law in document order that are not repealed; the law's slug and jurabk
// (the official text's address).
MATCH (n:Unit {id: $id})
MATCH (g:Gesetz {id: n.law})
OPTIONAL MATCH (para:Paragraph {id: $para})
RETURN g.slug AS slug, g.jurabk AS jurabk, g.title AS law_title,
       COLLECT {
         MATCH path = (g)-[:CONTAINS_GLIEDERUNG|CONTAINS_PARAGRAPH|CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..12]->(n)
         UNWIND nodes(path) AS a
         RETURN {id: a.id, level: CASE WHEN a:Gesetz THEN 'Gesetz' ELSE a.level END, kind: a.kind, label: a.label,
                 title: a.title, citation: a.citation}
       } AS path,
       COLLECT {
         MATCH (q:Unit {law: n.law}) WHERE q:Paragraph AND q.order < para.order AND NOT coalesce(q.repealed, false)
         WITH q ORDER BY q.order DESC LIMIT 1
         RETURN {id: q.id, citation: q.citation, title: q.title}
       } AS previous,
       COLLECT {
         MATCH (q:Unit {law: n.law}) WHERE q:Paragraph AND q.order > para.order AND NOT coalesce(q.repealed, false)
         WITH q ORDER BY q.order LIMIT 1
         RETURN {id: q.id, citation: q.citation, title: q.title}
       } AS next
