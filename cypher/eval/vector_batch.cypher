// Vector top-$k for many queries in one round trip: the batch form of retrieve/vector (same
// over-fetch $fetch, no law filter). Rows come per query in descending score; the caller ranks them.
UNWIND $queries AS q
CALL (q) {
  CALL db.index.vector.queryNodes($index, $fetch, q.vector) YIELD node, score
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
RETURN q.qid AS qid, node.id AS id, node.words AS words, node.covers AS covers, score
