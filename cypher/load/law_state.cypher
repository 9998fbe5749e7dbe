// The load state of laws: structure hash and citation hash (null while a load is unfinished).
UNWIND $laws AS law
OPTIONAL MATCH (g:Gesetz {id: law})
RETURN law, g IS NOT NULL AS exists, g.hash AS hash, g.cites_hash AS cites_hash, g.enabling_hash AS enabling_hash, g.terms_hash AS terms_hash,
       g.broken_hash AS broken_hash
