// One cosine vector index per level on the `embedding` property; __LABEL__ comes from Level/Chunk.
CREATE VECTOR INDEX vector___LABEL__ IF NOT EXISTS
FOR (n:__LABEL__) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: toInteger($dim), `vector.similarity_function`: 'cosine'}}
