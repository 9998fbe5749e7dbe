// Which ordinances rest on § 6 StVG (or any unit inside it): AUTHORIZED_BY from each ordinance's
// Gesetz node to the units its Eingangsformel names, with the words of the preamble.
:param id => 'StVG/§6';
MATCH (g:Gesetz)-[e:AUTHORIZED_BY]->(t:Unit)
WHERE t.id = $id OR t.id STARTS WITH $id + '/'
RETURN g.id AS ordinance, g.title AS title, t.citation AS enabling_unit, e.role AS role, e.text AS preamble_words,
       g.issuer AS issued_by
ORDER BY ordinance, t.order;
