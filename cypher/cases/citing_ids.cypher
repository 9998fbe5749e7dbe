// Ids of the decisions that cite other decisions by file number (what link_decisions.cypher reads).
MATCH (d:Decision)
WHERE size(coalesce(d.cites_files, [])) > 0
RETURN d.id AS id
ORDER BY id
