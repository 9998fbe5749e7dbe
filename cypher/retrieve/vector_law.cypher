// Exact vector top-$k inside one law for a batch of queries ($queries: [{qid, vector}]). The ANN index
// returns the best of the whole graph, so a filter after it can miss every unit of a small law.
// __LABEL__ comes from the Level enum.
UNWIND $queries AS q
CALL (q) {
  MATCH (node:__LABEL__ {law: $law})
  WHERE node.embedding IS NOT NULL
  WITH node, vector.similarity.cosine(node.embedding, q.vector) AS score
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
RETURN q.qid AS qid, node.id AS id, node.citation AS citation, node.text AS text, node.words AS words,
       node.title AS title, node.covers AS covers, score
