// The units at level __LABEL__ below each given unit id, in document order: a § the predictor
// or the query names stands for its Absätze (Sätze, ...) when a deeper level is asked.
UNWIND $ids AS pid
MATCH (p:Unit {id: pid})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*1..5]->(u:__LABEL__)
WHERE NOT coalesce(u.repealed, false)
RETURN pid AS parent, u.id AS id
ORDER BY pid, u.order
