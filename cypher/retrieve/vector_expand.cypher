// Vector top-k seeds and their one-hop expansion in ONE statement (one round trip, as
// neo4j-graphrag's VectorCypherRetriever runs its retrieval query). $parent / $citation switch the
// two hops (expansion parent = parent only, citation = citation only, hybrid = both); the hops are
// those of expand_parent.cypher and expand_citation.cypher. $k limits the seeds, not the rows.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH node, score
ORDER BY score DESC
LIMIT $k
RETURN node.id AS id, node.citation AS citation, node.text AS text, node.words AS words,
       node.title AS title, node.covers AS covers, score,
       COLLECT {
         MATCH (node)<-[r]-(p:Unit)
         WHERE $parent AND type(r) STARTS WITH 'CONTAINS_'
         RETURN p {.id, .citation, .text, .words, .title}
       } AS parents,
       COLLECT {
         MATCH (node)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(d:Unit)-[r]->(t:Unit)
         WHERE $citation AND type(r) STARTS WITH 'CITES_'
         RETURN DISTINCT t {.id, .citation, .text, .words, .title}
       } AS cited
