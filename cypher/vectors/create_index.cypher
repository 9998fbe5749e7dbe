// One cosine vector index per level on the `embedding` property; __LABEL__ comes from Level/Chunk.
// Quantization off: it lost a sixth of the true top 10 of static's 256-d vectors at the vector run's
// fetch of 50, at about the same population time (eval/encoder/index-cost/README.md).
CREATE VECTOR INDEX vector___LABEL__ IF NOT EXISTS
FOR (n:__LABEL__) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: toInteger($dim), `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}}
