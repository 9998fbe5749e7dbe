// Enabling provisions of a law that no ordinance of the graph names: Sätze that empower someone to
// issue a Rechtsverordnung, with no AUTHORIZED_BY edge to them, to a unit inside them or to a unit
// that holds them (`:param law => null` for every law; a text scan, seconds on all laws).
:param law => 'StVG';
MATCH (s:Satz)
WHERE ($law IS NULL OR s.law = $law) AND s.text CONTAINS 'ermächtigt' AND s.text CONTAINS 'Rechtsverordnung'
  AND NOT coalesce(s.repealed, false)
  AND NOT EXISTS {
    MATCH (:Gesetz)-[:AUTHORIZED_BY]->(t:Unit {law: s.law})
    WHERE t.id = s.id OR t.id STARTS WITH s.id + '/' OR s.id STARTS WITH t.id + '/'
  }
RETURN s.citation AS enabling_provision, left(s.text, 160) AS text
ORDER BY s.order;
