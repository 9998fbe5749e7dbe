// Ids of one level's nodes whose vector is missing or was made from an older text, in id order
// (the same pages and batches on every run); $laws (law ids, or null for all) narrows them.
MATCH (n:__LABEL__)
WHERE ($laws IS NULL OR n.law IN $laws)
  AND n.text IS NOT NULL AND trim(n.text) <> ''
  AND (n.embedding IS NULL OR n.embedding_hash IS NULL OR n.embedding_hash <> n.hash)
RETURN n.id AS id
ORDER BY id
