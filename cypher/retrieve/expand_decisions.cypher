// Decisions expansion: for each seed, the §§ that the court decisions in the graph citing the seed's §
// (the § or any unit in it; `legalkg ingest-cases`) cite most often besides it: most citing decisions
// first, then the id. $seeds: {seed, para} rows, para the seed's § id (retrieve/expand.py); $per_seed
// §§ per seed; $exclude: decision ids never read (an evaluation's own cases). Without decisions in the
// graph the hop adds nothing.
UNWIND $seeds AS s
MATCH (p:Unit {id: s.para})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(u:Unit)<-[r]-(d:Decision)
WHERE type(r) STARTS WITH 'CITES_' AND NOT d.id IN $exclude
WITH s, p, collect(DISTINCT d) AS citing
CALL (p, citing) {
  UNWIND citing AS d
  MATCH (d)-[c]->(v:Unit)
  WHERE type(c) STARTS WITH 'CITES_' AND v.para IS NOT NULL AND NOT (v.law = p.law AND v.para = p.para)
  WITH v.law + '/' + v.para AS target, count(DISTINCT d) AS decisions
  ORDER BY decisions DESC, target
  LIMIT $per_seed
  RETURN target, decisions
}
MATCH (t:Unit {id: target})
RETURN s.seed AS seed, t.id AS id, t.citation AS citation, t.text AS text, t.words AS words,
       t.title AS title, 'decisions' AS via, decisions
ORDER BY seed, decisions DESC, id
