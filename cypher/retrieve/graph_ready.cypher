// Whether the graph holds a finished law: ingest sets Gesetz.hash last, so a graph without one is
// empty, or its ingest stopped before any law was complete (a search would answer from fragments).
RETURN EXISTS { MATCH (g:Gesetz) WHERE g.hash IS NOT NULL } AS ready
