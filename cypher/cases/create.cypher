// Create one batch of decisions new to the graph. The hash is set last (finish.cypher), so a load
// killed in between leaves the node without one and the next run writes it again.
UNWIND $rows AS r
WITH r.id AS id, r.props AS props, r.date AS day
CREATE (d:Decision)
SET d = props, d.id = id, d.date = date(day)
RETURN count(d) AS n
