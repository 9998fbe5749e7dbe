// kNN over one strategy's vector index: the covered §§ and the cosine score of each hit, best first.
CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, score
RETURN node.sections AS sections, score
