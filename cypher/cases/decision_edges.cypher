// Every CITES_* edge from a decision to a statute unit: the decision, the citation as written, the
// count and the unit (with its citation in court style). For measurement and sampling.
MATCH (d:Decision)-[e]->(u:Unit)
WHERE type(e) STARTS WITH 'CITES_'
RETURN d.id AS decision, d.court AS court, type(e) AS type, e.text AS text, e.count AS count,
       u.id AS target, u.citation AS citation
ORDER BY decision, target
