// Record which model fills a vector index (refuses mixing: checked before writing vectors).
MERGE (m:EmbeddingModel {index: $index})
SET m.level = $level, m.name = $name, m.version = $version, m.dim = $dim, m.updated = datetime()
