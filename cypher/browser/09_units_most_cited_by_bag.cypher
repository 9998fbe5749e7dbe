// The statute units most cited by one court since a date (the BAG since 2015): decisions citing each
// unit, and the citations counted with repeats. Edges end at the deepest unit cited (§ 626 Abs. 2
// Satz 1 BGB counts there, not under § 626 BGB); `paragraph` groups them by §.
:param court => 'BAG';
:param since => '2015-01-01';
MATCH (d:Decision {court: $court})-[r]->(u:Unit)
WHERE type(r) STARTS WITH 'CITES_' AND d.date >= date($since)
RETURN u.citation AS unit, u.law + ' ' + u.para AS paragraph, count(DISTINCT d) AS decisions,
       sum(r.count) AS citations
ORDER BY decisions DESC, citations DESC, unit
LIMIT 25;
