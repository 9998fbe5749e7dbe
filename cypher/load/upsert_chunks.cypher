// Upsert naive 100-word chunks; the units a chunk overlaps are its `covers` list.
UNWIND $rows AS r
MERGE (c:Chunk {id: r.id})
SET c += r.props, c.gen = r.gen
RETURN count(c) AS n
