// The laws in the graph for the home page's list: key, title and whether the law finished loading.
MATCH (g:Gesetz)
RETURN g.id AS id, g.title AS title, g.hash IS NOT NULL AS loaded
ORDER BY toLower(g.id)
