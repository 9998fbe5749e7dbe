// Every node's id, labels and content hash (graph checksum for idempotence tests).
MATCH (n)
RETURN coalesce(n.id, n.index) AS id, labels(n) AS labels, n.hash AS hash
