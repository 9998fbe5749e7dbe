// Text and citation of given unit ids (to display hits ranked outside Neo4j).
UNWIND $ids AS id
MATCH (n:Unit {id: id})
RETURN n.id AS id, n.citation AS citation, n.text AS text, n.words AS words, n.title AS title
