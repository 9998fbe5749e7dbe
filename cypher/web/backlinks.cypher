// The units that cite $id or a unit inside it (the backlinks), at most $limit: each citing unit
// (the most specific one that writes the reference, a Satz or Nummer) with its text, the offsets of
// the chains in it that cite (each edge's starts/ends), and the title of the § that holds it.
MATCH (n:Unit {id: $id})-[:CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*0..5]->(:Unit)<-[r]-(s:Unit)
WHERE type(r) STARTS WITH 'CITES_'
WITH s, collect(DISTINCT {starts: r.starts, ends: r.ends}) AS edges ORDER BY s.law, s.order
LIMIT $limit
OPTIONAL MATCH (para:Paragraph {id: s.law + '/' + split(s.id, '/')[1]})
RETURN s.id AS id, s.law AS law, s.citation AS citation, s.text AS text, coalesce(s.repealed, false) AS repealed,
       edges, para.id AS para, para.citation AS para_citation, para.title AS para_title
