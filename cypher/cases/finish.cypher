// Mark decisions as completely written (their content hash: a re-ingest skips an unchanged one).
UNWIND $rows AS r
MATCH (d:Decision {id: r.id})
SET d.hash = r.hash
RETURN count(d) AS n
