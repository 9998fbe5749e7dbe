// The statute facts of one unit (issue 45), for `related` and the unit page:
// - rested_on_by: the ordinances whose Eingangsformel names the unit or a unit inside it
//   (AUTHORIZED_BY backlinks), at most $limit rows, with the full count of ordinances;
// - defined_here: the terms the unit or a unit inside it defines (DEFINES), with their scope;
// - applying: the terms whose scope holds the unit (its law, a Gliederung above it, its §) and whose
//   lower-case key its text (or a unit inside it) contains, defined elsewhere; a substring test,
//   not the USES edges of the issue (whose precision was not measured);
// - law_rests_on: what the unit's own law (an ordinance) rests on, its edges and the references of
//   its Eingangsformel that reach no unit (`status|citation|words`, Gesetz.enabling_unresolved).
MATCH (n:Unit {id: $id})
CALL (n) {
  OPTIONAL MATCH (g:Gesetz {id: n.law})
  OPTIONAL MATCH (g)-[e:AUTHORIZED_BY]->(t:Unit)
  WITH g, e, t ORDER BY t.law, t.order
  RETURN [x IN collect(CASE WHEN t IS NULL THEN null ELSE {target: t.id, citation: t.citation, law: t.law,
          role: e.role, exact: e.exact} END) WHERE x IS NOT NULL][..$limit] AS law_rests_on,
         head(collect(g.enabling_unresolved)) AS law_rests_on_unresolved, head(collect(g.issuer)) AS issuer
}
CALL (n) {
  OPTIONAL MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(t:Unit)<-[e:AUTHORIZED_BY]-(g:Gesetz)
  WITH g, e, t ORDER BY g.id, t.order
  WITH collect(CASE WHEN g IS NULL THEN null ELSE {ordinance: g.id, title: g.title, issuer: g.issuer, target: t.id,
               citation: t.citation, role: e.role, exact: e.exact} END) AS rows,
       count(DISTINCT g) AS ordinances
  RETURN rows[..$limit] AS rested_on_by, ordinances AS rested_on_by_count
}
CALL (n) {
  OPTIONAL MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(u:Unit)-[d:DEFINES]->(t:Term)
  WITH u, d, t ORDER BY u.order, t.key
  RETURN [x IN collect(CASE WHEN t IS NULL THEN null ELSE {term: t.term, unit: u.id, citation: u.citation,
          scope: t.scope, scope_kind: t.scope_kind, pattern: d.pattern} END) WHERE x IS NOT NULL][..$limit] AS defined_here
}
CALL (n) {
  OPTIONAL MATCH path = (:Gesetz)-[:CONTAINS_GLIEDERUNG|CONTAINS_PARAGRAPH|CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..12]->(n)
  WITH [a IN nodes(path) | a.id] AS scopes
  LIMIT 1
  WITH scopes, toLower(coalesce(n.text, '') + ' ' + reduce(s = '', x IN COLLECT {
         MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*1..5]->(c:Unit)
         RETURN c.text } | s + ' ' + coalesce(x, ''))) AS text
  OPTIONAL MATCH (t:Term {law: n.law})
  WHERE t.scope IN scopes AND text CONTAINS t.key
    AND NOT EXISTS { MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(:Unit)-[:DEFINES]->(t) }
  OPTIONAL MATCH (u:Unit)-[d:DEFINES]->(t)
  WITH t, u, d ORDER BY size(t.key) DESC, t.key, u.order
  WITH t, collect({unit: u.id, citation: u.citation, pattern: d.pattern})[0] AS first
  RETURN [x IN collect(CASE WHEN t IS NULL THEN null ELSE {term: t.term, scope: t.scope, scope_kind: t.scope_kind,
          unit: first.unit, citation: first.citation, pattern: first.pattern} END) WHERE x IS NOT NULL][..$limit] AS applying
}
RETURN issuer, law_rests_on, law_rests_on_unresolved, rested_on_by, rested_on_by_count, defined_here, applying
