// Lexical top-k over one strategy's German full-text index ($q is an escaped Lucene query).
CALL db.index.fulltext.queryNodes($index, $q, {limit: $k}) YIELD node, score
RETURN node.sections AS sections, score
