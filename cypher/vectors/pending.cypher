// Nodes of one level whose vector is missing or was made from an older text.
MATCH (n:__LABEL__)
WHERE n.text IS NOT NULL AND trim(n.text) <> ''
  AND (n.embedding IS NULL OR n.embedding_hash IS NULL OR n.embedding_hash <> n.hash)
RETURN n.id AS id, n.text AS text
