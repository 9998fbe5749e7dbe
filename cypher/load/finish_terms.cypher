// Laws whose definitions were written: drop the Term nodes and DEFINES edges their text no longer
// makes and mark the set as loaded.
UNWIND $laws AS l
MATCH (g:Gesetz {id: l.law})
CALL (l) {
  MATCH (t:Term {law: l.law}) WHERE t.gen <> l.gen
  DETACH DELETE t
}
CALL (l) {
  MATCH (:Unit {law: l.law})-[e:DEFINES]->() WHERE e.gen <> l.gen
  DELETE e
}
SET g.terms_hash = l.gen
RETURN count(*) AS n
