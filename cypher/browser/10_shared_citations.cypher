// Two decisions' shared citations: the §§ both cite, each with the deepest units either cites there
// (one may cite § 573 Abs. 2 Nr. 2, the other § 573 Abs. 1 Satz 1: they share § 573 BGB).
:param a => 'oldp:101';
:param b => 'oldp:103';
MATCH (da:Decision {id: $a})-[ra]->(ua:Unit)
WHERE type(ra) STARTS WITH 'CITES_'
MATCH (db:Decision {id: $b})-[rb]->(ub:Unit)
WHERE type(rb) STARTS WITH 'CITES_' AND ub.law = ua.law AND ub.para = ua.para
WITH ua.law AS law, ua.para AS paragraph, collect(DISTINCT ua.citation) AS cited_by_a,
     collect(DISTINCT ub.citation) AS cited_by_b
RETURN law, paragraph, cited_by_a, cited_by_b, [c IN cited_by_a WHERE c IN cited_by_b] AS same_units
ORDER BY law, paragraph;
