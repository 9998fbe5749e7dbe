// The model recorded for one vector index (null when the index has no vectors yet).
OPTIONAL MATCH (m:EmbeddingModel {index: $index})
RETURN m.name AS name, m.version AS version, m.dim AS dim
