// Every relationship as (source id, type, target id) (graph checksum for idempotence tests).
MATCH (a)-[r]->(b)
RETURN coalesce(a.id, a.index) AS source, type(r) AS type, coalesce(b.id, b.index) AS target
