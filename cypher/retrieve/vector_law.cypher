// Exact vector top-k inside one law (the ANN index returns the best of the whole graph, so a
// filter after it can miss every unit of a small law). __LABEL__ comes from the Level enum.
MATCH (node:__LABEL__ {law: $law})
WHERE node.embedding IS NOT NULL
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $k
RETURN node.id AS id, node.citation AS citation, node.text AS text, node.words AS words,
       node.title AS title, node.covers AS covers, score
