// Remove one task's CO_CITED edges that the current table did not write (another gen: a retrained
// predictor no longer has the pair).
MATCH ()-[e:CO_CITED {task: $task}]->()
WHERE e.gen IS NULL OR e.gen <> $gen
DELETE e
RETURN count(*) AS n
