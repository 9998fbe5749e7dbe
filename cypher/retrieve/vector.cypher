// Vector top-k at one level. HNSW is approximate, so the caller over-fetches ($fetch >= $k) and the
// optional law filter runs on the fetched candidates.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WHERE $law IS NULL OR node.law = $law
RETURN node.id AS id, node.citation AS citation, node.text AS text, node.words AS words,
       node.title AS title, node.covers AS covers, score
ORDER BY score DESC
LIMIT $k
