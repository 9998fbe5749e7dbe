// The path from a Satz up to its Gesetz (and the Root): Gliederung breadcrumbs included.
:param id => 'BGB/§433/Abs1/S2';
MATCH path = (root:Root)-[:CONTAINS_GESETZ]->(:Gesetz)-[*1..8]->(s:Satz {id: $id})
RETURN path;
