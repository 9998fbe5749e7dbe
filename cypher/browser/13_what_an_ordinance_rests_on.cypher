// What the BKatV rests on: the enabling units its Eingangsformel names (AUTHORIZED_BY to a Unit), the
// laws it names that are outside the graph (unresolved AUTHORIZED_BY edges to a CitedLaw node, with their
// status) and every reference that reaches no unit (status|citation|words: also a unit that is gone).
:param law => 'BKatV 2013';
MATCH (g:Gesetz {id: $law})
OPTIONAL MATCH (g)-[e:AUTHORIZED_BY]->(t:Unit|CitedLaw)
RETURN g.id AS ordinance, g.issuer AS issued_by, coalesce(t.citation, t.name) AS enabling_unit,
       e.status AS unresolved_status, e.citation AS named_as, e.role AS role, e.exact AS exact,
       e.text AS preamble_words, g.enabling_unresolved AS unresolved
ORDER BY t.order, e.start;
