// One cosine vector index per strategy: study_<strategy> over (:Study_<strategy>).embedding.
CREATE VECTOR INDEX study___NAME__ IF NOT EXISTS
FOR (n:__LABEL__) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: toInteger($dim), `vector.similarity_function`: 'cosine'}}
