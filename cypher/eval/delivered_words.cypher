// W^m_l for the three expansions at once: mean words delivered per retrieved unit of one level
// including its one-hop expansion context, averaged over every unit of the level in the graph (the
// paper's "average total words delivered per chunk"). The context is exactly what
// retrieve/expand_parent and retrieve/expand_citation return for a seed: parent = the CONTAINS
// parent when it is a text unit (a § has none), citation = every unit cited by the seed or by
// anything inside it, hybrid = both, each distinct unit once; the unit itself is never counted twice.
MATCH (n:__LABEL__)
WHERE n.words > 0
OPTIONAL MATCH (n)<-[r]-(p:Unit)
WHERE type(r) STARTS WITH 'CONTAINS_'
WITH n, collect(p) AS parents
CALL (n) {
  OPTIONAL MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(:Unit)-[r]->(t:Unit)
  WHERE type(r) STARTS WITH 'CITES_' AND t <> n
  RETURN collect(DISTINCT t) AS cited
}
WITH n,
     reduce(s = 0, x IN parents | s + coalesce(x.words, 0)) AS parent_words,
     reduce(s = 0, x IN cited | s + coalesce(x.words, 0)) AS cited_words,
     reduce(s = 0, x IN [y IN parents WHERE NOT y IN cited] | s + coalesce(x.words, 0)) AS parent_only
RETURN count(n) AS units,
       avg(toFloat(n.words)) AS none,
       avg(toFloat(n.words + parent_words)) AS parent,
       avg(toFloat(n.words + cited_words)) AS citation,
       avg(toFloat(n.words + cited_words + parent_only)) AS hybrid
