// The page /references/broken: broken references per citing law and status (graph.broken).
MATCH (b:BrokenReference)
RETURN b.law AS law, b.status AS status, count(*) AS n
ORDER BY toLower(law), status
