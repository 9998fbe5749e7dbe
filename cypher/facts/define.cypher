// The definitions of a term (its lower-case key), optionally of one law: the Term's scope, the
// defining unit at its deepest level and the pattern that read it, in the laws' document order.
MATCH (t:Term {key: $key})
WHERE $law IS NULL OR t.law = $law
MATCH (u:Unit)-[e:DEFINES]->(t)
OPTIONAL MATCH (sg:Gliederung {id: t.scope})
OPTIONAL MATCH (sp:Paragraph {id: t.scope})
OPTIONAL MATCH (sl:Gesetz {id: t.scope})
RETURN t.term AS term, t.law AS law, t.scope AS scope, t.scope_kind AS scope_kind,
       coalesce(sg.title, sp.citation, sl.title) AS scope_title, u.id AS unit, u.citation AS citation,
       u.text AS text, e.pattern AS pattern
ORDER BY law, u.order
LIMIT $limit
