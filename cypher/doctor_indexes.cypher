// Every index with its type, state and what it covers (legalkg doctor).
SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties, populationPercent
RETURN name, type, state, labelsOrTypes, properties, populationPercent
ORDER BY name
