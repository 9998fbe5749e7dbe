// Lexical top-$k at one level through the german full-text index, for a batch of queries
// ($queries: [{qid, q}], each q an escaped Lucene query; a single search is a batch of one).
// $law optionally keeps one law's units, after the index, so the caller over-fetches ($fetch >= $k).
UNWIND $queries AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes($index, q.q, {limit: $fetch}) YIELD node, score
  WITH node, score
  WHERE $law IS NULL OR node.law = $law
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
RETURN q.qid AS qid, node.id AS id, node.citation AS citation, node.text AS text, node.words AS words,
       node.title AS title, node.covers AS covers, score
