// The court decisions citing a unit or any unit inside it (the backlinks of `legalkg ingest-cases`):
// count = distinct citing decisions, courts = decisions per court (most first), decisions = the
// $limit most recent (undated last, then by id), each with the units it cites here (id, citation)
// and how often. Edges end at the deepest unit a decision cites, so the pattern looks inside the unit
// as unit/related.cypher does for citing units.
MATCH (n:Unit {id: $id})
OPTIONAL MATCH (n)-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(u:Unit)<-[r]-(d:Decision)
WHERE type(r) STARTS WITH 'CITES_'
WITH d, collect(DISTINCT {id: u.id, citation: u.citation}) AS units, sum(r.count) AS times
WHERE d IS NOT NULL
WITH d, units, times
ORDER BY d.date IS NULL, d.date DESC, d.id
WITH collect({id: d.id, court: d.court, date: toString(d.date), file_number: d.file_number, ecli: d.ecli,
              type: d.type, lead: d.lead, units: units, times: times}) AS rows
RETURN size(rows) AS count,
       COLLECT {
         UNWIND rows AS x
         WITH coalesce(x.court, '?') AS court, count(*) AS decisions
         ORDER BY decisions DESC, court
         RETURN {court: court, count: decisions}
       } AS courts,
       rows[0..$limit] AS decisions
