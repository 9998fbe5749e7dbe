// Laws whose broken references were written: drop the BrokenReference nodes their text no longer makes
// and mark the set as loaded.
UNWIND $laws AS l
MATCH (g:Gesetz {id: l.law})
CALL (l) {
  MATCH (b:BrokenReference {law: l.law}) WHERE b.gen <> l.gen
  DETACH DELETE b
}
SET g.broken_hash = l.gen
RETURN count(*) AS n
