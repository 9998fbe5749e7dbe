// Whether a law id is in the graph (for --law).
OPTIONAL MATCH (g:Gesetz {id: $law})
RETURN g IS NOT NULL AS exists
