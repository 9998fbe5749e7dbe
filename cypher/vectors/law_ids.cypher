// The graph's law ids named by $names (lower-case id, jurabk, amtabk or gii slug of a Gesetz);
// a name that matches no law comes back with an empty list.
UNWIND $names AS name
OPTIONAL MATCH (g:Gesetz)
WHERE toLower(g.id) = name OR toLower(g.jurabk) = name OR toLower(g.amtabk) = name
   OR toLower(g.slug) = name
RETURN name, collect(DISTINCT g.id) AS ids
