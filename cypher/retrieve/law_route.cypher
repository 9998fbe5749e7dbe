// The law of each top full-text hit at one level over all laws: the law router's full-text signal
// (legalkg.retrieve.laws). $q is an escaped Lucene query; no law filter, the point is to find the laws.
CALL db.index.fulltext.queryNodes($index, $q, {limit: $fetch}) YIELD node, score
RETURN node.law AS law, node.id AS id, score
ORDER BY score DESC
