// Vector top-$k at one level for a batch of queries ($queries: [{qid, vector}]; a single search is a
// batch of one). HNSW is approximate, so the caller over-fetches ($fetch >= $k). Rows come per query,
// best first.
UNWIND $queries AS q
CALL (q) {
  CALL db.index.vector.queryNodes($index, $fetch, q.vector) YIELD node, score
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
RETURN q.qid AS qid, node.id AS id, node.citation AS citation, node.text AS text, node.words AS words,
       node.title AS title, node.covers AS covers, score
