// The court decisions citing § 573 Abs. 2 BGB (or a unit inside it: its Nummern), by court, most
// recent first: loaded by `legalkg ingest-cases`. Edges end at the deepest unit a decision cites, so
// the pattern looks inside the unit; `cited` lists what each court's decisions cite there.
:param id => 'BGB/§573/Abs2';
MATCH (n:Unit {id: $id})-[:CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..4]->(u:Unit)<-[r]-(d:Decision)
WHERE type(r) STARTS WITH 'CITES_'
WITH d, collect(DISTINCT u.citation) AS cited
ORDER BY d.date IS NULL, d.date DESC, d.id
RETURN d.court AS court, count(d) AS decisions,
       collect({file_number: d.file_number, date: toString(d.date), type: d.type, cited: cited})[0..10] AS most_recent
ORDER BY decisions DESC, court;
