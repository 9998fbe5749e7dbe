// The definitions that apply to cited units (issue 45, `verify --definitions`): for each row
// {i, id: a cited unit, text: its citing sentence in lower case}, the Terms whose scope holds the unit
// (its law, a Gliederung above it, its §) and whose lower-case key the sentence contains (a substring
// test; the caller checks word bounds), each with its first defining unit in document order.
UNWIND $rows AS row
MATCH (n:Unit {id: row.id})
CALL (n) {
  MATCH path = (:Gesetz)-[:CONTAINS_GLIEDERUNG|CONTAINS_PARAGRAPH|CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..12]->(n)
  RETURN [a IN nodes(path) | a.id] AS scopes
  LIMIT 1
}
MATCH (t:Term {law: n.law})
WHERE t.scope IN scopes AND row.text CONTAINS t.key
CALL (t) {
  MATCH (u:Unit)-[d:DEFINES]->(t)
  RETURN u, d ORDER BY u.order LIMIT 1
}
RETURN row.i AS i, t.term AS term, t.key AS key, t.scope AS scope,
       t.scope_kind AS scope_kind, u.id AS defined_in, u.citation AS citation, d.pattern AS pattern
