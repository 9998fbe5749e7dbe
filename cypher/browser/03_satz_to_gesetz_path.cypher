// The path from a Satz up to its Gesetz (and the Root): Gliederung breadcrumbs included. Only the
// tree's CONTAINS_* edges: an untyped hop would also walk CITES_* and CO_CITED edges into other §§.
:param id => 'BGB/§433/Abs1/S2';
MATCH path = (root:Root)-[:CONTAINS_GESETZ]->(:Gesetz)
      -[:CONTAINS_GLIEDERUNG|CONTAINS_PARAGRAPH|CONTAINS_ABSATZ|CONTAINS_SATZ|CONTAINS_NUMMER|CONTAINS_BUCHSTABE|CONTAINS_DOPPELBUCHSTABE*1..8]->
      (s:Satz {id: $id})
RETURN path;
