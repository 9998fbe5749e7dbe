// Replace changed decisions: every outgoing edge (CITES_* and CITES_DECISION) goes, and the
// properties are set anew (a text stored by an earlier --with-text run goes too); the edges of the
// current record follow (create_cites.cypher), the hash last (finish.cypher).
UNWIND $rows AS r
WITH r.id AS id, r.props AS props, r.date AS day
MATCH (d:Decision {id: id})
CALL (d) {
  MATCH (d)-[e]->()
  DELETE e
}
SET d = props, d.id = id, d.date = date(day)
RETURN count(d) AS n
