// Mark laws' citation edges as completely loaded.
UNWIND $laws AS l
MATCH (g:Gesetz {id: l.law})
SET g.cites_hash = l.gen
