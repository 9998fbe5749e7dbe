// State and population progress of every vector index (the wait after a bulk vector write).
SHOW INDEXES YIELD name, type, state, populationPercent
WHERE type = 'VECTOR'
RETURN name, state, populationPercent
ORDER BY name
