// Vector search at Satz level seeded from an existing unit's vector (Browser cannot embed text),
// then hybrid expansion: the parent and every unit cited from the hit's text.
:param seed => 'BGB/§551/Abs1/S1';
:param k => 5;
MATCH (s:Satz {id: $seed})
CALL db.index.vector.queryNodes('vector_Satz', $k, s.embedding) YIELD node, score
OPTIONAL MATCH (node)<-[up]-(parent:Unit) WHERE type(up) STARTS WITH 'CONTAINS_'
OPTIONAL MATCH (node)-[:CONTAINS_NUMMER|CONTAINS_BUCHSTABE*0..2]->()-[c]->(cited:Unit) WHERE type(c) STARTS WITH 'CITES_'
RETURN node.citation AS hit, score, parent.citation AS parent, collect(DISTINCT cited.citation) AS cites
ORDER BY score DESC;
