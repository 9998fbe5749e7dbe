// Remove CONTAINS edges of reloaded laws that the newer Stand no longer has (and the :COVERS edges
// from chunks to units that graphs loaded before 2026-11-30 hold).
UNWIND $laws AS l
CALL (l) {
  MATCH (:Unit {law: l.law})<-[e]-() WHERE NOT type(e) STARTS WITH 'CITES_' AND e.gen <> l.gen RETURN e
  UNION
  MATCH (:Gliederung {law: l.law})<-[e]-() WHERE e.gen <> l.gen RETURN e
}
DELETE e
RETURN count(*) AS n
