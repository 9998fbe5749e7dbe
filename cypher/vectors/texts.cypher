// The texts of one page of pending nodes of one level, by id.
UNWIND $ids AS id
MATCH (n:__LABEL__ {id: id})
RETURN n.id AS id, n.text AS text
