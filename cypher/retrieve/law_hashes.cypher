// Every law of the graph with its structure hash (null while its load is unfinished): the key of the
// § texts kept on disk between processes (legalkg.retrieve.textcache).
MATCH (g:Gesetz)
RETURN g.id AS id, g.hash AS hash
ORDER BY id
