// Full-text top-$k for many queries in one round trip: the batch form of retrieve/fulltext ($q per
// query is the escaped Lucene query legalkg.retrieve.search.lucene_query builds).
UNWIND $queries AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes($index, q.q, {limit: $fetch}) YIELD node, score
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
RETURN q.qid AS qid, node.id AS id, node.words AS words, node.covers AS covers, score
