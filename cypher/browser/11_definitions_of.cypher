// Where a term is defined, each definition with its scope: "Verbraucher" in every law of the graph
// (Term nodes per term and scope; DEFINES from the defining unit; `:param law => 'BGB'` for one law).
:param term => 'verbraucher';
:param law => null;
MATCH (u:Unit)-[d:DEFINES]->(t:Term {key: $term})
WHERE $law IS NULL OR t.law = $law
RETURN t.term AS term, t.law AS law, t.scope AS scope, t.scope_kind AS scope_kind, u.citation AS defined_in,
       d.pattern AS pattern, u.text AS text
ORDER BY law, u.order;
