// Everything that cites § 437 BGB or any unit inside it, with the reference as written.
:param id => 'BGB/§437';
MATCH (target:Unit) WHERE target.id = $id OR target.id STARTS WITH $id + '/'
MATCH (src:Unit)-[c]->(target)
WHERE type(c) STARTS WITH 'CITES_'
RETURN src.citation AS citing, c.text AS reference, c.kind AS kind, target.citation AS cited
ORDER BY citing;
