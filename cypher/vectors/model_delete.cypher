// Forget the model of a vector index (before re-embedding with another model).
MATCH (m:EmbeddingModel {index: $index})
DELETE m
