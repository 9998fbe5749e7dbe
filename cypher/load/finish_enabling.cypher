// Laws whose enabling edges were written: drop the edges (and CitedLaw nodes) their preamble no longer
// makes, keep the
// references that reach no unit (status|citation|text) and mark the set as loaded.
UNWIND $laws AS l
MATCH (g:Gesetz {id: l.law})
CALL (g, l) {
  MATCH (g)-[e:AUTHORIZED_BY]->()
  WHERE e.gen <> l.gen
  DELETE e
}
CALL (l) {
  MATCH (c:CitedLaw {law: l.law})
  WHERE c.gen <> l.gen
  DETACH DELETE c
}
SET g.enabling_hash = l.gen, g.enabling_unresolved = l.unresolved
RETURN count(*) AS n
