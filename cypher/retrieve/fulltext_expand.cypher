// Full-text top-k seeds and their one-hop expansion in ONE statement (see vector_expand.cypher).
// $q is an escaped Lucene query; $law optionally keeps one law's units.
CALL db.index.fulltext.queryNodes($index, $q, {limit: $fetch}) YIELD node, score
WHERE $law IS NULL OR node.law = $law
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
