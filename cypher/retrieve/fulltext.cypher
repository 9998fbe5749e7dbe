// Lexical top-k at one level through the german full-text index ($q is an escaped Lucene query).
CALL db.index.fulltext.queryNodes($index, $q, {limit: $fetch}) YIELD node, score
WHERE $law IS NULL OR node.law = $law
RETURN node.id AS id, node.citation AS citation, node.text AS text, node.words AS words,
       node.title AS title, node.covers AS covers, score
ORDER BY score DESC
LIMIT $k
