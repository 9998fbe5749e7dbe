// A unit page's text: the units of the subtree of $root (the unit itself, or for a Nummer or
// Buchstabe the Satz that introduces it) in document order, each with its parent and the CITES_*
// edges that start at it: the chain as written (`text`), where the chains citing the target stand in
// the unit's text (`starts`, `ends`: character offsets written at ingest) and the cited unit.
MATCH (root:Unit {id: $root})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(d:Unit)
OPTIONAL MATCH (p)-[pr]->(d) WHERE type(pr) STARTS WITH 'CONTAINS_'
WITH DISTINCT d, p ORDER BY d.order
RETURN d.id AS id, p.id AS parent, d.level AS level, d.label AS label, d.text AS text,
       coalesce(d.repealed, false) AS repealed,
       COLLECT {
         MATCH (d)-[r]->(t:Unit) WHERE type(r) STARTS WITH 'CITES_'
         WITH r, t ORDER BY t.order
         RETURN {text: r.text, starts: r.starts, ends: r.ends, id: t.id, citation: t.citation, title: t.title, repealed: coalesce(t.repealed, false)}
       } AS cites
