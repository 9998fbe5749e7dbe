// Every text unit below the given units (--level auto refines each § hit inside its subtree):
// each with its parent's id, parents before children, siblings in document order.
UNWIND $ids AS root
MATCH path = (:Unit {id: root})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*1..5]->(u:Unit)
WHERE NOT coalesce(u.repealed, false)
WITH root, u, nodes(path)[-2].id AS parent, length(path) AS depth
RETURN root, u.id AS id, parent, u.citation AS citation, u.text AS text, u.words AS words, u.title AS title
ORDER BY root, depth, u.order
