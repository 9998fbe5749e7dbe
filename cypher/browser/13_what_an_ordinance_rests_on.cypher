// What the BKatV rests on: the enabling units its Eingangsformel names, and the references that reach
// no unit (status|citation|words: a law outside the graph, a unit that is gone).
:param law => 'BKatV 2013';
MATCH (g:Gesetz {id: $law})
OPTIONAL MATCH (g)-[e:AUTHORIZED_BY]->(t:Unit)
RETURN g.id AS ordinance, g.issuer AS issued_by, t.citation AS enabling_unit, e.role AS role, e.exact AS exact,
       e.text AS preamble_words, g.enabling_unresolved AS unresolved
ORDER BY t.order;
