// Remove units, Gliederung nodes and chunks of reloaded laws that vanished in their newer Stand.
UNWIND $laws AS l
CALL (l) {
  MATCH (n:Unit {law: l.law}) WHERE n.gen <> l.gen RETURN n
  UNION
  MATCH (n:Gliederung {law: l.law}) WHERE n.gen <> l.gen RETURN n
  UNION
  MATCH (n:Chunk {law: l.law}) WHERE n.gen <> l.gen RETURN n
}
DETACH DELETE n
RETURN count(*) AS n
