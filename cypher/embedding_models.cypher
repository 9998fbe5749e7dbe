// The embedding model recorded for each vector index (one :EmbeddingModel node per index).
MATCH (m:EmbeddingModel)
RETURN m.index AS index, m.level AS level, m.name AS name, m.version AS version, m.dim AS dim
ORDER BY m.index
