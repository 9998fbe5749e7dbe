// Mark laws' structure as completely loaded (the resumability marker).
UNWIND $laws AS l
MATCH (g:Gesetz {id: l.law})
SET g.hash = l.gen
