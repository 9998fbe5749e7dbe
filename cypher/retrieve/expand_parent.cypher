// Parent expansion: one CONTAINS_* hop up from each seed, when the parent is a text unit
// (a § has a Gliederung above it, which holds no statute text, so § seeds gain nothing).
UNWIND $ids AS seed
MATCH (n:Unit {id: seed})<-[r]-(p:Unit)
WHERE type(r) STARTS WITH 'CONTAINS_'
RETURN seed, p.id AS id, p.citation AS citation, p.text AS text, p.words AS words, p.title AS title,
       'parent' AS via
