// CO_CITED edges of one batch for one task: pairs of units that the task's shipped predictor's
// training cases cite together (legalkg.predict.cocite.edge_rows). One edge per pair and task, from
// the smaller id (a) to the larger (b); pairs with an end outside the graph find no node and are
// skipped. MERGE keeps a second write (or an ingest of more laws) from duplicating edges.
UNWIND $rows AS r
WITH r.a AS aid, r.b AS bid, r.count AS cases, r.npmi AS npmi
MATCH (a:Unit {id: aid})
MATCH (b:Unit {id: bid})
MERGE (a)-[e:CO_CITED {task: $task}]->(b)
SET e.count = cases, e.npmi = npmi, e.gen = $gen
RETURN count(*) AS n
